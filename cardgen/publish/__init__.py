"""publish: the driver and what it drives: plan the outputs, render each in a worker under
ceilings, cache by content, publish atomically. Each part is a module of its own, imported by
those that use it (this package's own module imports nothing: a command imports only the parts
it needs):

- check: the one full check of a game folder (`check_folder`, `load_checked`, `Rejected`)
- driver: a `Request` -> `drive` -> `Built`; reuse: the last run's outputs when nothing changed
- run: the build's half of the driver, `render_and_publish` and its `Job`s; result: `Event`, `Result`
- kinds/: every output kind, in one registry, and (kinds/option_types) the shipped kinds' options;
  plan: `Output`, `Plan`, `PaperOptions`
- workers: the worker pool; limits: its ceilings; folder: staging, the manifest, the atomic
  publish; cache: the inputs' snapshot and the cache keys
- simulate, playtest, preflight/, templates: the simulated figures, a playtest round, preflight,
  the game's own templates tried at check
"""

"""check: the stage between load and render. `check.game.check_game` plays out every setup (the
engine) and runs every other check of the data: the text lint, glyph coverage, text fit and art
resolution. It is pure: the full check of a game folder (load, check_game, the game's own
templates, the changes since game.yaml's changes_since) is `publish.check.check_folder`.

This package's own module imports nothing: `check.results` (the reports every later stage reads)
is imported without the checks and the type setter they measure with."""

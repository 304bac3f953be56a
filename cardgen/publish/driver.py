"""publish/driver: the one way from a game folder to its outputs, load -> check -> plan -> render
-> publish, for every building command, serve and the tests.

A request (publish/request.py) names the game, how to plan its outputs, its languages, the
output folder and the options; `drive` answers with what was built. When the input files and the
command's options are those of its last run in the output folder, and that run's outputs are
unchanged there, nothing is loaded: the last run's outputs are the answer (`publish/reuse.py`).
Only otherwise is the build's half imported, by its name (RUN, below): the check, the output
kinds' planning, the worker pool and the renderers. So this module, and a build with nothing to
do, import none of them. The full check of a game folder is `publish/check.py`'s `check_folder`."""
from __future__ import annotations

from cardgen.inputs.games import find_game_folder
from cardgen.publish import cache
from cardgen.publish.imports import import_kept
from cardgen.publish.request import Built, Request
from cardgen.publish.reuse import reuse

RUN = "cardgen.publish.run"  # the build's half: `built(request, folder, inputs)`


def drive(request: Request) -> Built:
    """Load and check the game, plan its outputs in each language asked for, render them all on one
    pool of workers and publish each language's into its folder. Rejected when the check finds an
    error; UsageError for a language the game does not have."""
    folder = find_game_folder(request.game)
    inputs = request.inputs or cache.snapshot(folder)  # read before loading: what the outputs are made from
    # with --lang the folder depends on the game's source language: the game is loaded, and the
    # run reuses each output whose inputs did not change
    if request.options is not None and not request.clean and request.language is None:
        reused = reuse(inputs, request.options, request.out)
        if reused is not None:
            return Built((reused,), reused=True)
    made: Built = import_kept(RUN).built(request, folder, inputs)
    return made

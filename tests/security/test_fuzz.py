"""Threat 12: no input makes cardgen print a traceback or exit with anything but 0, 1 or 2.

Broken game folders are generated from the tiny test game and the real Exploding Puppy data:
random YAML documents in place of each file, and random edits of the real text. Every run goes
through the command line's `check` entry point in-process; an exception escaping it is a failure.
"""
from __future__ import annotations

import contextlib
import io
import shutil
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from cardgen.cli import main
from conftest import CARD_DATA, TINY_GAME

FILES = ("game.yaml", "cards.yaml", "setups.yaml")
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                      HealthCheck.too_slow])

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**9, 10**9), st.floats(allow_nan=True),
    st.text(max_size=30),
    st.sampled_from(["red", "blue", "Boom", "Shield", "deck", "players - 1", "hazard", "now",
                     "{number:02d}", "../../etc/passwd", "~", "yes", "1.10", "012", "#zzzzzz"]),
)
keys = st.sampled_from(["name", "color", "kind", "tags", "number", "cards", "setups", "players",
                        "min", "max", "hand", "deal", "extras", "steps", "setup", "move", "from",
                        "to", "select", "count", "checks", "id", "level", "on", "at_least",
                        "colors", "hex", "symbol", "title", "series", "numbers", "copies", "waive"])
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.one_of(keys, st.text(max_size=8)), inner, max_size=6)),
    max_leaves=30)


def run_check(folder: Path) -> int:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["check", str(folder)])
        except SystemExit as exc:
            code = exc.code
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code


def fresh_copy(source: Path, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fuzz") / "game"
    shutil.copytree(source, folder)
    return folder


@settings(max_examples=1500, **SETTINGS)
@given(which=st.sampled_from(FILES), document=documents)
def test_random_documents_in_place_of_a_game_file(tmp_path_factory, which, document):
    folder = fresh_copy(TINY_GAME, tmp_path_factory)
    (folder / which).write_text(yaml.safe_dump(document, allow_unicode=True))
    assert run_check(folder) in (0, 1)


edits = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 12),
                           st.sampled_from(["", ":", "- ", "  ", "\n", "'", '"', "&a ", "*a", "{", "]",
                                            "\t", "null", "-1", "é", "\x00", "---\n", "%YAML 1.1\n"])),
                 min_size=1, max_size=4)


def mutate(text: str, changes) -> str:
    for position, cut, insert in changes:
        at = position % (len(text) + 1)
        text = text[:at] + insert + text[at + cut:]
    return text


@settings(max_examples=1000, **SETTINGS)
@given(which=st.sampled_from(FILES), changes=edits)
def test_random_edits_of_the_tiny_game(tmp_path_factory, which, changes):
    folder = fresh_copy(TINY_GAME, tmp_path_factory)
    path = folder / which
    path.write_text(mutate(path.read_text(), changes))
    assert run_check(folder) in (0, 1)


@settings(max_examples=150, **SETTINGS)
@given(which=st.sampled_from(FILES), changes=edits)
def test_random_edits_of_the_real_game(tmp_path_factory, which, changes):
    folder = fresh_copy(CARD_DATA / "exploding_puppy", tmp_path_factory)
    path = folder / which
    path.write_text(mutate(path.read_text(), changes))
    assert run_check(folder) in (0, 1)

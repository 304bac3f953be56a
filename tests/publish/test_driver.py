"""The one check entry point and the one driver: `cardgen check` and every build find the same
findings; a report, once made, is never changed (later stages make new ones); a reprint loads the
game once."""
from __future__ import annotations

import dataclasses
import shutil

import pytest
from conftest import CARD_DATA, TINY_GAME, cardgen, edit

from cardgen import load
from cardgen.publish.check import Rejected, check_folder, load_checked
from cardgen.publish.driver import drive
from cardgen.publish.kinds.sheets import plan_cards
from cardgen.publish.request import Request
from cardgen.publish.simulate import add_how_it_plays

BROKEN_TEMPLATE = '{% extends "base.html" %}\n{% block body %}\n<p>{{ nosuchvar.x }}</p>\n{% endblock %}\n'


@pytest.fixture
def two_late_errors(game_copy):
    """The tiny game with the two errors only the full check finds, after check_game: its own
    template fails, and changes_since names a revision that is not there (the folder is no
    repository)."""
    game = game_copy(TINY_GAME)
    (game / "templates").mkdir()
    (game / "templates" / "rulebook.html").write_text(BROKEN_TEMPLATE)
    edit(game / "game.yaml", 'version: "0.1"', 'version: "0.1"\nchanges_since: v1')
    return game


def error_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if ": error: " in line]


@pytest.mark.slow
def test_check_and_a_build_find_the_same_findings(two_late_errors, tmp_path):
    game = two_late_errors
    errors = check_folder(game).errors()
    assert sorted(f.code for f in errors) == ["bad-changes-since", "template-error"]
    code, out, _ = cardgen("check", game)
    checked = error_lines(out)
    assert code == 1 and len(checked) == 2
    for command in ("build", "rulebook", "cards"):
        code, _, err = cardgen(command, game, "--out", tmp_path / command)
        assert code == 1 and error_lines(err) == checked, (command, err)
        assert "nothing was built" in err and not (tmp_path / command).exists()
    with pytest.raises(Rejected) as rejected:
        drive(Request(game, lambda game, report: plan_cards(game), out=tmp_path / "driven"))
    assert rejected.value.findings == errors


def test_a_report_is_never_changed_after_check(tmp_path):
    """The simulated figures the documents print come as a new report; the check's stays as made."""
    game_folder = tmp_path / "exploding_kittens"
    shutil.copytree(CARD_DATA / "exploding_kittens", game_folder)
    edit(game_folder / "game.yaml", "  saved: random\n", "  saved: random\n  documents: true\n")
    game, report = load_checked(game_folder)
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.findings = ()  # type: ignore[misc]
    played = add_how_it_plays(game, report, tmp_path)
    assert all(count.plays is not None for setup in played.setups for count in setup.players)
    assert all(count.plays is None for setup in report.setups for count in setup.players)
    assert played.findings == report.findings and played.game is report.game


def test_a_reprint_loads_the_game_once(game_copy, tmp_path, monkeypatch):
    """`cards --changed-since`: the playtest round's check is the build's."""
    old = game_copy(TINY_GAME, "old")
    new = game_copy(TINY_GAME, "tiny_game")
    edit(new / "cards.yaml", '"Look at the top (2) cards."', '"Look at the top (2) cards, then put them back."')
    loaded = []
    real = load.load_game

    def counted(folder=None):
        loaded.append(load.find_game_folder(folder))
        return real(folder)

    monkeypatch.setattr(load, "load_game", counted)
    code, _, err = cardgen("cards", new, "--changed-since", old, "--out", tmp_path / "out")
    assert code == 0, err
    assert loaded.count(new.resolve()) == 1 and len(loaded) == 2  # the game once, its old version once

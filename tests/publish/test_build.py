"""`cardgen rulebook`, `cardgen checklist` and `cardgen build` from the command line."""
from __future__ import annotations

import pypdf
import pytest
from conftest import TINY_GAME, edit, page_texts

from cardgen import cli
from cardgen.publish.run import PLACEHOLDERS_NAMED


def run(capsys, *argv) -> tuple[int, str]:
    try:
        code = cli.main([str(a) for a in argv])
    except SystemExit as exc:  # load_and_check exits on data errors
        code = exc.code
    return code, capsys.readouterr().err


@pytest.mark.slow
def test_rulebook_command(capsys, tmp_path):
    code, err = run(capsys, "rulebook", TINY_GAME, "--out", tmp_path, "--paper", "letter")
    assert code == 0
    path = tmp_path / "rulebook.pdf"
    assert f"wrote {path}" in err
    box = pypdf.PdfReader(path).pages[0].mediabox
    assert round(float(box.width)) == 612


def test_checklist_command_for_one_setup_and_player_count(capsys, tmp_path):
    code, _ = run(capsys, "checklist", TINY_GAME, "--setup", "starter", "--players", "2", "--out", tmp_path)
    assert code == 0
    reader = pypdf.PdfReader(tmp_path / "checklists.pdf")
    assert len(reader.pages) == 1
    assert "Starter" in reader.pages[0].extract_text()


def test_checklist_command_with_an_unknown_setup_is_a_usage_error(capsys, tmp_path):
    code, err = run(capsys, "checklist", TINY_GAME, "--setup", "nope", "--out", tmp_path)
    assert code == 2
    assert "Starter" in err
    assert not (tmp_path / "checklists.pdf").exists()


def test_checklist_command_with_players_outside_the_range_is_a_usage_error(capsys, tmp_path):
    code, err = run(capsys, "checklist", TINY_GAME, "--players", "9", "--out", tmp_path)
    assert code == 2
    assert "2–3 players, not 9" in err
    assert not tmp_path.joinpath("checklists.pdf").exists()


def test_checklist_command_for_no_players_is_a_usage_error(capsys, tmp_path):
    code, err = run(capsys, "checklist", TINY_GAME, "--players", "0", "--out", tmp_path)
    assert code == 2
    assert "argument --players: 0 is out of range: give 1 to 100" in err
    assert not tmp_path.joinpath("checklists.pdf").exists()


@pytest.mark.slow
def test_build_warns_once_about_the_cards_without_art_on_all_its_sheets(capfd, game_copy, tmp_path):
    """Each card sheet finds its own cards without art; `build` lists them all in one warning.
    capfd, not capsys: it also sees what the worker processes print."""
    folder = game_copy(TINY_GAME)
    with open(folder / "setups.yaml", "a", encoding="utf-8") as setups:  # a second sheet, without Peek
        setups.write("  - {name: Quick, players: {min: 2, max: 3}, hand: {deal: 3}, "
                     "cards: {Boom: 5, shield: 4, 'no': 11}}\n")
    out = tmp_path / "out"
    code, err = run(capfd, "build", folder, "--out", out)
    assert code == 0, err
    assert (out / "cards-starter.pdf").is_file() and (out / "cards-quick.pdf").is_file()
    assert err.count("have no art") == 1, err
    assert "warning: tiny_game: 4 cards have no art, drawn with placeholders: Boom, No, Peek, Shield\n" in err


def test_cards_for_one_setup_warns_once_about_its_cards_without_art(capfd, tmp_path):
    code, err = run(capfd, "cards", TINY_GAME, "--out", tmp_path)
    assert code == 0, err
    assert err.count("have no art") == 1, err
    assert "warning: tiny_game: 4 cards have no art, drawn with placeholders: Boom, No, Peek, Shield\n" in err


def test_the_warning_about_cards_without_art_names_the_first_few(capfd, tmp_path):
    """Exploding Cards has no art for its 14 cards: one readable line, not every name."""
    code, err = run(capfd, "cards", "exploding_cards", "--out", tmp_path)
    assert code == 0, err
    warning = next(line for line in err.splitlines() if "have no art" in line)
    head, names = warning.split("drawn with placeholders: ")
    assert head == "warning: exploding_cards: 14 cards have no art, "
    assert names.endswith(" and 6 more")
    assert names.count(", ") == PLACEHOLDERS_NAMED - 1


def test_build_stops_on_data_errors_and_writes_nothing(capsys, game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    setups = folder / "setups.yaml"
    setups.write_text(setups.read_text().replace("Peek: 6", "Peeek: 6"))
    out = tmp_path / "out"
    code, err = run(capsys, "build", folder, "--out", out)
    assert code == 1
    assert "Peeek" in err and "did you mean" in err
    assert not out.exists()


@pytest.mark.slow
def test_editing_a_card_text_changes_the_card_sheet_and_the_rulebook(capsys, game_copy, tmp_path):
    folder = game_copy()  # the tiny game
    edit(folder / "cards.yaml", 'text: "Cancel an action."', 'text: "Stop any action. Zebrafied wording."')
    out = tmp_path / "out"
    assert run(capsys, "cards", str(folder), "--setup", "Starter", "--out", str(out))[0] == 0
    assert run(capsys, "rulebook", str(folder), "--out", str(out))[0] == 0

    def pages_with(name: str) -> int:
        return sum("Zebrafied" in text for text in page_texts(out / name))

    assert pages_with("cards-starter.pdf") >= 1  # Starter prints its No cards
    assert pages_with("rulebook.pdf") == 1


def test_an_unexpected_exception_while_rendering_is_a_bug_with_its_traceback(capsys, monkeypatch, tmp_path):
    from cardgen.render.documents import rulebook

    def slip(*args, **kwargs):
        raise ZeroDivisionError("a slip in cardgen")

    monkeypatch.setattr(rulebook, "rulebook_context", slip)  # the worker processes are forked: they see it
    code, err = run(capsys, "rulebook", TINY_GAME, "--out", tmp_path)
    assert code == 3
    assert "Traceback" in err and "ZeroDivisionError: a slip in cardgen" in err
    assert "bug in cardgen" in err and "while rendering the rulebook" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_an_unexpected_exception_in_check_is_a_bug_with_its_traceback(capsys, monkeypatch):
    from cardgen.check import engine

    def slip(*args, **kwargs):
        raise KeyError("a slip in cardgen")

    monkeypatch.setattr(engine, "check_setup", slip)
    code, err = run(capsys, "check", TINY_GAME)
    assert code == 3
    assert "Traceback" in err and "KeyError: 'a slip in cardgen'" in err and "bug in cardgen" in err

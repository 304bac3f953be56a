"""No silent failures. A missing image, a font that fails, a broken symbol, or an error
inside WeasyPrint or ReportLab gives a non-zero exit, no new output file and a message naming the
card, font or template; never a traceback, never a PDF quietly missing a part."""
from __future__ import annotations

import contextlib
import io

import pytest
from conftest import TINY_GAME

from cardgen.cli import main
from security.conftest import outputs, refused, set_card


def run(*argv) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
    text = out.getvalue() + err.getvalue()
    assert "Traceback" not in text
    return code, text


def test_a_missing_art_file_stops_the_build_naming_the_card(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    set_card(folder, "Boom", art="art/boom.png")
    out = tmp_path / "out"
    code, text = run("build", folder, "--out", out)
    assert code == 1
    assert "Boom" in text and "art/boom.png" in text and "does not exist" in text
    assert outputs(out) == []


def test_a_font_that_fails_stops_the_card_sheets(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "fonts").mkdir()
    (folder / "fonts" / "Broken.ttf").write_bytes(b"\x00\x01\x00\x00" + b"not a font" * 100)
    (folder / "layout.yaml").write_text("fonts: {text: Broken.ttf}\n")
    message = refused("cards", folder, tmp_path / "out")
    assert "Broken.ttf" in message


def test_a_font_that_fails_stops_the_rulebook(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "fonts").mkdir()
    (folder / "fonts" / "Broken.ttf").write_bytes(b"\x00\x01\x00\x00" + b"not a font" * 100)
    message = refused("rulebook", folder, tmp_path / "out")
    assert "Broken.ttf" in message


@pytest.mark.parametrize("svg", [
    "this is not XML",
    '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"><rect width="1" height="1"/></svg>',
], ids=["not-xml", "zero-size"])
def test_a_broken_symbol_stops_the_card_sheets_naming_it(svg, game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "symbols").mkdir()
    (folder / "symbols" / "bomb.svg").write_text(svg)
    message = refused("cards", folder, tmp_path / "out")
    assert "bomb.svg" in message


def test_a_weasyprint_error_stops_the_command_naming_the_template(game_copy, tmp_path, monkeypatch):
    import weasyprint

    def explode(*args, **kwargs):
        raise RuntimeError("layout engine gave up")

    monkeypatch.setattr(weasyprint.HTML, "render", explode)
    out = tmp_path / "out"
    code, text = run("rulebook", game_copy(TINY_GAME), "--out", out)
    assert code == 1
    assert "rulebook.html" in text and "layout engine gave up" in text
    assert outputs(out) == []


def test_a_reportlab_error_stops_the_card_sheets_naming_the_card(game_copy, tmp_path, monkeypatch):
    from cardgen.render import cards

    def explode(self, element, card, color, box):
        if card.name == "Peek":
            raise ValueError("paragraph parser gave up")

    monkeypatch.setattr(cards.CardPainter, "_draw_text", explode)
    message = refused("cards", game_copy(TINY_GAME), tmp_path / "out")
    assert "Peek" in message and "paragraph parser gave up" in message


def test_a_build_with_a_failing_output_exits_1_and_names_it(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    set_card(folder, "Shield", text="Stops a Boom. " * 200)
    out = tmp_path / "out"
    code, text = run("build", folder, "--out", out)
    assert code == 1
    assert "card 'Shield'" in text and "does not fit" in text
    assert outputs(out) == []

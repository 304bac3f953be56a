"""The compact canvas (render/compact): the same file as ReportLab's own canvas writes, byte for
byte, holding a sheet of many different cards in a fraction of the memory."""
from __future__ import annotations

import tracemalloc

import pytest
from conftest import TINY_GAME, checked, edit, sheet_for
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from bench.big_game import write_big_game
from cardgen.layout.reportlab_config import reproducible
from cardgen.render import print_color
from cardgen.render.cards import sheets
from cardgen.render.compact import CompactCanvas


class ReportLabCanvas(CompactCanvas):
    """The compact canvas's settings, its pages, forms and file made by ReportLab's own code."""

    showPage = Canvas.showPage
    endForm = Canvas.endForm
    getpdfdata = Canvas.getpdfdata


class ReportLabCmykCanvas(print_color.CmykCanvas):
    """The CMYK canvas, its pages, forms and file made by ReportLab's own code."""

    showPage = Canvas.showPage
    endForm = Canvas.endForm
    getpdfdata = Canvas.getpdfdata


@pytest.mark.parametrize("game_name", ["exploding_puppy", "creature_clash", "star_tricks"])
@pytest.mark.parametrize("cmyk", [False, True], ids=["rgb", "cmyk"])
def test_a_sheet_is_byte_for_byte_the_sheet_reportlab_writes(game_name, cmyk, monkeypatch):
    game, report = checked(game_name)
    sheet, cards = sheet_for(game), list(game.cards)
    compact = sheets.render_sheets(game, cards, sheet, cmyk=cmyk)
    monkeypatch.setattr(sheets, "CompactCanvas", ReportLabCanvas)
    monkeypatch.setattr(print_color, "CmykCanvas", ReportLabCmykCanvas)
    assert sheets.render_sheets(game, cards, sheet, cmyk=cmyk) == compact


def test_a_sheet_with_art_is_byte_for_byte_the_sheet_reportlab_writes(game_copy, monkeypatch):
    """Art is an image object each face's form places: a raster with transparency and a JPEG."""
    folder = game_copy(TINY_GAME)
    (folder / "art").mkdir()
    Image.new("RGBA", (300, 200), (136, 68, 34, 128)).save(folder / "art" / "boom.png")
    Image.new("RGB", (200, 300), "#225588").save(folder / "art" / "shield.jpg")
    edit(folder / "cards.yaml", 'text: "You are out."}', 'text: "You are out.", art: art/boom.png}')
    edit(folder / "cards.yaml", 'text: "Stops a **Boom**."}', 'text: "Stops a **Boom**.", art: art/shield.jpg}')
    game, _ = checked(folder)
    sheet, cards = sheet_for(game), list(game.cards) * 3
    compact = sheets.render_sheets(game, cards, sheet)
    assert compact.count(b"/Subtype /Image") >= 2
    monkeypatch.setattr(sheets, "CompactCanvas", ReportLabCanvas)
    assert sheets.render_sheets(game, cards, sheet) == compact


def _forms_out_of_order(canvas_class) -> bytes:
    """A page placing a form that places another drawn after it (a forward reference), and a
    form placing one drawn before it."""
    with reproducible():
        canvas = canvas_class((200, 200))
        canvas.beginForm("dot")
        canvas.circle(5, 5, 4, fill=1)
        canvas.endForm()
        canvas.beginForm("early")
        canvas.doForm("late")
        canvas.doForm("dot")
        canvas.endForm()
        canvas.beginForm("late")
        canvas.rect(0, 0, 10, 10, fill=1)
        canvas.drawString(1, 1, "x")
        canvas.endForm()
        for _ in range(3):
            canvas.doForm("early")
            canvas.showPage()
        return canvas.getpdfdata()


def test_forms_placing_forms_drawn_before_or_after_them_are_written_as_reportlab_writes_them():
    assert _forms_out_of_order(CompactCanvas) == _forms_out_of_order(ReportLabCanvas)


@pytest.mark.slow
def test_a_sheet_of_many_different_cards_holds_little_more_than_its_file(tmp_path):
    """ReportLab alone holds every face's content as text, then every object's bytes and the
    file again (7.2 times the file at its peak for these 500 cards); the compact canvas, about
    four times the file (what a first sheet's fonts and a page's objects take besides)."""
    game, _ = checked(write_big_game(tmp_path / "big", 500))
    sheet, cards = sheet_for(game), list(game.cards)
    sheets.render_sheets(game, cards[:3], sheet)  # what a first sheet imports and registers is not counted
    tracemalloc.start()
    try:
        pdf = sheets.render_sheets(game, cards, sheet)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5.5 * len(pdf), f"{peak / len(pdf):.1f} times the file"

"""No document loses content (the new games' long lists: tests/e2e/test_new_games.py): long
checklists continue on further pages, wide tables are split, and a template whose fixed sizes cut text stops the
build naming the text; a game's own template errors are found at check."""
from __future__ import annotations

import re
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium
import pytest
from conftest import ROOT, TINY_GAME, cardgen, loaded, page_texts, report_for


def flat(pages: list[str]) -> str:
    return re.sub(r"\s+", " ", " ".join(pages))


@pytest.mark.slow
def test_a_100_card_checklist_continues_on_further_pages(shipped_document):
    # `cardgen checklist` writes the checklists of every setup: Good Puppies has one, Standard
    assert [setup.name for setup in loaded("good_puppies").game.setups] == ["Standard"]
    pages = page_texts(shipped_document("good_puppies", "checklists.pdf"))
    assert len(pages) > 1
    text = flat(pages)
    assert "Special Doggo 99" in text and "All cards gathered 100" in text


@pytest.mark.slow
def test_a_wide_table_of_figures_is_split_not_cut(shipped_document):
    report = report_for("exploding_cards")
    setup = max(report.setups, key=lambda s: len(s.players))
    assert len(setup.players) > 8
    text = flat(page_texts(shipped_document("exploding_cards", "rulebook.pdf")))
    table = text[text.index(setup.setup.name):]
    for played in setup.players:
        assert re.search(rf"Players( \d+)*? {played.players}\b", table), played.players


@pytest.mark.slow
def test_a_template_that_cuts_text_stops_the_build_naming_it(game_copy, tmp_path):
    game = game_copy(TINY_GAME)
    (game / "templates").mkdir()
    (game / "templates" / "game.css").write_text(".setup-numbers { height: 4mm; overflow: hidden; }\n")
    out = tmp_path / "out"
    code, _, err = cardgen("rulebook", game, "--out", out, cwd=ROOT)  # in this process: never a traceback
    assert code == 1, err
    assert "rulebook.html cannot show all its text" in err
    assert not (out / "rulebook.pdf").exists()


def test_an_error_in_a_games_own_template_is_found_at_check(game_copy):
    game = game_copy(TINY_GAME)
    (game / "templates").mkdir()
    (game / "templates" / "rulebook.html").write_text(
        '{% extends "base.html" %}\n{% block body %}\n<p>{{ nosuchvar.x }}</p>\n{% endblock %}\n')
    code, out, _ = cardgen("check", game, cwd=ROOT)
    assert code == 1
    assert "templates/rulebook.html:3" in out
    assert "'nosuchvar' is undefined [template-error]" in out


# each document's left and right page margins (its CSS's @page), from the second page on (the
# rulebook's title page runs to the edges); the pocket copies' margins follow their layout
SIDE_MARGINS_MM = {"rulebook.pdf": 17, "checklists.pdf": 14, "cheatsheet.pdf": 10}
MM = 72 / 25.4
# a justified line's last glyph, read back, may end up to ~2.7 pt past the edge: WeasyPrint places
# the glyphs by its own advances, PDFium's character boxes (as pdfplumber's) follow the font's widths
TOLERANCE_PT = 3.0


@pytest.mark.slow
def test_no_character_of_a_shipped_document_lies_in_its_side_margins(shipped_documents):
    checked_pages = 0
    for path in shipped_documents:
        margin = SIDE_MARGINS_MM.get(path.name)
        if margin is None:
            continue
        first = 2 if path.name == "rulebook.pdf" else 1
        for number, outside in enumerate(side_characters(path, margin), 1):
            if number < first:
                continue
            checked_pages += 1
            assert not outside, f"{path} p. {number}: {''.join(outside)[:40]!r} in the side margins"
    assert checked_pages > 50


def side_characters(path: Path, margin_mm: float) -> list[list[str]]:
    """Each page's drawn characters (not spaces) whose box (page_chars's: PDFium's loose box, the
    font's) reaches more than TOLERANCE_PT into the side margins, margin_mm wide; only these are
    read as text (reading every character's text and size as page_chars does took four times as
    long)."""
    document = pypdfium2.PdfDocument(path)
    box = pdfium.FS_RECTF()
    try:
        pages = []
        for page in document:
            text = page.get_textpage()
            left, right = margin_mm * MM - TOLERANCE_PT, page.get_width() - margin_mm * MM + TOLERANCE_PT
            outside = []
            for i in range(text.count_chars()):
                found = pdfium.FPDFText_GetLooseCharBox(text.raw, i, box)
                if not found or box.left < left or box.right > right:
                    character = text.get_text_range(i, 1)
                    if character.strip():
                        assert found, f"{path}: no box for {character!r}"
                        outside.append(character)
            pages.append(outside)
        return pages
    finally:
        document.close()


@pytest.mark.slow
def test_text_in_a_pages_margin_is_lost_content(game_copy, tmp_path):
    game = game_copy(TINY_GAME)
    (game / "templates").mkdir()
    # far enough that the labels of the figures, not only digits a page number also shows, are cut
    (game / "templates" / "game.css").write_text(".setup-numbers { margin-right: -40mm; }\n")
    code, _, err = cardgen("rulebook", game, "--out", tmp_path / "out", cwd=ROOT)
    assert code == 1, err
    assert "rulebook.html cannot show all its text" in err and "would be cut off or left out" in err


@pytest.mark.slow
def test_hyphenated_line_ends_leave_three_letters_each_side(shipped_documents):
    breaks = []
    for path in shipped_documents:
        if path.name == "rulebook.pdf":  # PDFium joins a hyphenated word's parts with U+FFFE
            breaks += re.findall(r"(\w+)\ufffe\s*(\w+)", " ".join(page_texts(path)))
    assert len(breaks) > 20  # English and German
    # a capital after the break is a hyphen typed in the text ('Nö-Karte'), not a word hyphenated
    hyphenated = [b for b in breaks if not b[1][0].isupper()]
    assert [b for b in hyphenated if len(b[0]) < 3 or len(b[1]) < 3] == []

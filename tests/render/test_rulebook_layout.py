"""The layout pass of the documents (issue 40): the rulebook set as publishers set it (pages filled,
setups two to a page, running heads from the page's own chapter), cheat-sheet headings broken
between words, pocket copies with the game's rule, title colors that read on white; read back
from the built PDFs."""
from __future__ import annotations

import re

import pytest
from conftest import CARD_DATA, SHIPPED_GAMES, check, checked, edit, page_chars, page_texts

from cardgen.layout.colors import MIN_CONTRAST, PAPER, contrast
from cardgen.render.documents.rulebook import rulebook_context

MM = 72 / 25.4
TOP_MM, BOTTOM_MM = 18, 20  # the rulebook's page margins (base.css): the text area between them
CHAPTER_PT = 20  # a chapter heading is set at 22 pt, nothing else in the text area that large
MOST_PAGES = 22  # the goal for the English Exploding Puppy rulebook (it had 27)


def page_layout(chars: list[dict], height: float) -> tuple[str, float, list[str], bool]:
    """A rulebook page: its running head's text, how full its text area is (the lowest character's
    place, 0 to 1), the chapter headings on it, and whether its first line is one."""
    top, bottom = height - TOP_MM * MM, BOTTOM_MM * MM
    body = [c for c in chars if bottom - 1 < c["y0"] and c["y1"] < top + 1]
    head = "".join(c["text"] for c in sorted(chars, key=lambda c: c["x0"]) if c["y0"] > top and c["x0"] < 300)
    lines: dict[int, list[dict]] = {}
    for c in body:
        lines.setdefault(round(c["y0"]), []).append(c)
    headings = [("".join(c["text"] for c in sorted(line, key=lambda c: c["x0"])), max(c["size"] for c in line))
                for _, line in sorted(lines.items(), reverse=True)]
    chapters = [text for text, size in headings if size >= CHAPTER_PT and re.match(r"\d", text)]
    fill = (top - min((c["y0"] for c in body), default=top)) / (top - bottom)
    opens = bool(headings) and headings[0][1] >= CHAPTER_PT and re.match(r"\d", headings[0][0]) is not None
    return head, fill, chapters, opens


@pytest.fixture(scope="module")
def pages(puppy_rulebook):
    import pdfplumber

    _, _, pdf = puppy_rulebook
    with pdfplumber.open(pdf) as document:
        heights = [page.height for page in document.pages]
    return [page_layout(chars, height) for chars, height in zip(page_chars(pdf), heights)]


@pytest.mark.slow
def test_the_english_exploding_puppy_rulebook_fits_22_pages(pages):
    assert len(pages) <= MOST_PAGES


@pytest.mark.slow
def test_no_page_but_a_chapters_last_is_less_than_half_full(pages):
    body = pages[2:]  # after the title page and the contents
    for number, (_, fill, _, _) in enumerate(body, start=3):
        last_of_a_chapter = number == len(pages) or pages[number][3]  # the next page opens a chapter
        assert fill >= 0.5 or last_of_a_chapter, (number, round(fill, 2))


@pytest.mark.slow
def test_the_running_head_names_the_chapter_the_page_starts_in(pages):
    chapter = ""
    checked_pages = 0
    for number, (head, _, chapters, opens) in enumerate(pages, start=1):
        starts_in = chapters[0] if opens else chapter
        if starts_in:
            assert head.replace(" ", "") == starts_in.replace(" ", ""), (number, head, starts_in)
            checked_pages += 1
        chapter = chapters[-1] if chapters else chapter
    assert checked_pages >= len(pages) - 2


@pytest.fixture(scope="module")
def cheatsheet(shipped_document):
    """The folder of Exploding Cards' cheat sheets (`cardgen cheatsheet`, built once for the run)."""
    return shipped_document("exploding_cards", "cheatsheet.pdf").parent


def heading_lines(text: str, title: str) -> list[str]:
    """The lines a heading (set in capitals) is broken into on the page."""
    lines = [line.strip() for line in text.splitlines()]
    words = title.upper().split()
    for i in range(len(lines)):
        found: list[str] = []
        for line in lines[i:i + len(words)]:
            found.append(line)
            if " ".join(found).split() == words:
                return found
    raise AssertionError(f"heading {title!r} not on the sheet")


@pytest.mark.slow
def test_cheat_sheet_headings_break_between_whole_phrases(cheatsheet):
    game, _ = checked("exploding_cards")
    sheet = game.cheatsheet
    text = page_texts(cheatsheet / "cheatsheet.pdf")[0]
    titles = [section.title for section in sheet.sections] + [sheet.combos.title]
    broken = 0
    for title in titles:
        lines = heading_lines(text, title)
        broken += len(lines) > 1
        for line in lines:
            assert line.count("(") == line.count(")"), (title, lines)  # "(A / OR K)" no more
        assert len(lines) == 1 or len(lines[-1].split()) > 1, (title, lines)  # "ONE / SUIT" no more
    assert broken  # the narrow boxes do break some of them


def plain(text: str) -> str:
    return " ".join(re.sub(r"[*_]", "", text).split())


@pytest.mark.slow
def test_pocket_copies_give_the_losing_and_saving_cards_rule(cheatsheet):
    game, _ = checked("exploding_cards")
    pocket = " ".join(" ".join(page_texts(cheatsheet / "cheatsheet-pocket.pdf")).split())
    roles = {kind.id for kind in game.kinds if kind.role}
    rule_cards = [card for card in game.cards if roles & set(card.kinds)]
    assert {kind.role for kind in game.kinds if kind.role} == {"losing", "saving"} and rule_cards
    for card in rule_cards:
        assert plain(card.text) in pocket, card.name
    assert "generated from the card data" not in " ".join(page_texts(cheatsheet / "cheatsheet.pdf"))


@pytest.mark.parametrize("name", SHIPPED_GAMES)
def test_the_rulebooks_card_titles_read_on_white(name):
    game, report = checked(name)
    title_color = rulebook_context(game, report)["title_hex"]
    for card in game.cards:
        color = title_color(card)
        assert color is None or contrast(color, PAPER) >= MIN_CONTRAST, (card.name, color)


def test_the_puppy_orange_is_darkened_for_text():
    game, report = checked("exploding_puppy")
    puppy = next(card for card in game.cards if game.title_hex(card) == "#f28c28")
    assert contrast("#f28c28", PAPER) < MIN_CONTRAST
    assert rulebook_context(game, report)["title_hex"](puppy) != "#f28c28"


def test_check_warns_of_a_title_color_too_light_to_read_on_paper(game_copy, capsys):
    folder = game_copy("exploding_puppy")
    edit(folder / "game.yaml", 'puppy: {title_hex: "#f28c28"}', 'puppy: {title_hex: "#fff3d0"}')
    code, out = check(folder, capsys)
    assert code == 0 and "unreadable-title-color" in out and "#fff3d0" in out
    code, out = check(CARD_DATA / "exploding_puppy", capsys)
    assert "unreadable-title-color" not in out

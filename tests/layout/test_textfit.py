"""Text fit at `cardgen check`: every card text is set with the renderer's own fonts, metrics and
boxes before anything is drawn; one that does not fit at the smallest allowed size is an error
naming the card, its line and the size it would need, and the size check names is the size the
card sheet then prints."""
from __future__ import annotations

import bisect
import re

import pdfplumber
import pytest
from conftest import TEST_DATA, TINY_GAME, check, edit
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Paragraph

from cardgen import cli, load
from cardgen.layout.textfit import CardText, _fits, fit_paragraph, line_bounds
from cardgen.model import markup
from cardgen.model.sizes import MM

LONG = " ".join(["Everything everywhere all at once."] * 12)
NEEDS = re.compile(r"it needs ([\d.]+) pt, the smallest allowed is ([\d.]+) pt")




def finding(out: str, file: str, line: int) -> str:
    match = re.search(rf"^ *{re.escape(file)}:{line}:\d+: error: (.*)\[text-does-not-fit\]\n +hint: (.*)$", out, re.M)
    assert match, f"no text-does-not-fit at {file}:{line} in:\n{out}"
    return match.group(0)


@pytest.mark.slow
def test_an_effect_too_long_is_found_at_check_with_the_size_it_needs_and_prints_at_that_size(
        game_copy, capsys, tmp_path):
    folder = game_copy(TINY_GAME)
    edit(folder / "cards.yaml", '"Cancel an action."', f'"{LONG}"')
    code, out = check(folder, capsys)
    assert code == 1
    found = finding(out, "tiny_game/cards.yaml", 5)
    assert "card 'No': the text does not fit its box" in found and "min_size" in found
    needed, smallest = map(float, NEEDS.search(found).groups())
    assert needed < smallest == 6
    assert cli.main(["cards", str(folder), "--out", str(tmp_path)]) == 1  # the build refuses it too
    (folder / "layout.yaml").write_text(f"text: {{min_size: {needed}}}\n", encoding="utf-8")
    assert check(folder, capsys)[0] == 0
    assert cli.main(["cards", str(folder), "--out", str(tmp_path), "--all-types", "--no-backs", "--layout", "gutter"]) == 0
    with pdfplumber.open(tmp_path / "cards-all-types.pdf") as pdf:
        words = pdf.pages[0].extract_words(extra_attrs=["size"])
    sizes = {round(w["size"], 2) for w in words if w["text"] == "Everything"}
    assert len(sizes) == 1 and needed <= sizes.pop() < needed + 0.25


def test_a_flavor_too_long_and_a_name_too_long_are_found_at_their_lines(game_copy, capsys):
    folder = game_copy(TINY_GAME)
    edit(folder / "cards.yaml", 'flavor: "Hm?"', f'flavor: "{LONG}"')
    edit(folder / "cards.yaml", 'name: "No"', f'name: "{"W" * 80}"')
    edit(folder / "setups.yaml", "no: 5", f'{"W" * 80}: 5')
    code, out = check(folder, capsys)
    assert code == 1
    assert "card 'Peek': the flavor does not fit its box" in finding(out, "tiny_game/cards.yaml", 4)
    assert "the name does not fit its box" in finding(out, "tiny_game/cards.yaml", 5)


def test_a_game_title_too_long_for_the_back_is_found_in_game_yaml(game_copy, capsys):
    folder = game_copy(TINY_GAME)
    title = " ".join(["Hazardous"] * 120)
    edit(folder / "game.yaml", "title: Tiny Hazards", f"title: {title}")
    code, out = check(folder, capsys)
    assert code == 1
    assert "does not fit on the card back" in finding(out, "tiny_game/game.yaml", 4)


def test_a_backs_own_title_too_long_is_found_at_its_line(game_copy, capsys):
    folder = game_copy(TEST_DATA / "two_backs")
    edit(folder / "game.yaml", "title: Shields,", f"title: {'W' * 40},")
    code, out = check(folder, capsys)
    assert code == 1
    found = finding(out, "two_backs/game.yaml", 40)
    assert "the title 'WWWW" in found and "does not fit on the card back" in found


@pytest.mark.slow
def test_the_quick_width_bound_only_passes_texts_that_the_paragraph_fits():
    """check decides most texts from glyph widths alone; where it does, setting the text as the
    renderer does must fit too: for the shipped games' texts, and for texts grown word by word
    past the last length that fits, at several card widths."""
    decided = total = 0
    for name in load.list_games():
        game = load.load_game(load.find_game_folder(name)).game
        face = game.design.faces.by_id["default"]
        words = " ".join(c.text for c in game.cards).replace("*", "").split()
        for width in (44, 63):
            setter = CardText(game, width * MM, width * 1.4 * MM)
            for field in ("name", "flavor", "text"):
                element = next(e for e in face.elements if e.id == field)
                for value in {getattr(c, field) for c in game.cards if c.printed and getattr(c, field)}:
                    total += 1
                    if setter.surely_fits(element, value):
                        decided += 1
                        assert sets(setter, element, value), (name, width, field, value)
                grown = [" ".join(words[:n]) for n in range(1, len(words) + 1)]
                last_fit = bisect.bisect(grown, False, key=lambda value: not sets(setter, element, value)) - 1
                assert not any(setter.surely_fits(element, value) for value in grown[last_fit + 1:last_fit + 30]), \
                    (name, width, field, last_fit)
    assert decided > total / 2, f"the bound decided only {decided} of {total} texts"


def sets(setter: CardText, element, value: str) -> bool:
    return setter.paragraph(element, value, "#000000") is not None


@pytest.mark.slow
def test_a_verdict_from_glyph_widths_only_answers_as_setting_the_text_does():
    """The card sheets skip setting a text at a size where glyph widths alone tell whether it fits
    (CardText.verdict, from bounds on its number of lines): wherever a verdict answers, setting the
    text answers the same, for the shipped games' texts and texts grown word by word, at several card
    widths, sizes and line limits; and a text set with verdicts gets the size the search without them
    finds."""
    answered = asked = 0
    for name in load.list_games():
        game = load.load_game(load.find_game_folder(name)).game
        face = game.design.faces.by_id["default"]
        words = " ".join(c.text for c in game.cards).split()
        for width in (44, 63):
            setter = CardText(game, width * MM, width * 1.4 * MM)
            for field in ("name", "flavor", "text"):
                element = next(e for e in face.elements if e.id == field)
                room, style = setter.room(element), setter.style(element, "#000000")
                values = {getattr(c, field) for c in game.cards if c.printed and getattr(c, field)}
                for value in sorted(values)[::2] + [" ".join(words[:n]) for n in range(1, min(len(words), 90), 7)]:
                    verdict = setter.verdict(element, value)
                    text_at = setter.markup_at(value) if element.markup else lambda size, v=value: markup.escape(v)
                    for size in (element.min_size, element.size):
                        for max_lines in (None, 2):
                            asked += 1
                            known = verdict(size, max_lines)
                            if known is not None:
                                answered += 1
                                fits = _fits(text_at(size), style(size), room.w, room.h, max_lines) is not None
                                assert known == fits, (name, width, field, value, size, max_lines)
                    if field == "text":
                        with_verdicts = setter.paragraph(element, value, "#000000")
                        without = fit_paragraph(text_at, style, room.w, room.h, setter.scale.points(element.size),
                                                element.min_size)
                        assert (with_verdicts and with_verdicts.style.fontSize) == (without and without.style.fontSize)
    assert answered > asked / 2, f"verdicts answered only {answered} of {asked} questions"


def test_line_bounds_hold_the_lines_a_paragraph_takes():
    """The fewest and most lines a text of known word widths can take hold the lines ReportLab sets
    it in (texts of one word repeated, so the bounds can be worked out by hand too)."""
    style = ParagraphStyle("t", fontName="Helvetica", fontSize=10, leading=12)
    word, space = pdfmetrics.stringWidth("word", "Helvetica", 10), pdfmetrics.stringWidth(" ", "Helvetica", 10)
    for count in (1, 2, 5, 17, 40):
        for width in (word + 1, 2 * word + space + 0.01, 60, 100, 250):
            paragraph = Paragraph(" ".join(["word"] * count), style)
            paragraph.wrap(width, 1000)
            bounds = line_bounds([word] * count, space, width, word, word * count)
            if bounds is None:  # only where a line may hold no more than a word and a space
                assert count > 1 and width - space - word <= 0
                continue
            fewest, most = bounds
            assert fewest <= len(paragraph.blPara.lines) <= most, (count, width)
    assert line_bounds([word], space, word / 2, word, word) is None  # a word wider than the line: no bounds
    assert line_bounds([word] * 3, space, 3 * word + 2 * space + 1, word, 3 * word) == (1, 1)

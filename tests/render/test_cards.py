"""render/cards: card sheets built from the real data, read back with PDFium (pypdfium2)."""
from __future__ import annotations

import dataclasses
import math
import re
import shutil
from collections import Counter
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium
import pytest
from conftest import CARD_DATA, TINY_GAME, cardgen, checked, page_chars, page_fonts, sheet_for, words_in
from PIL import Image
from test_sheets import glyphs, inside_box

from cardgen.cli import main
from cardgen.errors import BuildError, UsageError
from cardgen.inputs import symbols
from cardgen.inputs.paths import ART
from cardgen.layout import sheet as layout
from cardgen.layout import textfit
from cardgen.layout.sheet import Rect
from cardgen.model import markup, sizes
from cardgen.model.sizes import MM
from cardgen.render import cards

TOL = 0.1 * MM




@pytest.fixture(scope="module")
def puppy():
    return checked(CARD_DATA / "exploding_puppy")


@pytest.fixture(scope="module")
def default_a4(puppy, tmp_path_factory):
    game, report = puppy
    out = tmp_path_factory.mktemp("default")
    return cards.write_setup_sheets(game, report.setup("Default"), sheet_for(game), out)


def page_sizes(path) -> list[tuple[float, float]]:
    """Each page's width and height in points (its media box), read with PDFium without loading
    the pages (which would parse their drawing)."""
    document = pypdfium2.PdfDocument(path)
    try:
        return [document.get_page_size(i) for i in range(len(document))]
    finally:
        document.close()


def face_regions(game, sheet) -> dict[str, Rect]:
    """Where text may appear on a card, in card coordinates, from the layout data."""
    design = game.layout
    scale = textfit.Scale(sheet.card_w, sheet.card_h, sheet.card_w / (design.design.width * MM),
                        sheet.card_h / (design.design.height * MM))
    number = design.number
    x, y = scale.point(number)
    r = scale.length(number.radius)
    tags = design.tags
    return {
        "name": scale.box(design.name),
        "flavor": scale.box(design.flavor),
        "text": scale.box(design.text).inset(scale.length(design.text.padding)),
        "number": Rect(x - r, y - r, 2 * r, 2 * r),
        "tags": Rect(0, scale.y(tags.y) - scale.length(tags.height), sheet.card_w, scale.length(tags.height)),
    }


def text_in(chars: list[dict], rect: Rect) -> str:
    """The words of a page's characters (page_chars) inside a rectangle."""
    return words_in(chars, rect.x, rect.y, rect.right, rect.top)


def inside(char, rect: Rect, slack: float) -> bool:
    return (rect.x - 0.5 <= char["x0"] and char["x1"] <= rect.right + 0.5
            and rect.y - slack <= char["y0"] and char["y1"] <= rect.top + slack)


# --------------------------------------------------------------------------- sheets of a setup


def test_default_setup_pages_and_page_size(puppy, default_a4):
    game, report = puppy
    total = report.setup("Default").print_total
    pages = page_sizes(default_a4)
    assert len(pages) == 2 * math.ceil(total / layout.make_sheet("a4", game.card_size).per_page)
    for width, height in pages:
        assert (width, height) == (pytest.approx(210 * MM, abs=TOL), pytest.approx(297 * MM, abs=TOL))


def test_every_card_of_the_setup_appears_as_often_as_the_engine_says(puppy, default_a4):
    game, report = puppy
    sheet = layout.make_sheet("a4", game.card_size)
    regions = face_regions(game, sheet)
    seen = Counter(name for (name,) in slot_texts(default_a4, sheet, regions["name"]) if name)
    expected = {game.card(card_id).name: n for card_id, n in report.setup("Default").print_counts.items()}
    assert seen == expected


def slot_texts(path, sheet, *regions: Rect) -> list[tuple[str, ...]]:
    """For each slot of each face page (every other page), the words PDFium finds in each of the
    regions of the card there, on one line: one call a region, not three a character (page_chars)."""
    document = pypdfium2.PdfDocument(path)
    try:
        found = []
        for number in range(0, len(document), 2):
            text = document[number].get_textpage()
            for i in range(sheet.per_page):
                boxes = [region.moved(sheet.slot(i).x, sheet.slot(i).y) for region in regions]
                found.append(tuple(" ".join(text.get_text_bounded(box.x, box.y, box.right, box.top).split())
                                   for box in boxes))
        return found
    finally:
        document.close()


@pytest.mark.parametrize("size", ["poker", "mini"])
def test_no_text_leaves_its_box_for_any_card_of_the_real_data(puppy, tmp_path, size):
    game, _ = puppy
    sheet = layout.make_sheet("a4", size, spacing="gutter")  # upright, in the game's order
    path = cards.write_proof_sheet(game, sheet, tmp_path, backs=False)
    regions = face_regions(game, sheet)
    per_page = sheet.per_page
    pages = page_chars(path)
    assert len(pages) == math.ceil(len(game.cards) / per_page)
    for number, chars in enumerate(pages):
        slots = [sheet.slot(i) for i in range(sheet.per_page)]
        for char in chars:
            if inside(char, sheet.info_box(), 0.01):  # the print hint
                continue
            slot = next(s for s in slots if s.x <= char["x0"] <= s.right and s.y <= char["y0"] <= s.top)
            assert any(inside(char, r.moved(slot.x, slot.y), 0.1) for r in regions.values()), \
                (number, char["text"], char["x0"], char["y0"])
        for i, card in enumerate(game.cards[number * per_page:(number + 1) * per_page]):
            text_box = regions["text"].moved(sheet.slot(i).x, sheet.slot(i).y)
            strict = [c for c in chars if inside(c, text_box, 0.1)]
            if card.text:
                assert strict, card.name
                assert min(c["size"] for c in strict) >= 6 - 1e-6


def test_letter_basic_and_all_setups_build(puppy, tmp_path):
    game, report = puppy
    for setup in ("Basic", "Default"):
        path = cards.write_setup_sheets(game, report.setup(setup), sheet_for(game, paper="letter"), tmp_path)
        pages = page_sizes(path)
        assert pages[0] == (pytest.approx(612), pytest.approx(792))
        per_page = layout.make_sheet("letter", game.card_size).per_page
        assert len(pages) == 2 * math.ceil(report.setup(setup).print_total / per_page)


def test_players_prints_the_deck_for_that_player_count(puppy, tmp_path):
    game, report = puppy
    path = cards.write_setup_sheets(game, report.setup("Basic"), sheet_for(game), tmp_path, players=3, backs=False)
    table = sum(line.count for line in game.setup("Basic").lines)
    assert len(page_sizes(path)) == math.ceil((table + 3) / layout.make_sheet("a4", game.card_size).per_page)
    assert sum(report.setup("Basic").player_count(3).print_counts.values()) == table + 3
    with pytest.raises(UsageError, match="3–8 players, not 12"):
        cards.write_setup_sheets(game, report.setup("Basic"), sheet_for(game), tmp_path, players=12)


def test_two_builds_are_byte_identical(puppy, tmp_path):
    game, report = puppy
    first = cards.write_setup_sheets(game, report.setup("Basic"), sheet_for(game), tmp_path / "one").read_bytes()
    second = cards.write_setup_sheets(game, report.setup("Basic"), sheet_for(game), tmp_path / "two").read_bytes()
    assert first == second


def test_png_export(tmp_path):
    game, report = checked(TINY_GAME)
    path = cards.write_setup_sheets(game, report.setups[0], sheet_for(game), tmp_path, png=True)
    pngs = sorted(tmp_path.glob("cards-starter-p*.png"))
    assert [p.name for p in pngs] == ["cards-starter-p01.png", "cards-starter-p02.png", "cards-starter-p03.png",
                                      "cards-starter-p04.png"]
    with Image.open(pngs[0]) as image:
        assert image.size == (pytest.approx(210 / 25.4 * cards.PNG_DPI, abs=1),
                              pytest.approx(297 / 25.4 * cards.PNG_DPI, abs=1))
    assert path.exists()


# --------------------------------------------------------------------------- markup


def test_markup_escapes_everything_but_its_own_syntax():
    symbol = lambda name: "[S]" if name == "bomb" else None  # noqa: E731
    assert markup.to_paragraph("**bold** and *it*") == "<b>bold</b> and <i>it</i>"
    assert markup.to_paragraph('<font color="red">x</font> & <img src="a.png"/>') == \
        '&lt;font color="red"&gt;x&lt;/font&gt; &amp; &lt;img src="a.png"/&gt;'
    assert markup.to_paragraph("at :bomb: not :nope:", symbol) == "at [S] not :nope:"
    assert markup.to_paragraph("**:bomb: Defuse**", symbol) == "<b>[S] Defuse</b>"
    assert markup.to_paragraph("2 * 3 * 4") == "2 * 3 * 4"
    assert markup.to_paragraph("a\nb") == "a<br/>b"
    assert markup.to_paragraph("a *b **c** d*") == "a <i>b <b>c</b> d</i>"


@pytest.mark.parametrize("text", ["**a *b** c*", "***x***", "**unclosed", "*a **b* c**", "** x **", "*"])
def test_markup_always_nests(text):
    out = markup.to_paragraph(text)
    stack = []
    for closing, tag in re.findall(r"<(/?)([bi])>", out):
        if closing:
            assert stack and stack.pop() == tag
        else:
            stack.append(tag)
    assert not stack


def write_tiny(game_copy, **changes) -> Path:
    folder = game_copy(TINY_GAME)
    for name, text in changes.items():
        (folder / name.replace("_", ".", 1)).write_text(text, encoding="utf-8")
    return folder


TINY_CARDS = (TINY_GAME / "cards.yaml").read_text(encoding="utf-8")


def test_markup_in_data_renders_literally(game_copy, tmp_path):
    text = '<font color=\\"red\\">x</font> & <img src=\\"/etc/passwd\\"/> **bold** :bomb:'
    folder = write_tiny(game_copy, cards_yaml=TINY_CARDS.replace('"You are out."', f'"{text}"'))
    game, _ = checked(folder)
    sheet = sheet_for(game, spacing="gutter")  # upright, in the game's order
    path = cards.write_proof_sheet(game, sheet, tmp_path / "out")
    content = text_in(page_chars(path)[0], face_regions(game, sheet)["text"].moved(sheet.slot(0).x, sheet.slot(0).y))
    assert '<font color="red">x</font> & <img src="/etc/passwd"/> bold' in content
    bold = [c for c, font in page_fonts(path)[0][0] if c == "b" and "Bold" in font]
    assert bold
    assert ":bomb:" not in content  # a known symbol is drawn, not written


def test_text_too_long_to_fit_is_a_build_error_naming_card_and_line(game_copy, tmp_path):
    long_text = " ".join(["Everything everywhere all at once."] * 40)
    folder = write_tiny(game_copy, cards_yaml=TINY_CARDS.replace('"Cancel an action."', f'"{long_text}"'))
    game, _ = checked(folder)
    with pytest.raises(BuildError) as info:
        cards.write_proof_sheet(game, sheet_for(game), tmp_path / "out")
    assert "'No'" in str(info.value) and "does not fit" in str(info.value)
    assert re.search(r"tiny_game/cards\.yaml:\d+", str(info.value))
    assert not (tmp_path / "out" / "cards-all-types.pdf").exists()


def test_a_non_ascii_name_prints_in_every_slot_of_its_card(game_copy, tmp_path):
    """Form names come from digests: a raw UTF-8 form name left every Böom slot empty."""
    accented = TINY_CARDS.replace("Boom", "Böom").replace('"You are out."', '"Été fini: déjà vu, garçon."')
    folder = write_tiny(game_copy, cards_yaml=accented,
                        setups_yaml=(TINY_GAME / "setups.yaml").read_text(encoding="utf-8").replace("Boom", "Böom"))
    assert main(["cards", str(folder), "--out", str(tmp_path), "--layout", "gutter"]) == 0
    game, report = checked(folder)
    sheet = layout.make_sheet("a4", game.card_size, spacing="gutter")
    regions = face_regions(game, sheet)
    names, effects = Counter(), Counter()
    for name, effect in slot_texts(tmp_path / "cards-starter.pdf", sheet, regions["name"], regions["text"]):
        names[name] += 1
        effects[effect] += 1
    boom = next(card.id for card in game.cards if card.name == "Böom")
    assert names["Böom"] == report.setup("Starter").print_counts[boom] > 0
    assert effects["Été fini: déjà vu, garçon."] == names["Böom"]


# --------------------------------------------------------------------------- art


def with_art(game_copy, art: str) -> Path:
    return write_tiny(game_copy, cards_yaml=TINY_CARDS.replace('text: "You are out."}',
                                                              f'text: "You are out.", art: "{art}"}}'))


def test_art_is_drawn_and_the_cards_without_art_are_collected(game_copy, tmp_path):
    folder = with_art(game_copy, "art/boom.png")
    (folder / "art").mkdir()
    Image.new("RGB", (300, 200), "#884422").save(folder / "art" / "boom.png")
    game, _ = checked(folder)
    placeholders: set[str] = set()
    path = cards.write_proof_sheet(game, sheet_for(game), tmp_path / "out", placeholders=placeholders)
    document = pypdfium2.PdfDocument(path)
    try:  # the images placed on the first page, in the forms it places too
        assert len(list(document[0].get_objects(filter=(pdfium.FPDF_PAGEOBJ_IMAGE,), max_depth=16))) == 1
    finally:
        document.close()
    assert placeholders == {"Shield", "Peek", "No"}


# --------------------------------------------------------------------------- layout data


def test_game_layout_overrides_the_default(game_copy, tmp_path):
    folder = write_tiny(game_copy, layout_yaml='text: {size: "7.5"}\nback: {background: "#103040"}\n')
    game, _ = checked(folder)
    design = game.layout
    assert design.text.size == 7.5 and design.back.background == "#103040"
    assert design.text.min_size == 6  # untouched settings keep the default
    cards.write_proof_sheet(game, sheet_for(game), tmp_path)


def test_game_symbols_replace_the_shared_ones(game_copy):
    folder = game_copy(TINY_GAME)
    (folder / "symbols").mkdir()
    shutil.copy(ART / "symbols" / "star.svg", folder / "symbols" / "bomb.svg")
    game, _ = checked(folder)
    assert symbols.symbol_path(game, "bomb") == folder / "symbols" / "bomb.svg"
    assert symbols.symbol_path(game, "gear") == ART / "symbols" / "gear.svg"
    assert symbols.symbol_path(game, "../bomb") is None


def test_shipped_fonts_and_symbols_have_their_licenses():
    fonts = ART / "fonts"
    for path in checked(TINY_GAME)[0].layout.fonts.values():
        assert path.parent == fonts and path.is_file()
    assert (fonts / "OFL-Lato.txt").is_file() and (fonts / "OFL-CabinSketch.txt").is_file()
    assert "CC0" in (ART / "symbols" / "README.md").read_text()
    for name in ("bomb", "any", "defuse", "attack", "eye", "stop", "gear", "hand", "star"):
        assert (ART / "symbols" / f"{name}.svg").is_file()


# --------------------------------------------------------------------------- command line


def test_cli_cards(tmp_path, capsys):
    assert main(["cards", str(TINY_GAME), "--out", str(tmp_path)]) == 0
    assert (tmp_path / "cards-starter.pdf").is_file()
    assert main(["cards", str(TINY_GAME), "--out", str(tmp_path), "--all-types", "--no-backs",
                 "--size", "poker", "--paper", "letter", "--bleed", "2"]) == 0
    pages = page_sizes(tmp_path / "cards-all-types.pdf")
    assert len(pages) == 1 and pages[0][0] == pytest.approx(612)
    assert main(["cards", str(TINY_GAME), "--out", str(tmp_path), "--calibration", "--offset", "1,-1"]) == 0
    assert len(page_sizes(tmp_path / "calibration-a4.pdf")) == 2


@pytest.mark.parametrize("size", sizes.CARD_SIZES_MM)
def test_every_preset_size_prints_on_a4_and_letter(tmp_path, size):
    cards_printed = sum(checked(TINY_GAME)[1].setup("Starter").print_counts.values())
    for paper, (width, height) in sizes.PAPERS_MM.items():
        code, _, err = cardgen("cards", TINY_GAME, "--size", size, "--paper", paper, "--out", tmp_path / paper)
        assert code == 0, err
        per_sheet = layout.make_sheet(paper, size).per_page
        pages = page_sizes(tmp_path / paper / "cards-starter.pdf")
        assert len(pages) == 2 * math.ceil(cards_printed / per_sheet)  # faces, each with its backs
        assert {(round(w / MM), round(h / MM)) for w, h in pages} == {(round(width), round(height))}


def test_a_card_too_large_for_the_paper_is_refused_with_what_to_change(tmp_path):
    code, _, err = cardgen("cards", TINY_GAME, "--size", "200x260", "--paper", "letter", "--out", tmp_path)
    assert code == 2 and not list(tmp_path.glob("*.pdf"))
    assert "a 200x260 mm card with 3 mm bleed does not fit on letter" in err and "--size" in err


@pytest.mark.parametrize("args", [["--players", "9"], ["--setup", "nope"], ["--size", "huge"], ["--offset", "x"],
                                  ["--paper", "a3"]])
def test_cli_cards_usage_errors(tmp_path, args):
    try:
        code = main(["cards", str(TINY_GAME), "--out", str(tmp_path), *args])
    except SystemExit as exc:  # argparse refuses an option's value itself
        code = exc.code
    assert code == 2
    assert not list(tmp_path.glob("*.pdf"))


def test_a_name_that_is_one_long_word_is_split_rather_than_refused(tmp_path):
    game, _ = checked(TINY_GAME)
    long_name = dataclasses.replace(game.cards[0], name="Supercalifragilisticexpialidocious")
    game = dataclasses.replace(game, cards=(long_name, *game.cards[1:]))
    sheet = sheet_for(game, spacing="gutter")  # upright, in the game's order
    path = cards.write_proof_sheet(game, sheet, tmp_path)
    box = face_regions(game, sheet)["name"].moved(sheet.slot(0).x, sheet.slot(0).y)
    title = [g for g in glyphs(path.read_bytes(), 0)
             if inside_box(g, box) and g.fill == (255, 255, 255)]  # white on red, not a shadow
    lines: list[str] = []
    for i, glyph in enumerate(title):  # in the order drawn: a line starts left of the last glyph
        if i == 0 or glyph.box.x < title[i - 1].box.x:
            lines.append("")
        lines[-1] += glyph.text
    assert len(lines) == 2 and "".join(lines) == "Supercalifragilisticexpialidocious"

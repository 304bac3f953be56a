"""Every character of every text against the fonts that draw it: a character no font has is an
error at `cardgen check` (file:line:column, the text, the character, a hint); characters the
shipped fonts have print, on the cards and in the documents."""
from __future__ import annotations

import re

import pytest
from conftest import TEST_DATA, TINY_GAME, check, edit, page_fonts, page_lines

from cardgen import cli

CJK = "漢"  # U+6F22: no shipped font has it




def position(path, text: str) -> tuple[int, int]:
    """1-based line and column of the first occurrence of text in the file."""
    source = path.read_text(encoding="utf-8")
    index = source.index(text)
    return source.count("\n", 0, index) + 1, index - source.rfind("\n", 0, index)


def missing_glyph(out: str, file: str, line: int, column: int) -> str:
    pattern = re.compile(rf"^ *{re.escape(file)}:{line}:{column}: error: (.*)\[missing-glyph\]\n +hint: (.*)$", re.M)
    match = pattern.search(out)
    assert match, f"no missing-glyph at {file}:{line}:{column} in:\n{out}"
    return match.group(0)


# (the file, the text replaced, its replacement, the character, what the finding names)
TINY_MUTATIONS = [
    ("cards.yaml", "name: Peek", f"name: Pe{CJK}k", CJK,
     ["card 'Pe漢k' (name)", "U+6F22 CJK UNIFIED IDEOGRAPH-6F22", "Lato-Black.ttf", "fonts: {heavy:"]),
    ("cards.yaml", '"You are out."', '"You are out, مرحبا."', "م",
     ["card 'Boom' (text)", "U+0645 ARABIC LETTER MEEM", "Lato-Regular.ttf"]),
    ("cards.yaml", '"Stops a **Boom**."', f'"Stops a **Bo{CJK}m**."', CJK,
     ["card 'Shield' (text)", "Lato-Bold.ttf", "bold font"]),
    ("cards.yaml", 'flavor: "Hm?"', 'flavor: "Hm 😀?"', "😀",
     ["card 'Peek' (flavor)", "U+1F600 GRINNING FACE", "Lato-Italic.ttf"]),
    ("game.yaml", "title: Tiny Hazards", "title: Łódź Hazards", "Ł",
     ["the game's title", "U+0141 LATIN CAPITAL LETTER L WITH STROKE", "CabinSketch-Bold.ttf", "fonts: {title:"]),
    ("game.yaml", "meaning: Tools", f"meaning: Tools {CJK}", CJK,
     ["color 'blue' (meaning)", "none of the documents' fonts", "Lato-Regular.ttf", "tiny_game/fonts/"]),
    ("game.yaml", 'name: "NOW!"', f'name: "NOW{CJK}"', CJK, ["tag 'now' (name)", "Lato-Black.ttf"]),
    ("game.yaml", "title: Tiny Hazards", f"title: Tiny {CJK}", CJK, ["the game's title", "CabinSketch-Bold.ttf"]),
    ("game.yaml", "text: Deal the hands.", f"text: Deal the {CJK} hands.", CJK, ["setup step 3"]),
    ("setups.yaml", "blurb: The only setup.", f"blurb: The only {CJK} setup.", CJK, ["setup 'Starter' (blurb)"]),
]
RENAMED = {"Peek": f"Pe{CJK}k"}  # setups.yaml names the renamed cards


@pytest.mark.parametrize("file, old, new, char, words", TINY_MUTATIONS, ids=[m[2] for m in TINY_MUTATIONS])
def test_a_character_no_font_has_is_an_error_at_its_place(game_copy, capsys, file, old, new, char, words):
    folder = game_copy(TINY_GAME)
    edit(folder / file, old, new)
    for name, renamed in RENAMED.items():
        if renamed in new:
            edit(folder / "setups.yaml", f"{name}:", f"{renamed}:")
    code, out = check(folder, capsys)
    assert code == 1
    found = missing_glyph(out, f"tiny_game/{file}", *position(folder / file, char))
    for word in [*words, "remove the character"]:
        assert word in found, f"{word!r} not in {found!r}"


def test_a_backs_own_title_is_read_against_the_back_title_font(game_copy, capsys):
    folder = game_copy(TEST_DATA / "two_backs")
    edit(folder / "game.yaml", "title: Shields,", "title: Łódź,")
    code, out = check(folder, capsys)
    assert code == 1
    found = missing_glyph(out, "two_backs/game.yaml", *position(folder / "game.yaml", "Ł"))
    assert "back 'shields' (title)" in found and "CabinSketch-Bold.ttf" in found and "fonts: {title:" in found


def test_details_rules_and_cheat_sheet_are_read_against_the_documents_fonts(game_copy, capsys):
    folder = game_copy("starter")
    edit(folder / "cards.yaml", "discard every Treasure", f"discard every {CJK} Treasure")
    edit(folder / "rules.md", "\n\n", "\n\nThe 😀 rule.\n\n")
    edit(folder / "game.yaml", "- Play any number of Tools.", f"- Play any number of {CJK} Tools.")
    code, out = check(folder, capsys)
    assert code == 1
    assert "card 'Dragon' (details)" in missing_glyph(out, "starter/cards.yaml",
                                                      *position(folder / "cards.yaml", CJK))
    assert "rules.md: '😀' (U+1F600 GRINNING FACE)" in missing_glyph(out, "starter/rules.md",
                                                                     *position(folder / "rules.md", "😀"))
    assert "the cheat sheet" in missing_glyph(out, "starter/game.yaml", *position(folder / "game.yaml", CJK))


def test_a_layout_font_that_has_the_character_makes_it_print(game_copy, capsys, tmp_path):
    """Cabin Sketch has no Ł; with Lato as the title font the back's title passes check and
    prints (the names are set in the heavy face, Lato Black, which has it)."""
    folder = game_copy(TINY_GAME)
    edit(folder / "game.yaml", "title: Tiny Hazards", "title: Łódź Hazards")
    edit(folder / "cards.yaml", 'name: "No"', 'name: "Łukasz"')
    edit(folder / "setups.yaml", "no: 5", "łukasz: 5")
    (folder / "layout.yaml").write_text("fonts: {title: Lato-Bold.ttf}\n", encoding="utf-8")
    assert check(folder, capsys)[0] == 0
    assert cli.main(["cards", str(folder), "--out", str(tmp_path), "--all-types"]) == 0
    pages, _ = page_fonts(tmp_path / "cards-all-types.pdf")
    fonts = {page: {font.split("+")[-1] for text, font in pages[page] if text == "Ł"} for page in (0, 1)}
    assert fonts == {0: {"Lato-Black"}, 1: {"Lato-Bold"}}  # the name on its face, the title on the backs


@pytest.mark.slow
def test_accented_latin_prints_in_the_rulebook(game_copy, capsys, tmp_path):
    folder = game_copy("starter")
    edit(folder / "cards.yaml", "name: Peek", "name: Böom")
    edit(folder / "cards.yaml", '"Look at the top 2 cards of the deck."', '"Déjà vu: regardez la carte."')
    edit(folder / "setups.yaml", "Peek", "Böom")
    edit(folder / "rules.md", "\n\n", "\n\nÇa marche: œuvre, naïve, Łódź.\n\n")
    assert check(folder, capsys)[0] == 0
    assert cli.main(["rulebook", str(folder), "--out", str(tmp_path)]) == 0
    text = "\n".join(page_lines(tmp_path / "rulebook.pdf"))
    for words in ("Böom", "Déjà vu: regardez la carte.", "Ça marche: œuvre, naïve, Łódź."):
        assert words in text


def test_a_faces_own_words_are_read_against_the_elements_font_at_its_line(game_copy, capsys):
    folder = game_copy()
    (folder / "layout.yaml").write_text(
        "faces:\n  city:\n    extends: default\n    elements:\n"
        '      - {id: town, text: "Łódź {number}", font: title, x: 10, y: 40, width: 40, height: 8}\n'
        '      - {id: plain, text: "Łódź {number}", font: text, x: 10, y: 50, width: 40, height: 8}\n'
        "face: city\n", encoding="utf-8")
    code, out = check(folder, capsys)
    assert code == 1
    found = missing_glyph(out, "tiny_game/layout.yaml", 5, 9)
    assert "face city, town (its own words): 'Ł'" in found and "CabinSketch-Bold.ttf" in found
    assert "plain (its own words)" not in out  # Lato has it; the documents never draw a face's words


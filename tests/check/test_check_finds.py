"""Everything a build can reject is found by `cardgen check`: exit 1, file:line:column, a stable
code and a hint, and never a traceback. Each test breaks one thing in a copy of a game folder."""
from __future__ import annotations

import re
import shutil

import pytest
from conftest import check, edit

from cardgen import cli
from cardgen.inputs.paths import ART


def line_of(path, text: str) -> int:
    """The 1-based line of the first line holding text."""
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def assert_finding(out: str, file: str, line: int, code: str, *words: str) -> str:
    """The finding at file:line with code, whose message and hint hold every word; returns it."""
    pattern = re.compile(rf"^ *{re.escape(file)}:{line}:\d+: error: (.*)\[{re.escape(code)}\]\n +hint: (.*)$", re.M)
    match = pattern.search(out)
    assert match, f"no {code} at {file}:{line} in:\n{out}"
    found = match.group(0)
    for word in words:
        assert word in found, f"{word!r} not in {found!r}"
    return found


# --------------------------------------------------------------------------- expressions


@pytest.mark.parametrize("expression", ["max()", "max(players)", "min(1)"])
def test_min_and_max_with_too_few_values_are_findings(game_copy, capsys, expression):
    folder = game_copy()
    edit(folder / "game.yaml", "at_least: players - 1", f'at_least: "{expression}"')
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "tiny_game/game.yaml", line_of(folder / "game.yaml", expression), "bad-expression",
                   "needs at least two values", "players")


def test_copies_expression_is_checked_in_setups_yaml(game_copy, capsys):
    folder = game_copy()
    edit(folder / "setups.yaml", "players: {min: 2, max: 3}", 'players: {min: 2, max: 3}\n    copies: "max()"')
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "tiny_game/setups.yaml", line_of(folder / "setups.yaml", "copies"), "bad-expression",
                   "max(...) needs at least two values")


def test_a_table_bound_without_the_players_of_a_setup_is_a_finding(game_copy, capsys):
    folder = game_copy()
    edit(folder / "game.yaml", "equals: 20", "equals: {2: 20}")
    code, out = check(folder, capsys)
    assert code == 1
    assert "table-size: the table has no entry for 3 players [bad-expression]" in out


# --------------------------------------------------------------------------- piles


def test_a_misspelled_pile_in_a_check_is_an_error_with_did_you_mean(game_copy, capsys):
    folder = game_copy()
    edit(folder / "game.yaml", "on: draw_pile", "on: draw_piles")
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "tiny_game/game.yaml", line_of(folder / "game.yaml", "draw_piles"), "unknown-pile",
                   "'draw_piles'", "did you mean 'draw_pile'?")


def test_a_misspelled_pile_in_a_step_is_an_error_with_did_you_mean(game_copy, capsys):
    folder = game_copy()
    edit(folder / "game.yaml", "move: {from: hazards, to: deck", "move: {from: hazard, to: deck")
    code, out = check(folder, capsys)
    assert code == 1
    found = assert_finding(out, "tiny_game/game.yaml", line_of(folder / "game.yaml", "from: hazard,"),
                           "unknown-pile", "from: no pile 'hazard'", "did you mean 'hazards'?")
    assert "add cards to the setup" not in out, found


def test_a_pile_no_earlier_step_makes_is_unknown_where_it_is_taken_from(game_copy, capsys):
    folder = game_copy()
    edit(folder / "game.yaml", "    - move: {from: deck, to: hazards, select: {kind: hazard}}\n      text: Take out the hazards.\n", "")
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "tiny_game/game.yaml", line_of(folder / "game.yaml", "from: hazards"), "unknown-pile",
                   "piles so far: deck, hands, box")


# --------------------------------------------------------------------------- layout.yaml


@pytest.mark.parametrize("layout_yaml, code, words", [
    ('text: {size: big}', "wrong-type", ["layout text.size should be a number, not 'big'"]),
    ('text: {colour: "#000000"}', "unknown-key", ["layout text: unknown key 'colour'", "did you mean 'color'?"]),
    ('txet: {size: 8}', "unknown-key", ["layout.yaml: unknown key 'txet'", "did you mean 'text'?"]),
    ('back: {background: red}', "bad-color", ["layout back.background 'red' is not a color", "#rrggbb"]),
    ('name: {font: comic}', "unknown-font-role", ["layout name.font: no font role 'comic'", "use one of: title"]),
    ('fonts: {title: Missing.ttf}', "font-not-found", ["font 'Missing.ttf' not found", "fonts/ folder"]),
    ('fonts: {title: ../../etc/x.ttf}', "bad-font", ["name of a .ttf file"]),
    ('back: {pattern_step: 0.001}', "number-out-of-range", ["back.pattern_step is 0.001; it must be 2–100"]),
    ('design: {width: 0}', "number-out-of-range", ["design.width is 0; it must be 10–400"]),
    ('text: {leading: 0}', "number-out-of-range", ["text.leading is 0;"]),
    ('text: {size: .inf}', "wrong-type", ["text.size should be a number, not '.inf'"]),
    ('text: {size: .nan}', "wrong-type", ["text.size should be a number, not '.nan'"]),
    ('text: 9', "wrong-type", ["layout text should be a mapping"]),
    ('back: {emblem: "no such"}', "bad-id", ["layout back.emblem 'no such' is not a valid identifier"]),
])
def test_layout_mistakes_are_found_at_their_line(game_copy, capsys, layout_yaml, code, words):
    folder = game_copy()
    (folder / "layout.yaml").write_text("# the card design\n\n" + layout_yaml + "\n", encoding="utf-8")
    exit_code, out = check(folder, capsys)
    assert exit_code == 1
    assert_finding(out, "tiny_game/layout.yaml", 3, code, *words)


def test_a_font_that_reportlab_cannot_read_is_found_at_check(game_copy, capsys):
    folder = game_copy()
    (folder / "fonts").mkdir()
    (folder / "fonts" / "Broken.ttf").write_bytes(b"\x00\x01\x00\x00" + b"not a font" * 100)
    (folder / "layout.yaml").write_text("fonts:\n  text: Broken.ttf\n")
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "tiny_game/layout.yaml", 2, "bad-font", "Broken.ttf cannot be used", "TrueType")


def test_a_font_the_documents_cannot_use_is_found_at_check_though_no_layout_names_it(game_copy, capsys, tmp_path):
    from fontTools.ttLib import TTFont

    folder = game_copy()
    (folder / "fonts").mkdir()
    font = TTFont(ART / "fonts" / "Lato-Regular.ttf")
    del font["name"]  # its characters read, but the documents cannot name it
    font.save(folder / "fonts" / "Nameless.ttf")
    code, out = check(folder, capsys)
    assert code == 1
    assert re.search(r"tiny_game/fonts/Nameless.ttf: error: font Nameless.ttf cannot be read: "
                     r"the font has no 'name' table \[bad-font\]", out), out
    assert cli.main(["rulebook", str(folder), "--out", str(tmp_path)]) == 1  # what check found is what the build refuses


def test_a_font_symlink_leading_out_is_found_at_check(game_copy, capsys, tmp_path):
    shutil.copy(ART / "fonts" / "Lato-Regular.ttf", tmp_path / "Outside.ttf")
    folder = game_copy()
    (folder / "fonts").mkdir()
    (folder / "fonts" / "Outside.ttf").symlink_to(tmp_path / "Outside.ttf")
    (folder / "layout.yaml").write_text("fonts: {text: Outside.ttf}\n")
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "tiny_game/layout.yaml", 1, "font-outside", "Outside.ttf lies outside")


# --------------------------------------------------------------------------- symbols


def test_a_color_symbol_with_no_svg_is_an_error_at_its_line(game_copy, capsys):
    folder = game_copy()
    edit(folder / "game.yaml", "symbol: gear}", "symbol: shield}")
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "tiny_game/game.yaml", line_of(folder / "game.yaml", "symbol: shield"), "unknown-symbol",
                   "color 'blue': no symbol 'shield'", "tiny_game/symbols/", "built-in")


def test_a_misspelled_symbol_gets_a_did_you_mean(game_copy, capsys):
    folder = game_copy()
    edit(folder / "game.yaml", "symbol: gear}", "symbol: gaer}")
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "tiny_game/game.yaml", line_of(folder / "game.yaml", "symbol: gaer"), "unknown-symbol",
                   "did you mean 'gear'?")


def test_the_layout_emblem_must_be_a_symbol(game_copy, capsys):
    folder = game_copy()
    (folder / "layout.yaml").write_text("back:\n  emblem: shield\n")
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "tiny_game/layout.yaml", 2, "unknown-symbol", "layout back.emblem: no symbol 'shield'")


def test_an_unknown_inline_symbol_is_a_warning_at_its_place(game_copy, capsys):
    folder = game_copy()
    cards_yaml = folder / "cards.yaml"
    text = cards_yaml.read_text(encoding="utf-8")
    cards_yaml.write_text(text.replace('"You are out."', '"You are :nope: out."', 1), encoding="utf-8")
    code, out = check(folder, capsys)
    assert code == 0
    line = line_of(cards_yaml, ":nope:")
    assert re.search(rf"^ *tiny_game/cards.yaml:{line}:\d+: warning: card '.*' text: no symbol 'nope' \[unknown-symbol\]",
                     out, re.M), out


@pytest.mark.parametrize("svg, words", [
    ("this is not XML", ["bomb.svg is not readable XML"]),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>B</text></svg>', ["<text>"]),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><image href="../../x.png"/></svg>',
     ["refers to other files", "no <image>"]),
    ('<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>',
     ["refers to other files"]),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"><rect width="1" height="1"/></svg>',
     ["bomb.svg"]),
], ids=["not-xml", "text", "image", "entity", "zero-size"])
def test_a_game_symbol_the_renderers_would_refuse_is_found_at_check(game_copy, capsys, svg, words):
    folder = game_copy()
    (folder / "symbols").mkdir()
    (folder / "symbols" / "bomb.svg").write_text(svg)
    code, out = check(folder, capsys)
    assert code == 1
    found = re.search(r"^tiny_game/symbols/bomb.svg: error: (.*) \[bad-symbol\]\n    hint: .+$", out, re.M)
    assert found, out
    assert all(word in found.group(0) for word in words), found.group(0)


def test_an_unused_broken_symbol_is_found_too_since_the_documents_font_holds_it(game_copy, capsys):
    folder = game_copy()
    (folder / "symbols").mkdir()
    (folder / "symbols" / "unused.svg").write_text("this is not XML")
    code, out = check(folder, capsys)
    assert code == 1 and "tiny_game/symbols/unused.svg: error:" in out


# --------------------------------------------------------------------------- the cheat sheet


@pytest.mark.parametrize("old, new, code, words", [
    ("    sections:", "    sectoins:", "unknown-key", ["cheatsheet: unknown key 'sectoins'", "did you mean 'sections'?"]),
    ("    goal: Hold", "    gaol: Hold", "unknown-key", ["did you mean 'goal'?"]),
    ("      - title: On your turn\n        items:", "      - title: On your turn\n        itmes:", "unknown-key",
     ["unknown key 'itmes'", "did you mean 'items'?"]),
    ("    goal: Hold the most points when the deck runs out.", "    goal: [Hold, points]", "wrong-type",
     ["cheatsheet: goal should be text"]),
    ("    goal: Hold the most points when the deck runs out.", "    card_group_by: colour", "bad-value",
     ["card_group_by 'colour' is not one of text, none"]),
])
def test_cheatsheet_typos_are_errors_at_their_line(game_copy, capsys, old, new, code, words):
    folder = game_copy("starter")
    edit(folder / "game.yaml", old, new)
    exit_code, out = check(folder, capsys)
    assert exit_code == 1
    line = line_of(folder / "game.yaml", new.splitlines()[-1].strip())
    assert_finding(out, "starter/game.yaml", line, code, *words)


# --------------------------------------------------------------------------- art


@pytest.mark.parametrize("setup_art, code, words", [
    ("outside", "art-path", ["must be a relative path"]),
    ("symlink", "art-outside", ["leads outside the game folder"]),
    ("missing", "art-not-found", ["does not exist"]),
    ("not_an_image", "bad-art", ["not a valid image"]),
    ("gif", "bad-art", ["is GIF inside, not PNG"]),
    ("svg", "bad-art", ["only .png, .jpg and .jpeg"]),
    ("bomb", "bad-art", ["too large"]),
])
def test_art_the_card_renderer_would_refuse_is_found_at_check(game_copy, capsys, tmp_path, setup_art, code, words):
    from PIL import Image

    folder = game_copy()
    (folder / "art").mkdir()
    target = folder / "art" / "boom.png"
    art = "art/boom.png"
    if setup_art == "outside":
        art = "../secret.png"
    elif setup_art == "symlink":
        Image.new("RGB", (10, 10)).save(tmp_path / "elsewhere.png")
        target.symlink_to(tmp_path / "elsewhere.png")
    elif setup_art == "not_an_image":
        target.write_text("not a png")
    elif setup_art == "gif":
        Image.new("RGB", (10, 10)).save(target, "GIF")
    elif setup_art == "svg":
        art = "art/boom.svg"
        (folder / "art" / "boom.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')
    elif setup_art == "bomb":
        Image.new("1", (10000, 10000)).save(target, "PNG")  # a tiny file that decodes to 100 megapixels
    edit(folder / "cards.yaml", 'text: "You are out."}', f'text: "You are out.", art: "{art}"}}')
    exit_code, out = check(folder, capsys)
    assert exit_code == 1
    assert_finding(out, "tiny_game/cards.yaml", line_of(folder / "cards.yaml", "art:"), code, "card 'Boom'", *words)


# --------------------------------------------------------------------------- output file names


def test_a_setup_name_too_long_for_a_file_name_is_found_at_check(game_copy, capsys, tmp_path):
    folder = game_copy()
    long_name = "日本語" * 26  # 78 letters, within the 80 a name may have, but 234 bytes of UTF-8
    edit(folder / "setups.yaml", "name: Starter", f"name: {long_name}")
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "tiny_game/setups.yaml", 2, "file-name-too-long", "file name", "shorten the setup's name")


def test_a_setup_name_in_another_script_that_fits_builds_its_sheets(game_copy, capsys, tmp_path):
    folder = game_copy()
    edit(folder / "setups.yaml", "name: Starter", "name: Русская колода")  # the shipped fonts have Cyrillic
    assert check(folder, capsys)[0] == 0
    assert cli.main(["cards", str(folder), "--out", str(tmp_path), "--no-backs"]) == 0
    assert (tmp_path / "cards-русская-колода.pdf").is_file()


# --------------------------------------------------------------------------- images in the documents' texts


@pytest.mark.parametrize("src, words", [
    ("art/none.png", ["'art/none.png' (from card 'Peek' (text)) does not exist", "looked for tiny_game/art/none.png"]),
    ("../../secret.png", ["outside the game folder", "keep images"]),
    ("http://127.0.0.1/x.png", ["only local files", "copy the file"]),
    ("art/bad.png", ["is not a valid image", "PNG or JPEG"]),
])
def test_markdown_images_the_documents_would_refuse_are_found_at_check(game_copy, capsys, src, words):
    folder = game_copy()
    (folder / "art").mkdir()
    (folder / "art" / "bad.png").write_text("not a png")
    edit(folder / "cards.yaml", '"Look at the top (2) cards."', f'"Look at the top (2) cards. ![eye]({src})"')
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "tiny_game/cards.yaml", line_of(folder / "cards.yaml", src), "bad-image", *words)


def test_a_markdown_image_in_rules_md_is_found_at_its_line(game_copy, capsys):
    folder = game_copy()
    (folder / "rules.md").write_text("# Rules\n\nSome prose.\n\n![a picture](pictures/missing.png)\n")
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "tiny_game/rules.md", 5, "bad-image", "does not exist")


# --------------------------------------------------------------------------- card sheets


def test_a_setup_with_no_card_to_print_is_found_at_check(game_copy, capsys):
    folder = game_copy()
    setups = folder / "setups.yaml"
    text = setups.read_text(encoding="utf-8")
    for line in ("Boom: 5", "shield: 4", "Peek: 6", "no: 5"):
        text = text.replace(line, line.split(":")[0] + ":")  # every count unknown in the source
    setups.write_text(text, encoding="utf-8")
    code, out = check(folder, capsys)
    assert code == 1
    assert_finding(out, "tiny_game/setups.yaml", 2, "nothing-to-print", "Starter: no card", "print: false")


def test_two_colors_with_one_symbol_are_a_warning_at_the_second(game_copy, capsys):
    """The symbol is what tells a color's cards apart in black and white or to a color-blind
    player: a color that takes another's symbol is a warning at its symbol, naming both."""
    folder = game_copy()
    edit(folder / "game.yaml", 'hex: "#2e86c1", symbol: gear}', 'hex: "#2e86c1", symbol: bomb}')
    code, out = check(folder, capsys)
    line = next(line.strip() for line in out.splitlines() if "[shared-symbol]" in line)
    assert code == 0 and line.startswith("tiny_game/game.yaml:10:") and "warning: color 'blue' has the symbol 'bomb' of color 'red'" in line
    edit(folder / "game.yaml", 'hex: "#2e86c1", symbol: bomb}', 'hex: "#2e86c1", symbol: gear}')
    assert "[shared-symbol]" not in check(folder, capsys)[1]

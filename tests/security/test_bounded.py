"""Bounded work and clean failures under hostile or heavy input.

Each hostile input, rebuilt small: it ends with exit 1 or 2 and a clear message (or
builds correctly), never a traceback. The limits refuse before the costly work starts, so each
case here is quick.
"""
from __future__ import annotations

import errno
import hashlib
import io
import mmap
import os

import pypdf
import pytest
from conftest import TINY_GAME, edit
from fontTools.ttLib import TTFont

from cardgen.check import engine
from cardgen.load.rules import MAX_RULES_HEADINGS, MAX_TABLE_COLUMNS
from cardgen.publish import folder
from cardgen.publish import limits as ceilings
from cardgen.render import card_images
from cardgen.render.cards import sheets
from cardgen.serve import Preview
from security.conftest import attempt, huge_png, outputs, png_bytes, refused, set_card
from security.test_failures import run

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">{}</svg>'
SQUARE = SVG.format('<rect width="50" height="50"/>')


def polygon(points: int) -> str:
    return SVG.format('<polygon points="' + " ".join(f"{i * 37 % 100},{i * 53 % 100}" for i in range(points)) + '"/>')


def nested_uses(levels: int, fan: int = 4) -> str:
    """Each level draws the one below `fan` times: fan ** levels rectangles from a few hundred bytes."""
    defs = '<rect id="u0" width="1" height="1"/>' + "".join(
        f'<g id="u{i}">' + f'<use href="#u{i - 1}"/>' * fan + "</g>" for i in range(1, levels + 1))
    return SVG.format(f'<defs>{defs}</defs><use href="#u{levels}"/>')


pytestmark = pytest.mark.usefixtures("no_hang")


# --------------------------------------------------------------------------- the check stage


@pytest.mark.parametrize("rules, code", [
    ("".join(f"## Part {i}\n\nText.\n\n" for i in range(MAX_RULES_HEADINGS + 1)), "too-many-headings"),
    ("| " + " | ".join("c" * (MAX_TABLE_COLUMNS + 1)) + " |\n|" + "---|" * (MAX_TABLE_COLUMNS + 1) + "\n",
     "table-too-wide"),
], ids=["headings", "table-columns"])
def test_rules_md_with_too_many_headings_or_columns_is_refused_by_check(rules, code, game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "rules.md").write_text("# Rules\n\n" + rules)
    status, text = run("check", folder)
    assert status == 1 and f"[{code}]" in text and "rules.md:" in text
    status, text = run("rulebook", folder, "--out", tmp_path / "out")
    assert status == 1 and f"[{code}]" in text and outputs(tmp_path / "out") == []


# libyaml refuses a lone surrogate's escape itself, as a syntax error at the escape
@pytest.mark.parametrize("escape, code", [("\\ud800", "yaml-syntax"), ("\\e[2J\\e[H", "unusable-character"),
                                          ("\\x00", "unusable-character"), ("\\x9b", "unusable-character")])
@pytest.mark.parametrize("json", [False, True], ids=["text", "json"])
def test_control_characters_and_lone_surrogates_in_yaml_are_refused(escape, code, json, game_copy):
    folder = game_copy(TINY_GAME)
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace('flavor: "Oops."', f'flavor: "Oo{escape}ps."'))
    status, text = run("check", folder, *(["--json"] if json else []))
    assert status == 1 and code in text and "cards.yaml:2:" in text
    assert "\x1b" not in text and "\x00" not in text
    text.encode("utf-8")  # no lone surrogate reaches the terminal


def test_control_characters_in_cards_csv_are_refused(game_copy):
    folder = game_copy(TINY_GAME)
    (folder / "cards.yaml").unlink()
    (folder / "cards.csv").write_text("name,color,kind\nBo\x1b[2J\x1b[Hom,red,hazard\n")
    status, text = run("check", folder)
    assert status == 1 and "[unusable-character]" in text and "cards.csv:2:3" in text and "\x1b" not in text


def test_names_from_the_data_are_printed_with_control_characters_escaped(game_copy):
    """A right-to-left override is a valid character in a name but must not reorder the terminal."""
    folder = game_copy(TINY_GAME)
    setups = folder / "setups.yaml"
    setups.write_text(setups.read_text().replace("Peek: 6", '"Pe\\u202eek": 6'))
    status, text = run("check", folder)
    assert status == 1 and "Pe\\u202eek" in text and "\u202e" not in text


def test_cards_across_all_setups_have_a_total_limit(game_copy):
    folder = game_copy(TINY_GAME)
    per_setup = engine.MAX_PRINT_CARDS // 5  # each setup is within its own limit
    setups = "".join(f"  - {{name: S{i}, players: {{min: 2, max: 3}}, hand: {{deal: 3}}, "
                     f"cards: {{Boom: {per_setup}}}}}\n"
                     for i in range(engine.MAX_TOTAL_PRINT_CARDS // per_setup + 1))
    (folder / "setups.yaml").write_text("setups:\n" + setups)
    status, text = run("check", folder)
    assert status == 1 and "[too-many-to-print]" in text and "in all" in text


def test_a_fifo_in_place_of_rules_md_is_refused_not_waited_for(game_copy):
    folder = game_copy(TINY_GAME)
    os.mkfifo(folder / "rules.md")
    status, text = run("check", folder)
    assert status == 1 and "rules.md is not a regular file" in text


# --------------------------------------------------------------------------- symbols


@pytest.mark.parametrize("svg, says", [
    (polygon(600), "numbers in its paths"),
    (nested_uses(6), "<use>"),
    (nested_uses(2, fan=2).replace('<use href="#u1"/>', '<use href="#u2"/>', 1), "loop"),
    (SVG.replace('viewBox="0 0 100 100"', 'viewBox="0 0 1e999 1"').format("<rect width='1' height='1'/>"),
     "viewBox"),
    (SVG.format('<rect width="50" height="50"/><rect x="90000" width="10" height="10"/>'), "far outside"),
], ids=["points", "use-expansion", "use-loop", "infinite-viewbox", "far-outside"])
@pytest.mark.parametrize("kind", ["rulebook", "cards"])
def test_a_costly_or_broken_used_symbol_is_refused_naming_it(svg, says, kind, game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "symbols").mkdir()
    (folder / "symbols" / "bomb.svg").write_text(svg)
    message = refused(kind, folder, tmp_path / "out")
    assert "bomb.svg" in message and says in message


@pytest.mark.slow
def test_the_rulebooks_symbol_font_holds_only_the_symbols_it_shows(game_copy, tmp_path):
    """However many symbols a game has, a document's font is made of the ones it shows."""
    folder = game_copy(TINY_GAME)
    (folder / "symbols").mkdir()
    for i in range(300):
        (folder / "symbols" / f"unused-{i}.svg").write_text(SQUARE)
    out = tmp_path / "out"
    status, text = run("rulebook", folder, "--out", out)
    assert status == 0, text
    glyphs = symbol_glyphs(out / "rulebook.pdf")
    assert 2 <= len(glyphs) <= 6, glyphs  # bomb, gear, the star: what the rulebook of the tiny game shows


def symbol_glyphs(pdf) -> set[str]:
    """The glyph names of the embedded subset of the symbol font (its glyphs are named uniXXXX)."""
    names = set()
    for page in pypdf.PdfReader(pdf).pages:
        for font in page["/Resources"]["/Font"].values():
            descriptor = font.get_object().get("/FontDescriptor") or \
                font.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            if "CardgenSymbols" not in str(descriptor.get_object()["/FontName"]):
                continue
            stream = descriptor.get_object().get("/FontFile3") or descriptor.get_object().get("/FontFile2")
            data = stream.get_object().get_data()
            try:
                font_file = TTFont(io.BytesIO(data))
                names |= {g for g in font_file.getGlyphOrder() if g.startswith("uni")}
            except Exception:  # a bare CFF table
                from fontTools.cffLib import CFFFontSet

                cff = CFFFontSet()
                cff.decompile(io.BytesIO(data), None)
                names |= {g for g in cff[cff.fontNames[0]].charset if g.startswith("uni")}
    return names


# --------------------------------------------------------------------------- images


def test_a_nested_use_svg_shown_by_rules_md_is_refused(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "nested.svg").write_text(nested_uses(7))
    (folder / "rules.md").write_text("# Rules\n\n![a picture](nested.svg)\n")
    message = refused("rulebook", folder, tmp_path / "out")
    assert "nested.svg" in message and "<use>" in message


@pytest.mark.parametrize("url, says", [("a%00b.png", "cannot hold a NUL"), ("<a\0b.png>", "does not exist"),
                                       ("b" * 5000 + ".svg", "File name too long")],
                         ids=["escaped", "raw", "too-long"])  # Markdown reads a raw NUL as U+FFFD
def test_a_markdown_image_url_with_a_nul_byte_or_too_long_a_name_is_refused(url, says, game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "rules.md").write_text(f"# Rules\n\n![x]({url})\n")
    status, text = run("rulebook", folder, "--out", tmp_path / "out")
    assert status == 1 and says in text


@pytest.mark.parametrize("how", ["css", "svg-image"])
def test_an_image_bomb_is_refused_wherever_it_enters(how, game_copy, tmp_path):
    """The check that refuses a bomb as card art also guards CSS url() and an SVG's <image>."""
    folder = game_copy(TINY_GAME)
    (folder / "big.png").write_bytes(huge_png(13000, 13000))
    if how == "css":
        (folder / "templates").mkdir()
        (folder / "templates" / "game.css").write_text('body { background: url("big.png"); }\n')
    else:
        (folder / "picture.svg").write_text(SVG.format('<image href="big.png" width="10" height="10"/>'))
        (folder / "rules.md").write_text("# Rules\n\n![a picture](picture.svg)\n")
    message = refused("rulebook", folder, tmp_path / "out")
    assert "big.png" in message and "13000x13000" in message


def test_card_art_is_read_once_and_the_bytes_checked_are_drawn(game_copy, tmp_path, monkeypatch):
    """Art is not checked and then opened again (a swap in between would draw unchecked bytes)."""
    import builtins

    folder = game_copy(TINY_GAME)
    (folder / "art").mkdir()
    (folder / "art" / "peek.png").write_bytes(png_bytes(40, 30))
    set_card(folder, "Peek", art="art/peek.png", low_res="ok")
    art = os.path.realpath(folder / "art" / "peek.png")
    opened = []

    def counting(real):
        def wrapper(file, *args, **kwargs):
            if isinstance(file, (str, bytes, os.PathLike)):
                opened.append(os.path.realpath(file))
            return real(file, *args, **kwargs)
        return wrapper

    monkeypatch.setattr(os, "open", counting(os.open))
    monkeypatch.setattr(builtins, "open", counting(builtins.open))
    assert attempt("cards", folder, tmp_path / "out") is None
    assert opened.count(art) == 1


@pytest.mark.parametrize("where, kind", [("fonts/x.ttf", "rulebook"), ("art/peek.png", "cards"),
                                         ("templates/rulebook.html", "rulebook"), ("setups.yaml", "cards")])
def test_a_fifo_named_like_an_input_file_is_refused_not_waited_for(where, kind, game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    if where.startswith("art"):
        set_card(folder, "Peek", art=where)
    (folder / where).parent.mkdir(exist_ok=True)
    (folder / where).unlink(missing_ok=True)
    os.mkfifo(folder / where)
    message = refused(kind, folder, tmp_path / "out")
    assert "not a regular file" in message


# --------------------------------------------------------------------------- templates


@pytest.mark.parametrize("body, says", [
    ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", "loop over at most"),
    ("{% for c in 'x' * 100000 %}{% for d in 'y' * 100000 %}{% endfor %}{% endfor %}", "loop over at most"),
    ("{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
     "too large for a template"),
    ("{% set ns = namespace(s=['x']) %}{% for i in range(64) %}{% set ns.s = ns.s + ns.s %}{% endfor %}",
     "too large for a template"),
    ('{{ "x"|center(10**9) }}', "too large for a template"),
    ('{{ "x".center(10**9) }}', "too large for a template"),
    # a format's width or precision is refused before the string is made (not a gigabyte later)
    ('{{ "%0999999999d"|format(1) }}', "a format width is too large"),
    ('{{ "{:>999999999}".format(1) }}', "a format width is too large"),
    ('{{ "{:.999999999f}".format_map({}) }}', "a format width is too large"),
    ('{{ "%*d" % (999999999, 1) }}', "the number 999999999 is too large"),
    ("{{ range(90000)|join('x' * 1000) }}", "too large for a template"),
    ('{% extends "' + "rulebook" * 1000 + '.html" %}', "File name too long"),
    ('{% extends "rulebook.html" %}{% extends "rulebook.html" %}', "extended multiple times"),
], ids=["nested-range", "nested-string-loops", "doubling-concat", "doubling-list", "center-filter",
        "center-method", "format-filter", "format-method", "format-map-method", "percent-star", "join",
        "long-template-name", "extends-twice"])
def test_template_loops_and_values_have_limits(body, says, game_with_template, tmp_path):
    folder = game_with_template(body)
    message = refused("rulebook", folder, tmp_path / "out")
    assert says in message and "rulebook.html" in message


# --------------------------------------------------------------------------- writing the outputs


def test_an_output_path_that_is_a_file_is_a_usage_error(tmp_path):
    (tmp_path / "file").write_text("x")
    for out in (tmp_path / "file", tmp_path / "file" / "sub"):
        status, text = run("rulebook", TINY_GAME, "--out", out)
        assert status == 2 and "--out" in text


def test_a_read_only_output_folder_is_a_usage_error(tmp_path, monkeypatch):
    """Simulated (tests may run as root, who may write anywhere): the staging folder cannot be made."""
    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", kwargs.get("dir"))

    monkeypatch.setattr(folder.tempfile, "mkdtemp", read_only)
    status, text = run("rulebook", TINY_GAME, "--out", tmp_path / "out")
    assert status == 2 and "Read-only file system" in text and "choose an output folder" in text


def test_a_full_disk_is_a_clear_error_and_leaves_nothing(tmp_path, monkeypatch):
    """Simulated: writing the card sheet fails with ENOSPC (the worker is forked with the patch)."""
    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(sheets, "atomic_write", full)
    out = tmp_path / "out"
    status, text = run("cards", TINY_GAME, "--all-types", "--out", out)
    assert status == 1 and "No space left on device" in text and "free some disk space" in text
    assert [p.name for p in out.iterdir()] == []


def test_a_full_disk_while_weasyprint_writes_its_fonts_is_the_full_disk_error(tmp_path, monkeypatch):
    """Simulated: WeasyPrint keeps a document's fonts in a temporary folder (the worker's, in the
    staging folder) and reports the failure to make it as its own."""
    from weasyprint.text import fonts

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(fonts, "mkdtemp", full)
    status, text = run("checklist", TINY_GAME, "--out", tmp_path / "out")
    assert status == 1 and "No space left on device" in text and "free some disk space" in text


def test_a_long_setup_name_in_a_wide_script_is_refused_by_check(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    setups = folder / "setups.yaml"
    name = "\U0001d400" * 80  # 80 letters, 320 bytes of UTF-8: more than a file name may hold
    setups.write_text(setups.read_text().replace("name: Starter", f"name: {name}"))
    status, text = run("cards", folder, "--out", tmp_path / "out", "--no-backs")
    assert status == 1 and "[file-name-too-long]" in text and "setups.yaml:" in text
    assert outputs(tmp_path / "out") == []


@pytest.mark.parametrize("argv", [["cards", "--bleed", "1000"], ["cards", "--bleed", "nan"],
                                  ["checklist", "--players", "0"], ["checklist", "--players", "\u0663"],
                                  ["export", "--to", "png", "--dpi", "999999999999"], ["export", "--to", "png", "--dpi", "49"]],
                         ids=["bleed", "bleed-nan", "players-0", "players-arabic-digit", "dpi-huge", "dpi-low"])
def test_options_out_of_range_are_usage_errors(argv, tmp_path):
    status, text = run(argv[0], TINY_GAME, *argv[1:], "--out", tmp_path)
    assert status == 2 and ("bleed" in text or "out of range: give" in text or "is not a whole number" in text)
    assert "Traceback" not in text
    assert outputs(tmp_path) == []


@pytest.mark.slow
def test_reportlab_environment_settings_do_not_change_the_card_sheet(tmp_path):
    import subprocess
    import sys

    from conftest import ROOT

    status, text = run("cards", TINY_GAME, "--all-types", "--out", tmp_path / "plain")
    assert status == 0, text
    env = dict(os.environ, PYTHONPATH=str(ROOT), RL_ttfAsciiReadable="0", RL_pdfComments="1",
               RL_pdfMultiLine="1", RL_invariant="0", RL_pageCompression="0",
               RL_uriWasteReduce="0.5")  # not a number ReportLab takes: its import would stop
    subprocess.run([sys.executable, "-m", "cardgen", "cards", str(TINY_GAME), "--all-types",
                    "--out", str(tmp_path / "settings")], env=env, check=True, capture_output=True)
    plain, settings = (hashlib.sha256((tmp_path / d / "cards-all-types.pdf").read_bytes()).hexdigest()
                       for d in ("plain", "settings"))
    assert plain == settings


# --------------------------------------------------------------------------- the ceilings
# Work no input limit foresees still ends: each output renders in a worker under a CPU-time and a
# memory ceiling (cardgen/publish/limits.py), and hitting one is a clean failure naming the output.


# The wall-clock limit is only a guard against a hang here: on a busy machine a second of CPU
# time can take a minute, and the ceiling under test is the CPU time or the memory.
HANG_GUARD = 240


@pytest.mark.parametrize("body, limits, says", [
    # a million numbers (Jinja folds the constant expression: the template renders at once, at check too): 6 MB of
    # text the rulebook's layout works on well past a second of CPU, so the ceiling is what stops it, never a later
    # check of what it printed. Words, not one word of 6 MB: Pango shapes that in one call of C, and the ceiling's
    # signal would wait a second more for it to return
    ("{% for i in range(1000) %}{% for j in range(999) %}{{ 'x'|center(99999)|replace(' ', 'yy')|length }} {% endfor %}{% endfor %}",
     ceilings.Limits(cpu_seconds=1, wall_seconds=HANG_GUARD), "used more than 1 s of CPU time"),
    ("{% set kept = [] %}{% for i in range(100000) %}{{ kept.append('%d'|format(i) * 20000) or '' }}{% endfor %}",
     ceilings.Limits(wall_seconds=HANG_GUARD), "needed more than 1024 MB of memory"),
], ids=["cpu-time", "memory"])
@pytest.mark.slow
def test_work_no_limit_foresees_hits_the_ceiling_and_fails_cleanly(body, limits, says, game_with_template, tmp_path,
                                                                   monkeypatch):
    folder = game_with_template(body)
    monkeypatch.setattr(ceilings, "LIMITS", limits)
    inherited = mmap.mmap(-1, limits.memory_bytes)  # address space the workers inherit, never touched
    try:
        status, text = run("rulebook", folder, "--out", tmp_path / "out")
    finally:
        inherited.close()
    assert status == 1 and "Traceback" not in text and says in text
    # found by check, which renders the game's own templates under the same ceilings, or by the build
    assert "rendering the game's own templates" in text or "the rulebook" in text and "likely cause" in text
    assert outputs(tmp_path / "out") == []


def test_the_live_preview_draws_its_card_pictures_under_the_ceilings(game_copy, tmp_path, monkeypatch):
    """`cardgen serve` draws each card's picture from the game's untrusted symbols, art and texts:
    in worker processes under the build's ceilings, like every output. A card whose drawing needs
    more memory than the ceiling (here 2 GB for Peek) is stopped there: the page names the card and
    the ceiling, the other cards are drawn, and a card drawn before keeps its last good picture."""
    face_pdf = card_images.face_pdf

    def greedy(game, card):
        if card.name == "Peek":
            bytearray(2 << 30)
        return face_pdf(game, card)

    folder = game_copy()
    preview = Preview(folder, tmp_path / "serve")
    monkeypatch.setattr(card_images, "face_pdf", greedy)
    preview.rebuild()
    [error] = preview.state["errors"]
    assert error["message"].startswith("drawing card 'Peek' needed more than 1024 MB of memory")
    assert [card["name"] for card in preview.state["cards"]] == ["Boom", "Shield", "No"]
    monkeypatch.undo()
    preview.rebuild()
    assert [card["name"] for card in preview.state["cards"]] == ["Boom", "Shield", "Peek", "No"]
    assert preview.state["errors"] == [] and len(preview.images) == 4
    edit(folder / "cards.yaml", "Look at the top (2) cards.", "Look at the top (2) cards, then put them back.")
    monkeypatch.setattr(card_images, "face_pdf", greedy)
    preview.rebuild()
    [error] = preview.state["errors"]
    assert error["message"].startswith("drawing card 'Peek' needed more than 1024 MB of memory")
    assert [(card["name"], card.get("stale", False)) for card in preview.state["cards"]] == [
        ("Boom", False), ("Shield", False), ("Peek", True), ("No", False)]

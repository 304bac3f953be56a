"""No input makes cardgen print a traceback or exit with anything but 0, 1 or 2.

Broken game folders are generated from the tiny test game and the real Exploding Puppy data:
random YAML documents in place of each file, and random edits of the real text. Every run goes
through the command line's `check` entry point in-process; an exception escaping it is a failure.
Example counts keep the whole suite well under 10 minutes on 2 cores (these took 4 of them at
1500/1000/150 examples); the build path below gets its share.
"""
from __future__ import annotations

import contextlib
import io
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import CARD_DATA, FUZZ_SCALE, TINY_GAME
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.cli import main

FILES = ("game.yaml", "cards.yaml", "setups.yaml")
pytestmark = pytest.mark.slow  # hypothesis fuzzers and the mutation soak
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                      HealthCheck.too_slow])

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**9, 10**9), st.floats(allow_nan=True),
    st.text(max_size=30),
    st.sampled_from(["red", "blue", "Boom", "Shield", "deck", "players - 1", "hazard", "now",
                     "{number:02d}", "../../etc/passwd", "~", "yes", "1.10", "012", "#zzzzzz"]),
)
keys = st.sampled_from(["name", "color", "kind", "tags", "number", "cards", "setups", "players",
                        "min", "max", "hand", "deal", "extras", "steps", "setup", "move", "from",
                        "to", "select", "count", "checks", "id", "level", "on", "at_least",
                        "colors", "hex", "symbol", "title", "series", "numbers", "copies", "waive"])
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(st.one_of(keys, st.text(max_size=8)), inner, max_size=6)),
    max_leaves=30)


def run_check(folder: Path) -> int:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["check", str(folder)])
        except SystemExit as exc:
            code = exc.code
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code


def fresh_copy(source: Path, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fuzz") / "game"
    shutil.copytree(source, folder)
    return folder


@settings(max_examples=200 * FUZZ_SCALE, **SETTINGS)
@given(which=st.sampled_from(FILES), document=documents)
def test_random_documents_in_place_of_a_game_file(tmp_path_factory, which, document):
    folder = fresh_copy(TINY_GAME, tmp_path_factory)
    (folder / which).write_text(yaml.safe_dump(document, allow_unicode=True))
    assert run_check(folder) in (0, 1)


edits = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 12),
                           st.sampled_from(["", ":", "- ", "  ", "\n", "'", '"', "&a ", "*a", "{", "]",
                                            "\t", "null", "-1", "é", "\x00", "---\n", "%YAML 1.1\n"])),
                 min_size=1, max_size=4)


def mutate(text: str, changes) -> str:
    for position, cut, insert in changes:
        at = position % (len(text) + 1)
        text = text[:at] + insert + text[at + cut:]
    return text


@settings(max_examples=200 * FUZZ_SCALE, **SETTINGS)
@given(which=st.sampled_from(FILES), changes=edits)
def test_random_edits_of_the_tiny_game(tmp_path_factory, which, changes):
    folder = fresh_copy(TINY_GAME, tmp_path_factory)
    path = folder / which
    path.write_text(mutate(path.read_text(), changes))
    assert run_check(folder) in (0, 1)


@settings(max_examples=80 * FUZZ_SCALE, **SETTINGS)
@given(which=st.sampled_from(FILES), changes=edits)
def test_random_edits_of_the_real_game(tmp_path_factory, which, changes):
    folder = fresh_copy(CARD_DATA / "exploding_puppy", tmp_path_factory)
    path = folder / which
    path.write_text(mutate(path.read_text(), changes))
    assert run_check(folder) in (0, 1)


# --------------------------------------------------------------------------- the build path
# Card sheets are the output that turns data into markup (ReportLab paragraphs), so they get the
# most: random card texts straight into the renderer, and random edits of the tiny game through
# `cardgen cards`. Only BuildError (a clear message) may come out; the rulebook path shares its
# loader and sandbox with these and costs seconds per example, so it is covered by the other tests in tests/security.

import dataclasses  # noqa: E402

from cardgen.errors import BuildError  # noqa: E402
from cardgen.layout import sheet as layout  # noqa: E402

card_texts = st.lists(st.sampled_from(list("ab *_:<>&;#/\"'=\n\t[]{}%\\") + [
    "**", ":bomb:", ":gear:", ":nope:", "<b>", "</b>", "&amp;", "&#65;", '<font color="[[[1]]]">', "</para>",
    "<img src=x/>", "<br/>", "é", "\u200b", "\U0001F436", "\x00", "word", "longerwordthatdoesnotfit"]),
    max_size=30).map("".join)


@pytest.fixture(scope="module")
def tiny_game():
    """The tiny game as loaded: the model is frozen, so every example can take its card from one load
    (the renderer reads only the model; loading it again for each example cost a third of the test)."""
    from cardgen import load

    return load.load_game(TINY_GAME).game


@settings(max_examples=150 * FUZZ_SCALE, **SETTINGS)
@given(name=card_texts.filter(lambda t: t.strip()), flavor=card_texts, text=card_texts)
def test_random_card_texts_render_or_fail_cleanly(tiny_game, name, flavor, text):
    from cardgen.render import cards

    game = tiny_game
    card = dataclasses.replace(game.cards[2], name=name.strip()[:80], flavor=flavor, text=text)
    sheet = layout.make_sheet("a4", game.card_size, 3.0)
    try:
        pdf = cards.render_sheets(game, [card], sheet, backs=False)
    except BuildError:
        return
    assert pdf.startswith(b"%PDF")


@settings(max_examples=150 * FUZZ_SCALE, **SETTINGS)
@given(which=st.sampled_from(FILES + ("layout.yaml",)), changes=edits)
def test_random_edits_of_the_tiny_game_through_cardgen_cards(tmp_path_factory, which, changes):
    folder = fresh_copy(TINY_GAME, tmp_path_factory)
    path = folder / which
    if which == "layout.yaml":
        path.write_text("text: {size: 7, min_size: 5}\nback: {pattern_step: 9}\nname: {shadow: 0.5}\n")
    path.write_text(mutate(path.read_text(), changes))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["cards", str(folder), "--out", str(folder.parent / "out"), "--no-backs"])
        except SystemExit as exc:
            code = exc.code
    assert "Traceback" not in out.getvalue() + err.getvalue()
    assert code in (0, 1)


# --------------------------------------------------------------------------- the soak's fixed budget
# The mutation fuzzer of bench/soak.py (tests/security/mutations.py: edits of the YAML, a layout,
# a symbol, rules.md and a template, through check and the renderer each feeds) on fixed seeds;
# the soak runs the same cases by the ten thousand.

from security.mutations import run_case  # noqa: E402

SOAK_CASES = 200
SOAK_CHUNKS = 3  # the test workers share them


@pytest.mark.parametrize("chunk", range(SOAK_CHUNKS))
def test_mutated_games_end_refused_or_rendered_never_in_a_bug(chunk, tmp_path):
    outcomes = []
    for seed in range(chunk, SOAK_CASES, SOAK_CHUNKS):
        workdir = tmp_path / str(seed)
        workdir.mkdir()
        outcomes.append(run_case(seed, workdir))
        shutil.rmtree(workdir)
    bugs = [f"seed {o.seed} ({o.target}): {o.detail}" for o in outcomes if o.stage == "BUG"]
    assert not bugs, "\n\n".join(bugs)
    stages = {o.stage for o in outcomes}
    # what check lets through renders: a game's own templates are rendered at check too
    assert stages == {"refused by check", "rendered"}
    assert {o.target for o in outcomes} == {"game.yaml", "cards.yaml", "setups.yaml", "layout.yaml",
                                            "symbols/bomb.svg", "rules.md", "templates/rulebook.html"}


# --------------------------------------------------------------------------- a game's languages
# The two readers of a translator's files: a game's gettext catalog (i18n/<lang>.po, through Babel)
# and a translator's sheet (i18n/<lang>.csv). Each either reports findings or gives what renders:
# a catalog without errors fills in every message of cardgen's, a sheet read back is YAML.

import re  # noqa: E402

from babel.messages.pofile import read_po  # noqa: E402

from cardgen.inputs.catalogs import POT, load_words  # noqa: E402
from cardgen.load.translator_sheet import translation_as_yaml  # noqa: E402
from cardgen.model.words import gettext, ngettext, speaking  # noqa: E402

FRENCH_GAME = TINY_GAME.parent / "petit_jeu"
po_pieces = st.sampled_from([
    "msgid ", "msgstr ", "msgid_plural ", "msgstr[0] ", "msgstr[1] ", "msgstr[7] ", "msgstr[x] ", "msgctxt ",
    "#~ ", "#, fuzzy\n", "#, python-format\n", "#: a.py:1\n", "#-", '"', '""', '"Contents"', '"Deck"',
    '"%(num)s card"', '"%(num)s cards"', '"%(x)s"', '"%(num)9s"', '"%"', '"%%"', '"\\n"', '"\\a"', '"\\', "\n", "\n",
    " ", "\t", "\r", "é", "\x1b", "\ufeff", '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"',
    '"Plural-Forms: nplurals=0;\\n"', '"Plural-Forms: nplurals=99999999999;\\n"',
    '"Content-Type: text/plain; charset=latin-1\\n"', '"Language: xx\\n"', '"PO-Revision-Date: 2020-13-45\\n"',
    'msgid ""\nmsgstr ""\n', 'msgid "Contents"\nmsgstr "Sommaire"\n'])
po_texts = st.lists(po_pieces, max_size=40).map("".join)


@pytest.fixture(scope="module")
def messages():
    """Every message of cardgen's (the catalogs' template), as (singular, plural or None)."""
    with open(POT, "rb") as template:
        return [(m.id[0], m.id[1]) if isinstance(m.id, tuple) else (m.id, None) for m in read_po(template) if m.id]


@settings(max_examples=200 * FUZZ_SCALE, **SETTINGS)
@given(text=po_texts, latin_1=st.booleans())
def test_random_catalogs_are_refused_or_fill_in_every_message(tmp_path_factory, messages, text, latin_1):
    folder = tmp_path_factory.mktemp("po")
    (folder / "i18n").mkdir()
    (folder / "i18n" / "fr.po").write_bytes(text.encode("latin-1", "replace") if latin_1 else text.encode())
    words, findings = load_words("fr", folder)
    if any(f.level == "error" for f in findings):
        assert all(f.where and f.where.file.endswith("fr.po") for f in findings)
        return
    with speaking(words):
        for singular, plural in messages:
            values = {name: "x" for name in re.findall(r"%\((\w+)\)", singular)}
            try:
                singular % values  # noqa: B018 - a message the documents fill in: so must they its translation
            except (ValueError, TypeError):
                continue
            said = ngettext(singular, plural, 2) if plural else gettext(singular)
            assert isinstance(said % values, str)


sheet_cells = st.one_of(st.sampled_from([
    "key", "en", "fr", "title", "setup_steps/0", "setup_steps/9999", "setup_steps/²", "cheatsheet/sections/3/items/2",
    "cheatsheet/sections/0/title", "cards/boom/name", "cards/boom", "a/b/c/d/e/f/g/h/i", "=1+1", "", " ", "\x1b",
    "é", "\n", '"', ","]), st.text(max_size=12))
sheet_rows = st.lists(st.lists(sheet_cells, max_size=4), max_size=12)


@settings(max_examples=200 * FUZZ_SCALE, **SETTINGS)
@given(rows=sheet_rows, header=st.booleans())
def test_random_translators_sheets_are_refused_or_read_as_yaml(tmp_path_factory, rows, header):
    import csv

    folder = tmp_path_factory.mktemp("sheet")
    (folder / "i18n").mkdir()
    out = io.StringIO()
    csv.writer(out).writerows(([["key", "en", "fr"]] if header else []) + rows)
    (folder / "i18n" / "fr.csv").write_text(out.getvalue(), encoding="utf-8")
    text, findings = translation_as_yaml(folder / "i18n" / "fr.csv", "fr", folder)
    if text is None:
        assert findings and all(f.where.file.endswith("fr.csv") for f in findings)
    else:
        assert findings == [] and isinstance(yaml.safe_load(text), (dict, type(None)))


# --------------------------------------------------------------------------- preflight's PDF walk
# Random pages for `cardgen preflight`: content streams of real operators with random operands
# (numbers, names, strings, too few or too many), placing forms and images whose dictionaries
# miss or twist their keys, color spaces and graphics states of every kind. The walk runs in this
# process (no worker), so any exception escaping it is a bug; it must end with its points.

import struct  # noqa: E402

import pikepdf  # noqa: E402

from cardgen.publish.preflight import examine  # noqa: E402

WORDS = ["/X", "/F", "/I", "/CS0", "/GS0", "/Sh0", "/Nope", "(text)", "[1 2]", "<<>>", "true", "null", "1e400", "-0", ".5"]
OPERATORS = ["q", "Q", "cm", "w", "S", "s", "B", "f", "re", "m", "l", "rg", "RG", "k", "K", "cs", "CS", "sc", "scn",
             "gs", "sh", "Do", "BT", "ET", "Tf", "Tj", "Td", "W", "n", "d", "BI"]


def decoded(data: bytes) -> list[tuple[list, str]]:
    """Instructions read from bytes: for each, a byte for its number of operands (0-7), then each
    operand (a byte for its kind, then four for an integer, held to ±10⁶, or a 32-bit float, which
    may be NaN, infinite or subnormal, or one for a word), then a byte for its operator; an
    instruction the bytes end inside is left out. Drawing one string of bytes instead of nested
    lists costs Hypothesis a fraction of the time; its mutations and shrinking work on the bytes."""
    stream, parts = io.BytesIO(data), []

    def take(size: int) -> bytes:
        read = stream.read(size)
        if len(read) < size:
            raise EOFError
        return read

    with contextlib.suppress(EOFError):
        while len(parts) < 40:
            args: list = []
            for _ in range(take(1)[0] % 8):
                kind = take(1)[0] % 3
                if kind == 2:
                    args.append(WORDS[take(1)[0] % len(WORDS)])
                elif kind == 1:
                    args.append(struct.unpack("<f", take(4))[0])
                else:
                    args.append(max(-10**6, min(10**6, int.from_bytes(take(4), "little", signed=True))))
            parts.append((args, OPERATORS[take(1)[0] % len(OPERATORS)]))
    return parts


instructions = st.binary(max_size=1200).map(decoded)
values = st.one_of(st.none(), st.integers(-5, 10**5), st.floats(-1e9, 1e9, width=32), st.just("/DeviceRGB"),
                   st.just("/Lab"), st.lists(st.integers(-3, 300), max_size=7))


def content(parts) -> bytes:
    def word(value) -> str:
        return repr(value) if isinstance(value, float) else str(value)
    return "\n".join(" ".join([*map(word, args), op]) for args, op in parts).encode("latin-1", "replace")


def pdf_object(pdf: pikepdf.Pdf, value):
    if isinstance(value, str):
        return pikepdf.Name(value)
    if isinstance(value, list):
        return pikepdf.Array(value)
    return value


@settings(max_examples=1000 * FUZZ_SCALE, **SETTINGS)  # the long profile (HYPOTHESIS_PROFILE=long): 10,000
@given(page=instructions, inner=instructions,
       form_keys=st.dictionaries(st.sampled_from(["/BBox", "/Matrix", "/Resources"]), values, max_size=3),
       image_keys=st.dictionaries(st.sampled_from(["/Width", "/Height", "/ColorSpace", "/BitsPerComponent", "/SMask"]),
                                  values, max_size=5),
       space=st.sampled_from(["/DeviceRGB", "lab", "icc", "icc-no-n", "indexed", "self"]),
       state=st.dictionaries(st.sampled_from(["/ca", "/CA", "/BM", "/SMask"]), values, max_size=3),
       boxes=st.dictionaries(st.sampled_from(["/TrimBox", "/BleedBox", "/MediaBox", "/Annots"]), values, max_size=3))
def test_preflight_walks_random_pages_to_its_points(page, inner, form_keys, image_keys, space, state, boxes):
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 200))
    form = pdf.make_stream(content(inner), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 10, 10])
    image = pdf.make_stream(b"\x00" * 64, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=4, Height=4,
                            BitsPerComponent=8, ColorSpace=pikepdf.Name.DeviceGray)
    for target, keys in ((form, form_keys), (image, image_keys)):
        for key, value in keys.items():
            if value is not None:
                target[key] = pdf_object(pdf, value)
            elif key in target:
                del target[key]
    spaces = {"/DeviceRGB": pikepdf.Name.DeviceRGB,
              "lab": pikepdf.Array([pikepdf.Name.Lab, pikepdf.Dictionary(WhitePoint=[1, 1, 1])]),
              "icc": pikepdf.Array([pikepdf.Name.ICCBased, pdf.make_stream(b"", N=3)]),
              "icc-no-n": pikepdf.Array([pikepdf.Name.ICCBased, pdf.make_stream(b"")]),
              "indexed": pikepdf.Array([pikepdf.Name.Indexed, pikepdf.Name.DeviceRGB, 1, b"\x00" * 6])}
    color_space = pdf.make_indirect(pikepdf.Array([pikepdf.Name.Indexed]))
    color_space.append(spaces.get(space, color_space))  # "self": an Indexed space based on itself
    resources = pikepdf.Dictionary(
        XObject=pikepdf.Dictionary(X=form, F=form, I=image), ColorSpace=pikepdf.Dictionary(CS0=color_space),
        ExtGState=pikepdf.Dictionary(GS0=pikepdf.Dictionary({k: pdf_object(pdf, v) for k, v in state.items()
                                                             if v is not None})),
        Shading=pikepdf.Dictionary(Sh0=pikepdf.Dictionary(ShadingType=2, ColorSpace=spaces.get(space, color_space))))
    if "/Resources" not in form_keys:
        form.Resources = resources  # the form can place itself
    first = pdf.pages[0].obj
    first.Resources, first.Contents = resources, pdf.make_stream(content(page))
    for key, value in boxes.items():
        if value is not None:
            first[key] = pdf_object(pdf, value)
    out = io.BytesIO()
    pdf.save(out)
    examined = examine(out.getvalue())
    assert examined.unreadable or len(examined.points) == 18

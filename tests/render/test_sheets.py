"""Print-ready card sheets, measured from the PDFs: each card's bleed, the crop marks, each back
behind its own face after the mode's flip or fold, the ruler, page boxes, fonts and viewer
preferences. The page contents are walked with pypdf (placements, clips, lines), the pixels
read with pypdfium2: both are fast enough to read a sheet of every size, paper and bleed."""
from __future__ import annotations

import functools
import io
import itertools
import math
from dataclasses import dataclass

import pypdf
import pypdfium2
import pytest
from conftest import TEST_DATA, TINY_GAME, loaded
from pypdf.generic import ContentStream

from cardgen import load
from cardgen.layout import sheet as layout
from cardgen.layout import textfit
from cardgen.layout.sheet import Rect
from cardgen.model import sizes
from cardgen.model.sizes import MM
from cardgen.render import cards

TWO_BACKS = TEST_DATA / "two_backs"  # the tiny game whose shields have a back of their own

EXACT = 0.001 * MM  # what is drawn is where the layout says, to a thousandth of a millimetre
ALIGN = 0.1 * MM  # the tolerance for a back over its face
SIZES, PAPERS, BLEEDS = ("poker", "bridge", "tarot", "mini"), ("a4", "letter"), (0, 3, 5)
# every size, paper and bleed; the print modes and --offset take turns across them
COMBOS = [(size, paper, bleed, sizes.PRINT_MODES[n % 3], (0.6, -0.4) if n % 2 and n % 3 != 2 else (0, 0))
          for n, (size, paper, bleed) in enumerate(itertools.product(SIZES, PAPERS, BLEEDS))]


@functools.cache
def two_backs_game():
    return loaded(TWO_BACKS).game


@dataclass
class Placed:
    form: str
    clip: Rect  # the clip it is drawn through: the cell
    box: Rect  # the form's bounding box on the page: the card with its full bleed
    turn: int  # degrees it is drawn turned, anticlockwise


@dataclass
class Page:
    placed: list[Placed]
    lines: list[tuple[tuple[float, float], tuple[float, float]]]  # stroked in ink (not white)
    halos: list[tuple[tuple[float, float], tuple[float, float]]]  # stroked white, under marks over the bleed
    trim: Rect | None
    bleed: Rect | None

    def cards(self, kind: str) -> list[Placed]:
        return [p for p in self.placed if p.form.startswith(f"FormXob.{kind}")]


def _multiply(a, b):
    """The matrix a then b (PDF order: row vector times a, then b)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _apply(m, x, y):
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _bounds(m, x0, y0, x1, y1) -> Rect:
    points = [_apply(m, x, y) for x in (x0, x1) for y in (y0, y1)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _box(array) -> Rect | None:
    if array is None:
        return None
    x0, y0, x1, y1 = (float(v) for v in array)
    return Rect(x0, y0, x1 - x0, y1 - y0)


def walk(reader: pypdf.PdfReader, number: int) -> Page:
    """The page's own content: forms placed (through which clip, where, how turned) and the
    straight lines it strokes (crop marks, ruler, fold line; white ones apart), in page coordinates."""
    page = reader.pages[number]
    xobjects = page["/Resources"].get("/XObject", {})
    ctm, clip, path, start = (1, 0, 0, 1, 0, 0), None, None, None
    stack, placed, lines, halos, white = [], [], [], [], False
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        values = [float(v) for v in operands] if op in (b"cm", b"re", b"m", b"l", b"RG") else []
        if op == b"q":
            stack.append((ctm, clip, white))
        elif op == b"Q":
            ctm, clip, white = stack.pop()
        elif op == b"RG":
            white = values == [1, 1, 1]
        elif op == b"cm":
            ctm = _multiply(tuple(values), ctm)
        elif op == b"re":
            x, y, w, h = values
            path = _bounds(ctm, x, y, x + w, y + h)
        elif op in (b"W", b"W*"):
            clip = path
        elif op == b"m":
            start = _apply(ctm, *values)
        elif op == b"l":
            (halos if white else lines).append((start, _apply(ctm, *values)))
        elif op == b"Do":
            form = xobjects[operands[0]].get_object()
            placed.append(Placed(str(operands[0])[1:], clip, _bounds(ctm, *(float(v) for v in form["/BBox"])),
                                 round(math.degrees(math.atan2(ctm[1], ctm[0]))) % 360))
    return Page(placed, lines, halos, _box(page.get("/TrimBox")), _box(page.get("/BleedBox")))


def painted(p: Placed) -> Rect:
    """What a placed card paints: its full-bleed box, clipped to its cell."""
    box, clip = p.box, p.clip
    x, y = max(box.x, clip.x), max(box.y, clip.y)
    return Rect(x, y, min(box.right, clip.right) - x, min(box.top, clip.top) - y)


def trim_of(p: Placed, bleed: float) -> Rect:
    return p.box.inset(bleed)


def bleed_sides(p: Placed, bleed: float) -> tuple[float, float, float, float]:
    trim, paint = trim_of(p, bleed), painted(p)
    return trim.x - paint.x, trim.y - paint.y, paint.right - trim.right, paint.top - trim.top


def through_the_sheet(sheet, rect: Rect) -> Rect:
    """Where a rectangle of the back side is seen from the front after the flip or fold."""
    if sheet.mode == "short-edge":
        return Rect(rect.x, sheet.page_h - rect.top, rect.w, rect.h)
    return Rect(sheet.page_w - rect.right, rect.y, rect.w, rect.h)


def close(a: Rect, b: Rect, tolerance: float) -> bool:
    return all(abs(u - v) <= tolerance for u, v in zip((a.x, a.y, a.w, a.h), (b.x, b.y, b.w, b.h)))


@functools.cache
def built(size, paper, bleed, mode, offset, spacing="dense", count=None):
    """One sheet (faces and backs) of the tiny game's cards, and its pages walked; the deck in
    the order its cards fill the slots."""
    game = two_backs_game()
    sheet = layout.make_sheet(paper, size, bleed, offset, mode, spacing)
    deck = [game.cards[i % len(game.cards)] for i in range(count or sheet.per_page)]
    pdf = cards.render_sheets(game, deck, sheet)
    deck = cards.placing_order(game, deck, sheet)
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return sheet, deck, pdf, reader, [walk(reader, n) for n in range(len(reader.pages))]


def face_and_back_pages(sheet, pages):
    return (pages[0], pages[0]) if sheet.backs_beside_faces else (pages[0], pages[1])


def combo_id(combo):
    size, paper, bleed, mode, offset = combo
    return f"{size}-{paper}-{bleed}mm-{mode}" + ("-offset" if any(offset) else "")


# --------------------------------------------------------------------------- every size, paper and bleed


@pytest.mark.parametrize("combo", COMBOS, ids=combo_id)
def test_every_card_paints_its_full_bleed_on_every_outer_edge_and_towards_a_gutter(combo):
    sheet, deck, _, _, pages = built(*combo)
    bleed = combo[2] * MM
    front, back_page = face_and_back_pages(sheet, pages)
    faces, backs = front.cards("face"), back_page.cards("back")
    assert len(faces) == len(backs) == len(deck) == sheet.per_page
    for p, i in zip(faces, range(sheet.per_page)):
        assert close(trim_of(p, bleed), sheet.slot(i), EXACT)
        assert close(painted(p), sheet.cell(i), EXACT), (p.form, bleed_sides(p, bleed))
        row, col = divmod(i, sheet.cols)
        outer = (col == 0, row == sheet.rows - 1, col == sheet.cols - 1, row == 0)
        halves = (sheet.gutter_x / 2, sheet.gutter_y / 2) * 2
        for side, out, half in zip(bleed_sides(p, bleed), outer, halves):
            assert side == pytest.approx(bleed if out else min(bleed, half), abs=EXACT)
    back_cells = [sheet.back_cell(i) for i in range(sheet.per_page)]
    for p in backs:
        assert any(close(painted(p), cell, EXACT) for cell in back_cells)
    for page in pages:  # no card paints over another
        for a, b in itertools.combinations([painted(p) for p in page.placed], 2):
            assert min(a.right, b.right) - max(a.x, b.x) <= EXACT or min(a.top, b.top) - max(a.y, b.y) <= EXACT


@pytest.mark.parametrize("combo", [c for c in COMBOS if c[3] == "gutterfold"], ids=combo_id)
def test_the_fold_line_is_drawn_where_the_layout_puts_it(combo):
    sheet, _, _, _, pages = built(*combo)
    front, _ = face_and_back_pages(sheet, pages)
    (x, y1), (_, y2) = sheet.fold_line
    drawn = [line for line in front.lines if all(abs(px - x) < 0.1 for px, _ in line)]
    assert len(drawn) == 1
    (_, a), (_, b) = drawn[0]
    assert sorted((a, b)) == pytest.approx((y1, y2), abs=0.1)

@pytest.mark.parametrize("combo", COMBOS, ids=combo_id)
def test_crop_marks_are_inside_the_printable_area_and_never_on_a_card(combo):
    """Outside every bleed where there is room, else over the outer bleed on a white line."""
    sheet, _, _, _, pages = built(*combo)
    front, back_page = face_and_back_pages(sheet, pages)
    ruler, edge = sheet.info_box(), layout.PRINT_EDGE_MM * MM
    fold = sheet.page_w / 2
    marks = [line for line in front.lines
             if not all(ruler.x - EXACT <= x <= ruler.right + EXACT and ruler.y - EXACT <= y <= ruler.top + EXACT
                        for x, y in line)
             and not (sheet.backs_beside_faces and all(abs(x - fold) < EXACT for x, _ in line))]
    want = sheet.crop_marks()
    assert len(marks) == len(want)
    key = lambda line: tuple(round(v, 2) for v in sorted(line)[0] + sorted(line)[1])  # noqa: E731
    assert sorted(map(key, marks)) == sorted(map(key, want))
    over_bleed = sheet.marks_over_bleed()
    assert sorted(map(key, front.halos)) == (sorted(map(key, want)) if over_bleed else [])
    bleed = combo[2] * MM
    keep_off = [painted(p) for p in front.placed] if not over_bleed else [trim_of(p, bleed) for p in front.placed]
    for (x1, y1), (x2, y2) in marks:
        assert min(x1, x2, sheet.page_w - x1, sheet.page_w - x2) >= edge - EXACT
        assert min(y1, y2, sheet.page_h - y1, sheet.page_h - y2) >= edge - EXACT
        for rect in keep_off:
            assert max(x1, x2) < rect.x or min(x1, x2) > rect.right or max(y1, y2) < rect.y or min(y1, y2) > rect.top
    if not sheet.backs_beside_faces:
        assert back_page.lines == []  # cuts are made from the front


@pytest.mark.parametrize("combo", COMBOS, ids=combo_id)
def test_each_back_lands_on_its_own_face_after_the_flip_or_fold(combo):
    sheet, deck, _, _, pages = built(*combo)
    bleed, offset = combo[2] * MM, combo[4]
    front, back_page = face_and_back_pages(sheet, pages)
    backs = back_page.cards("back")
    for face, card in zip(front.cards("face"), deck):
        assert face.form == "FormXob." + cards.form_name("face", card.id)
        own_back = "FormXob." + cards.form_name("back", "shields" if card.name == "Shield" else "")
        wanted = trim_of(face, bleed).moved(offset[0] * MM, offset[1] * MM)
        seen = [b for b in backs if close(through_the_sheet(sheet, trim_of(b, bleed)), wanted, ALIGN)]
        assert len(seen) == 1, (card.name, wanted)
        assert seen[0].form == own_back
        assert face.turn == sheet.face_turn
        assert seen[0].turn == sheet.back_turn  # standing as its face after the card is turned over
        assert close(through_the_sheet(sheet, trim_of(seen[0], bleed)), wanted, EXACT)


@pytest.mark.parametrize("combo", COMBOS, ids=combo_id)
def test_pages_carry_trim_and_bleed_boxes(combo):
    sheet, _, _, _, pages = built(*combo)
    bleed = combo[2] * MM
    for page in pages:
        trims = [trim_of(p, bleed) for p in page.placed]
        cells = [painted(p) for p in page.placed]
        union = lambda rects: Rect(min(r.x for r in rects), min(r.y for r in rects),  # noqa: E731
                                   max(r.right for r in rects) - min(r.x for r in rects),
                                   max(r.top for r in rects) - min(r.y for r in rects))
        assert close(page.trim, union(trims), EXACT) and close(page.bleed, union(cells), EXACT)


# --------------------------------------------------------------------------- the document


def fonts_of(reader: pypdf.PdfReader) -> set[tuple[str, bool]]:
    """Every font the document names (in pages and the forms they place), and whether its
    program is embedded."""
    found, seen = set(), set()

    def visit(resources):
        if resources is None or id(resources) in seen:
            return
        seen.add(id(resources))
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descendant = font.get("/DescendantFonts")
            descriptor = (descendant[0].get_object() if descendant else font).get("/FontDescriptor")
            embedded = descriptor is not None and any(k in descriptor.get_object()
                                                      for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            found.add((str(font["/BaseFont"]), embedded))
        for xobject in (resources.get("/XObject") or {}).values():
            visit(xobject.get_object().get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return found


@pytest.mark.parametrize("mode, duplex", [("long-edge", "/DuplexFlipLongEdge"),
                                          ("short-edge", "/DuplexFlipShortEdge"), ("gutterfold", "/Simplex")])
def test_the_document_embeds_every_font_and_asks_for_actual_size(mode, duplex):
    sheet, _, _, reader, _ = built("mini", "a4", 3, mode, (0, 0))
    fonts = fonts_of(reader)
    assert fonts and all(embedded for _, embedded in fonts), fonts
    assert not any("Helvetica" in name for name, _ in fonts)
    preferences = reader.trailer["/Root"]["/ViewerPreferences"]
    assert (preferences["/PrintScaling"], preferences["/Duplex"]) == ("/None", duplex)
    info = reader.metadata
    assert (info.title, info.author) == ("Two Backs: cards", "cardgen tests")
    assert info.subject.startswith("Two Backs 0.1: print-and-play cards, 44x63 mm") and mode in info.subject


def page_text(pdf: bytes, number: int, box: Rect) -> str:
    document = pypdfium2.PdfDocument(pdf)
    try:
        return document[number].get_textpage().get_text_bounded(box.x, box.y, box.right, box.top)
    finally:
        document.close()


@pytest.mark.parametrize("combo", [COMBOS[0], COMBOS[7], COMBOS[11]], ids=combo_id)
def test_the_ruler_measures_50_mm_and_2_in_and_says_print_at_100_percent(combo):
    sheet, _, pdf, _, pages = built(*combo)
    ruler = sheet.info_box()
    along = 0 if ruler.w > ruler.h else 1  # the ruler runs along the strip
    ticks = [line for line in pages[0].lines if all(ruler.x <= x <= ruler.right and ruler.y <= y <= ruler.top
                                                     for x, y in line)]
    baseline = max(ticks, key=lambda line: abs(line[1][along] - line[0][along]))
    assert abs(baseline[1][along] - baseline[0][along]) == pytest.approx(2 * 72, abs=EXACT)  # 2 in
    zero = baseline[0][along]
    mm_ticks = sorted(line[0][along] - zero for line in ticks if line is not baseline
                      and (line[1][1 - along] - line[0][1 - along]) * (1 if along == 0 else -1) > 0)
    assert len(mm_ticks) == 51 and mm_ticks[-1] - mm_ticks[0] == pytest.approx(50 * MM, abs=EXACT)
    text = " ".join(page_text(pdf, 0, ruler).split())
    assert "Print at 100 % / actual size" in text and "50 mm" in text and "2 in" in text
    assert {"long-edge": "flipping on the long edge", "short-edge": "flipping on the short edge",
            "gutterfold": "fold on the dashed line"}[sheet.mode] in text


# --------------------------------------------------------------------------- what is painted


def pixels(pdf: bytes, number: int, dpi: int = 150):
    document = pypdfium2.PdfDocument(pdf)
    try:
        return document[number].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        document.close()


def color_at(image, sheet, x: float, y: float, dpi: int = 150) -> tuple[int, int, int]:
    return image.getpixel((round(x * dpi / 72), round((sheet.page_h - y) * dpi / 72)))


def rgb(hex_color: str) -> tuple[int, int, int]:
    return tuple(int(hex_color[i:i + 2], 16) for i in (1, 3, 5))


def bleed_probes(slot: Rect, cell: Rect, margin: float) -> list[tuple[float, float]]:
    """Points `margin` inside the outer edge of a card's bleed, mid-side, where it has bleed."""
    sides = [(slot.x - cell.x, -1, 0), (cell.right - slot.right, 1, 0), (slot.y - cell.y, 0, -1),
             (cell.top - slot.top, 0, 1)]
    middle = (slot.x + slot.w / 2, slot.y + slot.h / 2)
    return [(middle[0] + dx * (slot.w / 2 + bleed - margin), middle[1] + dy * (slot.h / 2 + bleed - margin))
            for bleed, dx, dy in sides if bleed > margin]


def same_color(got, want) -> bool:
    return max(abs(a - b) for a, b in zip(got, want)) <= 3


@pytest.mark.parametrize("mode", sizes.PRINT_MODES)
@pytest.mark.parametrize("spacing", sizes.SPACINGS)
def test_each_card_and_its_own_back_paint_their_bleed(mode, spacing):
    """Just inside the bleed's outer edge, mid-side, each face shows its own color and each back
    its own background (the shields' back is green, the game's dark): no neighbour painted over
    them. With shared cuts only the sheet's outer edges have bleed."""
    sheet, deck, pdf, _, _ = built("poker", "a4", 3, mode, (0, 0), spacing)
    game, inside = two_backs_game(), 0.4 * MM
    faces = pixels(pdf, 0)
    backs = faces if sheet.backs_beside_faces else pixels(pdf, 1)
    for i, card in enumerate(deck):
        for x, y in bleed_probes(sheet.slot(i), sheet.cell(i), inside):
            assert same_color(color_at(faces, sheet, x, y), rgb(game.color(card.color).hex)), (card.name, x, y)
        design = cards.back_design(game, game.back_of(card))
        want = [rgb(getattr(design, key)) for key in ("background", "pattern")]
        for x, y in bleed_probes(sheet.back_slot(i), sheet.back_cell(i), inside):
            assert any(same_color(color_at(backs, sheet, x, y), w) for w in want), (card.name, "back", x, y)


def test_a_half_full_page_has_backs_only_behind_its_cards():
    sheet, deck, _, _, pages = built("poker", "a4", 3, "long-edge", (0, 0), count=4)
    assert len(pages) == 2 and len(pages[0].cards("face")) == len(pages[1].cards("back")) == 4
    for face, back in zip(pages[0].cards("face"), pages[1].cards("back")):
        assert close(through_the_sheet(sheet, back.box), face.box, EXACT)


# --------------------------------------------------------------------------- backs per card type


def test_a_card_takes_its_own_back_then_its_kinds_then_its_colors(game_copy):
    folder = game_copy(TWO_BACKS)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text().replace(
        '{id: blue, name: Blue, meaning: Tools, hex: "#2e86c1", symbol: gear}',
        '{id: blue, name: Blue, meaning: Tools, hex: "#2e86c1", symbol: gear, back: tools}')
    text = text.replace("\nbacks:", "\nbacks:\n  - {id: tools, title: Tools}\n  - {id: peek}")
    game_yaml.write_text(text)
    cards_yaml = folder / "cards.yaml"
    cards_yaml.write_text(cards_yaml.read_text().replace("{name: Peek, color: blue,", "{name: Peek, color: blue, back: peek,"))
    result = load.load_game(str(folder))
    assert result.ok, [str(f) for f in result.findings]
    game = result.game
    owns = {card.name: (game.back_of(card).id if game.back_of(card) else None) for card in game.cards}
    assert owns == {"Boom": None, "Shield": "shields", "Peek": "peek", "No": "tools"}


def test_an_unknown_back_is_a_check_error_with_its_place(game_copy, capsys):
    from cardgen.cli import main

    folder = game_copy(TWO_BACKS)
    cards_yaml = folder / "cards.yaml"
    cards_yaml.write_text(cards_yaml.read_text().replace("{name: Peek, color: blue,", "{name: Peek, color: blue, back: shield,"))
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "two_backs/cards.yaml:4:" in out and "unknown back 'shield'" in out and "[unknown-back]" in out
    assert "shields" in out  # did you mean


@pytest.mark.parametrize("name", ["exploding_cards", "good_puppies", "starter", "zombie_kittens", str(TWO_BACKS)])
def test_a_game_that_gives_no_back_colors_gets_a_neutral_back_from_its_palette(name):
    """A deep shade of the game's first color, its border and emblems that color made light
    enough to read, a title that reads on its medallion: not Exploding Puppy's orange."""
    game = load.load_game(name).game
    design = cards.back_design(game, None)
    first, background = rgb(game.colors[0].hex), rgb(design.background)
    assert contrast(background, (0, 0, 0)) < 2  # deep
    chroma = lambda color: max(color) - min(color)  # noqa: E731
    assert chroma(background) <= max(chroma(first), 12)  # neutral: no more colorful than the palette
    assert contrast(rgb(design.border), background) >= 4.5
    assert contrast(rgb(design.title_color), rgb(design.medallion)) >= 4.5
    assert design.border != "#f28c28" and design.background != "#262a33"


def test_exploding_puppy_keeps_its_back_and_a_game_sets_any_back_color(game_copy):
    puppy = cards.back_design(load.load_game("exploding_puppy").game, None)
    assert (puppy.background, puppy.border) == ("#262a33", "#f28c28")
    folder = game_copy(TWO_BACKS)
    (folder / "layout.yaml").write_text('back: {border: "#00aa55"}\n', encoding="utf-8")
    game = load.load_game(str(folder)).game
    assert cards.back_design(game, None).border == "#00aa55"
    assert cards.back_design(game, None).background == cards.back_design(two_backs_game(), None).background


# --------------------------------------------------------------------------- card faces


SHIPPED = ("exploding_puppy", "good_puppies", "zombie_kittens", "exploding_kittens", "exploding_cards", "starter")


def contrast(a, b) -> float:
    def luminance(rgb_value):
        channels = [c / 255 for c in rgb_value]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("name", SHIPPED)
def test_every_card_name_has_wcag_contrast_against_its_band(name):
    game = load.load_game(name).game
    for card in game.cards:
        band = game.color(card.color).hex
        assert contrast(rgb(cards.name_color(game, card)), rgb(band)) >= 4.5, card.name


@dataclass
class Glyph:
    text: str
    size: float
    fill: tuple[int, int, int]
    box: Rect


def glyphs(pdf: bytes, number: int) -> list[Glyph]:
    """Every character of a page with its size, fill color and box (pypdfium2)."""
    import ctypes

    raw = pypdfium2.raw
    document = pypdfium2.PdfDocument(pdf)
    try:
        textpage = document[number].get_textpage()
        out = []
        for i in range(textpage.count_chars()):
            text = textpage.get_text_range(i, 1)
            if not text.strip():
                continue
            r, g, b, a = (ctypes.c_uint() for _ in range(4))
            raw.FPDFText_GetFillColor(textpage.raw, i, *(ctypes.byref(v) for v in (r, g, b, a)))
            left, bottom, right, top = textpage.get_charbox(i)
            out.append(Glyph(text, round(raw.FPDFText_GetFontSize(textpage.raw, i), 2), (r.value, g.value, b.value),
                             Rect(left, bottom, right - left, top - bottom)))
        return out
    finally:
        document.close()


@functools.cache
def one_card_per_color():
    """Exploding Puppy's first card of each color (gray, green and blue once had white names
    at 3.1 to 4.0:1), faces only, and where each card's name and effect text go."""
    game = load.load_game("exploding_puppy").game
    deck = list({card.color: card for card in reversed(game.cards)}.values())[::-1]
    sheet = layout.make_sheet("a4", "poker", 0)
    deck = deck[:sheet.per_page]
    pdf = cards.render_sheets(game, deck, sheet, backs=False)
    texts = textfit.CardText(game, sheet.card_w, sheet.card_h)
    return game, deck, sheet, glyphs(pdf, 0), _room(texts, shipped(game, "name")), _room(texts, shipped(game, "text"))


def shipped(game, element_id: str):
    """An element of the shipped face (art/faces/default.yaml)."""
    return next(e for e in game.design.faces.by_id["default"].elements if e.id == element_id)


def _room(texts, element):
    """Where an element's text is set on the card."""
    box = texts.scale.box(element)
    return texts.room(element).moved(box.x, box.y)


def inside_box(glyph: Glyph, box: Rect) -> bool:
    centre_x, centre_y = glyph.box.x + glyph.box.w / 2, glyph.box.y + glyph.box.h / 2
    return box.x <= centre_x <= box.right and box.y <= centre_y <= box.top


def test_names_are_drawn_once_in_one_size_at_wcag_contrast():
    game, deck, sheet, page, name_box, _ = one_card_per_color()
    sizes = set()
    for i, card in enumerate(deck):
        name = [g for g in page if inside_box(g, name_box.moved(sheet.slot(i).x, sheet.slot(i).y))]
        assert "".join(g.text for g in name) == card.name.replace(" ", "")  # once: no shadow copy
        band = rgb(game.color(card.color).hex)
        assert all(contrast(g.fill, band) >= 4.5 for g in name), (card.name, name[0].fill)
        sizes |= {g.size for g in name}
    assert sizes == {textfit.CardText(game, sheet.card_w, sheet.card_h).deck_size(shipped(game, "name"))}  # one for the deck


def test_effect_text_starts_at_the_top_of_its_box():
    _, deck, sheet, page, _, text_box = one_card_per_color()
    for i, card in enumerate(deck):
        box = text_box.moved(sheet.slot(i).x, sheet.slot(i).y)
        text = [g for g in page if inside_box(g, box)]
        assert text, card.name
        assert box.top - max(g.box.top for g in text) <= 2.5, card.name  # the first line's caps, not centred


# --------------------------------------------------------------------------- the command


def test_cards_says_what_gutters_cost_and_what_shared_cuts_mean(tmp_path, capsys):
    from cardgen.cli import main

    assert main(["cards", str(TINY_GAME), "--all-types", "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert ("note: 18 44x63 mm cards a sheet on a4 with 1 mm of bleed towards their neighbours (a cut 0.5 mm off "
            "the line shows no neighbour); --layout gutter: 16 a sheet, with 3 mm everywhere") in err
    assert main(["cards", str(TINY_GAME), "--all-types", "--layout", "gutter", "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert ("note: --layout gutter: 16 44x63 mm cards a sheet on a4, each with its bleed on every side "
            "(18 a sheet without --layout gutter)") in err
    assert main(["cards", str(TINY_GAME), "--all-types", "--layout", "shared-cuts", "--mode", "gutterfold",
                 "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "share one cut line, with no bleed towards each other" in err
    reader = pypdf.PdfReader(tmp_path / "cards-all-types.pdf")
    assert len(reader.pages) == 1 and reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/Simplex"


@pytest.mark.parametrize("args, message", [
    (["--mode", "gutterfold", "--offset", "1,0"], "folded, not flipped"),
    (["--mode", "gutterfold", "--calibration"], "needs no calibration"),
])
def test_gutterfold_refuses_duplex_options(tmp_path, capsys, args, message):
    from cardgen.cli import main

    assert main(["cards", str(TINY_GAME), *args, "--out", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("mode, edge", [("long-edge", "long"), ("short-edge", "short")])
def test_the_calibration_sheet_says_its_mode_and_puts_the_cross_through_the_sheet(tmp_path, mode, edge):
    game = two_backs_game()
    path = cards.write_calibration(game, tmp_path, mode=mode, offset=(2.0, 1.0))
    pdf = path.read_bytes()
    sheet = layout.make_sheet("a4", "poker", 0, (2.0, 1.0), mode)
    text = " ".join(page_text(pdf, 0, Rect(0, 0, sheet.page_w, sheet.page_h)).split())
    assert f"Duplex calibration ({mode}): print this sheet double-sided, flipping on the {edge} edge." in text
    assert f"--mode {mode} --offset X,Y" in text
    assert "Each reading is the correction itself" in text and "print this sheet three times" in text  # the drift
    back = walk(pypdf.PdfReader(io.BytesIO(pdf)), 1)
    vertical = next(line for line in back.lines if abs(line[0][0] - line[1][0]) < EXACT)
    horizontal = next(line for line in back.lines if abs(line[0][1] - line[1][1]) < EXACT)
    seen = through_the_sheet(sheet, Rect(vertical[0][0], horizontal[0][1], 0, 0))
    assert (seen.x, seen.y) == (pytest.approx(sheet.page_w / 2 + 2 * MM), pytest.approx(sheet.page_h / 2 + 1 * MM))

"""Card art at the size it prints: below 300 ppi a warning naming the card and its effective ppi,
below 150 ppi an error unless the card says `low_res: ok`; every pixel mode a PNG or JPEG can
hold prints in its own colors (16-bit gray, gray and palette with transparency, CMYK), read back
from the card sheet."""
from __future__ import annotations

import io
import re

import pypdf
import pypdfium2
import pypdfium2.raw
import pytest
from conftest import TINY_GAME, cardgen, check, edit
from PIL import Image

from cardgen import load
from cardgen.check import artfit
from cardgen.layout import sheet as layout
from cardgen.render import cards

# the tiny game's cards are mini (44x63 mm): the design's 34.5 mm high art box prints this high
ART_HEIGHT_IN = 34.5 * 63 / 88 / 25.4


def with_art(folder, images: dict[str, Image.Image], extra: str = "") -> None:
    """Each named card of the tiny game gets its image as art (PNG, or JPEG for CMYK)."""
    (folder / "art").mkdir(exist_ok=True)
    for name, image in images.items():
        file = f"art/{name.lower()}.{'jpg' if image.mode == 'CMYK' else 'png'}"
        image.save(folder / file, quality=95) if image.mode == "CMYK" else image.save(folder / file)
        edit(folder / "cards.yaml", f"{{name: {name}, " if name != "No" else '{name: "No", ',
             f"{{name: {name}, art: {file},{extra} " if name != "No" else f'{{name: "No", art: {file},{extra} ')


def finding(out: str, level: str, line: int) -> str:
    match = re.search(rf"^ *tiny_game/cards.yaml:{line}:\d+: {level}: (.*)\[art-low-resolution\]\n +hint: (.*)$",
                      out, re.M)
    assert match, f"no art-low-resolution {level} at line {line} in:\n{out}"
    return match.group(0)


def test_art_below_300_ppi_is_a_warning_naming_the_card_and_its_ppi(game_copy, capsys):
    folder = game_copy(TINY_GAME)
    with_art(folder, {"Boom": Image.new("RGB", (300, 200), "#884422"),  # height-bound: 200 px over the box
                      "Shield": Image.new("RGB", (600, 420), "#224488")})
    code, out = check(folder, capsys)
    assert code == 0
    ppi = int(200 / ART_HEIGHT_IN)
    assert 150 < ppi < 300
    assert f"card 'Boom': its art prints at {ppi} ppi" in finding(out, "warning", 2)
    assert "card 'Shield'" not in out  # 420 px: above 300 ppi


def test_art_below_150_ppi_is_an_error_unless_the_card_says_low_res_ok(game_copy, capsys):
    folder = game_copy(TINY_GAME)
    with_art(folder, {"Boom": Image.new("RGB", (120, 80), "#884422")})
    code, out = check(folder, capsys)
    assert code == 1
    found = finding(out, "error", 2)
    assert f"card 'Boom': its art prints at {int(80 / ART_HEIGHT_IN)} ppi" in found and "low_res: ok" in found
    edit(folder / "cards.yaml", "art: art/boom.png,", "art: art/boom.png, low_res: ok,")
    code, out = check(folder, capsys)
    assert code == 0
    assert f"{int(80 / ART_HEIGHT_IN)} ppi" in finding(out, "warning", 2)  # still said, no longer refused
    edit(folder / "cards.yaml", "low_res: ok,", "low_res: yes,")
    code, out = check(folder, capsys)
    assert code == 1 and "low_res 'yes' is not 'ok'" in out and "[bad-low-res]" in out


def opaque_and_clear(mode: str) -> Image.Image:
    """An image of the mode whose left half is opaque and whose right half is transparent where
    the mode can say so (else the same color)."""
    size = (600, 420)
    if mode == "P":
        image = Image.new("P", size, 0)
        image.putpalette([200, 60, 20, 0, 0, 255] + [0] * 762)
        image.paste(1, (300, 0, 600, 420))
        image.info["transparency"] = 1  # the right half's blue is see-through
        return image
    if mode == "LA":
        image = Image.new("LA", size, (90, 255))
        image.paste((90, 0), (300, 0, 600, 420))
        return image
    color = {"I;16": 40000, "CMYK": (0, 180, 220, 55)}[mode]
    return Image.new(mode, size, color)


MODES = ["I;16", "LA", "P", "CMYK"]


@pytest.fixture(scope="module")
def modes_sheet(tmp_path_factory):
    """The tiny game's four cards, each with art of one mode, on one sheet at 72 dpi."""
    import shutil

    folder = tmp_path_factory.mktemp("modes") / "tiny_game"
    shutil.copytree(TINY_GAME, folder)
    art = {name: opaque_and_clear(mode) for name, mode in zip(("Boom", "Shield", "Peek", "No"), MODES)}
    with_art(folder, art)
    result = load.load_game(str(folder))
    assert result.ok, [str(f) for f in result.findings]
    game = result.game
    sheet = layout.make_sheet("a4", game.card_size, 0, spacing="gutter")  # upright
    pdf = cards.render_sheets(game, list(game.cards), sheet, backs=False)
    document = pypdfium2.PdfDocument(pdf)
    image = document[0].render(scale=1).to_pil().convert("RGB")
    document.close()
    return game, sheet, pdf, image


def art_pixel(modes_sheet, index: int, across: float) -> tuple[int, int, int]:
    """The sheet's pixel on card `index`'s art, `across` of the way along its middle line."""
    game, sheet, _, image = modes_sheet
    box = artfit.art_box(game, sheet.card_w, sheet.card_h).moved(sheet.slot(index).x, sheet.slot(index).y)
    x, y = box.x + across * box.w, box.y + box.h / 2
    return image.getpixel((int(x), int(sheet.page_h - y)))


def near(got, want, tolerance=3) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(got, want))


def test_16_bit_gray_prints_its_gray_not_white(modes_sheet):
    gray = round(40000 / 65535 * 255)
    assert near(art_pixel(modes_sheet, 0, 0.5), (gray, gray, gray))


def test_16_bit_gray_in_the_rulebook_shows_its_gray_too(game_copy, tmp_path):
    """An image rules.md shows passed check and failed the rulebook ("Unknown image mode: I;16",
    named as a template's fault): the documents are given it in 8 bits, as the cards draw it."""
    folder = game_copy(TINY_GAME)
    (folder / "art").mkdir()
    Image.new("I;16", (60, 80), 40000).save(folder / "art" / "gray16.png")
    (folder / "rules.md").write_text("# Rules\n\n![A gray card](art/gray16.png)\n", encoding="utf-8")
    code, _, err = cardgen("rulebook", folder, "--out", tmp_path / "out")
    assert code == 0, err
    document = pypdfium2.PdfDocument(tmp_path / "out" / "rulebook.pdf")
    try:
        shown = [picture for page in document for obj in page.get_objects(filter=(pypdfium2.raw.FPDF_PAGEOBJ_IMAGE,))
                 if (picture := obj.get_bitmap().to_pil()).size == (60, 80)]
    finally:
        document.close()
    gray = round(40000 / 65535 * 255)
    assert shown and near(shown[0].convert("RGB").getpixel((30, 40)), (gray, gray, gray))


@pytest.mark.parametrize("index", [1, 2], ids=["LA", "P with transparency"])
def test_transparent_pixels_show_the_panel_and_opaque_ones_their_color(modes_sheet, index):
    game = modes_sheet[0]
    opaque = {1: (90, 90, 90), 2: (200, 60, 20)}[index]
    panel = tuple(int(game.design.frame.panel[i:i + 2], 16) for i in (1, 3, 5))
    assert near(art_pixel(modes_sheet, index, 0.25), opaque)
    assert near(art_pixel(modes_sheet, index, 0.75), panel)


def test_cmyk_art_is_embedded_as_its_own_cmyk_values(modes_sheet):
    pdf = modes_sheet[2]
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    cmyk = [image for image in _images(reader) if image.get("/ColorSpace") == "/DeviceCMYK"]
    assert len(cmyk) == 1
    decoded = Image.open(io.BytesIO(cmyk[0].get_data()))
    assert decoded.mode == "CMYK" and near(decoded.getpixel((300, 210)), (0, 180, 220, 55))
    r, g, b = art_pixel(modes_sheet, 3, 0.5)
    assert r > g > b  # an orange red on screen too


def _images(reader: pypdf.PdfReader):
    """Every image XObject of the document's pages and the forms they place."""
    seen, stack = set(), [page.get("/Resources") for page in reader.pages]
    while stack:
        resources = stack.pop()
        resources = resources.get_object() if resources is not None else None
        if not resources or "/XObject" not in resources:
            continue
        for ref in resources["/XObject"].values():
            obj = ref.get_object()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if obj.get("/Subtype") == "/Image":
                yield obj
            elif obj.get("/Subtype") == "/Form":
                stack.append(obj.get("/Resources"))

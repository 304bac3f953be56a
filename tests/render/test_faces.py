"""Card faces drawn from data: a game's own face (texts, rotation, repeats, `when:`) read back from
the sheet's PDF, and the shipped face drawn from art/faces/default.yaml as before."""
from __future__ import annotations

import pdfplumber
import pypdfium2
import pytest
from conftest import CARD_DATA, TINY_GAME, cardgen, edit

from cardgen import load
from cardgen.layout.textfit import Scale
from cardgen.load.faces import back_legacy_params, legacy_params
from cardgen.load.layout import default_settings
from cardgen.model.sizes import MM, card_size_mm

PLAYING_FACE = """\
faces:
  playing:
    elements:
      - {id: ground, shape: rect, x: 0, y: 0, width: 63, height: 88, fill: "#ffffff", bleed: true}
      - {id: rank, text: "{number}", line: true, x: 4, y: 4, width: 9, height: 9, font: bold, size: 14, color: card}
      - {id: suit, symbol: card, x: 5, y: 14, width: 7, height: 7, color: card}
      - {id: rank-turned, text: "{number}", line: true, x: 50, y: 75, width: 9, height: 9, font: bold, size: 14,
         color: card, rotation: 180}
      - {id: pips, repeat: "{number}", columns: 3, gap: 2, when: number >= 2,
         element: {symbol: card, x: 18, y: 30, width: 6, height: 6, color: card}}
      - {id: ace, text: "ACE", when: "number == 1", x: 10, y: 40, width: 43, height: 10, size: 20, min_size: 8}
face: playing
"""


def _sheet(game_copy, tmp_path, layout: str):
    folder = game_copy()
    edit(folder / "game.yaml", "card_size: mini", "card_size: poker")
    (folder / "layout.yaml").write_text(layout, encoding="utf-8")
    edit(folder / "cards.yaml", "{name: Boom, color: red,", "{name: Boom, number: 7, color: red,")
    edit(folder / "cards.yaml", '{name: "No", color: blue,', '{name: "No", number: 1, color: blue,')
    code, out, err = cardgen("cards", folder, "--all-types", "--no-backs", "--out", tmp_path / "out")
    assert code == 0, out + err
    return tmp_path / "out" / "cards-all-types.pdf"


def test_a_rank_top_left_and_turned_bottom_right_with_no_name_band(game_copy, tmp_path):
    pdf = _sheet(game_copy, tmp_path, PLAYING_FACE)
    with pdfplumber.open(pdf) as document:
        chars = document.pages[0].chars
    sevens = [c for c in chars if c["text"] == "7"]
    upright = [c for c in sevens if c["matrix"][0] > 0]
    turned = [c for c in sevens if c["matrix"][0] < 0]
    assert len(upright) == 1 and len(turned) == 1
    (a, b, c, d, _, _), (ta, tb, tc, td, _, _) = upright[0]["matrix"], turned[0]["matrix"]
    assert a > 0 and d > 0 and abs(b) + abs(c) < 1e-6  # upright
    assert ta < 0 and td < 0 and abs(tb) + abs(tc) < 1e-6  # turned 180°
    mm = 72 / 25.4
    # the turned rank sits about 46 mm right of and 71 mm below the upright one (its box's centre)
    assert abs((turned[0]["x0"] + turned[0]["x1"]) / 2 - (upright[0]["x0"] + upright[0]["x1"]) / 2 - 46 * mm) < 3 * mm
    assert abs((turned[0]["top"] + turned[0]["bottom"]) / 2 - (upright[0]["top"] + upright[0]["bottom"]) / 2
               - 71 * mm) < 3 * mm
    text = "".join(c["text"] for c in chars)
    assert "Boom" not in text  # no name band: the face has no name element
    assert "ACE" in text and text.count("ACE") == 1  # only on the card whose number is 1


def test_a_shipped_games_sheet_page_has_the_default_faces_colors(tmp_path):
    code, out, err = cardgen("cards", CARD_DATA / "starter", "--all-types", "--no-backs", "--out", tmp_path)
    assert code == 0, err
    game = load.load_game(CARD_DATA / "starter").game
    first = game.cards[0]
    document = pypdfium2.PdfDocument(tmp_path / "cards-all-types.pdf")
    image = document[0].render(scale=150 / 72).to_pil().convert("RGB")
    document.close()
    dpmm = 150 / 25.4
    # the first card's slot: the sheet's first face is at the top left of the cards' area
    left, top = _first_slot(image)

    def hex_at(x: float, y: float) -> str:
        red, green, blue = image.getpixel((round(left + x * dpmm), round(top + y * dpmm)))
        return f"#{red:02x}{green:02x}{blue:02x}"

    assert hex_at(31.5, 1.5) == game.color(first.color).hex.lower()  # the header band: the card's color
    assert hex_at(31.5, 40) != game.color(first.color).hex.lower()  # the art box (placeholder or art)
    assert hex_at(10, 70) == "#ffffff"  # inside the text box, left of any text


def _first_slot(image) -> tuple[float, float]:
    """The top-left pixel of the first card: the first non-white pixel in the row and column
    through the first card (crop marks are thin; a card is a block)."""
    width, height = image.size
    for y in range(height):
        row = [image.getpixel((x, y)) for x in range(0, width // 2)]
        run = 0
        for x, pixel in enumerate(row):
            run = run + 1 if pixel != (255, 255, 255) else 0
            if run > 60:
                return x - run + 1, y
    raise AssertionError("no card on the page")


@pytest.mark.parametrize("face, mapping", [("default", legacy_params), ("back", back_legacy_params)])
def test_the_shipped_face_file_is_the_old_layout_keys_at_their_defaults(face, mapping):
    """art/faces/default.yaml and back.yaml and the mapping of the old layout sections onto their
    elements agree: a game that sets an old key to its default value draws what the shipped face draws."""
    game = load.load_game(CARD_DATA / "starter").game
    elements = {e.id: e for e in game.design.faces.by_id[face].elements}
    for element_id, params in mapping(default_settings()).items():
        for key, value in params.items():
            shipped = getattr(elements[element_id], key)
            assert shipped == pytest.approx(value) if isinstance(value, float) else shipped == value, \
                (element_id, key, shipped, value)


def test_the_panel_keeps_one_inset_on_every_side_on_a_mini_card():
    """The shipped panel's insets (left, right, bottom) scale by the smaller ratio, as the old frame
    did: on a mini card (narrower in ratio than tall) its bottom inset equals its side insets."""
    game = load.load_game(TINY_GAME).game
    width, height = card_size_mm(game.card_size)
    scale = Scale.of(game.design, width * MM, height * MM)
    assert scale.sx != pytest.approx(scale.sy)
    panel = next(e for e in game.design.faces.by_id["default"].elements if e.id == "panel")
    box = scale.box(panel)
    assert box.x == pytest.approx(scale.card_w - box.right) == pytest.approx(box.y)
    assert box.x == pytest.approx(3.2 * scale.s * MM)
    assert box.top == pytest.approx(scale.y(15.5))  # the header band's bottom: along the height


def test_two_faces_with_art_boxes_of_other_sizes_each_draw_their_own_placeholder(game_copy, tmp_path):
    """Two cards of one color without art, on faces whose art boxes differ: the second card's
    placeholder fills its own narrow box, not the first face's wide one."""
    folder = game_copy()
    edit(folder / "game.yaml", "card_size: mini", "card_size: poker")
    edit(folder / "cards.yaml", "{name: Boom, color: red,", "{name: Boom, color: blue,")
    (folder / "layout.yaml").write_text(
        "faces:\n  narrow:\n    extends: default\n    for: kind == shield\n"
        "    elements:\n      - {id: art, x: 24, width: 15}\n", encoding="utf-8")
    code, out, err = cardgen("cards", folder, "--all-types", "--no-backs", "--out", tmp_path)
    assert code == 0, out + err
    document = pypdfium2.PdfDocument(tmp_path / "cards-all-types.pdf")
    image = document[0].render(scale=150 / 72).to_pil().convert("RGB")
    document.close()
    dpmm = 150 / 25.4
    left, top = _first_slot(image)
    row = round(top + 40 * dpmm)  # through the art boxes of the first row of cards (Boom, then Shield)
    panel = [pixel == (0xFF, 0xF8, 0xEC) for pixel in (image.getpixel((x, row)) for x in range(image.size[0]))]
    wide_runs = [run for run in _runs(panel) if run > 15 * dpmm]
    assert len(wide_runs) == 2  # the panel either side of Shield's narrow art box (Boom's art box is wide)


def _runs(flags: list[bool]) -> list[int]:
    """The lengths of the runs of True."""
    runs, run = [], 0
    for flag in [*flags, False]:
        if flag:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    return runs


def test_a_one_line_text_on_a_smaller_card_keeps_its_min_size_as_a_paragraph_does(game_copy):
    """On a mini card (the design scaled by 0.7) a line written at 7.6 pt with min_size 5.5 is set
    at 5.5, the floor a smaller card does not scale, not refused for being set at 5.3."""
    folder = game_copy()
    assert "card_size: mini" in (folder / "game.yaml").read_text(encoding="utf-8")
    face = ("faces:\n  lined:\n    extends: default\n    for: kind == shield\n    elements:\n"
            "      - {id: kind-line, text: \"{name}\", line: true, x: 6.2, y: 52.4, width: 50.6, height: 5.6,"
            " size: 7.6, min_size: 5.5}\n")
    (folder / "layout.yaml").write_text(face, encoding="utf-8")
    code, out, err = cardgen("check", folder)
    assert code == 0 and "text-does-not-fit" not in out + err, out + err
    # the same line in a box too narrow for the name even at its min_size is refused
    (folder / "layout.yaml").write_text(face.replace("width: 50.6", "width: 4"), encoding="utf-8")
    code, out, err = cardgen("check", folder)
    assert code == 1 and "[text-does-not-fit]" in out and "card 'Shield'" in out, out + err

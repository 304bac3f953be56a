"""cardgen check on a game's own faces: every text element measured at the game's card size, every
`when:` and field a face names, extends cycles, a card's unknown face and missing symbols, each at
its line in the face (layout.yaml or the file it names)."""
from __future__ import annotations

import shutil

from conftest import ROOT, cardgen, check, edit

CREATURE_FACE = """\
faces:
  creature:
    for: kind == hazard
    elements:
      - id: cost
        text: "Cost {number}"
        x: 6
        y: 70
        width: 50
        height: 8
        size: 14
        min_size: 12
        when: number
"""


def finding(out: str, code: str) -> str:
    return next(line.strip() for line in out.splitlines() if f"[{code}]" in line)


def test_a_text_that_fits_at_poker_but_not_at_mini_is_an_error_at_its_line_in_the_face(game_copy, capsys):
    folder = game_copy()
    (folder / "layout.yaml").write_text(CREATURE_FACE.replace("width: 50", "width: 30"), encoding="utf-8")
    edit(folder / "cards.yaml", "{name: Boom, color: red, kind: hazard,", "{name: Boom, color: red, kind: hazard, number: 12345,")
    edit(folder / "game.yaml", "card_size: mini", "card_size: poker")
    code, out = check(folder, capsys)
    assert "[text-does-not-fit]" not in out
    edit(folder / "game.yaml", "card_size: poker", "card_size: mini")
    code, out = check(folder, capsys)
    line = finding(out, "text-does-not-fit")
    assert code == 1
    assert line.startswith("tiny_game/layout.yaml:5:9: error: card 'Boom': the cost of face 'creature'"), line
    assert "it needs" in line and "the smallest allowed is 12 pt" in line


def test_a_when_typo_is_an_error_at_its_column_and_an_unknown_field_has_did_you_mean(game_copy, capsys):
    folder = game_copy()
    (folder / "layout.yaml").write_text(CREATURE_FACE.replace("when: number", "when: number >= = 2"),
                                        encoding="utf-8")
    code, out = check(folder, capsys)
    assert code == 1
    assert finding(out, "bad-expression").startswith("tiny_game/layout.yaml:13:25: error: face creature: element when")
    (folder / "layout.yaml").write_text(CREATURE_FACE.replace("when: number", "when: number >= ٣"), encoding="utf-8")
    code, out = check(folder, capsys)  # numbers in ASCII digits, as in counts: not Arabic-Indic three
    assert code == 1
    assert finding(out, "bad-expression").startswith("tiny_game/layout.yaml:13:25: error: face creature: element when")
    assert "'٣' cannot be read in a condition" in out
    (folder / "layout.yaml").write_text(CREATURE_FACE.replace("when: number", "when: numbr"), encoding="utf-8")
    code, out = check(folder, capsys)
    line = finding(out, "unknown-field")
    assert code == 1 and line.startswith("tiny_game/layout.yaml:5:9: error: face creature: 'numbr': no field 'numbr'")
    assert "did you mean 'number'?" in out


def test_a_word_no_card_has_is_an_error_and_a_field_no_card_sets_a_warning(game_copy, capsys):
    folder = game_copy()
    (folder / "layout.yaml").write_text(CREATURE_FACE.replace("kind == hazard", "kind == hazzard")
                                        .replace("when: number", "when: details"), encoding="utf-8")
    code, out = check(folder, capsys)
    assert code == 1
    assert finding(out, "unknown-value").startswith("tiny_game/layout.yaml:3:5: error: face creature: "
                                                    "'kind == hazzard': no card has kind 'hazzard'")
    assert "did you mean 'hazard'?" in out
    assert finding(out, "field-never-set").startswith("tiny_game/layout.yaml:5:9: warning: face creature: 'details'")


def test_an_extends_cycle_is_an_error_at_its_line(game_copy, capsys):
    folder = game_copy()
    (folder / "layout.yaml").write_text("faces:\n  a: {extends: b}\n  b: {extends: a}\n", encoding="utf-8")
    code, out = check(folder, capsys)
    line = finding(out, "face-cycle")
    assert code == 1 and line.startswith("tiny_game/layout.yaml:") and "extends makes a cycle" in line
    assert "a -> b -> a" in line or "b -> a -> b" in line


def test_a_face_image_cards_are_not_drawn_with_is_an_error_at_check(game_copy, capsys, tmp_path):
    """A face draws its images as a card's art is drawn (PNG or JPEG): an SVG passed check and then
    failed to draw, naming no line ("cannot identify image file")."""
    folder = game_copy()
    (folder / "art").mkdir()
    shutil.copy(ROOT / "art" / "symbols" / "bomb.svg", folder / "art" / "pic.svg")
    (folder / "layout.yaml").write_text("faces:\n  f:\n    extends: default\n    elements:\n"
                                        "      - {id: pic, image: art/pic.svg, x: 10, y: 20, width: 20, height: 20}\n"
                                        "face: f\n", encoding="utf-8")
    code, out = check(folder, capsys)
    assert code == 1
    line = finding(out, "face-file-missing")
    assert line.startswith("tiny_game/layout.yaml:5:") and \
        "image 'art/pic.svg' has the extension '.svg': only .png, .jpg and .jpeg images can be used" in line
    code, _, err = cardgen("cards", folder, "--out", tmp_path / "out")
    assert code == 1 and "cannot identify" not in err and not (tmp_path / "out").exists()


def test_a_cards_unknown_face_and_a_missing_symbol_are_errors(game_copy, capsys):
    folder = game_copy()
    (folder / "layout.yaml").write_text("faces:\n  big:\n    elements:\n"
                                        "      - {symbol: rocket, x: 10, y: 30, width: 10, height: 10}\n",
                                        encoding="utf-8")
    edit(folder / "cards.yaml", "{name: Boom, color: red,", "{name: Boom, face: bgi, color: red,")
    edit(folder / "cards.yaml", "{name: Shield, color: blue,", "{name: Shield, face: big, color: blue,")
    code, out = check(folder, capsys)
    assert code == 1
    assert "error: card 'Boom': no face 'bgi'" in out and "did you mean 'big'?" in out
    line = finding(out, "face-file-missing")
    assert line.startswith("tiny_game/layout.yaml:4:9: error: card 'Shield', face big, symbol: no symbol 'rocket'")


def test_an_element_past_the_trim_line_needs_bleed(game_copy, capsys):
    folder = game_copy()
    face = "faces:\n  wide:\n    elements:\n      - {id: band, shape: rect, x: 0, y: 0, width: 63, height: 10, fill: card}\n"
    (folder / "layout.yaml").write_text(face + "face: wide\n", encoding="utf-8")
    code, out = check(folder, capsys)
    assert "[outside-safe-zone]" not in out  # it touches the edges, it does not pass them
    (folder / "layout.yaml").write_text(face.replace("x: 0,", "x: -2,") + "face: wide\n", encoding="utf-8")
    code, out = check(folder, capsys)
    assert "tiny_game/layout.yaml:4:9: error: face wide, band: every card's shape reaches" in out
    (folder / "layout.yaml").write_text(face.replace("x: 0,", "x: -2, bleed: true,") + "face: wide\n", encoding="utf-8")
    code, out = check(folder, capsys)
    assert "[outside-safe-zone]" not in out

"""The back is a face too: the shipped back drawn from art/faces/back.yaml with its titles (the
old back: keys on its elements: test_faces), and a back of game.yaml that names a face prints
that face on the card's back (a double-faced card), with the card's own values."""
from __future__ import annotations

from conftest import TINY_GAME, cardgen, edit, page_texts

NIGHT_FACE = """\
faces:
  night:
    elements:
      - {id: ground, shape: rect, x: 0, y: 0, width: 63, height: 88, fill: card, bleed: true}
      - {id: name, text: "{name} by night", line: true, x: 8, y: 40, width: 47, height: 8, font: bold, size: 12,
         color: ink}
"""


def _back_texts(folder, tmp_path) -> str:
    code, out, err = cardgen("cards", folder, "--out", tmp_path / "out")
    assert code == 0, out + err
    (pdf,) = (tmp_path / "out").glob("cards-*.pdf")
    return " ".join(" ".join(page_texts(pdf)[1::2]).split())


def test_a_back_naming_a_face_prints_it_with_the_cards_values(game_copy, tmp_path):
    folder = game_copy(TINY_GAME.parent / "two_backs")
    edit(folder / "game.yaml", "emblem: gear}", "emblem: gear, face: night}")
    (folder / "layout.yaml").write_text(NIGHT_FACE, encoding="utf-8")
    backs = _back_texts(folder, tmp_path)
    assert "Shield by night" in backs  # the shields' backs: the night face, with the card's name
    assert "Shields" not in backs  # not the shipped back with the shields' title
    assert "Two Backs" in backs  # the other cards keep the game's back


def test_the_shipped_back_keeps_its_title_and_a_backs_own(tmp_path):
    backs = _back_texts(TINY_GAME.parent / "two_backs", tmp_path)
    assert "Shields" in backs and "Two Backs" in backs


def test_a_back_naming_no_face_is_an_error_at_its_line(game_copy):
    folder = game_copy(TINY_GAME.parent / "two_backs")
    edit(folder / "game.yaml", "emblem: gear}", "emblem: gear, face: nihgt}")
    (folder / "layout.yaml").write_text(NIGHT_FACE, encoding="utf-8")
    code, out, err = cardgen("check", folder)
    assert code == 1
    assert "game.yaml:40" in out and "back 'shields': no face 'nihgt'" in out and "night" in out, out


def test_a_double_faced_cards_back_is_measured_with_its_values(game_copy):
    folder = game_copy(TINY_GAME.parent / "two_backs")
    edit(folder / "game.yaml", "emblem: gear}", "emblem: gear, face: night}")
    (folder / "layout.yaml").write_text(NIGHT_FACE.replace("width: 47", "width: 6"), encoding="utf-8")
    code, out, err = cardgen("check", folder)
    assert code == 1
    assert "card 'Shield': the name of face 'night'" in out and "does not fit" in out, out

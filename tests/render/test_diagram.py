"""The rulebook's card diagram follows the face the cards take: a callout for each labelled
element of it that the cards show (the shipped face's in cardgen's words), none for an element
the face leaves out."""
from __future__ import annotations

import pytest
from conftest import TINY_GAME, cardgen, page_lines

NO_TEXT_BOX = """\
faces:
  gem:
    extends: default
    remove: [text, text-box]
    elements:
      - {id: cost, text: "{number}", line: true, x: 24, y: 66, width: 15, height: 10, size: 14,
         label: "Cost, in the gem at the bottom", callout_x: 0.5}
face: gem
"""


def _diagram_text(folder, tmp_path) -> str:
    code, out, err = cardgen("rulebook", folder, "--out", tmp_path / "out")
    assert code == 0, out + err
    pages = page_lines(next((tmp_path / "out").glob("rulebook*.pdf")))
    (page,) = [text for text in pages if "The parts of a card" in text]
    return " ".join(page.split())


@pytest.mark.slow
def test_the_shipped_faces_callouts_name_its_parts(tmp_path):
    text = _diagram_text(TINY_GAME, tmp_path)
    assert "Name, at the top." in text and "Effect, in the box at the bottom" in text


@pytest.mark.slow
def test_a_face_without_a_text_box_has_no_effect_callout_and_its_own_labels(game_copy, tmp_path):
    folder = game_copy()
    (folder / "layout.yaml").write_text(NO_TEXT_BOX, encoding="utf-8")
    text = _diagram_text(folder, tmp_path)
    assert "Effect" not in text
    assert "Name, at the top." in text and "Cost, in the gem at the bottom" in text

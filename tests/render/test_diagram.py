"""The rulebook's card diagram follows the face the cards take: a callout for each labelled
element of it that the cards show (the shipped face's in cardgen's words), none for an element
the face leaves out."""
from __future__ import annotations

import math

import pytest
from conftest import CARD_DATA, TINY_GAME, cardgen, loaded, page_lines

from cardgen.render.documents.diagram import callouts, example_card

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


def test_the_shipped_faces_callouts_sit_by_their_own_part_not_on_the_badges_beside_it():
    """The name's callout sits above the middle of the name (at the box's left corner it lay on the
    symbol badge, or a game's cost gem, beside the name); the flavor's at its right end (at the
    left it lay on the star below the symbol)."""
    game = loaded(CARD_DATA / "starter").game
    card = example_card(game)
    face = game.design.faces.of(card)
    width, height = game.design.design.width, game.design.design.height
    at = {c.label: (c.left * width / 100, c.top * height / 100) for c in callouts(game) if c.shown}
    by_label = {element.label: element for element in face.elements if element.label}
    name, flavor = by_label["name"], by_label["flavor"]
    x, y = at["name"]
    assert name.x + name.width / 4 < x < name.x + 3 * name.width / 4 and y < name.y
    x, y = at["flavor"]
    assert x > flavor.x + flavor.width / 2 and math.dist(at["flavor"], at["star"]) > 10  # mm on the card

"""safezone (check stage): what a card face shows (its texts, symbols, repeats and tags) stays
inside the safe zone, SAFE_ZONE_MM inside the trim line, where no cut that is slightly off can
reach it; no other element (a shape, an image) reaches past the trim line unless it says `bleed:
true`. The boxes are each face's elements at the game's card size, as the card painter scales
them; each finding is at the element's line (or the line of the game's layout.yaml that moved
an element of the shipped face)."""
from __future__ import annotations

from collections.abc import Iterator

from cardgen.layout.sheet import Rect
from cardgen.layout.textfit import Scale
from cardgen.model.faces import DEFAULT_FACE, IMAGE, REPEAT, SHAPE, TEXT, Element, Face, repeated
from cardgen.model.game import ERROR, WARNING, Finding, Game
from cardgen.model.sizes import MM, SAFE_ZONE_MM

NEAR = 0.01 * MM  # closer than this is on the line

# how findings name the shipped face's elements (in the old layout sections' words)
SHIPPED_LABELS = {"name": ("name", "name"), "flavor": ("flavor", "flavor line"), "text": ("text", "effect text"),
                  "symbol": ("symbol", "symbol"), "number": ("number", "number"), "star": ("star", "star"),
                  "star-outline": ("star", "star"), "tags": ("tags", "tags")}


def check_safe_zone(game: Game) -> list[Finding]:
    """A finding for each element that reaches into the safe zone (a warning) or past the trim
    line (an error: part of it is cut off every card), at each deck's card size."""
    faces = game.design.faces
    findings: list[Finding] = []
    for deck in game.every_deck:
        width, height = deck.size_mm
        scale = Scale.of(game.design, width * MM, height * MM)
        used = {faces.of(card).id for card in game.cards if card.printed and game.deck_of(card).id == deck.id}
        for face in faces.by_id.values():
            if face.id not in (used if game.decks else used or {faces.default}):
                continue
            for element, box in _elements(face, scale):
                finding = _reach(face, element, box, scale, width, height)
                if finding is not None and finding not in findings:
                    findings.append(finding)
    return findings


def _elements(face: Face, scale: Scale) -> Iterator[tuple[Element, Rect]]:
    for element in face.elements:
        if element.bleed or face.id == DEFAULT_FACE and element.kind in (SHAPE, IMAGE):
            continue  # the shipped face's frame and boxes hold what shows: those are measured
        if element.kind == REPEAT:  # its first two places show where the line of repeats goes
            for item in repeated(element, 2):
                yield item, scale.box(item)
            continue
        box = scale.box(element)
        yield element, box.inset(scale.length(element.padding)) if element.kind == TEXT else box


def _reach(face: Face, element: Element, box: Rect, scale: Scale, width: float, height: float) -> Finding | None:
    margins = {"left": box.x, "bottom": box.y, "right": scale.card_w - box.right, "top": scale.card_h - box.top}
    edge, margin = min(margins.items(), key=lambda item: item[1])
    decoration = element.kind in (SHAPE, IMAGE)
    if margin >= SAFE_ZONE_MM * MM - NEAR or decoration and margin >= -NEAR:
        return None
    level, reach = (ERROR, f"{-margin / MM:.1f} mm past the {edge} edge: it is cut off") if margin < -NEAR else \
        (WARNING, f"{margin / MM:.1f} mm from the {edge} edge, inside the {SAFE_ZONE_MM:g} mm safe zone "
                  "a cut slightly off the line can reach")
    if face.id == DEFAULT_FACE and element.id in SHIPPED_LABELS:
        section, label = SHIPPED_LABELS[element.id]
        what = f"layout {section}: every card's {label}"
        hint = f"move it or make it smaller in layout.yaml ({section}: {{x: …, y: …}})"
    else:
        what = f"face {face.id}, {element.named}: every card's {element.kind}"
        hint = "move it or make it smaller in the face" + (", or say bleed: true if it is meant to run off the edge"
                                                            if decoration else "")
    return Finding(level, "outside-safe-zone", f"{what} reaches {reach}", element.where,
                   f"{hint}, so that it keeps {SAFE_ZONE_MM:g} mm from every edge of a {width:g}x{height:g} mm card")

"""load/turns: game.yaml's `turns:` and a card's `play:`, the data `cardgen simulate` plays."""
from __future__ import annotations

from cardgen.load import schema
from cardgen.load.reader import Reader
from cardgen.model.turns import PLAY_PRIMITIVES, SAVED_PLACES, Play, Turns


def read_turns(reader: Reader, node) -> Turns:
    if node is None:
        return Turns()
    m = reader.mapping(node, schema.TURNS)
    saved = m.read("saved", "") or Turns.saved
    if saved not in SAVED_PLACES:
        reader.error(m["saved"], "bad-saved", f"turns: saved '{saved}' is not one of {', '.join(SAVED_PLACES)}",
                     "where a losing card goes when a saving card is spent: random (anywhere in the draw pile), "
                     "top, bottom or discard")
        saved = Turns.saved
    return Turns(draw=m.read("draw") or Turns.draw, saved=saved, documents=m.read("documents", False),
                 where=reader.where(node))


def read_play(reader: Reader, node, card: str) -> Play | None:
    """A card's play: (`card` names the card in findings, when known), or None when it has none
    (an empty one is reported)."""
    if node is None:
        return None
    m = reader.mapping(node, schema.PLAY)
    play = Play(skip=m.read("skip", False), extra_turns=m.read("extra_turns") or 0, shuffle=m.read("shuffle", False),
                peek=m.read("peek") or 0, reverse=m.read("reverse", False))
    if play == Play() and not node.value:  # a mapping of unknown keys only is reported key by key
        reader.error(node, "empty-play", (f"card '{card}': " if card else "") + "play: names no effect",
                     f"give one or more of {', '.join(PLAY_PRIMITIVES)}, or remove play:")
        return None
    return play

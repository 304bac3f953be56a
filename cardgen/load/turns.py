"""load/turns: game.yaml's `turns:` and a card's `play:`, the data `cardgen simulate` plays."""
from __future__ import annotations

import yaml

from cardgen.load import schema
from cardgen.load.reader import Reader
from cardgen.load.schema import Boolean, Integer, Text
from cardgen.model.turns import PLAY_PRIMITIVES, SAVED_PLACES, Play, Turns


def read_turns(reader: Reader, node: yaml.Node | None) -> Turns:
    if node is None:
        return Turns()
    m = reader.mapping(node, schema.TURNS)
    saved = m.read("saved", Text, "") or Turns.saved
    if saved not in SAVED_PLACES:
        reader.error(m["saved"], "bad-saved", f"turns: saved '{saved}' is not one of {', '.join(SAVED_PLACES)}",
                     "where a losing card goes when a saving card is spent: random (anywhere in the draw pile), "
                     "top, bottom or discard")
        saved = Turns.saved
    draw = m.read("draw", Integer)
    return Turns(draw=draw or Turns.draw, saved=saved, documents=m.read("documents", Boolean, False),
                 where=reader.where(node))


def read_play(reader: Reader, node: yaml.Node | None, card: str) -> Play | None:
    """A card's play: (`card` names the card in findings, when known), or None when it has none
    (an empty one is reported)."""
    if node is None:
        return None
    m = reader.mapping(node, schema.PLAY)
    skip, extra_turns = m.read("skip", Boolean, False), m.read("extra_turns", Integer)
    shuffle, peek = m.read("shuffle", Boolean, False), m.read("peek", Integer)
    play = Play(skip=skip, extra_turns=extra_turns or 0, shuffle=shuffle, peek=peek or 0,
                reverse=m.read("reverse", Boolean, False))
    if play == Play() and not node.value:  # a mapping of unknown keys only is reported key by key
        reader.error(node, "empty-play", (f"card '{card}': " if card else "") + "play: names no effect",
                     f"give one or more of {', '.join(PLAY_PRIMITIVES)}, or remove play:")
        return None
    return play

"""model/turns: how a turn goes, as data the simulator plays (game.yaml's `turns:`), and what
playing a card does (a card's `play:`), in a handful of primitives general enough for the
draw-until-someone-loses family of games."""
from __future__ import annotations

from dataclasses import dataclass

from cardgen.model.where import Where

SAVED_PLACES = ("random", "top", "bottom", "discard")  # where a losing card goes once a saving card is spent
PLAY_PRIMITIVES = ("skip", "extra_turns", "shuffle", "peek", "reverse")


@dataclass(frozen=True)
class Play:
    """What playing a card does, in the order listed: the simulator plays cards carrying any."""

    skip: bool = False  # end the turn without drawing
    extra_turns: int = 0  # end every turn the player still owes; the next player takes this many more than one
    shuffle: bool = False  # shuffle the draw pile (what anyone knew of its order is lost)
    peek: int = 0  # look at this many cards on top of the draw pile
    reverse: bool = False  # the turn passes the other way round

    @property
    def ends_turn(self) -> bool:
        return self.skip or self.extra_turns > 0

    def words(self) -> str:
        """The primitives as the report names them, e.g. 'skip, extra_turns 1'."""
        parts = [name if value is True else f"{name} {value}" for name in PLAY_PRIMITIVES
                 if (value := getattr(self, name))]
        return ", ".join(parts)


@dataclass(frozen=True)
class Turns:
    """game.yaml's `turns:`. A turn: play any cards, then draw `draw` cards (unless a card ended
    it). A card of a losing kind drawn eliminates the player unless they spend a card of a saving
    kind; the losing card then goes where `saved` says. The last player left wins."""

    draw: int = 1
    saved: str = "random"  # one of SAVED_PLACES
    documents: bool = False  # the rulebook and checklists show how each setup plays, per player count
    where: Where | None = None

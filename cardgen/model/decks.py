"""Decks: the sets of cards a game prints at a card size each (game.yaml's `decks:`), e.g. poker
playing cards and mini task cards. A game that declares none is one deck at its `card_size`."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cardgen.model.sizes import CardSize, card_size_mm
from cardgen.model.where import Where

DEFAULT_DECK = "cards"  # the id of the one deck of a game that declares none


@dataclass(frozen=True)
class Deck:
    id: str
    name: str
    card_size: CardSize  # a preset's name, "WxH" in mm, or {width_mm, height_mm}
    landscape: bool = False  # the size turned: its width and height swapped
    face: str | None = None  # the face its cards take (one of the layout's faces); None: as the faces' rules say
    back: str | None = None  # Back.id: its cards' back; None: as the kinds and colors say
    select: Mapping[str, object] | None = None  # the cards it holds besides those naming it (`deck:`)
    where: Where | None = None

    @property
    def size_mm(self) -> tuple[float, float]:
        """The trimmed card's width and height, in mm."""
        width, height = card_size_mm(self.card_size)
        return (height, width) if self.landscape else (width, height)

    @property
    def sheet_size(self) -> CardSize:
        """The card size the sheets, exports and checks take: the preset itself unless turned."""
        if not self.landscape:
            return self.card_size
        width, height = self.size_mm
        return {"width_mm": width, "height_mm": height}

    @property
    def preset(self) -> str | None:
        """The preset's name a print service's products are listed by (None: a size of its own)."""
        return self.card_size if isinstance(self.card_size, str) else None


"""Card fields: the values a card carries, by name. The built-in ones (name, color, number, …) are
attributes of `Card`; a game declares its own in game.yaml's `fields:` (cost, attack, rarity, …)
and each card holds their values in `Card.fields`. Faces, text patterns, selectors, sort orders
and the documents read every field through `Card.value`, so a game's own field works wherever a
built-in one does."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Union

from cardgen.model.where import Where

# A field's value on one card: a number, a text, a choice, a list of texts, yes/no; None: not set.
FieldValue = Union[int, float, str, bool, tuple[str, ...], None]

NUMBER, TEXT, CHOICE, LIST, YESNO = "number", "text", "choice", "list", "yes/no"
FIELD_TYPES = (NUMBER, TEXT, CHOICE, LIST, YESNO)

# The fields every card has, with their types: the names a game's own fields may not take.
BUILTIN_FIELDS: Mapping[str, str] = {
    "id": TEXT, "name": TEXT, "color": CHOICE, "kind": LIST, "tags": LIST, "number": NUMBER,
    "star": YESNO, "symbol": TEXT, "flavor": TEXT, "text": TEXT, "details": TEXT,
}


@dataclass(frozen=True)
class CardField:
    """One of a game's own card fields, as game.yaml declares it."""

    id: str  # the key in cards.yaml, the column in cards.csv
    type: str  # one of FIELD_TYPES
    name: str  # how the documents label it ("Attack")
    choices: tuple[str, ...] = ()  # a choice field's values, in order
    default: FieldValue = None  # a card that does not set it has this value
    where: Where | None = None

    @property
    def translatable(self) -> bool:
        """Whether a translation gives this field's text in another language."""
        return self.type == TEXT

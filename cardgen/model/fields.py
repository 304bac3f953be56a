"""Card fields: the values a card carries, by name. The built-in ones (name, color, number, …) are
attributes of `Card`; a game declares its own in game.yaml's `fields:` (cost, attack, rarity, …)
and each card holds their values in `Card.fields`. Faces, text patterns, selectors and the
documents read every field through `Card.value`, so a game's own field works wherever a built-in
one does."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
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
# The built-in fields a translation gives in another language (the game's own: its text fields).
TRANSLATABLE_BUILTINS = ("name", "flavor", "text", "details")


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


def translatable_fields(fields: Iterable[CardField]) -> tuple[str, ...]:
    """Every card field a translation gives: the built-in texts, then the game's own text fields."""
    return TRANSLATABLE_BUILTINS + tuple(f.id for f in fields if f.translatable)


def markup_fields(fields: Iterable[CardField]) -> tuple[str, ...]:
    """Every card field printed in card markup (**bold**, :symbol:): the flavor and the effect
    text, then the game's own text fields (`details`, the rulebook's prose, is Markdown)."""
    return ("flavor", "text") + tuple(f.id for f in fields if f.type == TEXT)


@dataclass(frozen=True)
class NumberRange:
    """A selector's `{from, to}` for a number field (either bound may be left out)."""

    low: float | None = None
    high: float | None = None

    def holds(self, value: FieldValue) -> bool:
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            return False
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


def selects(value: FieldValue, wanted: object) -> bool:
    """Whether a card's value of a field is one a selector wants: in a number range, the yes/no
    asked for, or any of the values listed (for a list field: any of its items)."""
    if isinstance(wanted, NumberRange):
        return wanted.holds(value)
    if isinstance(wanted, bool):
        return value is wanted
    if not isinstance(wanted, (list, tuple)):
        raise TypeError(f"a selector wants a range, yes/no or a list of values, not {wanted!r}")
    if isinstance(value, tuple):
        return any(item in wanted for item in value)
    return value is not None and not isinstance(value, bool) and value in wanted


def shown(value: FieldValue) -> str:
    """A value as the documents print it: 3, 2.5, yes, 'a, b'; '' when not set."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def labelled_values(fields: Iterable[CardField], value: Callable[[str], FieldValue]) -> list[tuple[CardField, str]]:
    """The game's own fields a card has a value of, each with the value as the documents print it
    (under the field's display name)."""
    return [(f, text) for f in fields if (text := shown(value(f.id)))]

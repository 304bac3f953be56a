"""Text for people: control characters escaped for terminals, labels shared by every output."""
from __future__ import annotations

import math
import re
from collections.abc import Sequence

from cardgen.model.game import Component, Kind, Setup
from cardgen.model.words import decimal, is_one, ngettext

# Characters no game text can show or print: C0 and C1 controls (but tab, line feed and carriage
# return), DEL, and lone surrogates (a YAML "\ud800" escape; no file can be written with one).
UNUSABLE_CHARACTER = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def unusable_character(value: str) -> str:
    found = UNUSABLE_CHARACTER.search(value)
    if found is None:
        raise ValueError("the value holds no unusable character")
    character = found.group()
    return f"the value holds the character U+{ord(character):04X}, which cannot be shown or printed"


def ascii_digits(text: str) -> bool:
    """`text` is one or more ASCII digits: a number typed on a command line or in a URL ('٣' and
    '²' are digits to str.isdigit)."""
    return bool(text) and all("0" <= ch <= "9" for ch in text)


def players_label(setup: Setup) -> str:
    return setup.players_label


def format_number(value: float) -> str:
    """A figure as the documents print it: to one decimal, without it when that is 0 ('7', '2.5')."""
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else decimal(f"{rounded:.1f}")


def format_count(value: float, expected: bool = False) -> str:
    """A count of things as players read it: whole ('7'), or '~7' for an expected count (cards
    picked at random: `expected`, which a whole count may be too, or any count not whole), never
    a fraction of a card."""
    rounded = round(value)
    return f"~{rounded}" if expected or abs(value - rounded) >= 0.005 else str(rounded)


def apportioned(values: Sequence[float]) -> list[int]:
    """Whole numbers near `values` that add up to their sum, rounded: each rounded down, one more
    for the largest remainders (ties: the larger value, then the first). Rounded one by one,
    '3.5 Treasures and 1.5 Lands' would read '~4 and ~2' in a deck of 5."""
    floors = [math.floor(value + 1e-9) for value in values]
    rest = round(sum(values)) - sum(floors)
    raised = set(sorted(range(len(values)), key=lambda i: (-(values[i] - floors[i]), -values[i], i))[:rest])
    return [floor + (i in raised) for i, floor in enumerate(floors)]


def plural(noun: str) -> str:
    """The English plural of a noun or of a name's last word: 'cards', 'Number cards', 'Boxes',
    'Puppies'; a name that ends in a capital or a digit is left as it is ('NOW', 'Red 5')."""
    if not noun or not noun[-1].islower():
        return noun
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return noun[:-1] + "ies"
    return noun + "s"


def counted(n: float, noun: str, plural_form: str | None = None) -> str:
    """'1 card', '7 cards', '~26 cards': a count with its noun, singular for exactly one (English,
    for messages; the documents count in their own language with `cards` and `noun_count`)."""
    return f"{format_count(n)} {noun if format_count(n) == '1' else plural_form or plural(noun)}"


def cards(n: float) -> str:
    """'1 card', '~26 cards' in the language speaking."""
    return ngettext("%(num)s card", "%(num)s cards", n) % {"num": format_count(n)}


def noun_count(n: float, singular: str, several: str, expected: bool = False) -> str:
    """A count with a noun of the game's own ('2 Welpen'), by the language's plural rule."""
    return f"{format_count(n, expected)} {singular if is_one(n) else several}"


def kind_count(n: float, kind: Kind, expected: bool = False) -> str:
    return noun_count(n, kind.name, kind.plural or plural(kind.name), expected)


def component_count(n: float, component: Component) -> str:
    return noun_count(n, component.name, component.plural)


# A spreadsheet runs a cell that starts with one of these as a formula (CSV injection, OWASP):
# written with a leading quote, the spreadsheet shows the text; read back, the quote goes.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(text: str) -> str:
    """A text as a CSV cell a spreadsheet shows as text, never runs."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def spreadsheet_text(cell: str) -> str:
    """The text of a cell written by spreadsheet_cell (the quote before a formula start dropped)."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) else cell

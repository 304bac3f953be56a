"""Text for people: control characters escaped for terminals, labels shared by every output."""
from __future__ import annotations

import re

from cardgen.model.game import Setup

# C0 and C1 control characters (but line feed and tab) and the bidirectional overrides and
# isolates: text from a game folder could otherwise clear the screen, move the cursor or
# reorder a line on the terminal that shows it. Lone surrogates cannot be written at all.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def printable(text: str) -> str:
    """`text` with every control character shown as a \\uXXXX escape (valid in JSON too)."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def players_label(setup: Setup) -> str:
    return setup.players_label


def format_number(value: float) -> str:
    """A figure as the documents print it: to one decimal, without it when that is 0 ('7', '2.5')."""
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else f"{rounded:.1f}"


def counted(n: float, noun: str) -> str:
    """'1 card', '7 cards': a number with its noun, singular for one."""
    return f"{format_number(n)} {noun}{'' if n == 1 else 's'}"

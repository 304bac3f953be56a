"""errors: what stops cardgen, told apart by whose move it is.

- `BuildError`: the game data (or a file it names) cannot give the output, or the output cannot
  be written; the message names the file or card and says what to do. Exit 1.
- `UsageError`: the command line asks for something that cannot be (no such game, setup or
  player count, an option out of range, an output folder that is a file). Exit 2.
- Any other exception is a bug in cardgen: its traceback is kept and said to be one.
"""
from __future__ import annotations

import re

EXIT_OK, EXIT_DATA, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3

# C0 and C1 control characters (but line feed and tab) and the bidirectional overrides and
# isolates: text from a game folder could otherwise clear the screen, move the cursor or
# reorder a line on the terminal that shows it. Lone surrogates cannot be written at all.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

BUG_NOTICE = "this is a bug in cardgen, not a problem with your game: please report it with the traceback above"


class CardgenError(Exception):
    """A problem cardgen explains in words: a message, the place it is about and a hint."""

    exit_code = EXIT_DATA

    def __init__(self, message: str, where: object = None, hint: str = ""):
        super().__init__(message)
        self.message, self.where, self.hint = message, where, hint

    def __str__(self) -> str:
        place = f"{self.where}: " if self.where else ""
        hint = f"\n    hint: {self.hint}" if self.hint else ""
        return f"{place}error: {self.message}{hint}"


class BuildError(CardgenError):
    """A problem with the data or the output folder that stops an output (exit 1)."""


class UsageError(CardgenError):
    """The command asks for something impossible; nothing was read or written (exit 2)."""

    exit_code = EXIT_USAGE


def printable(text: str) -> str:
    """`text` with every control character shown as a \\uXXXX escape (valid in JSON too)."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)

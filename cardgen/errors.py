"""errors: what stops cardgen, told apart by whose move it is.

- `BuildError`: the game data (or a file it names) cannot give the output, or the output cannot
  be written; the message names the file or card and says what to do. Exit 1.
- `UsageError`: the command line asks for something that cannot be (no such game, setup or
  player count, an option out of range, an output folder that is a file). Exit 2.
- Any other exception is a bug in cardgen: its traceback is kept and said to be one.
"""
from __future__ import annotations

EXIT_OK, EXIT_DATA, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3
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

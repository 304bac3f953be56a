"""A place in the game data, for messages: the model's lowest module (the layout's settings
and the game's records both name where they were typed)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Where:
    """A place in the game data: file (relative to the game folder's parent), line, column."""

    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if not self.line:
            return self.file
        return f"{self.file}:{self.line}:{self.column}"

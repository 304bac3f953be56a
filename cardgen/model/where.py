"""A place in the game data, for messages: the model's lowest module (the layout's settings
and the game's records both name where they were typed)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Where:
    """A place in the game data: file (relative to the game folder's parent), line, column; in a
    workbook (cards.xlsx, cards.ods) the sheet, and line and column are the cell's row and column."""

    file: str
    line: int = 0
    column: int = 0
    sheet: str = ""

    def __str__(self) -> str:
        if not self.line:
            return self.file
        if self.sheet:  # as the spreadsheet names the cell: cards.xlsx: Cards!C12
            return f"{self.file}: {self.sheet}!{column_letters(self.column)}{self.line}"
        return f"{self.file}:{self.line}:{self.column}"


def column_letters(column: int) -> str:
    """A spreadsheet's name of a column: 1 -> A, 26 -> Z, 27 -> AA."""
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


@dataclass(frozen=True)
class Passage:
    """A text field as typed in its file: where the value starts and its source (quotes, escapes
    and indentation kept), so that a phrase found in the value can be placed at its own line."""

    where: Where
    source: str = ""

    def locate(self, phrase: str, nth: int = 0) -> Where:
        """Where the nth occurrence of phrase sits in the file (the field's start if not found)."""
        index = -1
        for _ in range(nth + 1):
            index = self.source.find(phrase, index + 1)
            if index < 0:
                return self.where
        before = self.source[:index]
        lines = before.count("\n")
        if not lines:
            return Where(self.where.file, self.where.line, self.where.column + index)
        return Where(self.where.file, self.where.line + lines, index - before.rfind("\n"))

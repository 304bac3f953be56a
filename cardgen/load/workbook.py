"""load/workbook: a spreadsheet's workbook (cards.xlsx, cards.ods) read as rows of text cells, and
rows written as a workbook (`cardgen convert --to xlsx|ods`).

Reading is calamine's (python-calamine): both formats, no spreadsheet program, a formula's value as
the program last worked it out. A workbook is untrusted: it comes from the guarded reader as bytes
of a bounded size, its zip members are unpacked once here within a total (a zip bomb stops at the
bound, before calamine sees it), and the sheet's rows, columns and cells are bounded too. Writing
is openpyxl's (xlsx) and odfpy's (ods), imported by the writers only: reading a game (`cardgen check`)
does not pay for them."""
from __future__ import annotations

import datetime
import io
import posixpath
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from xml.etree import ElementTree

import python_calamine

from cardgen.model.where import column_letters

WORKBOOK_SUFFIXES = (".xlsx", ".ods")
MAX_WORKBOOK_BYTES = 10_000_000  # the file as saved (zipped)
MAX_UNZIPPED_BYTES = 100_000_000  # its members unpacked
MAX_MEMBERS = 2000
MAX_ROWS = 10_000
MAX_COLUMNS = 200
MAX_CELL = 4000  # characters of one cell: a card's longest text


class BadWorkbook(Exception):
    """A workbook that cannot be read, or is larger than cardgen reads; the message says which."""


@dataclass(frozen=True)
class Worksheet:
    name: str
    rows: list[list[str]]  # from A1 on: rows[0][2] is cell C1; every cell as text ("" when empty)


def read_sheet(data: bytes, wanted: str | None = None) -> Worksheet:
    """The first sheet of a workbook, or the one called `wanted`, as text cells."""
    _check_sheet_extents(data)
    try:
        book = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = list(book.sheet_names)
        if not names:
            raise BadWorkbook("has no sheet")
        if wanted is not None and wanted not in names:
            raise BadWorkbook(f"has no sheet '{wanted}' (its sheets: {', '.join(names)})")
        sheet = book.get_sheet_by_name(wanted or names[0])
        last_row, last_column = (sheet.end or (0, 0))  # 0-based; None for an empty sheet
        _check_extent(sheet.name, last_row + 1, last_column + 1)
        rows = sheet.to_python(skip_empty_area=False)
    except python_calamine.CalamineError as exc:
        raise BadWorkbook(f"does not read as a workbook ({str(exc).splitlines()[0] if str(exc) else 'damaged'})") \
            from None
    return Worksheet(sheet.name, [_trimmed([_text(value) for value in row]) for row in rows])


def _trimmed(cells: list[str]) -> list[str]:
    """A row without the empty cells after its last value."""
    while cells and not cells[-1]:
        cells.pop()
    return cells


def _check_extent(sheet: str, rows: int, columns: int) -> None:
    if rows > MAX_ROWS or columns > MAX_COLUMNS:
        raise _too_large(sheet, rows, columns)


def _too_large(sheet: str, rows: int, columns: int) -> BadWorkbook:
    return BadWorkbook(f"has a sheet '{sheet}' reaching cell {column_letters(columns)}{rows}; "
                       f"cardgen reads up to {MAX_ROWS} rows and {MAX_COLUMNS} columns")


def _check_sheet_extents(data: bytes) -> None:
    """Every sheet's extent, read from the workbook's XML before calamine reads it: calamine sets
    out the rectangle up to a sheet's last value at once, so that a 5 KB file with a value at
    XFD1048576 (or a row of an .ods repeated a million times) would ask for gigabytes and end the
    process. Every member that holds sheets is read, whichever calamine would take for which sheet
    (one that cannot be parsed is refused), and none may set out more cells than the sheet cardgen
    reads may have; the sheet read is held to its rows and columns once calamine has it."""
    parts: dict[str, bytes] = {}  # the workbook's own, which name its sheets
    too_large: tuple[str, int, int] | None = None  # the first sheet over the bound
    for name, content in _unzipped(data):
        extent = _xlsx_extent if b"sheetData" in content else _ods_extent if b"table-row" in content else None
        if name in _WORKBOOK_PARTS:
            parts[name] = content
        if extent is not None:
            try:
                rows, columns = extent(content)
            except (ElementTree.ParseError, ValueError):
                raise BadWorkbook(f"has a part that is not well-formed XML ({name})") from None
            if rows * columns > MAX_ROWS * MAX_COLUMNS:
                too_large = too_large or (name, rows, columns)
    if too_large:
        name, rows, columns = too_large
        raise _too_large(_xlsx_sheet_names(parts).get(name, name), rows, columns)


def _xlsx_extent(data: bytes) -> tuple[int, int]:
    """The last row and column of an xlsx sheet's cells that hold something, as calamine places
    them: a cell at its r="C12", else after the one before it in its row (the row at its r, else
    after the one before it)."""
    row = column = last_row = last_column = 0
    cell: tuple[int, int] | None = None
    filled = False
    for event, element in ElementTree.iterparse(io.BytesIO(data), events=("start", "end")):
        name = _local(element.tag)
        if event == "start" and name == "row":
            row, column = _number_or(_attribute(element, "r"), row + 1), 0
        elif event == "start" and name == "c":
            position = _POSITION.fullmatch(_attribute(element, "r").upper())
            letters, digits = position.groups() if position else ("", "")
            column = _column_number(letters) if letters else column + 1
            cell, filled = (_number_or(digits, row), column), False
        elif event == "start" and cell is not None:
            filled = True  # a value, a formula or a text inside the cell (a cell of style alone holds none)
        elif event == "end" and name == "c":
            if cell is not None and filled:
                last_row, last_column = max(last_row, cell[0]), max(last_column, cell[1])
            cell = None
        if event == "end":
            element.clear()
    return last_row, last_column


def _ods_extent(data: bytes) -> tuple[int, int]:
    """The last row and column of an .ods table's cells that hold something, with its rows' and
    cells' repeats (number-rows-repeated, number-columns-repeated) counted out."""
    row = column = rows = last_row = last_column = filled_to = 0
    cell_filled = False
    for event, element in ElementTree.iterparse(io.BytesIO(data), events=("start", "end")):
        name = _local(element.tag)
        if event == "start" and name == "table":
            row = 0
        elif event == "start" and name == "table-row":
            rows, column, filled_to = _number_or(_attribute(element, "number-rows-repeated"), 1), 0, 0
        elif event == "start" and name in ("table-cell", "covered-table-cell"):
            column += _number_or(_attribute(element, "number-columns-repeated"), 1)
            cell_filled = bool(_attribute(element, "value-type"))
        elif event == "start":
            cell_filled = True  # a paragraph inside the cell
        elif name in ("table-cell", "covered-table-cell"):
            filled_to = column if cell_filled else filled_to
        elif name == "table-row":
            if filled_to:
                last_row, last_column = max(last_row, row + rows), max(last_column, filled_to)
            row += rows
        if event == "end":
            element.clear()
    return last_row, last_column


_POSITION = re.compile(r"([A-Z]*)([0-9]*)")


def _local(name: str) -> str:
    return name.rpartition("}")[2]


def _attribute(element: ElementTree.Element, local: str) -> str:
    """An attribute's value by its local name, whatever its namespace ("" when it has none)."""
    return next((value for key, value in element.attrib.items() if _local(key) == local), "")


def _number_or(text: str, default: int) -> int:
    return int(text) if text.isdigit() and text.isascii() else default


_WORKBOOK_PARTS = ("xl/workbook.xml", "xl/_rels/workbook.xml.rels")


def _xlsx_sheet_names(parts: dict[str, bytes]) -> dict[str, str]:
    """The name of each sheet of an xlsx workbook by its zip member, as far as its workbook (its
    _WORKBOOK_PARTS) says (for messages: every member holding sheets is read, named or not)."""
    try:
        book, links = (ElementTree.fromstring(parts[name]) for name in _WORKBOOK_PARTS)
    except (KeyError, ElementTree.ParseError):
        return {}
    targets = {link.get("Id"): link.get("Target", "") for link in links}
    names = {}
    for sheet in book.iter(f"{_MAIN}sheet"):
        target = targets.get(sheet.get(f"{_RELATIONSHIPS}id"), "")
        names[target.lstrip("/") if target.startswith("/") else posixpath.normpath(f"xl/{target}")] = sheet.get("name", "")
    return names


_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_RELATIONSHIPS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"


def _column_number(letters: str) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


def _unzipped(data: bytes) -> Iterator[tuple[str, bytes]]:
    """Each member of the workbook's zip and its content, unpacked within MAX_UNZIPPED_BYTES in all
    (whatever sizes the zip claims)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
        if len(members) > MAX_MEMBERS:
            raise BadWorkbook(f"holds {len(members)} files; a workbook cardgen reads holds at most {MAX_MEMBERS}")
        left = MAX_UNZIPPED_BYTES
        for member in members:
            chunks = []
            with archive.open(member) as stream:
                while chunk := stream.read(min(1 << 20, left + 1)):
                    left -= len(chunk)
                    if left < 0:
                        raise BadWorkbook(f"unpacks to more than {MAX_UNZIPPED_BYTES // 1_000_000} MB: cardgen "
                                          "reads no larger workbook")
                    chunks.append(chunk)
            yield member.filename, b"".join(chunks)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, ValueError) as exc:
        raise BadWorkbook(f"is not a workbook (not a zip file: {exc})") from None


def _text(value: object) -> str:
    """A cell's value as the text a CSV export would hold: 3 for the number 3, true for TRUE."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    text = str(value)
    if len(text) > MAX_CELL:
        raise BadWorkbook(f"has a cell of {len(text)} characters; a cell may hold {MAX_CELL}")
    return text


# --------------------------------------------------------------------------- writing

Cell = str | int | float
FIXED_TIME = datetime.datetime(1980, 1, 1)  # what a written workbook says of when it was made


def workbook_bytes(suffix: str, rows: list[list[Cell]], sheet: str = "Cards") -> bytes:
    """Rows as a workbook of one sheet: .xlsx or .ods."""
    return _xlsx(rows, sheet) if suffix == ".xlsx" else _ods(rows, sheet)


def _xlsx(rows: list[list[Cell]], sheet: str) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    book.properties.created = book.properties.modified = FIXED_TIME
    page = book.active
    page.title = sheet
    for number, row in enumerate(rows, 1):
        for column, value in enumerate(row, 1):
            if value != "":
                cell = page.cell(number, column, value)
                if isinstance(value, str) and value.startswith("="):
                    cell.data_type = "s"  # a text, not a formula to work out
    out = io.BytesIO()
    book.save(out)
    return _fixed_times(out.getvalue())


def _ods(rows: list[list[Cell]], sheet: str) -> bytes:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    table = Table(name=sheet)
    for row in rows:
        line = TableRow()
        for cell in row:
            if isinstance(cell, (int, float)):
                item = TableCell(valuetype="float", value=cell)
            else:
                item = TableCell(valuetype="string")
            for paragraph in str(cell).split("\n") if cell != "" else []:
                item.addElement(P(text=paragraph))
            line.addElement(item)
        table.addElement(line)
    document.spreadsheet.addElement(table)
    out = io.BytesIO()
    document.write(out)
    return _fixed_times(out.getvalue())


def _fixed_times(data: bytes) -> bytes:
    """Every member's time stamp set to one fixed date (the file says nothing of when it was made)."""
    source, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for member in source.infolist():
            fixed = zipfile.ZipInfo(member.filename, date_time=FIXED_TIME.timetuple()[:6])
            fixed.compress_type = member.compress_type
            target.writestr(fixed, source.read(member))
    return out.getvalue()

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
    archive = _check_unzipped(data)
    try:
        book = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = list(book.sheet_names)
        if not names:
            raise BadWorkbook("has no sheet")
        if wanted is not None and wanted not in names:
            raise BadWorkbook(f"has no sheet '{wanted}' (its sheets: {', '.join(names)})")
        _check_xlsx_extent(archive, wanted or names[0])
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
        raise BadWorkbook(f"has a sheet '{sheet}' reaching cell {column_letters(columns)}{rows}; "
                          f"cardgen reads up to {MAX_ROWS} rows and {MAX_COLUMNS} columns")


_XLSX_CELLS = re.compile(rb"<(?:[\w.-]+:)?(row|c)\b([^>]*?)(/?)>")  # with or without a namespace prefix
_POSITION = re.compile(rb"""\sr\s*=\s*["']([A-Z]*)([0-9]+)["']""")


def _check_xlsx_extent(archive: zipfile.ZipFile, name: str) -> None:
    """An xlsx sheet's extent, read from its XML before calamine reads it: calamine sets out the
    rectangle up to its last cell with a value at once, so that a 5 KB file with a value at
    XFD1048576 would ask for half a terabyte and end the process."""
    member = _xlsx_member(archive, name)
    if member is None:
        return
    row = column = last_row = last_column = 0
    for found in _XLSX_CELLS.finditer(archive.read(member)):
        tag, attributes, empty = found.groups()
        position = _POSITION.search(attributes)
        if tag == b"row":
            row, column = int(position.group(2)) if position else row + 1, 0
            continue
        column = _column_number(position.group(1)) if position and position.group(1) else column + 1
        row = int(position.group(2)) if position else row
        if not empty:  # a cell with a value (a cell of style alone is empty: calamine sets out none)
            last_row, last_column = max(last_row, row), max(last_column, column)
    _check_extent(name, last_row, last_column)


def _xlsx_member(archive: zipfile.ZipFile, name: str) -> str | None:
    """The zip member holding an xlsx workbook's sheet of that name (None: not an xlsx, or the sheet
    is not where its workbook says, which calamine then reports)."""
    try:
        book = ElementTree.fromstring(archive.read("xl/workbook.xml"))
        links = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    except (KeyError, ElementTree.ParseError):
        return None
    targets = {link.get("Id"): link.get("Target", "") for link in links}
    for sheet in book.iter(f"{_MAIN}sheet"):
        if sheet.get("name") == name:
            target = targets.get(sheet.get(f"{_RELATIONSHIPS}id"), "")
            member = target.lstrip("/") if target.startswith("/") else posixpath.normpath(f"xl/{target}")
            return member if member in archive.namelist() else None
    return None


_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_RELATIONSHIPS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"


def _column_number(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + letter - ord("A") + 1
    return number


def _check_unzipped(data: bytes) -> zipfile.ZipFile:
    """Unpack every member within MAX_UNZIPPED_BYTES in all (whatever sizes the zip claims); the
    zip, to read members of."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
        if len(members) > MAX_MEMBERS:
            raise BadWorkbook(f"holds {len(members)} files; a workbook cardgen reads holds at most {MAX_MEMBERS}")
        left = MAX_UNZIPPED_BYTES
        for member in members:
            with archive.open(member) as stream:
                while chunk := stream.read(min(1 << 20, left + 1)):
                    left -= len(chunk)
                    if left < 0:
                        raise BadWorkbook(f"unpacks to more than {MAX_UNZIPPED_BYTES // 1_000_000} MB: cardgen "
                                          "reads no larger workbook")
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, ValueError) as exc:
        raise BadWorkbook(f"is not a workbook (not a zip file: {exc})") from None
    return archive


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

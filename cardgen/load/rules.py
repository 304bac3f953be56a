"""load/rules: rules.md's shape, checked before the documents lay it out."""
from __future__ import annotations

import re
from pathlib import Path

from cardgen.inputs.files import UnreadableInput, read_input
from cardgen.load.reader import Reader, leads_out
from cardgen.model.game import ERROR, Finding
from cardgen.model.where import Where

# rules.md's shape: each heading is a numbered part of the rulebook with its own table of
# contents line, and each table column a box the layout sizes against every other: both cost
# far more than prose (55,000 headings took minutes, a 40,000-column table over a minute).
MAX_RULES_HEADINGS = 300


MAX_TABLE_COLUMNS = 30


_MARKDOWN_HEADING = re.compile(r"^ {0,3}#{1,6}(\s|$)")


_TABLE_DELIMITER = re.compile(r"^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$")


def check_rules_shape(reader: Reader, text: str) -> None:
    """Too many headings, or a table too wide, is an error at the line that passes the limit."""
    headings = 0
    for number, line in enumerate(text.splitlines(), 1):
        if _MARKDOWN_HEADING.match(line):
            headings += 1
            if headings == MAX_RULES_HEADINGS + 1:
                reader.findings.append(Finding(
                    ERROR, "too-many-headings", f"rules.md has more than {MAX_RULES_HEADINGS} headings",
                    Where(reader.name, number, 1), "a rulebook part needs more than a heading: merge sections"))
        elif "-" in line and _TABLE_DELIMITER.match(line):
            columns = line.strip().strip("|").count("|") + 1
            if columns > MAX_TABLE_COLUMNS:
                reader.findings.append(Finding(
                    ERROR, "table-too-wide", f"the table has {columns} columns; the limit is {MAX_TABLE_COLUMNS}",
                    Where(reader.name, number, 1), "split the table: a page is not wide enough for it anyway"))


MAX_RULES_BYTES = 300_000  # rules.md: about 80 pages of rulebook prose, laid out in well under a minute


def read_rules(folder: Path, path: Path) -> tuple[str, list[Finding]]:
    """The rules' Markdown (rules.md, rules.de.md), or "" with the findings that say why not."""
    reader = Reader(path)
    if leads_out(reader, folder):
        return "", reader.findings
    if path.stat().st_size > MAX_RULES_BYTES:
        reader.error(None, "file-too-large", f"{path.name} is larger than {MAX_RULES_BYTES} bytes",
                     "a rulebook that long would take minutes to lay out: shorten it")
        return "", reader.findings
    try:
        text = read_input(path, MAX_RULES_BYTES).decode("utf-8")
    except UnreadableInput as exc:
        reader.error(None, "file-unreadable", f"{path.name} {exc}")
    except UnicodeDecodeError:
        reader.error(None, "file-encoding", f"{path.name} is not UTF-8 text", "save it as UTF-8")
    else:
        check_rules_shape(reader, text)
    return ("" if reader.findings else text), reader.findings

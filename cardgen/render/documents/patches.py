"""render/documents/patches: what cardgen lays over WeasyPrint and pydyf to make the same PDF in
less time, each for the exact version it was written against (any other keeps its own code):

- the column balancing (columns.py, WeasyPrint 70.0);
- the lines WeasyPrint splits text into, kept for the document (WeasyPrint 70.0): it lays the
  same text out at the same width again and again (each try of the column balancing, a table's
  cells measured, then laid out), and `split_first_line` gives the same answer for the same text,
  style and room: a copy of the first answer is given again;
- pydyf 0.13.0's `page_references`, which builds the references of every page each time it is
  read (WeasyPrint reads it for every tagged element: quadratic in the pages), built once for
  each list of pages.

`install` puts them in place; `lines_kept` scopes the kept lines to one document; inside
`left_out`, the libraries run their own code.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cardgen.render.documents import columns

WEASYPRINT_VERSION = "70.0"  # the version whose split_first_line the lines' cache wraps
PYDYF_VERSION = "0.13.0"  # the version whose page_references is replaced


def install() -> None:
    """Every patch whose library is at the version it was written for (none inside `left_out`)."""
    import pydyf
    import weasyprint
    import weasyprint.layout.inline
    import weasyprint.layout.preferred

    if _LEFT_OUT:
        return
    columns.install()
    if weasyprint.__version__ == WEASYPRINT_VERSION:
        if _LINES.original is None:
            _LINES.original = weasyprint.layout.inline.split_first_line
        weasyprint.layout.inline.split_first_line = _LINES.split_first_line
        weasyprint.layout.preferred.split_first_line = _LINES.split_first_line
    if pydyf.__version__ == PYDYF_VERSION and pydyf.PDF.page_references is not page_references:
        _PYDYF["page_references"] = pydyf.PDF.page_references
        pydyf.PDF.page_references = page_references


_LEFT_OUT: list[bool] = []
_PYDYF: dict[str, Any] = {}  # what the patches replaced in pydyf


@contextmanager
def left_out() -> Iterator[None]:
    """Inside, WeasyPrint and pydyf run their own code, as if cardgen had never patched them (to
    compare: the tests, the benches); after, as before."""
    import pydyf
    import weasyprint.layout.block
    import weasyprint.layout.column
    import weasyprint.layout.inline
    import weasyprint.layout.preferred
    import weasyprint.text.line_break

    places = [(weasyprint.layout.block, "columns_layout", weasyprint.layout.column.columns_layout),
              (weasyprint.layout.inline, "split_first_line", weasyprint.text.line_break.split_first_line),
              (weasyprint.layout.preferred, "split_first_line", weasyprint.text.line_break.split_first_line),
              (pydyf.PDF, "page_references", _PYDYF.get("page_references", pydyf.PDF.page_references))]
    saved = [getattr(place, name) for place, name, _ in places]
    _LEFT_OUT.append(True)
    try:
        for place, name, own in places:
            setattr(place, name, own)
        yield
    finally:
        _LEFT_OUT.pop()
        for (place, name, _), value in zip(places, saved):
            setattr(place, name, value)


# --------------------------------------------------------------------------- lines


class _Lines:
    """WeasyPrint's split_first_line, each answer kept while a document is laid out (`lines_kept`)."""

    def __init__(self) -> None:
        self.original: Any = None
        self.kept: dict[tuple, tuple] | None = None  # None: outside a document, nothing kept

    def split_first_line(self, text: str, style: Any, context: Any, max_width: Any, justification_spacing: Any,
                         is_line_start: bool = True, minimum: bool = False) -> tuple:
        kept = self.kept
        if kept is None:
            return self.original(text, style, context, max_width, justification_spacing, is_line_start, minimum)
        # the style by identity, and kept with the answer: no other style can take its id meanwhile
        key = (text, id(style), id(context), max_width, justification_spacing, is_line_start, minimum)
        answer = kept.get(key)
        if answer is None:
            layout, *rest = self.original(text, style, context, max_width, justification_spacing,
                                          is_line_start, minimum)
            answer = kept[key] = (_copy(layout), tuple(rest), style, context)
        layout, rest, _, _ = answer
        return (_copy(layout), *rest)


def _copy(layout: Any) -> Any:
    """A copy of a laid-out line's Layout (its Pango layout already let go: plain values only),
    so that no one who draws it (and may set its text) changes the one kept."""
    copied = object.__new__(type(layout))
    copied.__dict__.update(layout.__dict__)
    return copied


_LINES = _Lines()


@contextmanager
def lines_kept() -> Iterator[None]:
    """Inside, split_first_line's answers are kept and given again (one document's layout)."""
    outer = _LINES.kept
    _LINES.kept = {}
    try:
        yield
    finally:
        _LINES.kept = outer


# --------------------------------------------------------------------------- pydyf


@property  # type: ignore[misc]
def page_references(pdf: Any) -> tuple[bytes, ...]:
    """pydyf 0.13.0's PDF.page_references (the reference of each page, b'12 0 R'), built again
    only when the pages are not those it was built for."""
    numbers = tuple(pdf.pages["Kids"][::3])
    built = pdf.__dict__.get("_cardgen_page_references")
    if built is None or built[0] != numbers:
        built = pdf.__dict__["_cardgen_page_references"] = (
            numbers, tuple(f"{number} 0 R".encode("ascii") for number in numbers))
    return built[1]

"""render/pdfpages: the one place a PDF is opened in pypdfium2, to count its pages and rasterise
them (the sheets' PNG pages, the export and diagram images, the playtest diff's faces, the cheat
sheet's fit and the live preview's pictures) or to read where its characters are (preflight)."""
from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from PIL import Image

if TYPE_CHECKING:
    import pypdfium2

# pypdfium2 is not thread-safe (the live preview draws from several threads): one document at a
# time in a process; re-entrant, so that a caller may count pages while it walks them. A worker
# forked while another thread held it starts with it free.
_PDFIUM = threading.RLock()


def _free_in_child() -> None:
    global _PDFIUM
    _PDFIUM = threading.RLock()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_free_in_child)


@contextmanager
def opened(pdf: bytes) -> Iterator[pypdfium2.PdfDocument]:
    """The PDF open in pypdfium2, alone in this process while the block runs."""
    import pypdfium2  # here, not at the top: `cardgen check` reaches this module and never opens a PDF

    with _PDFIUM:
        document = pypdfium2.PdfDocument(pdf)
        try:
            yield document
        finally:
            document.close()


def page_count(pdf: bytes) -> int:
    with opened(pdf) as document:
        return len(document)


def page_image(pdf: bytes, number: int, scale: float) -> Image.Image:
    """Page `number` (from 1) as an RGB image, `scale` pixels a point; IndexError when the PDF
    has no such page."""
    with opened(pdf) as document:
        if not 1 <= number <= len(document):
            raise IndexError(f"the PDF has {len(document)} pages, not a page {number}")
        return _rgb(document[number - 1], scale)


def page_images(pdf: bytes, scale: float) -> Iterator[Image.Image]:
    """Each page in turn as an RGB image, `scale` pixels a point: one page in memory at a time."""
    with opened(pdf) as document:
        for page in document:
            yield _rgb(page, scale)


def _rgb(page: pypdfium2.PdfPage, scale: float) -> Image.Image:
    return page.render(scale=scale).to_pil().convert("RGB")

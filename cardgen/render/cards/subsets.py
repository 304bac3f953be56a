"""render/cards/subsets: each embedded font subset of a ReportLab PDF named by a tag of its own (ISO
32000-1 9.6.4: six capital letters, then '+'), drawn from a hash of the subset's name and font
program: ReportLab names every font's first subset AAAAAA+. The same subset gets the same tag, so
the bytes stay the same. Done on ReportLab's document before it is written, not on the written file:
reading a thousand-page sheet back to rename six fonts cost more than drawing its faces."""
from __future__ import annotations

import hashlib

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

SUBSET_TAG = 6  # letters, then "+"


def save_tagged(canvas: Canvas) -> bytes:
    """The canvas's PDF, each font subset tagged first: the bytes ReportLab writes on `save`, kept
    as made (not copied through a file object: a large sheet is held once, not twice)."""
    document = canvas._doc
    for font in document.delayedFonts:  # the subsets used: their font, descriptor and program objects
        font.addObjects(document)
    document.delayedFonts = []
    for font in document.idToObject["BasicFonts"].dict.values():
        if isinstance(font, pdfdoc.PDFTrueTypeFont):
            _retag(document, font)
    return canvas.getpdfdata()


def _retag(document: pdfdoc.PDFDocument, font: pdfdoc.PDFTrueTypeFont) -> None:
    """The subset's tag in its font's BaseFont and its descriptor's FontName: a hash of its name
    after the tag and of its program (as made, before the file compresses it: compressing it a
    second time only to hash it cost more than the rest of the tagging)."""
    descriptor = document.idToObject[font.FontDescriptor.name]
    program = document.idToObject[descriptor.dict["FontFile2"].name]
    name = str(font.BaseFont)
    if not _is_subset(name):
        return
    digest = hashlib.sha256(name[SUBSET_TAG + 1:].encode("utf-8") + program.content).digest()
    tagged = "".join(chr(ord("A") + byte % 26) for byte in digest[:SUBSET_TAG]) + name[SUBSET_TAG:]
    font.BaseFont = tagged
    descriptor.dict["FontName"] = pdfdoc.PDFName(tagged)


def _is_subset(name: str) -> bool:
    tag = name[:SUBSET_TAG]
    return len(name) > SUBSET_TAG + 1 and name[SUBSET_TAG] == "+" and tag.isalpha() and tag.isupper()

"""render/compact: a ReportLab canvas that holds a long document compactly.

ReportLab keeps the content of every page and form as text until the file is written, then
deflates them all, builds each one's dictionaries, keeps every object and the bytes of each, and
joins those: a sheet of thousands of different cards is held several times over. This canvas
deflates each page as soon as it is finished; formats each form as soon as it is drawn, into a
temporary file (the forms are most of a sheet of different cards, and none is looked at again
until the file is written); and writes the file into one buffer, letting go of each object once
written. The file is the same, byte for byte: the same objects, compressed alike, in the same
order (tests/render/test_compact.py compares it with ReportLab's own)."""
from __future__ import annotations

import io
import tempfile
import zlib
from typing import IO, Any

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas


class Deflated(pdfdoc.PDFStream):
    """A content stream deflated when it was finished, written as ReportLab writes the streams it
    deflates itself (its dictionary, then /Filter and /Length)."""

    def __init__(self, content: bytes):
        super().__init__(content=zlib.compress(content))

    def format(self, document: pdfdoc.PDFDocument) -> bytes:
        dictionary = pdfdoc.PDFDictionary(self.dictionary.dict.copy())
        dictionary["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")])
        content = document.encrypt.encode(self.content)
        dictionary["Length"] = len(content)
        return pdfdoc.format(dictionary, document) + b"\nstream\n" + content + b"endstream\n"


class Spooled(pdfdoc.PDFObject):
    """An object formatted already, its bytes kept in a temporary file until the file is written."""

    def __init__(self, spool: IO[bytes], data: bytes):
        self.spool, self.offset, self.size = spool, spool.seek(0, io.SEEK_END), len(data)
        spool.write(data)

    def format(self, document: pdfdoc.PDFDocument) -> bytes:
        self.spool.seek(self.offset)
        return self.spool.read(self.size)


class _Named(pdfdoc.PDFObject):
    """An object written already, as later objects refer to it: by its name."""

    def __init__(self, name: str):
        setattr(self, pdfdoc.__InternalName__, name)


class CompactCanvas(Canvas):
    """A canvas whose pages are deflated and forms formatted as each is finished. Its documents
    are always compressed (ReportLab's pageCompression) and never ASCII85-encoded (as
    layout.reportlab_config sets ReportLab)."""

    def __init__(self, pagesize: tuple[float, float], **settings: Any):
        super().__init__(io.BytesIO(), pagesize=pagesize, invariant=1, pageCompression=1, **settings)
        self._spool = tempfile.TemporaryFile()

    def showPage(self) -> None:  # noqa: N802 (ReportLab's name)
        super().showPage()
        page = self._doc.Pages.pages[-1]
        page.Contents = Deflated(page.stream.encode("utf-8"))  # as ReportLab deflates a page's text
        page.stream = None

    def endForm(self, **extra_attributes: Any) -> None:  # noqa: N802
        name = pdfdoc.xObjectName(self._formData[0])
        super().endForm(**extra_attributes)
        document = self._doc
        form = document.idToObject[name]
        placed = form.XObjects.dict if form.XObjects else {}
        if all(other in document.idToObjectNumberAndVersion for other in placed):
            document.idToObject[name] = Spooled(self._spool, form.format(document))
        # else it places a form drawn after it: ReportLab formats it when the file is written

    def getpdfdata(self) -> bytes:
        """The PDF's bytes, as ReportLab's own getpdfdata makes them (GetPDFData, then format)."""
        if len(self._code):
            self.showPage()
        document = self._doc
        for font in document.delayedFonts:
            font.addObjects(document)
        document.delayedFonts = []
        document.info.invariant = document.invariant
        document.info.digest(document.signature)
        document.Reference(document.Catalog)
        document.Reference(document.info)
        document.Outlines.prepare(document, self)
        if document.Outlines.ready < 0:
            document.Catalog.Outlines = None
        with self._spool:
            return _written(document)


def _written(document: pdfdoc.PDFDocument) -> bytes:
    """The file ReportLab's PDFDocument.format makes: its objects in number order (formatting one
    may number more), then the cross-reference table and the trailer."""
    document.encrypt.prepare(document)
    catalog, info = document.Reference(document.Catalog), document.Reference(document.info)
    encryption = document.encrypt.info()
    encrypted = document.Reference(encryption) if encryption else None
    out = io.BytesIO()
    out.write(pdfdoc.PDFFile(document._pdfVersion).strings[0])  # ReportLab's header
    objects, ids, number = document.idToObject, [], 1
    pages = {getattr(page, pdfdoc.__InternalName__): index for index, page in enumerate(document.Pages.pages)}
    while number in document.numberToId:
        name = document.numberToId[number]
        document.idToOffset[name] = out.tell()
        out.write(pdfdoc.PDFIndirectObject(name, objects[name]).format(document))
        objects[name] = None  # written: its name stays known (the pages tree and the trailer refer to it)
        if name in pages:  # the pages tree, written later, refers to a page only by its name
            document.Pages.pages[pages[name]] = _Named(name)
        ids.append(name)
        number += 1
    xref = pdfdoc.PDFCrossReferenceTable()
    xref.addsection(0, ids)
    start = out.tell()
    out.write(xref.format(document))
    out.write(pdfdoc.PDFTrailer(startxref=start, Size=len(ids) + 1, Root=catalog, Info=info, ID=document.ID(),
                                Encrypt=encrypted).format(document))
    return out.getvalue()

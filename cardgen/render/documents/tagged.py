"""render/documents/tagged: what WeasyPrint's PDF/UA-1 output leaves to finish.

WeasyPrint tags the content by the HTML's elements. After it, in the PDF:
- the running heads and page numbers (CSS margin boxes), which WeasyPrint marks but leaves out of
  the structure tree, become artifacts, and so do the copies of a repeated block after its first
  (an `<article aria-hidden="true">`: the pocket cheat sheet's copies);
- every table header cell gets its scope (Row when the cells of its row name it, else Column);
- every link annotation says where it goes in its /Contents (the link's text, not an anchor id);
- each symbol of the symbol font reads as its name (the ToUnicode map), not a private-use code.
Same bytes in, same bytes out.
"""
from __future__ import annotations

import io
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pikepdf

_LINK_OR_ARTICLE = re.compile(r"<(?:a|article)(?![^\t\n\r\f />\x00])", re.IGNORECASE)  # as HTMLParser ends a tag's name
_MARKED = re.compile(rb"/\w+\n<</MCID (\d+)>>\nBDC")  # how WeasyPrint (pydyf) opens tagged content
_BFCHAR = re.compile(rb"<([0-9a-fA-F]{4})> <([0-9a-fA-F]{4})>")


class _Links(HTMLParser):
    """Each link's target and text, and whether each <article> is hidden (a repeated copy)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: dict[str, str] = {}
        self.hidden_articles: list[bool] = []
        self._open: list[tuple[str, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "a" and attributes.get("href"):
            self._open.append((attributes["href"] or "", []))
        if tag == "article":
            self.hidden_articles.append(attributes.get("aria-hidden") == "true")

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open:
            href, words = self._open.pop()
            self.texts.setdefault(href, " ".join("".join(words).split()))

    def handle_data(self, data: str) -> None:
        for _, words in self._open:
            words.append(data)


def finish_tagged(pdf_bytes: bytes, html: str, symbol_names: dict[str, str]) -> bytes:
    """The PDF with the artifacts, header scopes, link texts and symbol texts above."""
    import pikepdf  # here, not at the top: `cardgen check` reaches this module and makes no PDF

    links = _Links()
    if _LINK_OR_ARTICLE.search(html):  # else the parser finds nothing
        links.feed(html)
        links.close()
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        root = pdf.Root.StructTreeRoot
        _detach_repeats(root, links.hidden_articles)
        walked = list(_walk(root))  # the tree as it stays
        _mark_artifacts(pdf, {element.objgen for element, _ in walked})
        for row, cells in _rows(walked):
            _scope_headers(row, cells)
        _describe_links(pdf, links.texts)
        _name_symbols(pdf, symbol_names)
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True)
    return out.getvalue()


def _elements(parent: pikepdf.Object) -> Iterator[pikepdf.Dictionary]:
    """The structure elements under `parent`, in document order."""
    return (element for element, _ in _walk(parent))


def _walk(parent: pikepdf.Object) -> Iterator[tuple[pikepdf.Dictionary, int]]:
    """The structure elements under `parent`, in document order, each with its depth under it."""
    import pikepdf

    def kids_of(element: pikepdf.Object) -> list[pikepdf.Object]:
        kids = element.get("/K")
        return list(kids) if isinstance(kids, pikepdf.Array) else [kids] if kids is not None else []

    waiting = [(kid, 1) for kid in kids_of(parent)[::-1]]  # a stack, not recursion: trees are deep, and walked whole
    while waiting:
        kid, depth = waiting.pop()
        if isinstance(kid, pikepdf.Dictionary) and kid.get("/Type") == "/StructElem":
            yield kid, depth
            waiting += [(grandchild, depth + 1) for grandchild in kids_of(kid)[::-1]]


def _rows(walked: list[tuple[pikepdf.Dictionary, int]]) -> Iterator[tuple[pikepdf.Dictionary, list[pikepdf.Dictionary]]]:
    """Each table row (TR) of a walked tree, with the structure elements under it."""
    for index, (element, depth) in enumerate(walked):
        if element.get("/S") == "/TR":
            end = index + 1
            while end < len(walked) and walked[end][1] > depth:
                end += 1
            yield element, [cell for cell, _ in walked[index + 1:end]]


def _detach_repeats(root: pikepdf.Object, hidden: list[bool]) -> None:
    """Take the hidden copies out of the tree: the n-th Art element is the n-th <article> when
    no article was split between pages (then there are as many of each)."""
    import pikepdf

    if not any(hidden):
        return
    articles = [element for element in _elements(root) if element.get("/S") == "/Art"]
    if len(articles) != len(hidden):
        return
    for article, is_hidden in zip(articles, hidden):
        if is_hidden:
            parent = article.P
            parent.K = pikepdf.Array([kid for kid in parent.K if kid.objgen != article.objgen])


def _mark_artifacts(pdf: pikepdf.Pdf, reachable: set[tuple[int, int]]) -> None:
    """Content whose structure element is not in the tree becomes an artifact, page by page."""
    import pikepdf

    numbers = pdf.Root.StructTreeRoot.ParentTree.Nums
    for index, page in enumerate(pdf.pages):
        kept = numbers[2 * index + 1]
        loose = {mcid for mcid, element in enumerate(kept)
                 if isinstance(element, pikepdf.Dictionary) and element.objgen not in reachable}
        if not loose:
            continue
        numbers[2 * index + 1] = pikepdf.Array([pikepdf.Object.parse(b"null") if mcid in loose else element
                                                for mcid, element in enumerate(kept)])
        contents = page.obj.Contents
        for stream in contents if isinstance(contents, pikepdf.Array) else [contents]:
            data = stream.read_bytes()
            stream.write(_MARKED.sub(lambda m: b"/Artifact\nBMC" if int(m.group(1)) in loose else m.group(0), data))


def _scope_headers(row: pikepdf.Dictionary, cells: list[pikepdf.Dictionary]) -> None:
    """Each header cell of a row (`cells`: the elements under it) gets its scope."""
    import pikepdf

    named = {str(header) for cell in cells if cell.get("/S") == "/TD"
             for header in cell.get("/A", pikepdf.Dictionary()).get("/Headers", pikepdf.Array())}
    for cell in cells:
        if cell.get("/S") == "/TH":
            attributes = cell.get("/A") or pikepdf.Dictionary(O=pikepdf.Name.Table)
            attributes.Scope = pikepdf.Name.Row if str(cell.get("/ID", "")) in named else pikepdf.Name.Column
            cell.A = attributes


def _describe_links(pdf: pikepdf.Pdf, texts: dict[str, str]) -> None:
    import pikepdf

    for page in pdf.pages:
        for annotation in page.obj.get("/Annots", []):
            if annotation.get("/Subtype") != "/Link":
                continue
            target = f"#{annotation.Dest}" if "/Dest" in annotation else str(annotation.get("/A", pikepdf.Dictionary()).get("/URI", ""))
            annotation.Contents = pikepdf.String(texts.get(target) or target.lstrip("#"))


def _name_symbols(pdf: pikepdf.Pdf, names: dict[str, str]) -> None:
    """The symbol font's characters read as the symbols' names (copied text, screen readers)."""
    import pikepdf

    done: set[tuple[int, int]] = set()
    for page in pdf.pages:
        for font in page.obj.get("/Resources", pikepdf.Dictionary()).get("/Font", pikepdf.Dictionary()).values():
            cmap = font.get("/ToUnicode")
            if cmap is None or cmap.objgen in done:
                continue
            done.add(cmap.objgen)
            data = cmap.read_bytes()
            named = _BFCHAR.sub(lambda m: _bfchar(m, names), data)
            if named != data:
                cmap.write(named)


def _bfchar(match: re.Match[bytes], names: dict[str, str]) -> bytes:
    name = names.get(chr(int(match.group(2), 16)))
    if name is None:
        return match.group(0)
    return b"<" + match.group(1) + b"> <" + name.encode("utf-16-be").hex().encode() + b">"

"""Hostile PDFs for `cardgen preflight`, built small: each asks a reader for far more work than
its size (nested forms, pages, operators), or breaks one rule of PDF a reader may trust."""
from __future__ import annotations

import io
import zlib
from collections.abc import Callable

import pikepdf

PAGE = (0, 0, 200, 200)


def saved(pdf: pikepdf.Pdf, **options) -> bytes:
    out = io.BytesIO()
    pdf.save(out, compress_streams=True, deterministic_id="encryption" not in options, **options)
    return out.getvalue()


def one_page(content: bytes, resources: dict | None = None, **keys) -> pikepdf.Pdf:
    """A PDF of one 200 pt page drawing `content` with `resources` (made by a function of the PDF)."""
    pdf = pikepdf.new()
    page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=pikepdf.Array(PAGE), **keys)
    pdf.pages.append(pikepdf.Page(page))
    pdf.pages[0].obj.Contents = pdf.make_stream(content)
    pdf.pages[0].obj.Resources = pikepdf.Dictionary(resources or {})
    return pdf


def form(pdf: pikepdf.Pdf, content: bytes, **keys) -> pikepdf.Stream:
    stream = pdf.make_stream(content)
    stream.Type, stream.Subtype = pikepdf.Name.XObject, pikepdf.Name.Form
    for key, value in {"BBox": pikepdf.Array(PAGE), **keys}.items():
        if value is not None:
            stream[f"/{key}"] = value
    return stream


def postscript_before_the_header() -> bytes:
    """PostScript that loops for ever, then a PDF: ghostscript's `run` would interpret the loop."""
    return b"%!PS\n{} loop\n" + saved(one_page(b"0 0 0 1 k 10 10 50 50 re f\n"))


def postscript_only() -> bytes:
    return b"%!PS\n{} loop\n" + b"%" * 2000 + b"\n%PDF-1.4\n"


def nested_forms(levels: int = 8, copies: int = 12) -> bytes:
    """Forms each placing the next `copies` times: copies ** levels placements from 2 KB."""
    pdf = one_page(b"")
    inner = form(pdf, b"0 0 0 1 k 0 0 1 1 re f\n")
    for _ in range(levels):
        body = b"".join(b"q 0.9 0 0 0.9 %d 0 cm /F Do Q\n" % i for i in range(copies))
        inner = form(pdf, body, Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=inner)))
    pdf.pages[0].obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(F=inner))
    pdf.pages[0].obj.Contents = pdf.make_stream(b"/F Do\n")
    return saved(pdf, object_stream_mode=pikepdf.ObjectStreamMode.generate)


def many_pages(count: int = 10_000) -> bytes:
    """`count` pages that inherit their box, content and resources from the page tree (a few
    bytes a page, compressed)."""
    pdf = one_page(b"")
    tree = pdf.Root.Pages
    tree.MediaBox, tree.Resources = pikepdf.Array(PAGE), pikepdf.Dictionary()
    content = pdf.make_stream(b"0 0 0 1 k 0 0 200 200 re f\n")
    tree.Kids = pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Page, Parent=tree,
                                                                    Contents=content)) for _ in range(count)])
    tree.Count = count
    return saved(pdf, object_stream_mode=pikepdf.ObjectStreamMode.generate)


def million_saves() -> bytes:
    """A million `q` (graphics states saved, never restored): 2 MB of content, 2.5 KB compressed."""
    return saved(one_page(b"q\n" * 1_000_000))


def million_pairs() -> bytes:
    """A million `q Q` pairs: never deep, but long."""
    return saved(one_page(b"q Q\n" * 1_000_000))


def a_content_bomb() -> bytes:
    """Content that inflates to 80 MB of spaces (past the budget) from 80 KB."""
    pdf = one_page(b"")
    pdf.pages[0].obj.Contents.write(zlib.compress(b" " * (80 << 20)), filter=pikepdf.Name.FlateDecode)
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True, stream_decode_level=pikepdf.StreamDecodeLevel.none)
    return out.getvalue()


def _image(pdf: pikepdf.Pdf, **keys) -> pikepdf.Stream:
    image = pdf.make_stream(b"\x00" * 16)
    image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    image.BitsPerComponent, image.ColorSpace = 8, pikepdf.Name.DeviceGray
    for key, value in keys.items():
        if value is None and f"/{key}" in image:
            del image[f"/{key}"]
        elif value is not None:
            image[f"/{key}"] = value
    return image


def with_xobject(make: Callable[[pikepdf.Pdf], pikepdf.Stream], content: bytes = b"q 100 0 0 100 0 0 cm /X Do Q\n"):
    pdf = one_page(content)
    pdf.pages[0].obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(X=make(pdf)))
    return saved(pdf)


def password_protected() -> bytes:
    return saved(one_page(b"0 0 0 1 k 0 0 10 10 re f\n"), encryption=pikepdf.Encryption(owner="o", user="u", R=4))


def unreadable_by_ghostscript() -> bytes:
    """A form the page does not have: the walk passes over it, ghostscript (stopping on errors)
    refuses the page."""
    return saved(one_page(b"0 0 0 1 k /Nope Do 0 0 10 10 re f\n"))


HOSTILE: dict[str, Callable[[], bytes]] = {
    "postscript before the header": postscript_before_the_header,
    "postscript only": postscript_only,
    "nested forms (12 ** 8 placements)": nested_forms,
    "10,000 pages": many_pages,
    "a million q": million_saves,
    "a million q Q": million_pairs,
    "content inflating to 80 MB": a_content_bomb,
    "'1 2 cm'": lambda: saved(one_page(b"1 2 cm 0 0 10 10 re f\n")),
    "'/Foo w'": lambda: saved(one_page(b"/Foo w 0 0 m 10 10 l S\n")),
    "an image without /Width": lambda: with_xobject(lambda pdf: _image(pdf, Width=None, Height=4)),
    "a form without /BBox": lambda: with_xobject(lambda pdf: form(pdf, b"0 0 1 1 re f\n", BBox=None)),
    "a three-number /Matrix": lambda: with_xobject(lambda pdf: form(pdf, b"0 0 1 1 re f\n",
                                                                     Matrix=pikepdf.Array([1, 0, 0]))),
    "an ICCBased color space without /N": lambda: with_xobject(lambda pdf: _image(
        pdf, Width=4, Height=4, ColorSpace=pikepdf.Array([pikepdf.Name.ICCBased, pdf.make_stream(b"")]))),
    "a password": password_protected,
    "ghostscript failing": unreadable_by_ghostscript,
    "not a PDF at all": lambda: b"%PDF-1.4\nnothing else\n",
}

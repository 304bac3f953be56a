"""images: every image from a game folder is checked where it enters, by this one check, and the
bytes checked are the bytes drawn: card art, Markdown images, CSS url(), an SVG's <image>, and
(with the symbols' extra rules) symbols.

Raster images are refused when too large, decompression bombs (few bytes, huge pixel counts),
truncated or corrupt, when their content does not match their extension (a text file or a JPEG
named .png), or when their pixels are of a mode the card renderer cannot print. SVG images are
refused when their drawing would cost more than any real picture does: too many elements
(counting each <use> as the elements it repeats), too many path points, <use> references nested
too deep or in a loop, or sizes that are not finite numbers.
"""
from __future__ import annotations

import io
import math
import os
import re
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.errors import BuildError
from cardgen.inputs.files import UnreadableInput, read_input
from cardgen.inputs.paths import game_roots, local_file

if TYPE_CHECKING:  # the parsers themselves are imported where used: `cardgen --version` reads no image
    from xml.etree.ElementTree import Element

    from PIL.Image import Image

MAX_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 50_000_000
MAX_SVG_BYTES = 1024 * 1024
MAX_SVG_ELEMENTS = 5000  # after <use> expansion
MAX_SVG_NUMBERS = 100_000  # numbers in path data and point lists
MAX_USE_DEPTH = 8
MAX_SVG_SIZE = 1e6  # viewBox, width and height, in user units
FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}
SVG = ".svg"
HINT = "use a PNG or JPEG image of at most 50 megapixels, saved again by an image editor"
# Pixel modes ReportLab draws as they are (gray, palette with or without transparency, alpha,
# CMYK JPEGs as DeviceCMYK), and 16-bit gray, which it would draw white: scaled to 8 bits first.
MODES = frozenset({"1", "L", "LA", "P", "RGB", "RGBA", "CMYK"})
WIDE_GRAY = frozenset({"I;16", "I;16B", "I;16L", "I"})
SVG_HINT = "simplify the drawing (fewer elements and points, no deeply nested <use>) or export it as a PNG"
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:inf|nan)", re.I)
_CACHED_BYTES = 256 * 1024 * 1024  # images kept checked, so art is read once per process


class BadImage(ValueError):
    """What is wrong with an image (its path is not in the message: callers name it); `hint` says what to do."""

    def __init__(self, message: str, hint: str = HINT):
        super().__init__(message)
        self.hint = hint


def checked(path: str | os.PathLike[str], roots: Iterable[str | os.PathLike[str]]) -> bytes:
    """The bytes of the image file at path (.png, .jpg, .jpeg or .svg), read once and checked;
    BadImage says why it may not be drawn. A file already checked and unchanged is not read again."""
    path = Path(path)
    suffix = path.suffix.lower()
    wrong = wrong_extension(path)
    if wrong:
        raise BadImage(wrong)
    try:
        info = path.stat()
        key = (str(path.resolve()), info.st_ino, info.st_mtime_ns, info.st_size)
    except (OSError, ValueError):
        key = None
    if key in _checked:
        _checked.move_to_end(key)
        return _checked[key]
    try:
        data = read_input(path, MAX_SVG_BYTES if suffix == SVG else MAX_BYTES, tuple(roots))
    except UnreadableInput as exc:
        raise BadImage(str(exc)) from None
    if suffix == SVG:
        svg_check(data.decode("utf-8", errors="replace"))
    else:
        raster_check(data, FORMATS[suffix])
    if key is not None:
        _checked[key] = data
        while sum(map(len, _checked.values())) > _CACHED_BYTES and len(_checked) > 1:
            _checked.popitem(last=False)
    return data


def wrong_extension(path: str | os.PathLike[str], drawings: bool = True) -> str | None:
    """Why a file of this name is no image cardgen reads, or None: PNG, JPEG and, with `drawings`,
    SVG (documents and symbols draw them; a card face draws pictures alone, as its art)."""
    suffix = Path(path).suffix
    allowed = [*FORMATS, SVG] if drawings else list(FORMATS)
    if suffix.lower() in allowed:
        return None
    return f"has the extension '{suffix}': only {', '.join(allowed[:-1])} and {allowed[-1]} images can be used"


_checked: OrderedDict[tuple[str, int, int, int] | None, bytes] = OrderedDict()


def checked_url(url: str, game_folder: str | os.PathLike[str], origin: str) -> bytes:
    """The image a document names by URL (a Markdown image): the local file it points to
    (paths.local_file), checked; BuildError naming the URL and where it is from."""
    try:
        return checked(local_file(url, game_folder, origin), game_roots(game_folder))
    except BadImage as exc:
        raise BuildError(f"image '{url}' (from {origin}) {exc}", hint=exc.hint) from None


def raster_check(data: bytes, expected: str) -> None:
    """Refuse a PNG or JPEG that is empty, a bomb, corrupt or not of the format its name says."""
    from PIL import Image

    if not data:
        raise BadImage("is empty")
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format != expected:
                raise BadImage(f"is {image.format or 'not an image'} inside, not {expected} as its name says")
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise BadImage(f"is {width}x{height} pixels, too large (decompression bomb?)")
            if image.mode not in MODES | WIDE_GRAY:
                raise BadImage(f"has {image.mode} pixels, which cards cannot print: save it as 8-bit RGB")
            image.verify()
        with Image.open(io.BytesIO(data)) as image:  # verify() does not decode: load the pixels to find truncation
            image.load()
    except BadImage:
        raise
    except Image.DecompressionBombError:
        raise BadImage("is too large (decompression bomb)") from None
    except Exception as exc:  # Pillow reports broken files with many exception types
        raise BadImage(f"is not a valid image ({exc.__class__.__name__}: {exc})") from None


def svg_check(text: str, max_elements: int = MAX_SVG_ELEMENTS, max_numbers: int = MAX_SVG_NUMBERS) -> Element:
    """Parse an SVG and refuse one whose drawing would cost more than a picture should; the root
    element. DOCTYPE and entities are refused before parsing (they could expand without end)."""
    import xml.etree.ElementTree as ElementTree

    if re.search(r"<!DOCTYPE|<!ENTITY", text, re.I):
        raise BadImage("has a DOCTYPE or entities, which SVG images may not use", SVG_HINT)
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        raise BadImage(f"is not readable XML ({exc})", SVG_HINT) from None
    _check_sizes(root)
    elements = list(root.iter())
    numbers = sum(len(_NUMBER.findall(e.get(name, ""))) for e in elements for name in ("d", "points"))
    if numbers > max_numbers:
        raise BadImage(f"has {numbers} numbers in its paths and point lists; the limit is {max_numbers}", SVG_HINT)
    if _expanded_size(root, elements, max_elements) > max_elements:
        raise BadImage(f"has more than {max_elements} elements once each <use> is expanded", SVG_HINT)
    return root


def _check_sizes(root: Element) -> None:
    for name in ("viewBox", "width", "height"):
        for raw in _NUMBER.findall(root.get(name, "")):
            value = float(raw)
            if not math.isfinite(value) or abs(value) > MAX_SVG_SIZE:
                raise BadImage(f"has {name}=\"{root.get(name)}\": sizes must be numbers up to {MAX_SVG_SIZE:g}",
                               SVG_HINT)


def _expanded_size(root: Element, elements: list[Element], limit: int) -> int:
    """The number of elements drawn, each <use> counted as the elements it repeats."""
    by_id = {e.get("id"): e for e in elements if e.get("id")}
    sizes: dict[int, int] = {}

    def size(element: Element, depth: int, chain: tuple[Element, ...]) -> int:
        if id(element) in sizes:
            return sizes[id(element)]
        total = 1
        if element.tag.rsplit("}", 1)[-1] == "use":
            target = by_id.get(_use_target(element))
            if target is not None:
                if target in chain:
                    raise BadImage("has <use> elements that refer to each other in a loop", SVG_HINT)
                if depth >= MAX_USE_DEPTH:
                    raise BadImage(f"has <use> elements nested more than {MAX_USE_DEPTH} deep", SVG_HINT)
                total += size(target, depth + 1, chain + (target,))
        for child in element:
            total += size(child, depth, chain)
            if total > limit:
                break
        sizes[id(element)] = total = min(total, limit + 1)
        return total

    try:
        return size(root, 0, ())
    except RecursionError:
        raise BadImage("has elements nested too deep", SVG_HINT) from None


def _use_target(element: Element) -> str:
    for name, value in element.attrib.items():
        if name.rsplit("}", 1)[-1] == "href" and value.startswith("#"):
            return value[1:]
    return ""


def pixel_size(path: str | os.PathLike[str], roots: Iterable[str | os.PathLike[str]]) -> tuple[int, int]:
    """An image's width and height in pixels, from the bytes checked() accepts (BadImage if not)."""
    from PIL import Image

    with Image.open(io.BytesIO(checked(path, roots))) as image:
        size: tuple[int, int] = image.size
        return size


def drawable(data: bytes) -> io.BytesIO | Image:
    """What the card renderer draws for the bytes of an image checked() accepted: the bytes, or
    for 16-bit gray its pixels scaled to 8 bits (ReportLab would clip them to white)."""
    from PIL import Image

    image = Image.open(io.BytesIO(data))
    if image.mode not in WIDE_GRAY:
        return io.BytesIO(data)
    return _eight_bit(image)


def document_image(data: bytes) -> bytes:
    """What the documents are given for the bytes of a PNG or JPEG checked() accepted: the bytes,
    or for 16-bit gray a PNG of its pixels scaled to 8 bits (WeasyPrint's reader knows no I;16)."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        if image.mode not in WIDE_GRAY:
            return data
        scaled = io.BytesIO()
        _eight_bit(image).save(scaled, "PNG")
        return scaled.getvalue()


def _eight_bit(image: Image) -> Image:
    return image.convert("I").point(lambda value: value * (1 / 257)).convert("L")

"""images: raster images from a game folder are checked before anything renders them.

Refused: files that are too large, decompression bombs (few bytes, huge pixel counts), truncated
or corrupt files, files whose content does not match their extension (a text file or a JPEG
named .png) and pixel modes the card renderer cannot print. SVG files are left to the renderers,
which read them through the sandboxed fetcher.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

MAX_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 50_000_000
FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}
HINT = "use a PNG or JPEG image of at most 50 megapixels, saved again by an image editor"
# Pixel modes ReportLab draws as they are (gray, palette with or without transparency, alpha,
# CMYK JPEGs as DeviceCMYK), and 16-bit gray, which it would draw white: scaled to 8 bits first.
MODES = frozenset({"1", "L", "LA", "P", "RGB", "RGBA", "CMYK"})
WIDE_GRAY = frozenset({"I;16", "I;16B", "I;16L", "I"})


def problem(path: Path) -> str | None:
    """What is wrong with the image at path, or None if it may be rendered."""
    path = Path(path)
    return _problem(path, path.stat().st_mtime_ns if path.exists() else 0)


@lru_cache(maxsize=256)
def _problem(path: Path, _mtime: int) -> str | None:
    from PIL import Image

    if not path.is_file():
        return "is not a file"
    expected = FORMATS.get(path.suffix.lower())
    if expected is None:
        return f"has the extension '{path.suffix}': only .png, .jpg and .jpeg images can be used"
    size = path.stat().st_size
    if size == 0:
        return "is empty"
    if size > MAX_BYTES:
        return f"is larger than {MAX_BYTES // (1024 * 1024)} MB"
    try:
        with Image.open(path) as image:
            if image.format != expected:
                return f"is {image.format or 'not an image'} inside, not {expected} as its name says"
            width, height = image.size
            if width * height > MAX_PIXELS:
                return f"is {width}x{height} pixels, too large (decompression bomb?)"
            if image.mode not in MODES | WIDE_GRAY:
                return f"has {image.mode} pixels, which cards cannot print: save it as 8-bit RGB"
            image.verify()
        with Image.open(path) as image:  # verify() does not decode: load the pixels to find truncation
            image.load()
    except Image.DecompressionBombError:
        return "is too large (decompression bomb)"
    except Exception as exc:  # Pillow reports broken files with many exception types
        return f"is not a valid image ({exc.__class__.__name__}: {exc})"
    return None


def pixel_size(path: Path) -> tuple[int, int]:
    """An image's width and height in pixels (an image problem() accepted)."""
    from PIL import Image

    with Image.open(path) as image:
        return image.size


def drawable(path: Path):
    """What the card renderer draws for an image problem() accepted: the file itself, or for
    16-bit gray its pixels scaled to 8 bits (ReportLab would clip them to white)."""
    from PIL import Image

    with Image.open(path) as image:
        if image.mode not in WIDE_GRAY:
            return str(path)
        return image.convert("I").point(lambda value: value * (1 / 257)).convert("L")

"""images: raster images from a game folder are checked before anything renders them.

Refused: files that are too large, decompression bombs (few bytes, huge pixel counts), truncated
or corrupt files, and files whose content does not match their extension (a text file or a JPEG
named .png). SVG files are left to the renderers, which read them through the sandboxed fetcher.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

MAX_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 50_000_000
FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG"}
HINT = "use a PNG or JPEG image of at most 50 megapixels, saved again by an image editor"


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
            image.verify()
        with Image.open(path) as image:  # verify() does not decode: load the pixels to find truncation
            image.load()
    except Image.DecompressionBombError:
        return "is too large (decompression bomb)"
    except Exception as exc:  # Pillow reports broken files with many exception types
        return f"is not a valid image ({exc.__class__.__name__}: {exc})"
    return None

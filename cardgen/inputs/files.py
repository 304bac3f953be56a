"""files: every input file cardgen reads after loading (art, images, symbols, fonts, CSS) is read
here, once: a regular file only (a FIFO or a device named like a font would hang the build or
never end), up to a size limit, and checked to lie inside the allowed folders as the file
actually opened, not as the path said a moment earlier (a folder swapped for a symlink between
a check and the read cannot lead outside). Callers check the bytes returned and draw those.
"""
from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from cardgen.inputs.paths import inside

MAX_FONT_BYTES = 30 * 1024 * 1024


class UnreadableInput(ValueError):
    """A file that cannot be used as input; the message says why (no path: callers name the file)."""


def read_input(path: str | os.PathLike, limit: int, roots: Iterable[str | os.PathLike] | None = None) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (inside `roots` when given)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        raise UnreadableInput(f"cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableInput("is not a regular file (a folder, pipe or device cannot be read as input)")
        if info.st_size > limit:
            raise UnreadableInput(f"is larger than {_size(limit)}")
        if roots is not None and not inside(_opened_path(fd, path), roots):
            raise UnreadableInput("leads outside the game folder, templates/ and art/")
        data = _read_all(fd, limit)
    except OSError as exc:
        raise UnreadableInput(f"cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if len(data) > limit:  # the file grew while it was read
        raise UnreadableInput(f"is larger than {_size(limit)}")
    return data


def _read_all(fd: int, limit: int) -> bytes:
    chunks, size = [], 0
    while size <= limit:
        chunk = os.read(fd, min(1 << 20, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _opened_path(fd: int, path) -> str:
    """The path of the file behind an open descriptor (Linux); elsewhere the path it was opened by."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return str(Path(path).resolve())


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit // 1024} KB"

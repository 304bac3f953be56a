"""files: every input file cardgen reads after loading (art, images, symbols, fonts, CSS) is read
here, once: a regular file only (a FIFO or a device named like a font would hang the build or
never end), up to a size limit, and checked to lie inside the allowed folders as the file
actually opened, not as the path said a moment earlier (a folder swapped for a symlink between
a check and the read cannot lead outside). Callers check the bytes returned and draw those.
"""
from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from cardgen.inputs.paths import inside

MAX_FONT_BYTES = 30 * 1024 * 1024


class UnreadableInput(ValueError):
    """A file that cannot be used as input; the message says why (no path: callers name the file)."""


def read_input(path: str | os.PathLike[str], limit: int, roots: Iterable[str | os.PathLike[str]] | None = None) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (inside `roots` when given)."""
    with _regular_file(path, limit, roots) as fd:
        return b"".join(_chunks(fd, limit))


def input_digest(path: str | os.PathLike[str], limit: int | None = None) -> str:
    """The SHA-256 of a regular file's content (of at most `limit` bytes when given), read a
    megabyte at a time: a game folder may hold a file of any size."""
    digest = hashlib.sha256()
    with _regular_file(path, limit, None) as fd:
        for chunk in _chunks(fd, limit):
            digest.update(chunk)
    return digest.hexdigest()


def _chunks(fd: int, limit: int | None) -> Iterator[bytes]:
    """The file's content a megabyte at a time; UnreadableInput once it is past `limit` (a file
    that grew while it was read)."""
    size = 0
    while chunk := os.read(fd, 1 << 20 if limit is None else min(1 << 20, limit + 1 - size)):
        size += len(chunk)
        if limit is not None and size > limit:
            raise UnreadableInput(f"is larger than {_size(limit)}")
        yield chunk


@contextmanager
def _regular_file(path: str | os.PathLike[str], limit: int | None,
                  roots: Iterable[str | os.PathLike[str]] | None) -> Iterator[int]:
    """The file open for reading, if it is a regular one (never a pipe that would block) of at
    most `limit` bytes, inside `roots` when given; UnreadableInput saying why not."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the path
        raise UnreadableInput(f"cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableInput("is not a regular file (a folder, pipe or device cannot be read as input)")
        if limit is not None and info.st_size > limit:
            raise UnreadableInput(f"is larger than {_size(limit)}")
        if roots is not None and not inside(_opened_path(fd, path), roots):
            raise UnreadableInput("leads outside the game folder, templates/ and art/")
        yield fd
    except OSError as exc:
        raise UnreadableInput(f"cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)


def _opened_path(fd: int, path: str | os.PathLike[str]) -> str:
    """The path of the file behind an open descriptor (Linux); elsewhere the path it was opened by."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return str(Path(path).resolve())


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit // 1024} KB"


MANIFEST = "cardgen-manifest.json"  # marks a folder cardgen publishes outputs in
_NOT_INPUTS = (".git", ".hg", ".svn", "__pycache__")


def folder_files(root: Path, roots: Iterable[str | os.PathLike[str]]) -> Iterator[tuple[str, Path, str]]:
    """Every file under `root` a build may read, as (path relative to root, path, problem): dot
    files too, links to files and folders inside `roots` followed, never a link out of them, a
    file that is not a regular one, nor an output folder of cardgen's inside the game folder
    (its files are outputs, not inputs). `problem` says why a file cannot be an input ('' when
    it can); such a file is listed, not read."""
    yield from _files_under(root, Path(), [str(r) for r in roots], set())


def _files_under(folder: Path, relative: Path, roots: list[str], seen: set[str]) -> Iterator[tuple[str, Path, str]]:
    try:
        real = os.path.realpath(folder)
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    if real in seen or (folder / MANIFEST).is_file() and relative.parts:
        return
    seen.add(real)
    for entry in entries:
        if entry.name in _NOT_INPUTS or entry.name.startswith(".cardgen-"):
            continue
        path, name = folder / entry.name, (relative / entry.name).as_posix()
        problem = _link_problem(path, roots) if entry.is_symlink() else ""
        if problem:
            yield name, path, problem
        elif entry.is_dir(follow_symlinks=True):
            yield from _files_under(path, relative / entry.name, roots, seen)
        elif entry.is_file(follow_symlinks=True):
            yield name, path, ""
        elif os.path.lexists(path):
            yield name, path, "is not a regular file (a pipe, socket or device cannot be an input)"


def _link_problem(path: Path, roots: list[str]) -> str:
    target = os.path.realpath(path)
    if not os.path.exists(target):
        return ""  # a dangling link: nothing to read, and load reports a file it names
    if not inside(target, roots):
        return f"is a link to {os.readlink(path)}, outside the game folder, templates/ and art/"
    return ""


# --------------------------------------------------------------------------- writing


def atomic_write(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write bytes to path via a temp file in the same folder and an atomic rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600 files; outputs are for sharing
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current

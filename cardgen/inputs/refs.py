"""inputs/refs: an earlier version of a game folder to compare with (`cardgen diff --since REF`,
`cards --changed-since REF`, game.yaml's `changes_since:`): another game folder, a zip of one,
or a git revision of the repository that holds the game (read by inputs.gitrefs).

A zip or a revision is unpacked into a temporary folder under the same name as the game folder.
Every entry is checked before anything is written: names that would land outside the folder,
links, a file and a folder of one name, names too long for a file system, encrypted entries and
compression methods other than stored and deflate are refused, and so are archives larger than
the limits (their sizes and the zip's central directory are measured before anything is read)."""
from __future__ import annotations

import os
import struct
import tempfile
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from cardgen.inputs.gitrefs import git_files
from cardgen.inputs.unpack import BadRef, Unpacked, check_size, game_in

__all__ = ["BadRef", "Version", "earlier_version"]

ZIP_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}
MAX_CENTRAL_DIRECTORY = 10 * 1024 * 1024  # zipfile keeps an object per entry of it in memory
# what zipfile raises on a damaged archive, besides BadZipFile: a bad deflate stream, a truncated
# one, a name that is not UTF-8, a field out of range
_DAMAGED_ZIP = (zipfile.BadZipFile, zlib.error, EOFError, ValueError, struct.error, OverflowError,
                NotImplementedError, RuntimeError)


@dataclass(frozen=True)
class Version:
    """An earlier version of a game, unpacked: its folder, and the commit it was read from when
    it is a git revision (what depends on it is keyed by the commit, never by the name)."""

    folder: Path
    commit: str = ""


@contextmanager
def earlier_version(ref: str, game_folder: Path, git_only: bool = False) -> Iterator[Version]:
    """The game folder as it was at `ref`, for as long as the context lasts; only a git revision
    when `git_only` (a game's own data may not point at folders or files outside it)."""
    if not ref.strip():
        raise BadRef("an empty REF is not a git revision, a game folder or a zip")
    path = Path(ref)
    if not git_only and path.is_dir():
        yield Version(path)
        return
    with tempfile.TemporaryDirectory(prefix="cardgen-ref-") as temp:
        target = Path(temp) / game_folder.name
        if not git_only and path.is_file():
            yield Version(_unzipped(path, target))
        elif not git_only and os.path.lexists(path):
            raise BadRef(f"'{ref}' is neither a game folder nor a zip of one")
        else:
            commit, source = git_files(ref, game_folder, Unpacked(target, ref))
            yield Version(game_in(target, source), commit)


def _unzipped(path: Path, target: Path) -> Path:
    """The zip's game folder: the folder in it that holds game.yaml (the top or one level down)."""
    _check_central_directory(path)
    try:
        with zipfile.ZipFile(path) as archive:
            entries = archive.infolist()
            check_size(len(entries), sum(e.file_size for e in entries), str(path))
            for entry in entries:
                _check_entry(entry, path)
            folder = Unpacked(target, str(path))
            for entry in entries:
                destination = folder.add(entry.filename, entry.is_dir())
                if destination is not None:
                    with archive.open(entry) as source:
                        folder.write(destination, _chunks(source))
    except BadRef:
        raise
    except _DAMAGED_ZIP as exc:
        raise BadRef(f"{path} is not a zip cardgen can read ({exc or type(exc).__name__})") from None
    except OSError as exc:
        raise BadRef(f"{path} cannot be read ({exc.strerror or exc})") from None
    return game_in(target, str(path))


def _check_entry(entry: zipfile.ZipInfo, path: Path) -> None:
    if not entry.filename:
        raise BadRef(f"{path} holds an entry with no name; zip the game folder again")
    if entry.flag_bits & 0x1:
        raise BadRef(f"{path}: '{entry.filename}' is encrypted; a game's zip holds plain files")
    if entry.compress_type not in ZIP_METHODS:
        raise BadRef(f"{path}: '{entry.filename}' is compressed with method {entry.compress_type}; "
                     f"cardgen reads zips made with {' or '.join(ZIP_METHODS.values())} (as every zip tool makes)")
    if (entry.external_attr >> 16) & 0o170000 == 0o120000:
        raise BadRef(f"{path}: '{entry.filename}' is a link; a game's zip holds files only")


def _chunks(source: IO[bytes]) -> Iterator[bytes]:
    return iter(lambda: source.read(1 << 20), b"")


def _check_central_directory(path: Path) -> None:
    """Refuse a zip whose end record gives a central directory larger than a game's would be:
    zipfile reads all of it, an object per entry, before its entries can be counted."""
    try:
        with path.open("rb") as file:
            file.seek(0, os.SEEK_END)
            file.seek(max(0, file.tell() - _END_SEARCH))
            tail = file.read()
    except OSError as exc:
        raise BadRef(f"{path} cannot be read ({exc.strerror or exc})") from None
    sizes = list(_central_directory_sizes(tail))
    if not sizes:
        raise BadRef(f"'{path}' is neither a game folder nor a zip of one")
    if max(sizes) > MAX_CENTRAL_DIRECTORY:
        raise BadRef(f"{path}: its list of entries takes {max(sizes) // 1024} KB: more than a game's zip "
                     f"(up to {MAX_CENTRAL_DIRECTORY // (1024 * 1024)} MB)")


_END_SEARCH = 22 + 65535  # the end record and the longest comment after it


def _central_directory_sizes(tail: bytes) -> Iterable[int]:
    """The central directory size of every end record the tail of a file holds (zipfile picks
    one of them), with the zip64 record's size where one precedes it."""
    at = tail.find(b"PK\x05\x06")
    while 0 <= at <= len(tail) - 22:
        yield struct.unpack_from("<I", tail, at + 12)[0]
        if at >= 76 and tail[at - 20:at - 16] == b"PK\x06\x07" and tail[at - 76:at - 72] == b"PK\x06\x06":
            yield struct.unpack_from("<q", tail, at - 76 + 40)[0]
        at = tail.find(b"PK\x05\x06", at + 1)


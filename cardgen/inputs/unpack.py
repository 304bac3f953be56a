"""inputs/unpack: writing an archive's files (a zip's entries, a git tree's blobs) into a temporary
folder, each name checked first: inside the folder, no file and folder of one name, no file twice,
every part of a name short enough for any file system. Shared by inputs.refs and inputs.gitrefs."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path, PurePosixPath

MAX_ARCHIVE_BYTES = 500 * 1024 * 1024  # unpacked
MAX_ENTRIES = 20_000
MAX_NAME_BYTES = 255  # a part of a path: the limit of ext4, APFS and NTFS


class BadRef(ValueError):
    """The REF names no earlier version cardgen can read; the message says why."""


class Unpacked:
    """The folder an archive is unpacked into, and the names written so far."""

    def __init__(self, target: Path, source: str):
        self.target, self.source = target, source
        self.files: set[PurePosixPath] = set()
        self.folders: set[PurePosixPath] = set()

    def add(self, name: str, is_folder: bool = False) -> Path | None:
        """Where the entry `name` goes (None for a folder: made here, nothing to write)."""
        path = self._checked(name)
        if path is None:
            return None
        for parent in list(path.parents)[:-1]:
            if parent in self.files:
                raise BadRef(f"{self.source}: '{parent}' is both a file and a folder")
            self.folders.add(parent)
        if path in self.files and not is_folder:
            raise BadRef(f"{self.source}: '{path}' is twice in it")
        if path in (self.folders if not is_folder else self.files):
            raise BadRef(f"{self.source}: '{path}' is both a file and a folder")
        (self.folders if is_folder else self.files).add(path)
        destination = self.target.joinpath(*path.parts)
        if is_folder:
            self._make(destination)
            return None
        self._make(destination.parent)
        return destination

    def write(self, destination: Path, chunks: Iterable[bytes]) -> None:
        try:
            with destination.open("wb") as out:
                for chunk in chunks:
                    out.write(chunk)
        except OSError as exc:
            raise BadRef(f"{self.source}: '{destination.relative_to(self.target)}' cannot be unpacked "
                         f"({exc.strerror or exc})") from None

    def _make(self, folder: Path) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BadRef(f"{self.source}: '{folder.relative_to(self.target.parent)}' cannot be made "
                         f"({exc.strerror or exc})") from None

    def _checked(self, name: str) -> PurePosixPath | None:
        path = PurePosixPath(name.replace("\\", "/"))
        if path.is_absolute() or ".." in path.parts:
            raise BadRef(f"{self.source}: the entry '{name}' would land outside the folder")
        if any(ord(character) < 32 for character in name):
            raise BadRef(f"{self.source}: the entry {name!r} has a control character in its name")
        parts = [p for p in path.parts if p not in ("", ".")]
        for part in parts:
            if len(part.encode("utf-8", "surrogateescape")) > MAX_NAME_BYTES:
                raise BadRef(f"{self.source}: the entry '{part[:40]}…' has a name longer than {MAX_NAME_BYTES} bytes")
        return PurePosixPath(*parts) if parts else None


def check_size(entries: int, size: int, source: str) -> None:
    if entries > MAX_ENTRIES or size > MAX_ARCHIVE_BYTES:
        raise BadRef(f"{source}: {entries} entries of {size // (1024 * 1024)} MB in all: more than a game "
                     f"folder holds ({MAX_ENTRIES} entries, {MAX_ARCHIVE_BYTES // (1024 * 1024)} MB)")


def game_in(folder: Path, source: str) -> Path:
    """The game folder in an unpacked archive: its top, or the one folder in it with a game.yaml."""
    if (folder / "game.yaml").is_file():
        return folder
    inner = [p for p in folder.iterdir() if p.is_dir() and (p / "game.yaml").is_file()] if folder.is_dir() else []
    if len(inner) == 1:
        return inner[0]
    raise BadRef(f"{source} holds no game folder (a folder with a game.yaml)")

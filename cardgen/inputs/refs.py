"""inputs/refs: an earlier version of a game folder to compare with (`cardgen diff --since REF`):
another game folder, a zip of one, or a git revision of the repository that holds the game,
read through `git archive` (the work tree is never touched). A zip or a revision is unpacked
into a temporary folder under the same name as the game folder, refusing any entry that would
land outside it, links, and archives larger than the limits."""
from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

MAX_ARCHIVE_BYTES = 500 * 1024 * 1024  # unpacked
MAX_ENTRIES = 20_000
GIT_SECONDS = 60


class BadRef(ValueError):
    """The REF names no earlier version cardgen can read; the message says why."""


@contextmanager
def earlier_version(ref: str, game_folder: Path, git_only: bool = False) -> Iterator[Path]:
    """The game folder as it was at `ref`, for as long as the context lasts; only a git revision
    when `git_only` (a game's own data may not point at folders outside it)."""
    path = Path(ref)
    if path.is_dir() and not git_only:
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="cardgen-ref-") as temp:
        target = Path(temp) / game_folder.name
        if git_only:
            yield _from_git(ref, game_folder, target)
        elif path.is_file() and zipfile.is_zipfile(path):
            yield _unzipped(path, target)
        elif path.exists():
            raise BadRef(f"'{ref}' is neither a game folder nor a zip of one")
        else:
            yield _from_git(ref, game_folder, target)


def _unzipped(path: Path, target: Path) -> Path:
    """The zip's game folder: the folder in it that holds game.yaml (the top or one level down)."""
    with zipfile.ZipFile(path) as archive:
        entries = archive.infolist()
        _check_size(len(entries), sum(e.file_size for e in entries), str(path))
        for entry in entries:
            name = _safe_name(entry.filename, str(path))
            if entry.is_dir() or name is None:
                continue
            if (entry.external_attr >> 16) & 0o170000 == 0o120000:
                raise BadRef(f"{path}: '{entry.filename}' is a link; a game's zip holds files only")
            destination = target.joinpath(*name.parts)
            destination.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(entry) as source, destination.open("wb") as out:
                shutil.copyfileobj(source, out)
    return _game_in(target, str(path))


def _from_git(ref: str, game_folder: Path, target: Path) -> Path:
    """`git archive REF -- <the game folder>` of the repository holding the game, unpacked."""
    root = _git(["rev-parse", "--show-toplevel"], game_folder, ref).decode().strip()
    relative = game_folder.resolve().relative_to(Path(root).resolve()).as_posix()
    data = _git(["archive", "--format=tar", ref, "--", relative], Path(root), ref)
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        members = archive.getmembers()
        _check_size(len(members), sum(m.size for m in members), ref)
        strip = len(PurePosixPath(relative).parts)
        for member in members:
            name = _safe_name(member.name, ref)
            if name is None or not member.isfile() or len(name.parts) <= strip:
                continue
            destination = target.joinpath(*name.parts[strip:])
            destination.parent.mkdir(parents=True, exist_ok=True)
            source = archive.extractfile(member)
            if source is not None:
                destination.write_bytes(source.read())
    return _game_in(target, f"{ref} ({relative})")


def _git(args: list[str], where: Path, ref: str) -> bytes:
    try:
        run = subprocess.run(["git", "-C", str(where), *args], capture_output=True, timeout=GIT_SECONDS)
    except FileNotFoundError:
        raise BadRef(f"'{ref}' is not a folder or a zip, and git is not installed to read it as a revision") from None
    except subprocess.TimeoutExpired:
        raise BadRef(f"git took over {GIT_SECONDS} s to read '{ref}'") from None
    if run.returncode != 0:
        said = run.stderr.decode("utf-8", "replace").strip().splitlines()
        raise BadRef(f"'{ref}' is neither a game folder, a zip of one, nor a git revision of the repository "
                     f"holding {where}" + (f" (git: {said[-1]})" if said else ""))
    return run.stdout


def _safe_name(name: str, source: str) -> PurePosixPath | None:
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts:
        raise BadRef(f"{source}: the entry '{name}' would land outside the folder")
    parts = [p for p in path.parts if p not in ("", ".")]
    return PurePosixPath(*parts) if parts else None


def _check_size(entries: int, size: int, source: str) -> None:
    if entries > MAX_ENTRIES or size > MAX_ARCHIVE_BYTES:
        raise BadRef(f"{source}: {entries} entries of {size // (1024 * 1024)} MB in all: more than a game "
                     f"folder holds ({MAX_ENTRIES} entries, {MAX_ARCHIVE_BYTES // (1024 * 1024)} MB)")


def _game_in(folder: Path, source: str) -> Path:
    if (folder / "game.yaml").is_file():
        return folder
    inner = [p for p in folder.iterdir() if p.is_dir() and (p / "game.yaml").is_file()] if folder.is_dir() else []
    if len(inner) == 1:
        return inner[0]
    raise BadRef(f"{source} holds no game folder (a folder with a game.yaml)")

"""write: outputs appear complete or not at all.

Each output is written to a temporary file beside its destination and renamed over it,
so a failed build leaves the last good output byte-identical and no temp file behind.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .model import Game


def output_dir(game: Game, out: str | os.PathLike | None = None) -> Path:
    """`--out DIR` if given, else output/<game>/ in the working directory."""
    return Path(out) if out else Path("output") / game.id


def atomic_write(path: str | os.PathLike, data: bytes) -> Path:
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


@contextmanager
def staging(out: str | os.PathLike) -> Iterator[Path]:
    """A temporary folder inside `out` for outputs that must replace the old ones all together
    (see publish); it is removed on the way out, whatever happened."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=".cardgen-build-", suffix=".tmp", dir=out))
    try:
        yield stage
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def publish(stage: Path, out: str | os.PathLike) -> list[Path]:
    """Move every file of a staging folder over the outputs in `out`, each move atomic."""
    moved = []
    for path in sorted(stage.iterdir()):
        target = Path(out) / path.name
        os.replace(path, target)
        moved.append(target)
    return moved


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current

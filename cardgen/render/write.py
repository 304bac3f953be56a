"""write: outputs appear complete or not at all.

Each file is written to a temporary file beside its destination and renamed over it, so a
failed write leaves the last good file byte-identical and no temp file behind. (Publishing a
whole build at once is `build`'s job.)
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from cardgen.model.game import Game


def output_dir(game: Game, out: str | os.PathLike[str] | None = None) -> Path:
    """`--out DIR` if given, else output/<game>/ in the working directory."""
    return output_folder(game.id, out)


def output_folder(game_folder_name: str, out: str | os.PathLike[str] | None = None) -> Path:
    """The one rule for where a game's outputs go, also before the game is loaded (a game's id is
    its folder's name): `--out DIR` if given, else output/<game>/ in the working directory."""
    return Path(out) if out else Path("output") / game_folder_name


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


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current

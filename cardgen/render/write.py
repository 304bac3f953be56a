"""write: outputs appear complete or not at all.

Each file is written to a temporary file beside its destination and renamed over it, so a
failed write leaves the last good file byte-identical and no temp file behind. (Publishing a
whole build at once is `build`'s job.)
"""
from __future__ import annotations

import os
from pathlib import Path

from cardgen.inputs.files import atomic_write
from cardgen.model.game import Game

__all__ = ["atomic_write", "language_dir", "output_dir", "output_folder"]


def output_dir(game: Game, out: str | os.PathLike[str] | None = None) -> Path:
    """`--out DIR` if given, else output/<game>/ in the working directory."""
    return output_folder(game.id, out)


def language_dir(game: Game, out: str | os.PathLike[str] | None = None) -> Path:
    """Where a build publishes the game's outputs: output_dir for its source language, <lang>/
    inside it for another of its languages."""
    folder = output_folder(game.id, out)
    return folder / game.language if game.is_translation else folder


def output_folder(game_folder_name: str, out: str | os.PathLike[str] | None = None) -> Path:
    """The one rule for where a game's outputs go, also before the game is loaded (a game's id is
    its folder's name): `--out DIR` if given, else output/<game>/ in the working directory."""
    return Path(out) if out else Path("output") / game_folder_name

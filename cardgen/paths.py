"""paths: where cardgen's own resources are, and the one check that a path stays inside allowed roots."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

_PACKAGE = Path(__file__).resolve().parent
# templates/, art/ and card_data/ are inside the package when installed from a wheel
# (pyproject.toml maps them there), beside it in a checkout or an editable install.
PROJECT_ROOT = _PACKAGE if (_PACKAGE / "templates").is_dir() else _PACKAGE.parent
TEMPLATES = PROJECT_ROOT / "templates"
ART = PROJECT_ROOT / "art"
CARD_DATA = PROJECT_ROOT / "card_data"
SCHEMAS = _PACKAGE / "schemas"  # the editor schemas of the game files (made by load/schema.py)


def inside(path: str | os.PathLike, roots: Iterable[str | os.PathLike]) -> bool:
    """Whether path, with every symlink followed, lies inside one of the roots."""
    try:
        resolved = Path(path).resolve()
        return any(resolved.is_relative_to(Path(root).resolve()) for root in roots)
    except (OSError, ValueError):  # a symlink loop, a NUL byte: nothing that could be read safely
        return False


def display_path(path: str | os.PathLike, game_folder: str | os.PathLike) -> str:
    """A file of a game as messages name it: relative to the game folder's parent, so the same
    game gives the same messages (and `check --json`) from any working directory."""
    try:
        return os.path.relpath(path, Path(game_folder).parent)
    except ValueError:  # another drive on Windows
        return str(path)

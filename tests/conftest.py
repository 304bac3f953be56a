"""Shared fixtures: the real game data and copies of game folders to break or edit."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CARD_DATA = ROOT / "card_data"
TEST_DATA = Path(__file__).resolve().parent / "data"
TINY_GAME = TEST_DATA / "tiny_game"


@pytest.fixture
def game_copy(tmp_path):
    """Copy a game folder (a name under card_data/ or a path) into tmp_path and return the copy."""

    def copy(game: str | Path = TINY_GAME, name: str | None = None) -> Path:
        source = Path(game) if Path(game).is_dir() else CARD_DATA / str(game)
        target = tmp_path / (name or source.name)
        shutil.copytree(source, target)
        return target

    return copy

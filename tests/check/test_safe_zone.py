"""The safe zone: what every card shows stays 3 mm inside the trim line, checked at `check`
against the layout at the game's card size, and reported at the layout.yaml line that moved it."""
from __future__ import annotations

import re

import pytest
from conftest import CARD_DATA, cardgen, check

SHIPPED = sorted(p.name for p in CARD_DATA.iterdir() if (p / "game.yaml").exists())


@pytest.mark.parametrize("game", SHIPPED)
def test_the_shipped_design_keeps_every_element_safe(game, capsys):
    _, out = check(CARD_DATA / game, capsys)
    assert "outside-safe-zone" not in out


@pytest.mark.parametrize("size", ["poker", "bridge", "tarot", "mini"])
def test_the_shipped_design_is_safe_at_every_preset_size(game_copy, size, capsys):
    folder = game_copy("starter")
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(re.sub(r"(?m)^card_size:.*$", f"card_size: {size}", text), encoding="utf-8")
    code, out = check(folder, capsys)
    assert code == 0 and f"card_size: {size}" in (folder / "game.yaml").read_text(encoding="utf-8")
    assert "outside-safe-zone" not in out, out


def test_a_name_moved_towards_the_edge_is_a_warning_at_its_line(game_copy):
    folder = game_copy()
    (folder / "layout.yaml").write_text("# moved\nname:\n  y: 1.0\n", encoding="utf-8")
    code, out, _ = cardgen("check", folder)
    assert code == 0
    line = next(line for line in out.splitlines() if "[outside-safe-zone]" in line)
    assert line.strip().startswith("tiny_game/layout.yaml:3:6: warning: layout name: every card's name reaches")
    assert "mm from the top edge, inside the 3 mm safe zone" in line


def test_effect_text_past_the_trim_line_is_an_error_and_nothing_is_built(game_copy, tmp_path):
    folder = game_copy()
    (folder / "layout.yaml").write_text("text: {x: 20}\n", encoding="utf-8")
    code, out, _ = cardgen("check", folder)
    assert code == 1
    line = next(line for line in out.splitlines() if "[outside-safe-zone]" in line)
    assert "tiny_game/layout.yaml:1:" in line and "error: layout text: every card's effect text reaches" in line
    assert "past the right edge: it is cut off" in line
    assert cardgen("cards", folder, "--out", tmp_path)[0] == 1
    assert not list(tmp_path.glob("*.pdf"))

"""The safe zone: what every card shows stays 3 mm inside the trim line, checked at `check`
against the layout at the game's card size, and reported at the layout.yaml line that moved it."""
from __future__ import annotations

import re

import pytest
from conftest import CARD_DATA, cardgen, check, edit

SHIPPED = sorted(p.name for p in CARD_DATA.iterdir() if (p / "game.yaml").exists())
# A text moved 1 mm from an edge in each shipped design: its card name (the shipped face's, or the
# game's faces' that extend it), or star_tricks' rank (its playing face has no name).
MOVED_TOWARDS_THE_EDGE = {"star_tricks": ("x: 5, y: 5, width: 9", "x: 1, y: 5, width: 9")}


@pytest.mark.parametrize("game", SHIPPED)
def test_the_shipped_design_keeps_every_element_safe(game, game_copy, capsys):
    _, out = check(CARD_DATA / game, capsys)
    assert "outside-safe-zone" not in out
    # and the same check fires on that design once one of its texts is moved towards the edge
    folder = game_copy(game)
    layout = folder / "layout.yaml"
    if game in MOVED_TOWARDS_THE_EDGE:
        edit(layout, *MOVED_TOWARDS_THE_EDGE[game])
    else:
        layout.write_text((layout.read_text(encoding="utf-8") if layout.exists() else "") + "\nname:\n  y: 1.0\n",
                          encoding="utf-8")
    code, out = check(folder, capsys)
    assert code == 0 and "[outside-safe-zone]" in out, out
    assert "reaches 1.0 mm from the top edge" in out or "reaches 1.0 mm from the left edge" in out, out


@pytest.mark.parametrize("size", ["poker", "bridge", "tarot", "mini"])
def test_the_shipped_design_is_safe_at_every_preset_size(game_copy, size, capsys):
    folder = game_copy("starter")
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(re.sub(r"(?m)^card_size:.*$", f"card_size: {size}", text), encoding="utf-8")
    code, out = check(folder, capsys)
    assert code == 0 and f"card_size: {size}" in (folder / "game.yaml").read_text(encoding="utf-8")
    assert "outside-safe-zone" not in out, out
    (folder / "layout.yaml").write_text("name:\n  y: 1.0\n", encoding="utf-8")
    code, out = check(folder, capsys)
    assert code == 0 and "[outside-safe-zone]" in out and "mm from the top edge" in out, out


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

"""Outputs appear complete or not at all, a failed build never damages the last
good one, and the same inputs give byte-identical PDFs whatever the clock, time zone, working
directory or user settings."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, TINY_GAME, cardgen

from cardgen.render import write
from security.conftest import set_card
from security.test_failures import run


def snapshot(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def leftovers(out: Path) -> list[str]:
    return [p.name for p in out.rglob("*") if p.name.endswith(".tmp") or p.name.startswith(".")]


@pytest.fixture(scope="module")
def last_good_build(tmp_path_factory) -> Path:
    """The tiny game's outputs as `cardgen build` wrote them, once for the module's tests to copy."""
    out = tmp_path_factory.mktemp("last-good") / "out"
    code, text = run("build", TINY_GAME, "--out", out)
    assert code == 0, text
    return out


@pytest.mark.slow
@pytest.mark.parametrize("breakage", ["art", "text"])
def test_a_failed_build_leaves_the_last_good_build_byte_identical(breakage, last_good_build, game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    out = tmp_path / "out"
    shutil.copytree(last_good_build, out)
    before = snapshot(out)
    assert {"rulebook.pdf", "checklists.pdf", "cards-starter.pdf"} <= set(before)

    # a bad edit: the rulebook could still be built from it, the card sheet cannot
    (folder / "art").mkdir()
    if breakage == "art":
        (folder / "art" / "boom.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)  # a broken PNG
        set_card(folder, "Boom", art="art/boom.png", flavor="Oops, a new flavor line.")
    else:
        set_card(folder, "Shield", text="Stops a Boom, and much more. " * 80)
    code, text = run("build", folder, "--out", out)
    assert code == 1
    assert snapshot(out) == before
    assert leftovers(out) == []


def test_a_write_that_fails_halfway_leaves_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "rulebook.pdf"
    target.write_bytes(b"the good old rulebook")

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        write.atomic_write(target, b"%PDF-1.7 half a new rulebook")
    assert target.read_bytes() == b"the good old rulebook"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rulebook.pdf"]


FONTCONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <match target="pattern"><edit name="family" mode="prepend" binding="strong"><string>DejaVu Serif</string></edit></match>
  <alias><family>sans-serif</family><prefer><family>DejaVu Serif</family></prefer></alias>
  <alias><family>serif</family><prefer><family>DejaVu Sans Mono</family></prefer></alias>
  <match target="font"><edit name="hinting" mode="assign"><bool>false</bool></edit></match>
</fontconfig>
"""
REPORTLAB_SETTINGS = "invariant = 0\nuseA85 = 1\npageCompression = 0\nshapeChecking = 0\n"


def build_in(cwd: Path, out: Path, env: dict[str, str]) -> dict[str, bytes]:
    cwd.mkdir(parents=True, exist_ok=True)
    base = {k: v for k, v in os.environ.items()
            if k not in ("TZ", "SOURCE_DATE_EPOCH", "HOME", "XDG_CONFIG_HOME", "PYTHONHASHSEED")}
    result = subprocess.run([sys.executable, "-m", "cardgen", "build", str(TINY_GAME), "--out", str(out)],
                            cwd=cwd, env={**base, "PYTHONPATH": str(ROOT), **env},
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return snapshot(out)


@pytest.mark.slow
def test_the_same_game_gives_byte_identical_pdfs_in_any_environment(tmp_path, monkeypatch):
    """The first build in this process (warm, after whatever the tests before drew), with a plain
    home, in UTC; the second in a cold process with a busy home, far from UTC, at another second,
    another hash seed, working directory and locale."""
    plain_home = tmp_path / "home-plain"
    plain_home.mkdir()
    for name in ("SOURCE_DATE_EPOCH", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(plain_home))  # the workers' font configurations are made after the fork
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    try:
        (tmp_path / "cwd-a").mkdir()
        code, _, err = cardgen("build", TINY_GAME, "--out", tmp_path / "out-a", cwd=tmp_path / "cwd-a")
    finally:
        monkeypatch.undo()
        time.tzset()
    assert code == 0, err
    first = snapshot(tmp_path / "out-a")
    assert os.environ.get("PYTHONHASHSEED") != "2"  # the second build's seed differs from this process's

    busy_home = tmp_path / "home-busy"
    (busy_home / ".config" / "fontconfig").mkdir(parents=True)
    (busy_home / ".config" / "fontconfig" / "fonts.conf").write_text(FONTCONFIG)
    (busy_home / ".reportlab_settings").write_text(REPORTLAB_SETTINGS)
    time.sleep(1.1)  # a different second on the clock
    second = build_in(tmp_path / "elsewhere" / "deeper", tmp_path / "out-b",
                      {"HOME": str(busy_home), "TZ": "Pacific/Kiritimati", "SOURCE_DATE_EPOCH": "1234567890",
                       "PYTHONHASHSEED": "2", "LC_ALL": "C"})
    assert set(first) == set(second) and len(first) >= 3
    different = [name for name in first if first[name] != second[name]]
    assert different == []


@pytest.mark.slow
def test_a_card_sheet_is_the_same_whatever_the_process_drew_before(game_copy, tmp_path):
    """ReportLab's font mapping is global, and a Paragraph sets each run of text through it: a game
    whose bold font is the tiny game's heavy one (its card names), drawn first in the same process
    (as `cardgen serve` and the tests draw game after game), leaves the tiny game's sheet as a new
    process draws it."""
    other = game_copy(TINY_GAME)
    (other / "layout.yaml").write_text("fonts: {bold: Lato-Black.ttf}\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "cardgen", "cards", str(TINY_GAME), "--all-types", "--out",
                    str(tmp_path / "fresh")], cwd=ROOT, check=True, capture_output=True, timeout=300)
    for folder, out in ((other, "other"), (TINY_GAME, "after")):
        code, text = run("cards", folder, "--all-types", "--out", tmp_path / out)
        assert code == 0, text
    fresh, after = ((tmp_path / out / "cards-all-types.pdf").read_bytes() for out in ("fresh", "after"))
    assert after == fresh

"""`cardgen build` as people see it: on a terminal a live progress display of each output and a
summary table; piped (a CI log) plain lines without a single escape code. Both run the real
command in a subprocess, on a pseudo-terminal or on pipes."""
from __future__ import annotations

import os
import pty
import subprocess
import sys

import pytest
from conftest import ROOT, TINY_GAME

SKIPPED = "skipped cheatsheet.pdf: game.yaml has no 'reference: cheatsheet:' section"


def cardgen_env() -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "COLUMNS": "200"}


@pytest.mark.slow
def test_build_piped_writes_plain_lines_ending_with_a_summary_of_outputs_and_skipped_ones(tmp_path):
    done = subprocess.run([sys.executable, "-m", "cardgen", "build", str(TINY_GAME), "--out", str(tmp_path)],
                          capture_output=True, text=True, env=cardgen_env(), timeout=300)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout + done.stderr
    lines = done.stderr.splitlines()
    for name in ("rulebook.pdf", "rulebook.html", "checklists.pdf", "cards-starter.pdf"):
        assert (tmp_path / name).is_file()
        assert f"wrote {tmp_path / name}" in lines
    summary = lines[lines.index(f"Tiny Hazards: 4 files in {tmp_path}/ (4 written)"):]
    assert [line.split()[0] for line in summary[1:5]] == ["cards-starter.pdf", "checklists.pdf", "rulebook.html",
                                                          "rulebook.pdf"]
    assert all(line.endswith((" KB", " MB")) for line in summary[1:5])
    assert summary[5:] == [SKIPPED]


@pytest.mark.slow
def test_build_on_a_terminal_shows_each_output_as_it_is_done_and_a_summary(tmp_path):
    main, child = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "cardgen", "build", str(TINY_GAME), "--out", str(tmp_path)],
                               stdin=child, stdout=child, stderr=child, env=cardgen_env(), close_fds=True)
    os.close(child)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal closed: the command is done
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    assert process.wait(timeout=300) == 0
    text = shown.decode("utf-8", "replace")
    assert "\x1b[" in text  # drawn live, in color
    for label in ("the rulebook", "the checklists", "the card sheets of Starter"):
        assert f"✓ {label}" in text
    assert "building Tiny Hazards" in text
    assert f"Tiny Hazards: 4 files in {tmp_path}/ (4 written)" in text
    for name in ("rulebook.pdf", "checklists.pdf", "cards-starter.pdf"):
        assert name in text and (tmp_path / name).is_file()
    assert SKIPPED in text

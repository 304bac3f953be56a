"""`cardgen build` killed (SIGKILL) at any moment leaves the last good outputs complete
and as the manifest lists them, the next run removes what the killed one left behind, and no
worker process outlives its build (see cardgen/publish/folder.py for the publishing promise)."""
from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import ROOT, TINY_GAME

from cardgen.publish.check import load_checked
from cardgen.publish.driver import drive
from cardgen.publish.folder import MANIFEST, PUBLISH_PREFIX, STAGE_PREFIX
from cardgen.publish.request import Request
from security.test_failures import run

OLD = {"rulebook.pdf": b"%PDF-1.4 the last good rulebook", "checklists.pdf": b"%PDF-1.4 the last good checklists",
       "cards-starter.pdf": b"%PDF-1.4 the last good card sheets"}


def manifest_of(files: dict[str, bytes]) -> dict:
    return {"outputs": {name: {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
                        for name, data in sorted(files.items())}}


def last_good_outputs(out: Path) -> None:
    out.mkdir()
    for name, data in OLD.items():
        (out / name).write_bytes(data)
    (out / MANIFEST).write_text(json.dumps(manifest_of(OLD)))


def assert_last_good_outputs(out: Path) -> None:
    for name, data in OLD.items():
        assert (out / name).read_bytes() == data, name
    assert json.loads((out / MANIFEST).read_text()) == manifest_of(OLD)


def debris(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name.startswith((STAGE_PREFIX, PUBLISH_PREFIX)))


def staged_files(out: Path) -> list[Path]:
    return [f for folder in out.glob(f"{STAGE_PREFIX}*") for f in folder.iterdir() if f.is_file()]


def processes_naming(text: str) -> list[int]:
    """Live (not zombie) processes whose command line holds `text`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if text.encode() in (entry / "cmdline").read_bytes() and \
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                found.append(int(entry.name))
        except OSError:
            continue
    return found


MOMENTS = {
    "while-loading": lambda out: time.sleep(0.3) or True,
    "staging-started": lambda out: bool(list(out.glob(f"{STAGE_PREFIX}*"))),
    "an-output-staged": lambda out: bool(staged_files(out)),
}


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="finds the workers through /proc")
@pytest.mark.parametrize("moment", sorted(MOMENTS))
def test_a_killed_build_leaves_the_last_good_outputs_and_no_workers(moment, tmp_path):
    out = tmp_path / f"out-{moment}"
    last_good_outputs(out)
    build = subprocess.Popen([sys.executable, "-m", "cardgen", "build", str(TINY_GAME), "--out", str(out)],
                             env=dict(os.environ, PYTHONPATH=str(ROOT)),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90
        while not MOMENTS[moment](out):
            assert build.poll() is None, f"the build ended before the moment {moment}"
            assert time.monotonic() < deadline, f"the moment {moment} never came"
            time.sleep(0.01)
        if moment == "an-output-staged":
            assert len(processes_naming(str(out))) >= 2  # the build and its workers
        build.send_signal(signal.SIGKILL)
        build.wait(10)
    finally:
        if build.poll() is None:
            build.kill()
            build.wait(10)
    assert_last_good_outputs(out)
    deadline = time.monotonic() + 10
    while processes_naming(str(out)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_naming(str(out)) == [], "worker processes outlived the killed build"

    status, text = run("cards", TINY_GAME, "--out", out)  # the next run, of one small output
    assert status == 0, text
    assert debris(out) == []
    assert (out / "rulebook.pdf").read_bytes() == OLD["rulebook.pdf"]
    entries = json.loads((out / MANIFEST).read_text())["outputs"]
    data = (out / "cards-starter.pdf").read_bytes()
    assert data.startswith(b"%PDF") and entries["cards-starter.pdf"]["sha256"] == hashlib.sha256(data).hexdigest()


def test_a_command_with_nothing_to_do_still_removes_what_a_killed_run_left(tmp_path):
    out = tmp_path / "out"
    assert run("cards", TINY_GAME, "--out", out)[0] == 0
    left = out / f"{STAGE_PREFIX}killed.tmp"
    left.mkdir()
    (left / "cards-starter.pdf").write_bytes(b"%PDF-1.4 half")
    status, text = run("cards", TINY_GAME, "--out", out)  # up to date: nothing is rendered
    assert status == 0 and "up to date" in text, text
    assert debris(out) == []


class Killed(BaseException):
    """Stands for SIGKILL in the middle of publishing (nothing after it runs but `finally`)."""


@pytest.mark.slow
def test_a_publish_cut_short_is_finished_by_the_next_run(tmp_path, monkeypatch):
    """A build killed after its commit (the rename of its staging folder) but before every file was
    moved: the next run moves the rest and the manifest lists them all as built."""
    from cardgen.publish.kinds.sheets import plan_cards
    from cardgen.publish.plan import Plan

    out = tmp_path / "out"
    last_good_outputs(out)
    def plan(game, report):
        return Plan((*plan_cards(game, all_types=True).outputs, *plan_cards(game, calibration=True).outputs))

    real_replace, moves = os.replace, []

    def replace_then_die(source, target, **kwargs):
        if PUBLISH_PREFIX in str(source):
            if moves:
                raise Killed()
            moves.append(target)
        return real_replace(source, target, **kwargs)

    monkeypatch.setattr(os, "replace", replace_then_die)
    with pytest.raises(Killed):
        drive(Request(str(TINY_GAME), plan, out=out))
    monkeypatch.setattr(os, "replace", real_replace)
    assert len(moves) == 1 and len(debris(out)) == 1  # one output published, the other still committed

    status, text = run("cards", TINY_GAME, "--out", out)
    assert status == 0, text
    assert debris(out) == []
    entries = json.loads((out / MANIFEST).read_text())["outputs"]
    for name in ("cards-all-types.pdf", "calibration-a4.pdf", "cards-starter.pdf"):
        assert entries[name]["sha256"] == hashlib.sha256((out / name).read_bytes()).hexdigest(), name
    assert (out / "rulebook.pdf").read_bytes() == OLD["rulebook.pdf"]


def test_a_build_leaves_no_temporary_files(tmp_path, monkeypatch):
    """WeasyPrint keeps a document's fonts in a temporary folder it removes only when its process
    ends normally, which a build's workers never do: they keep theirs in the staging folder."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))  # the workers are forked with it
    status, text = run("checklist", TINY_GAME, "--out", tmp_path / "out")
    assert status == 0, text
    assert list(temp.iterdir()) == []
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["cardgen-manifest.json", "checklists.pdf"]


@pytest.mark.slow
def test_each_worker_has_its_own_font_configuration(tmp_path):
    """WeasyPrint skips a font face whose file is already in its configuration's folder. A worker
    that shared its parent's configuration (made before the fork) skipped the fonts an earlier
    worker had written there, and drew the document without them; finalising the parent's
    configuration in a worker deleted the folder the parent still renders with."""
    from cardgen.render import documents

    game, report = load_checked(str(TINY_GAME))
    documents.write_rulebook(game, report, tmp_path / "before")  # in this process: its configuration, made before the forks
    built = []
    for out in ("first", "second"):  # each by a worker forked from this process
        status, text = run("checklist", TINY_GAME, "--out", tmp_path / out)
        assert status == 0, text
        built.append((tmp_path / out / "checklists.pdf").read_bytes())
    # in this process, after the workers: with faces of its own to write into its folder
    assert built[0] == built[1] == documents.write_checklists(game, report, tmp_path / "here").read_bytes()

"""The output folder's own cache and the ceilings on every piece of work.

The simulation the documents print is kept in cardgen-simulation.json in the output folder. That
folder is not trusted more than the game folder: whatever stands there under that name (a pipe, a
link to a device or outside, a nesting no parser survives, figures edited by hand) is read, at
most, as a bounded regular file, and only figures vouched for by their digest are printed; with
`--clean` it is not read at all. Work that untrusted data drives runs in worker processes under
the ceilings of every output (`diff --pdf` too); a task that fails there says how, and a seed that
is not text is a usage error.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys

import pytest
from conftest import ROOT, TINY_GAME, edit, page_texts

from cardgen.errors import BuildError, UsageError
from cardgen.publish import limits as ceilings
from cardgen.publish.cache import simulation_key
from cardgen.publish.check import check_folder
from cardgen.publish.limits import Limits
from cardgen.publish.playtest import playtest_round
from cardgen.publish.simulate import CACHE_FILE, DOCUMENT_GAMES, DOCUMENT_SEED
from cardgen.publish.workers import bounded, bounded_all
from security.test_failures import run

pytestmark = pytest.mark.usefixtures("no_hang")


def with_simulated_figures(game):
    """A small game with the simulated figures in its documents (turns: documents): the tests'
    Tiny Hazards with a losing and a saving kind, a turn to play and rules (prose the simulation
    does not play). The cache is the subject, not the game: its checklists are two pages."""
    shutil.copytree(TINY_GAME, game)
    edit(game / "game.yaml", "  - {id: hazard, name: Hazard}\n  - {id: shield, name: Shield}\n",
         "  - {id: hazard, name: Hazard, role: losing}\n  - {id: shield, name: Shield, role: saving}\n")
    with open(game / "game.yaml", "a", encoding="utf-8") as file:
        file.write("turns:\n  draw: 1\n  saved: random\n  documents: true\n")
    (game / "rules.md").write_text("# Tiny Hazards\n\nThe deck hides hazards. Draw one and you are out.\n")
    return game


def rebuilt(game) -> None:
    """Edit the rules: the checklists are built again, the game played is the same."""
    edit(game / "rules.md", "The deck hides", "The box holds 20 cards. The deck hides")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The game, and its checklists built into a fresh output folder (only read)."""
    game = with_simulated_figures(tmp_path_factory.mktemp("built") / "tiny_hazards")
    fresh = game.parent / "fresh"
    assert run("checklist", game, "--out", fresh)[0] == 0
    assert "How it plays (2000 simulated games)" in how_it_plays(fresh / "checklists.pdf")
    assert sorted(cached_figures(fresh)) == ["Starter/2", "Starter/3"]
    return game, fresh


@pytest.fixture
def simulated_game(tmp_path):
    """A copy of the game, and its checklists built into an output folder."""
    game, out = with_simulated_figures(tmp_path / "tiny_hazards"), tmp_path / "out"
    assert run("checklist", game, "--out", out)[0] == 0
    return game, out


def how_it_plays(checklists) -> str:
    """The checklists' line on how the first player count plays."""
    text = " ".join(page_texts(checklists)[0].split())
    start = text.index("How it plays")
    return text[start:text.index(".", start)]


def cached_figures(out) -> dict:
    return json.loads((out / CACHE_FILE).read_text())["figures"]


# --------------------------------------------------------------------------- the simulation's cache


def dev_zero(path):
    path.symlink_to("/dev/zero")


def fifo(path):
    os.mkfifo(path)


def deeply_nested(path):
    path.write_text('{"digest": "", "figures": ' + "[" * 200_000 + "]" * 200_000 + "}")


def larger_than_a_cache(path):
    with open(path, "wb") as file:
        file.truncate(64 * 1024 * 1024)  # sparse: costs nothing on disk


def not_utf8(path):
    path.write_bytes(b'{"digest": "\xff\xfe", "figures": {}}')


def a_folder(path):
    path.mkdir()
    (path / "inside").write_text("kept")


@pytest.mark.slow
@pytest.mark.parametrize("plant", [fifo, dev_zero, deeply_nested, larger_than_a_cache, not_utf8,
                                   a_folder])
def test_anything_in_the_caches_place_is_simulated_again(plant, built, tmp_path):
    game, fresh = built
    out = tmp_path / "out"
    out.mkdir()
    plant(out / CACHE_FILE)
    status, text = run("checklist", game, "--out", out)
    assert status == 0, text
    assert how_it_plays(out / "checklists.pdf") == how_it_plays(fresh / "checklists.pdf")
    if plant is a_folder:  # cannot be replaced: the figures are just not kept
        assert (out / CACHE_FILE / "inside").read_text() == "kept"
    else:
        assert not (out / CACHE_FILE).is_symlink() and cached_figures(out) == cached_figures(fresh)


@pytest.mark.slow
def test_figures_edited_into_the_cache_are_never_printed(simulated_game):
    game, out = simulated_game
    shown = how_it_plays(out / "checklists.pdf")
    cache = out / CACHE_FILE
    document = json.loads(cache.read_text())
    for figures in document["figures"].values():
        figures["turns_median"] = 777
    cache.write_text(json.dumps(document))
    rebuilt(game)
    assert run("checklist", game, "--out", out)[0] == 0
    assert how_it_plays(out / "checklists.pdf") == shown and "777" not in shown
    assert all(f["turns_median"] != 777 for f in cached_figures(out).values())  # written again


def forge(out, game_folder, turns: int) -> None:
    """A cache that vouches for edited figures as cardgen would: its digest recomputed by someone
    who knows how it is made (the most an edit of the output folder can do)."""
    key = simulation_key(check_folder(game_folder).report.game, DOCUMENT_GAMES, DOCUMENT_SEED)
    document = json.loads((out / CACHE_FILE).read_text())

    def digest() -> str:
        return hashlib.sha256(f"{key}\0{json.dumps(document['figures'], sort_keys=True)}".encode()).hexdigest()

    assert document["digest"] == digest()  # made as cardgen makes it
    for found in document["figures"].values():
        found["turns_median"] = turns
    document["digest"] = digest()
    (out / CACHE_FILE).write_text(json.dumps(document))


@pytest.mark.slow
def test_clean_never_reads_the_cache(simulated_game):
    game, out = simulated_game
    shown = how_it_plays(out / "checklists.pdf")
    forge(out, game, 777)
    status, text = run("checklist", game, "--out", out, "--clean")
    assert status == 0, text
    assert how_it_plays(out / "checklists.pdf") == shown and "777" not in shown
    assert all(f["turns_median"] != 777 for f in cached_figures(out).values())


@pytest.mark.slow
def test_a_cache_kept_for_other_data_is_not_used(simulated_game):
    game, out = simulated_game
    forge(out, game, 777)
    edit(game / "setups.yaml", "hand: {deal: 3}", "hand: {deal: 2}")  # the game's data changes: another key
    assert run("checklist", game, "--out", out)[0] == 0
    assert "777" not in how_it_plays(out / "checklists.pdf")


@pytest.mark.slow
def test_a_link_to_a_cache_outside_the_output_folder_is_not_followed(simulated_game, tmp_path):
    (game, out), outside = simulated_game, tmp_path / "outside.json"
    shown = how_it_plays(out / "checklists.pdf")
    forge(out, game, 777)
    (out / CACHE_FILE).rename(outside)
    forged = outside.read_text()
    (out / CACHE_FILE).symlink_to(outside)
    rebuilt(game)
    assert run("checklist", game, "--out", out)[0] == 0
    assert how_it_plays(out / "checklists.pdf") == shown
    assert outside.read_text() == forged and not (out / CACHE_FILE).is_symlink()


# --------------------------------------------------------------------------- the simulator's seed


def test_a_seed_that_is_not_text_is_a_usage_error(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "cardgen", "simulate", "exploding_puppy", "--games", "10",
                           "--seed", b"\xff\xfe"], env=env, capture_output=True, cwd=ROOT, timeout=120)
    said = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2 and "Traceback" not in said
    assert "--seed" in said and "not text: give it in UTF-8" in said and "MB" not in said
    status, text = run("simulate", "exploding_puppy", "--games", "10", "--seed", "Wür\u202efel", "--players", "3",
                       "--setup", "Basic")
    assert status == 0 and "seed Wür\\u202efel" in text and "\u202e" not in text


# --------------------------------------------------------------------------- the workers' answers


def burn():
    while True:
        pass


def sleep():
    signal.pause()


def fail_as_data():
    raise UsageError("no such thing", hint="name another")


def fail_as_bug():
    return 1 // 0


@pytest.mark.parametrize("task, limits, says", [
    (burn, Limits(cpu_seconds=1), "used more than 1 s of CPU time"),
    (sleep, Limits(wall_seconds=0.5), "did not finish within 0.5 s of wall-clock time"),
], ids=["cpu-time", "hang"])
@pytest.mark.slow
def test_cpu_time_is_the_ceiling_and_wall_clock_time_only_a_guard_against_hangs(task, limits, says):
    with pytest.raises(BuildError) as raised:
        bounded(task, "trying", limits)
    assert str(raised.value).startswith(f"error: trying {says}")


def test_work_under_ceilings_reads_the_builds_ceilings_when_it_starts(monkeypatch):
    """Without ceilings of its own, work takes the build's as they are when it starts (a test, or
    a future option, may lower them), not those of when cardgen was imported."""
    monkeypatch.setattr(ceilings, "LIMITS", Limits(wall_seconds=0.5))
    with pytest.raises(BuildError) as raised:
        bounded(sleep, "trying")
    assert str(raised.value).startswith("error: trying did not finish within 0.5 s of wall-clock time")


def test_a_tasks_own_error_is_its_own_and_a_bug_is_a_bug():
    with pytest.raises(UsageError) as raised:
        bounded(fail_as_data, "trying")
    assert raised.value.message == "no such thing" and raised.value.hint == "name another"
    with pytest.raises(RuntimeError) as bug:  # cardgen's bug: the worker's traceback, not a ceiling
        bounded(fail_as_bug, "trying")
    assert "ZeroDivisionError" in str(bug.value) and "MB" not in str(bug.value)


def test_tasks_run_a_few_at_a_time_and_say_how_far_they_are():
    heard = []
    assert bounded_all([lambda n=n: n * n for n in range(5)], "squaring", Limits(workers=2),
                       lambda done, total: heard.append((done, total))) == [0, 1, 4, 9, 16]
    assert heard == [(n, 5) for n in range(6)]


# --------------------------------------------------------------------------- cardgen diff


def test_diff_json_escapes_what_would_reorder_the_terminal(game_copy, tmp_path):
    old, new = game_copy(TINY_GAME, name="old"), game_copy(TINY_GAME)
    edit(new / "cards.yaml", "{name: Boom,", '{name: "Boom \u202emoob", id: boom,')
    edit(new / "setups.yaml", "Boom: 5", "\"Boom \\u202emoob\": 5")
    status, text = run("diff", new, "--since", old, "--json")
    assert status == 0, text
    assert "\u202e" not in text and "\\u202e" in text  # as `check --json` and every other output
    assert json.loads(text)["cards"] == [{"id": "boom", "name": "Boom \u202emoob", "status": "changed",
                                          "fields": ["name"], "old_name": "Boom"}]


@pytest.mark.slow
def test_diff_pdf_draws_in_a_worker_under_the_ceilings(game_copy, tmp_path):
    old = game_copy("exploding_puppy", name="old")
    new = game_copy("exploding_puppy")
    edit(new / "layout.yaml", 'border: "#f28c28"', 'border: "#f28c29"')  # every face changes: 146 to draw
    with playtest_round(new, str(old)) as round_:
        with pytest.raises(BuildError) as raised:
            round_.write_pdf(tmp_path, str(old), "A4", Limits(cpu_seconds=1))
    assert str(raised.value).startswith(f"error: drawing the changes since {old} used more than 1 s of CPU time")
    assert list(tmp_path.glob("*.pdf")) == []


def test_diff_pdf_is_drawn_whole_by_its_worker(game_copy, tmp_path):
    old, new = game_copy(TINY_GAME, name="old"), game_copy(TINY_GAME)
    edit(new / "cards.yaml", "You are out.", "You are out, sorry.")
    status, text = run("diff", new, "--since", old, "--pdf", "--out", tmp_path)
    assert status == 0, text
    assert page_texts(tmp_path / "diff-since-old.pdf")[0].startswith("Changed: Boom: text")

"""The command line contract: list, check, --json, exit codes."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT

from cardgen import __version__ as cardgen_version


def cardgen(*args):
    return subprocess.run([sys.executable, "-m", "cardgen", *args], capture_output=True, text=True, timeout=120)


def test_list_shows_games_and_setups():
    run = cardgen("list")
    assert run.returncode == 0
    assert "exploding_puppy: Exploding Puppy 1.1" in run.stdout
    for name in ("Basic", "Default", "Darkness", "Mind Games", "Fight", "Life and Death"):
        assert name in run.stdout


def test_check_defaults_to_exploding_puppy_and_passes_with_warnings():
    run = cardgen("check")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Default (3–8 players): 89 cards" in run.stdout
    assert "warning" in run.stdout and "[total-cards]" in run.stdout
    assert run.stdout.rstrip().splitlines()[-1].startswith("ok: 0 errors")


def test_check_json_follows_the_contract():
    run = cardgen("check", "exploding_puppy", "--json")
    assert run.returncode == 0
    data = json.loads(run.stdout)
    assert data["game"] == "exploding_puppy"
    setup = data["setups"][1]
    assert set(setup) >= {"name", "total", "by_color", "by_kind", "players", "print_counts", "findings"}
    assert (setup["name"], setup["total"]) == ("Default", 89)
    assert setup["players"][0] == {**setup["players"][0], "players": 3, "draw_pile": 31}
    assert set(setup["players"][0]) >= {"copies", "starting_deck", "steps", "dealt_per_player", "piles", "set_aside"}
    assert setup["print_counts"]["defuse"] == 10  # keyed by card id
    assert setup["findings"][0].keys() == {"level", "code", "message", "where"}
    assert setup["findings"][0]["where"].startswith("exploding_puppy/setups.yaml:")


@pytest.mark.slow
def test_exit_codes_tell_usage_from_data_errors(game_copy):
    assert cardgen("check", "no_such_game").returncode == 2
    assert cardgen("check", "--bogus").returncode == 2
    assert cardgen().returncode == 2
    folder = game_copy()
    (folder / "setups.yaml").write_text("setups:\n  - name: X\n    players: {min: 2, max: 3}\n    cards: {Bom: 1}\n")
    run = cardgen("check", str(folder), "--json")
    assert run.returncode == 1
    finding = json.loads(run.stdout)["findings"][0]
    assert finding["code"] == "unknown-card" and "did you mean 'Boom'" in finding["message"]


def test_check_json_is_the_same_from_any_working_directory(game_copy, tmp_path):
    """File names in findings are relative to the game folder's parent, not to the working directory."""
    folder = game_copy()
    (folder / "setups.yaml").write_text("setups:\n  - name: X\n    players: {min: 2, max: 3}\n    cards: {Bom: 1}\n")
    elsewhere = tmp_path / "somewhere" / "else"
    elsewhere.mkdir(parents=True)
    beside = subprocess.run([sys.executable, "-m", "cardgen", "check", "tiny_game", "--json"], cwd=folder.parent,
                            capture_output=True, text=True, timeout=120)
    away = subprocess.run([sys.executable, "-m", "cardgen", "check", str(folder), "--json"], cwd=elsewhere,
                          capture_output=True, text=True, timeout=120)
    assert beside.returncode == away.returncode == 1
    assert beside.stdout == away.stdout
    assert json.loads(away.stdout)["findings"][0]["where"] == "tiny_game/setups.yaml:4:13"


@pytest.mark.slow
def test_the_engine_and_text_findings_name_files_the_same_from_any_working_directory(game_copy, tmp_path):
    folder = game_copy("exploding_puppy")
    runs = [subprocess.run([sys.executable, "-m", "cardgen", "check", name, "--json"], cwd=cwd,
                           capture_output=True, text=True, timeout=120)
            for name, cwd in (("exploding_puppy", folder.parent), (str(folder), ROOT))]
    assert runs[0].returncode == runs[1].returncode == 0
    assert runs[0].stdout == runs[1].stdout
    data = json.loads(runs[0].stdout)
    places = [f["where"] for f in data["findings"] + [f for s in data["setups"] for f in s["findings"]] if f["where"]]
    assert places and all(place.startswith("exploding_puppy/") for place in places)


def test_version_and_a_help_that_says_what_cardgen_is():
    version = cardgen("--version")
    assert version.returncode == 0 and version.stdout.strip() == f"cardgen {cardgen_version}"
    lines = cardgen("--help").stdout.splitlines()
    assert lines[0].startswith("usage: cardgen")
    assert lines[2].startswith("Make a print-and-play card game from a folder of YAML")


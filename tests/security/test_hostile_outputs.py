"""The build cache and publishing against a hostile output or game folder: links where the staging
folders go, records naming files outside, a malformed manifest, dot-file art, a link to /proc,
and the output folder inside the game folder."""
from __future__ import annotations

import json

import pytest
from conftest import TINY_GAME
from conftest import cardgen as run


def cardgen(*args, cwd=None) -> tuple[int, str]:
    code, out, err = run(*args, cwd=cwd)
    return code, out + err


@pytest.mark.slow
def test_links_named_like_staging_folders_are_removed_never_followed(game_copy, tmp_path):
    game, out, victim = game_copy(TINY_GAME), tmp_path / "out", tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("mine")
    assert cardgen("cards", game, "--out", out)[0] == 0  # publishing is the same for every kind of output
    (out / ".cardgen-publish-x.tmp").symlink_to(victim)
    (out / ".cardgen-build-y.tmp").symlink_to(victim)
    assert cardgen("cards", game, "--out", out, "--clean")[0] == 0
    assert (victim / "precious.txt").read_text() == "mine" and not (out / "precious.txt").exists()
    assert not any(path.name.startswith(".cardgen-") for path in out.iterdir())


@pytest.mark.slow
def test_a_manifest_naming_files_outside_or_of_the_wrong_types_is_no_manifest(game_copy, tmp_path):
    game, out = game_copy(TINY_GAME), tmp_path / "out"
    outside = tmp_path / "escape.txt"
    outside.write_text("keep")
    assert cardgen("cards", game, "--out", out)[0] == 0  # the manifest is the same for every kind of output
    manifest = json.loads((out / "cardgen-manifest.json").read_text())
    manifest["outputs"]["../escape.txt"] = {"bytes": 4, "sha256": "0"}
    for entry in manifest["cache"]["outputs"].values():
        entry["files"] = [1]
    (out / "cardgen-manifest.json").write_text(json.dumps(manifest))
    for _ in range(2):
        assert cardgen("cards", game, "--out", out)[0] == 0
    assert outside.read_text() == "keep"
    assert "../escape.txt" not in (out / "cardgen-manifest.json").read_text()


def test_a_changed_dot_file_art_rebuilds_the_sheets(game_copy, tmp_path):
    from PIL import Image

    game, out = game_copy(TINY_GAME), tmp_path / "out"
    (game / "art").mkdir()
    Image.new("RGB", (600, 800), "red").save(game / "art" / ".boom.png")
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Boom", "name: Boom, art: art/.boom.png", 1))
    assert cardgen("cards", game, "--out", out)[0] == 0
    first = (out / "cards-starter.pdf").read_bytes()
    Image.new("RGB", (600, 800), "blue").save(game / "art" / ".boom.png")
    code, said = cardgen("cards", game, "--out", out)
    assert code == 0 and (out / "cards-starter.pdf").read_bytes() != first, said


def test_a_link_to_proc_in_the_game_folder_is_refused_at_check_and_build(game_copy, tmp_path):
    game = game_copy(TINY_GAME)
    (game / "notes.txt").symlink_to("/proc/self/pagemap")
    code, said = cardgen("check", game)
    assert code == 1 and "notes.txt is a link to /proc/self/pagemap" in said and "[bad-input-file]" in said
    code, said = cardgen("build", game, "--out", tmp_path / "out")
    assert code == 1 and not (tmp_path / "out" / "rulebook.pdf").exists()


@pytest.mark.slow
def test_building_inside_the_game_folder_is_up_to_date_the_second_time(game_copy):
    game = game_copy(TINY_GAME)
    assert cardgen("build", ".", cwd=game)[0] == 0
    code, said = cardgen("build", ".", cwd=game)
    assert code == 0 and "up to date" in said and "wrote" not in said

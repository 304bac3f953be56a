"""Incremental builds: an output is built again only when what it is made from changed, and an
incremental build gives the same bytes as a clean one."""
from __future__ import annotations

import pytest
from conftest import page_texts

from cardgen import cli


def build(capsys, *argv) -> tuple[int, str]:
    code = cli.main(["build", *(str(a) for a in argv)])
    return code, capsys.readouterr().err


def written(err: str) -> set[str]:
    return {line.rsplit("/", 1)[-1] for line in err.splitlines() if line.startswith("wrote ")}


def stamps(folder) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}


def outputs(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.suffix == ".pdf"}


@pytest.mark.slow
def test_nothing_changed_nothing_is_written_a_changed_output_is_built_again_clean_builds_all(capsys, game_copy,
                                                                                            tmp_path):
    game, out = game_copy(), tmp_path / "out"
    assert build(capsys, game, "--out", out)[0] == 0
    before = stamps(out)
    code, err = build(capsys, game, "--out", out)
    assert code == 0
    assert written(err) == set()
    assert f"4 files in {out}/ (4 up to date)" in err
    assert stamps(out) == before

    good = (out / "cards-starter.pdf").read_bytes()
    (out / "cards-starter.pdf").write_bytes(b"edited by hand")
    code, err = build(capsys, game, "--out", out)
    assert code == 0
    assert written(err) == {"cards-starter.pdf"}
    assert (out / "cards-starter.pdf").read_bytes() == good

    code, err = build(capsys, game, "--out", out, "--clean")
    assert written(err) == {"cards-starter.pdf", "rulebook.pdf", "rulebook.html", "checklists.pdf"}


@pytest.mark.slow  # three builds, the last a clean one to compare with
def test_a_card_edit_rebuilds_what_shows_the_card_with_the_bytes_of_a_clean_build(capsys, game_copy, tmp_path):
    game, out = game_copy(), tmp_path / "out"
    assert build(capsys, game, "--out", out)[0] == 0
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("You are out.", "You are out, sorry."))
    code, err = build(capsys, game, "--out", out)
    assert code == 0
    assert written(err) == {"cards-starter.pdf", "rulebook.pdf", "rulebook.html", "checklists.pdf"}
    assert "You are out, sorry." in page_texts(out / "cards-starter.pdf")[0]
    assert build(capsys, game, "--out", tmp_path / "clean", "--clean")[0] == 0
    assert outputs(out) == outputs(tmp_path / "clean")


@pytest.mark.slow
def test_a_rules_edit_leaves_the_card_sheets_alone(capsys, game_copy, tmp_path):
    game, out = game_copy(), tmp_path / "out"  # the tiny game, with rules of its own
    rules = game / "rules.md"
    rules.write_text("# Overview\n\nDo not draw a Boom.\n")
    assert build(capsys, game, "--out", out)[0] == 0
    sheet = (out / "cards-starter.pdf").stat().st_mtime_ns
    rules.write_text(rules.read_text() + "\nOne more paragraph of rules.\n")
    code, err = build(capsys, game, "--out", out)
    assert code == 0
    assert "cards-starter.pdf" not in written(err)
    assert "rulebook.pdf" in written(err)
    assert (out / "cards-starter.pdf").stat().st_mtime_ns == sheet

"""`cardgen new`: a game folder that checks clean at once, or a copy of a shipped game."""
from __future__ import annotations

from conftest import CARD_DATA, report_for

from cardgen import cli
from cardgen.model.game import ERROR


def new(capsys, monkeypatch, tmp_path, *argv) -> tuple[int, str, str]:
    monkeypatch.chdir(tmp_path)
    code = cli.main(["new", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_new_game_checks_without_a_single_finding_and_says_what_to_do_next(capsys, monkeypatch, tmp_path):
    code, out, _ = new(capsys, monkeypatch, tmp_path, "space_pirates")
    assert code == 0
    assert "cardgen check space_pirates" in out and "cardgen build space_pirates" in out
    assert "output/space_pirates/" in out
    report = report_for(tmp_path / "space_pirates")
    assert report.game.title == "Space Pirates"
    assert report.every_finding() == []
    cards = report.game.cards
    assert {c.color for c in cards} == {c.id for c in report.game.colors}
    assert any(c.star for c in cards) and any(c.tags for c in cards) and any(c.details for c in cards)
    assert any(c.number is not None for c in cards)
    assert report.game.steps and report.game.checks and report.game.rules_markdown


def test_new_from_a_shipped_game_copies_it(capsys, monkeypatch, tmp_path):
    code, out, _ = new(capsys, monkeypatch, tmp_path, "pups", "--from", "good_puppies")
    assert code == 0
    assert (tmp_path / "pups" / "rules.md").read_bytes() == (CARD_DATA / "good_puppies" / "rules.md").read_bytes()
    for name in ("game.yaml", "cards.yaml", "setups.yaml"):  # after the line that points editors at the schema
        copied = (tmp_path / "pups" / name).read_text(encoding="utf-8").split("\n", 1)[1]
        assert copied == (CARD_DATA / "good_puppies" / name).read_text(encoding="utf-8")
    assert not [f for f in report_for(tmp_path / "pups").every_finding() if f.level == ERROR]


def test_new_never_overwrites_and_names_the_shipped_games(capsys, monkeypatch, tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    code, _, err = new(capsys, monkeypatch, tmp_path, "taken")
    assert code == 2 and "already exists" in err
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["notes.txt"]

    code, _, err = new(capsys, monkeypatch, tmp_path, "other", "--from", "exploding_pupy")
    assert code == 2 and "exploding_puppy" in err
    assert not (tmp_path / "other").exists()

    code, _, err = new(capsys, monkeypatch, tmp_path, "my game!")
    assert code == 2 and "letters, digits" in err

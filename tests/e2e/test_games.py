"""Five games, one engine: the player-count rules of each game folder, checked through the
public API (load_game + check_game, and `cardgen check --json`), and the cheat sheet read back."""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pypdfium2
import pytest
from conftest import cardgen, edit, page_texts, page_words, report_for

from cardgen.check.engine import check_setup
from cardgen.cli import main
from cardgen.model.game import ERROR, WARNING
from cardgen.render.documents import cheatsheet as cheatsheet_renderer
from cardgen.render.documents.cheatsheet import write_cheatsheet

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["exploding_cards", "exploding_kittens", "zombie_kittens", "good_puppies"]


@pytest.fixture(scope="module")
def reports():
    return {name: report_for(name) for name in GAMES}


def errors(findings):
    return [f for f in findings if f.level == ERROR]


def by_players(setup_report):
    return {p.players: p for p in setup_report.players}


def cli_check(game):
    code, out, _ = cardgen("check", game, "--json", cwd=ROOT)
    return code, json.loads(out)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_checks_without_errors(reports, game):
    report = reports[game]
    assert not errors(report.every_finding()), [str(f) for f in errors(report.every_finding())]
    assert report.game.rules_markdown.startswith("# 1 ")


@pytest.mark.parametrize("game", GAMES)
def test_check_json_passes_for_every_game(game):
    code, data = cli_check(game)
    assert code == 0
    assert data["game"] == game
    assert all(f["level"] != "error" for s in data["setups"] for f in s["findings"])


# --------------------------------------------------------------------------- Exploding cards


def test_playing_cards_use_one_pack_up_to_8_players_and_two_above(reports):
    setup = reports["exploding_cards"].setup("Playing cards")
    assert setup.total == 54 and setup.by_kind == {"bomb": 8, "disarm": 8, "action": 38}
    assert setup.print_counts["ace"] == 8 and setup.print_counts["joker"] == 4  # two packs printed
    players = by_players(setup)
    assert set(players) == set(range(3, 17))
    for n, p in players.items():
        packs = 1 if n <= 8 else 2
        # every player: one Disarm + 2 action cards; the pile: spare Disarms, one Bomb each, the rest
        assert p.dealt_per_player == 3
        assert p.draw_by_kind["bomb"] == n
        assert p.draw_by_kind["disarm"] == 8 * packs - n
        assert p.draw_by_kind["action"] == 38 * packs - 2 * n
        assert p.draw_pile == (38 * packs - 2 * n) + (8 * packs - n) + n
    # exactly enough at the top of each range: 8 Disarms and 8 Bombs per pack
    assert players[8].draw_by_kind["disarm"] == 0 and players[8].draw_by_kind["bomb"] == 8
    assert players[16].draw_by_kind["disarm"] == 0 and players[16].draw_by_kind["bomb"] == 16


def test_one_pack_is_not_enough_above_8_players(reports):
    report = reports["exploding_cards"]
    setup = report.game.setup("Playing cards")
    one_pack = check_setup(report.game, dataclasses.replace(setup, copies=1))
    for p in one_pack.players:
        codes = {f.code for f in errors(p.findings)}
        if p.players <= 8:
            assert not codes, (p.players, codes)
        else:
            # not enough Disarms to deal nor Bombs to insert: the engine says so
            assert {"not-enough-cards", "disarm-in-hand", "bombs-in-pile"} <= codes, (p.players, codes)


# --------------------------------------------------------------------------- Exploding Kittens


def test_original_edition_deals_a_defuse_each_and_puts_back_up_to_2(reports):
    setup = reports["exploding_kittens"].setup("Original edition")
    assert setup.total == 56 and setup.by_kind["exploding"] == 4 and setup.by_kind["defuse"] == 6
    players = by_players(setup)
    assert set(players) == {2, 3, 4, 5}
    for n, p in players.items():
        extra_defuses = min(2, 6 - n)
        assert p.dealt_per_player == 8                        # 7 dealt + the Defuse
        assert p.draw_by_kind["exploding"] == n - 1
        # 56 - 4 kittens - 6 defuses + the extras back in, minus 7 each, plus n - 1 kittens
        assert p.draw_pile == 46 + extra_defuses - 7 * n + (n - 1)
        assert p.piles["box"] == (6 - n - extra_defuses) + (4 - (n - 1))
    assert players[5].draw_pile == 16 and players[5].piles["box"] == 0     # only 1 extra Defuse


def test_two_extra_defuses_would_be_one_too_many_at_5_players(reports):
    report = reports["exploding_kittens"]
    game = report.game
    strict = tuple(dataclasses.replace(s, up_to=False) for s in game.steps)
    findings = check_setup(dataclasses.replace(game, steps=strict), game.setup("Original edition"))
    short = {p.players for p in findings.players for f in errors(p.findings) if f.code == "not-enough-cards"}
    assert short == {5}


# --------------------------------------------------------------------------- Zombie Kittens


def test_zombie_kittens_paw_print_subsets(reports):
    setup = reports["zombie_kittens"].setup("Full box")
    game = reports["zombie_kittens"].game
    paw = sum(line.count or 0 for line in setup.setup.lines if "paw" in game.card(line.card).tags)
    assert paw == 24
    assert setup.total - paw - setup.by_kind["exploding"] == 33
    players = by_players(setup)
    # 2 players: the 24 paw cards (2 Zombie Kittens dealt, 7 each), 1 kitten in; box: 33 + 3 kittens
    assert players[2].draw_pile == 24 - 2 - 14 + 1 and players[2].piles["box"] == 33 + 3
    # 3 players: the 33 without paw print
    assert players[3].draw_pile == 33 - 3 - 21 + 2 and players[3].piles["box"] == 24 + 2
    # 4 and 5 players: everything; with 4 one Zombie Kitten goes back into the deck
    assert players[4].draw_pile == 57 - 4 - 28 + 3 and players[4].piles["box"] == 1
    assert players[4].draw_by_kind["zombie"] > 0
    assert players[5].draw_pile == 57 - 5 - 35 + 4 and players[5].piles["box"] == 0
    assert players[5].draw_by_kind["zombie"] == 0
    for p in players.values():
        assert p.dealt_per_player == 8 and p.draw_by_kind["exploding"] == p.players - 1


def test_zombie_kittens_unknown_counts_are_warnings(reports):
    setup = reports["zombie_kittens"].setup("Full box")
    assert "Nope" in setup.unknown_counts and "Cat Card (paw)" in setup.unknown_counts
    unknown = [f for f in setup.findings if f.code == "unknown-count"]
    assert len(unknown) == len(setup.unknown_counts) and all(f.level == WARNING for f in unknown)
    code, data = cli_check("zombie_kittens")
    assert code == 0
    (json_setup,) = data["setups"]
    assert {"Nope", "Attack"} <= set(json_setup["unknown_counts"])
    assert any(f["code"] == "unknown-count" and f["level"] == "warning" for f in json_setup["findings"])


def test_zombie_kittens_filling_a_count_without_the_placeholder_is_caught(game_copy):
    folder = game_copy("zombie_kittens")
    setups = folder / "setups.yaml"
    setups.write_text(setups.read_text().replace("Nope (paw): null", "Nope (paw): 3"))
    report = report_for(folder)
    assert {f.code for f in errors(report.every_finding())} == {"paw-cards"}


# --------------------------------------------------------------------------- Good Puppies


def test_good_puppies_numbered_cards(reports):
    game = reports["good_puppies"].game
    assert len(game.cards) == 100
    assert [c.number for c in game.cards] == list(range(100))
    pup = {c.number: c for c in game.cards}
    assert pup[84].name == "Pup 84" and pup[84].attributes == {"breed": "Aussie", "trick": "Crafty"}
    assert pup[17].attributes["trick"] == "Playful" and pup[17].attributes["breed"] == "Breed 1"
    assert pup[92].name == "Best Doggo"
    assert sum("doggo" in c.kinds for c in game.cards) == 10


def test_good_puppies_deck_and_box_by_player_count(reports):
    setup = reports["good_puppies"].setup("Standard")
    table = {2: (45, 55), 3: (60, 40), 4: (75, 25), 5: (90, 10)}
    for n, p in by_players(setup).items():
        deck, box = table[n]
        assert p.piles["box"] == box
        assert p.dealt_per_player == 3
        assert p.draw_pile + p.piles["hands"] == deck
        assert p.draw_pile >= n + 1                      # the first Dog Park can be filled


def test_good_puppies_dog_park_rule_is_checked(reports):
    game = reports["good_puppies"].game
    setup = game.setup("Standard")
    tiny_deck = tuple(
        dataclasses.replace(s, count={2: 92, 3: 88, 4: 85, 5: 82}) if s.target == "box" else s
        for s in game.steps)
    report = check_setup(dataclasses.replace(game, steps=tiny_deck), setup)
    failing = {p.players for p in report.players for f in errors(p.findings) if f.code == "dog-park"}
    assert failing == {2, 3, 4, 5}


# --------------------------------------------------------------------------- the cheat sheet


@pytest.fixture(scope="module")
def cheatsheet(shipped_document):
    """Exploding Cards' cheat sheet on A4, as `cardgen cheatsheet` writes it (built once for the run)."""
    return shipped_document("exploding_cards", "cheatsheet.pdf")


def _words(path):
    """Its pages, words, text and first page's size, read back with PDFium."""
    document = pypdfium2.PdfDocument(path)
    size = tuple(round(side) for side in document[0].get_size())
    document.close()
    texts = page_texts(path)
    return len(texts), {w["text"] for page in page_words(path) for w in page}, "\n".join(texts), size


@pytest.mark.slow
def test_cheatsheet_is_one_page_with_every_rank_and_combo(cheatsheet):
    assert cheatsheet.name == "cheatsheet.pdf"
    pages, words, text, size = _words(cheatsheet)
    assert pages == 1 and size == (595, 842)
    ranks = ["Ace", "King", "Jack", "Queen", "Joker"] + [str(n) for n in range(2, 11)]
    assert set(ranks) <= words
    for role in ["Bomb!", "Disarm", "Nope!", "Attack", "Slap", "Skip", "Favour", "See the Future", "Shuffle",
                 "Draw from bottom", "Reverse", "Recycle"]:
        assert role in text
    for combo in ["Pickpocket", "Mugger", "Dumpster dive"]:
        assert combo in text
    # the engine's figures per player count: 16 players, two packs, 60 cards in the draw pile
    assert "Packs" in text and "16" in words and "74" in words and "60" in words


def test_cheatsheet_pocket_copies(cheatsheet):
    pocket = cheatsheet.with_name("cheatsheet-pocket.pdf")
    pages, words, text, _ = _words(pocket)
    assert pages == 1
    # with the losing and saving cards' rule in full, a copy is a strip of two poker cards folded
    # between them: three copies side by side on A4
    assert text.count("Exploding cards") == 3
    assert text.count("Pickpocket") == 3 and text.count("Recycle") == 3
    assert text.count("Bomb! Show it at once.") == 3


@pytest.mark.slow
def test_cheatsheet_of_other_games(shipped_document):
    """Exploding Kittens' A4 cheat sheet as `cardgen cheatsheet` writes it (one build for the run,
    shared with the tests of every shipped document)."""
    pages, words, text, _ = _words(shipped_document("exploding_kittens", "cheatsheet.pdf"))
    assert pages == 1 and "Two of a kind" in text and "Peek at 3" in text and {"Nope", "Future"} <= words


def test_games_without_reference_have_no_cheatsheet(tmp_path, reports):
    report = reports["good_puppies"]
    assert write_cheatsheet(report.game, report, tmp_path, "a4") is None
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_cheatsheet_command(tmp_path):
    code, _, err = cardgen("cheatsheet", "exploding_cards", "--out", tmp_path, "--paper", "letter", cwd=ROOT)
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cardgen-manifest.json", "cheatsheet-pocket.pdf", "cheatsheet.pdf"]
    pages, _, _, size = _words(tmp_path / "cheatsheet.pdf")
    assert pages == 1 and size == (612, 792)  # fits Letter too


@pytest.mark.slow
def test_a_cheat_sheet_too_long_for_one_page_is_printed_on_more_with_a_warning(game_copy, tmp_path, capsys,
                                                                              monkeypatch):
    """How far a text runs is known once laid out, after check: the build does not fail on it."""
    monkeypatch.setattr(cheatsheet_renderer, "SCALES", (1.0, 0.8))  # the full size and the smallest: fewer layouts
    folder = game_copy(ROOT / "card_data" / "exploding_cards")
    long_items = "".join(f'          - "Rule {n}: {"a reminder of what to do " * 5}"\n' for n in range(10))
    edit(folder / "game.yaml", '        items:\n', '        items:\n' + long_items)
    assert main(["cheatsheet", str(folder), "--out", str(tmp_path)]) == 0
    said = re.search(r"the cheat sheet runs to (\d+) pages even at 80% type size", capsys.readouterr().err)
    assert said and int(said.group(1)) == _words(tmp_path / "cheatsheet.pdf")[0] > 1


def test_zombie_kittens_stand_in_cards_are_counted_but_not_printed(reports):
    setup = reports["zombie_kittens"].setup("Full box")
    assert "unidentified-paw-print-cards" not in setup.print_counts
    assert setup.print_counts["exploding-kitten"] == 4
    assert setup.by_kind["placeholder"] == 14 + 27

"""`cardgen simulate`: the setups played out, the same for a seed, agreeing with the engine's exact
first-draw figures, seeing an unfair seat, and saying plainly when a game has nothing to play out."""
from __future__ import annotations

import json

import pytest
from conftest import CARD_DATA, TEST_DATA, TINY_GAME, cardgen, edit, page_texts

from cardgen.load import load_game
from cardgen.publish.check import load_checked
from cardgen.simulate.estimates import mean, proportion
from cardgen.simulate.simulation import nothing_to_simulate, simulate

SHIPPED = sorted(p.name for p in CARD_DATA.iterdir() if (p / "game.yaml").is_file())
Z999 = 3.2905  # 99.9 %: a hundred comparisons at 95 % would miss about five by chance alone


def simulated(*args) -> dict:
    code, out, err = cardgen("simulate", *args, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.slow
def test_every_setup_and_player_count_is_played_the_same_for_a_seed():
    first = simulated("exploding_puppy", "--games", "300", "--seed", "7")
    assert simulated("exploding_puppy", "--games", "300", "--seed", "7") == first
    game, report = load_checked("exploding_puppy")
    assert [(s["setup"], s["players"]) for s in first["simulations"]] == [
        (r.setup.name, p.players) for r in report.setups for p in r.players]
    assert first["policy"]["name"] == "new-player" and first["seed"] == "7"
    for figures in first["simulations"]:
        assert figures["games"] == 300 and len(figures["seat_wins"]) == figures["players"]
        wins = sum(seat["value"] for seat in figures["seat_wins"]) + figures["no_winner"]["value"]
        assert wins == pytest.approx(1, abs=1e-3)
        median, p90 = figures["turns"]["median"], figures["turns"]["p90"]
        assert 0 < median["low"] <= median["value"] <= median["high"] <= p90["value"]
    other = simulated("exploding_puppy", "--games", "300", "--seed", "8", "--setup", "Basic", "--players", "5")
    assert [(s["setup"], s["players"]) for s in other["simulations"]] == [("Basic", 5)]
    same = next(s for s in first["simulations"] if (s["setup"], s["players"]) == ("Basic", 5))
    assert other["simulations"][0]["seat_wins"] != same["seat_wins"]


@pytest.mark.parametrize("name", [g for g in SHIPPED if not nothing_to_simulate(load_game(g).game)])
def test_the_simulated_first_draw_agrees_with_the_engine_for_every_setup(name):
    """The engine's exact figures (from expected counts) inside the simulation's 99.9 % intervals:
    the chance that the first draw loses, the safe draws before the first losing card, the
    saving cards each player is dealt. About a hundred comparisons at 99.9 % miss once in about ten
    seeds by chance alone: the seed is one that misses none."""
    game, report = load_checked(name)
    for setup in report.setups:
        for played in setup.players:
            tally = simulate(game, setup.setup, played, seed="engine-check", policy="draw-only", games=600).tally
            exact = played.balance
            assert exact is not None
            context = f"{setup.setup.name}, {played.players} players"
            assert exact.first_draw_loses in proportion(tally.first_loses, tally.games, Z999), context
            assert exact.draws_before_losing in mean(tally.safe_draws, tally.safe_squares, tally.games, Z999), context
            assert exact.saving_in_hand in mean(tally.saving_dealt, tally.saving_squares, tally.games * tally.players,
                                                Z999), context


def test_a_losing_card_put_on_top_for_the_first_seat_shows_in_its_win_rate(game_copy):
    """Exploding Kittens with one Kitten put on the shuffled draw pile: seat 1 spends its Defuse
    on the first draw, and wins significantly less often than every other seat."""
    game = game_copy("exploding_kittens")
    edit(game / "game.yaml", """    - move: {from: kittens, to: deck, count: players - 1}
      text: Put Exploding Kittens into the deck, one fewer than the number of players.
    - move: {from: kittens, to: box}
      text: Put the other Exploding Kittens back in the box.
    - shuffle: deck
      text: Shuffle and place the draw pile face down in the middle. Choose who goes first.""",
         """    - move: {from: kittens, to: deck, count: players - 2}
      text: Put Exploding Kittens into the deck, two fewer than the number of players.
    - shuffle: deck
      text: Shuffle and place the draw pile face down in the middle.
    - move: {from: kittens, to: deck, count: 1}
      text: Put one more Kitten on top, where the first player draws it.
    - move: {from: kittens, to: box}
      text: Put the other Exploding Kittens back in the box.""")
    figures = simulated(game, "--players", "5", "--games", "3000")["simulations"][0]
    first, *others = figures["seat_wins"]
    assert all(first["high"] < seat["low"] for seat in others), figures["seat_wins"]
    assert figures["first_draw_loses"]["value"] == 1 and figures["first_draw_loses"]["engine"] < 0.5
    fair = simulated("exploding_kittens", "--players", "5", "--games", "3000")["simulations"][0]
    assert fair["seat_wins"][0]["low"] > first["high"]


def test_the_new_player_plays_its_cards_and_the_draw_only_player_never_does():
    """Skips and attacks add turns without draws: the games of players who play them last longer;
    each report names its policy."""
    new = simulated("exploding_kittens", "--players", "3", "--games", "1500")
    plain = simulated("exploding_kittens", "--players", "3", "--games", "1500", "--policy", "draw-only")
    assert plain["policy"]["name"] == "draw-only" and "never plays" in plain["policy"]["does"]
    assert new["simulations"][0]["turns"]["median"]["low"] > plain["simulations"][0]["turns"]["median"]["high"]
    code, out, _ = cardgen("simulate", "exploding_kittens", "--players", "3", "--games", "200")
    assert code == 0 and "policy new-player: peeks when it can" in out
    assert "Original edition: 7 card types of the setup are never played" in out


def test_a_saved_losing_card_put_back_on_top_is_drawn_again_at_once(game_copy):
    """saved: top puts the Kitten where the next player draws it (and knows it is there to avoid):
    players are out sooner, games are shorter than with the Kitten put at the bottom."""
    ends = {}
    for place in ("top", "bottom"):
        game = game_copy("exploding_kittens", name=place)
        edit(game / "game.yaml", "  saved: random\n", f"  saved: {place}\n")
        ends[place] = simulated(game, "--players", "4", "--games", "1500", "--policy", "draw-only")["simulations"][0]
    assert ends["top"]["turns"]["median"]["high"] < ends["bottom"]["turns"]["median"]["low"]


@pytest.mark.parametrize("game", [TINY_GAME, CARD_DATA / "good_puppies", TEST_DATA / "market_day"])
def test_a_game_without_a_losing_card_has_nothing_to_simulate(game):
    code, out, err = cardgen("simulate", game)
    assert code == 0 and err == ""
    assert out.strip().endswith("nothing to simulate: no losing or winning condition is described "
                                "(no kind has role: losing in game.yaml)")
    said = simulated(game)
    assert said["nothing_to_simulate"].startswith("no losing or winning condition is described")


def test_the_player_count_and_setup_asked_for_must_exist():
    code, _, err = cardgen("simulate", "exploding_kittens", "--players", "9")
    assert code == 2 and "no setup of Exploding Kittens is played by 9 players" in err
    code, _, err = cardgen("simulate", "exploding_kittens", "--players", "9", "--setup", "Original edition")
    assert code == 2 and "Original edition is for 2–5 players, not 9" in err
    code, _, err = cardgen("simulate", "exploding_kittens", "--setup", "Nope")
    assert code == 2 and "no setup 'Nope'" in err
    code, _, err = cardgen("simulate", "exploding_kittens", "--games", "0")
    assert code == 2 and "--games" in err


@pytest.mark.parametrize(("file", "old", "new", "code", "message"), [
    ("cards.yaml", "play: {skip: true}", "play: {}", "empty-play", "card 'Skip': play: names no effect"),
    ("cards.yaml", "play: {peek: 3}", "play: {peek: 0}", "number-out-of-range", "peek"),
    ("cards.yaml", "play: {skip: true}", "play: {skp: true}", "unknown-key", "did you mean 'skip'?"),
    ("game.yaml", "  saved: random", "  saved: sideways", "bad-saved", "turns: saved 'sideways' is not one of"),
])
def test_turn_and_play_mistakes_are_found_at_check_at_their_line(game_copy, file, old, new, code, message):
    game = game_copy("exploding_kittens")
    edit(game / file, old, new)
    line = (game / file).read_text().splitlines().index(new) + 1 if new.startswith(" ") else next(
        number for number, text in enumerate((game / file).read_text().splitlines(), 1) if new in text)
    status, out, _ = cardgen("check", game)
    assert status == 1
    found = [row for row in out.splitlines() if row.endswith(f"[{code}]")]
    assert len(found) == 1 and f"{file}:{line}:" in found[0] and message in out, out
    assert "FAILED: 1 error," in out


@pytest.mark.slow  # a rulebook and three checklists, 2,000 games simulated at each player count, twice
def test_the_documents_show_how_each_player_count_plays_from_a_cached_simulation(game_copy, tmp_path):
    """turns: documents: the rulebook's setup tables and the checklists carry the simulated
    figures; the simulation is kept beside the outputs and done again only when the data changes
    (the checklists, rebuilt when either changes, read it as the rulebook does)."""
    game, out = game_copy("exploding_kittens"), tmp_path / "out"
    edit(game / "game.yaml", "  saved: random\n", "  saved: random\n  documents: true\n")
    assert cardgen("rulebook", game, "--out", out)[0] == 0
    assert cardgen("checklist", game, "--out", out)[0] == 0
    rulebook = "\n".join(page_texts(out / "rulebook.pdf"))
    assert "Turns a game / 9 in 10 within" in rulebook and "Wins by seat, %" in rulebook
    assert "How it plays: 2000 games simulated at each player count" in rulebook
    checklist = page_texts(out / "checklists.pdf")[0]
    assert "How it plays (2000 simulated games): a game lasts" in " ".join(checklist.split())
    cached = out / "cardgen-simulation.json"
    figures = json.loads(cached.read_text())["figures"]
    assert sorted(figures) == ["Original edition/2", "Original edition/3", "Original edition/4", "Original edition/5"]
    written = cached.stat().st_mtime_ns
    edit(game / "rules.md", "The deck hides", "The box holds 56 cards. The deck hides")
    assert cardgen("checklist", game, "--out", out) == (0, "", f"wrote {out / 'checklists.pdf'}\n")
    assert cached.stat().st_mtime_ns == written  # the rules are not played: the simulation is reused
    edit(game / "setups.yaml", "Attack: 4", "Attack: 6")
    assert cardgen("checklist", game, "--out", out) == (0, "", f"wrote {out / 'checklists.pdf'}\n")
    assert json.loads(cached.read_text())["figures"] != figures


def test_a_setup_whose_draw_pile_differs_in_size_from_game_to_game_is_played_too(game_copy):
    """The spare Defuses shuffled in before the deal and those left taken out after it: each game's
    draw pile has its own size (the games are dealt one by one); the Defuses the players are dealt
    agree with the engine's, and the draw pile holds none."""
    game = game_copy("exploding_kittens")
    edit(game / "game.yaml", """    - move: {from: defuses, to: deck, count: 2, up_to: true}
      text: Shuffle 2 of the spare Defuses back into the deck (with 5 players only 1 is left).
    - move: {from: defuses, to: box}
      text: Put any other Defuses back in the box.
    - shuffle: deck
    - deal: {from: deck, count: hand}
      text: Shuffle and deal 7 cards face down to each player (hands are 8 cards with the Defuse).""",
         """    - move: {from: defuses, to: deck}
      text: Shuffle the spare Defuses into the deck.
    - shuffle: deck
    - deal: {from: deck, count: hand}
      text: Deal 7 cards face down to each player.
    - move: {from: deck, to: box, select: {kind: defuse}}
      text: Put the Defuses left in the deck back in the box.""")
    figures = simulated(game, "--players", "2", "--games", "2000", "--policy", "draw-only")["simulations"][0]
    saving = figures["saving_each"]
    assert 1 < saving["low"] <= saving["engine"] <= saving["high"], saving
    assert figures["saving_ran_out"]["value"] > 0 and figures["no_winner"]["value"] == 0

"""The example game creature_clash (issues 38 and 39), read back from what cardgen writes: each
card's cost, attack and health in their corners of the drivethru export's pages, the uneven opening
seat by seat in `check --json` and in the checklist and rulebook, and its cards as cards.xlsx and
cards.ods checking the same as its cards.yaml."""
from __future__ import annotations

import json
import re
import shutil

import pypdfium2
import pytest
import yaml
from conftest import CARD_DATA, cardgen, edit, page_texts, page_words

from cardgen import cli
from cardgen.load import load_game

GAME = CARD_DATA / "creature_clash"
BIG = 11  # points: the corner numbers are set at 15 pt (scaled), the effect text at 8.6 at most


@pytest.fixture(scope="module")
def report():
    return load_game(GAME)


@pytest.fixture(scope="module")
def built(tmp_path_factory, shipped_document):
    """Its rulebook, checklists and cheat sheet as the commands write them (built once for the run),
    and its drivethru export."""
    out = tmp_path_factory.mktemp("creature_clash")
    for name in ("rulebook.pdf", "checklists.pdf", "cheatsheet.pdf"):
        shutil.copy(shipped_document("creature_clash", name), out / name)
    assert cli.main(["export", str(GAME), "--to", "drivethru", "--out", str(out / "export")]) == 0
    return out


def corner_numbers(words: list[dict], trim: tuple[float, float, float, float]) -> dict[str, list[int]]:
    """The big whole numbers of a page's words, by the quarter of the trim box they are in."""
    x0, y0, x1, y1 = trim  # from the bottom-left, as the words' places
    mid_x, mid_y = (x0 + x1) / 2, (y0 + y1) / 2
    found: dict[str, list[int]] = {"TL": [], "TR": [], "BL": [], "BR": []}
    for word in words:
        if word["size"] >= BIG and word["text"].isdigit():
            x, y = (word["x0"] + word["x1"]) / 2, (word["y0"] + word["y1"]) / 2
            assert x0 < x < x1 and y0 < y < y1, word
            found[("T" if y > mid_y else "B") + ("L" if x < mid_x else "R")].append(int(word["text"]))
    return found


@pytest.mark.slow  # its documents and export (`built`): some 5 s
def test_each_cards_page_shows_cost_top_left_attack_bottom_left_health_bottom_right(report, built):
    cards = {card.name: card for card in report.game.cards}
    seen: dict[str, int] = {}
    [pdf] = (built / "export" / "export-drivethru-duel").glob("*.pdf")
    document = pypdfium2.PdfDocument(pdf)
    trims = [page.get_trimbox() for page in document]
    document.close()
    for words, trim in zip(page_words(pdf), trims, strict=True):
        named = [name for name in cards if set(name.split()) <= {word["text"] for word in words}]  # a long name takes two lines
        if not named:
            continue  # a back
        card = cards[max(named, key=len)]
        seen[card.name] = seen.get(card.name, 0) + 1
        corners = corner_numbers(words, trim)
        value = card.value
        if "creature" in card.kinds:
            expected = {"TL": [value("cost")], "TR": [], "BL": [value("attack")], "BR": [value("health")]}
        else:  # a spell: its cost, no attack, no health
            expected = {"TL": [value("cost")], "TR": [], "BL": [], "BR": []}
        assert corners == expected, card.name
    counts = yaml.safe_load((GAME / "setups.yaml").read_text(encoding="utf-8"))["setups"][0]["cards"]
    assert seen == counts  # every card's every copy, one page each
    assert len(seen) == 23 and sum(seen.values()) == 41


def check_json(folder, capsys) -> tuple[int, dict]:
    capsys.readouterr()
    code = cli.main(["check", str(folder), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_check_json_gives_each_seat_its_hand_and_its_own_deck(capsys):
    code, found = check_json(GAME, capsys)
    assert code == 0
    [setup] = found["setups"]
    [two] = setup["players"]
    assert two["players"] == 2 and two["first_player"] == "random"
    first, second = two["seats"]
    assert (first["seat"], first["hand"], first["piles"]) == (1, 3, {"library": 17})
    assert (second["seat"], second["hand"], second["piles"]) == (2, 5, {"library": 16})  # 4 and the Spark
    assert two["components"]["health"]["start"] == 20
    assert not [f for f in found["findings"] + setup["findings"] if f["level"] in ("error", "warning")]


def flat(pages: list[str]) -> str:
    return re.sub(r"\s+", " ", " ".join(pages))


@pytest.mark.slow  # its documents and export (`built`): some 5 s
def test_the_checklist_and_the_rulebook_say_each_seats_opening(built):
    checklist = flat(page_texts(built / "checklists.pdf"))
    assert "First player's hand 3 cards (20 cards: 3 in hand, 17 in their deck)" in checklist
    assert "Second player's hand 5 cards (21 cards: 4 cards and 1 Spark in hand, 16 in their deck)" in checklist
    assert "→ 3 cards to the first player, 4 cards to the second player" in checklist
    assert "Choose the first player at random." in checklist
    assert "→ Health counters: 20 each" in checklist
    rulebook = flat(page_texts(built / "rulebook.pdf"))
    assert ("First player: 20 cards: 3 in hand, 17 in their deck. Second player: 21 cards: 4 cards and 1 Spark in "
            "hand, 16 in their deck.") in rulebook
    for row in ("First player's hand 3", "Second player's hand 5", "First player's deck 17",
                "Second player's deck 16", "Health counters at the start 20"):
        assert row in rulebook
    assert not re.search(r"Each player starts with \d+ cards", rulebook)  # the seats differ: no one figure


def engine_figures(value) -> set[int]:
    """Every number the engine's report holds (an expected count rounded, as the documents print it)."""
    if isinstance(value, dict):
        return set().union(*map(engine_figures, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(engine_figures, value)) if value else set()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {round(value)}
    return set()


@pytest.mark.slow  # its documents and export (`built`): some 5 s
def test_no_document_states_a_count_the_engine_does_not_compute(built, capsys):
    _, found = check_json(GAME, capsys)
    computed = engine_figures(found)
    counted = re.compile(r"(\d+) (?:cards?|Creatures?|Spells?|Sparks?|Health counters?|Mana tokens?)\b")
    for document in ("checklists.pdf", "rulebook.pdf", "cheatsheet.pdf"):
        stated = {int(n) for n in counted.findall(flat(page_texts(built / document)))}
        assert stated and stated <= computed, (document, stated - computed)


@pytest.mark.parametrize("kind", ["xlsx", "ods"])
def test_the_cards_as_a_workbook_check_the_same_and_a_wrong_cell_is_named(kind, game_copy, capsys):
    expected = check_json(GAME, capsys)
    twin = game_copy(GAME)
    assert cli.main(["convert", str(twin), "--to", kind, "--out", str(twin / f"cards.{kind}")]) == 0
    (twin / "cards.yaml").unlink()
    assert check_json(twin, capsys) == expected

    wrong = game_copy(GAME, "wrong")
    edit(wrong / "cards.yaml", "    attack: 6\n    health: 9\n", "    attack: six\n    health: 9\n")  # Leviathan
    assert cli.main(["convert", str(wrong), "--to", kind, "--out", str(wrong / f"cards.{kind}")]) == 0
    (wrong / "cards.yaml").unlink()
    errors = [f for f in load_game(wrong).findings if f.level == "error"]
    assert [(f.code, str(f.where)) for f in errors] == [("wrong-type", f"wrong/cards.{kind}: Cards!H19")]


@pytest.mark.slow  # its documents and export (`built`): some 5 s
def test_the_cheat_sheet_lists_every_step_of_the_setup_in_order(built):
    text = flat(page_texts(built / "cheatsheet.pdf"))
    steps = ["Set the Spark aside.", "Each player takes the deck of their faction", "Choose the first player at random.",
             "Each player draws their opening hand", "The second player takes the Spark.",
             "Each player sets their health counter to 20."]
    places = [text.find(step) for step in steps]
    assert -1 not in places and places == sorted(places), places


def test_a_pocket_copy_of_two_cards_folds_on_their_edge_and_no_word_lies_on_the_fold(shipped_document):
    """The pocket cheat sheet needs two cards: each copy is a strip of two poker cards side by
    side, folded on a dashed line exactly at the first card's edge, and the text runs down one
    card and on in the next, so that no word lies on a fold."""
    import pdfplumber

    mm = 72 / 25.4
    with pdfplumber.open(shipped_document("creature_clash", "cheatsheet-pocket.pdf")) as pdf:
        page = pdf.pages[0]
        edges = sorted({round(e["x0"], 1) for e in page.edges if e["orientation"] == "v" and e["height"] > 50 * mm})
        folds = [r for r in page.rects if 0 < r["width"] < 1 and r["height"] > 50 * mm]  # the dashed rules
        words = page.extract_words()
    left, right = edges[0] - 0.2, edges[-1] + 0.2  # the dashed border, 0.4 pt wide, lies inside the copy's edge
    assert round((right - left) / mm) == 126  # two cards of 63 mm
    assert len(folds) == 3  # a fold on each of the page's three copies
    for fold in folds:
        assert abs((fold["x0"] + fold["x1"]) / 2 - left - 63 * mm) < 0.1  # on the first card's edge
        on_it = [w["text"] for w in words if w["x0"] < fold["x1"] and w["x1"] > fold["x0"]
                 and w["bottom"] > fold["top"] and w["top"] < fold["bottom"]]
        assert on_it == []
    texts = " ".join(w["text"] for w in words)
    assert texts.count("Storm Gull") == 3 and texts.count("Coral Guardian") == 3


def test_cards_too_wide_for_two_side_by_side_get_their_pocket_strips_on_a_landscape_page(game_copy, tmp_path):
    """At 120 x 70 mm two cards do not fit across an upright A4 page: the page of pocket copies
    is turned landscape, and each strip of two still folds on its first card's edge."""
    import pdfplumber

    folder = game_copy("creature_clash")
    edit(folder / "game.yaml", "card_size: poker", "card_size: {width_mm: 120, height_mm: 70}")
    code, out, err = cardgen("cheatsheet", folder, "--out", tmp_path)
    assert code == 0, err
    mm = 72 / 25.4
    with pdfplumber.open(tmp_path / "cheatsheet-pocket.pdf") as pdf:
        page = pdf.pages[0]
        assert page.width > page.height  # landscape
        edges = sorted({round(e["x0"], 1) for e in page.edges if e["orientation"] == "v" and e["height"] > 50 * mm})
        folds = [r for r in page.rects if 0 < r["width"] < 1 and r["height"] > 50 * mm]
    left = edges[0] - 0.2
    assert round((edges[-1] + 0.2 - left) / mm) == 240 and folds  # two cards of 120 mm
    assert all(abs((fold["x0"] + fold["x1"]) / 2 - left - 120 * mm) < 0.1 for fold in folds)

"""star_tricks, the trick-taking example: a playing-card face written in layout.yaml. Its sheets
carry each card's rank twice, once upright in the top-left quarter and once turned 180° in the
bottom-right quarter (read back from the PDF's text matrix), with no name band; the engine
confirms the deal for 3 to 5 players and the tasks revealed by difficulty. Its two decks, 40
poker playing cards and 30 mini task cards, are built once each at their own size (read back
from the placed cards and their crop marks), and a task text is measured on the mini card."""
from __future__ import annotations

import pdfplumber
import pytest
from conftest import CARD_DATA, cardgen, check, edit

from cardgen import load

MM = 72 / 25.4
CARD_W, CARD_H = 63 * MM, 88 * MM  # poker


def _ranks(page) -> tuple[list[dict], list[dict]]:
    """The rank characters (the big digits) of a page: upright, and turned 180°."""
    digits = [c for c in page.chars if c["text"].isdigit() and c["size"] > 12]
    upright = [c for c in digits if c["matrix"][0] > 0 and c["matrix"][3] > 0 and abs(c["matrix"][1]) < 1e-6]
    turned = [c for c in digits if c["matrix"][0] < 0 and c["matrix"][3] < 0 and abs(c["matrix"][1]) < 1e-6]
    return upright, turned


def _centre(char: dict) -> tuple[float, float]:
    return (char["x0"] + char["x1"]) / 2, (char["top"] + char["bottom"]) / 2


@pytest.mark.slow
def test_each_rank_is_upright_top_left_and_turned_bottom_right_with_no_name_band(tmp_path):
    code, out, err = cardgen("cards", "star_tricks", "--all-types", "--no-backs", "--out", tmp_path)
    assert code == 0, out + err
    game = load.load_game(CARD_DATA / "star_tricks").game
    pairs = 0
    playing = [card for card in game.cards if card.deck == "playing"]
    with pdfplumber.open(tmp_path / "cards-all-types-playing.pdf") as document:
        for page in document.pages:
            upright, turned = _ranks(page)
            assert len(upright) == len(turned)
            for char in upright:
                x, y = _centre(char)
                # its twin: the same rank, turned, in the bottom-right quarter of the same card
                # (from the top-left quarter, more than half the card right and down, less than a card)
                twins = [t for t in turned if t["text"] == char["text"]
                         and CARD_W / 2 < _centre(t)[0] - x < CARD_W and CARD_H / 2 < _centre(t)[1] - y < CARD_H]
                assert len(twins) == 1, (char["text"], x, y)
                pairs += 1
            text = page.extract_text() or ""
            assert not any(card.name in text for card in playing)  # no name band
    assert pairs == len(playing) == 40


def test_the_deal_is_even_for_3_to_5_players(capsys):
    report = load.load_game(CARD_DATA / "star_tricks")
    assert not [f for f in report.findings if f.level == "error"]
    code, out, err = cardgen("check", "star_tricks")
    assert code == 0, out + err
    assert "0 errors, 0 warnings" in out
    # players, each hand, task piles, tasks in play (one of difficulty 1 each, one of 2, with 5 one of 3), set aside
    for row in ((3, 13, 26, 4, 1), (4, 10, 25, 5, 0), (5, 8, 23, 7, 0)):
        assert any(line.split() == [str(n) for n in row] for line in out.splitlines()), out


def _trimmed_sizes(page) -> set[tuple[float, float]]:
    """The cards' trimmed sizes (width, height in mm) between a page's crop marks: the vertical marks
    in the top margin and the horizontal ones in the left margin, in pairs (a card's two edges)."""
    margin = 7.6 * MM  # the sheet's first trim line is 7.5 mm from the paper's edge; the ruler is lower
    xs = sorted({round(line["x0"] / MM, 2) for line in page.lines
                 if abs(line["x0"] - line["x1"]) < 0.01 and line["bottom"] < margin})
    ys = sorted({round(line["top"] / MM, 2) for line in page.lines
                 if abs(line["top"] - line["bottom"]) < 0.01 and line["x1"] < margin})
    assert len(xs) % 2 == 0 and len(ys) % 2 == 0 and xs and ys, (xs, ys)
    return {(round(right - left, 2), round(bottom - top, 2))
            for left, right in zip(xs[::2], xs[1::2]) for top, bottom in zip(ys[::2], ys[1::2])}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The card sheets as `cardgen cards` writes them (a whole build writes the same ones, and its
    documents too, which this file does not read)."""
    out = tmp_path_factory.mktemp("star_tricks")
    code, _, err = cardgen("cards", "star_tricks", "--out", out)
    assert code == 0, err
    return out


@pytest.mark.slow
@pytest.mark.parametrize("deck, size, cards", [("playing", (63, 88), 40), ("tasks", (44, 63), 30)])
def test_build_prints_each_deck_once_at_its_own_size_between_its_crop_marks(built, deck, size, cards):
    assert sorted(p.name for p in built.glob("cards-*.pdf")) == ["cards-standard-playing.pdf",
                                                                 "cards-standard-tasks.pdf"]
    faces = 0
    with pdfplumber.open(built / f"cards-standard-{deck}.pdf") as document:
        for page in document.pages[::2]:  # each page of faces is followed by its backs
            assert {tuple(sorted(sides)) for sides in _trimmed_sizes(page)} == {size}
            words = (page.extract_text() or "").split()  # a task card lies on its side: TASK reads KSAT
            faces += len(_ranks(page)[0]) if deck == "playing" else words.count("KSAT")
    assert faces == cards  # every card of the deck once, no card of the other deck


def test_a_task_text_that_fits_at_poker_but_not_at_mini_is_an_error_at_its_line(game_copy, capsys):
    folder = game_copy("star_tricks")
    edit(folder / "cards.yaml", '"Win exactly one trick."', '"Win exactly one trick' + ", then one more trick" * 8 + '."')
    code, out = check(folder, capsys)
    line = next(n for n, text in enumerate((folder / "cards.yaml").read_text().splitlines(), 1) if "one more trick" in text)
    (finding,) = [f for f in out.splitlines() if "[text-does-not-fit]" in f]
    assert code == 1 and finding.strip().startswith(f"star_tricks/cards.yaml:{line}:"), finding
    assert "card 'Exactly one trick'" in finding and "on a 44x63 mm card (Task cards)" in finding
    edit(folder / "game.yaml", "Task cards, card_size: mini", "Task cards, card_size: poker")
    code, out = check(folder, capsys)
    assert code == 0, out


def test_a_checklist_that_runs_onto_a_second_page_names_itself_there(shipped_document):
    """The whole deck is gathered on a list two pages long: the second page says at its top which
    setup and player count it continues (a loose page is still known); a first page does not."""
    with pdfplumber.open(shipped_document("star_tricks", "checklists.pdf")) as pdf:
        tops = [" ".join((page.crop((0, 0, page.width, 36)).extract_text() or "").split()) for page in pdf.pages]
    assert tops[1::2] == [f"Star Tricks · Standard · {n} players (continued)" for n in (3, 4, 5)]
    assert not any("continued" in top for top in tops[0::2])

"""star_tricks, the trick-taking example: a playing-card face written in layout.yaml. Its sheets
carry each card's rank twice, once upright in the top-left quarter and once turned 180° in the
bottom-right quarter (read back from the PDF's text matrix), with no name band; the engine
confirms the deal for 3 to 5 players."""
from __future__ import annotations

import pdfplumber
from conftest import CARD_DATA, cardgen

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


def test_each_rank_is_upright_top_left_and_turned_bottom_right_with_no_name_band(tmp_path):
    code, out, err = cardgen("cards", "star_tricks", "--all-types", "--no-backs", "--out", tmp_path)
    assert code == 0, out + err
    game = load.load_game(CARD_DATA / "star_tricks").game
    pairs = 0
    with pdfplumber.open(tmp_path / "cards-all-types.pdf") as document:
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
            assert not any(card.name in text for card in game.cards)  # no name band
    assert pairs == len(game.cards) == 40


def test_the_deal_is_even_for_3_to_5_players(capsys):
    report = load.load_game(CARD_DATA / "star_tricks")
    assert not [f for f in report.findings if f.level == "error"]
    code, out, err = cardgen("check", "star_tricks")
    assert code == 0, out + err
    assert "0 errors, 0 warnings" in out
    for players, each, aside in ((3, 13, 1), (4, 10, 0), (5, 8, 0)):
        assert any(line.split()[:3] == [str(players), str(each), str(aside)] for line in out.splitlines()), out

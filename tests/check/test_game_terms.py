"""Documents speak each game's own terms: a card's own symbol, a legend of only the
parts the game's cards use, version text as written, singular for one card, no fractional card
counts, short chapters that flow on. Read back from real PDFs."""
from __future__ import annotations

import io
import re
import shutil

import pypdf
import pypdfium2
import pytest
from conftest import CARD_DATA, checked, each_shipped_game, page_lines, sheet_for
from PIL import Image, ImageChops, ImageStat

from cardgen.layout import sheet as layout
from cardgen.render import cards, documents

FRACTIONAL_CARDS = re.compile(r"\b\d+\.\d+ cards?\b")
WRONG_PLURAL = re.compile(r"(?<![\d.])1 cards\b")




def pdf_text(path) -> str:
    return "\n".join(page_lines(path))


def page_count(path) -> int:
    return len(pypdfium2.PdfDocument(path))


@pytest.fixture(scope="module")
def plain_game(tmp_path_factory):
    """A game whose cards use no star, number, tag or flavor, with a word for a version."""
    folder = tmp_path_factory.mktemp("plain") / "plain"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        "title: Plain Duel\nversion: Classic\n"
        "colors:\n  - {id: red, name: Red, hex: '#c0392b', symbol: bomb}\n"
        "  - {id: blue, name: Blue, hex: '#2e86c1', symbol: gear}\n"
        "setup:\n  steps:\n    - deal: {from: deck, count: hand}\n      text: Deal the hands.\n")
    (folder / "cards.yaml").write_text(
        "cards:\n  - {name: Strike, color: red, text: Your opponent loses a life.}\n"
        "  - {name: Guard, color: blue, text: Cancel a Strike.}\n")
    (folder / "setups.yaml").write_text(
        "setups:\n  - name: Duel\n    blurb: Two players.\n    players: {min: 2, max: 2}\n"
        "    hand: {deal: 1}\n    cards: {Strike: 6, Guard: 1}\n")
    (folder / "rules.md").write_text("# Overview\n\nStrike first.\n\n## Structure of a card\n\n"
                                     "Each card has a name and an effect.\n\n# Winning\n\nLast one standing wins.\n")
    game, report = checked(folder)
    out = tmp_path_factory.mktemp("plain-out")
    return game, documents.write_rulebook(game, report, out), documents.write_checklists(game, report, out)


def test_the_legend_names_only_the_parts_the_cards_use(plain_game):
    _, rulebook, _ = plain_game
    text = pdf_text(rulebook)
    assert "Name" in text and "Symbol" in text and "Effect" in text
    assert "The parts of a card" in text
    for absent in ("Star", "Number of the card", "brackets", "Tags", "Flavor", "Funny line", "special card"):
        assert absent not in text, absent


def test_a_word_for_a_version_is_printed_as_written(plain_game):
    _, rulebook, checklists = plain_game
    assert "Rules Classic" in pdf_text(rulebook)
    assert "vClassic" not in pdf_text(rulebook) + pdf_text(checklists)


def test_one_card_is_one_card(plain_game):
    _, rulebook, checklists = plain_game
    text = pdf_text(rulebook) + pdf_text(checklists)
    assert "1 card" in text
    assert not WRONG_PLURAL.search(text)


def test_short_chapters_share_a_page(plain_game):
    _, rulebook, _ = plain_game
    assert page_count(rulebook) <= 4  # title, contents, and the short chapters together


@pytest.mark.parametrize("name", each_shipped_game())
def test_no_fractional_card_counts_nor_glued_version_in_shipped_games(name, shipped_document):
    game, _ = checked(name)
    text = pdf_text(shipped_document(name, "checklists.pdf"))  # built by `cardgen checklist`
    assert re.search(r"\b\d+ cards?\b", text)  # the checklists do count cards (whole numbers)
    assert not FRACTIONAL_CARDS.search(text), FRACTIONAL_CARDS.search(text)
    assert not WRONG_PLURAL.search(text)
    # what the two patterns would find in a checklist that got them wrong
    assert FRACTIONAL_CARDS.search(text + " Deal 2.5 cards.") and WRONG_PLURAL.search(text + " Take 1 cards.")
    if game.version and not game.version[0].isdigit():
        assert f"v{game.version}" not in text


def test_a_markdown_table_is_styled_like_the_generated_ones(tmp_path):
    game, _ = checked("exploding_puppy")
    html = str(documents.markdown_html("| a | b |\n|---|---|\n| 1 | 2 |\n", game))
    assert '<table class="md-table">' in html


def test_a_card_carries_its_own_symbol_in_the_rulebook(puppy_rulebook):
    game, report, path = puppy_rulebook
    imploding = next(c for c in game.cards if c.name == "Imploding Puppy")
    assert game.symbol_of(imploding) == "alarm" != game.color(imploding.color).symbol
    text = pdf_text(path)  # a tagged PDF's symbol reads as its name (a color's symbol as the color's name)
    assert "alarm Imploding Puppy" in text
    assert f"{game.color(imploding.color).name} Imploding Puppy" not in text


def _card_pixels(pdf_path):
    page = pypdfium2.PdfDocument(str(pdf_path))[0]
    return page.render(scale=1).to_pil().convert("RGB")


@pytest.mark.slow
def test_a_card_carries_its_own_symbol_on_its_card(tmp_path):
    """Giving one card its own symbol changes that card's face and no other card's."""
    game, _ = checked("exploding_puppy")
    before = cards.write_proof_sheet(game, sheet_for(game, spacing="gutter"), tmp_path / "before")
    folder = tmp_path / "game"
    shutil.copytree(CARD_DATA / "exploding_puppy", folder)
    data = (folder / "cards.yaml").read_text().replace("    symbol: alarm\n", "")
    (folder / "cards.yaml").write_text(data)
    plain, _ = checked(folder)
    after = cards.write_proof_sheet(plain, sheet_for(plain, spacing="gutter"), tmp_path / "after")
    first, second = _card_pixels(before), _card_pixels(after)
    diff = [(x, y) for x in range(first.width) for y in range(first.height)
            if first.getpixel((x, y)) != second.getpixel((x, y))]
    assert diff, "the card's own symbol changed nothing"
    xs, ys = [x for x, _ in diff], [y for _, y in diff]
    # Imploding Puppy is the second card of the proof sheet: every change lies in its slot
    cell = layout.make_sheet("a4", game.card_size, spacing="gutter").cell(1)
    assert cell.x - 1 <= min(xs) and max(xs) <= cell.right + 1
    assert first.height - cell.top - 1 <= min(ys) and max(ys) <= first.height - cell.y + 1


@pytest.mark.slow
def test_a_game_without_setups_checks_and_builds_its_proof_sheet_and_rulebook(game_copy, tmp_path, capsys):
    from cardgen.cli import main
    folder = game_copy()
    (folder / "setups.yaml").unlink()
    assert main(["check", str(folder)]) == 0
    report = capsys.readouterr().out
    assert "[no-setups]" in report and "[no-rules]" in report
    out = tmp_path / "out"
    assert main(["build", str(folder), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.glob("*.pdf")) == ["cards-all-types.pdf", "rulebook.pdf"]
    assert "skipped checklists.pdf" in capsys.readouterr().err
    document = pypdfium2.PdfDocument(out / "cards-all-types.pdf")  # reads the cards on their side too
    text = document[0].get_textpage().get_text_range()
    document.close()
    assert all(name in text for name in ("Boom", "Shield", "Peek"))
    assert main(["cards", str(folder), "--out", str(out)]) == 2
    assert "--all-types" in capsys.readouterr().err


def test_the_rulebooks_card_diagram_is_the_printed_card(plain_game):
    """The diagram's image is the example card drawn by the card painter, as the sheets print it."""
    game, rulebook, _ = plain_game
    pages = [p for p in pypdf.PdfReader(rulebook).pages if "The parts of a card" in (p.extract_text() or "")]
    assert len(pages) == 1 and len(pages[0].images) == 1
    shown = pages[0].images[0].image.convert("RGB")
    drawn = Image.open(io.BytesIO(documents.example_card_png(game))).convert("RGB")
    assert shown.size == drawn.size
    assert ImageStat.Stat(ImageChops.difference(shown, drawn)).mean[0] < 2

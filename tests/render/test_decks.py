"""Decks of their own card sizes (game.yaml's decks:): a build prints each deck of a setup once, in
a file of its own, at its own size (the placed cards and the crop marks read back from the PDFs);
exports write each deck at its vendor's size, Tabletop Simulator one deck object per deck; a `print: all`
deck is built once in a file of its own and is no setup; the cheat sheet lists the decks it names."""
from __future__ import annotations

import io
import json

import pypdf
import pytest
from conftest import TEST_DATA, cardgen, edit, page_texts
from PIL import Image
from test_sheets import trim_of, walk

from cardgen import cli
from cardgen.load import load_game
from cardgen.model.sizes import DEFAULT_BLEED_MM, MM
from cardgen.render import card_images

TASK_TRICKS = TEST_DATA / "task_tricks"  # 12 poker playing cards and 6 mini task cards
NEAR = 0.01 * MM


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The setup's card sheets as `cardgen cards` writes them: the files a build writes, byte for
    byte, without its documents (test_a_print_all_deck... builds the whole game)."""
    out = tmp_path_factory.mktemp("task_tricks")
    code, _, err = cardgen("cards", TASK_TRICKS, "--out", out)
    assert code == 0, err
    return out


def placed_cards(path) -> list[tuple[float, float, list]]:
    """Each card face placed on the face pages: its trim's sides in mm (short side first) and the
    trim's four edges (left, right x; bottom, top y in points), and each page's stroked lines."""
    reader, found = pypdf.PdfReader(path), []
    for number in range(0, len(reader.pages), 2):  # each face page is followed by its backs
        page = walk(reader, number)
        for card in page.cards("face"):
            trim = trim_of(card, DEFAULT_BLEED_MM * MM)
            short, long = sorted((trim.w / MM, trim.h / MM))
            found.append((round(short, 2), round(long, 2), [trim, page.lines]))
    return found


def on_a_mark(value: float, lines, vertical: bool) -> bool:
    """Whether a crop mark runs along x = value (vertical) or y = value (horizontal)."""
    axis = 0 if vertical else 1
    return any(abs(a[axis] - value) < NEAR and abs(b[axis] - value) < NEAR for a, b in lines)


@pytest.mark.slow
def test_each_deck_of_a_setup_is_printed_once_in_its_own_file(built):
    sheets = sorted(p.name for p in built.glob("cards-*.pdf"))
    assert sheets == ["cards-mission-playing.pdf", "cards-mission-tasks.pdf"]
    assert len(placed_cards(built / "cards-mission-playing.pdf")) == 12
    assert len(placed_cards(built / "cards-mission-tasks.pdf")) == 6


@pytest.mark.parametrize("deck, size", [("playing", (63, 88)), ("tasks", (44, 63))])
def test_each_deck_is_printed_at_its_own_size_between_its_crop_marks(built, deck, size):
    for short, long, (trim, lines) in placed_cards(built / f"cards-mission-{deck}.pdf"):
        assert (short, long) == size
        assert on_a_mark(trim.x, lines, True) and on_a_mark(trim.right, lines, True)
        assert on_a_mark(trim.y, lines, False) and on_a_mark(trim.top, lines, False)


def test_the_proof_sheet_is_one_file_a_deck(tmp_path):
    code, _, err = cardgen("cards", TASK_TRICKS, "--all-types", "--out", tmp_path)
    assert code == 0, err
    assert [len(placed_cards(tmp_path / f"cards-all-types-{deck}.pdf")) for deck in ("playing", "tasks")] == [12, 6]


def test_tts_gets_one_deck_object_a_deck(tmp_path):
    code, _, err = cardgen("export", TASK_TRICKS, "--to", "tts", "--out", tmp_path)
    assert code == 0, err
    for deck, copies in (("playing", 12), ("tasks", 6)):
        saved = json.loads((tmp_path / f"export-tts-mission-{deck}" / f"task_tricks-mission-{deck}.json").read_text())
        (deck_object,) = saved["ObjectStates"]
        assert deck_object["Name"] == "DeckCustom" and len(deck_object["DeckIDs"]) == copies


@pytest.mark.slow
def test_a_vendor_export_makes_each_deck_at_its_product_size(tmp_path):
    code, _, err = cardgen("export", TASK_TRICKS, "--to", "tgc", "--out", tmp_path)
    assert code == 0, err
    playing = [Image.open(p).size for p in (tmp_path / "export-tgc-mission-playing").glob("*-front.png")]
    tasks = [Image.open(p).size for p in (tmp_path / "export-tgc-mission-tasks").glob("*-front.png")]
    assert len(playing) == 12 and set(playing) == {(825, 1125)}  # TGC's poker deck
    assert len(tasks) == 6 and set(tasks) == {(600, 825)}  # TGC's mini deck


def test_a_landscape_deck_is_its_size_turned(game_copy, tmp_path):
    folder = game_copy(TASK_TRICKS)
    edit(folder / "game.yaml", "card_size: mini", "card_size: mini\n    landscape: true")
    code, _, err = cardgen("export", folder, "--to", "tgc", "--out", tmp_path)
    assert code == 0, err
    assert {Image.open(p).size for p in (tmp_path / "export-tgc-mission-tasks").glob("*-front.png")} == {(825, 600)}


def test_the_live_preview_draws_each_card_at_its_decks_proportions():
    game = load_game(TASK_TRICKS).game
    for card_id, size in (("red-1", (63, 88)), ("captain", (44, 63))):
        page = pypdf.PdfReader(io.BytesIO(card_images.face_pdf(game, game.card(card_id)))).pages[0]
        assert (round(float(page.mediabox.width) / MM), round(float(page.mediabox.height) / MM)) == size


REFERENCE_DECK = """  - id: reference
    name: Rules cards
    card_size: poker
    print: all
    select: {kind: reference}
"""


@pytest.mark.slow
def test_a_print_all_deck_is_built_once_in_its_own_file_and_is_no_setup(game_copy, tmp_path):
    folder = game_copy(TASK_TRICKS)
    edit(folder / "game.yaml", "  - {id: task, name: Task}\n",
         "  - {id: task, name: Task}\n  - {id: reference, name: Rules card}\n")
    edit(folder / "game.yaml", "setup:\n", REFERENCE_DECK + "setup:\n")
    with (folder / "cards.yaml").open("a", encoding="utf-8") as cards:
        cards.write('  - {name: Trick Order, color: task, kind: reference, text: "Follow suit; the highest card wins."}\n'
                    '  - {name: Scoring, color: task, kind: reference, text: "A mission is won or lost together."}\n')
    edit(folder / "game.yaml", "print: all", "print: al")
    code, out, _ = cardgen("check", folder)
    assert code == 1 and "game.yaml:" in out and "deck 'reference': print 'al' is not one of setups, all" in out
    edit(folder / "game.yaml", "print: al", "print: all")
    code, _, err = cardgen("build", folder, "--out", tmp_path)
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.glob("cards-*.pdf")) == [
        "cards-mission-playing.pdf", "cards-mission-tasks.pdf", "cards-reference.pdf"]
    assert [len(placed_cards(tmp_path / f"cards-{name}.pdf")) for name in ("mission-playing", "mission-tasks", "reference")] \
        == [12, 6, 2]
    def text(document: str) -> str:
        return "".join(page_texts(tmp_path / document))
    checklists, rulebook = text("checklists.pdf"), text("rulebook.pdf")
    assert "Mission" in checklists and "Rules cards" not in checklists and "Trick Order" not in checklists
    assert "Trick Order" in rulebook and "Rules cards" not in rulebook  # shown among the cards, not as a setup


@pytest.mark.slow
def test_the_cheat_sheet_lists_the_cards_of_the_decks_it_names(game_copy, tmp_path, capsys):
    folder = game_copy(TASK_TRICKS)
    with (folder / "game.yaml").open("a", encoding="utf-8") as game:
        game.write("reference:\n  cheatsheet:\n    goal: Win every task.\n    card_decks: [taks]\n")
    code = cli.main(["check", str(folder)])
    out = capsys.readouterr().out
    assert code == 1 and "cheatsheet: card_decks: no deck 'taks'" in out and "did you mean 'tasks'?" in out
    edit(folder / "game.yaml", "[taks]", "[tasks]")
    code, _, err = cardgen("cheatsheet", folder, "--out", tmp_path)  # the file a build writes, byte for byte
    assert code == 0, err
    text = "".join(page_texts(tmp_path / "cheatsheet.pdf"))
    assert "Captain" in text and "First Trick" in text
    assert "Red 1" not in text and "Blue 4" not in text

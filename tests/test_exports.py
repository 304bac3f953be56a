"""cardgen export: per-card images for print services, the 1-up PDF and Tabletop Simulator deck
sheets, read back from the files (sizes, dpi tags, counts, pairing, grid and JSON)."""
from __future__ import annotations

import csv
import json

import pdfplumber
import pytest
from PIL import Image, ImageChops, ImageStat

from cardgen import engine, load
from cardgen.cli import main

from conftest import TINY_GAME

# the tiny game is 'mini' (44 x 63 mm): the services' mini card is 1.75 x 2.5 in
MINI_FULL = {"tgc": (600, 825), "mpc": (597, 822)}


@pytest.fixture(scope="module")
def tiny():
    result = load.load_game(TINY_GAME)
    report = engine.check_game(result.game, result.findings)
    counts = {c.id: 0 for c in result.game.cards}
    for name, n in report.setup("Starter").print_counts.items():
        counts[next(c.id for c in result.game.cards if c.name.casefold() == name.casefold())] = n
    return result.game, counts


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("exports")
    for target in ("tgc", "mpc", "drivethru", "tts"):
        assert main(["export", str(TINY_GAME), "--to", target, "--out", str(out)]) == 0
    assert main(["export", str(TINY_GAME), "--to", "png", "--dpi", "150", "--out", str(out)]) == 0
    return out


@pytest.mark.parametrize("target", ["tgc", "mpc"])
def test_vendor_images_are_exact_dpi_tagged_and_counted(exported, tiny, target):
    game, counts = tiny
    folder = exported / f"export-{target}-starter"
    with open(folder / "index.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert {row["name"]: int(row["copies"]) for row in rows} == {c.name: counts[c.id] for c in game.cards if counts[c.id]}
    for row in rows:
        assert f"-x{row['copies']}-front.png" in row["front"]
        for name in (row["front"], row["back"]):
            image = Image.open(folder / name)
            assert image.size == MINI_FULL[target] and image.mode == "RGB"
            assert round(image.info["dpi"][0]) == 300
    assert sorted(p.name for p in folder.glob("*-front.png")) == sorted(r["front"] for r in rows)


def test_a_card_image_is_the_card_centred_with_its_bleed(exported):
    """The bleed (37.5 px a side at TGC) carries the card's edge color; the card is centred."""
    image = Image.open(next((exported / "export-tgc-starter").glob("001-*-front.png")))
    w, h = image.size
    corners = [image.getpixel(p) for p in ((2, 2), (w - 3, 2), (2, h - 3), (w - 3, h - 3))]
    assert len(set(corners)) == 1 and corners[0] != (255, 255, 255)
    left = image.crop((0, 0, 37, h))
    assert len(left.getcolors(4096) or []) <= 4  # only the frame's color in the bleed


def test_png_target_is_the_games_size_at_the_chosen_dpi(exported):
    image = Image.open(next((exported / "export-png-starter").glob("*-front.png")))
    width_mm, height_mm, bleed_mm = 44, 63, 3
    assert image.size == (round((width_mm + 2 * bleed_mm) / 25.4 * 150), round((height_mm + 2 * bleed_mm) / 25.4 * 150))
    assert round(image.info["dpi"][0]) == 150


def test_one_up_pdf_alternates_fronts_and_backs_with_boxes(exported, tiny):
    game, counts = tiny
    with pdfplumber.open(next((exported / "export-drivethru-starter").glob("*.pdf"))) as pdf:
        assert len(pdf.pages) == 2 * sum(counts.values())
        for page in pdf.pages[:4]:
            assert (round(page.width), round(page.height)) == (round(1.75 * 72 + 18), round(2.5 * 72 + 18))
            trim = [float(v) for v in page.page_obj.attrs["TrimBox"]]
            assert trim == pytest.approx([9, 9, page.width - 9, page.height - 9], abs=0.01)
        fronts = [pdf.pages[i].dedupe_chars(tolerance=1.5).extract_text() for i in range(0, 4, 2)]
        backs = [pdf.pages[i].dedupe_chars(tolerance=1.5).extract_text() for i in range(1, 4, 2)]
    assert all(game.title.split()[0] in text for text in backs)
    assert all(any(c.name in text for c in game.cards) for text in fronts)


def test_tts_sheet_grid_and_saved_object_agree(exported, tiny):
    game, counts = tiny
    folder = exported / "export-tts-starter"
    saved = json.loads(next(folder.glob("*.json")).read_text())
    deck = saved["ObjectStates"][0]
    custom = deck["CustomDeck"]["1"]
    sheet = Image.open(folder / "sheet-01.jpg")
    back = Image.open(folder / "back.jpg")
    columns, rows = custom["NumWidth"], custom["NumHeight"]
    assert sheet.size == (columns * back.width, rows * back.height)
    assert max(sheet.size) <= 4096 and sheet.mode == "RGB"
    assert len(deck["DeckIDs"]) == sum(counts.values()) == len(deck["ContainedObjects"])
    types = len([c for c in game.cards if counts[c.id]])
    assert sorted(set(deck["DeckIDs"])) == [100 + i for i in range(types)]
    assert types <= columns * rows - 1
    assert custom["FaceURL"] == (folder / "sheet-01.jpg").resolve().as_uri()
    assert custom["BackURL"] == (folder / "back.jpg").resolve().as_uri()
    hidden = sheet.crop(((columns - 1) * back.width, (rows - 1) * back.height, columns * back.width, rows * back.height))
    assert _mean_difference(hidden, back) < 8  # the last slot is the hidden card: the back


def _mean_difference(a: Image.Image, b: Image.Image) -> float:
    return ImageStat.Stat(ImageChops.difference(a.convert("L"), b.convert("L"))).mean[0]


def test_a_deck_of_more_than_69_types_takes_several_tts_sheets(tmp_path):
    assert main(["export", "exploding_puppy", "--to", "tts", "--all-types", "--out", str(tmp_path)]) == 0
    folder = tmp_path / "export-tts-all-types"
    deck = json.loads(next(folder.glob("*.json")).read_text())["ObjectStates"][0]
    assert sorted(deck["CustomDeck"]) == ["1", "2"]
    assert len(deck["DeckIDs"]) == 73
    assert {i // 100 for i in deck["DeckIDs"]} == {1, 2} and max(i % 100 for i in deck["DeckIDs"]) == 68
    for number in ("01", "02"):
        assert max(Image.open(folder / f"sheet-{number}.jpg").size) <= 4096


def test_usage_problems_exit_2(tmp_path, capsys):
    assert main(["export", str(TINY_GAME), "--to", "nowhere", "--out", str(tmp_path)]) == 2
    assert "tgc" in capsys.readouterr().err
    assert main(["export", str(TINY_GAME), "--to", "tgc", "--dpi", "600", "--out", str(tmp_path)]) == 2


def test_a_size_the_service_does_not_make_is_an_error_before_rendering(game_copy, tmp_path, capsys):
    folder = game_copy()
    text = (folder / "game.yaml").read_text().replace("card_size: mini", "card_size: {width_mm: 80, height_mm: 80}")
    (folder / "game.yaml").write_text(text)
    assert main(["export", str(folder), "--to", "tgc", "--out", str(tmp_path)]) == 1
    assert "80x80 mm" in capsys.readouterr().err
    assert not list(tmp_path.glob("export-*"))


def test_a_game_adds_its_own_target_and_check_reports_a_bad_one(game_copy, tmp_path, capsys):
    folder = game_copy()
    (folder / "export-targets.yaml").write_text(
        "myshop:\n  name: My Shop\n  format: png\n  dpi: 300\n  sizes:\n    mini: {trim: [525, 750], bleed: 30}\n")
    assert main(["export", str(folder), "--to", "myshop", "--out", str(tmp_path)]) == 0
    assert Image.open(next((tmp_path / "export-myshop-starter").glob("*-front.png"))).size == (585, 810)
    (folder / "export-targets.yaml").write_text("myshop:\n  name: My Shop\n  format: jpg\n  dpi: 300\n")
    capsys.readouterr()
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "export-targets.yaml:3:11" in out and "unknown-format" in out

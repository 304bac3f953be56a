"""cardgen export: per-card images for print services, the 1-up PDF and Tabletop Simulator deck
sheets, read back from the files (sizes, dpi tags, counts, pairing, grid and JSON)."""
from __future__ import annotations

import csv
import json

import pikepdf
import pytest
from conftest import TEST_DATA, TINY_GAME, checked, page_texts
from PIL import Image, ImageChops, ImageStat

from cardgen import load
from cardgen.cli import main
from cardgen.render import cards

TWO_BACKS = TEST_DATA / "two_backs"

# the tiny game is 'mini' (44 x 63 mm): the services' mini card is 1.75 x 2.5 in
MINI_FULL = {"tgc": (600, 825), "mpc": (597, 822)}


@pytest.fixture(scope="module")
def tiny():
    game, report = checked(TINY_GAME)
    counts = {c.id: 0 for c in game.cards}
    for name, n in report.setup("Starter").print_counts.items():
        counts[next(c.id for c in game.cards if c.name.casefold() == name.casefold())] = n
    return game, counts


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("exports")
    for target in ("tgc", "mpc", "drivethru", "tts"):
        assert main(["export", str(TINY_GAME), "--to", target, "--out", str(out)]) == 0
    assert main(["export", str(TINY_GAME), "--to", "png", "--dpi", "150", "--out", str(out)]) == 0
    return out


@pytest.mark.slow
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
    path = next((exported / "export-drivethru-starter").glob("*.pdf"))
    with pikepdf.open(path) as pdf:  # the page tree alone: nothing of the pages' drawing is parsed
        assert len(pdf.pages) == 2 * sum(counts.values())
        for page in pdf.pages[:4]:
            x0, y0, width, height = (float(v) for v in page.MediaBox)
            assert (x0, y0) == (0, 0)
            assert (round(width), round(height)) == (round(1.75 * 72 + 18), round(2.5 * 72 + 18))
            trim = [float(v) for v in page.TrimBox]
            assert trim == pytest.approx([9, 9, width - 9, height - 9], abs=0.01)
    texts = page_texts(path)[:4]  # read with PDFium
    fronts, backs = texts[0::2], texts[1::2]
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


@pytest.mark.slow
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


# --------------------------------------------------------------------------- exports in a build


@pytest.mark.slow
def test_a_build_makes_the_exports_game_yaml_names_and_those_asked_for_and_reuses_them(game_copy, tmp_path, capsys):
    folder = game_copy()
    with open(folder / "game.yaml", "a") as f:
        f.write("exports: [tts]\n")
    assert main(["build", str(folder), "--out", str(tmp_path), "--export", "mpc"]) == 0
    made = {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("export-*/*")}
    assert {"sheet-01.jpg", "back.jpg", "index.csv", "back.png"} <= set(made)
    manifest = json.loads((tmp_path / "cardgen-manifest.json").read_text())["outputs"]
    assert "export-tts-starter/sheet-01.jpg" in manifest and "export-mpc-starter/back.png" in manifest
    capsys.readouterr()
    assert main(["build", str(folder), "--out", str(tmp_path), "--export", "mpc"]) == 0  # nothing changed
    said = capsys.readouterr().err
    assert "up to date)" in said and "written" not in said
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("export-*/*")} == made
    assert main(["build", str(folder), "--out", str(tmp_path), "--export", "nowhere"]) == 2


def test_check_finds_an_export_in_game_yaml_that_cannot_be_made(game_copy, capsys):
    folder = game_copy()
    text = (folder / "game.yaml").read_text().replace("card_size: mini", "card_size: {width_mm: 80, height_mm: 80}")
    (folder / "game.yaml").write_text(text + "exports: [tgc, ttss]\n")
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    line = len(text.splitlines()) + 1
    assert f"game.yaml:{line}:11: error: exports: The Game Crafter (tgc) has no product for 80x80 mm cards [no-product]" in out
    assert f"game.yaml:{line}:16: error: exports: no export target 'ttss' [unknown-export-target]" in out
    assert "did you mean 'tts'?" in out


# --------------------------------------------------------------------------- a card's own back


@pytest.fixture(scope="module")
def two_backs(tmp_path_factory):
    """The two-backs game (the shields have a back of their own) exported for each kind of target."""
    out = tmp_path_factory.mktemp("two-backs")
    for target in ("tgc", "drivethru", "tts"):
        assert main(["export", str(TWO_BACKS), "--to", target, "--out", str(out)]) == 0
    return load.load_game(TWO_BACKS).game, out


@pytest.mark.slow
def test_each_card_image_pairs_with_its_own_back_image(two_backs):
    game, out = two_backs
    folder = out / "export-tgc-starter"
    with open(folder / "index.csv", newline="") as f:
        pairs = {row["name"]: row["back"] for row in csv.DictReader(f)}
    assert pairs == {"Boom": "back.png", "Shield": "back-shields.png", "Peek": "back.png", "No": "back.png"}
    for name, file in pairs.items():
        design = cards.back_design(game, game.back_of(next(c for c in game.cards if c.name == name)))
        image = Image.open(folder / file)
        assert image.size == MINI_FULL["tgc"] and round(image.info["dpi"][0]) == 300
        assert _near(image.getpixel((3, image.height // 2)), design.background, design.pattern), (name, file)


def _near(pixel, *hex_colors, tolerance: int = 4) -> bool:
    return any(max(abs(p - int(h[i:i + 2], 16)) for p, i in zip(pixel, (1, 3, 5))) <= tolerance for h in hex_colors)


def test_the_one_up_pdf_puts_each_cards_own_back_after_it(two_backs):
    game, out = two_backs
    texts = [" ".join(text.split()) for text in page_texts(next((out / "export-drivethru-starter").glob("*.pdf")))]
    fronts, backs = texts[0::2], texts[1::2]
    assert len(fronts) == 20
    for front, back in zip(fronts, backs):
        assert back == ("Shields" if "Stops a Boom" in front else "Two Backs"), (front, back)


def test_tts_cards_with_another_back_are_on_a_sheet_of_their_own_with_that_back(two_backs):
    game, out = two_backs
    folder = out / "export-tts-starter"
    deck = json.loads(next(folder.glob("*.json")).read_text())["ObjectStates"][0]
    backs = {number: custom["BackURL"].rsplit("/", 1)[1] for number, custom in deck["CustomDeck"].items()}
    assert backs == {"1": "back.jpg", "2": "back-shields.jpg"}
    assert all(not custom["UniqueBack"] for custom in deck["CustomDeck"].values())
    for card in deck["ContainedObjects"]:
        (number, custom), = card["CustomDeck"].items()
        assert card["CardID"] // 100 == int(number)
        assert custom["BackURL"].endswith("back-shields.jpg" if card["Nickname"] == "Shield" else "/back.jpg")
    assert len(deck["DeckIDs"]) == 20
    for number, back in (("01", "back.jpg"), ("02", "back-shields.jpg")):
        sheet, image = Image.open(folder / f"sheet-{number}.jpg"), Image.open(folder / back)
        custom = deck["CustomDeck"][str(int(number))]
        columns, rows = custom["NumWidth"], custom["NumHeight"]
        hidden = sheet.crop(((columns - 1) * image.width, (rows - 1) * image.height,
                             columns * image.width, rows * image.height))
        assert _mean_difference(hidden, image) < 8  # each sheet's hidden card is its own back
    for back, card in (("back.jpg", "Boom"), ("back-shields.jpg", "Shield")):
        design = cards.back_design(game, game.back_of(next(c for c in game.cards if c.name == card)))
        image = Image.open(folder / back)
        assert _near(image.getpixel((3, image.height // 2)), design.background, design.pattern, tolerance=8)

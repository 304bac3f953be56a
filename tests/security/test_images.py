"""Bad images. Decompression bombs, truncated files and files whose content does not
match their extension are refused before anything is rendered, with a message naming the card:
as card art (card sheets) and as Markdown images in a card's details (rulebook)."""
from __future__ import annotations

import io

import pytest
from conftest import TINY_GAME

from security.conftest import attempt, huge_png, png_bytes, refused, set_card, timed


def jpeg_bytes() -> bytes:
    from PIL import Image

    data = io.BytesIO()
    Image.new("RGB", (16, 16), (200, 10, 10)).save(data, "JPEG")
    return data.getvalue()


def gif_bytes() -> bytes:
    from PIL import Image

    data = io.BytesIO()
    Image.new("P", (16, 16)).save(data, "GIF")
    return data.getvalue()


BAD_IMAGES = {
    "bomb": ("bomb.png", lambda: huge_png(30000, 30000)),
    "truncated": ("cut.png", lambda: png_bytes(300, 200, seed=7)[:400]),
    "text-named-png": ("notes.png", lambda: b"just some text, not an image\n" * 10),
    "jpeg-named-png": ("photo.png", jpeg_bytes),
    "png-named-jpg": ("photo.jpg", lambda: png_bytes(16, 16)),
    "gif-named-png": ("anim.png", gif_bytes),
    "empty": ("empty.png", lambda: b""),
}


def add_image(folder, case: str) -> str:
    name, make = BAD_IMAGES[case]
    (folder / "art").mkdir(exist_ok=True)
    (folder / "art" / name).write_bytes(make())
    return f"art/{name}"


def test_the_bomb_is_small_on_disk_but_huge_in_memory():
    import struct

    data = huge_png(30000, 30000)
    assert len(data) < 1_000_000
    assert struct.unpack(">II", data[16:24]) == (30000, 30000)  # IHDR: 900 megapixels


@pytest.mark.parametrize("case", sorted(BAD_IMAGES))
def test_bad_card_art_is_refused_naming_the_card(case, game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    set_card(folder, "Shield", art=add_image(folder, case))
    message, seconds = timed(refused, "cards", folder, tmp_path / "out")
    assert seconds < 10
    assert "card 'Shield'" in message and BAD_IMAGES[case][0] in message


@pytest.mark.parametrize("case", sorted(BAD_IMAGES))
def test_bad_images_in_card_details_are_refused_naming_the_card(case, game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    set_card(folder, "Shield", details=f"Like this: ![picture]({add_image(folder, case)})")
    message, seconds = timed(refused, "rulebook", folder, tmp_path / "out")
    assert seconds < 10
    assert "card 'Shield'" in message and BAD_IMAGES[case][0] in message


def test_good_images_still_work(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "art").mkdir()
    (folder / "art" / "ok.png").write_bytes(png_bytes(40, 30))
    (folder / "art" / "ok.jpg").write_bytes(jpeg_bytes())
    set_card(folder, "Shield", art="art/ok.png", low_res="ok", details="![ok](art/ok.jpg)")  # 40x30: 28 ppi
    assert attempt("cards", folder, tmp_path / "cards") is None
    assert attempt("rulebook", folder, tmp_path / "rulebook") is None

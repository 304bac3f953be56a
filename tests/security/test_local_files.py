"""A shared game folder must not make cardgen read files outside the game folder,
templates/ and art/. Every test puts a canary file with a random secret outside the game folder,
points the game at it in one way, and asserts a clear error and that the secret is in no output."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import TINY_GAME

from security.conftest import attempt, outputs, pdf_streams, pdf_text, refused, set_card

ROOT = Path(__file__).resolve().parents[2]


def no_leak(out: Path, secret: str, message: str | None) -> None:
    assert secret not in (message or "")
    for path in out.rglob("*") if out.exists() else []:
        data = pdf_streams(path) if path.suffix == ".pdf" else path.read_bytes()
        assert secret.encode() not in data, path


def ways_to(folder: Path, target: Path) -> dict[str, str]:
    """The spellings of a path to `target` that a game file could use."""
    return {
        "relative": os.path.relpath(target, folder),
        "absolute": str(target),
        "file-url": target.as_uri(),
        "symlink": "innocent" + target.suffix,
    }


def spelled(folder: Path, target: Path, way: str) -> str:
    value = ways_to(folder, target)[way]
    if way == "symlink":
        (folder / value).symlink_to(target)
    return value


WAYS = ["relative", "absolute", "file-url", "symlink"]


def image_refused(way: str, message: str | None, origin: str, out: Path, secret: str) -> None:
    """A Markdown image leading out stops the build naming where it came from. Markdown itself
    refuses file: URLs (the image stays literal text), so for those nothing may be read."""
    if way == "file-url" and message is None:
        no_leak(out, secret, message)
        assert b"/Width 37" not in pdf_streams(out / "rulebook.pdf")
        return
    assert message and origin in message and "outside" in message
    assert outputs(out) == []


@pytest.mark.parametrize("way", WAYS)
def test_card_art_outside_the_game_folder_is_refused(way, game_copy, canary, tmp_path):
    outside, secret = canary
    folder = game_copy(TINY_GAME)
    set_card(folder, "Boom", art=spelled(folder, outside / "canary.png", way))
    message = refused("cards", folder, tmp_path / "out")
    assert "Boom" in message and "art" in message


def test_an_art_folder_that_is_a_symlink_leading_out_is_refused(game_copy, canary, tmp_path):
    outside, _ = canary
    folder = game_copy(TINY_GAME)
    (folder / "art").symlink_to(outside, target_is_directory=True)
    set_card(folder, "Boom", art="art/canary.png")
    message = refused("cards", folder, tmp_path / "out")
    assert "Boom" in message


@pytest.mark.parametrize("way", WAYS)
def test_markdown_images_in_card_details_outside_are_refused(way, game_copy, canary, tmp_path):
    outside, secret = canary
    folder = game_copy(TINY_GAME)
    set_card(folder, "Boom", details=f"Look: ![x]({spelled(folder, outside / 'canary.png', way)})")
    out = tmp_path / "out"
    message = attempt("rulebook", folder, out)
    image_refused(way, message, "card 'Boom'", out, secret)


@pytest.mark.parametrize("way", WAYS)
def test_markdown_images_in_rules_md_outside_are_refused(way, game_copy, canary, tmp_path):
    outside, secret = canary
    folder = game_copy(TINY_GAME)
    target = spelled(folder, outside / "canary.png", way)
    (folder / "rules.md").write_text(f"# Overview\n\nA picture: ![x]({target})\n")
    out = tmp_path / "out"
    message = attempt("rulebook", folder, out)
    image_refused(way, message, "rules.md", out, secret)


def test_raw_html_and_links_in_markdown_read_nothing(game_copy, canary, tmp_path):
    """Raw HTML is text (so <img>/<a rel=attachment> fetch nothing); links are only links."""
    outside, secret = canary
    folder = game_copy(TINY_GAME)
    target = outside / "canary.txt"
    set_card(folder, "Boom", details=f'<a rel="attachment" href="{target.as_uri()}">x</a> '
                                     f'<img src="{target}"> [link]({target.as_uri()})')
    out = tmp_path / "out"
    message = attempt("rulebook", folder, out)
    assert message is None  # nothing to refuse: it is all text
    assert '<a rel="attachment"' in " ".join(pdf_text(out / "rulebook.pdf").split())
    no_leak(out, secret, message)


@pytest.mark.parametrize("name", ["rules.md", "cards.yaml", "layout.yaml"])
def test_game_files_that_are_symlinks_leading_out_are_refused(name, game_copy, canary, tmp_path):
    outside, secret = canary
    folder = game_copy(TINY_GAME)
    source = {"rules.md": "canary.md", "cards.yaml": "canary.yaml", "layout.yaml": "canary.yaml"}[name]
    (folder / name).unlink(missing_ok=True)
    (folder / name).symlink_to(outside / source)
    out = tmp_path / "out"
    message = refused("rulebook", folder, out)
    assert name in message and "outside" in message
    no_leak(out, secret, message)


CSS = {
    "url-relative": 'body {{ background: url("{relative}"); }}',
    "url-absolute": 'body {{ background: url("{absolute}"); }}',
    "url-file": 'body {{ background: url("{uri}"); }}',
    "import-relative": '@import url("{relative_css}");',
    "import-absolute": '@import "{absolute_css}";',
    "font-face": '@font-face {{ font-family: X; src: url("{absolute}"); }} body {{ font-family: X; }}',
}


@pytest.mark.parametrize("case", sorted(CSS))
def test_urls_in_game_css_outside_are_refused(case, game_copy, canary, tmp_path):
    outside, secret = canary
    folder = game_copy(TINY_GAME)
    (folder / "templates").mkdir()
    css = CSS[case].format(relative=os.path.relpath(outside / "canary.png", folder / "templates"),
                           absolute=outside / "canary.png", uri=(outside / "canary.png").as_uri(),
                           relative_css=os.path.relpath(outside / "canary.css", folder / "templates"),
                           absolute_css=outside / "canary.css")
    (folder / "templates" / "game.css").write_text(css)
    out = tmp_path / "out"
    message = refused("rulebook", folder, out)
    assert "refused" in message and "outside" in message
    no_leak(out, secret, message)


def test_a_game_css_that_is_a_symlink_leading_out_is_refused(game_copy, canary, tmp_path):
    outside, secret = canary
    folder = game_copy(TINY_GAME)
    (folder / "templates").mkdir()
    (folder / "templates" / "game.css").symlink_to(outside / "canary.css")
    out = tmp_path / "out"
    message = refused("rulebook", folder, out)
    assert "game.css" in message
    no_leak(out, secret, message)


@pytest.mark.parametrize("how", ["override", "include"])
def test_game_templates_that_are_symlinks_leading_out_are_refused(how, game_copy, canary, tmp_path):
    outside, secret = canary
    folder = game_copy(TINY_GAME)
    templates = folder / "templates"
    templates.mkdir()
    if how == "override":
        (templates / "rulebook.html").symlink_to(outside / "canary.html")
    else:
        (templates / "evil.html").symlink_to(outside / "canary.html")
        (templates / "rulebook.html").write_text('{% extends "base.html" %}\n'
                                                 '{% block body %}{% include "evil.html" %}{% endblock %}\n')
    out = tmp_path / "out"
    message = refused("rulebook", folder, out)
    assert "outside" in message
    no_leak(out, secret, message)


def test_fonts_that_are_symlinks_leading_out_are_refused(game_copy, canary, tmp_path):
    outside, secret = canary
    font = outside / "Lato-Regular.ttf"
    shutil.copy(ROOT / "art" / "fonts" / "Lato-Regular.ttf", font)
    folder = game_copy(TINY_GAME)
    (folder / "fonts").mkdir()
    (folder / "fonts" / "Lato-Regular.ttf").symlink_to(font)
    for kind in ("cards", "rulebook"):
        message = refused(kind, folder, tmp_path / kind)
        assert "Lato-Regular.ttf" in message and "outside" in message, kind


def test_svg_symbols_cannot_pull_in_files_from_outside(game_copy, canary, tmp_path):
    """The canary PNG is 37x23 pixels: no image of that size may reach the card sheet."""
    outside, _ = canary
    folder = game_copy(TINY_GAME)
    (folder / "symbols").mkdir()
    href = os.path.relpath(outside / "canary.png", folder / "symbols")
    (folder / "symbols" / "bomb.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="10" height="10" viewBox="0 0 10 10"><rect width="10" height="10"/>'
        f'<image x="0" y="0" width="10" height="10" xlink:href="{href}"/></svg>')
    message = refused("cards", folder, tmp_path / "out")
    assert "bomb.svg" in message

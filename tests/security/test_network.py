"""No output ever fetches anything from the network. A local HTTP server counts the
requests it gets; every way a game folder can name a URL must give a clear error and zero requests."""
from __future__ import annotations

import pytest
from conftest import TINY_GAME

from security.conftest import attempt, png_bytes, refused, set_card

URLS = {
    "http": "{url}/image.png",
    "redirect": "{url}/redirect.png",
    "ftp": "ftp://127.0.0.1:{port}/image.png",
    "https": "https://127.0.0.1:{port}/image.png",
    "protocol-relative": "//127.0.0.1:{port}/image.png",
}


def port_of(server: str) -> str:
    return server.rsplit(":", 1)[1]


def spell(kind: str, server: str) -> str:
    return URLS[kind].format(url=server, port=port_of(server))


@pytest.mark.parametrize("kind", sorted(URLS))
def test_card_art_urls_are_refused(kind, game_copy, web_server, tmp_path):
    server, hits = web_server
    folder = game_copy(TINY_GAME)
    set_card(folder, "Boom", art=spell(kind, server))
    message = refused("cards", folder, tmp_path / "out")
    assert "Boom" in message and "art" in message
    assert hits == []


@pytest.mark.parametrize("kind", sorted(URLS))
def test_markdown_images_with_urls_are_refused(kind, game_copy, web_server, tmp_path):
    server, hits = web_server
    folder = game_copy(TINY_GAME)
    set_card(folder, "Boom", details=f"![x]({spell(kind, server)})")
    (folder / "rules.md").write_text(f"# Overview\n\n![y]({spell(kind, server)})\n")
    message = refused("rulebook", folder, tmp_path / "out")
    assert "refused" in message
    assert hits == []


CSS = {
    "import": '@import url("{url}/remote.css");',
    "import-redirect": '@import "{url}/redirect.css";',
    "background": 'body {{ background: url("{url}/bg.png"); }}',
    "font-face": '@font-face {{ font-family: X; src: url("{url}/f.ttf"); }} body {{ font-family: X; }}',
    "ftp": 'body {{ background: url("ftp://127.0.0.1:{port}/bg.png"); }}',
}


@pytest.mark.parametrize("case", sorted(CSS))
def test_urls_in_game_css_are_refused(case, game_with_template, web_server, tmp_path):
    server, hits = web_server
    folder = game_with_template(CSS[case].format(url=server, port=port_of(server)), "game.css")
    message = refused("rulebook", folder, tmp_path / "out")
    assert "refused" in message
    assert hits == []


HTML = {
    "img": '<img src="{url}/a.png">',
    "stylesheet": '<link rel="stylesheet" href="{url}/s.css">',
    "object": '<object data="{url}/a.png" type="image/png"></object>',
    "embed": '<embed src="{url}/a.png" type="image/png">',
    "attachment": '<a rel="attachment" href="{url}/a.png">a</a>',
    "base-href": '<base href="{url}/"><img src="a.png">',
    "inline-svg": '<svg width="10" height="10"><image href="{url}/a.png" width="10" height="10"/></svg>',
    "svg-file": '<img src="art/remote.svg">',
}


@pytest.mark.parametrize("case", sorted(HTML))
def test_urls_in_game_templates_are_refused(case, game_with_template, web_server, tmp_path):
    server, hits = web_server
    body = HTML[case].format(url=server)
    folder = game_with_template(
        f"<!doctype html><html><head><title>t</title></head><body><p>x</p>{body}</body></html>")
    (folder / "art").mkdir()
    (folder / "art" / "remote.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" '
        f'height="10"><image width="10" height="10" xlink:href="{server}/a.png"/></svg>')
    message = refused("rulebook", folder, tmp_path / "out")
    assert "refused" in message
    assert hits == []


def test_svg_symbols_on_card_sheets_fetch_nothing(game_copy, web_server, tmp_path):
    server, hits = web_server
    folder = game_copy(TINY_GAME)
    (folder / "symbols").mkdir()
    (folder / "symbols" / "bomb.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" '
        f'height="10"><rect width="10" height="10"/><image width="10" height="10" xlink:href="{server}/a.png"/>'
        "</svg>")
    attempt("cards", folder, tmp_path / "out")
    assert hits == []


def test_the_server_answers_when_asked(web_server):
    """The counting server works: a test above passing means nothing was fetched, not a dead server."""
    import urllib.request

    server, hits = web_server
    with urllib.request.urlopen(f"{server}/image.png", timeout=5) as response:
        assert response.read() == png_bytes(8, 8)
    assert hits == ["/image.png"]

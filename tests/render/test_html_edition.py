"""The rulebook's HTML edition: rulebook.html beside rulebook.pdf, one self-contained file (fonts
and images inlined, no network), readable in headless Chromium from a phone's width to a desktop's,
with every heading and card name of the PDF."""
from __future__ import annotations

import re
from pathlib import Path

import pikepdf
import pytest
from conftest import headless_chromium, loaded

pytestmark = pytest.mark.slow

WIDTHS = (390, 1280)


@pytest.fixture(scope="module")
def puppy_html(shipped_document) -> Path:
    """`cardgen rulebook exploding_puppy` (English): rulebook.html beside rulebook.pdf."""
    return shipped_document("exploding_puppy", "rulebook.html").parent


@pytest.fixture(scope="module")
def browser():
    with headless_chromium("--hide-scrollbars") as driver:
        yield driver


def flat(text: str) -> str:
    return " ".join(text.split())


def test_beside_the_pdf_one_file_that_names_nothing_outside_itself(puppy_html):
    html = (puppy_html / "rulebook.html").read_text(encoding="utf-8")
    assert (puppy_html / "rulebook.pdf").is_file()
    urls = re.findall(r"""(?:src|href)=["']([^"']+)|url\(\s*["']?([^"')]+)""", html)
    targets = [a or b for a, b in urls]
    assert targets and all(t.startswith(("data:", "#")) for t in targets), [t[:40] for t in targets
                                                                           if not t.startswith(("data:", "#"))]


@pytest.mark.parametrize("width", WIDTHS)
def test_fits_the_width_and_holds_every_heading_and_card_name(puppy_html, browser, width, tmp_path):
    browser.set_window_size(width, 900)
    browser.get((puppy_html / "rulebook.html").as_uri())
    inner = browser.execute_script("return window.innerWidth")
    assert abs(inner - width) < 20
    assert browser.execute_script("return document.documentElement.scrollWidth") <= inner
    resources = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert all(name.startswith("data:") for name in resources), resources
    headings = {flat(h) for h in browser.execute_script(
        "return [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].map(h => h.textContent)")}
    with pikepdf.open(puppy_html / "rulebook.pdf") as pdf, pdf.open_outline() as outline:
        bookmarks = [flat(item.title) for item in walk(outline.root)]
    assert len(bookmarks) > 40
    for title in bookmarks:  # the PDF's headings (its bookmarks), the symbols aside
        assert any(title.strip() in heading for heading in headings), title
    text = flat(browser.execute_script("return document.body.innerText"))
    cards = loaded("exploding_puppy").game.cards
    for card in cards:
        assert card.name in text, card.name
    pictures = browser.execute_script(  # each card's picture, loaded, beside its explanation
        "return [...document.querySelectorAll('.card-entry img.card-picture')].filter(i => i.naturalWidth > 100).length")
    assert pictures == len(cards)
    browser.save_screenshot(str(tmp_path / f"rulebook-{width}.png"))


def walk(items):
    for item in items:
        yield item
        yield from walk(item.children)

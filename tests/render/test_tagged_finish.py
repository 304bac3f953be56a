"""render/documents/tagged: the HTML is read for links and articles only when it has a tag the
parser would read as one (the shortcut leaves out no document that has one)."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest

from cardgen.render.documents import tagged

READ = ["<a href='#x'>x</a>", "<A\nHREF=x>x</A>", "<a>x</a>", "<a/>", "<article aria-hidden='true'>", "<ARTICLE\t>",
        "<a\fhref=x>", "<!-- <a href=x> -->", "<a"]  # the last two: read for nothing, which is harmless
SKIPPED = ["<abbr>x</abbr>", "<articles>", "<br><b>a</b>", "a < b", "<p>a</p>", "<style>a<b</style>", "<aside>"]


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.seen: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.seen.add(tag)

    def handle_startendtag(self, tag, attrs):
        self.seen.add(tag)


@pytest.mark.parametrize("html", READ + SKIPPED)
def test_the_shortcut_skips_only_html_without_a_link_or_article(html):
    parser = _Tags()
    parser.feed(html)
    parser.close()
    read = bool(tagged._LINK_OR_ARTICLE.search(html))
    assert read == (html in READ)
    if parser.seen & {"a", "article"}:
        assert read

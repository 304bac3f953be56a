"""render/documents/overflow: what a laid-out document failed to show.

WeasyPrint drops without a word what a page cannot hold in some places (a float longer than the
page is cut at its end) and clips what a box with `overflow: hidden` cannot hold. After layout,
every text of the HTML must be on a page, inside the page's text area (not in its margins) and
inside every box that clips it;
`lost_texts` names those that are not.

The comparison is of characters, case and white space aside (text-transform and hyphenation
change neither the letters nor their count in a way that matters here): each text of the HTML
must be found in the visible text, and all the HTML's characters must be there as often.
Generated content (list numbers, page numbers) only adds characters. Text a template hides on
purpose stays out of the comparison when its element has the `hidden` attribute.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

TOLERANCE_PX = 0.75  # a text box may pass its clip by this much (anti-aliasing, rounding): 0.56 pt
_SKIPPED = frozenset({"head", "style", "script", "title", "template", "svg"})  # svg: drawn, not text boxes
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
_INVISIBLE = str.maketrans("", "", "\u00ad\u2010\u200b")  # soft hyphen, hyphen WeasyPrint adds, zero width space


def normalized(text: str) -> str:
    return "".join(text.split()).translate(_INVISIBLE).casefold()


class _Texts(HTMLParser):
    """The texts of an HTML document a reader should see, in document order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[tuple[str, str]] = []  # (the text as written, white space collapsed; normalized)
        self._stack: list[bool] = []  # per open element: whether its text is left out

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            return
        style = normalized(dict(attrs).get("style") or "")
        left_out = tag in _SKIPPED or any(name == "hidden" for name, _ in attrs) or "display:none" in style
        self._stack.append(left_out or bool(self._stack and self._stack[-1]))

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID and self._stack:
            self._stack.pop()

    def handle_data(self, data: str) -> None:
        text = normalized(data)
        if text and not (self._stack and self._stack[-1]):
            self.texts.append((" ".join(data.split()), text))


def html_texts(html: str) -> list[tuple[str, str]]:
    parser = _Texts()
    parser.feed(html)
    parser.close()
    return parser.texts


def visible_text(pages: list[Any]) -> str:
    """The text of every text box wholly inside its page's text area and every box that clips it,
    page after page; then the text of the pages' margin boxes (running heads, page numbers: inside
    the page), apart, so that a text running on to the next page reads on unbroken."""
    boxes = [page._page_box for page in pages]
    body = (text for box in boxes for child in box.children if not _in_margin(child)
            for text in _visible(child, _text_area(box)))
    margins = (text for box in boxes for child in box.children if _in_margin(child)
               for text in _visible(child, (0.0, 0.0, float(box.margin_width()), float(box.margin_height()))))
    return "".join(normalized(text) for text in (*body, *margins))


def _in_margin(box: Any) -> bool:
    return type(box).__name__ == "MarginBox"


def _text_area(page_box: Any) -> tuple[float, float, float, float]:
    return (page_box.content_box_x(), page_box.content_box_y(),
            page_box.content_box_x() + page_box.width, page_box.content_box_y() + page_box.height)


def _visible(box: Any, clip: tuple[float, float, float, float]) -> Iterator[str]:
    text = getattr(box, "text", None)
    if text is not None:
        if _inside(box, clip):
            yield text
        return
    if box.style["overflow"] != "visible" and not box.is_for_root_element:
        clip = _intersection(clip, (box.padding_box_x(), box.padding_box_y(),
                                    box.padding_box_x() + box.padding_width(),
                                    box.padding_box_y() + box.padding_height()))
    for child in getattr(box, "children", ()):
        yield from _visible(child, clip)


def _inside(box: Any, clip: tuple[float, float, float, float]) -> bool:
    left, top, right, bottom = clip
    x, y = box.position_x, box.position_y
    return (x >= left - TOLERANCE_PX and y >= top - TOLERANCE_PX
            and x + box.width <= right + TOLERANCE_PX and y + box.height <= bottom + TOLERANCE_PX)


def _intersection(a: tuple[float, float, float, float], b: tuple[float, float, float, float]
                  ) -> tuple[float, float, float, float]:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def lost_texts(html: str, pages: list[Any]) -> list[str]:
    """The HTML's texts missing from the laid-out pages, in document order; when
    each is somewhere but not all of them are there (a repeated text cut once), the characters
    that are missing."""
    expected = html_texts(html)
    shown = visible_text(pages)
    missing = [written for written, text in expected if text not in shown]
    if missing:
        return missing
    short = Counter("".join(text for _, text in expected)) - Counter(shown)
    return [f"{sum(short.values())} characters ({''.join(sorted(short))[:40]})"] if short else []

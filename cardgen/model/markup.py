"""Card text markup → ReportLab Paragraph markup.

Card text knows three things: `**bold**`, `*italic*` and `:symbol-name:` (an inline symbol).
Everything else is text and is escaped, so `<font ...>`, `<img ...>` or `&amp;` typed in the
data come out on the card literally and never reach ReportLab's markup parser. Emphasis
markers pair up like brackets; one that has no partner stays a literal `*`, so the output is
always well nested.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # markdown-it-py is imported when Markdown is first parsed (markdown_parser)
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

SYMBOL = re.compile(r":[a-z0-9][a-z0-9_-]*:")  # an inline symbol, :bomb:
_TOKEN = re.compile(rf"(\*\*|\*|{SYMBOL.pattern}|\n)")
_TAGS = {"**": "b", "*": "i"}


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_paragraph(text: str, symbol: Callable[[str], str | None] = lambda name: None) -> str:
    """Paragraph markup for card text. `symbol(name)` gives the markup of an inline symbol,
    or None for an unknown name, which then stays as typed."""
    tokens = _tokens(text)
    opens, closes = _pair_emphasis(text, tokens)
    out = []
    for i, (token, _) in enumerate(tokens):
        if i in opens:
            out.append(f"<{_TAGS[token]}>")
        elif i in closes:
            out.append(f"</{_TAGS[token]}>")
        elif token == "\n":
            out.append("<br/>")
        elif token.startswith(":") and token.endswith(":") and len(token) > 2:
            out.append(symbol(token[1:-1]) or escape(token))
        else:
            out.append(escape(token))
    return "".join(out)


def emphasis_runs(text: str) -> list[tuple[int, int, bool, bool]]:
    """The spans of the text that are drawn, each with its emphasis: (start, end, bold, italic).
    Emphasis markers and line breaks are left out; symbols stay in (as typed)."""
    tokens = _tokens(text)
    opens, closes = _pair_emphasis(text, tokens)
    runs, open_tags = [], []
    for i, (token, start) in enumerate(tokens):
        if i in opens:
            open_tags.append(_TAGS[token])
        elif i in closes:
            open_tags.pop()
        elif token != "\n":
            runs.append((start, start + len(token), "b" in open_tags, "i" in open_tags))
    return runs


def _tokens(text: str) -> list[tuple[str, int]]:
    """The text split into markers and plain runs, each with its start offset."""
    out, pos = [], 0
    for match in _TOKEN.finditer(text):
        if match.start() > pos:
            out.append((text[pos:match.start()], pos))
        out.append((match.group(), match.start()))
        pos = match.end()
    if pos < len(text):
        out.append((text[pos:], pos))
    return out


def _pair_emphasis(text: str, tokens: list[tuple[str, int]]) -> tuple[set[int], set[int]]:
    """Indexes of the markers that open and close emphasis. An opener needs a non-space right
    after it, a closer one right before it; only the innermost open marker can be closed."""
    stack: list[int] = []
    opens, closes = set(), set()
    for i, (token, start) in enumerate(tokens):
        if token not in _TAGS:
            continue
        before = text[start - 1:start].strip()
        after = text[start + len(token):start + len(token) + 1].strip()
        if stack and tokens[stack[-1]][0] == token and before:
            opens.add(stack.pop())
            closes.add(i)
        elif after and token not in (tokens[j][0] for j in stack):
            stack.append(i)
    return opens, closes


def symbols_named_in(text: str) -> list[str]:
    """The `:name:` symbols a text asks for, in order."""
    return [t[1:-1] for t in _TOKEN.findall(text) if t.startswith(":") and len(t) > 2]


@lru_cache(maxsize=1)
def markdown_parser() -> MarkdownIt:
    """The Markdown of rules.md, card details and other document texts. HTML is disabled: raw
    HTML typed in the data is shown as text, never passed through."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False, "typographer": False}).enable(["table", "strikethrough"])


def image_sources(text: str) -> list[str]:
    """The src of every Markdown image in text, as the documents will fetch it."""
    return [str(token.attrGet("src") or "") for token in all_tokens(markdown_parser().parse(text))
            if token.type == "image"]


def all_tokens(tokens: Iterable[Token]) -> Iterator[Token]:
    """Markdown tokens with their children, depth first."""
    for token in tokens:
        yield token
        if token.children:
            yield from all_tokens(token.children)

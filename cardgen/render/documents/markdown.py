"""render/documents/markdown: the game data's Markdown (rules.md, card texts) as safe HTML for the
templates, with `:name:` symbols as characters of the symbol font and images checked as local files."""
from __future__ import annotations

from markupsafe import Markup

from cardgen.inputs import images, symbols
from cardgen.model import markup
from cardgen.model.game import Game


def markdown_html(text: str, game: Game, origin: str = "") -> Markup:
    """Markdown of the game data → safe HTML. Images must be local files the fetcher may serve."""
    md = markup.markdown_parser()
    characters = symbols.code_points(game)  # :bomb: is the bomb's character of the symbol font
    tokens = md.parse(markup.SYMBOL.sub(lambda m: characters.get(m[0][1:-1], m[0]), text or ""))
    for token in tokens:
        if token.type == "table_open":
            token.attrSet("class", "md-table")  # styled like the generated tables (base.css)
        if token.type == "th_open":
            token.attrSet("scope", "col")  # a Markdown table's headers are its first row's
    for token in markup.all_tokens(tokens):
        if token.type == "image":
            src = str(token.attrGet("src") or "")
            images.checked_url(src, game.folder, origin or "Markdown in the game data")
    return Markup(md.renderer.render(tokens, md.options, {}))


def markdown_inline(text: str, game: Game, origin: str = "") -> Markup:
    """One line of Markdown (card text, list items) without the surrounding paragraph."""
    html = str(markdown_html(text, game, origin)).strip()
    if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        html = html[3:-4]
    return Markup(html)


"""render/documents: Jinja templates → HTML → WeasyPrint PDF (rulebook, checklists, cheat sheets).

- html: the sandboxed Jinja environment, its limits and template folders; render_html, render_pdf
- weasy: WeasyPrint, its fetcher of local files only, the fonts; html_to_pdf
- markdown: the game data's Markdown as safe HTML
- rulebook: rules.md as the rulebook's outline, the generated parts placed in it; write_rulebook,
  write_rulebook_html (the HTML edition)
- diagram: the "structure of a card" diagram (example card, callouts, card parts)
- checklists: the deck-setup checklists and the hand labels; write_checklists
- cheatsheet: the one-page cheat sheet and its pocket copies; write_cheatsheet

The names other code uses are importable from here too.
"""
from __future__ import annotations

from cardgen.model.texts import counted, format_number
from cardgen.render.documents.checklists import checklist_pages, checklists_context, hand_label, write_checklists
from cardgen.render.documents.diagram import example_card_png
from cardgen.render.documents.html import environment, render_html, render_pdf, symbol_context
from cardgen.render.documents.markdown import markdown_html, markdown_inline
from cardgen.render.documents.rulebook import (
                                              Part,
                                              parse_rules,
                                              rulebook_context,
                                              rulebook_outline,
                                              write_rulebook,
                                              write_rulebook_html,
)
from cardgen.render.documents.weasy import example_card_url, font_face_css, html_to_pdf, symbol_font_name

__all__ = [
    "Part", "checklist_pages", "checklists_context", "counted", "environment", "example_card_png", "example_card_url",
    "font_face_css", "format_number", "hand_label", "html_to_pdf", "markdown_html", "markdown_inline", "parse_rules",
    "render_html", "render_pdf", "rulebook_context", "rulebook_outline", "symbol_context", "symbol_font_name",
    "write_checklists", "write_rulebook", "write_rulebook_html",
]

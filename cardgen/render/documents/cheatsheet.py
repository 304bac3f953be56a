"""render/documents/cheatsheet: a one-page table sheet and card-sized pocket copies, from the game data.

A game has a cheat sheet when its game.yaml has a `reference: cheatsheet:` mapping (all keys
optional; load reads it into model.CheatSheet):

    reference:
      cheatsheet:
        title: ...            # default: the game's title
        subtitle: ...
        goal: ...             # one line under the title
        card_heading: ...     # heading of the card list (default "The cards")
        card_group_by: text   # cards with the same text and color share one line (or: none)
        sections:             # short lists: the turn, what to do when ..., tips
          - {title: ..., items: [..., ...]}
        combos: {title: ..., intro: ..., rows: [{cards: ..., name: ..., effect: ...}]}
        copies_label: Packs   # how the setup's `copies` is called in the player table
        players_note: ...     # one line under the player table

Everything else comes from the model and the engine: each card's name, color and one-line
effect (card `text`), the setup steps' texts, and per player count the copies of the table,
the cards dealt, the draw pile and its make-up by kind (the engine's figures).

Outputs: cheatsheet.pdf (one page, A4 or Letter: when a game's sheet runs over, the type is
shrunk in small steps down to 80%; a sheet longer than that continues on further pages, with a
warning, since how long a text runs is known only once it is laid out, after `check`) and
cheatsheet-pocket.pdf (one page of card-sized copies to cut out, one per player; a copy whose
text needs more room is a strip of several cards, to fold).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import Markup

from cardgen.check.results import GameReport, SetupReport
from cardgen.check.tables import component_rows, pile_rows
from cardgen.errors import BuildError
from cardgen.model.fields import TEXT, labelled_values
from cardgen.model.game import DRAW, Card, CheatSheet, Color, Game
from cardgen.model.sizes import CARD_SIZES_MM, DEFAULT_PAPER, PAPERS_MM, card_size_mm
from cardgen.model.texts import counted, format_count, players_label, plural
from cardgen.model.words import gettext, lower_first
from cardgen.render.documents.checklists import hand_label, step_text
from cardgen.render.documents.html import render_pdf, render_pdf_if, symbol_context
from cardgen.render.documents.markdown import markdown_inline
from cardgen.render.documents.weasy import LostContent
from cardgen.render.write import atomic_write

TEMPLATE = "cheatsheet.html"
POCKET_MIN_MM = CARD_SIZES_MM["poker"]  # smaller cards would be unreadable: pocket copies are at least this
POCKET_MARGIN_MM = 6.0
SCALES = (1.0, 0.95, 0.9, 0.85, 0.8)  # type sizes tried for the one-page sheet
_LEAD = re.compile(r"^\s*\*\*(.+?)\*\*\s*(.*)$", re.S)


@dataclass
class CardRow:
    """One line of the card list: the card types sharing an effect (Ace and King: Bomb)."""

    cards: list[Card]
    color: Color
    text: Markup       # the whole effect, markup rendered
    role: str          # the effect's leading bold phrase, if it has one ("Bomb!")
    rest: Markup       # the effect after the role
    tags: list[str]
    fields: Markup = Markup()  # the game's own fields, under their display names ("Cost 3 · Attack 2")
    rule: bool = False  # a losing or saving card's: the rule that makes the game, in full on pocket copies

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.cards]


@dataclass
class PlayerRow:
    label: str
    values: list[str]
    part: bool = False  # a part of the row above (the draw pile by kind)


@dataclass
class SetupTable:
    report: SetupReport
    players: list[int]
    rows: list[PlayerRow]           # figures that change with the player count
    constants: list[PlayerRow]      # figures that do not (said once, in words)


def write_cheatsheet(game: Game, report: GameReport, out_dir: str | Path, paper: str = DEFAULT_PAPER,
                     warn: Callable[[str], None] = lambda message: None) -> Path | None:
    """Write cheatsheet.pdf (one page, else `warn` hears why not) and cheatsheet-pocket.pdf;
    None if the game has no cheat sheet."""
    sheet = game.cheatsheet
    if sheet is None:
        return None
    if paper not in PAPERS_MM:
        raise BuildError(f"unknown paper size '{paper}'", hint=f"use one of: {', '.join(PAPERS_MM)}")
    context = cheatsheet_context(game, report, sheet, paper)
    main = render_one_page(game, context, paper, warn)
    pocket = render_pocket(game, context, paper)
    out_dir = Path(out_dir)
    path = atomic_write(out_dir / "cheatsheet.pdf", main)
    atomic_write(out_dir / "cheatsheet-pocket.pdf", pocket)
    return path


def render_one_page(game: Game, context: dict[str, Any], paper: str, warn: Callable[[str], None]) -> bytes:
    """The main sheet at full size, or shrunk step by step until it fits one page (the sizes
    tried before laid out only); at the smallest size, as many pages as it takes."""
    for scale in SCALES:
        smallest = scale == SCALES[-1]
        pages, pdf = render_pdf_if(game, TEMPLATE, dict(context, pocket=False, pt=_pt(scale)), paper,
                                   lambda pages: pages <= 1 or smallest)
        if pdf is not None:
            break
    assert pdf is not None  # the smallest size is always written
    if pages > 1:
        warn(f"warning: {game.id}: the cheat sheet runs to {pages} pages even at {round(SCALES[-1] * 100)}% type "
             "size; shorten the card texts or the reference: cheatsheet: lists in game.yaml to fit it on one")
    return pdf


def render_pocket(game: Game, context: dict[str, Any], paper: str) -> bytes:
    """A page of pocket copies, each as many cards wide as its text needs (a strip folded between
    its panels): the narrowest that shows all of it (a longer strip laid out on one copy first)."""
    most = pocket_layout(game, paper)["most"]
    pocket = dict(context, pocket=True, pt=_pt(1.0))
    try:
        return render_pdf(game, TEMPLATE, dict(pocket, pocket_layout=pocket_layout(game, paper)), paper)
    except LostContent:
        pass
    for panels in range(2, most + 1):
        try:
            render_pdf_if(game, TEMPLATE, dict(pocket, pocket_layout=pocket_layout(game, paper, panels, copies=1)), paper,
                          lambda pages: False)
        except LostContent:
            continue
        return render_pdf(game, TEMPLATE, dict(pocket, pocket_layout=pocket_layout(game, paper, panels)), paper)
    raise BuildError(f"the pocket cheat sheet does not fit a strip of {counted(most, 'card')} ({paper} paper)",
                     hint="shorten the card texts (a pocket copy shows the bold phrase a text starts with), "
                          "the combos or the first list of reference: cheatsheet: sections, or group the cards "
                          "by text (card_group_by: text)")


def _pt(scale: float) -> Callable[[float], str]:
    return lambda size: f"{float(size) * scale:.2f}pt"


# --------------------------------------------------------------------------- context


def sheet_context(game: Game, report: GameReport, sheet: CheatSheet, paper: str, pocket: bool) -> dict[str, Any]:
    """The whole context of the sheet (or of its pocket copies) at full type size."""
    return dict(cheatsheet_context(game, report, sheet, paper), pocket=pocket, pt=_pt(1.0))


def cheatsheet_context(game: Game, report: GameReport, sheet: CheatSheet, paper: str) -> dict[str, Any]:
    rows = card_rows(game, group=sheet.group_by_text, decks=sheet.card_decks)
    return {
        "sheet": sheet,
        "card_rows": rows,
        "names_style": "short" if max((len(n) for r in rows for n in r.names), default=0) <= 6 else "long",
        "sections": sheet.sections,
        "combos": sheet.combos,
        "steps": [text for text in map(step_text, game.steps) if text],
        "tables": [setup_table(game, s, sheet.copies_label) for s in report.setups],
        "players_label": players_label,
        "hand_label": lambda setup, played: hand_label(game, setup, played),
        **symbol_context(game),
        "pocket_layout": pocket_layout(game, paper),
        "constant_figures": lambda table: ", ".join(f"{lower_first(row.label)} {row.values[0]}"
                                                    for row in table.constants),
    }


def card_rows(game: Game, group: bool = True, decks: tuple[str, ...] = ()) -> list[CardRow]:
    """Card types in data order (of those decks only, if any are named); with `group`, types of one
    color with the same text share a row."""
    rows: list[CardRow] = []
    index: dict[tuple[str, str, str], CardRow] = {}
    for card in (c for c in game.cards if not decks or c.deck in decks):
        origin = f"card '{card.name}'"
        own = Markup(" · ").join(
            Markup("{} {}").format(f.name, markdown_inline(value, game, origin) if f.type == TEXT else value)
            for f, value in labelled_values(game.fields, card.value))
        key = (card.color, card.text.strip(), str(own))
        if group and key in index:
            index[key].cards.append(card)
            continue
        lead = _LEAD.match(card.text or "")
        role, rest = (lead.group(1).strip(), lead.group(2).strip()) if lead else ("", card.text)
        row = CardRow([card], game.color(card.color), markdown_inline(card.text, game, origin),
                      role, markdown_inline(rest, game, origin),
                      [t.name for t in game.tags if t.id in card.tags], own, _makes_the_game(game, card))
        index[key] = row
        rows.append(row)
    return rows


def _makes_the_game(game: Game, card: Card) -> bool:
    """A card of a kind with a role (losing or saving: drawn, you are out unless saved)."""
    return any(kind.role for kind in game.kinds if kind.id in card.kinds)


def setup_table(game: Game, report: SetupReport, copies_label: str) -> SetupTable:
    """The engine's figures per player count, as rows of a table with one column per count."""
    counts = [p.players for p in report.players]
    rows = []
    copies = [p.copies for p in report.players]
    if any(c != 1 for c in copies):
        rows.append(PlayerRow(copies_label or gettext("Copies"), [str(c) for c in copies]))
    for row in pile_rows(game, report):
        rows.append(PlayerRow(row.label, [_count(v, row.blank) for v in row.values]))
        columns = range(len(row.values))
        if row.pile is not None and row.pile.role == DRAW and any(row.by_kind(c) for c in columns):
            breakdowns = [{kind: (n, approximate) for kind, n, approximate in row.kind_counts(c)} for c in columns]
            for kind in game.kinds:
                cells = [at.get(kind.id) for at in breakdowns]
                if any(cells):
                    rows.append(PlayerRow(kind.plural or plural(kind.name),
                                          [format_count(*cell) if cell else "0" for cell in cells], part=True))
    rows += [PlayerRow(row.label, [_count(v, row.blank) for v in row.values]) for row in component_rows(report)]
    # by identity: two piles' rows of one kind may read the same ("Creatures 6") and stay two rows
    constant = {id(r) for r in rows if len(set(r.values)) == 1 and len(counts) > 1 and not r.part}
    return SetupTable(report, counts, [r for r in rows if id(r) not in constant], [r for r in rows if id(r) in constant])


def _count(value: float | None, blank: str) -> str:
    return blank if value is None else format_count(value)


def pocket_layout(game: Game, paper: str, panels: int = 1, copies: int | None = None) -> dict[str, Any]:
    """Size of a pocket copy (`panels` cards side by side, folded between them; a card: the
    game's size, at least poker) and how many fit a page (or `copies` of them). The page is turned
    landscape for a strip wider than it is upright (cards too wide for two of them side by side)."""
    width, height = card_size_mm(game.card_size)
    width, height = max(width, POCKET_MIN_MM[0]), max(height, POCKET_MIN_MM[1])
    short, long = PAPERS_MM[paper]
    landscape = width * panels > short - 2 * POCKET_MARGIN_MM
    page_w, page_h = (long, short) if landscape else (short, long)
    per_row = max(1, int((page_w - 2 * POCKET_MARGIN_MM) // (width * panels)))
    per_column = max(1, int((page_h - 2 * POCKET_MARGIN_MM) // height))
    return {
        "width": round(width * panels, 2), "height": height, "panels": panels, "landscape": landscape,
        "most": max(1, int((long - 2 * POCKET_MARGIN_MM) // width)), "count": copies or per_row * per_column,
        "margin_x": round((page_w - per_row * width * panels) / 2, 2),
        "margin_y": round((page_h - per_column * height) / 2, 2),
    }

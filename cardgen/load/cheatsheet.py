"""load/cheatsheet: game.yaml's `reference:` mapping; its `cheatsheet:` is typed (model.CheatSheet),
other keys stay free data for a game's own templates."""
from __future__ import annotations

import yaml

from cardgen.load.reader import Reader, did_you_mean
from cardgen.load.schema import (
    CHEATSHEET,
    COMBO_ROW,
    COMBOS,
    REFERENCE,
    SHEET_SECTION,
    Text,
)
from cardgen.load.schema import (
    CHEATSHEET_GROUP_BY as GROUP_BY,
)
from cardgen.model.game import CheatSheet, ComboRow, Combos, PlainData, SheetSection


def read_reference(reader: Reader, node: yaml.Node | None, game_title: str,
                   deck_ids: tuple[str, ...]) -> tuple[CheatSheet | None, dict[str, PlainData]]:
    """(the cheat sheet or None, the other reference: keys as plain data)."""
    if node is None:
        return None, {}
    m = reader.mapping(node, REFERENCE)
    sheet = _cheatsheet(reader, m["cheatsheet"], game_title, deck_ids) if "cheatsheet" in m else None
    return sheet, {key: reader.plain(value, f"reference: {key}") for key, value in m.items() if key != "cheatsheet"}


def _cheatsheet(reader: Reader, node: yaml.Node, game_title: str, deck_ids: tuple[str, ...]) -> CheatSheet:
    m = reader.mapping(node, CHEATSHEET)

    def text(key: str, default: str = "") -> str:
        return m.read(key, Text, "").strip() or default

    group_by = text("card_group_by", "text")
    if group_by not in GROUP_BY:
        reader.error(m["card_group_by"], "bad-value", f"cheatsheet: card_group_by '{group_by}' is not one of "
                     f"{', '.join(GROUP_BY)}", "text: cards of one color with the same text share a line; "
                     "none: a line per card type")
    return CheatSheet(
        title=text("title", game_title), subtitle=text("subtitle"), goal=text("goal"),
        card_heading=text("card_heading"), group_by_text=group_by != "none",
        sections=tuple(_section(reader, item) for item in reader.sequence(m.get("sections"), "cheatsheet: sections")),
        combos=_combos(reader, m["combos"]) if "combos" in m else None,
        copies_label=text("copies_label"), players_note=text("players_note"),
        card_decks=_card_decks(reader, m.get("card_decks"), deck_ids),
    )


def _card_decks(reader: Reader, node: yaml.Node | None, deck_ids: tuple[str, ...]) -> tuple[str, ...]:
    """The decks the card list shows, each one of game.yaml's decks:."""
    known = []
    for item in reader.sequence(node, "cheatsheet: card_decks"):
        deck = reader.text(item, "card_decks item")
        if deck in deck_ids:
            known.append(deck)
        else:
            reader.error(item, "unknown-deck", f"cheatsheet: card_decks: no deck '{deck}'",
                         did_you_mean(deck, deck_ids) or f"decks are: {', '.join(deck_ids) or 'none (game.yaml has no decks:)'}")
    return tuple(known)


def _section(reader: Reader, node: yaml.Node) -> SheetSection:
    m = reader.mapping(node, SHEET_SECTION)
    return SheetSection(m.read("title", Text, "").strip(),
                        tuple(reader.text(item, "section item") for item in reader.sequence(m.get("items"), "items")))


def _combos(reader: Reader, node: yaml.Node) -> Combos:
    m = reader.mapping(node, COMBOS)
    rows = []
    for item in reader.sequence(m.get("rows"), "combos: rows"):
        row = reader.mapping(item, COMBO_ROW)
        rows.append(ComboRow(*(row.read(k, Text, "").strip() for k in ("cards", "name", "effect"))))
    return Combos(m.read("title", Text, "").strip() or "Combos", m.read("intro", Text, "").strip(), tuple(rows))

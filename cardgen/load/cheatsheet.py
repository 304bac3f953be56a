"""load/cheatsheet: game.yaml's `reference:` mapping; its `cheatsheet:` is typed (model.CheatSheet),
other keys stay free data for a game's own templates."""
from __future__ import annotations

from ..model import CheatSheet, ComboRow, Combos, SheetSection
from .schema import Field, Fields, ListOf, Text

GROUP_BY = ("text", "none")
SECTION = Fields("cheatsheet: section", {"title": Field(Text(), label="section title"),
                                         "items": Field(ListOf(Text()), True)})
COMBO_ROW = Fields("combo row", {key: Field(Text(), key == "cards", f"combo {key}") for key in ("cards", "name", "effect")})
COMBOS = Fields("cheatsheet: combos", {"title": Field(Text(), label="combos: title"),
                                       "intro": Field(Text(), label="combos: intro"), "rows": Field(ListOf(COMBO_ROW))})
CHEATSHEET = Fields("cheatsheet", {
    **{key: Field(Text(), label=f"cheatsheet: {key}") for key in ("title", "subtitle", "goal", "card_heading")},
    "card_group_by": Field(Text(choices=GROUP_BY), label="cheatsheet: card_group_by"),
    "sections": Field(ListOf(SECTION)), "combos": Field(COMBOS),
    **{key: Field(Text(), label=f"cheatsheet: {key}") for key in ("copies_label", "players_note")},
})


def read_reference(reader, node, game_title: str) -> tuple[CheatSheet | None, dict]:
    """(the cheat sheet or None, the other reference: keys as plain data)."""
    if node is None:
        return None, {}
    sheet, extra = None, {}
    for key_node, value_node in reader.free_mapping(node, "reference"):
        if key_node.value == "cheatsheet":
            sheet = _cheatsheet(reader, value_node, game_title)
        else:
            extra[key_node.value] = reader.plain(value_node, f"reference: {key_node.value}")
    return sheet, extra


def _cheatsheet(reader, node, game_title: str) -> CheatSheet:
    m = reader.mapping(node, CHEATSHEET)

    def text(key: str, default: str = "") -> str:
        return m.read(key, "").strip() or default

    group_by = text("card_group_by", "text")
    if group_by not in GROUP_BY:
        reader.error(m["card_group_by"], "bad-value", f"cheatsheet: card_group_by '{group_by}' is not one of "
                     f"{', '.join(GROUP_BY)}", "text: cards of one color with the same text share a line; "
                     "none: a line per card type")
    return CheatSheet(
        title=text("title", game_title), subtitle=text("subtitle"), goal=text("goal"),
        card_heading=text("card_heading", "The cards"), group_by_text=group_by != "none",
        sections=tuple(_section(reader, item) for item in reader.sequence(m.get("sections"), "cheatsheet: sections")),
        combos=_combos(reader, m["combos"]) if "combos" in m else None,
        copies_label=text("copies_label", "Copies"), players_note=text("players_note"),
    )


def _section(reader, node) -> SheetSection:
    m = reader.mapping(node, SECTION)
    return SheetSection(m.read("title", "").strip(),
                        tuple(reader.text(item, "section item") for item in reader.sequence(m.get("items"), "items")))


def _combos(reader, node) -> Combos:
    m = reader.mapping(node, COMBOS)
    rows = []
    for item in reader.sequence(m.get("rows"), "combos: rows"):
        row = reader.mapping(item, COMBO_ROW)
        rows.append(ComboRow(*(row.read(k, "").strip() for k in ("cards", "name", "effect"))))
    return Combos(m.read("title", "").strip() or "Combos", m.read("intro", "").strip(), tuple(rows))

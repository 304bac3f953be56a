"""load/parts: what the readers of a game's parts share: the readers of the game's files, the ids\nread so far, and the helpers every part uses (ids, symbols, backs, selectors)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TypeVar

import yaml

from cardgen.layout import sheet
from cardgen.load import schema
from cardgen.load.fields import read_selection, select_spec
from cardgen.load.reader import Reader, Values, did_you_mean
from cardgen.load.schema import Boolean, Fields, Identifier, Number, Text, TextList
from cardgen.load.yaml_nodes import is_null
from cardgen.model.fields import NUMBER, CardField
from cardgen.model.game import Finding, Selector
from cardgen.model.sizes import CARD_SIZES_MM, DEFAULT_CARD_SIZE, CardSize
from cardgen.model.where import Where

Made = TypeVar("Made")


class Parts:
    """The state the parts of the game builder share: what GameBuilder (load/game.py) sets before
    it reads the parts that use it, each declared here once."""

    CHECK_PILES = ("draw_pile", "hand")  # the deck after the steps; each player's share of the hands
    languages: Mapping[str, Where] = MappingProxyType({})  # game.yaml's, each where it is listed

    folder: Path
    g: Reader
    c: Reader
    s: Reader
    extra_findings: list[Finding]
    piles: list[str]
    component_ids: list[str]
    symbol_refs: list[tuple[str, Where, str]]  # (name, where named, what names it)
    known_ids: dict[str, list[str]]
    card_ids: dict[str, str]  # a card's id by its case-folded name or id
    back_ids: list[str]
    deck_ids: tuple[str, ...] = ()  # game.yaml's decks (none: the game is one deck)
    deck_nodes: dict[str, Values]  # each deck's mapping, for what is read once the cards are (load/decks.py)
    fields: tuple[CardField, ...]  # the game's own card fields (game.yaml's fields:)
    set_steps: list[tuple[str, yaml.Node]]  # (component id, its node) of every set: step (load/steps.py)
    START_PILES: tuple[str, ...]  # the piles that exist before the steps (load/steps.py)

    def _symbol(self, m: Values, what: str, reader: Reader | None = None, key: str = "symbol") -> str | None:
        """A color's or a card's symbol (default star) or a back's emblem (default none); load_game
        checks at the end that the game has it."""
        name = m.read(key, Identifier)
        if name is None:
            return "star" if key == "symbol" else None
        self.symbol_refs.append((name, (reader or self.g).where(m[key]), what))
        return name

    def _size_in_mm(self, node: yaml.MappingNode) -> CardSize:
        """A card size given as {width_mm, height_mm} (either missing: the default size's)."""
        m = self.g.mapping(node, schema.CARD_SIZE)
        width, height = CARD_SIZES_MM[DEFAULT_CARD_SIZE]
        width_mm, height_mm = m.read("width_mm", Number) or width, m.read("height_mm", Number) or height
        return self._printable(node, {"width_mm": width_mm, "height_mm": height_mm})

    def _printable(self, node: yaml.Node | None, size: CardSize) -> CardSize:
        """A card size game.yaml gives (the game's or a deck's), or the default size if no paper
        cardgen prints on holds it (an error at its line, where the build would stop later)."""
        reason = sheet.unprintable(size)
        if reason is None:
            return size
        self.g.error(node, "unprintable-size", reason, "choose a smaller card_size")
        return DEFAULT_CARD_SIZE

    def _back_id(self, reader: Reader, node: yaml.Node | None) -> str | None:
        """A color's, kind's or card's back: the id of one of game.yaml's backs."""
        ident = reader.text(node, "back")
        if not ident:
            return None
        if ident not in self.back_ids:
            reader.error(node, "unknown-back", f"unknown back '{ident}'",
                         did_you_mean(ident, self.back_ids) or
                         (f"backs are: {', '.join(self.back_ids)}" if self.back_ids else
                          "define it in game.yaml's backs: list"))
            return None
        return ident

    def _deck_id(self, reader: Reader, node: yaml.Node | None) -> str | None:
        """A card's deck: the id of one of game.yaml's decks."""
        ident = reader.text(node, "deck") if node is not None else ""
        if ident and ident not in self.deck_ids:
            reader.error(node, "unknown-deck", f"unknown deck '{ident}'", did_you_mean(ident, self.deck_ids) or (
                f"decks are: {', '.join(self.deck_ids)}" if self.deck_ids else "define it in game.yaml's decks: list"))
            return None
        return ident or None

    def _identified(self, node: yaml.Node | None, spec: Fields,
                    make: Callable[[str, Values], Made]) -> tuple[Made, ...]:
        """A list of mappings with unique `id`s, each turned into a model object by make(id, mapping)."""
        g = self.g
        what = spec.name
        out: list[Made] = []
        seen: set[str] = set()
        for item in g.sequence(node, f"{what}s"):
            m = g.mapping(item, spec)
            ident = g.identifier(m.get("id"), f"{what} id")
            if ident is None:
                continue
            if ident in seen:
                g.error(m["id"], "duplicate-id", f"{what} '{ident}' is defined twice")
                continue
            seen.add(ident)
            out.append(make(ident, m))
        return tuple(out)

    def _ids(self, node: yaml.Node | None, known: list[str], what: str, code: str) -> tuple[str, ...]:
        c = self.c
        out: list[str] = []
        for item_node, value in self._id_items(node, what):
            if value not in known:
                c.error(item_node, code, f"unknown {what} '{value}'",
                        did_you_mean(value, known) or f"{what}s are: {', '.join(known) or 'none defined'}")
            elif value not in out:
                out.append(value)
        return tuple(out)

    def _id_items(self, node: yaml.Node | None, what: str) -> list[tuple[yaml.Node, str]]:
        c = self.c
        if node is None or is_null(node):
            return []
        items = [node] if isinstance(node, yaml.ScalarNode) else c.sequence(node, f"{what}s")
        return [(n, c.text(n, what).strip().lower()) for n in items]

    def _selector(self, node: yaml.Node | None, reader: Reader | None = None) -> Selector | None:
        g = reader or self.g
        if node is None:
            return None
        by_id = {f.id: f for f in (*self.fields, NUMBER_FIELD)}
        m = g.mapping(node, select_spec(self.fields))
        out: dict[str, object] = {}
        for key, value in m.items():
            if key in by_id:
                out[key] = read_selection(g, by_id[key], value)
            elif key in ("any",):
                out[key] = [self._selector(v, g) for v in g.sequence(value, key)]
            elif key == "not":
                out[key] = self._selector(value, g)
            elif key == "attribute":
                table = schema.declared(schema.SELECT, "attribute", schema.Table).value.as_(Text)
                out[key] = {k.value: table.read(g, v, "attribute value") for k, v in g.free_mapping(value, key)}
            elif key == "star":
                out[key] = m.read(key, Boolean)
            else:
                values = m.read(key, TextList, ())
                self._check_selected_ids(g, value, key, values)
                # cards by id: a translated game's cards have other names
                out[key] = [self.card_ids.get(x.casefold(), x.casefold()) if key == "card" else x for x in values]
        return out

    def _check_selected_ids(self, reader: Reader, node: yaml.Node, key: str, values: tuple[str, ...]) -> None:
        known = self.known_ids.get(key, [])
        for value in values:
            if value not in known and value.casefold() not in {k.casefold() for k in known}:
                reader.error(node, f"unknown-{key}", f"select: unknown {key} '{value}'",
                             did_you_mean(value, known) or f"{key}s are: {', '.join(known) or 'none'}")


NUMBER_FIELD = CardField("number", NUMBER, "Number")  # the built-in number, selected like a number field

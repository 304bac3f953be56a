"""load/game: game.yaml to the model's game: palette, tags, kinds, attributes, backs, components,\nlayout, and the parts read by cards, setups and steps."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import yaml

from cardgen.inputs.paths import display_path
from cardgen.load import schema
from cardgen.load.cards import CardParts
from cardgen.load.cheatsheet import read_reference
from cardgen.load.decks import DeckParts
from cardgen.load.layout import read_layout
from cardgen.load.reader import Reader, Values, did_you_mean
from cardgen.load.rules import read_rules
from cardgen.load.schema import KIND_ROLES, CountSpecType, HexColor, Identifier, Integer, Text, TextList
from cardgen.load.setups import SetupParts
from cardgen.load.steps import StepParts
from cardgen.load.translations import read_languages
from cardgen.load.turns import read_turns
from cardgen.model.fields import CardField
from cardgen.model.file_names import slugify
from cardgen.model.game import (
    COMPONENT_COUNTS,
    ERROR,
    WARNING,
    Attribute,
    Back,
    Color,
    Component,
    Finding,
    Game,
    Kind,
    Tag,
    Variation,
)
from cardgen.model.layout import Layout
from cardgen.model.sizes import CARD_SIZES_MM, DEFAULT_CARD_SIZE, CardSize
from cardgen.model.where import Where


class GameBuilder(CardParts, SetupParts, StepParts, DeckParts):
    """Reads every file of a game into the model (game.yaml here; cards, setups and steps in their parts)."""

    exports_node: yaml.Node | None  # game.yaml's exports:, checked against the export targets by load_game

    def __init__(self, folder: Path, readers: dict[str, Reader], fields: tuple[CardField, ...] = ()):
        self.folder, self.fields = folder, fields
        self.g, self.c, self.s = readers["game"], readers["cards"], readers["setups"]
        self.extra_findings: list[Finding] = []
        self.piles: list[str] = list(self.START_PILES)
        self.component_ids: list[str] = []
        self.set_steps = []
        self.exports_node = None
        self.symbol_refs: list[tuple[str, Where, str]] = []  # (name, where named, what names it)

    def build(self, docs: Mapping[str, yaml.Node]) -> Game:
        g = self.g
        top = g.mapping(docs["game"], schema.GAME)
        self.exports_node = top.get("exports")
        self.languages = read_languages(g, top.get("languages"))
        backs = self._identified(top.get("backs"), schema.BACK, lambda ident, m: Back(
            ident, m.read("title", Text, ""), m.read("background", HexColor), m.read("pattern", HexColor),
            m.read("border", HexColor), self._symbol(m, f"back '{ident}'", key="emblem"), m.read("face", Identifier), g.where(m.get("title") or m.get("id"))))
        self.back_ids = [b.id for b in backs]
        colors = self._colors(top.get("colors"))
        tags = self._identified(top.get("tags"), schema.TAG,
                                lambda ident, m: Tag(ident, m.read("name", Text, ""), m.read("meaning", Text, "")))
        kinds = self._kinds(top.get("kinds"))
        attributes = self._attributes(top.get("attributes"))
        self._check_field_names(attributes)
        kind_styles = self._kind_styles(top.get("kind_styles"), kinds)
        self.known_ids = {"color": [c.id for c in colors], "tag": [t.id for t in tags],
                          "kind": [k.id for k in kinds]}
        decks = self._declared_decks(top.get("decks"))
        cards = self._cards(docs["cards"], colors, tags, kinds, attributes)
        self.known_ids["card"] = [c.name for c in cards]
        self.card_ids = {c.name.casefold(): c.id for c in cards} | {c.id: c.id for c in cards}
        setups = () if docs["setups"] is NO_SETUPS else self._setups(docs["setups"], cards)
        declared_piles = self._declared_piles(top.get("piles"))
        steps = self._steps(top.get("setup"))
        piles = self._piles(declared_piles, steps)
        components = self._components(top.get("components"))
        self._check_set_steps()
        checks = self._checks(top.get("checks"))
        self._check_waivers(setups, checks)
        variations = tuple(
            Variation(m.read("name", Text, ""), m.read("text", Text, ""), g.passage(m["text"]) if "text" in m else None)
            for m in (g.mapping(n, schema.VARIATION) for n in g.sequence(top.get("variations"), "variations"))
        )
        title = top.read("title", Text, "")
        cheatsheet, reference = read_reference(g, top.get("reference"), title, self.deck_ids)
        default_setup = top.read("default_setup", Text) or None
        if default_setup and slugify(default_setup) not in {s.id for s in setups}:
            g.error(top.get("default_setup"), "unknown-setup", f"default_setup '{default_setup}' is not a setup",
                    did_you_mean(default_setup, [s.name for s in setups]))
        layout = self._layout()
        cards, decks = self._into_decks(cards, decks, layout)
        return Game(
            id=self.folder.name,
            folder=self.folder,
            title=title,
            version=top.read("version", Text, ""),
            author=top.read("author", Text, ""),
            date=top.read("date", Text, ""),
            card_size=self._card_size(top.get("card_size")),
            colors=colors, tags=tags, kinds=kinds, attributes=attributes,
            kind_styles=kind_styles, cards=cards, setups=setups, steps=steps, checks=checks,
            variations=variations, components=components, default_setup=default_setup,
            rules_markdown=self._rules_markdown(),
            rules_file=display_path(self.folder / "rules.md", self.folder),
            text_checks=self._text_checks(top.get("text_checks"), cards),
            layout=layout,
            cheatsheet=cheatsheet, extra=reference,
            backs=backs,
            exports=top.read("exports", TextList, ()),
            piles=piles,
            number_name=top.read("number_name", Text, ""),
            changes_since=top.read("changes_since", Text, ""),
            changes_where=g.where(top.get("changes_since")) if "changes_since" in top else None,
            turns=read_turns(g, top.get("turns")),
            fields=self.fields,
            decks=decks,
        )

    def _check_field_names(self, attributes: tuple[Attribute, ...]) -> None:
        """A card field and an attribute of one name would be one {name} in a pattern."""
        for f in self.fields:
            if any(a.id == f.id for a in attributes):
                self.extra_findings.append(Finding(ERROR, "field-name-taken", f"fields: '{f.id}' is also an attribute's "
                                                   "id", f.where, "give the field or the attribute another name"))

    # -- game.yaml parts

    def _card_size(self, node: yaml.Node | None) -> CardSize:
        g = self.g
        if node is None:
            return DEFAULT_CARD_SIZE
        if isinstance(node, yaml.MappingNode):
            return self._size_in_mm(node)
        name = g.text(node, "card_size")
        if name not in CARD_SIZES_MM:
            g.error(node, "unknown-size", f"card_size '{name}' is not a known size",
                    did_you_mean(name, CARD_SIZES_MM) or f"use one of {', '.join(CARD_SIZES_MM)} or "
                    "{width_mm: .., height_mm: ..}")
            return DEFAULT_CARD_SIZE
        return name

    def _colors(self, node: yaml.Node | None) -> tuple[Color, ...]:
        g = self.g
        owners: dict[str, str] = {}  # symbol -> the first color that shows it
        colors = self._identified(node, schema.COLOR, lambda cid, m: self._color(cid, m, owners))
        if not colors:
            g.error(node, "missing-field", "game.yaml defines no colors", "add a colors: list")
        return colors

    def _color(self, cid: str, m: Values, owners: dict[str, str]) -> Color:
        name, meaning, hex_color = m.read("name", Text, ""), m.read("meaning", Text, ""), m.read("hex", HexColor)
        symbol = self._symbol(m, f"color '{cid}'") or ""
        if symbol in owners:  # the symbol is what tells the colors apart in black and white
            self.g.findings.append(Finding(
                WARNING, "shared-symbol", f"color '{cid}' has the symbol '{symbol}' of color '{owners[symbol]}': "
                "printed in black and white, or seen by a color-blind player, their cards look alike",
                self.g.where(m["symbol"]), "give each color a symbol of its own (docs/symbols.md lists the "
                "built-in ones; a game's own go in its symbols/ folder)"))
        if symbol:
            owners.setdefault(symbol, cid)
        return Color(id=cid, name=name, meaning=meaning, hex=hex_color or "#888888",
                     symbol=symbol, text_hex=m.read("text_hex", HexColor),
                     title_hex=m.read("title_hex", HexColor), back=self._back_id(self.g, m.get("back")))

    def _kinds(self, node: yaml.Node | None) -> tuple[Kind, ...]:
        return self._identified(node, schema.KIND, lambda ident, m: Kind(
            ident, m.read("name", Text, ""), m.read("meaning", Text, ""), m.read("plural", Text, ""), self._role(m),
            self._back_id(self.g, m.get("back"))))


    def _role(self, m: Values) -> str:
        role = m.read("role", Text, "")
        if role and role not in KIND_ROLES:
            self.g.error(m["role"], "bad-role", f"role '{role}' is not one of {', '.join(KIND_ROLES)}",
                         "losing: drawing one loses the game; saving: saves a player from one")
            return ""
        return role


    def _attributes(self, node: yaml.Node | None) -> tuple[Attribute, ...]:
        g = self.g
        out = []
        for item in g.sequence(node, "attributes"):
            m = g.mapping(item, schema.ATTRIBUTE)
            ident = g.identifier(m.get("id"), "attribute id")
            source = m.read("from", Text, "number")
            if source not in schema.ATTRIBUTE_SOURCES:
                g.error(m.get("from"), "unknown-key", f"attribute source '{source}' is not supported",
                        f"attributes are derived from: {', '.join(schema.ATTRIBUTE_SOURCES)}")
            digit = m.read("digit", Text) or None
            if digit not in (None, *schema.DIGITS):
                g.error(m["digit"], "unknown-key", f"digit '{digit}' is not {' or '.join(schema.DIGITS)}")
                digit = None
            names: dict[int, str] = {}
            if "names" in m:
                table = schema.declared(schema.ATTRIBUTE, "names", schema.Table)
                values, labels = table.key.as_(Integer), table.value.as_(Text)
                for key_node, value_node in g.free_mapping(m["names"], "names"):
                    value = values.read(g, key_node, "attribute value")
                    if value is not None:
                        names[value] = labels.read(g, value_node, "name")
            if ident:
                out.append(Attribute(ident, m.read("name", Text, ""), digit, m.read("divide", Integer),
                                     m.read("modulo", Integer), names))
        return tuple(out)

    def _kind_styles(self, node: yaml.Node | None, kinds: tuple[Kind, ...]) -> dict[str, dict[str, str]]:
        g = self.g
        styles: dict[str, dict[str, str]] = {}
        if node is None:
            return styles
        kind_ids = [k.id for k in kinds]
        for key_node, value_node in g.free_mapping(node, "kind_styles"):
            if key_node.value not in kind_ids:
                g.error(key_node, "unknown-kind", f"kind_styles: unknown kind '{key_node.value}'",
                        did_you_mean(key_node.value, kind_ids))
                continue
            m = g.mapping(value_node, schema.KIND_STYLE)
            styles[key_node.value] = {k: color for k in m if (color := m.read(k, HexColor))}
        return styles

    # -- cards.yaml


    # -- setups.yaml


    def _components(self, node: yaml.Node | None) -> tuple[Component, ...]:
        """game.yaml's components: what the game has besides its cards, each counted by player count."""
        g = self.g
        components = self._identified(node, schema.COMPONENT, lambda ident, m: Component(
            id=ident, name=m.read("name", Text, ""), plural=m.read("plural", Text) or f"{m.read('name', Text, '')}s",
            count=m.read("count", CountSpecType), meaning=m.read("meaning", Text, ""), each=m.read("each", CountSpecType),
            to_win=m.read("to_win", CountSpecType),
            where=g.where(m["id"]), places={key: g.where(m[key]) for key in COMPONENT_COUNTS if key in m}))
        for component in components:
            if component.id in self.piles or component.id in ("setup", *self.CHECK_PILES):
                self.extra_findings.append(Finding(
                    ERROR, "duplicate-id", f"component '{component.id}' has the name of a pile", component.where,
                    "checks name piles and components alike: give the component another id"))
        self.component_ids = [c.id for c in components]
        return components


    # -- rules data


    # -- other files

    def _rules_markdown(self) -> str:
        path = self.folder / "rules.md"
        if not path.exists():
            self.extra_findings.append(Finding(WARNING, "no-rules", "the game folder has no rules.md: the rulebook "
                                               "shows only what the data holds (cards, setups, variations)",
                                               Where(display_path(path, self.folder)),
                                               "write the rules in rules.md (see docs/data-format.md)"))
            return ""
        text, findings = read_rules(self.folder, path)
        self.extra_findings += findings
        return text

    def _layout(self) -> Layout:
        reader = Reader(self.folder / "layout.yaml")
        design = read_layout(self.folder, reader, self.symbol_refs)
        self.extra_findings += reader.findings
        return design


NO_SETUPS = yaml.MappingNode("tag:yaml.org,2002:map", [])  # a game without setups.yaml (yet)

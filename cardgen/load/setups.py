"""load/setups: setups.yaml to the model's setups: their tables, hands and text checks."""
from __future__ import annotations

import yaml

from cardgen.load import schema
from cardgen.load.parts import Parts
from cardgen.load.reader import Values, did_you_mean
from cardgen.load.schema import Integer, Text, TextList
from cardgen.load.yaml_nodes import is_null
from cardgen.model import expressions
from cardgen.model.file_names import file_name_problem, sheet_file_name, slugify
from cardgen.model.game import (
    ENGINE_CHECKS,
    ERROR,
    Card,
    Check,
    CountSpec,
    Finding,
    Hand,
    Setup,
    SetupLine,
    TextChecks,
    Waiver,
    matches,
)
from cardgen.model.where import Passage, Where


class SetupParts(Parts):
    """setups.yaml's part of the game builder."""

    def _setups(self, doc: yaml.Node, cards: tuple[Card, ...]) -> tuple[Setup, ...]:
        s = self.s
        top = s.mapping(doc, schema.SETUPS)
        index = {slugify(card.name): card for card in cards}  # setups name cards; a card's id may differ
        names = [card.name for card in cards]
        setups: list[Setup] = []
        seen: set[str] = set()
        for item in s.sequence(top.get("setups"), "setups"):
            if len(setups) == MAX_SETUPS:
                s.error(item, "too-many-setups", f"more than {MAX_SETUPS} setups")
                break
            m = s.mapping(item, schema.SETUP)
            if not m:
                continue
            name = m.read("name", Text, "").strip()
            if not name:
                continue
            if slugify(name) in seen:
                s.error(m["name"], "duplicate-setup", f"setup '{name}' is defined twice")
                continue
            problem = file_name_problem(sheet_file_name(name))
            if problem:
                s.error(m["name"], "file-name-too-long", f"setup '{name}': {problem}",
                        "shorten the setup's name (names in non-Latin scripts take 2–4 bytes a letter)")
            seen.add(slugify(name))
            low, high = self._players(m.get("players"))
            if "cards" not in m and "each" not in m:
                s.error(item, "missing-field", f"setup '{name}': missing 'cards' (or 'each')")
            lines = self._lines(m["cards"], index, names, name) if "cards" in m else ()
            lines += self._each(m.get("each"), cards, lines, name)
            setups.append(Setup(
                id=slugify(name), name=name, blurb=m.read("blurb", Text, ""),
                min_players=low, max_players=high,
                hand=self._hand(m.get("hand"), index, names),
                lines=lines,
                extra_rules=m.read("extra_rules", TextList, ()),
                copies=self._copies(m),
                waivers=self._waivers(m.get("waive")),
                where=s.where(item),
                places=self._setup_places(m),
            ))
        return tuple(setups)

    @staticmethod
    def _copies(m: Values) -> CountSpec:
        """A setup's copies (default 1, as where the value is unreadable: then reported)."""
        copies = m.read("copies", schema.CountSpecType, 1)
        return 1 if copies is None else copies

    def _setup_places(self, m: Values) -> dict[str, Passage]:
        s = self.s
        places = {"blurb": s.passage(m["blurb"])} if "blurb" in m else {}
        rules = m.get("extra_rules")
        items = [rules] if isinstance(rules, yaml.ScalarNode) and not is_null(rules) else s.sequence(rules, "extra rules")
        places.update({f"extra_rules[{i}]": s.passage(n) for i, n in enumerate(items)})
        return places

    def _players(self, node: yaml.Node | None) -> tuple[int, int]:
        s = self.s
        m = s.mapping(node, schema.PLAYERS)
        low, high = m.read("min", Integer), m.read("max", Integer)
        if low is not None and high is not None and high < low:
            s.error(node, "bad-players", f"players: max ({high}) is less than min ({low})")
            return low, low
        return (low or 1), (high or low or 1)

    def _resolve_card(self, key_node: yaml.Node, index: dict[str, Card], names: list[str],
                      context: str) -> str | None:
        name = key_node.value
        ident = slugify(name)
        if ident in index:
            return str(index[ident].id)
        if any(f.level == ERROR for f in self.c.findings):
            return None  # cards.yaml is broken: its errors explain the missing card
        self.s.error(key_node, "unknown-card", f"{context}: no card named '{name}' in cards.yaml",
                     did_you_mean(name, names) or "add the card to cards.yaml or fix the name")
        return None

    def _lines(self, node: yaml.Node, index: dict[str, Card], names: list[str],
               setup_name: str) -> tuple[SetupLine, ...]:
        s = self.s
        lines = []
        for key_node, value_node in s.free_mapping(node, f"setup '{setup_name}': cards"):
            ident = self._resolve_card(key_node, index, names, f"setup '{setup_name}'")
            count = schema.declared(schema.SETUP, "cards", schema.Table).value.as_(Integer).read(
                s, value_node, f"count of '{key_node.value}'")
            if count is None and not is_null(value_node):
                continue
            if ident:
                lines.append(SetupLine(ident, count, s.where(key_node)))
        return tuple(lines)

    def _each(self, node: yaml.Node | None, cards: tuple[Card, ...], lines: tuple[SetupLine, ...],
              setup_name: str) -> tuple[SetupLine, ...]:
        """`each: [{select: .., count: N}]`: N copies of every card the selector picks."""
        s = self.s
        listed = {line.card for line in lines}
        out = []
        for item in s.sequence(node, "each"):
            m = s.mapping(item, schema.EACH)
            selector = self._selector(m.get("select"), s)
            count = m.read("count", Integer)
            picked = [card for card in cards if matches(card, selector)]
            if selector is not None and not picked:
                s.error(m.get("select"), "empty-selection", f"setup '{setup_name}': each: the selector picks no card")
            for card in picked:
                if card.id in listed:
                    s.error(item, "duplicate-key", f"setup '{setup_name}': '{card.name}' is counted twice",
                            "list it under cards or pick it with each, not both")
                    continue
                listed.add(card.id)
                if count is not None:
                    out.append(SetupLine(card.id, count, s.where(item)))
        return tuple(out)

    def _hand(self, node: yaml.Node | None, index: dict[str, Card], names: list[str]) -> Hand:
        s = self.s
        if node is None:
            return Hand()
        m = s.mapping(node, schema.HAND)
        deal = m.read("deal", schema.CountSpecType)
        if expressions.uses(deal, "hand"):
            s.error(m["deal"], "bad-expression", "hand: deal cannot use hand (it is the hand size itself)",
                    "e.g. deal: 7, deal: 12 - players or deal: {2: 10, 3: 9, 4: 8}")
            deal = None
        extras: list[tuple[str, CountSpec]] = []
        places: dict[str, Where] = {}
        if "extras" in m and not is_null(m["extras"]):
            for key_node, value_node in s.free_mapping(m["extras"], "hand: extras"):
                ident = self._resolve_card(key_node, index, names, "hand: extras")
                count = schema.declared(schema.HAND, "extras", schema.Table).value.as_(schema.CountSpecType).read(
                    s, value_node, f"extras count of '{key_node.value}'")
                if ident and count is not None and count != 0:
                    extras.append((ident, count))
                    places[ident] = s.where(value_node)
        return Hand(deal, tuple(extras), s.where(m["deal"]) if "deal" in m else None, places)

    def _text_checks(self, node: yaml.Node | None, cards: tuple[Card, ...]) -> TextChecks:
        """text_checks: {aliases: {Name: {color|kind|tag|card: id}}, waive: [{check, reason, inside}]}."""
        g = self.g
        if node is None:
            return TextChecks()
        m = g.mapping(node, schema.TEXT_CHECKS)
        aliases: dict[str, tuple[str, str]] = {}
        for key_node, value_node in g.free_mapping(m["aliases"], "aliases") if "aliases" in m else ():
            target = self._alias_target(key_node.value, value_node, cards)
            if target:
                aliases[key_node.value] = target
        waivers = []
        for item in g.sequence(m.get("waive"), "waive"):
            w = g.mapping(item, schema.GAME_WAIVER)
            waivers.append(Waiver(w.read("check", Text, ""), w.read("reason", Text, ""), g.where(w.get("check", item)),
                                  w.read("inside", Text, "")))
        return TextChecks(aliases, tuple(waivers))

    def _alias_target(self, alias: str, node: yaml.Node, cards: tuple[Card, ...]) -> tuple[str, str] | None:
        """An alias's {color|kind|tag: id} or {card: name} as (what, id); None (reported) if unknown."""
        g = self.g
        target = g.mapping(node, schema.ALIAS, f"alias '{alias}'")
        if len(target) != 1:
            g.error(node, "bad-alias", f"alias '{alias}' needs exactly one of: {', '.join(schema.ALIAS.exactly_one)}",
                    "e.g. Unique Cards: {color: special}")
            return None
        what, = target
        value = target.read(what, Text, "")
        known = {slugify(c.name): c.name for c in cards} if what == "card" else {i: i for i in self.known_ids[what]}
        ident = slugify(value) if what == "card" else value
        if ident not in known:
            g.error(target[what], f"unknown-{what}", f"alias '{alias}': unknown {what} '{value}'",
                    did_you_mean(value, known.values()) or f"{what}s are: {', '.join(known.values())}")
            return None
        return what, ({slugify(c.name): c.id for c in cards}[ident] if what == "card" else ident)

    def _waivers(self, node: yaml.Node | None) -> tuple[Waiver, ...]:
        s = self.s
        out = []
        for item in s.sequence(node, "waive"):
            m = s.mapping(item, schema.SETUP_WAIVER)
            out.append(Waiver(m.read("check", Text, ""), m.read("reason", Text, ""), s.where(m.get("check", item))))
        return tuple(out)

    def _check_waivers(self, setups: tuple[Setup, ...], checks: tuple[Check, ...]) -> None:
        ids = [c.id for c in checks] + list(ENGINE_CHECKS)
        for setup in setups:
            for waiver in setup.waivers:
                if waiver.check not in ids:
                    self.extra_findings.append(Finding(
                        ERROR, "unknown-check", f"setup '{setup.name}' waives unknown check '{waiver.check}'",
                        waiver.where, did_you_mean(waiver.check, ids) or f"checks are: {', '.join(ids)}"))


MAX_SETUPS = 200  # the checklists print a page per setup

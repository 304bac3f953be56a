"""load/steps: game.yaml's setup procedure (steps between piles) and its checks."""
from __future__ import annotations

import yaml

from cardgen.load import schema
from cardgen.load.parts import Parts
from cardgen.load.reader import Values, did_you_mean
from cardgen.load.schema import ID_PATTERN, Boolean, Expression, Identifier, SeatCount, Text, TextList
from cardgen.model.game import (
    ASIDE,
    HAND,
    HANDS,
    LEVELS,
    PILE_ROLES,
    START_PILE,
    WARNING,
    Check,
    CountSpec,
    Finding,
    Pile,
    Step,
    default_pile,
)


class StepParts(Parts):
    """game.yaml's setup procedure and checks: the game builder's part for them."""

    def _steps(self, node: yaml.Node | None) -> tuple[Step, ...]:
        g = self.g
        if node is None:
            return ()
        m = g.mapping(node, schema.SETUP_PROCEDURE)
        steps: list[Step] = []
        piles = self.piles  # the piles that exist so far, in order of appearance
        for item in g.sequence(m.get("steps"), "steps"):
            sm = g.mapping(item, schema.STEP)
            actions = [a for a in schema.STEP.exactly_one if a in sm]
            if len(actions) > 1 or not actions and "text" not in sm:
                g.error(item, "bad-step", f"a step needs exactly one of: {', '.join(schema.STEP.exactly_one)}",
                        "or only a text: a step the documents show that moves nothing")
                continue
            action = actions[0] if actions else "text"
            when, text = sm.read("when", Expression), sm.read("text", Text, "")
            if action == "shuffle":
                steps.append(Step(source=self._pile(sm.get("shuffle"), piles, "shuffle"), action=action, when=when,
                                  text=text, where=g.where(item)))
                continue
            if action in ("text", "set", "first_player"):
                steps.append(Step(values=self._set_values(sm.get("set")), first_player=sm.read("first_player", Text, ""),
                                  action=action, when=when, text=text, where=g.where(item)))
                continue
            spec = g.mapping(sm[action], schema.declared(schema.STEP, action, schema.Fields))
            source = self._pile(spec.get("from"), piles, "from")
            target = spec.read("to", Text) or ("hands" if action == "deal" else "deck")
            if ID_PATTERN.match(target) and target not in piles:
                piles.append(target)
            steps.append(Step(
                source=source,
                target=target,
                select=self._selector(spec.get("select")),
                count=spec.read("count", schema.CountSpecType),
                per_player=action == "deal",
                extras=spec.read("extras", Boolean, False),
                up_to=spec.read("up_to", Boolean, False),
                random=spec.read("random", Boolean, False),
                seat=spec.read("seat", schema.CountSpecType) if action == "deal" else None,
                by_seat=spec.read("by_seat", SeatCount) if action == "deal" else None,
                split_by=(spec.read("split_by", Identifier, "") or "") if action == "deal" else "",  # None: reported
                action=action, when=when, text=text, where=g.where(item),
            ))
            self._check_counts(spec)
        return tuple(steps)

    def _check_counts(self, spec: Values) -> None:
        """A step counts its cards one way only."""
        counts = [key for key in ("count", "by_seat", "extras") if key in spec]
        if len(counts) > 1:
            self.g.error(spec[counts[1]], "bad-step", f"a deal counts by one of count, by_seat and extras, "
                         f"not {' and '.join(counts)}")

    def _set_values(self, node: yaml.Node | None) -> tuple[tuple[str, CountSpec], ...]:
        """A set: step's components and each player's starting value of them."""
        values = []
        for key_node, value_node in self.g.free_mapping(node, "set") if node is not None else ():
            spec = self.g.count_spec(value_node, f"set: {key_node.value}")
            if spec is not None:
                values.append((key_node.value, spec))
                self.set_steps.append((key_node.value, key_node))
        return tuple(values)

    def _check_set_steps(self) -> None:
        """The components a `set:` step gives a starting value (read before the components are)."""
        for ident, node in self.set_steps:
            if ident not in self.component_ids:
                self.g.error(node, "unknown-component", f"set: no component '{ident}'",
                             did_you_mean(ident, self.component_ids) or "declare it in game.yaml's components:")

    START_PILES = (START_PILE, HANDS)  # the setup's cards, and what the players were dealt

    def _declared_piles(self, node: yaml.Node | None) -> dict[str, Pile]:
        """game.yaml's piles: (the deck and the hands may be renamed, not given another role)."""
        g = self.g
        declared = {pile.id: pile for pile in self._identified(node, schema.PILE, lambda ident, m: Pile(
            ident, m.read("name", Text, ""), self._pile_role(m), m.read("each_player", Boolean, False) or ident == HANDS,
            m.read("face_up", Boolean, False), g.where(m["id"])))}
        if HANDS in declared:
            declared[HANDS] = Pile(HANDS, declared[HANDS].name, HAND, True, declared[HANDS].face_up,
                                   declared[HANDS].where)
        return declared

    def _pile_role(self, m: Values) -> str:
        """A declared pile's role; another than PILE_ROLES is an error, and the pile is set aside."""
        role = m.read("role", Text, "")
        if role in PILE_ROLES:
            return role
        if m.get("role") is not None:  # (a pile without one is reported as missing its role)
            self.g.error(m["role"], "bad-role", f"role '{role}' is not one of {', '.join(PILE_ROLES)}",
                         did_you_mean(role, PILE_ROLES) or "draw: players draw from it; supply: cards are taken "
                         "from it face up; discard; aside: out of play for now; box: back in the box")
        return ASIDE

    def _piles(self, declared: dict[str, Pile], steps: tuple[Step, ...]) -> tuple[Pile, ...]:
        """Every pile of the steps, as declared or by default (a pile dealt to is each player's);
        a declared pile no step uses is reported."""
        dealt_to = {step.target for step in steps if step.per_player}
        for pile in declared.values():
            if pile.id not in self.piles:
                self.extra_findings.append(Finding(
                    WARNING, "unused-pile", f"pile '{pile.id}' is declared but no setup step moves cards to it",
                    pile.where, did_you_mean(pile.id, self.piles) or "name it in a step's to:, or remove it"))
        return tuple(declared.get(name) or default_pile(name, dealt_to=name in dealt_to) for name in self.piles)

    def _pile(self, node: yaml.Node | None, piles: list[str], what: str) -> str:
        """A step's pile to take from (or shuffle): one that exists at this point of the steps."""
        name = self.g.text(node, what, "deck")
        if name not in piles:
            self.g.error(node, "unknown-pile", f"{what}: no pile '{name}' exists at this step",
                         " ".join(filter(None, [did_you_mean(name, piles), f"piles so far: {', '.join(piles)} "
                                                "(a pile exists once a step moves cards to it)"])))
        return name

    def _check_piles(self, node: yaml.Node | None, on: tuple[str, ...], selects: bool) -> None:
        """A check's `on:` names piles the setup steps make (or draw_pile, hand, setup), or components."""
        known = ["setup", *self.CHECK_PILES, *self.piles]
        components = [name for name in on if name in self.component_ids]
        for name in on:
            if name not in known and name not in self.component_ids:
                things = f"piles are: {', '.join(known)}" + (
                    f"; components: {', '.join(self.component_ids)}" if self.component_ids else "")
                self.g.error(node, "unknown-pile", f"on: no pile or component '{name}': the setup steps never "
                             "make it and no component has that id",
                             did_you_mean(name, known + self.component_ids) or things)
        if components and len(components) != len(on):
            self.g.error(node, "bad-check", f"on: '{', '.join(on)}' adds components to cards",
                         "check the components and the piles of cards separately")
        elif components and selects:
            self.g.error(node, "bad-check", f"on: '{', '.join(on)}': a selector picks cards, not components",
                         "remove select: from this check")

    def _checks(self, node: yaml.Node | None) -> tuple[Check, ...]:
        g = self.g
        checks: list[Check] = []
        seen: set[str] = set()
        for item in g.sequence(node, "checks"):
            m = g.mapping(item, schema.CHECK)
            ident = g.identifier(m.get("id"), "check id")
            level = m.read("level", Text, "")
            if level not in LEVELS:
                g.error(m.get("level"), "bad-level", f"level '{level}' is not one of {', '.join(LEVELS)}")
                continue
            on = m.read("on", TextList, ())
            if not on or not all(ID_PATTERN.match(name) for name in on) or ("setup" in on and len(on) > 1):
                g.error(m.get("on"), "bad-check", f"on: '{', '.join(on)}' must be setup, or pile names",
                        "e.g. on: draw_pile, on: hand, on: [draw_pile, box]")
                continue
            self._check_piles(m.get("on"), on, "select" in m)
            bounds = {k: m.read(k, schema.CountSpecType) for k in ("at_least", "at_most", "equals") if k in m}
            if not bounds:
                g.error(item, "bad-check", "a check needs at_least, at_most or equals")
                continue
            if ident is None or ident in seen:
                if ident:
                    g.error(m["id"], "duplicate-id", f"check '{ident}' is defined twice")
                continue
            seen.add(ident)
            checks.append(Check(id=ident, level=level, on=on, message=m.read("message", Text, ""),
                                select=self._selector(m.get("select")), source=m.read("source", Text, ""),
                                when=m.read("when", Expression), where=g.where(item), **bounds))
        return tuple(checks)

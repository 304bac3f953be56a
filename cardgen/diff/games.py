"""diff/games: what changed between two checked versions of a game, for a playtest round and the
rulebook's changes.

Cards are matched by id (a card renamed with its `id:` kept is the same card, changed); a change
names its fields, the art's contents and what changes the card's look without touching its data
(its color's or symbol's definition, the card layout). Setups are matched by id: their print
counts and each player count's deck are compared card by card, from the engine's reports of
both versions. The rules text and the game's own settings are compared too."""
from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cardgen.check.results import CardChange, CountChange, GameDiff, GameReport, SetupReport
from cardgen.inputs import images, symbols
from cardgen.inputs.files import UnreadableInput, input_digest
from cardgen.model.fields import CardField
from cardgen.model.game import Card, Game
from cardgen.model.words import gettext, marked

# a card's own data, compared field by field (the name of each as the diff says it; the rulebook's
# changes say it in the game's language)
CARD_FIELDS = {"name": marked("name"), "color": marked("color"), "kinds": marked("kind"), "tags": marked("tags"),
               "number": marked("number"), "star": marked("star"), "symbol": marked("symbol"),
               "flavor": marked("flavor"), "text": marked("text"), "details": marked("details"),
               "back": marked("back"), "printed": marked("print")}
ART, LAYOUT = marked("art"), marked("appearance (the card layout)")
SETTINGS = ("title", "version", "author", "card_size", "number_name", "default_setup")


def diff_games(old: GameReport, new: GameReport) -> GameDiff:
    """Everything that changed from the old version to the new."""
    layout = _layout_changed(old.game, new.game)
    old_ids, new_ids = {s.setup.id for s in old.setups}, {s.setup.id for s in new.setups}
    return GameDiff(
        old.game.version, new.game.version,
        tuple(_card_changes(old.game, new.game, layout)),
        tuple(_count_changes(old, new)),
        tuple(s.setup.name for s in new.setups if s.setup.id not in old_ids),
        tuple(s.setup.name for s in old.setups if s.setup.id not in new_ids),
        tuple(_setting_changes(old.game, new.game)),
        _rules_change(old.game.rules_markdown, new.game.rules_markdown),
        layout)


# --------------------------------------------------------------------------- cards


def _card_changes(old: Game, new: Game, layout: bool) -> list[CardChange]:
    before = {card.id: card for card in old.cards}
    after = {card.id: card for card in new.cards}
    looks = _look_changes(old, new)
    changes = []
    for card in new.cards:
        if card.id not in before:
            changes.append(CardChange(card.id, card.name, "added"))
            continue
        fields = _changed_fields(before[card.id], card, old, new, looks, layout)
        if fields:
            renamed = before[card.id].name if before[card.id].name != card.name else ""
            changes.append(CardChange(card.id, card.name, "changed", tuple(fields), renamed))
    changes += [CardChange(card.id, card.name, "removed") for card in old.cards if card.id not in after]
    return changes


def _changed_fields(was: Card, card: Card, old: Game, new: Game, looks: dict[str, str], layout: bool) -> list[str]:
    fields = [label for name, label in CARD_FIELDS.items() if getattr(was, name) != getattr(card, name)]
    fields += [f.name for f in _own_fields(old, new) if was.value(f.id) != card.value(f.id)]
    if _file_digest(was.art_file) != _file_digest(card.art_file):
        fields.append(ART)
    look = looks.get(f"color:{card.color}") if card.color == was.color else None
    symbol = looks.get(f"symbol:{new.symbol_of(card)}") if new.symbol_of(card) == old.symbol_of(was) else None
    fields += [what for what in (look, symbol) if what]
    if layout and card.printed and not fields:
        fields.append(LAYOUT)
    return fields


def _own_fields(old: Game, new: Game) -> list[CardField]:
    """The game's own card fields of either version (one dropped or added changes the cards that had it)."""
    return list({f.id: f for f in (*old.fields, *new.fields)}.values())


def _look_changes(old: Game, new: Game) -> dict[str, str]:
    """What changes how a card looks outside its own data: its color's definition, its symbol's
    drawing. Keys 'color:<id>' and 'symbol:<name>'."""
    looks = {}
    before = {c.id: c for c in old.colors}
    for color in new.colors:
        was = before.get(color.id)
        if was is not None and dataclasses.replace(was, name=color.name, meaning=color.meaning) != color:
            looks[f"color:{color.id}"] = f"appearance (color {color.name})"
    for name in {c.symbol for c in new.colors} | {c.symbol for c in new.cards if c.symbol}:
        if _file_digest(symbols.symbol_path(old, name)) != _file_digest(symbols.symbol_path(new, name)):
            looks[f"symbol:{name}"] = f"symbol {name}"
    return looks


def _layout_changed(old: Game, new: Game) -> bool:
    """The card layout's settings or its fonts' files differ."""
    def settings(game: Game) -> Any:
        return dataclasses.replace(game.design, fonts={}, places={})

    def fonts(game: Game) -> dict[str, str | None]:
        return {role: _file_digest(path) for role, path in game.design.fonts.items()}

    return settings(old) != settings(new) or fonts(old) != fonts(new)


def _file_digest(path: Path | None) -> str | None:
    """The SHA-256 of a file the cards draw (art, a symbol, a font), read through the one guarded
    reader; None for none they could draw."""
    if path is None:
        return None
    try:
        return input_digest(path, images.MAX_BYTES)  # the largest of the three
    except UnreadableInput:
        return None


# --------------------------------------------------------------------------- setups


def _count_changes(old: GameReport, new: GameReport) -> list[CountChange]:
    before = {s.setup.id: s for s in old.setups}
    changes: list[CountChange] = []
    for report in new.setups:
        was = before.get(report.setup.id)
        if was is None:
            continue
        changes += _counts(report, None, was.print_counts, report.print_counts, old.game, new.game)
        decks = {p.players: p for p in was.players}
        for played in report.players:
            if played.players in decks:
                changes += _counts(report, played.players, decks[played.players].print_counts, played.print_counts,
                                   old.game, new.game)
    return changes


def _counts(report: SetupReport, players: int | None, old: dict[str, int], new: dict[str, int], old_game: Game,
            new_game: Game) -> Iterable[CountChange]:
    names = {c.id: c.name for c in old_game.cards} | {c.id: c.name for c in new_game.cards}
    for card_id in [c.id for c in new_game.cards] + [c.id for c in old_game.cards if c.id not in new]:
        if old.get(card_id, 0) != new.get(card_id, 0):
            yield CountChange(report.setup.name, players, card_id, names[card_id], old.get(card_id, 0),
                              new.get(card_id, 0))


# --------------------------------------------------------------------------- the game


def _setting_changes(old: Game, new: Game) -> list[str]:
    out = [f"{name.replace('_', ' ')}: {getattr(old, name)!s} → {getattr(new, name)!s}"
           for name in SETTINGS if getattr(old, name) != getattr(new, name)]
    out += _named_changes("color", old.colors, new.colors)
    out += _named_changes("kind", old.kinds, new.kinds)
    out += _named_changes("tag", old.tags, new.tags)
    out += _named_changes("component", old.components, new.components)
    out += _named_changes("pile", old.piles, new.piles)
    before = {s.id: s for s in old.setups}
    for setup in new.setups:
        was = before.get(setup.id)
        if was is None:
            continue
        if (was.min_players, was.max_players) != (setup.min_players, setup.max_players):
            out.append(f"setup {setup.name}: players {was.players_label} → {setup.players_label}")
        if _plain(was.hand) != _plain(setup.hand):
            out.append(f"setup {setup.name}: the hand changed")
    return out


def _named_changes(what: str, old: Iterable[Any], new: Iterable[Any]) -> list[str]:
    before = {item.id: item for item in old}
    after = {item.id: item for item in new}
    out = [f"{what} {item.id} added" for key, item in after.items() if key not in before]
    out += [f"{what} {item.id} removed" for key, item in before.items() if key not in after]
    out += [f"{what} {item.id} changed" for key, item in after.items()
            if key in before and _plain(before[key]) != _plain(item)]
    return out


def _plain(item: Any) -> Any:
    """An item's data without where it was typed."""
    values = dataclasses.asdict(item)
    for key in ("where", "places"):
        values.pop(key, None)
    return values


def _rules_change(old: str, new: str) -> tuple[int, int]:
    removed = added = 0
    for line in difflib.unified_diff(old.splitlines(), new.splitlines(), n=0, lineterm=""):
        if not line.startswith(("---", "+++", "@@")):
            removed += line.startswith("-")
            added += line.startswith("+")
    return removed, added


# --------------------------------------------------------------------------- the reprint


def reprint_counts(diff: GameDiff, old: GameReport, new: GameReport, setup_id: str) -> list[tuple[str, int]]:
    """(card id, copies) to print to turn the old print of the setup into the new: every copy of
    a changed or added card, and the copies a count increase adds."""
    before, after = _printed_before_and_after(old, new, setup_id)
    fresh = diff.to_reprint
    counts = [(card_id, n if card_id in fresh else n - before.get(card_id, 0)) for card_id, n in after.items()]
    return [(card_id, n) for card_id, n in counts if n > 0]


def swap_list(diff: GameDiff, old: GameReport, new: GameReport, setup_id: str) -> list[str]:
    """How to turn the old print of a setup into the new one: the cards to take out and put in,
    from the engine's print counts of both versions."""
    before, after = _printed_before_and_after(old, new, setup_id)
    names = {c.id: c.name for c in old.game.cards} | {c.id: c.name for c in new.game.cards}
    status = {c.card_id: c for c in diff.cards}
    lines = []
    for card_id in list(after) + [i for i in before if i not in after]:
        was, now = before.get(card_id, 0), after.get(card_id, 0)
        change = status.get(card_id)
        if change is not None and change.status == "changed" and (was or now):
            took = gettext("take out %(count)s × %(card)s (old), ") % {"count": was, "card": change.old_name
                                                                        or change.name} if was else ""
            lines.append(took + (gettext("put in %(count)s × %(card)s (new)") % {"count": now, "card": change.name}
                                 if now else gettext("put in none")))
        elif was < now:
            lines.append(gettext("add %(count)s × %(card)s") % {"count": now - was, "card": names[card_id]})
        elif was > now:
            lines.append(gettext("remove %(count)s × %(card)s") % {"count": was - now, "card": names[card_id]})
    return lines


def _printed_before_and_after(old: GameReport, new: GameReport, setup_id: str) -> tuple[dict[str, int], dict[str, int]]:
    """The setup's print counts in both versions (none before for a new setup)."""
    before = next((s.print_counts for s in old.setups if s.setup.id == setup_id), {})
    return before, new.setup_by_id(setup_id).print_counts

"""publish/kinds/exports: a deck's cards for a print service or Tabletop Simulator, in
export-<target>-<deck>/, split into parts that the workers share and that are published as one
(layout/exports says how many a target's work makes). Its renderer is in kinds/render_exports.py,
imported by name when exports are rendered."""
from __future__ import annotations

import dataclasses

from cardgen.check.results import GameReport
from cardgen.errors import UsageError
from cardgen.layout.exports import card_pixels, parts_of
from cardgen.model.game import Game
from cardgen.model.targets import Target
from cardgen.publish import cache
from cardgen.publish.kinds.kind import OutputKind
from cardgen.publish.kinds.option_types import ExportPart
from cardgen.publish.plan import BuildOptions, Output, Plan, chosen_setup

_RENDER = "cardgen.publish.kinds.render_exports"


def _key(inputs: cache.Snapshot, game: Game, report: GameReport, output: Output[ExportPart]) -> str:
    """Its part of the target's files, from every card (the parts share one folder)."""
    return cache.sheet_key(inputs, game, output, game.cards)


def _folder(output: Output[ExportPart]) -> tuple[str, str]:
    return output.options.target.id, output.options.deck


def planned(game: Game, report: GameReport, wanted: BuildOptions) -> Plan:
    """The exports game.yaml names or the command asks for: of the default setup, or of every
    card type when the game has no setups."""
    return Plan(tuple(output for target in dict.fromkeys((*game.exports, *wanted.exports))
                      for output in _export_outputs(game, report, _target(game, target, None), None,
                                                    all_types=not game.setups)))


def plan_export(game: Game, report: GameReport, target: str, setup: str | None = None,
                all_types: bool = False, dpi: int | None = None) -> Plan:
    """`cardgen export`: a deck's cards for a print service or Tabletop Simulator: the named
    setup's print counts (the default setup unless named), or one card of every type."""
    return Plan(tuple(_export_outputs(game, report, _target(game, target, dpi), setup, all_types)))


def _export_outputs(game: Game, report: GameReport, target: Target, setup: str | None,
                    all_types: bool) -> list[Output[ExportPart]]:
    if all_types:
        name, counts = "all-types", {c.id: 1 for c in game.cards}
    else:
        if not game.setups:
            raise UsageError(f"{game.title} has no setups yet", hint="use --all-types to export every card type")
        chosen = chosen_setup(game, setup)
        name = chosen.id  # the same folder name in every language
        counts = {card_id: n for card_id, n in report.setup(chosen.name).print_counts.items() if n}
    outputs = []
    for deck in game.sheet_decks:  # each deck at its own size, in a folder of its own (export-<target>-<setup>-<deck>)
        in_deck = {card_id: n for card_id, n in counts.items() if deck is None or game.card(card_id).deck == deck}
        if in_deck or deck is None:
            outputs += _export_parts(game, target, f"{name}-{deck}" if deck else name, in_deck, deck)
    return outputs


def _export_parts(game: Game, target: Target, deck: str, counts: dict[str, int],
                  card_deck: str | None) -> list[Output[ExportPart]]:
    card_pixels(target, game.deck(card_deck))  # a size the target has no product for fails here, not in a worker
    parts = parts_of(game, target, counts)
    frozen = tuple(sorted(counts.items()))
    return [Output(EXPORT.name, f"the {target.id} export of {deck}" + (f" (part {i + 1} of {parts})" if parts > 1 else ""),
                   ExportPart(target, deck, frozen, i, parts)) for i in range(parts)]


def _target(game: Game, name: str, dpi: int | None) -> Target:
    target = game.export_targets.get(name)
    if target is None:
        raise UsageError(f"no export target '{name}'",
                         hint=f"targets are: {', '.join(game.export_targets)} (or add one in the game's "
                              "export-targets.yaml)")
    if dpi is not None:
        if target.sizes:
            raise UsageError(f"{target.name} ({name}) wants fixed pixel sizes: --dpi is for the png target only")
        target = dataclasses.replace(target, dpi=dpi)
    return target


EXPORT = OutputKind(
    "export", ("export-*/*",), _key, f"{_RENDER}:export_part",
    "the number of cards, the target's pixel sizes, or the art, symbols and fonts the cards are drawn with",
    options_type=ExportPart, build=planned, together=_folder, cost=2)

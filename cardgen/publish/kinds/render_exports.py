"""publish/kinds/render_exports: the exports' renderer and planning (kinds/exports.py names them):
render/exports draws the cards and says how many parts a target's work splits into. Imported
only when exports are planned or rendered, and by `cardgen export` for its plan."""
from __future__ import annotations

import dataclasses

from cardgen.check.results import GameReport
from cardgen.errors import UsageError
from cardgen.model.game import Game
from cardgen.model.targets import Target
from cardgen.publish.kinds.exports import EXPORT
from cardgen.publish.kinds.kind import Rendering
from cardgen.publish.plan import BuildOptions, ExportPart, Output, Plan, chosen_setup
from cardgen.render import exports


def export_part(output: Output, game: Game, report: GameReport, to: Rendering) -> None:
    job = output.part
    exports.export(game, job.target, job.deck, dict(job.counts), to.folder, to.published, job.part, job.parts)


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
                    all_types: bool) -> list[Output]:
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
                  card_deck: str | None) -> list[Output]:
    exports.card_pixels(target, game.deck(card_deck))  # a size the target has no product for fails here, not in a worker
    parts = exports.parts_of(game, target, counts)
    frozen = tuple(sorted(counts.items()))
    return [Output(EXPORT.name, f"the {target.id} export of {deck}" + (f" (part {i + 1} of {parts})" if parts > 1 else ""),
                   export=ExportPart(target, deck, frozen, i, parts)) for i in range(parts)]


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

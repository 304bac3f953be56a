"""publish/kinds: every output kind, in one registry. A kind (kinds/kind.py `OutputKind`) declares its
name, files, cache key, renderer, likely cause of failure, the type of its options, whether it shows
the simulated figures, whether `cardgen serve` previews it, and its outputs in `cardgen build`.
The build reads only these declarations: adding a kind is a module of this package and its
entry in KINDS below (docs/architecture.md, "A new output"). The registry is light: the shipped
kinds name their renderers as data, imported when an output of theirs is rendered.

KINDS' order is `cardgen build`'s: the outputs of each kind in turn."""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from cardgen.check.results import GameReport
from cardgen.model.game import Game
from cardgen.model.sizes import DEFAULT_PAPER
from cardgen.publish import cache
from cardgen.publish.kinds import documents, exports, sheets
from cardgen.publish.kinds.kind import OutputKind, Rendering, every_input
from cardgen.publish.plan import BuildOptions, Output, Plan

__all__ = ["KINDS", "OutputKind", "Rendering", "every_input", "kind_of", "output_key", "plan_all", "to_render"]

KINDS: dict[str, OutputKind] = {kind.name: kind for kind in (
    documents.RULEBOOK,
    documents.RULEBOOK_HTML,
    documents.RULEBOOK_BOOKLET,
    documents.CHECKLISTS,
    sheets.ALL_TYPES,
    documents.CHEATSHEET,
    sheets.SETUP_SHEETS,
    sheets.DECK_ONCE,
    sheets.CALIBRATION,
    exports.EXPORT,
)}


def kind_of(output: Output[Any]) -> OutputKind:
    """The registered kind of an output."""
    try:
        return KINDS[output.kind]
    except KeyError:
        raise KeyError(f"{output.label}: no output kind '{output.kind}' (kinds: {', '.join(KINDS)})") from None


def plan_all(game: Game, report: GameReport, paper: str = DEFAULT_PAPER, exports: Sequence[str] = (),
             booklet: bool = False) -> Plan:
    """`cardgen build`: each kind's outputs for the game, in KINDS' order (the rulebook, the
    checklists, the cheat sheet when the game has one, the card sheets of every setup, and the
    exports game.yaml names or `exports` asks for), with what the game does not have."""
    wanted = BuildOptions(paper, tuple(exports), booklet)
    planners = [kind.planner() for kind in KINDS.values()]
    plans = [planner(game, report, wanted) for planner in planners if planner is not None]
    return Plan(tuple(output for plan in plans for output in plan.outputs),
                tuple(reason for plan in plans for reason in plan.skipped),
                tuple(note for plan in plans for note in plan.notes))


def output_key(inputs: cache.Snapshot, game: Game, report: GameReport, output: Output[Any]) -> str:
    """An output's cache key, as its kind declares it. An output whose options are not of its
    kind's type is a plan's mistake."""
    kind = kind_of(output)
    mistake = kind.misplanned(output)
    if mistake:
        raise ValueError(f"{output.label}: {mistake}")
    return kind.key(inputs, game, report, output)


def to_render(outputs: Sequence[Output[Any]], keys: dict[Output[Any], str],
              known: dict[str, Any]) -> list[Output[Any]]:
    """The outputs whose key is not among those published (`known`), and the outputs published
    together with one of them (their kind's `together`)."""
    changed = {output for output in outputs if keys[output] not in known}
    groups = {_group(output) for output in changed} - {None}
    return [output for output in outputs if output in changed or _group(output) in groups]


def _group(output: Output[Any]) -> tuple[str, Hashable] | None:
    together = kind_of(output).together
    return None if together is None else (output.kind, together(output))

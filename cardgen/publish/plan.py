"""publish/plan: what a command makes, as values. A Plan is its outputs, each an Output: the name
of its kind (publish/kinds/ holds every kind, each kind's plan functions and the type of its
options), a label for messages, and its options; planned before anything is drawn (options out
of range are usage errors)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from cardgen.errors import UsageError
from cardgen.model.game import Game, Setup
from cardgen.model.sizes import DEFAULT_PAPER

O = TypeVar("O")


@dataclass(frozen=True)
class Output(Generic[O]):
    """One output to render: `kind` is the name of its kind (publish/kinds/: its renderer, cache key,
    files and the type of its options), `label` names it in messages, `options` are the kind's
    own (a frozen value of the type its kind declares: the paper, a setup, a planned sheet...)."""

    kind: str
    label: str
    options: O


@dataclass(frozen=True)
class PaperOptions:
    """The options of an output that reads only the paper it is printed on."""

    paper: str = DEFAULT_PAPER


@dataclass(frozen=True)
class Plan:
    outputs: tuple[Output[Any], ...]
    skipped: tuple[str, ...] = ()  # outputs this game does not have, each with the reason
    notes: tuple[str, ...] = ()  # what the user should know about the outputs (fewer cards a sheet)


@dataclass(frozen=True)
class BuildOptions:
    """What `cardgen build` was asked for beyond the game: each kind plans its outputs from it."""

    paper: str = DEFAULT_PAPER
    exports: tuple[str, ...] = ()  # export targets besides those game.yaml names
    booklet: bool = False


def chosen_setup(game: Game, name: str | None) -> Setup:
    """The setup named (by a command's --setup), else the game's default setup, else its first;
    the game has setups (each command says otherwise what it does without)."""
    return named_setup(game, name or game.default_setup or game.setups[0].name)


def named_setup(game: Game, name: str) -> Setup:
    """The setup of that name; a usage error naming the game's setups if it has none of it."""
    try:
        return game.setup(name)
    except KeyError:
        raise UsageError(f"no setup '{name}' in {game.id} (setups: "
                         f"{', '.join(s.name for s in game.setups) or 'none'})") from None

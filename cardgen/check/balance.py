"""check/balance: balance figures of a setup at one player count, computed from the draw pile the engine
plays out (not simulated). Which kinds lose the game when drawn and which save a player from
them is game data (`role:` on kinds).

With N cards in a shuffled draw pile, L of them losing:
- the chance that the first draw is a losing card is L / N;
- the expected number of safe draws before the first losing card is (N - L) / (L + 1)
  (each of the N - L other cards lies before all L losing cards with chance 1 / (L + 1)).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardgen.model.game import Game

LOSING, SAVING = "losing", "saving"


@dataclass(frozen=True)
class Balance:
    draw_pile: float
    losing: float  # losing cards in the draw pile
    first_draw_loses: float  # chance, 0..1
    draws_before_losing: float  # expected safe draws before the first losing card
    saving_in_hand: float  # saving cards each player starts with
    saving_in_draw_pile: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "losing_in_draw_pile": round(self.losing, 2),
            "first_draw_loses": round(self.first_draw_loses, 4),
            "draws_before_losing": round(self.draws_before_losing, 2),
            "saving_per_player": round(self.saving_in_hand, 2),
            "saving_in_draw_pile": round(self.saving_in_draw_pile, 2),
        }


def role_kinds(game: Game, role: str) -> set[str]:
    return {k.id for k in game.kinds if k.role == role}


def _with_role(game: Game, pile: Mapping[str, float], role: str) -> float:
    kinds = role_kinds(game, role)
    return sum(n for card_id, n in pile.items() if kinds & set(game.card(card_id).kinds))


def balance_of(game: Game, draw_pile: Mapping[str, float], hands: Mapping[str, float],
               players: int) -> Balance | None:
    """The figures for one player count (card id -> expected count per pile); None when the game
    names no losing kind or the draw pile is empty."""
    size = sum(draw_pile.values())
    if not role_kinds(game, LOSING) or size <= 0:
        return None
    losing = _with_role(game, draw_pile, LOSING)
    return Balance(
        draw_pile=size,
        losing=losing,
        first_draw_loses=losing / size,
        draws_before_losing=(size - losing) / (losing + 1),
        saving_in_hand=_with_role(game, hands, SAVING) / players,
        saving_in_draw_pile=_with_role(game, draw_pile, SAVING),
    )

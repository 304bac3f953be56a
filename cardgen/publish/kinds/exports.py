"""publish/kinds/exports: a deck's cards for a print service or Tabletop Simulator, in
export-<target>-<deck>/, split into parts that the workers share and that are published as one.
Its renderer and its planning (which asks render/exports how many parts a target's work makes)
are in kinds/render_exports.py, imported by name when exports are planned or rendered."""
from __future__ import annotations

from cardgen.check.results import GameReport
from cardgen.model.game import Game
from cardgen.publish import cache
from cardgen.publish.kinds.kind import OutputKind
from cardgen.publish.plan import Output

_RENDER = "cardgen.publish.kinds.render_exports"


def _key(inputs: cache.Snapshot, game: Game, report: GameReport, output: Output) -> str:
    """Its part of the target's files, from every card (the parts share one folder)."""
    return cache.sheet_key(inputs, game, output, game.cards)


def _folder(output: Output) -> tuple[str, str]:
    return output.part.target.id, output.part.deck


EXPORT = OutputKind(
    "export", ("export-*/*",), _key, f"{_RENDER}:export_part",
    "the number of cards, the target's pixel sizes, or the art, symbols and fonts the cards are drawn with",
    options=("export",), build=f"{_RENDER}:planned", together=_folder, cost=2)

"""Writes a synthetic game of any size for the benches: N different cards (all printed once),
up to P players, in the shape of the tests' tiny game (hazards, shields, a hand, a box step and
a check per player count). Every face differs, so nothing can be drawn once and reused."""
from __future__ import annotations

from pathlib import Path

GAME_YAML = """\
title: Big Bench
version: "1"
author: cardgen bench
card_size: poker
colors:
  - {{id: red, name: Red, meaning: Hazards, hex: "#c0392b", symbol: bomb}}
  - {{id: blue, name: Blue, meaning: Tools, hex: "#2e86c1", symbol: gear}}
  - {{id: green, name: Green, meaning: Shields, hex: "#3f9e5a", symbol: defuse}}
tags:
  - {{id: now, name: "NOW!", meaning: Any time.}}
kinds:
  - {{id: hazard, name: Hazard, role: losing}}
  - {{id: shield, name: Shield, role: saving}}
setup:
  steps:
    - move: {{from: deck, to: hazards, select: {{kind: hazard}}}}
      text: Take out the hazards.
    - deal: {{from: deck, select: {{kind: shield}}, count: 1}}
      text: Give each player a shield.
    - deal: {{from: deck, count: hand}}
      text: Deal the hands.
    - move: {{from: deck, to: box, count: "max(0, 10 - players)", random: true}}
      text: Put a few cards back in the box.
    - move: {{from: hazards, to: deck, count: players - 1}}
      text: Shuffle one hazard fewer than players into the deck.
checks:
  - id: enough-hazards
    level: error
    on: draw_pile
    select: {{kind: hazard}}
    at_least: players - 1
    message: Someone must be able to lose.
"""

SETUPS_YAML = """\
setups:
  - name: Big
    blurb: Every card once.
    players: {{min: 2, max: {players}}}
    hand: {{deal: 3}}
    cards:
"""

RULES = "# Big Bench\n\nDraw a card each turn. A **Hazard** loses the game unless you play a **Shield**.\n"


def card_yaml(i: int) -> str:
    """One card line: every tenth a hazard, every tenth (offset) a shield, the rest tools."""
    if i % 10 == 0:
        return f'  - {{name: "Hazard {i}", color: red, kind: hazard, flavor: "Oops {i}.", text: "You are out."}}\n'
    if i % 10 == 5:
        return (f'  - {{name: "Shield {i}", color: green, kind: shield, flavor: "Not today.", '
                f'text: "Stops a **Hazard** ({i % 7} times)."}}\n')
    tags = ", tags: [now]" if i % 3 == 0 else ""
    return (f'  - {{name: "Tool {i}", color: blue, number: {i % 9 + 1}{tags}, flavor: "Hm {i}?", '
            f'text: "Look at the top ({i % 9 + 1}) cards, then put them back in any order. Card {i}."}}\n')


def write_big_game(folder: Path, cards: int, players: int = 8) -> Path:
    """A game folder at `folder` with `cards` different cards, each printed once."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cards.yaml").write_text("cards:\n" + "".join(card_yaml(i) for i in range(cards)), encoding="utf-8")
    table = "".join(f'      "{card_yaml(i).split(chr(34))[1]}": 1\n' for i in range(cards))
    (folder / "game.yaml").write_text(GAME_YAML.format(), encoding="utf-8")
    (folder / "setups.yaml").write_text(SETUPS_YAML.format(players=players) + table, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    return folder

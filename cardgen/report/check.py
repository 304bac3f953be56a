"""report/check: the engine's report for people (text) and for tools (JSON), and the one rule for
putting text that comes from game data on a terminal."""
from __future__ import annotations

import json
from collections.abc import Sequence

from cardgen.check.balance import Balance
from cardgen.check.engine import known_table
from cardgen.check.results import Checked, GameReport, figure
from cardgen.check.tables import component_rows, pile_rows
from cardgen.model.game import ERROR, INFO, WARNING, Finding, Game
from cardgen.model.texts import counted, players_label


def game_listing(name: str, game: Game | None) -> str:
    """`cardgen list`: a game and its setups, with the cards each setup's table holds."""
    if game is None:
        return f"{name}: cannot be loaded (run 'cardgen check {name}')"
    languages = f" — in {', '.join(game.languages)}" if len(game.languages) > 1 else ""
    lines = [f"{name}: {game.title} {game.version}".rstrip() + f" — {len(game.cards)} card types{languages}"]
    for setup in game.setups:
        total = sum(known_table(setup).values())
        lines.append(f"    {setup.name:<24} {players_label(setup):>6} players  {total:>4} cards")
    return "\n".join(lines)


def check_as_json(checked: Checked) -> str:
    """`cardgen check --json`: the engine's report, or the findings of a game that does not load."""
    data = checked.report.as_dict() if checked.report else {
        "game": checked.name, "setups": [], "findings": [f.as_dict() for f in checked.load_findings]}
    return json.dumps(data, indent=2, ensure_ascii=False)


def check_as_text(checked: Checked) -> str:
    """`cardgen check`: the engine's report, or the findings of a game that does not load."""
    if checked.report:
        return as_text(checked.report)
    return "\n".join([*(str(f) for f in checked.load_findings), "", summary(checked.load_findings)])


def as_text(report: GameReport) -> str:
    game = report.game
    lines = [f"{game.title} {game.version}".rstrip() + f" — {counted(len(game.cards), 'card type')}, "
             f"{counted(len(game.setups), 'setup')}", ""]
    for finding in report.findings:
        lines.append(f"  {finding}")
    if report.findings:
        lines.append("")
    kinds = [k.id for k in game.kinds] if game.shared_draw_piles else []  # the shared draw piles by kind
    for s in report.setups:
        setup = s.setup
        colors = " · ".join(f"{game.color(c).name.lower()} {n}" for c, n in s.by_color.items())
        unknown = f" (+{len(s.unknown_counts)} unknown)" if s.unknown_counts else ""
        lines.append(f"{setup.name} ({players_label(setup)} players): {s.total} cards{unknown}")
        lines.append(f"  colors: {colors}")
        lines.append("  kinds:  " + ", ".join(f"{k} {n}" for k, n in s.by_kind.items() if n) or "  kinds: none")
        balanced = any(p.balance for p in s.players)
        figures = pile_rows(game, s)
        components = component_rows(s)
        head = (["players"] + [row.label.lower() for row in figures] + kinds + (BALANCE_HEAD if balanced else [])
                + [row.label for row in components])
        rows = []
        for i, p in enumerate(s.players):
            rows.append([str(p.players)] + [_cell(row.values[i], row.blank) for row in figures]
                        + [_fmt(p.draw_by_kind.get(k, 0)) for k in kinds]
                        + (balance_cells(p.balance) if balanced else [])
                        + [_cell(row.values[i], row.blank) for row in components])
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)] if rows else []
        lines.append("  " + "  ".join(h.rjust(w) for h, w in zip(head, widths)))
        for row in rows:
            lines.append("  " + "  ".join(v.rjust(w) for v, w in zip(row, widths)))
        lines.append(f"  print: {s.print_total} cards for {setup.max_players} players")
        for finding in s.all_findings():
            lines.append(f"  {finding}")
        lines.append("")
    lines.append(summary(report.every_finding()))
    return "\n".join(lines)


BALANCE_HEAD = ["1st draw loses", "draws before", "saving each"]


def balance_cells(balance: Balance | None) -> list[str]:
    """The balance figures as the report's columns: chance, expected safe draws, saving cards."""
    if balance is None:
        return ["-"] * len(BALANCE_HEAD)
    return [f"{balance.first_draw_loses:.0%}", f"{balance.draws_before_losing:.1f}",
            f"{_fmt(balance.saving_in_hand)} +{_fmt(balance.saving_in_draw_pile)} in pile"]


def summary(findings: Sequence[Finding]) -> str:
    counts = {level: sum(1 for f in findings if f.level == level) for level in (ERROR, WARNING, INFO)}
    verdict = "FAILED" if counts[ERROR] else "ok"
    return (f"{verdict}: {counted(counts[ERROR], 'error')}, {counted(counts[WARNING], 'warning')}, "
            f"{counted(counts[INFO], 'note')}")


def _fmt(value: float) -> str:
    return str(figure(value))


def _cell(value: float | None, blank: str) -> str:
    return blank if value is None else _fmt(value)

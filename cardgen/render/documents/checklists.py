"""render/documents/checklists: a deck-setup checklist page per setup and player count (the cards
to gather by color, the steps with this player count's numbers), and the hand labels
("6 cards plus 1 Defuse") the rulebook and the cheat sheet share."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardgen.check.results import GameReport, PlayerCount, SetupReport, StepReport
from cardgen.check.tables import pile_rows, seat_name, supply_piles
from cardgen.inputs import symbols
from cardgen.model.game import HANDS, START_PILE, Card, Color, Finding, Game, Kind, Pile, Setup, Step
from cardgen.model.sizes import DEFAULT_PAPER
from cardgen.model.texts import cards, format_count, format_number, kind_count, players_label
from cardgen.model.words import gettext, join, lower_first, ngettext
from cardgen.render.documents.html import render_pdf, symbol_context
from cardgen.render.write import atomic_write


def hand_label(game: Game, setup: Setup, played: PlayerCount, seat: int | None = None) -> str:
    """'1 Defuse and 6 cards' — what each player starts with at a player count: what the steps
    deal into the hands, named by kind where a step deals cards of one kind; with the piles every
    player has besides the hand, all of it ('10 cards: 5 in hand, 5 in their deck'). Where the seats
    start differently, seat by seat ('First player: 3 cards. Second player: 4 cards and 1 Spark'),
    or one seat's."""
    if seat is None and played.seats_differ:
        return ". ".join(f"{seat_name(s.seat)}: {hand_label(game, setup, played, s.seat)}" for s in played.seats)
    in_hand = played.dealt_per_player if seat is None else played.seats[seat - 1].hand
    parts = _dealt_parts(game, played, seat)
    label = join(parts) or cards(played.hand or 0)
    own = _own_piles(game, played, seat)
    if not own:
        return label
    total = in_hand + sum(n for _, n in own)
    held = join(parts) if len(parts) > 1 else format_count(in_hand)  # '4 cards and 1 Spark in hand'
    return ", ".join([gettext("%(cards)s: %(count)s in hand") % {"cards": cards(total), "count": held},
                      *(gettext("%(count)s in their %(pile)s") % {"count": format_count(n),
                                                                  "pile": lower_first(pile.name)} for pile, n in own)])


def _dealt_parts(game: Game, played: PlayerCount, seat: int | None) -> list[str]:
    """What each step dealing into the hands gave each player (or one seat): '1 Defuse', '6 cards',
    '1 Spark', in order; a part of a kind joins the part before it when they read the same."""
    kinds_by_id = {kind.id: kind for kind in game.kinds}
    parts: list[tuple[Kind | Card | None, float]] = []
    for carried_out in played.steps:
        step = carried_out.step
        each = carried_out.moved / played.players if seat is None else carried_out.seats[seat - 1]
        if step.target != HANDS or not each:
            continue
        kinds = [k for k, n in carried_out.kinds.items() if n]
        chosen = step.select is not None or step.extras or step.source != START_PILE  # not a deal from the deck
        named: Kind | Card | None = kinds_by_id.get(kinds[0]) if chosen and len(kinds) == 1 else None
        picked = step.select.get("card") if step.select else None
        if isinstance(picked, (list, tuple)) and len(picked) == 1:
            named = game.card(str(picked[0]))
        if parts and parts[-1][0] == named:
            parts[-1] = (named, parts[-1][1] + each)
        else:
            parts.append((named, each))
    return [kind_count(n, named) if isinstance(named, Kind) else f"{format_count(n)} {named.name}" if named
            else cards(n) for named, n in parts]


def _own_piles(game: Game, played: PlayerCount, seat: int | None) -> list[tuple[Pile, float]]:
    """The piles besides the hand that every player has, with each player's (or one seat's) cards in them."""
    return [(pile, played.piles.get(pile.id, 0.0) / played.players if seat is None
             else played.seats[seat - 1].piles.get(pile.id, 0.0)) for pile in game.piles
            if pile.each_player and pile.id != HANDS and played.piles.get(pile.id)]


def _extras_each(game: Game, played: PlayerCount) -> list[str]:
    """The extra cards each player gets at a player count ('1 Defuse'), from the engine."""
    return [f"{n} {game.card(card_id).name}" for card_id, n in played.extras.items() if n]



@dataclass
class ChecklistPage:
    report: SetupReport
    players: PlayerCount
    groups: list[tuple[Color, list[tuple[Card, int]]]]
    total: int
    steps: list[tuple[str, list[str]]]  # (step text, the numbers for this player count, in parts)
    column: int  # the player count's place among the setup's: its column in the tables of figures


def checklist_pages(game: Game, report: GameReport, setup: str | None = None,
                    players: int | None = None) -> list[ChecklistPage]:
    """One page per setup (or the one named) at the given player count (default: its largest)."""
    reports = [report.setup(setup)] if setup else report.setups
    pages = []
    for setup_report in reports:
        pages.append(_checklist_page(game, setup_report, players or setup_report.setup.max_players))
    return pages


def _checklist_page(game: Game, setup_report: SetupReport, players: int) -> ChecklistPage:
    played = setup_report.player_count(players)
    deck = played.starting_deck
    groups = []
    for color in game.colors:
        rows = [(card, deck[card.id]) for card in game.cards if card.color == color.id and deck.get(card.id)]
        if rows:
            groups.append((color, rows))
    steps = [(step_text(group[0].step), _step_numbers(game, played, group))
             for group in _text_groups(played.steps) if not all(carried_out.does_nothing for carried_out in group)]
    return ChecklistPage(setup_report, played, groups, sum(deck.values()), steps,
                         setup_report.players.index(played))


def step_text(step: Step) -> str:
    """A step as the documents say it: its text, else what a step of its own says by itself (the
    first player, a starting value)."""
    if step.text or step.action != "first_player":
        return step.text
    if step.first_player == "random":
        return gettext("Choose the first player at random.")
    return gettext("First player: %(who)s") % {"who": step.first_player}


def _text_groups(steps: list[StepReport]) -> list[list[StepReport]]:
    """The steps as the checklist shows them: each step with a text, with the steps after it that
    have none (its text says them too: "Give each player 7 Coins and 3 Fields")."""
    groups: list[list[StepReport]] = []
    for carried_out in steps:
        if step_text(carried_out.step):
            groups.append([carried_out])
        elif groups:
            groups[-1].append(carried_out)
    return groups


def _step_numbers(game: Game, played: PlayerCount, group: list[StepReport]) -> list[str]:
    """A step's numbers as the engine carried it out for this player count, in the parts a line may
    break between (none: []): the sum of its group when all of it moves cards the same way to the same pile."""
    first = group[0]
    step = first.step
    if first.values:
        components = {c.id: c for c in game.components}
        return [join([gettext("%(things)s: %(value)s each") % {"things": components[ident].plural, "value": value}
                      for ident, value in first.values.items()])]
    if step.extras:
        return [gettext("%(cards)s to each player") % {"cards": join(_extras_each(game, played))}]
    if step.moves_cards and (step.seat is not None or len(set(first.seats)) > 1):
        return [gettext("%(cards)s to the %(seat)s") % {"cards": cards(n), "seat": lower_first(seat_name(i + 1))}
                for i, n in enumerate(first.seats) if n]
    alike = [s for s in group if (s.step.action, s.step.target, s.step.per_player) ==
             (step.action, step.target, step.per_player) and not s.step.extras]
    if len(group) == 1 or len(alike) < len(group) or not step.moves_cards:
        if first.count is None:
            return []
        count: float = first.count
    else:
        count = sum(s.moved for s in alike) / (played.players if step.per_player else 1)
    if count == 0:
        return [ngettext("none with %(num)s player", "none with %(num)s players", played.players) % {"num": played.players}]
    amount = gettext("up to %(cards)s") % {"cards": cards(count)} if step.up_to else cards(count)
    amount = gettext("%(cards)s to each player") % {"cards": amount} if step.per_player else amount
    return [gettext("%(cards)s, picked at random") % {"cards": amount} if step.random else amount]


def checklists_context(game: Game, report: GameReport, setup: str | None = None,
                       players: int | None = None) -> dict[str, Any]:
    return {
        "pages": checklist_pages(game, report, setup, players),
        **symbol_context(game),
        "checkbox_mark": symbols.code_points(game)["checkbox"],
        "kinds": {k.id: k for k in game.kinds},
        "number": format_number,
        "count": format_count,
        "pile_rows": lambda setup_report: pile_rows(game, setup_report),
        "supply_piles": lambda setup_report: supply_piles(game, setup_report),
        "hand_label": lambda setup, played, seat=None: hand_label(game, setup, played, seat),
        "players_label": players_label,
        "note": lambda finding: _note(game, finding),
    }


def _note(game: Game, finding: Finding) -> str:
    """A finding as a checklist notes it: the engine's words in the source language; in another, the
    game's own check message, translated (the engine's figures are in English)."""
    if not game.is_translation:
        return finding.message
    return next((check.message for check in game.checks if check.id == finding.code), finding.message)


def write_checklists(game: Game, report: GameReport, out_dir: Path, paper: str = DEFAULT_PAPER,
                     setup: str | None = None, players: int | None = None) -> Path:
    pdf = render_pdf(game, "checklists.html", checklists_context(game, report, setup, players), paper)
    return atomic_write(Path(out_dir) / "checklists.pdf", pdf)

"""check/engine: the rules engine. Plays out the game's setup procedure (data) for every setup and
player count, and checks the game's own rules (data) against the result.

Its report holds every figure the documents show, per setup and player count: the copies of the
table, the starting deck, each step carried out with its count and the cards it moved, the hand
size, the piles and the cards to print (keyed by card id). Renderers read these figures and never
evaluate an expression or replay a step themselves.

Piles hold expected card counts: a step that picks cards at random (dealing from a shuffled
deck, setting cards aside) takes from each card type in proportion, so the draw pile's
composition is what a player can expect on average, and exact wherever no chance is involved.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace

from cardgen.check.balance import balance_of
from cardgen.check.piles import Groups, Piles, SeatValue, split_values
from cardgen.check.results import (
    EPSILON,
    ComponentCount,
    PlayerCount,
    SeatReport,
    SetupReport,
    StepReport,
    figure,
    settle,
    settle_all,
)
from cardgen.model import expressions
from cardgen.model.game import (
    ASIDE,
    BOX,
    COMPONENT_COUNTS,
    DRAW,
    ERROR,
    HAND,
    HANDS,
    INFO,
    SUPPLY,
    WARNING,
    Check,
    CountSpec,
    Finding,
    Game,
    Pile,
    Selector,
    Setup,
    Step,
    matches,
)
from cardgen.model.texts import counted, format_count
from cardgen.model.where import Where

Variables = Mapping[str, int]  # the expressions' variables at a player count: players (and hand)
EXPRESSION_HINT = "a count may use players, and hand where the setup gives hand: deal"
MAX_PRINT_CARDS = 5000  # cards one setup may print (about 560 sheets): more is a typo, not a game
MAX_TOTAL_PRINT_CARDS = 20_000  # cards all the setups of a game may print: `cardgen build` draws them all


# --------------------------------------------------------------------------- the engine


def play_out(game: Game) -> tuple[list[SetupReport], list[Finding]]:
    """Every setup played out at each of its player counts, and the findings about the setups
    together (what all of them print, cards no setup uses)."""
    picks: dict[tuple[str, str], bool] = {}  # which cards each selector picks: the same in every setup
    reports = [check_setup(game, setup, picks) for setup in game.setups]
    return reports, _total_to_print(reports) + _unused_cards(game)


def _total_to_print(reports: list[SetupReport]) -> list[Finding]:
    """One finding, at the setup that passes the limit, when all the setups print too many cards
    (and no setup is over its own limit, which says it better)."""
    if any(f.code == "too-many-to-print" for report in reports for f in report.findings):
        return []
    total = 0
    for report in reports:
        total += report.print_total
        if total > MAX_TOTAL_PRINT_CARDS:
            every = sum(r.print_total for r in reports)
            return [Finding(ERROR, "too-many-to-print", f"the setups print {every} cards in all; the limit is "
                            f"{MAX_TOTAL_PRINT_CARDS} (this setup passes it)", report.setup.where,
                            "check the counts and 'copies' of the setups, or split the game")]
    return []


def check_setup(game: Game, setup: Setup, picks: dict[tuple[str, str], bool] | None = None) -> SetupReport:
    cards = game.cards_by_id
    table = known_table(setup)
    unknown = [cards[line.card].name for line in setup.lines if line.count is None]
    findings = [Finding(WARNING, "unknown-count",
                        f"{setup.name}: the count of '{cards[line.card].name}' is unknown in the source; "
                        "totals leave it out", line.where, "fill in the count when it is known")
                for line in setup.lines if line.count is None]
    total = sum(table.values())
    if total == 0 and not unknown:
        findings.append(Finding(ERROR, "empty-setup", f"{setup.name}: the setup has no cards", setup.where))
    findings += _table_checks(game, setup, table)
    groups = Groups(game, setup, picks)
    player_reports = [_play_out(game, setup, table, players, groups) for players in setup.player_counts]
    print_counts = _print_counts(game, player_reports)
    if total and not any(print_counts.values()) or unknown and not total:
        findings.append(Finding(
            ERROR, "nothing-to-print", f"{setup.name}: no card of the setup has a known count and is printed",
            setup.where, "fill in the counts, or print the cards (print: false leaves a card off the sheets)"))
    if sum(print_counts.values()) > MAX_PRINT_CARDS:
        findings.append(Finding(
            ERROR, "too-many-to-print", f"{setup.name}: {sum(print_counts.values())} cards to print; "
            f"the limit is {MAX_PRINT_CARDS}", setup.where, "check the counts and 'copies' of this setup"))
    findings = waived(setup, findings)
    found = {f.code for f in findings} | {f.code for played in player_reports for f in played.findings}
    findings += [Finding(WARNING, "unused-waiver", f"{setup.name}: the waiver of '{w.check}' waives nothing: "
                         "no player count of the setup has that finding", w.where,
                         "remove the waiver (the setup meets the check now)") for w in setup.waivers
                 if w.check not in found]
    return SetupReport(
        setup=setup, total=total,
        by_color=_by_color(game, table), by_kind=_by_kind(game, table),
        print_counts=print_counts,
        unknown_counts=unknown, players=player_reports, findings=findings,
    )


def known_table(setup: Setup) -> Counter[str]:
    """The setup's table as card id -> count, leaving out counts unknown in the source."""
    table: Counter[str] = Counter()
    for line in setup.lines:
        if line.count is not None:
            table[line.card] += line.count
    return table


def _by_color(game: Game, pile: Mapping[str, float]) -> dict[str, float]:
    out: dict[str, float] = {c.id: 0 for c in game.colors}
    for card_id, n in pile.items():
        out[game.card(card_id).color] += n
    return {k: v for k, v in out.items() if v}


def _by_kind(game: Game, pile: Mapping[str, float]) -> dict[str, float]:
    out: dict[str, float] = {k.id: 0 for k in game.kinds}
    for card_id, n in pile.items():
        for kind in game.card(card_id).kinds:
            out[kind] += n
    return out


def _variables(setup: Setup, players: int) -> tuple[dict[str, int], list[Finding]]:
    """The expressions' variables at a player count; without `hand` when the hand size has no value
    there (reported: a player count the hand's table leaves out)."""
    try:
        return expressions.setup_variables(setup, players), []
    except expressions.ExpressionError as exc:
        return {"players": players}, [Finding(
            ERROR, "bad-expression", f"{setup.name}, {players} players: {exc}", setup.hand.where,
            "give the hand size for every player count of the setup")]


def _copies(setup: Setup, variables: Variables) -> tuple[int, list[Finding]]:
    try:
        return expressions.evaluate(setup.copies, variables), []
    except expressions.ExpressionError as exc:
        return 0, [Finding(ERROR, "bad-expression", f"{setup.name}: copies: {exc}", setup.where)]


def _count(spec: CountSpec, variables: Variables, what: str, where: Where | None,
           findings: list[Finding]) -> int | None:
    """A count spec's value at a player count, or None with the finding that says why it has none
    (a player table without this player count, a value below 0)."""
    try:
        value = expressions.evaluate(spec, variables)
    except expressions.ExpressionError as exc:
        findings.append(Finding(ERROR, "bad-expression", f"{what}: {exc}", where,
                                "give a value for every player count of every setup"))
        return None
    if value < 0:
        findings.append(Finding(ERROR, "negative-count", f"{what} is {value}", where, "a count cannot be below 0"))
        return None
    return value


def _component_counts(game: Game, setup: Setup, players: int, variables: Variables
                      ) -> tuple[dict[str, ComponentCount], list[Finding]]:
    """Every component's counts at a player count, with what is wrong with them."""
    out: dict[str, ComponentCount] = {}
    findings: list[Finding] = []
    context = f"{setup.name}, {players} players"
    for component in game.components:
        values = {key: _count(getattr(component, key), variables, f"{context}: component '{component.id}': {key}",
                              component.places.get(key, component.where), findings)
                  for key in COMPONENT_COUNTS if getattr(component, key) is not None}
        counts = ComponentCount(component, values.get("count"), values.get("each"), values.get("to_win"), players)
        if counts.supply is not None and counts.supply < 0 and counts.each is not None:
            findings.append(Finding(
                ERROR, "not-enough-components", f"{context}: each player starts with {counts.each} "
                f"{component.noun(counts.each)}, {counts.each * players} in all, but the game has {counts.total}",
                component.places.get("each", component.where), "raise the count or lower each"))
        out[component.id] = counts
    return out, findings


def _extras(setup: Setup, variables: Variables) -> tuple[dict[str, int], list[Finding]]:
    """Card id -> the extra copies each player gets at a player count (hand: extras)."""
    findings: list[Finding] = []
    context = f"{setup.name}, {variables['players']} players: hand: extras"
    values = {card: _count(spec, variables, f"{context}: {card}", setup.hand.places.get(card, setup.where), findings)
              for card, spec in setup.hand.extras}
    return {card: n for card, n in values.items() if n is not None}, findings


def _initial_deck(game: Game, table: Counter[str], extras: Mapping[str, int], players: int, copies: int) -> dict[str, int]:
    """Card id -> copies laid out: the table (times its copies) plus every player's extras, in the
    game's card order."""
    deck = Counter({card: n * copies for card, n in table.items()})
    for card, per_player in extras.items():
        deck[card] += per_player * players
    return {c.id: deck[c.id] for c in game.cards if deck[c.id] > 0}


def _printed(game: Game, deck: Mapping[str, int]) -> dict[str, int]:
    return {c.id: deck[c.id] for c in game.cards if c.id in deck and c.printed}


def _print_counts(game: Game, reports: list[PlayerCount]) -> dict[str, int]:
    """Copies of each card to print so that every player count of the setup can be played."""
    need: Counter[str] = Counter()
    for report in reports:
        for card, n in report.print_counts.items():
            need[card] = max(need[card], n)
    return {c.id: need[c.id] for c in game.cards if need[c.id]}


def _play_out(game: Game, setup: Setup, table: Counter[str], players: int, groups: Groups) -> PlayerCount:
    variables, findings = _variables(setup, players)
    copies, copy_findings = _copies(setup, variables)
    components, component_findings = _component_counts(game, setup, players, variables)
    extras, extra_findings = _extras(setup, variables)
    findings += copy_findings + component_findings + extra_findings
    deck = _initial_deck(game, table, extras, players, copies)
    piles = Piles(groups, deck, players, (p.id for p in game.piles if p.each_player))
    steps: list[StepReport] = []
    for step in game.steps:
        try:
            if step.when and not expressions.evaluate(step.when, variables):
                continue
            steps.append(_run_step(game, setup, step, piles, players, variables, extras, findings))
        except expressions.ExpressionError as exc:
            findings.append(Finding(ERROR, "bad-expression", f"{setup.name}, {players} players: {exc}", step.where,
                                    EXPRESSION_HINT))
    for carried_out in steps:
        for component_id, value in carried_out.values.items():
            if component_id in components:
                components[component_id] = replace(components[component_id], start=value)
    shared_draw = [p.id for p in game.shared_draw_piles]
    draw = _merged(piles.by_group(name) for name in shared_draw)
    sizes = {pile.id: piles.size(pile.id) for pile in game.piles}
    findings += _empty_draw_piles(game, setup, players, piles)
    findings += _pile_checks(game, setup, players, piles, components, variables)
    if setup_has_unknown_counts(setup):
        findings = [_uncertain(f) for f in findings]
    return PlayerCount(
        players=players,
        copies=copies,
        hand=variables.get("hand"),
        extras=extras,
        starting_deck=deck,
        print_counts=_printed(game, deck),
        steps=steps,
        dealt_per_player=settle(sizes[HANDS] / players),
        draw_pile=settle(sum(draw.values())),
        draw_by_kind=settle_all(_by_kind(game, draw)),
        draw_by_color=settle_all(_by_color(game, draw)),
        piles=settle_all(sizes),
        set_aside=settle(sum(sizes[p.id] for p in game.piles if p.role in (ASIDE, BOX))),
        pile_cards={p.id: piles.cards_in(p.id, deck) for p in game.piles if p.role == SUPPLY},
        findings=waived(setup, findings),
        balance=balance_of(game, draw, piles.by_group("hands"), players),
        components=components,
        pile_kinds={pile.id: _kinds_in(piles, pile.id) for pile in game.piles},
        expected_kinds={pile.id: piles.expected_kinds(pile.id) for pile in game.piles},
        seats=[_seat(game, piles, seat) for seat in range(players)],
        first_player=next((s.step.first_player for s in reversed(steps) if s.step.first_player), ""),
    )


def _kinds_in(piles: Piles, name: str, seat: int | None = None) -> dict[str, float]:
    """A pile's cards by their first kind ('' for a card of no kind): the breakdown sums to the pile."""
    return settle_all(piles.kinds_of({g: n for g, n in piles.pile(name, seat).items() if n > EPSILON}))


def _seat(game: Game, piles: Piles, seat: int) -> SeatReport:
    """One seat after setup (0: the first player): its hand and its own piles."""
    own = [p.id for p in game.piles if p.each_player and p.id != HANDS]
    return SeatReport(seat + 1, settle(piles.size(HANDS, seat)), {name: settle(piles.size(name, seat)) for name in own},
                      {name: _kinds_in(piles, name, seat) for name in [HANDS, *own]},
                      {name: piles.expected_kinds(name, seat) for name in [HANDS, *own]})


def _merged(piles: Iterable[Mapping[str, float]]) -> dict[str, float]:
    out: Counter[str] = Counter()
    for pile in piles:
        out.update(pile)
    return dict(out)


def _empty_draw_piles(game: Game, setup: Setup, players: int, piles: Piles) -> list[Finding]:
    """A pile the players draw from (role: draw) that is empty after setup."""
    return [Finding(ERROR, "empty-draw-pile",
                    f"{setup.name}, {players} players: {pile.name}{' (each player)' if pile.each_player else ''} "
                    "is empty after setup", setup.where,
                    "add cards or lower the number set aside; a pile nobody draws from takes another role in "
                    "game.yaml's piles: (supply, discard, aside, box)")
            for pile in game.piles if pile.role == DRAW and piles.size(pile.id) < EPSILON]


def setup_has_unknown_counts(setup: Setup) -> bool:
    return any(line.count is None for line in setup.lines)


def _uncertain(finding: Finding) -> Finding:
    """With counts missing from the source, a shortage may not be real: say so, as a warning."""
    if finding.level != ERROR or finding.code == "bad-expression":
        return finding
    return Finding(WARNING, finding.code,
                   finding.message + " (the setup has cards of unknown count, so this cannot be confirmed)",
                   finding.where, finding.hint)


def _run_step(game: Game, setup: Setup, step: Step, piles: Piles, players: int, variables: Variables,
              extras: Mapping[str, int], findings: list[Finding]) -> StepReport:
    """Carry out one step."""
    if not step.moves_cards:
        values = {ident: expressions.evaluate(spec, variables) for ident, spec in step.values}
        return StepReport(step, None, 0.0, [0.0] * players, values=values)
    label = step.text or f"{step.action} from {step.source}"
    context = f"{setup.name}, {players} players"
    if step.extras:
        gathered: dict[int, float] = {}
        for card_id, per_player in extras.items():
            copies = per_player * players
            taken, available, expected = piles.take(step.source, {"card": [card_id]}, copies)
            if available + EPSILON < copies:
                findings.append(_short(context, label, copies, available, step, game.card(card_id).name))
            piles.put(step.target, taken, expected_kinds=expected)
            for group, n in taken.items():
                gathered[group] = gathered.get(group, 0.0) + n
        moved = sum(gathered.values())
        return StepReport(step, None, settle(moved), _evenly(piles, step, moved), settle_all(piles.kinds_of(gathered)))
    count = None if step.count is None else expressions.evaluate(step.count, variables)
    if step.per_player and (step.seat is not None or step.by_seat is not None or step.split_by
                            or piles.is_seated(step.source)):
        return _deal_by_seat(game, step, piles, variables, count, findings, context, label)
    wanted = None if count is None else count * (players if step.per_player else 1)
    if wanted is not None and wanted < 0:
        findings.append(Finding(ERROR, "negative-count", f"{context}: '{label}' asks for {wanted} cards", step.where))
        return StepReport(step, count, 0.0, [0.0] * players)
    taken, available, expected = piles.take(step.source, step.select, wanted)
    if wanted is not None and available + EPSILON < wanted and not step.up_to:
        findings.append(_short(context, label, wanted, available, step))
    piles.put(step.target, taken, expected_kinds=expected)
    moved = sum(taken.values())
    return StepReport(step, count, settle(moved), _evenly(piles, step, moved), settle_all(piles.kinds_of(taken)))


def _evenly(piles: Piles, step: Step, moved: float) -> list[float]:
    """What each seat got of cards put on a pile every player has, shared evenly."""
    share = settle(moved / piles.players) if piles.is_seated(step.target) else 0.0
    return [share] * piles.players


def _deal_by_seat(game: Game, step: Step, piles: Piles, variables: Variables, count: int | None,
                  findings: list[Finding], context: str, label: str) -> StepReport:
    """A deal seat by seat, in turn order: to one seat, a count by seat, each seat's own cards of one
    value of a field (split_by), or from each player's own pile."""
    players = piles.players
    received = [0.0] * players
    moved: dict[int, float] = {}
    owners: list[SeatValue | None] = [None] * players
    if step.split_by:
        present = [v for v in split_values(game, step.split_by)
                   if piles.selected(step.source, step.select, value=(step.split_by, v))]
        owners = [(step.split_by, v) for v in present[:players]] + [None] * max(0, players - len(present))
        if len(present) < players:
            findings.append(Finding(ERROR, "not-enough-cards", f"{context}: '{label}' gives each player the cards of "
                                    f"one {step.split_by}, but the {step.source} pile holds "
                                    f"{counted(len(present), step.split_by)} for {players} players", step.where,
                                    f"split_by: takes color, kind, tag, an attribute or a field of the game; add "
                                    f"cards of another {step.split_by} or narrow the setup's player range"))
    for seat in _seats(step, players, variables, findings, context, label):
        if step.split_by and owners[seat] is None:
            continue
        wanted = _seat_count(step, seat, count, variables)
        if wanted is not None and wanted < 0:
            findings.append(Finding(ERROR, "negative-count", f"{context}: '{label}' asks for {wanted} cards",
                                    step.where))
            continue
        taken, available, expected = piles.take(step.source, step.select, wanted,
                                                seat if piles.is_seated(step.source) else None, owners[seat])
        if wanted is not None and available + EPSILON < wanted and not step.up_to:
            findings.append(_short(f"{context}, seat {seat + 1}", label, wanted, available, step))
        piles.put(step.target, taken, seat if piles.is_seated(step.target) else None, expected)
        received[seat] = settle(sum(taken.values()))
        for group, n in taken.items():
            moved[group] = moved.get(group, 0.0) + n
    return StepReport(step, count, settle(sum(moved.values())), received, settle_all(piles.kinds_of(moved)))


def _seats(step: Step, players: int, variables: Variables, findings: list[Finding], context: str,
           label: str) -> list[int]:
    """The seats a deal gives to (0: the first player): every seat, or the one it names."""
    if step.seat is None:
        return list(range(players))
    seat = expressions.evaluate(step.seat, variables)
    if not 1 <= seat <= players:
        findings.append(Finding(ERROR, "no-such-seat", f"{context}: '{label}' deals to seat {seat}, but the seats "
                                f"are 1 to {players}", step.where, "limit the step with when: players >= …"))
        return []
    return [seat - 1]


def _seat_count(step: Step, seat: int, count: int | None, variables: Variables) -> int | None:
    """A seat's count of a deal: by_seat (a table by seat, or an expression of seat), else the count."""
    spec = step.by_seat
    if spec is None:
        return count
    if isinstance(spec, Mapping):
        if seat + 1 not in spec:
            raise expressions.ExpressionError(f"by_seat has no entry for seat {seat + 1}")
        return int(spec[seat + 1])
    return expressions.evaluate(spec, {**variables, "seat": seat + 1})


def _short(context: str, label: str, wanted: float, available: float, step: Step, card_name: str = "") -> Finding:
    what = counted(wanted, f"'{card_name}' card" if card_name else "card")
    return Finding(ERROR, "not-enough-cards",
                   f"{context}: '{label}' needs {what} from the {step.source} pile "
                   f"but {'only ' if available else ''}{format_count(available)} {'is' if format_count(available) == '1' else 'are'} "
                   "there", step.where,
                   "add cards to the setup or narrow its player range")


def _bounds(check: Check, variables: Variables) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for name in ("at_least", "at_most", "equals"):
        spec = getattr(check, name)
        if spec is not None:
            out.append((name, expressions.evaluate(spec, variables)))
    return out


def _failed(actual: float, bound: str, value: int) -> bool:
    if bound == "at_least":
        return actual + EPSILON < value
    if bound == "at_most":
        return actual - EPSILON > value
    return abs(actual - value) > EPSILON


_BOUND_WORDS = {"at_least": "at least", "at_most": "at most", "equals": "exactly"}


def _apply_check(check: Check, setup: Setup, actual: float, variables: Variables, context: str) -> list[Finding]:
    findings: list[Finding] = []
    for bound, value in _bounds(check, variables):
        if not _failed(actual, bound, value):
            continue
        source = f" ({check.source})" if check.source else ""
        findings.append(Finding(
            check.level, check.id,
            f"{context} is {figure(actual)}, expected {_BOUND_WORDS[bound]} {value}. {check.message}{source}",
            setup.where))
    return findings


def waived(setup: Setup, findings: list[Finding]) -> list[Finding]:
    """The findings with those the setup waives (a game check or one of ENGINE_CHECKS, by its
    code) turned into notes that give the setup's reason."""
    reasons = {w.check: w.reason for w in setup.waivers}
    return [Finding(INFO, f.code, f"{f.message} Waived by the setup: {reasons[f.code]}", f.where, f.hint)
            if f.code in reasons and f.level != INFO else f for f in findings]


def _table_checks(game: Game, setup: Setup, table: Counter[str]) -> list[Finding]:
    findings: list[Finding] = []
    variables, _ = _variables(setup, setup.max_players)  # a hand without a value is reported per player count
    for check in game.checks:
        if check.on != ("setup",):
            continue
        actual = sum(n for c, n in table.items() if matches(game.card(c), check.select))
        try:
            findings += _apply_check(check, setup, actual, variables,
                                     f"{setup.name}: {_what(game, check, 'the setup table')}")
        except expressions.ExpressionError as exc:
            findings.append(Finding(ERROR, "bad-expression", f"{check.id}: {exc}", check.where, EXPRESSION_HINT))
    return findings


def _pile_checks(game: Game, setup: Setup, players: int, piles: Piles, components: Mapping[str, ComponentCount],
                 variables: Variables) -> list[Finding]:
    findings: list[Finding] = []
    for check in game.checks:
        if check.on == ("setup",):
            continue
        try:
            if check.when and not expressions.evaluate(check.when, variables):
                continue
            if check.on[0] in components:  # load lets a check name components or piles, not both
                counted = [components[name] for name in check.on]
                if any(c.total is None for c in counted):
                    continue  # its count is reported as wrong already
                actual: float = sum(c.total or 0 for c in counted)
                what = "the number of " + " + ".join(c.component.plural for c in counted)
            else:
                actual = sum(piles.count(pile.id, pile.each_player, check.select)
                             for pile in _checked_piles(game, check.on))
                what = _what(game, check, _places(game, check.on))
            findings += _apply_check(check, setup, actual, variables, f"{setup.name}, {players} players: {what}")
        except expressions.ExpressionError as exc:
            findings.append(Finding(ERROR, "bad-expression", f"{check.id}: {exc}", check.where, EXPRESSION_HINT))
    return findings


def _checked_piles(game: Game, names: tuple[str, ...]) -> list[Pile]:
    """The piles a check's `on:` names: draw_pile, the shared piles players draw from; hand, each
    player's hand (as a pile every player has); hands, all of them together."""
    out: list[Pile] = []
    for name in names:
        if name == "draw_pile":
            out += game.shared_draw_piles
        elif name == "hand":
            out.append(game.pile(HANDS))
        elif name == HANDS:
            out.append(Pile(HANDS, "all hands", HAND))
        else:
            out.append(game.pile(name))
    return out


_PLACE_NAMES = {"draw_pile": "the draw pile", "hand": "each hand", "hands": "all hands"}


def _places(game: Game, names: tuple[str, ...]) -> str:
    return " + ".join(_PLACE_NAMES.get(n) or _pile_place(game.pile(n)) for n in names)


def _pile_place(pile: Pile) -> str:
    return f"each player's {pile.name}" if pile.each_player else pile.name


def _what(game: Game, check: Check, place: str) -> str:
    if not check.select:
        return f"the number of cards in {place}"
    return f"the number of {_describe_selector(game, check.select)} cards in {place}"


def _describe_selector(game: Game, selector: Selector) -> str:
    names = {**{c.id: c.name for c in game.colors}, **{k.id: k.name for k in game.kinds},
             **{t.id: t.name for t in game.tags}}
    parts = []
    for key, value in selector.items():
        if key == "any" and isinstance(value, list):
            parts.append(" or ".join(_describe_selector(game, s) for s in value))
        elif key == "not" and isinstance(value, Mapping):
            parts.append(f"non-{_describe_selector(game, value)}")
        elif key == "attribute" and isinstance(value, Mapping):
            parts.append(", ".join(f"{k} {v}" for k, v in value.items()))
        elif isinstance(value, (list, tuple)):
            parts.append("/".join(names.get(str(v), str(v)) for v in value))
        else:
            parts.append(f"{key} {value}")
    return " ".join(parts)


def _unused_cards(game: Game) -> list[Finding]:
    used = {line.card for s in game.setups for line in s.lines} | {
        card for s in game.setups for card, _ in s.hand.extras}
    unused = [c.name for c in game.cards if c.id not in used]
    if not unused or not game.setups:
        return []
    return [Finding(INFO, "card-not-in-setup",
                    f"{counted(len(unused), 'card type')} {'appears' if len(unused) == 1 else 'appear'} in no setup: "
                    f"{', '.join(unused)}")]

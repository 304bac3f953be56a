"""check/lint: the rules text against the card data. Reads rules.md, card texts and details, setup
blurbs and extra rules, and variations; finds the names they mention (quoted »…«, in bold, or
capitalised in the prose, plural and hyphenated forms included) and reports, as warnings with
file:line:column:

- text-number: a card quoted with a bracketed number other than the card's `number`;
- card-number: a bracketed number in a card's own text other than its `number`;
- text-unknown-name: a quoted, bold or card-like name ("Unique Cards") that names no card,
  color, kind, tag, setup, variation or alias, with a did-you-mean;
- text-deal, text-set-aside: a sentence about the setup's figures ("deal 6 cards", "put 10
  cards aside for each player below 7") that the setup procedure contradicts;
- text-waiver-unused: a waiver in game.yaml's text_checks that waives nothing.

A game waives a finding with a reason (text_checks: waive:), everywhere or only inside a quoted
passage (a deliberate example); waived findings stay in the report as notes.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from cardgen.check.results import PlayerCount, SetupReport
from cardgen.check.texts import GameText, Place, game_texts
from cardgen.errors import BuildError
from cardgen.inputs import images
from cardgen.load.reader import did_you_mean
from cardgen.model import markup
from cardgen.model.game import ERROR, INFO, WARNING, Component, Finding, Game, Step, Waiver
from cardgen.model.texts import ascii_digits

TEXT_NUMBER, CARD_NUMBER, UNKNOWN_NAME = "text-number", "card-number", "text-unknown-name"
DEAL, SET_ASIDE, UNUSED_WAIVER = "text-deal", "text-set-aside", "text-waiver-unused"
UNPRINTED = "text-unprinted-card"
CODES = (TEXT_NUMBER, CARD_NUMBER, UNKNOWN_NAME, DEAL, SET_ASIDE, UNUSED_WAIVER, UNPRINTED)

CARD_WORDS = {"card", "cards"}
# small words a capitalised name may hold in lower case ("Jack of all Trades", "See the Future")
JOINERS = {"of", "the", "from", "and", "all", "to", "a", "an", "in", "on", "or", "for", "with", "at", "by"}
# words that say which card, never part of its name ("This card", "Each card", "Your cards")
DETERMINERS = {"this", "that", "these", "those", "each", "every", "any", "another", "your", "their", "my", "his",
               "her", "its", "our", "no", "one", "which", "what", "all", "some", "other"}
NUMBER_WORDS = {w: n for n, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
SINGLE_WORD_CUTOFF = 0.8  # a lone quoted word is a name only when it nearly spells one

_WORD = re.compile(r"[A-Za-z0-9][\w'’!]*")
_MARKED = re.compile(r"»([^«\n]{1,80})«|\*\*([^*\n]{1,80})\*\*")
_NUMBER_AFTER = re.compile(r"\s*\(([0-9]+)\)")
_BRACKETED = re.compile(r"\(([0-9]+)\)")
_LINE_OPENING = re.compile(r"\s*(?:[-*+]|[0-9]+\.|#+[\s0-9.]*)?\s*")  # indentation, list marker, heading
_NUMBER = r"([0-9]+|" + "|".join(NUMBER_WORDS) + r")"  # ASCII digits, as in the data
_DEAL = re.compile(r"\bdeal(?:s|t)?\s+(?:each player\s+|every player\s+|everyone\s+)?(?:the\s+)?" + _NUMBER
                   + r"\s+cards\b", re.I)
_BELOW = re.compile(r"\bfor each player below\s+" + _NUMBER, re.I)
_CARDS = re.compile(_NUMBER + r"\s+cards\b", re.I)
_SENTENCE = re.compile(r"[^.!?\n]+(?:\([^)]*\)[^.!?\n]*)*")
_SEPARATORS = re.compile(r"[-\s]+")


# --------------------------------------------------------------------------- names


@lru_cache(maxsize=1 << 16)  # texts repeat their phrases across cards
def name_key(phrase: str) -> str:
    """A name as the text may write it, reduced to one spelling: case, hyphens, a plural 's' and
    a trailing 'card(s)' do not count ("Dog-Cards", "a Nope-card", "Exploding Puppys")."""
    words = _SEPARATORS.sub(" ", phrase.casefold().replace("’", "'")).strip(" !?.,;:*»«\"").split()
    if len(words) > 1 and words[-1] in CARD_WORDS:
        words.pop()
    if words:
        last = words[-1]
        if last.endswith("ies") and len(last) > 4:
            words[-1] = last[:-3] + "y"
        elif last.endswith("s") and not last.endswith("ss") and len(last) > 3:
            words[-1] = last[:-1]
    return " ".join(words)


@dataclass(frozen=True)
class Named:
    """What a name in a text stands for: a card, color, kind, tag, setup or variation."""

    what: str  # card | color | kind | tag | setup | variation
    id: str
    name: str


class Names:
    """Every name the text may use: cards, colors, kinds, tags, setups, variations, aliases."""

    def __init__(self, game: Game):
        self.by_key: dict[str, Named] = {}
        for what, items in (("card", game.cards), ("color", game.colors), ("kind", game.kinds),
                            ("tag", game.tags)):
            for item in items:
                self._add(item.name, Named(what, item.id, item.name))
        for setup in game.setups:
            self._add(setup.name, Named("setup", setup.id, setup.name))
        for variation in game.variations:
            self._add(variation.name, Named("variation", variation.name, variation.name))
        for alias, (what, ident) in game.text_checks.aliases.items():
            self._add(alias, Named(what, ident, alias))
        self.longest = max((len(k.split()) for k in self.by_key), default=0) + 1  # + 'card'

    def _add(self, name: str, target: Named) -> None:
        self.by_key.setdefault(name_key(name), target)

    def find(self, phrase: str) -> Named | None:
        return self.by_key.get(name_key(phrase))

    def suggestion(self, phrase: str, single_word: bool) -> str:
        """A did-you-mean, comparing names as keys, so that a shared 'cards' does not count."""
        cutoff = SINGLE_WORD_CUTOFF if single_word else 0.6
        return did_you_mean(phrase, (target.name for target in self.by_key.values()), cutoff, key=name_key)


# --------------------------------------------------------------------------- the texts


def texts(game: Game) -> list[GameText]:
    """The prose the lint reads, in its reading order: rules.md, the cards' texts and details, the
    setups' texts (named by their setup), the variations."""
    return sorted((_as_read(text) for text in game_texts(game) if text.prose), key=_reading_order)


def _as_read(text: GameText) -> GameText:
    return dataclasses.replace(text, label=f"setup '{text.setup.name}'") if text.setup else text


def _reading_order(text: GameText) -> int:
    if text.card:
        return 1
    if text.setup:
        return 2
    return 3 if text.changes_rules else 0


# --------------------------------------------------------------------------- references


@dataclass(frozen=True)
class Reference:
    start: int
    end: int
    phrase: str  # as written, with its bracketed number
    target: Named | None  # None: a name-like phrase that names nothing
    number: int | None = None


def _sentence_start(value: str, index: int) -> bool:
    line = value[value.rfind("\n", 0, index) + 1:index]
    return bool(_LINE_OPENING.fullmatch(line)) or line.rstrip()[-1:] in tuple(".!?:»(\"“„‘'")


def _capitalised(word: str) -> bool:
    return word[:1].isupper()


def _title_like(words: list[str]) -> bool:
    return _capitalised(words[0]) and all(_capitalised(w) or w.casefold() in JOINERS for w in words)


def references(text: str, names: Names) -> list[Reference]:
    """The names a text mentions, in order: marked (»…«, **…**) first, then capitalised ones in
    the prose, then card-like phrases ("Unique Cards") that name nothing."""
    found = _marked(text, names)
    taken = [(r.start, r.end) for r in found]
    tokens = _Tokens(text)
    found += _plain(text, names, taken, tokens)
    if "card" in text.casefold():  # what a card word casefolds to is in the text's casefold
        taken = [(r.start, r.end) for r in found]
        found += _unknown_card_phrases(text, taken, tokens)
    return sorted(found, key=lambda r: r.start)


def _split_number(content: str) -> tuple[str, int | None]:
    match = re.search(r"\s*\(([0-9]+)\)$", content)
    return (content[:match.start()], int(match.group(1))) if match else (content, None)


def _marked(text: str, names: Names) -> list[Reference]:
    out = []
    for match in _MARKED.finditer(text):
        group = 1 if match.group(1) is not None else 2
        start, end = match.span(group)
        content = match.group(group).strip()
        name, number = _split_number(content)
        target = names.find(name)
        if target or _name_like(name, names):
            out.append(Reference(start, end, content, target, number))
    return out


def _name_like(phrase: str, names: Names) -> bool:
    """Whether a quoted phrase that names nothing looks like a name (else it is a quoted term or
    sentence): a few Title Case words; a lone word only if it nearly spells a name."""
    words = _WORD.findall(phrase)
    if not words or len(words) > 5 or re.search(r"[.,;:?/…]", phrase) or not _title_like(words):
        return False
    return len(words) > 1 or bool(names.suggestion(phrase, single_word=True))


class _Tokens:
    """A text's words (_WORD), where each starts and ends, and whether each is joined to the next
    into one phrase: only spaces or tabs and at most one hyphen between them."""

    def __init__(self, text: str):
        found = list(_WORD.finditer(text))
        self.words = [match.group() for match in found]
        self.starts = [match.start() for match in found]
        self.ends = [match.end() for match in found]
        self.joined = [text[end:start].strip(" \t") in ("", "-") for end, start in zip(self.ends, self.starts[1:])]

    def runs(self) -> list[int]:
        """For each word, how many words from it on form one phrase."""
        runs = [1] * len(self.words)
        for k in range(len(self.words) - 2, -1, -1):
            if self.joined[k]:
                runs[k] = runs[k + 1] + 1
        return runs


def _overlaps(start: int, end: int, taken: Iterable[tuple[int, int]]) -> bool:
    return any(start < e and s < end for s, e in taken)


def _plain(text: str, names: Names, taken: Sequence[tuple[int, int]], tokens: _Tokens) -> list[Reference]:
    runs = tokens.runs()
    words, starts, ends = tokens.words, tokens.starts, tokens.ends
    out, i = [], 0
    while i < len(words):
        if not words[i][:1].isupper():  # names in the prose start with a capital
            i += 1
            continue
        match = None
        for n in range(min(names.longest, runs[i]), 0, -1):  # each phrase of joined tokens from i
            start, end = starts[i], ends[i + n - 1]
            if not taken or not _overlaps(start, end, taken):
                target = names.find(text[start:end])
                if target:
                    match = (n, start, end, target)
                    break
        if match is None:
            i += 1
            continue
        n, start, end, target = match
        number_match = _NUMBER_AFTER.match(text, end)
        lone = n == 1 and _sentence_start(text, start) and number_match is None
        if not lone:
            if number_match:
                end = number_match.end()
            out.append(Reference(start, end, text[start:end], target,
                                 int(number_match.group(1)) if number_match else None))
        i += n
    return out


def _unknown_card_phrases(text: str, taken: Iterable[tuple[int, int]], tokens: _Tokens) -> list[Reference]:
    """Capitalised words right before 'card(s)' that name nothing: "shuffle four Unique Cards"."""
    words, joined = tokens.words, tokens.joined
    out = []
    for k, word in enumerate(words):
        if word.casefold() not in CARD_WORDS or k == 0 or not joined[k - 1] or not _capitalised(words[k - 1]):
            continue
        first = k - 1
        while first > 0 and joined[first - 1] and (
                _capitalised(words[first - 1])
                or words[first - 1] in JOINERS and first > 1 and _capitalised(words[first - 2])):
            first -= 1
        if _sentence_start(text, tokens.starts[first]):
            first += 1  # capitalised only because it starts the sentence
        while first < k and (words[first] in JOINERS or words[first].casefold() in DETERMINERS):
            first += 1
        if first == k:
            continue
        start, end = tokens.starts[first], tokens.ends[k]
        if not _overlaps(start, end, taken):
            out.append(Reference(start, end, text[start:end], None))
    return out


# --------------------------------------------------------------------------- the checks


@dataclass(frozen=True)
class Spotted:
    """A finding with the passage and span it is about, for waivers that name a passage."""

    text: GameText
    start: int
    end: int
    finding: Finding



def check_text(game: Game, setups: Sequence[SetupReport]) -> list[Finding]:
    """Every text finding of the game, waivers applied (a waived finding becomes a note). The
    setup figures in the text are read against the engine's reports of the setups."""
    names = Names(game)
    raw: list[Spotted] = []
    for text in texts(game):
        refs = references(text.value, names)
        raw += [spotted for r in refs for spotted in _reference_findings(game, text, r, names)]
        if text.card:
            raw += _own_numbers(text, refs)
        if not text.changes_rules:
            raw += _figures(game, text, setups)
        else:
            raw += _unprinted(game, text, refs, setups)
    return _waive(game, raw)


def _unprinted(game: Game, text: GameText, refs: list[Reference], setups: Sequence[SetupReport]) -> list[Spotted]:
    """A card a variation names that nothing prints (no setup, no deck printed whole): the
    players of the variation would not have it."""
    printed = {card_id for s in setups for card_id, n in s.print_counts.items() if n}
    printed |= {card.id for card in game.cards if game.deck_of(card).print_all}
    found, seen = [], set()
    for ref in refs:
        if ref.target is None or ref.target.what != "card" or ref.target.id in printed or ref.target.id in seen:
            continue
        seen.add(ref.target.id)
        found.append(Spotted(text, ref.start, ref.end, Finding(
            WARNING, UNPRINTED, f"{text.label}: needs card '{game.card(ref.target.id).name}', which no setup prints",
            text.place(ref.start, ref.end), "add it to a setup's cards, or to a deck with print: all, so that the "
            "players of the variation have it")))
    return found


def _reference_findings(game: Game, text: GameText, ref: Reference, names: Names) -> list[Spotted]:
    where = text.place(ref.start, ref.end)
    if ref.target is None:
        single = len(_WORD.findall(ref.phrase)) == 1
        return [Spotted(text, ref.start, ref.end, Finding(WARNING, UNKNOWN_NAME,
                        f"{text.label}: '{ref.phrase}' names no card, color, kind, tag, setup or variation",
                        where, names.suggestion(ref.phrase, single)
                        or "fix the name, or declare it in game.yaml under text_checks: aliases:"))]
    if ref.number is None or ref.target.what != "card":
        return []
    card = game.card(ref.target.id)
    if card.number == ref.number:
        return []
    has = f"the card's number is ({card.number})" if card.number is not None else "the card has no number"
    return [Spotted(text, ref.start, ref.end, Finding(
        WARNING, TEXT_NUMBER, f"{text.label}: quotes '{ref.phrase}', but {has} in cards.yaml",
        where, "update the quote, or waive it in game.yaml (text_checks: waive:, with inside:) "
        "if it is a deliberate example"))]


def _own_numbers(text: GameText, refs: list[Reference]) -> list[Spotted]:
    card = text.card
    if card is None:
        return []
    spans = [(r.start, r.end) for r in refs]
    out = []
    for match in _BRACKETED.finditer(text.value):
        number = int(match.group(1))
        if number == card.number or _overlaps(*match.span(), spans):
            continue
        has = f"({card.number})" if card.number is not None else "none"
        out.append(Spotted(text, *match.span(), Finding(
            WARNING, CARD_NUMBER, f"{text.label}: the text says ({number}) but the card's number is {has}",
            text.place(*match.span()), "the bracketed number is the card's associated number: make them agree")))
    return out


# --------------------------------------------------------------------------- setup figures


def _figure(word: str) -> int:
    return int(word) if ascii_digits(word) else NUMBER_WORDS[word.casefold()]


def _in_scope(setups: Sequence[SetupReport], text: GameText) -> list[SetupReport]:
    if text.setup:
        return [s for s in setups if s.setup.id == text.setup.id]
    return list(setups)


def _figures(game: Game, text: GameText, setups: Sequence[SetupReport]) -> list[Spotted]:
    """The figures each sentence of the text says; a kind of figure is looked for in the sentences
    only when the whole text holds one (a sentence's match is one in its text)."""
    value = text.value
    deals = _DEAL.search(value) is not None
    aside = "aside" in value.casefold() and _BELOW.search(value) is not None and _CARDS.search(value) is not None
    components = [c for c in game.components if _named(c.name, c.plural).search(value)]
    if not deals and not aside and not components:
        return []
    out = []
    for sentence in _SENTENCE.finditer(value):
        if deals:
            out += _step_figures(text, sentence, setups) if text.step else _deal_figures(text, sentence, setups)
        if aside:
            out += _set_aside_figures(text, sentence, setups)
        if components:
            out += _component_figures(components, text, sentence, setups)
    return out


def _step_figures(text: GameText, sentence: re.Match[str], setups: Sequence[SetupReport]) -> list[Spotted]:
    """A step's text against what the step deals at every player count of every setup."""
    out = []
    for match in _DEAL.finditer(sentence.group()):
        said = _figure(match.group(1))
        differ = sorted({(report.setup.name, p.players, s.count) for report in setups for p in report.players
                         for s in p.steps if s.step is text.step and s.count is not None and s.count != said})
        if differ:
            start, end = sentence.start() + match.start(), sentence.start() + match.end()
            shown = "; ".join(f"{setup} at {players} players: {count}" for setup, players, count in differ[:3])
            out.append(Spotted(text, start, end, Finding(
                WARNING, DEAL, f"{text.label}: says '{match.group()}', but the step deals {shown}"
                + (f" and {len(differ) - 3} more" if len(differ) > 3 else ""), text.place(start, end),
                "make the text and the step's count agree, or leave the number out of the text: the checklist "
                "prints each player count's own")))
    return out


def _component_figures(components: Sequence[Component], text: GameText, sentence: re.Match[str],
                       setups: Sequence[SetupReport]) -> list[Spotted]:
    """'with 8 clue tokens', '7 tokens to win': a component's count in the text against the engine's."""
    out = []
    words = sentence.group()
    for component in components:
        for match in _counted(component.name, component.plural).finditer(words):
            said = _figure(match.group(1))
            wins = "to win" in words[match.end():match.end() + 30].casefold()
            counts = [p.components[component.id] for report in _in_scope(setups, text) for p in report.players
                      if component.id in p.components]
            values = [c.to_win for c in counts] if wins else [c.total for c in counts] + [c.each for c in counts]
            known = {value for value in values if value is not None}
            if known and said not in known:
                start, end = sentence.start() + match.start(), sentence.start() + match.end()
                what = "needs to win" if wins else "has"
                out.append(Spotted(text, start, end, Finding(
                    WARNING, DEAL, f"{text.label}: says '{match.group()}', but the game {what} "
                    f"{' or '.join(map(str, sorted(known)))}", text.place(start, end),
                    f"make the text and game.yaml's component '{component.id}' agree")))
    return out


@lru_cache(maxsize=256)
def _named(name: str, plural: str) -> re.Pattern[str]:
    """A component's name, as _counted looks for it."""
    return re.compile("|".join(re.escape(n) for n in sorted({name, plural}, key=len, reverse=True)), re.I)


@lru_cache(maxsize=256)
def _counted(name: str, plural: str) -> re.Pattern[str]:
    """A figure and a component's name: '8 clue tokens'."""
    nouns = "|".join(re.escape(n) for n in sorted({name, plural}, key=len, reverse=True))
    return re.compile(_NUMBER + r"\s+(?:" + nouns + r")\b", re.I)


def _step_counts(played: PlayerCount, wanted: Callable[[Step], bool]) -> list[int]:
    """The counts of the steps picked by `wanted`, as the engine carried them out."""
    return [s.count for s in played.steps if wanted(s.step) and s.count is not None]


def _deals(step: Step) -> bool:
    return step.action == "deal" and not step.extras and step.count is not None


def _sets_aside(step: Step) -> bool:
    return step.action == "move" and step.count is not None and step.target not in ("deck", "hands")


def _deal_figures(text: GameText, sentence: re.Match[str], setups: Sequence[SetupReport]) -> list[Spotted]:
    out = []
    for match in _DEAL.finditer(sentence.group()):
        said = _figure(match.group(1))
        differ = []
        for report in _in_scope(setups, text):
            dealt = {n for p in report.players for n in _step_counts(p, _deals)}
            if dealt and said not in dealt:
                differ.append(f"{report.setup.name} deals {', '.join(map(str, sorted(dealt)))}")
        if differ:
            start, end = sentence.start() + match.start(), sentence.start() + match.end()
            out.append(Spotted(text, start, end, Finding(
                WARNING, DEAL, f"{text.label}: says '{match.group()}', but {'; '.join(differ)}",
                text.place(start, end), "make the text and the setup's hand: deal: agree")))
    return out


def _set_aside_figures(text: GameText, sentence: re.Match[str], setups: Sequence[SetupReport]) -> list[Spotted]:
    words = sentence.group()
    below, cards = _BELOW.search(words), _CARDS.search(words)
    if not below or not cards or "aside" not in words.casefold():
        return []
    each, limit = _figure(cards.group(1)), _figure(below.group(1))
    for report in _in_scope(setups, text):
        for played in report.players:
            players = played.players
            said = each * max(0, limit - players)
            stated = _step_counts(played, _sets_aside)
            if stated and said not in stated:
                start = sentence.start() + min(below.start(), cards.start())
                end = sentence.start() + max(below.end(), cards.end())
                return [Spotted(text, start, end, Finding(
                    WARNING, SET_ASIDE, f"{text.label}: says {each} cards aside for each player below {limit} "
                    f"({said} at {players} players), but the setup procedure puts "
                    f"{' or '.join(map(str, stated))} aside in {report.setup.name}",
                    text.place(start, end), "make the text and the setup steps agree"))]
    return []


# --------------------------------------------------------------------------- waivers


def _covers(waiver: Waiver, spotted: Spotted) -> bool:
    """Whether a waiver covers a finding: same check, and inside its passage if it names one."""
    if waiver.check != spotted.finding.code:
        return False
    if not waiver.inside:
        return True
    value = spotted.text.value
    index = value.find(waiver.inside)
    while index >= 0:
        if index <= spotted.start and spotted.end <= index + len(waiver.inside):
            return True
        index = value.find(waiver.inside, index + 1)
    return False


def _waive(game: Game, raw: list[Spotted]) -> list[Finding]:
    waivers = game.text_checks.waivers
    used: set[int] = set()
    out = []
    for spotted in raw:
        finding = spotted.finding
        hit = next((i for i, w in enumerate(waivers) if _covers(w, spotted)), None)
        if hit is None:
            out.append(finding)
            continue
        used.add(hit)
        out.append(Finding(INFO, finding.code, f"{finding.message}. Waived: {waivers[hit].reason}", finding.where))
    for i, waiver in enumerate(waivers):
        if i not in used:
            problem = "is not a text check" if waiver.check not in CODES else "waives no finding"
            out.append(Finding(WARNING, UNUSED_WAIVER, f"text_checks: the waiver of '{waiver.check}' {problem}",
                               waiver.where, "remove it, or fix its check or inside: text"))
    return out


# --------------------------------------------------------------------------- images in the texts


def _at_step(step: Step) -> Place:
    return lambda start, end: step.where


def image_findings(game: Game) -> list[Finding]:
    """Markdown images the documents would refuse: not a local file inside the game folder,
    templates/ or art/, missing, or not an image they can draw."""
    steps = [GameText(step.text, "setup step", _at_step(step)) for step in game.steps if step.text]
    findings = []
    for text in [*texts(game), *steps]:
        if "![" not in text.value:
            continue
        for src in markup.image_sources(text.value):
            where = text.place(*_span(text.value, src))
            try:
                images.checked_url(src, game.folder, text.label)
            except BuildError as exc:
                findings.append(Finding(ERROR, "bad-image", exc.message, where, exc.hint))
    return findings


def _span(value: str, src: str) -> tuple[int, int]:
    start = max(value.find(src), 0)
    return start, start + len(src)

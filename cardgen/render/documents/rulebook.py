"""render/documents/rulebook: rules.md as numbered chapters, sections and subsections, with the
generated parts placed where they belong (the cards after their color's intro, one section per
setup, the components, the variations, the card diagram), and the rulebook's template context."""
from __future__ import annotations

import base64
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup

from cardgen.check.results import GameDiff, GameReport, SetupReport
from cardgen.check.tables import component_rows, pile_rows, supply_piles
from cardgen.layout.colors import title_on_paper
from cardgen.model.fields import labelled_values
from cardgen.model.game import Card, Color, Game, Variation
from cardgen.model.sizes import DEFAULT_PAPER
from cardgen.model.targets import CardPixels
from cardgen.model.texts import component_count, format_count, format_number, players_label
from cardgen.model.words import gettext, marked, ngettext
from cardgen.render import card_images
from cardgen.render.documents.checklists import hand_label, step_text
from cardgen.render.documents.diagram import callouts, example_card, numbers_in_brackets
from cardgen.render.documents.html import render_html, render_pdf, symbol_context
from cardgen.render.documents.markdown import markdown_html, markdown_inline
from cardgen.render.documents.weasy import example_card_url, self_contained
from cardgen.render.write import atomic_write

_HEADING = re.compile(r"^(#{1,3})\s+(.+?)\s*#*\s*$")
_TYPED_NUMBER = re.compile(r"^\d+(?:\.\d+)*\.?\s+")
_FENCE = re.compile(r"^\s*(```|~~~)")
PLAYER_COLUMNS = 8  # player counts a table of figures shows side by side: more run off an A4 or Letter page
COUNT_PAIRS = 3  # (card, count) pairs side by side in a setup's table on A4 or Letter (2 in the A5 booklet)


# about what one A4 page of 10 pt text holds, and what a setup's tables or the card diagram take
PAGE_WEIGHT, SETUP_WEIGHT, DIAGRAM_WEIGHT = 3500, 1800, 2000
LONG_CHAPTER = 3 * PAGE_WEIGHT  # a chapter of about three pages or more starts a page of its own


@dataclass
class Part:
    """A numbered chapter (level 1), section (2) or subsection (3) of the rulebook.

    Prose comes from rules.md; the generated parts (cards, a setup, the variations, the
    card diagram) hang on the part where they belong and render after its prose.
    """

    level: int
    title: str
    prose: str = ""
    children: list[Part] = field(default_factory=list)
    number: str = ""
    html: Markup = Markup("")
    color: Color | None = None
    cards: list[Card] = field(default_factory=list)
    setup: SetupReport | None = None
    variations: tuple[Variation, ...] = ()
    card_diagram: bool = False
    setup_steps: bool = False
    components: list[str] = field(default_factory=list)  # the components list (components_list)

    @property
    def anchor(self) -> str:
        return "part-" + self.number.replace(".", "-")

    @property
    def weight(self) -> int:
        """A rough size in characters of text, to tell a long chapter from a short one."""
        own = len(self.prose) + sum(len(c.text) + len(c.details) + len(c.flavor) + 150 for c in self.cards)
        own += sum(len(v.text) + 60 for v in self.variations)
        own += SETUP_WEIGHT if self.setup else 0
        own += DIAGRAM_WEIGHT if self.card_diagram else 0
        own += sum(len(line) + 20 for line in self.components)
        return own + sum(child.weight for child in self.children)

    @property
    def starts_page(self) -> bool:
        """Long chapters start on a page of their own; short ones follow the one before: a page
        break after a chapter of a page or two leaves most of its last page empty."""
        return self.weight >= LONG_CHAPTER

    def walk(self) -> Iterator[Part]:
        yield self
        for child in self.children:
            yield from child.walk()


def parse_rules(markdown: str) -> list[Part]:
    """rules.md → chapters (#), sections (##) and subsections (###); typed numbers are dropped."""
    chapters: list[Part] = []
    stack: list[Part] = []
    lines: list[str] = []
    in_fence = False

    def flush() -> None:
        text = "\n".join(lines).strip("\n")
        lines.clear()
        if stack:
            stack[-1].prose = text

    for line in markdown.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
        match = None if in_fence else _HEADING.match(line)
        if not match:
            lines.append(line)
            continue
        flush()
        level = len(match.group(1))
        part = Part(level, _TYPED_NUMBER.sub("", match.group(2)).strip())
        while stack and stack[-1].level >= level:
            stack.pop()
        (stack[-1].children if stack else chapters).append(part)
        stack.append(part)
    flush()
    return chapters


def rulebook_outline(game: Game, report: GameReport) -> list[Part]:
    chapters = parse_rules(game.rules_markdown)
    card_chapter = _place_cards(game, chapters)
    _place_setups(report, chapters)
    _place_components(game, report, chapters)
    _place_variations(game, chapters)
    _place_card_diagram(chapters, card_chapter)
    _number(chapters)
    for chapter in chapters:
        for part in chapter.walk():
            part.html = markdown_html(part.prose, game, f"{game.rules_name}, section '{part.title}'")
    return chapters


def _norm(text: str) -> str:
    return " ".join(text.casefold().replace("-", " ").split())


def _color_section(game: Game, part: Part) -> Color | None:
    return next((c for c in game.colors if _norm(part.title) in (_norm(c.name), _norm(c.id))), None)


def _place_cards(game: Game, chapters: list[Part]) -> Part | None:
    """Cards go after their color's intro, in the chapter whose sections name the colors."""
    if not game.cards:
        return None
    scored = [(sum(1 for s in ch.children if _color_section(game, s)), ch) for ch in chapters]
    score, chapter = max(scored, key=lambda pair: pair[0], default=(0, None))
    if not score or chapter is None:
        chapter = Part(1, gettext("Cards"))
        chapters.append(chapter)
    existing = {(_color_section(game, s) or Color("", "", "", "", "")).id: s for s in chapter.children}
    color_parts = []
    for color in game.colors:
        cards = [c for c in game.cards if c.color == color.id]
        part = existing.get(color.id)
        if part is None and not cards:
            continue
        part = part or Part(2, color.name)
        part.color = color
        _distribute(game, part, cards)
        color_parts.append(part)
    others = [s for s in chapter.children if not _color_section(game, s)]
    first = next((i for i, s in enumerate(chapter.children) if _color_section(game, s)), len(others))
    before = [s for s in chapter.children[:first] if s in others]
    chapter.children = before + color_parts + [s for s in others if s not in before]
    return chapter


def _distribute(game: Game, part: Part, cards: list[Card]) -> None:
    """Subsections named after a kind (or 'Non-<kind>') take the matching cards; the rest follow the intro."""
    left = list(cards)
    for sub in part.children:
        wanted = _kind_filter(game, sub.title)
        if wanted is None:
            continue
        kind, present = wanted
        sub.cards = [c for c in left if (kind in c.kinds) == present]
        left = [c for c in left if c not in sub.cards]
    part.cards = left


# Words of the rules' headings the rulebook places its generated parts by, in the rules' language
# (a translator gives each language's own, comma-separated, in the catalog).
NOT_OF_KIND = marked("non, not, no, other than")  # "Non-puppy": the cards of no such kind
SETUP_HEADINGS = marked("setups, setup")  # the first found wins
COMPONENT_HEADINGS = marked("components, contents, materials, in the box")
VARIATION_HEADINGS = marked("variation, variant")
DIAGRAM_HEADINGS = marked("card: structure, anatomy, parts of")  # a heading with the first word and one of the others


def _words(message: str) -> list[str]:
    """A heading-words message in the language speaking, and in English: a translated game's rules
    may be the source's."""
    return [_norm(word) for text in dict.fromkeys([gettext(message), message]) for word in text.split(",")
            if word.strip()]


def _kind_filter(game: Game, title: str) -> tuple[str, bool] | None:
    words = _norm(title)
    negations = "|".join(re.escape(word) for word in _words(NOT_OF_KIND))
    negation = re.match(rf"^({negations})\s+", words)
    stem = words[negation.end():] if negation else words
    for kind in game.kinds:
        for form in {_norm(kind.id), _norm(kind.name), _norm(kind.plural)} - {""}:
            if stem in (form, form + "s", form + "es"):
                return kind.id, not negation
    return None


def _place_setups(report: GameReport, chapters: list[Part]) -> None:
    """One section per setup, right after the intro of the deck-setup chapter."""
    if not report.setups:
        return
    chapter = next((ch for word in _words(SETUP_HEADINGS) for ch in chapters if word in _norm(ch.title)), None)
    if chapter is None:
        chapter = Part(1, gettext("Deck Setups"), setup_steps=True)
        chapters.append(chapter)
    named = {_norm(s.title): s for s in chapter.children}
    parts = []
    for setup_report in report.setups:
        part = named.pop(_norm(setup_report.setup.name), None) or Part(2, setup_report.setup.name)
        part.setup = setup_report
        parts.append(part)
    chapter.children = parts + [s for s in chapter.children if s not in parts]


def _place_components(game: Game, report: GameReport, chapters: list[Part]) -> None:
    """The components list: in the chapter about them, else in a chapter of its own before the setups."""
    if not game.components:
        return
    chapter = next((ch for ch in chapters if any(word in _norm(ch.title) for word in _words(COMPONENT_HEADINGS))),
                   None)
    if chapter is None:
        chapter = Part(1, gettext("Components"))
        setups = next((i for i, ch in enumerate(chapters) if any(part.setup for part in ch.walk())), len(chapters))
        chapters.insert(setups, chapter)
    chapter.components = components_list(game, report)


def _place_variations(game: Game, chapters: list[Part]) -> None:
    if not game.variations:
        return
    chapter = next((ch for ch in chapters if any(word in _norm(ch.title) for word in _words(VARIATION_HEADINGS))),
                   None)
    if chapter is None:
        chapter = Part(1, gettext("Variations"))
        chapters.append(chapter)
    chapter.variations = game.variations


def _place_card_diagram(chapters: list[Part], card_chapter: Part | None) -> None:
    for chapter in chapters:
        for part in chapter.walk():
            title = _norm(part.title)
            if _is_diagram_heading(title):
                part.card_diagram = True
                return
    if card_chapter is not None:
        card_chapter.card_diagram = True


def _is_diagram_heading(title: str) -> bool:
    """'Structure of a card': a heading with the message's first word and one of the others."""
    for text in dict.fromkeys([gettext(DIAGRAM_HEADINGS), DIAGRAM_HEADINGS]):
        card, _, others = text.partition(":")
        if _norm(card) in title and any(_norm(word) in title for word in others.split(",") if word.strip()):
            return True
    return False


def _number(parts: list[Part], prefix: str = "") -> None:
    for i, part in enumerate(parts, 1):
        part.number = f"{prefix}{i}"
        _number(part.children, part.number + ".")



def rulebook_context(game: Game, report: GameReport, changes: GameDiff | None = None) -> dict[str, Any]:
    chapters = rulebook_outline(game, report)
    return {
        "chapters": chapters,
        "contents": [p for ch in chapters for p in ch.walk()],
        "report": report,
        "example_card": example_card(game),
        "example_card_image": example_card_url(game),
        "callouts": callouts(game),
        "numbers_in_brackets": numbers_in_brackets(game),
        **symbol_context(game),
        "colors": {c.id: c for c in game.colors},
        "tags": {t.id: t for t in game.tags},
        "kinds": {k.id: k for k in game.kinds},
        "explain": lambda card: _card_explanation(game, card),
        "inline": lambda text, origin="": markdown_inline(text, game, origin),
        "count_columns": _count_columns,
        "players_label": players_label,
        "number": format_number,
        "player_columns": PLAYER_COLUMNS,
        "count_pairs": COUNT_PAIRS,
        "shows_number": _shows_number,
        "card_fields": lambda card: labelled_values(game.fields, card.value),
        "hand_label": lambda setup, played: hand_label(game, setup, played),
        "setup_step_texts": [text for text in map(step_text, game.steps) if text],
        "starting_hands": lambda setup_report: starting_hands(game, setup_report),
        "component_rows": component_rows,
        "pile_rows": lambda setup_report: pile_rows(game, setup_report),
        "supply_piles": lambda setup_report: supply_piles(game, setup_report),
        "count": format_count,
        "role_names": lambda role: " / ".join(k.name for k in game.kinds if k.role == role),
        "title_hex": lambda card: title_on_paper(game, card),
        "changes": changes if changes is not None and not changes.empty else None,
        "html_edition": False,
        "booklet": False,
        "card_picture": lambda card_id: None,
    }


def _shows_number(card: Card) -> bool:
    """Whether a card's heading adds its number: not when its name ends with it ('Red 1')."""
    return card.number is not None and not re.search(rf"(?<!\d){card.number}$", card.name)


def _card_explanation(game: Game, card: Card) -> Markup:
    return markdown_html(card.details or card.text, game, f"card '{card.name}'")



def _count_columns(setup_report: SetupReport, pairs: int = 2) -> list[list[Any]]:
    """The printed count table as rows of `pairs` (card, count) pairs, read down the columns
    (None fills the last ones)."""
    lines = list(setup_report.setup.lines)
    height = max(1, -(-len(lines) // pairs))
    columns = [lines[i:i + height] for i in range(0, height * pairs, height)]
    return [[column[row] if row < len(column) else None for column in columns] for row in range(height)]



def starting_hands(game: Game, report: SetupReport) -> list[tuple[int, str]]:
    """(players, what each player starts with) for every player count of a setup."""
    return [(p.players, hand_label(game, report.setup, p)) for p in report.players]


def components_list(game: Game, report: GameReport) -> list[str]:
    """The game's components as the rulebook lists them: '30 Coins', or by player count where the
    count changes with it ('Tokens: 10 with 2 players, 12 with 3 players')."""
    lines = []
    for component in game.components:
        totals: dict[int, int] = {}
        for setup_report in report.setups:
            for p in setup_report.players:
                total = p.components[component.id].total
                if total is not None:
                    totals.setdefault(p.players, total)
        values = sorted(set(totals.values()))
        if len(values) == 1:
            line = component_count(values[0], component)
        else:
            line = f"{component.plural}: " + ", ".join(
                ngettext("%(count)s with %(num)s player", "%(count)s with %(num)s players", n)
                % {"count": totals[n], "num": n} for n in sorted(totals))
        lines.append(line + (f": {component.meaning}" if component.meaning else ""))
    return lines


def write_rulebook(game: Game, report: GameReport, out_dir: Path, paper: str = DEFAULT_PAPER,
                   changes: GameDiff | None = None) -> Path:
    pdf = render_pdf(game, "rulebook.html", rulebook_context(game, report, changes), paper)
    return atomic_write(Path(out_dir) / "rulebook.pdf", pdf)


def write_rulebook_html(game: Game, report: GameReport, out_dir: Path, paper: str = DEFAULT_PAPER,
                        changes: GameDiff | None = None) -> Path:
    """rulebook.html: the rulebook's template and text for a browser (the screen style sheet
    added), fonts and images inlined: one file, no network."""
    pictures = card_pictures(game)
    context = dict(rulebook_context(game, report, changes), html_edition=True, card_picture=pictures.get)
    html = self_contained(game, render_html(game, "rulebook.html", context, paper))
    return atomic_write(Path(out_dir) / "rulebook.html", html.encode("utf-8"))



PICTURE_DPI, PICTURE_QUALITY = 100, 82  # the HTML edition's card pictures: a screen's size, small files


def card_pictures(game: Game) -> dict[str, str]:
    """Each card's face as the sheets print it, as a data: URL of a JPEG (the HTML edition shows it
    beside the card's explanation): one PDF of every face of a deck, at its card size, rasterised once."""
    pictures = {}
    for deck in game.every_deck:
        cards = [card for card in game.cards if game.deck_of(card).id == deck.id]
        width_mm, height_mm = deck.size_mm
        size = (round(width_mm / 25.4 * PICTURE_DPI), round(height_mm / 25.4 * PICTURE_DPI))
        sheet = card_images.one_card_sheet(CardPixels(size, 0, 0), PICTURE_DPI)
        faces = card_images.rasterise(card_images.card_pdf(game, sheet, [(card, "front") for card in cards]),
                                      size, PICTURE_DPI) if cards else []
        for card, face in zip(cards, faces):
            jpeg = io.BytesIO()
            face.save(jpeg, "JPEG", quality=PICTURE_QUALITY)
            pictures[card.id] = "data:image/jpeg;base64," + base64.b64encode(jpeg.getvalue()).decode("ascii")
    return pictures

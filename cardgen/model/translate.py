"""translate: a game in one of its other languages. Every text the players read is replaced by the
translation's (and placed where the translation file has it, so that a finding on it names that
line); ids, counts, colors, layout and rules of play stay the source's, so the engine plays the
same setups. A text the translation lacks stays the source's and is listed as untranslated."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, TypeVar

from cardgen.model.fields import CardField, translatable_fields
from cardgen.model.file_names import slugify
from cardgen.model.game import (
    Back,
    Card,
    CheatSheet,
    Check,
    Color,
    ComboRow,
    Combos,
    Component,
    Game,
    Kind,
    Pile,
    Setup,
    Step,
    Tag,
    Variation,
)
from cardgen.model.texts import plural
from cardgen.model.translation import Translation, Untranslated
from cardgen.model.where import Passage, Where

ColorOrTag = TypeVar("ColorOrTag", Color, Tag)


def translated(game: Game, language: str, texts: _Texts | None = None) -> tuple[Game, list[Untranslated]]:
    """The game in `language` (one of game.translations), and the source texts it left untranslated."""
    texts = texts or _Texts(game.translations[language])
    tr = texts.text
    game_file = Where(f"{game.id}/game.yaml")
    title = tr("title", game.title, "the title", game_file)
    out = replace(
        game,
        title=title,
        date=tr("date", game.date, "the date", game_file),
        # "" : the documents' own word ("Number" in the language's words), which a translation may name
        number_name=tr("number_name", game.number_name or "Number", "number_name", game_file,
                       None if game.number_name else ""),
        colors=tuple(_named(c, "colors", "color", texts) for c in game.colors),
        tags=tuple(_named(t, "tags", "tag", texts) for t in game.tags),
        kinds=tuple(_kind(k, texts) for k in game.kinds),
        cards=tuple(_card(c, translatable_fields(game.fields), texts) for c in game.cards),
        setups=tuple(_setup(s, texts) for s in game.setups),
        steps=_steps(game.steps, texts), piles=tuple(_pile(p, texts) for p in game.piles),
        fields=tuple(_field(f, texts) for f in game.fields),
        components=tuple(_component(c, texts) for c in game.components),
        backs=tuple(_back(b, texts) for b in game.backs),
        checks=tuple(_check(c, texts) for c in game.checks),
        variations=tuple(_variation(v, texts) for v in game.variations),
        cheatsheet=_cheatsheet(game.cheatsheet, texts, game.title, title) if game.cheatsheet else None,
        language=language,
        words=texts.translation.words,
    )
    rules = texts.translation
    if rules.rules_markdown:
        out = replace(out, rules_markdown=rules.rules_markdown, rules_file=rules.rules_file)
    return out, texts.missing


def translatable(game: Game, language: str) -> list[Untranslated]:
    """Every text a translation into `language` may give, with its source."""
    texts = _Texts(Translation(language, ""))
    translated(game, language, texts)
    return texts.missing + texts.optional


class _Texts:
    def __init__(self, translation: Translation):
        self.translation = translation
        self.missing: list[Untranslated] = []
        self.optional: list[Untranslated] = []  # texts with a default in the language's own words

    def text(self, key: str, source: str, what: str, where: Where | None, default: str | None = None) -> str:
        """The translation of a source text; else the `default` if given, or the source text (and a
        miss)."""
        if not source:
            return source
        found = self.translation.texts.get(key)
        if found is None:
            (self.missing if default is None else self.optional).append(Untranslated(key, what, source, where))
            return source if default is None else default
        return found.text

    def place(self, key: str) -> Passage | None:
        found = self.translation.texts.get(key)
        return found.place if found else None

    def places(self, prefix: str, fields: tuple[str, ...], source: dict[str, Passage]) -> dict[str, Passage]:
        """A record's places, each translated field's in the translation file."""
        out = dict(source)
        for name in fields:
            place = self.place(f"{prefix}/{name}")
            if place is not None:
                out[name] = place
        return out


def _named(item: ColorOrTag, section: str, what: str, texts: _Texts) -> ColorOrTag:
    key, label = f"{section}/{item.id}", f"{what} '{item.name}'"
    return replace(item, name=texts.text(f"{key}/name", item.name, f"{label}: name", None),
                   meaning=texts.text(f"{key}/meaning", item.meaning, f"{label}: meaning", None))


def _kind(kind: Kind, texts: _Texts) -> Kind:
    key, label = f"kinds/{kind.id}", f"kind '{kind.name}'"
    name = texts.text(f"{key}/name", kind.name, f"{label}: name", None)
    return replace(kind, name=name, plural=texts.text(f"{key}/plural", kind.plural or plural(kind.name),
                                                      f"{label}: plural", None),
                   meaning=texts.text(f"{key}/meaning", kind.meaning, f"{label}: meaning", None))


def _card(card: Card, translatable: tuple[str, ...], texts: _Texts) -> Card:
    """The card with each of its translatable fields in the language (the game's own text fields
    too; their source values stay what selectors pick by)."""
    key, label = f"cards/{card.id}", f"card '{card.name}'"
    changed = {}
    for name in translatable:
        source = card.value(name)
        if isinstance(source, str):
            changed[name] = texts.text(f"{key}/{name}", source, f"{label}: {name}", card.where)
    own = {name: text for name, text in changed.items() if name in card.fields}
    builtin: dict[str, Any] = {name: text for name, text in changed.items() if name not in own}
    return replace(card, **builtin, fields={**card.fields, **own},
                   source_fields={name: card.fields[name] for name in own},
                   places=texts.places(key, translatable, dict(card.places)))


def _setup(setup: Setup, texts: _Texts) -> Setup:
    key, label = f"setups/{setup.id}", f"setup '{setup.name}'"
    rules = tuple(texts.text(f"{key}/extra_rules/{i}", rule, f"{label}: extra rule {i + 1}", setup.where)
                  for i, rule in enumerate(setup.extra_rules))
    places = texts.places(key, ("blurb",), dict(setup.places))
    places.update({f"extra_rules[{i}]": p for i in range(len(rules))
                   if (p := texts.place(f"{key}/extra_rules/{i}")) is not None})
    return replace(setup, name=texts.text(f"{key}/name", setup.name, f"{label}: name", setup.where),
                   blurb=texts.text(f"{key}/blurb", setup.blurb, f"{label}: blurb", setup.where),
                   extra_rules=rules, places=places)


def _steps(steps: tuple[Step, ...], texts: _Texts) -> tuple[Step, ...]:
    """The setup steps, their texts by their place among the steps that have one (setup_steps/0 is
    the first step's text)."""
    out, number = [], 0
    for step in steps:
        if step.text:
            step = replace(step, text=texts.text(f"setup_steps/{number}", step.text, f"setup step {number + 1}",
                                                 step.where))
            number += 1
        out.append(step)
    return tuple(out)


def _field(card_field: CardField, texts: _Texts) -> CardField:
    """A card field's display name (the documents' label) in the language."""
    return replace(card_field, name=texts.text(f"fields/{card_field.id}/name", card_field.name,
                                               f"field '{card_field.id}': name", card_field.where))


def _pile(pile: Pile, texts: _Texts) -> Pile:
    """A pile game.yaml names in its own words, translated; a default pile in the language's words."""
    default = texts.translation.words.gettext(pile.name) if pile.where is None else None
    return replace(pile, name=texts.text(f"piles/{pile.id}/name", pile.name, f"pile '{pile.id}': name", pile.where,
                                         default))


def _component(component: Component, texts: _Texts) -> Component:
    key, label = f"components/{component.id}", f"component '{component.name}'"

    def tr(name: str, source: str) -> str:
        return texts.text(f"{key}/{name}", source, f"{label}: {name}", component.where)

    return replace(component, name=tr("name", component.name), plural=tr("plural", component.plural),
                   meaning=tr("meaning", component.meaning))


def _back(back: Back, texts: _Texts) -> Back:
    return replace(back, title=texts.text(f"backs/{back.id}/title", back.title, f"back '{back.id}': title",
                                          back.where))


def _check(check: Check, texts: _Texts) -> Check:
    return replace(check, message=texts.text(f"checks/{check.id}/message", check.message,
                                             f"check '{check.id}': message", check.where))


def _variation(variation: Variation, texts: _Texts) -> Variation:
    key, label = f"variations/{slugify(variation.name)}", f"variation '{variation.name}'"
    where = variation.place.where if variation.place else None
    return replace(variation, name=texts.text(f"{key}/name", variation.name, f"{label}: name", where),
                   text=texts.text(f"{key}/text", variation.text, f"{label}: text", where),
                   place=texts.place(f"{key}/text") or variation.place)


def _cheatsheet(sheet: CheatSheet, texts: _Texts, source_title: str, title: str) -> CheatSheet:
    """The cheat sheet's texts; its title, when it is the game's, the translated game's."""
    def tr(key: str, source: str) -> str:
        return texts.text(f"cheatsheet/{key}", source, f"cheat sheet: {key}", None,
                          title if key == "title" and source == source_title else None)

    sections = tuple(replace(section, title=tr(f"sections/{i}/title", section.title),
                             items=tuple(tr(f"sections/{i}/items/{j}", item) for j, item in enumerate(section.items)))
                     for i, section in enumerate(sheet.sections))
    combos = sheet.combos
    if combos is not None:
        combos = Combos(tr("combos/title", combos.title), tr("combos/intro", combos.intro),
                        tuple(ComboRow(tr(f"combos/rows/{i}/cards", row.cards), tr(f"combos/rows/{i}/name", row.name),
                                       tr(f"combos/rows/{i}/effect", row.effect)) for i, row in enumerate(combos.rows)))
    return replace(sheet, sections=sections, combos=combos, title=tr("title", sheet.title),
                   subtitle=tr("subtitle", sheet.subtitle), goal=tr("goal", sheet.goal),
                   card_heading=tr("card_heading", sheet.card_heading), copies_label=tr("copies_label", sheet.copies_label),
                   players_note=tr("players_note", sheet.players_note))

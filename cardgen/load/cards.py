"""load/cards: cards.yaml (or cards.csv) to the model's cards, series expanded, art found."""
from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypedDict

import yaml

from cardgen.inputs import images
from cardgen.inputs.paths import ART, inside
from cardgen.load import schema
from cardgen.load.fields import card_spec, read_value
from cardgen.load.parts import Parts
from cardgen.load.reader import URL_SCHEME, Values, did_you_mean
from cardgen.load.schema import Boolean, Identifier, Integer, Text
from cardgen.load.turns import read_play
from cardgen.model.fields import TEXT, FieldValue, shown
from cardgen.model.file_names import MAX_FILE_NAME_BYTES, card_file_name, slugify
from cardgen.model.game import ERROR, Attribute, Card, Color, Finding, Kind, Tag
from cardgen.model.texts import counted
from cardgen.model.turns import Play
from cardgen.model.where import Passage, Where

_PATTERN_FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)(?::(0?[0-9]{0,2}d)|\|([A-Za-z][A-Za-z -]{0,30}))?\}")


def fill_pattern(pattern: str, values: Mapping[str, FieldValue]) -> str:
    """Fill {name} / {name:02d} fields, and {name|point}: the number with its noun, singular for one
    ('1 point', '2 points'). Only plain names: no attribute access, no indexing."""

    def replace(match: re.Match[str]) -> str:
        name, spec, noun = match.group(1), match.group(2), match.group(3)
        if name not in values:
            raise ValueError(f"unknown field '{{{name}}}' in pattern '{pattern}'")
        value = values[name]
        if noun:
            if not isinstance(value, int):
                raise ValueError(f"'{{{name}|{noun}}}' needs a number")
            return counted(value, noun)
        if spec:
            if not isinstance(value, int):
                raise ValueError(f"'{{{name}:{spec}}}' needs a number")
            return format(value, spec)
        return shown(value)

    return _PATTERN_FIELD.sub(replace, pattern)


class _Shared(TypedDict):
    """What the cards of one entry share (a series' cards: all but their names, numbers and texts)."""

    color: str
    kinds: tuple[str, ...]
    tags: tuple[str, ...]
    star: bool
    symbol: str | None
    printed: bool
    back: str | None
    face: str | None
    deck: str | None
    low_res: bool
    play: Play | None
    where: Where
    places: dict[str, Passage]
    fields: dict[str, FieldValue]


class CardParts(Parts):
    """cards.yaml's part of the game builder."""

    def _cards(self, doc: yaml.Node, colors: tuple[Color, ...], tags: tuple[Tag, ...], kinds: tuple[Kind, ...],
               attributes: tuple[Attribute, ...]) -> tuple[Card, ...]:
        c = self.c
        top = c.mapping(doc, schema.CARDS)
        color_ids = [x.id for x in colors]
        tag_ids, kind_ids = [t.id for t in tags], [k.id for k in kinds]
        cards: list[Card] = []
        by_id: dict[str, Card] = {}
        for item in c.sequence(top.get("cards"), "cards"):
            for card in self._card_entries(item, color_ids, tag_ids, kind_ids, attributes):
                if card.id in by_id:
                    first = by_id[card.id].where
                    c.findings.append(Finding(ERROR, "duplicate-card",
                                              f"card '{card.name}' is defined twice (first at {first})",
                                              card.where, "card names must be unique, ignoring case"))
                    continue
                by_id[card.id] = card
                cards.append(card)
                self._check_file_name(card)
            if len(cards) > MAX_CARDS:
                c.error(item, "too-many-cards", f"more than {MAX_CARDS} card types")
                break
        return tuple(cards)

    def _check_file_name(self, card: Card) -> None:
        """A card's id names its exported images: their names must fit every file system."""
        longest = card_file_name(card.id)
        if len(longest.encode("utf-8")) > MAX_FILE_NAME_BYTES:
            self.c.findings.append(Finding(
                ERROR, "file-name-too-long", f"card '{card.name[:40]}...': its exported images' file names would be "
                f"{len(longest.encode('utf-8'))} bytes long; a file name may have {MAX_FILE_NAME_BYTES}",
                card.places["name"].where if "name" in card.places else card.where, "shorten the card's name"))

    def _card_entries(self, node: yaml.Node, color_ids: list[str], tag_ids: list[str], kind_ids: list[str],
                      attributes: tuple[Attribute, ...]) -> list[Card]:
        c = self.c
        m = c.mapping(node, card_spec(self.fields))
        if not m:
            return []
        if ("name" in m) == ("series" in m):
            c.error(node, "missing-field", "a card needs either 'name' or 'series' (not both)")
            return []
        if "color" not in m:
            return []
        color = m.read("color", Text, "")
        if color not in color_ids:
            c.error(m.get("color"), "unknown-color", f"unknown color '{color}'",
                    did_you_mean(color, color_ids) or f"colors are: {', '.join(color_ids)}")
            return []
        card_kinds = self._ids(m.get("kind"), kind_ids, "kind", "unknown-kind")
        card_tags = self._ids(m.get("tags"), tag_ids, "tag", "unknown-tag")
        label = getattr(m.get("name") or m.get("series"), "value", "")
        common = _Shared(
            color=color, kinds=card_kinds, tags=card_tags,
            star=m.read("star", Boolean, False),
            symbol=self._symbol(m, f"card '{label}'", c)
            if "symbol" in m else None,
            printed=m.read("print", Boolean, True),
            back=self._back_id(c, m.get("back")),
            face=m.read("face", Identifier),
            deck=self._deck_id(c, m.get("deck")),
            low_res=self._low_res(m),
            play=read_play(c, m.get("play"), label),
            where=c.where(node),
            places={"name": c.passage(m["name"] if "name" in m else m["series"]),
                    **{k: c.passage(m[k]) for k in (*TEXTS, "art", "face", "deck", *self._text_fields()) if k in m}},
            fields=self._field_values(m),
        )
        texts = {k: m.read(k, Text, "") for k in TEXTS}
        if "name" in m:
            name = m.read("name", Text, "").strip()
            if not name:
                c.error(m["name"], "missing-field", "card name is empty")
                return []
            number = m.read("number", Integer)
            labels = {} if number is None else {a.id: a.label_of(number) for a in attributes}
            card_id = m.read("id", Identifier, "") or slugify(name)
            values = {**({} if number is None else {"number": number}), **labels, **common["fields"]}
            filled = self._filled(m, {**texts, "art": m.read("art", Text, "")}, values)
            art = self._art(m.get("art"), filled.pop("art"), name)
            return [Card(id=card_id, name=name, number=number, attributes=labels, art_file=art, **filled, **common)]
        return self._series(m, texts, common, attributes)

    def _text_fields(self) -> list[str]:
        return [f.id for f in self.fields if f.type == TEXT]

    def _field_values(self, m: Values) -> dict[str, FieldValue]:
        """The card's values of the game's own fields: as written, else the field's default."""
        out: dict[str, FieldValue] = {}
        for f in self.fields:
            value = read_value(self.c, f, m[f.id]) if f.id in m else f.default
            if value is not None:
                out[f.id] = value
        return out

    def _filled(self, m: Values, texts: dict[str, str], values: dict[str, FieldValue]) -> dict[str, Any]:
        """A single card's texts (and art path) with their {field} patterns filled from the card's own
        values ("" where a pattern names no value: reported)."""
        out: dict[str, Any] = {}
        for key, text in texts.items():
            try:
                out[key] = fill_pattern(text, values)
            except ValueError as exc:
                self.c.error(m[key], "bad-pattern", str(exc), _PATTERN_HINT)
                out[key] = ""
        return out

    def _art(self, node: yaml.Node | None, value: str, card: str) -> Path | None:
        """A card's art file: a relative path to an image in the game folder or the shared art/ (never
        a URL, an absolute path, '..' or a symlink leading out) that the card renderer can draw."""
        c = self.c
        if not value:
            return None
        hint = "write a path inside the game folder, e.g. art/boom.png"
        if URL_SCHEME.match(value) or value.startswith(("/", "\\")) or "\\" in value \
                or ".." in value.split("/"):
            c.error(node, "art-path", f"card '{card}': art '{value}' must be a relative path to a file, not a URL, "
                    "an absolute path or a path with '..'", hint)
            return None
        too_long = next((part for part in value.split("/") if len(part.encode("utf-8")) > MAX_FILE_NAME_BYTES), None)
        if too_long is not None:
            c.error(node, "art-path", f"card '{card}': art '{value[:40]}...' has a file name longer than "
                    f"{MAX_FILE_NAME_BYTES} bytes, which no file system holds", hint)
            return None
        for base in (self.folder, ART):
            candidate = base / value
            if candidate.exists() or candidate.is_symlink():
                if not inside(candidate, [base]):
                    c.error(node, "art-outside", f"card '{card}': art '{value}' leads outside the game folder and art/",
                            "copy the file into the game folder instead of linking to it")
                    return None
                wrong = images.wrong_extension(candidate, drawings=False)
                if wrong:
                    c.error(node, "bad-art", f"card '{card}': art '{value}' {wrong}", images.HINT)
                    return None
                try:
                    images.checked(candidate, [base])
                except images.BadImage as exc:
                    c.error(node, "bad-art", f"card '{card}': art '{value}' {exc}", exc.hint)
                    return None
                return candidate.resolve()
        c.error(node, "art-not-found", f"card '{card}': art '{value}' does not exist in the game folder or art/", hint)
        return None

    def _low_res(self, m: Values) -> bool:
        value = m.read("low_res", Text, "")
        if value and value not in schema.LOW_RES:
            self.c.error(m["low_res"], "bad-low-res", f"low_res '{value}' is not 'ok'",
                         "write low_res: ok to print the card's art below 150 ppi, or leave it out")
        return value in schema.LOW_RES

    def _series(self, m: Values, texts: dict[str, str], common: _Shared,
                attributes: tuple[Attribute, ...]) -> list[Card]:
        c = self.c
        pattern = m.read("series", Text, "")
        if "id" in m:
            c.error(m["id"], "bad-id", "a series gets its cards' ids from their names: 'id' is for a single card",
                    "remove id, or write the cards one by one")
        if "numbers" not in m:
            return []  # reported with the card's keys
        rng = c.mapping(m["numbers"], schema.RANGE)
        low, high = rng.read("from", Integer), rng.read("to", Integer)
        if low is None or high is None:
            return []
        if high < low or high - low >= MAX_CARDS:
            c.error(m["numbers"], "number-out-of-range",
                    f"numbers {low}..{high} must count up and hold at most {MAX_CARDS} cards")
            return []
        cards = []
        art_pattern = m.read("art", Text, "")
        for number in range(low, high + 1):
            labels = {a.id: a.label_of(number) for a in attributes}
            values: dict[str, FieldValue] = {"number": number, **labels, **common["fields"]}
            try:
                name = fill_pattern(pattern, values)
                filled: dict[str, Any] = {k: fill_pattern(v, values) for k, v in texts.items()}
                art = fill_pattern(art_pattern, values)  # art/gold-{number}.png: a picture each
            except ValueError as exc:
                c.error(m["series"], "bad-pattern", str(exc), _PATTERN_HINT)
                return []
            cards.append(Card(id=slugify(name), name=name, number=number, attributes=labels,
                              art_file=self._art(m.get("art"), art, name), **filled, **common))
        return cards


MAX_CARDS = 5000
TEXTS = ("flavor", "text", "details")  # a card's built-in texts, which may hold {field} patterns
_PATTERN_HINT = "use {number}, {number:02d}, an attribute id or one of the game's fields"

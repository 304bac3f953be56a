"""load/faces: the card faces, art/faces/default.yaml and a game's own (layout.yaml's `faces:`, or
files it names), resolved into the model's elements once: `extends` merged (an element of the
same id changes the base's, a new id is added, `remove:` drops ids), the old layout keys
(`name: {size: 12}`) applied to the default face's elements of those ids (LEGACY), every value
checked at its line."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

from cardgen.inputs.paths import ART
from cardgen.load.reader import Reader, Values, did_you_mean, leads_out
from cardgen.load.schema import (
    HEX_PATTERN,
    AnyOf,
    Boolean,
    Field,
    Fields,
    Identifier,
    Integer,
    ListOf,
    Number,
    Table,
    Text,
    TextList,
)
from cardgen.model import conditions
from cardgen.model.faces import (
    ALIGNS,
    ALONG,
    ANCHORS,
    BACK_FACE,
    DEFAULT_FACE,
    DERIVED_COLORS,
    FITS,
    IMAGE,
    PATTERN,
    REPEAT,
    ROTATIONS,
    SHAPE,
    SHAPES,
    SIDES,
    SYMBOL,
    TAGS,
    TEXT,
    VALIGNS,
    Element,
    Face,
    Faces,
)
from cardgen.model.game import ERROR, Finding
from cardgen.model.where import Where

SHIPPED_FACES = {DEFAULT_FACE: ART / "faces" / "default.yaml", BACK_FACE: ART / "faces" / "back.yaml"}
KIND_KEYS = {"text": TEXT, "image": IMAGE, "symbol": SYMBOL, "shape": SHAPE, "repeat": REPEAT, "tags": TAGS,
             "pattern": PATTERN}
COLOR_KEYS = ("color", "fill", "border")
CHOICES = {"shape": SHAPES, "align": ALIGNS, "valign": VALIGNS, "fit": FITS, "along": ALONG, "anchor": ANCHORS}
_COLOR_DOC = '"#rrggbb", or from the card\'s color: ' + ", ".join(DERIVED_COLORS)
_LENGTH = Number(-400, 400)
_SIZE = Number(0, 400)

ELEMENT: Fields = Fields("face element", {}, shared="element",
                         doc="one of text, image, symbol, shape, repeat or tags (or the id of an element the face "
                             "extends, with what changes)")
ELEMENT.fields.update({
    "id": Field(Identifier(), label="element id", doc="what extends and the old layout keys name it by"),
    "text": Field(Text(), doc="a pattern: each {field} is the card's value, e.g. 'Deal {attack} damage'"),
    "image": Field(Text(), doc="art (the card's art) or a file pattern under the game folder: art/{suit}.png"),
    "symbol": Field(Text(), doc="a symbol name, {field}, or card (the card's own symbol)"),
    "shape": Field(Text(choices=SHAPES)),
    "repeat": Field(Text(), doc="how many times to draw element: a number or {field}"),
    "tags": Field(Text(), doc="{tags}: the card's tags as pills centred in the box"),
    "pattern": Field(Text(), doc="symbols tiled over the box: colors (the game's colors' symbols), a name or {field}"),
    "element": Field(ELEMENT, doc="the element a repeat draws (its first place)"),
    "when": Field(Text(), doc="a condition on the card's fields: kind == creature, attack, cost >= 3 and not star"),
    "x": Field(_LENGTH, doc="mm from the card's left edge"), "y": Field(_LENGTH, doc="mm from the top edge"),
    "width": Field(_SIZE), "height": Field(_SIZE),
    "bleed": Field(Boolean(), doc="decoration meant to run off the edge (on into the bleed)"),
    "rotation": Field(Integer(0, 270), doc="0, 90, 180 or 270 degrees anticlockwise about the box's centre"),
    "insets": Field(TextList(), doc="edges (left, right, top, bottom) whose distance scales by the smaller ratio "
                                    "on another card size: an inset alike on every side"),
    "anchor": Field(Text(choices=ANCHORS), doc="center: on another card size the element scales by the smaller "
                                               "ratio about the card's centre, keeping its shape"),
    "font": Field(Text(), doc="a font role of fonts:"), "size": Field(Number(1, 200), doc="points"),
    "min_size": Field(Number(1, 200), doc="shrinks to fit down to this, never cut"),
    "leading": Field(Number(0.8, 3)), "align": Field(Text(choices=ALIGNS)), "valign": Field(Text(choices=VALIGNS)),
    "color": Field(Text(), doc=_COLOR_DOC), "padding": Field(Number(0, 100)),
    "line": Field(Boolean(), doc="one line, shrunk to the box's width"),
    "markup": Field(Boolean(), doc="**bold**, *italic*, :symbol: in the values (default true)"),
    "same_size": Field(Boolean(), doc="one size on every card"),
    "one_line_min": Field(Number(0, 200)), "split_words": Field(Boolean()), "shadow": Field(Number(0, 20)),
    "hug": Field(Number(0, 100), doc="mm: the fill and border drawn behind the set text, this far above and below it"),
    "step": Field(Number(0.5, 400), doc="mm between a pattern's symbols"),
    "tile": Field(Number(0.1, 400), doc="mm: a pattern's symbol size"),
    "tilt": Field(Number(-180, 180), doc="degrees anticlockwise: each symbol of a pattern"),
    "fit": Field(Text(choices=FITS)), "fill": Field(Text(), doc=_COLOR_DOC), "border": Field(Text(), doc=_COLOR_DOC),
    "border_width": Field(Number(0, 20), doc="points"), "radius": Field(Number(0, 100)),
    "along": Field(Text(choices=ALONG)), "gap": Field(Number(0, 100)), "columns": Field(Integer(0, 100)),
    "label": Field(Text(), doc="its callout in the rulebook's card diagram (none: no callout); the shipped "
                               "face's are the diagram's own parts: name, symbol, star, number, flavor, art, "
                               "tags, text"),
    "callout_x": Field(Number(-2, 3), doc="where the callout sits: a part of the box's width from its left"),
    "callout_y": Field(Number(-2, 3), doc="where the callout sits: a part of the box's height from its top"),
})
FACE = Fields("face", {
    "extends": Field(Identifier(), doc="the face this one changes (e.g. default: the shipped face)"),
    "for": Field(Text(), doc="the cards that take this face: a condition, e.g. kind == creature"),
    "elements": Field(ListOf(ELEMENT), doc="drawn in order; an id of the face it extends changes that element"),
    "remove": Field(TextList(), doc="ids of the extended face's elements this face leaves out"),
})
FACES_KEYS = {
    "face": Field(Identifier(), doc="the face every card takes unless its own face: or a face's for: says otherwise"),
    "faces": Field(Table(Identifier(), AnyOf((Text(), FACE))), doc="faces by id: a face, or the .yaml file holding one"),
}
_ELEMENT_PARAMS = {f.name for f in fields(Element)}

# the old layout keys: which default-face elements each section of card-layout.yaml sets
LEGACY: Mapping[str, tuple[str, ...]] = {
    "frame": ("design",), "panel": ("design", "frame"), "symbol-badge": ("symbol",), "symbol": ("symbol",),
    "star-outline": ("star",), "star": ("star",), "number-badge": ("number",), "number": ("number",),
    "name": ("name",), "flavor": ("flavor",), "art": ("art",), "tags": ("tags", "art", "frame"),
    "text-box": ("text",), "text": ("text",),
    "background": ("design",), "pattern": ("design", "back"), "border": ("design", "back"),
    **{f"emblem-{side}{part}": ("design", "back") for side in ("top", "bottom") for part in ("", "-symbol")},
    "title": ("design", "back")}
TITLE_IN_BORDER = 0.81  # mm from the back's border line to its title's box: the pill just inside the border
TITLE_LEAST = 0.3  # of the card's width: the back's title's box however far in its border is
PLACING = ("x", "y", "width", "height", "radius", "size", "padding")


def legacy_params(s: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """The default face's element settings the old layout sections give (art/faces/default.yaml
    is these at card-layout.yaml's values; a test keeps them in step)."""
    width, height = s["design"]["width"], s["design"]["height"]
    frame, symbol, star, number, art, tags = (s[k] for k in ("frame", "symbol", "star", "number", "art", "tags"))

    def around(spot: Mapping[str, Any], half: float) -> dict[str, float]:
        return {"x": spot["x"] - half, "y": spot["y"] - half, "width": 2 * half, "height": 2 * half}

    def keys(section: str, *names: str) -> dict[str, Any]:
        return {name: s[section][name] for name in ("x", "y", "width", "height", *names)}

    type_keys = ("font", "size", "min_size", "leading")
    radius = number["radius"]
    return {
        "frame": {"width": width, "height": height},
        "panel": {"x": frame["inset"], "y": frame["header"], "width": width - 2 * frame["inset"],
                  "height": height - frame["header"] - frame["inset"], "radius": frame["radius"], "fill": frame["panel"]},
        "symbol-badge": {**around(symbol, symbol["radius"]), "fill": symbol["badge"]},
        "symbol": around(symbol, symbol["size"] / 2),
        "star-outline": {**around(star, star["size"] * 1.3 / 2), "color": star["outline"]},
        "star": {**around(star, star["size"] / 2), "color": star["fill"]},
        "number-badge": {**around(number, radius), "fill": number["badge"]},
        "number": {"x": number["x"] - 0.8 * radius, "y": number["y"] - radius, "width": 1.6 * radius,
                   "height": 2 * radius, "font": number["font"], "size": number["size"]},
        "name": keys("name", *type_keys, "one_line_min", "shadow"),
        "flavor": keys("flavor", *type_keys, "color"),
        "art": {**keys("art", "radius"), "border_width": art["border"]},
        "tags": {"x": art["x"], "width": art["width"], "y": tags["y"], "height": tags["height"], "gap": tags["gap"],
                 "font": tags["font"], "size": tags["size"], "fill": tags["fill"], "color": tags["color"],
                 "border": frame["panel"]},
        "text-box": {**keys("text", "radius", "fill"), "border_width": s["text"]["border"]},
        "text": keys("text", *type_keys, "padding", "color"),
    }


def back_legacy_params(s: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """The back face's element settings the old back: section gives (its colors stay the back's own:
    back-background, ...; art/faces/back.yaml is these at card-layout.yaml's values)."""
    width, height, back = s["design"]["width"], s["design"]["height"], s["back"]
    inset, radius, distance = back["inset"], back["emblem_radius"], back["emblem_distance"]

    def around(y: float, half: float) -> dict[str, float]:
        return {"x": width / 2 - half, "y": y - half, "width": 2 * half, "height": 2 * half}

    emblems: dict[str, dict[str, Any]] = {}
    for side, y in (("top", height / 2 - distance), ("bottom", height / 2 + distance)):
        emblems[f"emblem-{side}"] = around(y, radius)
        emblems[f"emblem-{side}-symbol"] = around(y, 1.25 * radius / 2)
    title_height = 0.3 * height + 0.08 * width  # its lines' room (0.3 of the card) and the padding
    title_x = min(inset + TITLE_IN_BORDER, (1 - TITLE_LEAST) / 2 * width)
    return {
        "background": {"width": width, "height": height},
        "pattern": {"width": width, "height": height, "step": back["pattern_step"], "tile": back["pattern_size"]},
        "border": {"x": inset, "y": inset, "width": width - 2 * inset, "height": height - 2 * inset,
                   "radius": back["radius"]},
        **emblems,
        "title": {"x": title_x, "width": width - 2 * title_x, "padding": 0.04 * width, "y": (height - title_height) / 2,
                  "height": title_height, "font": back["title_font"], "size": back["title_size"]},
    }


@dataclass
class _Raw:
    """An element as read: its settings (typed) before extends merges and builds it."""

    params: dict[str, Any]
    where: Where
    nodes: dict[str, yaml.Node] = field(default_factory=dict)


@dataclass
class _RawFace:
    id: str
    elements: list[_Raw]
    reader: Reader
    extends: str | None = None
    extends_node: yaml.Node | None = None
    cards: conditions.Condition | None = None
    remove: tuple[str, ...] = ()
    where: Where | None = None


class FaceReader:
    """Reads the faces of one game: the shipped default and the game's own."""

    def __init__(self, folder: Path, roles: tuple[str, ...]):
        self.folder, self.roles = folder, roles
        self.findings: list[Finding] = []
        self._merged: dict[str, list[_Raw]] = {}  # each face's elements as read, extends merged

    def read(self, reader: Reader, faces_node: yaml.Node | None, face_node: yaml.Node | None,
             settings: Mapping[str, Mapping[str, Any]], places: Mapping[str, Where]) -> Faces:
        raw = {DEFAULT_FACE: self._shipped(DEFAULT_FACE, legacy_params(settings), places),
               BACK_FACE: self._shipped(BACK_FACE, back_legacy_params(settings), places)}
        for key_node, value_node in reader.free_mapping(faces_node, "faces") if faces_node is not None else []:
            face_id = reader.identifier(key_node, "face id")
            if face_id is None:
                continue
            if face_id in SHIPPED_FACES:
                reader.error(key_node, "bad-setting", f"faces: '{face_id}' is a shipped face's id",
                             "give the face another id (it may extend: default)")
                continue
            face = self._face_file(reader, value_node, face_id) if isinstance(value_node, yaml.ScalarNode) \
                else self._face(reader, value_node, face_id)
            if face is not None:
                raw[face_id] = face
        resolved: dict[str, Face] = {}
        for face_id in raw:
            self._resolve(raw, face_id, resolved, [])
        default = DEFAULT_FACE
        if face_node is not None:
            wanted = reader.identifier(face_node, "face")
            if wanted in resolved:
                default = wanted
            elif wanted is not None:
                reader.error(face_node, "unknown-face", f"face: no face '{wanted}'",
                             did_you_mean(wanted, resolved) or f"faces are: {', '.join(resolved)}")
        ordered = {k: resolved[k] for k in raw if k in resolved}
        return Faces(ordered, default, reader.where(face_node) if face_node is not None else None)

    # -- reading

    def _shipped(self, face_id: str, legacy: Mapping[str, Mapping[str, Any]], places: Mapping[str, Where]) -> _RawFace:
        reader = Reader(SHIPPED_FACES[face_id], game_folder=ART)
        face = self._face(reader, reader.document(), face_id)
        if face is None or reader.findings:
            raise ValueError(f"the shipped face {SHIPPED_FACES[face_id]} is broken: {reader.findings}")
        for element in face.elements:
            sections = LEGACY.get(element.params.get("id", ""), ())
            touched = [section for section in sections if section in places]
            if touched:  # the game's layout.yaml changes this element with the old keys
                element.params.update(legacy[element.params["id"]])
                element.where = next((places[f"{t}.{key}"] for t in touched for key in PLACING
                                      if f"{t}.{key}" in places), places[touched[0]])
        return face

    def _face_file(self, reader: Reader, node: yaml.ScalarNode, face_id: str) -> _RawFace | None:
        name = reader.text(node, f"face {face_id}")
        path = (self.folder / name)
        if not name.endswith((".yaml", ".yml")) or ".." in Path(name).parts or Path(name).is_absolute():
            reader.error(node, "bad-face-file", f"faces: {face_id}: '{name}' should be a .yaml file in the game folder",
                         "e.g. faces/creature.yaml")
            return None
        if not path.is_file():
            reader.error(node, "face-file-not-found", f"faces: {face_id}: no file {name} in the game folder",
                         "create it, or fix the name")
            return None
        own = Reader(path, game_folder=self.folder)
        document = None if leads_out(own, self.folder) else own.document()
        face = self._face(own, document, face_id) if document is not None else None
        self.findings.extend(own.findings)
        return face

    def _face(self, reader: Reader, node: yaml.Node | None, face_id: str) -> _RawFace | None:
        values = reader.mapping(node, FACE, f"face {face_id}")
        if not isinstance(node, yaml.MappingNode):
            return None
        face = _RawFace(face_id, [], reader, where=reader.where(node))
        if "extends" in values:
            face.extends, face.extends_node = values.read("extends", Identifier), values["extends"]
        if "for" in values:
            face.cards = self._condition(reader, values["for"], f"face {face_id}: for")
        face.remove = values.read("remove", TextList, ())
        for item in reader.sequence(values.get("elements"), f"face {face_id}: elements"):
            element = self._element(reader, item, face_id)
            if element is not None:
                face.elements.append(element)
        return face

    def _element(self, reader: Reader, node: yaml.Node, face_id: str) -> _Raw | None:
        what = f"face {face_id}: element"
        values = reader.mapping(node, ELEMENT, what)
        if not isinstance(node, yaml.MappingNode):
            return None
        raw = _Raw({}, reader.where(node), dict(values))
        for key in values:
            value = self._value(reader, values, key, what)
            if value is not None:
                raw.params[key] = value
        if "element" in values:
            inner = self._element(reader, values["element"], face_id)
            raw.params["element"] = inner
        return raw

    def _value(self, reader: Reader, values: Values, key: str, what: str) -> object:
        node = values[key]
        if key == "element":
            return None
        if key == "when":
            return self._condition(reader, node, f"{what} when")
        value = values.value(key)
        if value is None:
            return None
        if isinstance(value, str):
            return self._text_value(reader, node, key, value, what)
        if key == "insets" and isinstance(value, tuple):
            if wrong := [side for side in value if side not in SIDES]:
                reader.error(node, "bad-setting", f"{what}: insets '{wrong[0]}' is not one of {', '.join(SIDES)}",
                             did_you_mean(wrong[0], SIDES))
                return None
            return value
        if key == "rotation" and value not in ROTATIONS:
            reader.error(node, "bad-setting", f"{what}: rotation {value} is not 0, 90, 180 or 270")
            return None
        return value

    def _text_value(self, reader: Reader, node: yaml.Node, key: str, value: str, what: str) -> str | None:
        if key in CHOICES and value not in CHOICES[key]:
            reader.error(node, "bad-setting", f"{what}: {key} '{value}' is not one of {', '.join(CHOICES[key])}",
                         did_you_mean(value, CHOICES[key]))
            return None
        if key in COLOR_KEYS and not (HEX_PATTERN.match(value) or value in DERIVED_COLORS or value == ""):
            reader.error(node, "bad-color", f"{what}: {key} '{value}' is not a color",
                         did_you_mean(value, DERIVED_COLORS) or f'write "#rrggbb" or one of {", ".join(DERIVED_COLORS)}')
            return None
        if key == "font" and value not in self.roles:
            reader.error(node, "unknown-font-role", f"{what}: no font role '{value}'",
                         did_you_mean(value, self.roles) or f"use one of: {', '.join(self.roles)}")
            return None
        return value.lower() if key in COLOR_KEYS else value

    @staticmethod
    def _condition(reader: Reader, node: yaml.Node, what: str) -> conditions.Condition | None:
        text = reader.text(node, what)
        try:
            return conditions.parse_condition(text)
        except conditions.ConditionError as exc:
            mark = node.start_mark
            quoted = int(getattr(node, "style", None) in ("'", '"'))
            where = Where(reader.name, mark.line + 1, mark.column + 1 + quoted + exc.column)
            reader.findings.append(reader_error(where, f"{what}: {exc}", "e.g. kind == creature, attack, cost >= 3",
                                                "bad-expression"))
            return None

    # -- resolving

    def _resolve(self, raw: Mapping[str, _RawFace], face_id: str, done: dict[str, Face], stack: list[str]) -> None:
        if face_id in done or face_id not in raw:
            return
        face = raw[face_id]
        base: list[_Raw] = []
        if face.extends is not None:
            if face.extends in stack or face.extends == face_id:
                loop = stack[stack.index(face.extends):] if face.extends in stack else []
                cycle = " -> ".join([*loop, face_id, face.extends])
                face.reader.error(face.extends_node, "face-cycle", f"face {face_id}: extends makes a cycle: {cycle}",
                                  "one of these faces must extend another face (or none)")
                return
            if face.extends not in raw:
                face.reader.error(face.extends_node, "unknown-face", f"face {face_id}: extends no face '{face.extends}'",
                                  did_you_mean(face.extends, raw) or f"faces are: {', '.join(raw)}")
                return
            self._resolve(raw, face.extends, done, [*stack, face_id])
            if face.extends not in done:
                return
            base = self._merged.get(face.extends, [])
        merged = [_Raw(dict(e.params), e.where, e.nodes) for e in base]
        by_id = {e.params["id"]: e for e in merged if "id" in e.params}
        for element in face.elements:
            ident = element.params.get("id")
            if ident not in by_id:
                merged.append(element)
                if ident:
                    by_id[ident] = element
                continue
            target = by_id[ident]
            if any(key in element.params for key in KIND_KEYS):  # another element in its place
                target.params = dict(element.params)
            else:
                target.params.update(element.params)
            target.where = element.where
        for ident in face.remove:
            if ident not in by_id:
                self.findings.append(reader_error(face.where or face.reader.where(None),
f"face {face_id}: remove: no element '{ident}' in face {face.extends}",
                                                  did_you_mean(ident, by_id) or f"its elements are: {', '.join(by_id)}"))
        merged = [e for e in merged if e.params.get("id") not in face.remove]
        self._merged[face_id] = merged
        built = [self._built(face.reader, e, face_id) for e in merged]
        done[face_id] = Face(face_id, tuple(e for e in built if e is not None), face.cards, face.where)

    def _built(self, reader: Reader, raw: _Raw, face_id: str) -> Element | None:
        kinds = [key for key in KIND_KEYS if key in raw.params]
        name = raw.params.get("id") or "without id"
        if len(kinds) != 1:
            problem = "has none" if not kinds else f"has {len(kinds)}: {', '.join(kinds)}"
            self.findings.append(reader_error(raw.where, f"face {face_id}: element {name} needs one of "
                                              f"{', '.join(KIND_KEYS)}; it {problem}",
                                              "an element changing one of the extended face's gives its id"))
            return None
        kind = KIND_KEYS[kinds[0]]
        params = {key: value for key, value in raw.params.items() if key in _ELEMENT_PARAMS and key != "kind"}
        if kind == REPEAT:
            params["count"] = raw.params["repeat"]
            inner = raw.params.get("element")
            params["item"] = self._built(reader, inner, face_id) if isinstance(inner, _Raw) else None
            if params["item"] is None:
                self.findings.append(reader_error(raw.where, f"face {face_id}: repeat {name} needs an element to repeat"))
                return None
        if kind == TAGS:
            params["text"] = raw.params["tags"]
        params.pop("element", None)
        return Element(kind=kind, where=raw.where, **params)


def reader_error(where: Where, message: str, hint: str = "", code: str = "bad-face") -> Finding:
    return Finding(ERROR, code, message, where, hint)

"""load/layout: the card design, art/card-layout.yaml with the game's layout.yaml merged over it.

Every setting's type comes from its default: a number (with the range below), a color
("#rrggbb", or `auto` where the default is auto: the renderer derives it), a font role (`font`, `*_font`), a TrueType file (the `fonts` section) or a symbol
(`emblem`). The game's file may only name settings the default has; each value is checked
where it is typed, so the renderer receives a design it can draw.
"""
from __future__ import annotations

import io
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from cardgen.inputs.files import MAX_FONT_BYTES, UnreadableInput, read_input
from cardgen.inputs.paths import ART, inside
from cardgen.load.faces import FACES_KEYS, FaceReader
from cardgen.load.reader import Reader, Values, leads_out
from cardgen.load.schema import Field, Fields, HexColor, Number, Text
from cardgen.model.faces import Faces
from cardgen.model.game import AUTO
from cardgen.model.layout import (
    ArtBox,
    BackDesign,
    DesignSize,
    EffectBox,
    FlavorBox,
    FontFiles,
    Frame,
    Layout,
    NameBox,
    NumberBadge,
    Star,
    SymbolBadge,
    Tags,
)
from cardgen.model.where import Where

DEFAULT_LAYOUT = ART / "card-layout.yaml"
SHARED_FONTS = ART / "fonts"
# settings that break the drawing (or take forever) outside these ranges; other numbers: 0 to 1000
RANGES = {"design.width": (10, 400), "design.height": (10, 400), "design.corner": (0, 20), "leading": (0.8, 3), "size": (1, 200),
          "min_size": (1, 200), "one_line_min": (1, 200), "title_size": (4, 200), "pattern_step": (2, 100),
          "pattern_size": (0.5, 100), "width": (1, 1000), "height": (1, 1000)}
DEFAULT_RANGE = (0, 1000)
Settings = dict[str, dict[str, Any]]  # section -> key -> value: a layout's settings (YAML data, then read as declared)


@lru_cache(maxsize=1)
def default_settings() -> Settings:
    """The shipped design (cardgen's own file, trusted)."""
    with open(DEFAULT_LAYOUT, encoding="utf-8") as handle:  # libyaml's loader where installed: read at import
        settings: Settings = yaml.load(handle, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return settings


def _declared(section: str, key: str, default: Any) -> Field:
    """A setting's type, from its default: a number in its range, a color, or text (font files,
    font roles and the emblem are checked further by read_layout)."""
    label = f"layout {section}.{key}"
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        return Field(Number(*range_of(section, key)), label=label)
    if is_font_role(key):
        return Field(Text(choices=tuple(default_settings()["fonts"])), label=label, doc="a font role of fonts:")
    if default == AUTO:
        return Field(HexColor(auto=True), label=label, doc='"#rrggbb", or auto: derived from the game\'s colors')
    return Field(HexColor() if str(default).startswith("#") else Text(), label=label)


def range_of(section: str, key: str) -> tuple[float, float]:
    return RANGES.get(f"{section}.{key}", RANGES.get(key, DEFAULT_RANGE))


def is_font_role(key: str) -> bool:
    return key == "font" or key.endswith("_font")


LAYOUT = Fields("layout.yaml", {
    **{section: Field(Fields(f"layout {section}", {key: _declared(section, key, value) for key, value in values.items()}))
       for section, values in default_settings().items()},
    **FACES_KEYS})


def read_layout(folder: Path, reader: Reader, symbol_refs: list[tuple[str, Where, str]]) -> Layout:
    """The merged design; problems go to `reader` (a Reader of <folder>/layout.yaml), each at its
    node. The symbols it names go into `symbol_refs` as (name, where, what names it)."""
    default = default_settings()
    settings = {section: dict(values) for section, values in default.items()}
    node = None
    places: dict[str, Where] = {}
    if reader.path.exists() and not leads_out(reader, folder):
        node = reader.document()
    sections: dict[str, yaml.Node] = {}
    face_keys: dict[str, yaml.Node] = {}
    if node is not None:
        sections = dict(reader.mapping(node, LAYOUT))
        face_keys = {key: sections.pop(key) for key in FACES_KEYS if key in sections}
        for section, section_node in sections.items():
            values = reader.mapping(section_node, LAYOUT.fields[section].type.as_(Fields))
            places[section] = reader.where(section_node)
            for key, value_node in values.items():
                places[f"{section}.{key}"] = reader.where(value_node)
                value = _setting(reader, values, section, key)
                if value is not None:
                    settings[section][key] = value
                if key == "emblem" and isinstance(value, str) and value:
                    symbol_refs.append((value, reader.where(value_node), f"layout {section}.{key}"))
        _check_font_roles(reader, sections, settings)
        _check_padding(reader, sections, settings)
    faces = FaceReader(folder, tuple(settings["fonts"]))
    read_faces = faces.read(reader, face_keys.get("faces"), face_keys.get("face"), settings, places)
    reader.findings.extend(faces.findings)
    return _layout(settings, _font_files(folder, reader, settings["fonts"], sections), places, read_faces)


def _check_padding(reader: Reader, sections: Mapping[str, yaml.Node], settings: Settings) -> None:
    """A box's padding leaves room inside it (else text cannot be set at all): the padding that
    is too large goes back to the default, reported at its line."""
    for section, values in settings.items():
        if not {"width", "height", "padding"} <= set(values):
            continue
        room = min(values["width"], values["height"]) / 2
        if values["padding"] >= room:
            where = reader.mapping(sections[section], LAYOUT.fields[section].type.as_(Fields)).get("padding") \
                if section in sections else None
            reader.error(where, "bad-setting", f"layout {section}.padding {values['padding']:g} leaves no room "
                         f"inside the {values['width']:g} x {values['height']:g} box",
                         f"give a padding below {room:g}")
            values["padding"] = default_settings()[section]["padding"]


def _layout(settings: Mapping[str, Mapping[str, Any]], fonts: Mapping[str, Path],
            places: Mapping[str, Where], faces: Faces) -> Layout:
    """The checked settings as the model's typed sections."""
    return Layout(
        design=DesignSize(**settings["design"]), font_files=FontFiles(**settings["fonts"]),
        frame=Frame(**settings["frame"]), symbol=SymbolBadge(**settings["symbol"]), star=Star(**settings["star"]),
        number=NumberBadge(**settings["number"]), name=NameBox(**settings["name"]),
        flavor=FlavorBox(**settings["flavor"]), art=ArtBox(**settings["art"]), tags=Tags(**settings["tags"]),
        text=EffectBox(**settings["text"]), back=BackDesign(**settings["back"]), fonts=fonts, places=places,
        faces=faces)


def _setting(reader: Reader, values: Values, section: str, key: str) -> object:
    """One value of the game's layout.yaml, read as declared; None (reported) when wrong."""
    name = f"layout {section}.{key}"
    if section == "fonts":
        return _font_name(reader, values[key], name)
    if key == "emblem":
        value = values.value(key)
        return value if not value or reader.identifier(values[key], name) else None
    return values.value(key)


def _font_name(reader: Reader, node: yaml.Node, name: str) -> str | None:
    value = reader.text(node, name)
    if "/" in value or "\\" in value or not value.lower().endswith(".ttf"):
        reader.error(node, "bad-font", f"{name}: '{value}' should be the name of a .ttf file in fonts/",
                     "ReportLab needs TrueType outlines: .ttf, not CFF .otf")
        return None
    return value


def _check_font_roles(reader: Reader, sections: Mapping[str, yaml.Node], settings: Settings) -> None:
    roles = list(settings["fonts"])
    for section, section_node in sections.items():
        if not isinstance(section_node, yaml.MappingNode):
            continue
        for key_node, value_node in section_node.value:
            key = getattr(key_node, "value", None)
            if isinstance(key, str) and is_font_role(key) and settings[section].get(key) not in roles:
                reader.error(value_node, "unknown-font-role",
                             f"layout {section}.{key}: no font role '{settings[section].get(key)}'",
                             f"use one of: {', '.join(roles)}")


def _font_files(folder: Path, reader: Reader, fonts: Mapping[str, str], sections: Mapping[str, yaml.Node]) -> dict[str, Path]:
    """Each role's font file: <game>/fonts/<file>, else art/fonts/<file>; a game's own font must
    be a TrueType file ReportLab can read."""
    fonts_node = sections.get("fonts")
    pairs = fonts_node.value if isinstance(fonts_node, yaml.MappingNode) else []  # else reported as a wrong type
    nodes = {getattr(k, "value", None): v for k, v in pairs}
    files = {}
    for role, file in fonts.items():
        node = nodes.get(role)
        path = _find_font(folder, file)
        if path is None:
            reader.error(node, "font-not-found", f"layout fonts.{role}: font '{file}' not found in "
                         f"{folder.name}/fonts/ or art/fonts/", "put the .ttf file in the game's fonts/ folder")
        elif not inside(path, (folder, ART)):
            reader.error(node, "font-outside", f"layout fonts.{role}: font {file} lies outside the game folder and art/",
                         "copy the font into the game's fonts/ folder")
        elif not inside(path, (ART,)) and (problem := font_problem(path)):
            reader.error(node, "bad-font", f"layout fonts.{role}: font {file} cannot be used: {problem}",
                         "use a TrueType (.ttf) font file")
        else:
            files[role] = path
    return files


def _find_font(folder: Path, file: str) -> Path | None:
    for base in (folder / "fonts", SHARED_FONTS):
        path = base / file
        if path.exists() or path.is_symlink():  # a pipe or folder of that name is refused when read
            return path
    return None


def font_problem(path: Path) -> str | None:
    """Why ReportLab cannot use the font file (what the card renderer registers), or None."""
    from reportlab.pdfbase.ttfonts import TTFont

    try:
        TTFont("cardgen-check", io.BytesIO(read_input(path, MAX_FONT_BYTES)))
    except UnreadableInput as exc:
        return str(exc)
    except Exception as exc:  # ReportLab raises plain exceptions on unusable fonts
        return str(exc) or exc.__class__.__name__
    return None

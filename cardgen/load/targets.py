"""load/targets: the export targets (print services, Tabletop Simulator), from the table shipped in
art/export-targets.yaml and the game's own export-targets.yaml, which adds or replaces entries.
Checked here like the rest of the data, so that `cardgen export` never meets a bad entry."""
from __future__ import annotations

from pathlib import Path

import yaml

from cardgen.inputs.paths import ART
from cardgen.load.reader import Reader, Values, did_you_mean
from cardgen.load.schema import ID_PATTERN, MAX_NAME, Field, Fields, Integer, ListOf, Number, Table, Text, declared
from cardgen.model.game import Finding, Game
from cardgen.model.sizes import CARD_SIZES_MM, COLOR_MODES, DEFAULT_BLEED_MM, DPI_RANGE
from cardgen.model.targets import CardPixels, Target, TtsSheet

SHIPPED = ART / "export-targets.yaml"

# export-targets.yaml (art/ and a game's own): what print services and Tabletop Simulator want
EXPORT_FORMATS = ("png", "1up-pdf", "tts")
MAX_PIXELS = 20_000
CARD_PIXELS = Fields("card size", {
    "trim": Field(ListOf(Number(1, MAX_PIXELS)), True, doc="trimmed width and height in pixels"),
    "bleed": Field(Number(0, MAX_PIXELS / 10), True, doc="bleed on each side, in pixels"),
    "safe": Field(Number(0, MAX_PIXELS / 10), doc="the safe zone inside the trim line, in pixels"),
})
TTS_SHEET = Fields("sheet", {
    "columns": Field(Integer(2, 10), True), "rows": Field(Integer(2, 7), True),
    "max_pixels": Field(Integer(256, 16384), True, doc="the largest side of a sheet image"),
})
EXPORT_TARGET = Fields("export target", {
    "name": Field(Text(MAX_NAME), True, doc="the service's name"),
    "format": Field(Text(choices=EXPORT_FORMATS), True),
    "dpi": Field(Integer(*DPI_RANGE), True),
    "sizes": Field(Table(Text(), CARD_PIXELS), doc=f"per card size ({', '.join(CARD_SIZES_MM)}); none: the game's own"),
    "bleed_mm": Field(Number(0, 10), doc="with no sizes: the bleed around the game's card size"),
    "color": Field(Text(choices=COLOR_MODES), doc="1up-pdf: rgb (default) or cmyk (PDF/X-1a in the shipped profile)"),
    "sheet": Field(TTS_SHEET, doc="tts: the grid and largest size of a deck sheet"),
})








def check_build_exports(game: Game, targets: dict[str, Target], node: yaml.Node | None, reader: Reader) -> None:
    """game.yaml's exports: each a known target that makes cards of the game's size."""
    nodes = node.value if isinstance(node, yaml.SequenceNode) else [node] * len(game.exports)
    for name, node in zip(game.exports, nodes):
        target = targets.get(name)
        if target is None:
            reader.error(node, "unknown-export-target", f"exports: no export target '{name}'",
                         did_you_mean(name, targets) or f"targets are: {', '.join(targets)}")
        elif problem := next(filter(None, (target.missing_product(d.card_size) for d in game.every_deck)), None):
            reader.error(node, "no-product", f"exports: {problem}", target.product_hint())


def load_targets(game_folder: Path) -> tuple[dict[str, Target], list[Finding]]:
    """Every target: the shipped ones, then the game's own (same id: the game's wins)."""
    targets: dict[str, Target] = {}
    findings: list[Finding] = []
    for path in (SHIPPED, game_folder / "export-targets.yaml"):
        if path != SHIPPED and not path.exists():
            continue
        reader = Reader(path, game_folder=game_folder if path != SHIPPED else None)
        targets.update(_targets(reader, reader.document()))
        findings += reader.findings
    return targets, findings


def _targets(r: Reader, doc: yaml.Node | None) -> dict[str, Target]:
    if doc is None:
        return {}
    if not isinstance(doc, yaml.MappingNode):
        r.error(doc, "wrong-type", "export targets should be a mapping: a target name, then its entry")
        return {}
    out: dict[str, Target] = {}
    for key_node, node in doc.value:
        name = r.text(key_node, "export target name")
        if not ID_PATTERN.match(name):
            r.error(key_node, "bad-id", f"export target '{name}' is not a valid name",
                    "use lower-case letters, digits, '-' or '_'")
            continue
        target = _target(r, name, node)
        if target:
            out[name] = target
    return out


def _target(r: Reader, name: str, node: yaml.Node) -> Target | None:
    before = len(r.findings)
    m = r.mapping(node, EXPORT_TARGET, f"export target '{name}'")
    fmt = m.read("format", Text, "")
    if "format" in m and fmt not in EXPORT_FORMATS:
        r.error(m["format"], "unknown-format", f"export target '{name}': unknown format '{fmt}'",
                did_you_mean(fmt, EXPORT_FORMATS) or f"formats are: {', '.join(EXPORT_FORMATS)}")
    sizes = _sizes(r, name, m["sizes"]) if "sizes" in m else {}
    sheet = r.mapping(m["sheet"], TTS_SHEET) if "sheet" in m else None
    color = m.read("color", Text, "rgb")
    if color == "cmyk" and fmt != "1up-pdf":
        r.error(m["color"], "bad-setting", f"export target '{name}': color cmyk is for the 1up-pdf format "
                "(images are RGB)", "remove color, or use format: 1up-pdf")
    title, dpi, bleed = m.read("name", Text, ""), m.read("dpi", Integer), m.read("bleed_mm", Number, DEFAULT_BLEED_MM)
    tts = _sheet(sheet) if sheet is not None else TtsSheet()
    if len(r.findings) != before or dpi is None or bleed is None or tts is None:  # (None: reported)
        return None
    return Target(name, title, fmt, dpi, tuple(sizes.items()), bleed, color=color, sheet=tts)


def _sheet(m: Values) -> TtsSheet | None:
    """A tts target's sheet: None when a value is unreadable (reported)."""
    columns, rows, max_pixels = (m.read(key, Integer) for key in TTS_SHEET)
    if columns is None or rows is None or max_pixels is None:
        return None
    return TtsSheet(columns, rows, max_pixels)


def _sizes(r: Reader, name: str, node: yaml.Node) -> dict[str, CardPixels]:
    if not isinstance(node, yaml.MappingNode):
        r.error(node, "wrong-type", f"export target '{name}': sizes should be a mapping of card sizes")
        return {}
    sizes: dict[str, CardPixels] = {}
    for size_node, spec in node.value:
        size = r.text(size_node, "card size")
        if size not in CARD_SIZES_MM:
            r.error(size_node, "unknown-size", f"export target '{name}': unknown card size '{size}'",
                    did_you_mean(size, CARD_SIZES_MM) or f"sizes are: {', '.join(CARD_SIZES_MM)}")
            continue
        m = r.mapping(spec, CARD_PIXELS, f"export target '{name}', {size}")
        trim = r.sequence(m.get("trim"), "trim")
        if len(trim) != 2:
            r.error(m.get("trim", spec), "wrong-type", f"export target '{name}', {size}: trim should be "
                    "[width, height] in pixels")
            continue
        side = declared(CARD_PIXELS, "trim", ListOf).item.as_(Number)
        width, height = (side.read(r, n, "trim") for n in trim)
        bleed, safe = m.read("bleed", Number), m.read("safe", Number, 0.0)
        if width is not None and height is not None and bleed is not None and safe is not None:  # else reported
            sizes[size] = CardPixels((width, height), bleed, safe)
    return sizes

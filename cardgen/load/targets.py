"""load/targets: the export targets (print services, Tabletop Simulator), from the table shipped in
art/export-targets.yaml and the game's own export-targets.yaml, which adds or replaces entries.
Checked here like the rest of the data, so that `cardgen export` never meets a bad entry."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..layout import CARD_SIZES_MM
from ..model import Finding
from ..paths import ART
from . import ID_PATTERN, Reader, _did_you_mean

SHIPPED = ART / "export-targets.yaml"
FORMATS = ("png", "1up-pdf", "tts")
MAX_PIXELS = 20_000  # a card side or a sheet side, in pixels


@dataclass(frozen=True)
class CardPixels:
    """A card size at a target: trim width and height, bleed on each side and the safe zone
    inside the trim line, in pixels at the target's dpi."""

    trim: tuple[float, float]
    bleed: float
    safe: float

    @property
    def full(self) -> tuple[int, int]:
        return round(self.trim[0] + 2 * self.bleed), round(self.trim[1] + 2 * self.bleed)


@dataclass(frozen=True)
class TtsSheet:
    columns: int = 10
    rows: int = 7
    max_pixels: int = 4096


@dataclass(frozen=True)
class Target:
    id: str
    name: str
    format: str
    dpi: int
    sizes: dict[str, CardPixels] = field(default_factory=dict)  # empty: the game's own card size
    bleed_mm: float = 3.0  # with no sizes: the bleed around the game's card size
    sheet: TtsSheet = TtsSheet()


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


def _targets(r: Reader, doc) -> dict[str, Target]:
    if doc is None:
        return {}
    if not isinstance(doc, yaml.MappingNode):
        r.error(doc, "wrong-type", "export targets should be a mapping: a target name, then its entry")
        return {}
    out = {}
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


def _target(r: Reader, name: str, node) -> Target | None:
    m = r.mapping(node, {"name": True, "format": True, "dpi": True, "sizes": False, "bleed_mm": False,
                         "sheet": False}, f"export target '{name}'")
    if not m:
        return None
    fmt = r.text(m.get("format"), "format")
    if fmt not in FORMATS:
        r.error(m.get("format"), "unknown-format", f"export target '{name}': unknown format '{fmt}'",
                _did_you_mean(fmt, FORMATS) or f"formats are: {', '.join(FORMATS)}")
        return None
    dpi = r.integer(m.get("dpi"), "dpi", 50, 1200)
    sizes = {}
    if "sizes" in m and not isinstance(m["sizes"], yaml.MappingNode):
        r.error(m["sizes"], "wrong-type", f"export target '{name}': sizes should be a mapping of card sizes")
    elif "sizes" in m:
        for size_node, spec in m["sizes"].value:
            size = r.text(size_node, "card size")
            if size not in CARD_SIZES_MM:
                r.error(size_node, "unknown-size", f"export target '{name}': unknown card size '{size}'",
                        _did_you_mean(size, CARD_SIZES_MM) or f"sizes are: {', '.join(CARD_SIZES_MM)}")
                continue
            pixels = _pixels(r, spec, f"export target '{name}', {size}")
            if pixels:
                sizes[size] = pixels
    bleed_mm = r.number(m["bleed_mm"], "bleed_mm", 0, 10) if "bleed_mm" in m else 3.0
    sheet = _sheet(r, m["sheet"]) if "sheet" in m else TtsSheet()
    if dpi is None or bleed_mm is None or sheet is None:
        return None
    return Target(name, r.text(m.get("name"), "name"), fmt, dpi, sizes, bleed_mm, sheet)


def _pixels(r: Reader, node, what: str) -> CardPixels | None:
    m = r.mapping(node, {"trim": True, "bleed": True, "safe": False}, what)
    trim = r.sequence(m.get("trim"), "trim") if m else []
    if len(trim) != 2:
        r.error(m.get("trim") if m else node, "wrong-type", f"{what}: trim should be [width, height] in pixels")
        return None
    width, height = (r.number(n, "trim", 1, MAX_PIXELS) for n in trim)
    bleed = r.number(m.get("bleed"), "bleed", 0, MAX_PIXELS / 10)
    safe = r.number(m["safe"], "safe", 0, MAX_PIXELS / 10) if "safe" in m else 0.0
    if None in (width, height, bleed, safe):
        return None
    return CardPixels((width, height), bleed, safe)


def _sheet(r: Reader, node) -> TtsSheet | None:
    m = r.mapping(node, {"columns": True, "rows": True, "max_pixels": True}, "sheet")
    values = [r.integer(m.get(k), k, 2, high) for k, high in (("columns", 10), ("rows", 7), ("max_pixels", 16384))]
    return None if not m or None in values else TtsSheet(*values)

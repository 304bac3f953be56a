"""symbols: the game's SVG symbols, found, checked, and turned into one font for the documents.

A symbol is `<game>/symbols/<name>.svg`, else `art/symbols/<name>.svg`. The card renderer draws
the SVG itself; the documents set symbols as characters of a font built here from the same
files. WeasyPrint lays out and draws every <img> of an SVG anew (the rulebook's 116 symbols
cost it 0.7 s), while a glyph costs what a letter costs, stays vector and takes the text color.

Each symbol the game can use has a Private Use Area code point, in name order; a document's
font holds the symbols that document shows. Outlines come from the SVG's shapes (path, rect,
circle, ellipse, line, polyline, polygon, in groups with transforms), filled with their fill
rule or stroked with their stroke width, caps and joins, then merged with skia-pathops into
outlines a font can hold.
"""
from __future__ import annotations

import io
import math
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen.errors import BuildError
from cardgen.inputs import images
from cardgen.inputs.files import UnreadableInput, read_input
from cardgen.inputs.paths import ART, inside
from cardgen.model.game import Game

if TYPE_CHECKING:  # the SVG and font libraries are imported where used: `cardgen check` draws no symbol
    import logging

    import pathops
    from fontTools.misc.transform import Transform
    from fontTools.pens.basePen import AbstractPen
    from reportlab.graphics.shapes import Drawing

SHARED_SYMBOLS = ART / "symbols"
FONT_FAMILY = "CardgenSymbols"
FIRST_CODE_POINT = 0xE000
MAX_SYMBOLS = 0xF8FF - FIRST_CODE_POINT + 1  # the Private Use Area of the BMP
MAX_SVG_BYTES = 256 * 1024
MAX_SYMBOL_ELEMENTS = 500  # after <use> expansion; the built-in symbols have at most 8
MAX_SYMBOL_NUMBERS = 1000  # numbers in path data and points (about 500 points; built-in: at most 98)
UNITS_PER_EM = 1000
ASCENT, DESCENT = 800, -200  # the symbol's square spans the em from descender to ascender
# Symbols stand in running text, set from this font as the text font's fallback: the text
# shaper may take the spaces beside a symbol from the symbol's font too, so it has them.
SPACES = {"space": ((0x20, 0xA0), 256), "uni2002": ((0x2002,), 500)}  # glyph: (code points, advance)
SHAPES = ("path", "rect", "circle", "ellipse", "line", "polyline", "polygon")
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
# in a symbol: images, links to anything but an id in the same file, DOCTYPE/ENTITY, CSS imports
_SVG_REFERENCE = re.compile(r"<\s*image\b|href\s*=\s*[\"'](?!#)|<!DOCTYPE|<!ENTITY|@import|url\(\s*['\"]?(?!#)",
                            re.I)
_TRANSFORM = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def symbol_path(game: Game, name: str) -> Path | None:
    """<game>/symbols/<name>.svg, else art/symbols/<name>.svg; None if there is none."""
    return _symbol_file(game.folder, name)


def _symbol_file(game_folder: Path, name: str) -> Path | None:
    if not _NAME.match(name):
        return None
    for folder, roots in (_own_place(game_folder), _SHARED_PLACE):
        path = folder / f"{name}.svg"
        if _lies_in(path, roots):
            return path
    return None


def _lies_in(path: Path, roots: tuple[Path, ...]) -> bool:
    """Whether a symbol file is there and lies (symlinks followed) inside the roots: the one rule
    for a symbol found by name and for the names listed, so that every name listed is found."""
    return path.is_file() and inside(path, roots)


def _own_place(game_folder: Path) -> tuple[Path, tuple[Path, ...]]:
    """A game's symbols folder and where its files may lie, symlinks followed."""
    return game_folder / "symbols", (game_folder, ART)


_SHARED_PLACE = SHARED_SYMBOLS, (ART,)


def symbol_names(game: Game) -> list[str]:
    """Every symbol the game can use, sorted: the game's own and the shared ones. The documents ask
    for them once per text: each list is made again only when its folder changes (adding, removing
    or relinking a file does)."""
    shared_stamp = _modified(SHARED_SYMBOLS)  # a game's own symbol may be a link into art/symbols
    own = _own_symbol_names(game.folder, _modified(game.folder / "symbols"), shared_stamp)
    return sorted(set(own).union(_shared_symbol_names(shared_stamp)))


def _modified(folder: Path) -> int:
    try:
        return folder.stat().st_mtime_ns
    except OSError:
        return 0


@lru_cache(maxsize=32)
def _own_symbol_names(game_folder: Path, _stamp: int, _shared_stamp: int) -> tuple[str, ...]:
    return _names_in(*_own_place(game_folder))


@lru_cache(maxsize=1)
def _shared_symbol_names(_stamp: int) -> tuple[str, ...]:
    return _names_in(*_SHARED_PLACE)


def _names_in(folder: Path, roots: tuple[Path, ...]) -> tuple[str, ...]:
    """The names of a folder's symbol files that lie (symlinks followed) inside the roots."""
    if not folder.is_dir():
        return ()
    return tuple(path.stem for path in folder.glob("*.svg") if _NAME.match(path.stem) and _lies_in(path, roots))


def symbol_where(path: Path) -> str:
    """A symbol file as error messages name it: <game or art>/symbols/<name>.svg."""
    return f"{path.parent.parent.name}/{path.parent.name}/{path.name}"


def check_svg(path: Path) -> str:
    """The text of a symbol file, read once and checked by the images' SVG check with a symbol's
    smaller limits (every symbol a document uses becomes a font glyph, whose outline merging costs
    more with every point), and refused if it points to other files or entities (renderers would
    otherwise read them). Renderers parse this text, not the file again: what they draw is what
    was checked."""
    where = symbol_where(path)
    try:
        text = read_input(path, MAX_SVG_BYTES, (path.parent.parent, ART)).decode("utf-8", errors="replace")
        if _SVG_REFERENCE.search(text):
            raise BuildError(f"symbol {path.name} refers to other files or entities", where,
                             "draw symbols with plain shapes: no <image>, external href, url(file) or DOCTYPE")
        images.svg_check(text, MAX_SYMBOL_ELEMENTS, MAX_SYMBOL_NUMBERS)
    except UnreadableInput as exc:
        raise BuildError(f"symbol {path.name} {exc}", where) from None
    except images.BadImage as exc:
        raise BuildError(f"symbol {path.name} {exc}", where,
                         "draw symbols with a few plain shapes (a symbol is shown small)") from None
    return text


@cache
def drawing(path: Path) -> Drawing:
    """The symbol as a ReportLab drawing (what the card renderer draws), parsed from the checked
    text: svglib would otherwise read the images, entities and files a symbol points to."""
    from svglib.svglib import svg2rlg

    where = symbol_where(path)
    text = check_svg(path)
    try:
        with _svglib_errors() as errors:
            result = svg2rlg(io.BytesIO(text.encode("utf-8")))
    except Exception as exc:  # svglib and lxml raise many kinds of parse errors
        raise BuildError(f"symbol {path.name} is not a readable SVG ({exc.__class__.__name__})", where) from None
    if errors:  # svglib logs what it skips (e.g. "Too many <use> expansions") and draws the rest
        raise BuildError(f"symbol {path.name} cannot be drawn whole: {'; '.join(errors[:3])}", where,
                         "draw symbols with a few plain shapes")
    if result is None or not result.width or not result.height:
        raise BuildError(f"symbol {path.name} is not a readable SVG with a size", where,
                         'give the <svg> a viewBox and a width and height, e.g. width="100" height="100"')
    return result


@contextmanager
def _svglib_errors() -> Iterator[list[str]]:
    """The error lines svglib logs while the block runs."""
    import logging

    errors: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            errors.append(record.getMessage())

    logger, handler = logging.getLogger("svglib.svglib"), Collect(logging.ERROR)
    logger.addHandler(handler)
    try:
        yield errors
    finally:
        logger.removeHandler(handler)


def problem(path: Path) -> BuildError | None:
    """Why a symbol file cannot be drawn on the cards or made into the documents' glyph, or None."""
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    try:
        if _draw_symbol(path, T2CharStringPen(UNITS_PER_EM, None)) is None:
            return BuildError(f"symbol {path.name} draws nothing: it has no filled or stroked shape",
                              symbol_where(path), "draw the symbol with visible shapes (a fill or a stroke)")
        drawing(path)
    except BuildError as exc:
        return exc
    return None


# --------------------------------------------------------------------------- the font


def code_points(game: Game) -> dict[str, str]:
    """Symbol name → the character that shows it in the symbol font."""
    names = symbol_names(game)
    if len(names) > MAX_SYMBOLS:
        raise BuildError(f"{game.folder.name}/symbols/ and art/symbols/ hold {len(names)} symbols; "
                         f"the limit is {MAX_SYMBOLS}", hint="remove the symbols the game does not use")
    return {name: chr(FIRST_CODE_POINT + i) for i, name in enumerate(names)}


def used_in(game: Game, text: str) -> list[str]:
    """The symbols whose characters appear in `text` (a document's HTML), in name order."""
    shown = set(text)
    return [name for name, character in code_points(game).items() if character in shown]


def symbol_font(game: Game, names: Iterable[str] | None = None) -> bytes:
    """An OpenType (CFF) font with a glyph for each of the named symbols (default: every symbol
    of the game), each at its code point; same files, same bytes. A document's font holds the
    symbols it shows: the others, however many or costly, are never read."""
    characters = code_points(game)
    chosen = characters if names is None else {name: characters[name] for name in names}
    files = []
    for name, character in sorted(chosen.items()):
        path = symbol_path(game, name)
        assert path is not None, name  # code_points names only symbols that have a file
        info = path.stat()
        files.append((ord(character), path, info.st_mtime_ns, info.st_size))
    return _font(tuple(files))


GLYPH_REACH = 32 * UNITS_PER_EM  # font units a glyph may reach from the origin (a font stores 16-bit bounds)


@lru_cache(maxsize=8)
def _font(files: tuple[tuple[int, Path, int, int], ...]) -> bytes:
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    symbols = {f"uni{code:04X}": path for code, path, _, _ in files}
    char_strings, metrics = {}, {}
    for glyph, path in ({".notdef": None} | symbols).items():
        pen = T2CharStringPen(UNITS_PER_EM, None)
        bounds = _draw_symbol(path, pen) if path else None
        char_strings[glyph] = pen.getCharString()
        metrics[glyph] = (UNITS_PER_EM, round(bounds[0]) if bounds else 0)
    for glyph, (_, width) in SPACES.items():
        char_strings[glyph] = T2CharStringPen(width, None).getCharString()
        metrics[glyph] = (width, 0)
    builder = FontBuilder(UNITS_PER_EM, isTTF=False)
    builder.setupGlyphOrder([".notdef", *symbols, *SPACES])
    builder.setupCharacterMap({code: f"uni{code:04X}" for code, _, _, _ in files}
                              | {code: glyph for glyph, (codes, _) in SPACES.items() for code in codes})
    builder.setupCFF(FONT_FAMILY, {"FullName": FONT_FAMILY}, char_strings, {})
    builder.setupHorizontalMetrics(metrics)
    builder.setupHorizontalHeader(ascent=ASCENT, descent=DESCENT)
    builder.setupNameTable({"familyName": FONT_FAMILY, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=ASCENT, sTypoDescender=DESCENT, sTypoLineGap=0,
                     usWinAscent=ASCENT, usWinDescent=-DESCENT)
    builder.setupPost()
    builder.font["head"].created = builder.font["head"].modified = 0  # same files, same bytes
    out = io.BytesIO()
    builder.save(out)
    return out.getvalue()


def _draw_symbol(path: Path, pen: AbstractPen) -> tuple[float, float, float, float] | None:
    """Draw the symbol's outline, scaled into the em square, with y pointing up; its bounds."""
    import pathops
    from fontTools.misc import etree
    from fontTools.pens.transformPen import TransformPen

    where = symbol_where(path)
    try:
        root = etree.fromstring(check_svg(path).encode("utf-8"))
        x, y, width, height = _view_box(root)
        outline = pathops.Path()
        for shape in _shapes(root, _Style()):
            outline = pathops.op(outline, shape, pathops.PathOp.UNION)
    except BuildError:
        raise
    except Exception as exc:  # XML, number and geometry errors of every kind
        raise BuildError(f"symbol {path.name} cannot be made into a font glyph ({exc.__class__.__name__}: {exc})",
                         where, "draw symbols with plain filled or stroked shapes") from None
    scale = (ASCENT - DESCENT) / max(width, height)
    # centred in the em square (like object-fit: contain), flipped so that y points up
    dx = (UNITS_PER_EM - width * scale) / 2 - x * scale
    dy = ASCENT - (ASCENT - DESCENT - height * scale) / 2 + y * scale
    outline.draw(TransformPen(pen, (scale, 0, 0, -scale, dx, dy)))
    if not list(outline.contours):
        return None
    left, top, right, bottom = outline.bounds
    bounds = left * scale + dx, dy - bottom * scale, right * scale + dx, dy - top * scale
    if any(abs(value) > GLYPH_REACH for value in bounds):  # a font's bounds are 16-bit numbers
        raise BuildError(f"symbol {path.name} draws far outside its viewBox", where,
                         "keep the drawing inside the viewBox")
    return bounds


def _leading_number(text: str) -> float:
    """The number a length starts with ('12px' is 12)."""
    found = _NUMBER.match(text)
    if found is None:
        raise ValueError(f"'{text}' is not a length")
    return float(found.group())


def _view_box(root: Any) -> tuple[float, float, float, float]:
    box = root.get("viewBox")
    if box:
        x, y, width, height = (float(n) for n in _NUMBER.findall(box))
    else:
        x = y = 0.0
        width, height = (_leading_number(root.get(a, "")) for a in ("width", "height"))
    if width <= 0 or height <= 0:
        raise ValueError("the viewBox has no size")
    return x, y, width, height


class _Style:
    """The presentation attributes a shape inherits: fill, fill rule, stroke, and the transform so far."""

    def __init__(self, values: dict[str, str] | None = None, transform: Transform | None = None) -> None:
        from fontTools.misc.transform import Identity

        self.values = values or {"fill": "#000", "fill-rule": "nonzero", "stroke": "none", "stroke-width": "1",
                                 "stroke-linecap": "butt", "stroke-linejoin": "miter", "stroke-miterlimit": "4"}
        self.transform = transform or Identity

    def child(self, element: Any) -> _Style:
        values = dict(self.values)
        declarations = (d.split(":", 1) for d in element.get("style", "").split(";") if ":" in d)
        own = {**element.attrib, **{k.strip(): v.strip() for k, v in declarations}}
        values.update({k: own[k] for k in values if k in own})
        transform = self.transform
        if "transform" in own:
            transform = transform.transform(_parse_transform(own["transform"]))
        return _Style(values, transform)


def _shapes(element: Any, style: _Style) -> Iterator[pathops.Path]:
    """pathops paths of every painted shape under element, in the symbol's own coordinates."""
    import pathops

    for child in element:
        if not isinstance(child.tag, str):
            continue
        tag = child.tag.rsplit("}", 1)[-1]
        own = style.child(child)
        if tag == "g":
            yield from _shapes(child, own)
        elif tag in SHAPES:
            fill = own.values["fill"] not in ("none", "transparent")
            stroke = own.values["stroke"] not in ("none", "transparent")
            if fill:
                yield _outline(child, own, evenodd=own.values["fill-rule"] == "evenodd")
            if stroke:
                line = _outline(child, own, evenodd=False, transformed=False)
                width = _leading_number(own.values["stroke-width"])
                caps, joins = _caps_and_joins()
                line.stroke(width, caps[own.values["stroke-linecap"]], joins[own.values["stroke-linejoin"]],
                            float(own.values["stroke-miterlimit"]))
                line.convertConicsToQuads()
                stroked = pathops.Path()
                line.draw(_transformed_pen(stroked.getPen(), own.transform))
                yield _simplified(stroked)
        elif tag not in ("title", "desc", "metadata", "defs"):
            raise ValueError(f"<{tag}> is not a shape a symbol can use")


def _outline(element: Any, style: _Style, evenodd: bool, transformed: bool = True) -> pathops.Path:
    import pathops
    from fontTools.svgLib.path import parse_path
    from fontTools.svgLib.path.shapes import PathBuilder

    path = pathops.Path(fillType=pathops.FillType.EVEN_ODD if evenodd else pathops.FillType.WINDING)
    builder = PathBuilder()
    element = _without_transform(element)
    builder.add_path_from_element(element)
    pen = path.getPen()
    for data in builder.paths:
        parse_path(data, _transformed_pen(pen, style.transform) if transformed else pen)
    return _simplified(path) if transformed else path


def _without_transform(element: Any) -> Any:
    """PathBuilder reads only matrix() transforms; ours are applied separately."""
    if "transform" not in element.attrib:
        return element
    copy = element.makeelement(element.tag, {k: v for k, v in element.attrib.items() if k != "transform"})
    return copy


def _simplified(path: pathops.Path) -> pathops.Path:
    import pathops

    path.simplify(fix_winding=True)
    return path if path.fillType == pathops.FillType.WINDING else _as_winding(path)


def _as_winding(path: pathops.Path) -> pathops.Path:
    import pathops

    result = pathops.Path()
    path.draw(result.getPen())
    return result


def _transformed_pen(pen: AbstractPen, transform: Transform) -> AbstractPen:
    from fontTools.pens.transformPen import TransformPen

    return TransformPen(pen, transform)


def _parse_transform(text: str) -> Transform:
    from fontTools.misc.transform import Identity, Transform

    result = Identity
    for name, raw in _TRANSFORM.findall(text):
        n = [float(v) for v in _NUMBER.findall(raw)]
        if name == "matrix":
            step = Transform(*n)
        elif name == "translate":
            step = Identity.translate(n[0], n[1] if len(n) > 1 else 0)
        elif name == "scale":
            step = Identity.scale(n[0], n[1] if len(n) > 1 else n[0])
        elif name == "rotate":
            cx, cy = (n[1], n[2]) if len(n) == 3 else (0, 0)
            step = Identity.translate(cx, cy).rotate(math.radians(n[0])).translate(-cx, -cy)
        elif name == "skewX":
            step = Identity.skew(math.radians(n[0]), 0)
        else:
            step = Identity.skew(0, math.radians(n[0]))
        result = result.transform(step)
    return result


def _caps_and_joins() -> tuple[dict[str, Any], dict[str, Any]]:
    import pathops

    caps = {"butt": pathops.LineCap.BUTT_CAP, "round": pathops.LineCap.ROUND_CAP,
            "square": pathops.LineCap.SQUARE_CAP}
    joins = {"miter": pathops.LineJoin.MITER_JOIN, "round": pathops.LineJoin.ROUND_JOIN,
             "bevel": pathops.LineJoin.BEVEL_JOIN}
    return caps, joins

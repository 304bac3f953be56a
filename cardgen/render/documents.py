"""render/documents: Jinja templates → HTML → WeasyPrint PDF (rulebook, checklists, cheat sheets).

Templates are looked up in <game folder>/templates first, then in the shared templates/,
so a game can override any template or CSS and `{% extends %}` the shared ones. Every
template runs in Jinja's sandbox with autoescaping and StrictUndefined. WeasyPrint only
ever sees local files inside the game folder, templates/ and art/: anything else (other
schemes, paths that escape, symlinks leading out) stops the build with a BuildError.
"""
from __future__ import annotations

import contextvars
import functools
import hashlib
import io
import logging
import mimetypes
import os
import re
import traceback
import types
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jinja2
import jinja2.filters
import jinja2.loaders
import jinja2.utils
import jinja2.visitor
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from cardgen.check.engine import GameReport, PlayerCount, SetupReport, StepReport
from cardgen.check.report import component_rows
from cardgen.inputs import fonts, images, symbols
from cardgen.inputs.files import MAX_FONT_BYTES, UnreadableInput, read_input
from cardgen.inputs.paths import (
    TEMPLATES as SHARED_TEMPLATES,
)
from cardgen.inputs.paths import (
    display_path,
    game_roots,
    inside,
    local_file,
    shortened,
)
from cardgen.model import markup
from cardgen.model.game import BuildError, Card, Color, Game, Setup, Variation
from cardgen.model.sizes import PAPERS_MM, card_size_mm
from cardgen.model.texts import counted, format_number, players_label
from cardgen.render import card_images
from cardgen.render.write import atomic_write

MAX_CSS_BYTES = 1024 * 1024
# WeasyPrint warnings about the machine, not the document: not build failures
ENVIRONMENT_NOTICES = ("Using fontTools instead of HarfBuzz",)
GENERATED = "cardgen-generated"  # the URL scheme of the symbol font, which the fetcher serves from memory
FIXED_EPOCH = "946684800"  # 2000-01-01: the timestamp embedded fonts carry, so equal input gives equal bytes


# --------------------------------------------------------------------------- the public core


def render_pdf(game: Game, template_name: str, context: dict, paper: str = "a4") -> bytes:
    """Render a template of the game to PDF bytes (same input, same bytes)."""
    html = render_html(game, template_name, context, paper)
    return html_to_pdf(game, html, template_name)


def render_html(game: Game, template_name: str, context: dict, paper: str = "a4") -> str:
    """The document's HTML. Its symbol font holds the symbols the HTML shows, so the template
    renders with a stand-in font name, replaced by the real one (which names the font's content)."""
    if paper not in PAPERS_MM:
        raise BuildError(f"unknown paper size '{paper}'", hint=f"use one of: {', '.join(PAPERS_MM)}")
    env = environment(game)
    symbol_face = f'@font-face {{ font-family: "{_PENDING_FAMILY}"; src: url("{GENERATED}:{_PENDING_FAMILY}.otf"); }}'
    full_context = {"game": game, "paper": paper, "symbol_font": _PENDING_FAMILY,
                    "font_faces": Markup(font_face_css(game) + "\n" + symbol_face),
                    "color_class": {color.id: f"color-{i}" for i, color in enumerate(game.colors, 1)}, **context}
    html = _render_template(env, game, template_name, full_context)
    family, _ = symbol_font_name(game, symbols.used_in(game, html))
    return html.replace(_PENDING_FAMILY, family)


_PENDING_FAMILY = f"{symbols.FONT_FAMILY}-pending"


def _render_template(env, game: Game, template_name: str, context: dict) -> str:
    token = _loop_budget.set([MAX_LOOP_ITEMS])
    try:
        return _joined(env.get_template(template_name).generate(context))
    except jinja2.TemplateSyntaxError as exc:
        place = display_path(exc.filename, game.folder) if exc.filename else exc.name
        raise BuildError(f"template syntax: {exc.message}", f"{place}:{exc.lineno}") from None
    except jinja2.TemplateNotFound as exc:
        raise BuildError(f"template '{exc.name}' not found",
                         hint=f"looked in {', '.join(str(p) for p in template_folders(game))}") from None
    except (jinja2.TemplateError, TypeError, ValueError, ArithmeticError, RecursionError) as exc:
        raise BuildError(f"template error: {exc}", _template_position(exc, game, env, template_name)) from None
    finally:
        _loop_budget.reset(token)


def _joined(parts) -> str:
    out, size = [], 0
    for part in parts:
        size += len(part)
        if size > MAX_HTML:
            raise _too_large(f"a document of more than {MAX_HTML} characters")
        out.append(part)
    return "".join(out)


def environment(game: Game) -> SandboxedEnvironment:
    """The sandboxed Jinja environment of a game: its templates first, then the shared ones."""
    return _environment(tuple(str(p) for p in template_folders(game)), tuple(allowed_roots(game)))


@lru_cache(maxsize=16)
def _environment(folders: tuple[str, ...], roots: tuple[Path, ...]) -> SandboxedEnvironment:
    """One environment per template folders and process: Jinja then compiles each template once
    (compiling costs more than rendering) and again only when its file changes."""
    env = _Sandbox(
        loader=_ContainedLoader(list(folders), roots),
        autoescape=jinja2.select_autoescape(["html", "htm", "xml", "svg"], default_for_string=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["markdown"] = jinja2.pass_context(lambda context, text: markdown_html(text, context["game"]))
    env.filters["nobreak"] = lambda text: str(text).replace(" ", "\u00a0")  # keeps a label on one line
    env.filters["version"] = version_label
    env.filters["cards"] = lambda n: counted(n, "card")
    env.filters = {name: _bounded(f) for name, f in env.filters.items()}
    return env


# What one document's templates may ask for: every loop's items count against one budget per
# document (nested loops multiply fast), and no value, nor the document, grows past a size. A
# real rulebook loops a few thousand times and its HTML is a few hundred KB.
MAX_LOOP_ITEMS = 1_000_000
MAX_STRING = 5_000_000  # characters of any one value
MAX_HTML = 20_000_000  # characters of a document's HTML
_loop_budget: contextvars.ContextVar[list[int]] = contextvars.ContextVar("loop_budget")
_BIG_FORMAT = re.compile(r"\d{6,}")  # a width or precision of a million or more


def _too_large(what: str) -> jinja2.exceptions.SecurityError:
    return jinja2.exceptions.SecurityError(f"{what} is too large for a template")


def _check_arguments(args, kwargs) -> None:
    """Numbers that ask a filter or method for a huge value ("x"|center(10**9)) are refused."""
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _Sandbox.MAX_SIZE:
            raise _too_large(f"the number {value}")


def _check_size(value):
    if isinstance(value, (str, list, tuple, dict)) and len(value) > MAX_STRING:
        raise _too_large(f"a value of {len(value)} items or characters")
    return value


def _bounded(function):
    """A filter that refuses huge numbers as arguments (not as the value it filters) and huge results."""
    value_at = 1 if jinja2.utils._PassArg.from_obj(function) else 0  # after the context or environment

    @functools.wraps(function)
    def bounded(*args, **kwargs):
        _check_arguments(args[value_at + 1:], kwargs)
        if function is jinja2.filters.do_format and _BIG_FORMAT.search(str(args[value_at])):
            raise _too_large("a format width")
        return _check_size(function(*args, **kwargs))
    return bounded


class _Limits(jinja2.visitor.NodeTransformer):
    """Rewrites a parsed template so that every loop's items and every `~` result pass through
    the environment's checks (Jinja has no hook for either)."""

    def visit_For(self, node):
        self.generic_visit(node)
        node.iter = jinja2.nodes.Call(jinja2.nodes.EnvironmentAttribute("loop_items"), [node.iter], [], None, None)
        return node

    def visit_Concat(self, node):
        self.generic_visit(node)
        return jinja2.nodes.Call(jinja2.nodes.EnvironmentAttribute("sized"), [node], [], None, None)


class _Sandbox(SandboxedEnvironment):
    """Jinja's sandbox, closed further: templates get no attribute of file-system, stream or
    module objects (the model holds paths); `*`, `**`, `+`, `~`, `%`, filters and methods cannot
    build huge values, and loops have a budget per document."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})
    MAX_SIZE = 100_000

    def _parse(self, source, name, filename):
        return _Limits().visit(super()._parse(source, name, filename))

    @staticmethod
    def sized(value):
        return _check_size(value)

    @staticmethod
    def loop_items(items):
        budget = _loop_budget.get(None)
        if budget is None:
            return items
        if hasattr(items, "__len__"):
            budget[0] -= len(items)
            if budget[0] < 0:
                raise jinja2.exceptions.SecurityError(f"a document's templates may loop over at most {MAX_LOOP_ITEMS} items")
            return items
        return _counted(items, budget)

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - Jinja's own signature
        _check_arguments(args, kwargs)
        if getattr(__obj, "__name__", "") in ("format", "format_map") and isinstance(
                getattr(__obj, "__self__", None), str) and _BIG_FORMAT.search(__obj.__self__):
            raise _too_large("a format width")
        return _check_size(super().call(__context, __obj, *args, **kwargs))

    def is_safe_attribute(self, obj, attr, value):
        if isinstance(obj, (os.PathLike, io.IOBase, types.ModuleType)):
            return False
        return super().is_safe_attribute(obj, attr, value)

    def call_binop(self, context, operator, left, right):
        if operator == "**" and (not isinstance(right, (int, float)) or abs(right) > 64
                                 or not isinstance(left, (int, float)) or abs(left) > self.MAX_SIZE):
            raise jinja2.exceptions.SecurityError(f"'{left!r} ** {right!r}' is too large for a template")
        if operator == "*":
            sizes = [len(x) if isinstance(x, (str, list, tuple)) else 1 for x in (left, right)]
            counts = [x for x in (left, right) if isinstance(x, int)]
            if any(not isinstance(x, (int, float)) for x in (left, right)) and \
                    sizes[0] * sizes[1] * max([abs(c) for c in counts] or [1]) > self.MAX_SIZE:
                raise jinja2.exceptions.SecurityError("a repeated value that large is not allowed in a template")
        if operator == "%" and isinstance(left, str) and _BIG_FORMAT.search(left):
            raise _too_large("a format width")
        return _check_size(super().call_binop(context, operator, left, right))


def _counted(items, budget: list[int]):
    for item in items:
        budget[0] -= 1
        if budget[0] < 0:
            raise jinja2.exceptions.SecurityError(f"a document's templates may loop over at most {MAX_LOOP_ITEMS} items")
        yield item


class _ContainedLoader(jinja2.FileSystemLoader):
    """Templates from the game's templates/ and the shared ones; a template that is a symlink
    leading out of the game folder, templates/ and art/ is refused, and so is one that is not a
    regular file (Jinja would pass over a pipe or folder of that name to the shared template)."""

    def __init__(self, searchpath, roots: tuple[Path, ...]):
        super().__init__(searchpath)
        self.roots = roots

    def get_source(self, environment, template):
        try:
            return self._contained_source(environment, template)
        except jinja2.TemplateNotFound:  # an OSError too: templates look for optional ones this way
            raise
        except OSError as exc:  # a name the file system refuses (too long, ...): no file has it
            # a ValueError: reported as a template error at the line that names the template
            raise ValueError(f"template '{shortened(template)}' cannot be read: {exc.strerror or exc}") from None

    def _contained_source(self, environment, template):
        for folder in self.searchpath:
            candidate = Path(folder, *jinja2.loaders.split_template_path(template))
            if candidate.is_file():
                break
            if candidate.exists():
                raise BuildError(f"template '{template}' is not a regular file", str(candidate),
                                 "a template must be a text file")
        source, filename, uptodate = super().get_source(environment, template)
        if not inside(filename, self.roots):
            raise BuildError(f"template '{template}' is a link leading outside the game folder, templates/ "
                             "and art/", hint="copy the template into the game's templates/ folder")
        return source, filename, uptodate


def template_folders(game: Game) -> list[Path]:
    own = game.folder / "templates"
    return [own, SHARED_TEMPLATES] if own.is_dir() else [SHARED_TEMPLATES]


def _template_position(exc: BaseException, game: Game, env, template_name: str) -> str:
    """'file:line' of the innermost template frame of a render error (Jinja maps frames to template lines)."""
    folders = list(env.loader.searchpath)
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if any(frame.filename.startswith(folder) for folder in folders):
            return f"{display_path(frame.filename, game.folder)}:{frame.lineno}"
    return template_name


# --------------------------------------------------------------------------- Markdown


def markdown_html(text: str, game: Game, origin: str = "") -> Markup:
    """Markdown of the game data → safe HTML. Images must be local files the fetcher may serve."""
    md = markup.markdown_parser()
    characters = symbols.code_points(game)  # :bomb: is the bomb's character of the symbol font
    tokens = md.parse(markup.SYMBOL.sub(lambda m: characters.get(m[0][1:-1], m[0]), text or ""))
    for token in tokens:
        if token.type == "table_open":
            token.attrSet("class", "md-table")  # styled like the generated tables (base.css)
    for token in markup.all_tokens(tokens):
        if token.type == "image":
            src = token.attrGet("src") or ""
            images.checked_url(src, game.folder, origin or "Markdown in the game data")
    return Markup(md.renderer.render(tokens, md.options, {}))


def markdown_inline(text: str, game: Game, origin: str = "") -> Markup:
    """One line of Markdown (card text, list items) without the surrounding paragraph."""
    html = str(markdown_html(text, game, origin)).strip()
    if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        html = html[3:-4]
    return Markup(html)


# --------------------------------------------------------------------------- local files only


def allowed_roots(game: Game) -> list[Path]:
    return game_roots(game.folder)


def checked_file(url: str, game: Game, origin: str) -> tuple[Path, bytes]:
    """The local file a URL names and its bytes, read once and checked as what it is: an image by
    the images' check, a font or a style sheet by its size. Nothing else may be fetched."""
    path = local_file(url, game.folder, origin)
    suffix = path.suffix.lower()
    roots = allowed_roots(game)
    try:
        if suffix in images.FORMATS or suffix == images.SVG:
            return path, images.checked(path, roots)
        if suffix in fonts.FONT_SUFFIXES:
            return path, read_input(path, MAX_FONT_BYTES, roots)
        if suffix == ".css":
            return path, read_input(path, MAX_CSS_BYTES, roots)
    except images.BadImage as exc:
        raise BuildError(f"image '{url}' (from {origin}) {exc}", hint=exc.hint) from None
    except UnreadableInput as exc:
        raise BuildError(f"'{url}' (from {origin}) {exc}") from None
    raise BuildError(f"refused to fetch '{url}' (from {origin}): only images (.png, .jpg, .jpeg, .svg), "
                     "style sheets (.css) and fonts can be used")


def _fetcher_class():
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class LocalFileFetcher(URLFetcher):
        """Serves allowed local files and nothing else; refusals stop the rendering."""

        def __init__(self, game: Game, origin: str, symbols_shown: list[str]):
            super().__init__(fail_on_errors=True)
            self.game, self.origin, self.symbols_shown = game, origin, symbols_shown
            self.refused: list[BuildError] = []

        def fetch(self, url, headers=None):
            try:
                if url.startswith(GENERATED + ":") and url == symbol_font_name(self.game, self.symbols_shown)[1]:
                    return URLFetcherResponse(url, symbols.symbol_font(self.game, self.symbols_shown),
                                              {"Content-Type": "font/otf"})
                if url.startswith(GENERATED + ":") and url == example_card_url(self.game):
                    return URLFetcherResponse(url, example_card_png(self.game), {"Content-Type": "image/png"})
                path, data = checked_file(url, self.game, self.origin)
            except BuildError as exc:
                self.refused.append(exc)
                raise
            mime, _ = mimetypes.guess_type(path.name)
            return URLFetcherResponse(path.as_uri(), data, {"Content-Type": mime or "application/octet-stream"})

    return LocalFileFetcher


# --------------------------------------------------------------------------- WeasyPrint


class _Collect(logging.Handler):
    """WeasyPrint reports problems (bad CSS, missing images) as log lines: collect them as failures."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        message = record.getMessage()
        if not message.startswith(ENVIRONMENT_NOTICES):
            self.messages.append(message)


def html_to_pdf(game: Game, html: str, origin: str) -> bytes:
    import weasyprint
    from weasyprint.urls import FatalURLFetchingError

    fetcher = _fetcher_class()(game, f"template {origin} or the game data", symbols.used_in(game, html))
    collect = _Collect()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(collect)
    try:
        document = weasyprint.HTML(string=html, base_url=game.folder.resolve().as_uri() + "/",
                                   url_fetcher=fetcher)
        with _font_subsetting(), _no_user_fontconfig():
            pdf = document.write_pdf(font_config=_font_config(), cache=_image_cache())
    except FatalURLFetchingError as exc:
        if fetcher.refused:
            raise fetcher.refused[0] from None
        raise BuildError(f"{origin}: {exc} ({exc.__cause__})") from None
    except BuildError:
        raise
    except Exception as exc:  # WeasyPrint (and the libraries under it) may raise anything: name the document
        if fetcher.refused:
            raise fetcher.refused[0] from None
        raise BuildError(f"WeasyPrint failed on {origin}: {exc.__class__.__name__}: {exc}",
                         hint="fix the template, CSS or image named in the message") from None
    finally:
        logger.removeHandler(collect)
    if fetcher.refused:
        raise fetcher.refused[0]
    if collect.messages:
        raise BuildError(f"WeasyPrint could not render {origin} cleanly: " + "; ".join(collect.messages[:5]),
                         hint="fix the template or CSS named in the message")
    return pdf


@contextmanager
def _font_subsetting():
    """fontTools stamps each embedded font subset with the current time, or SOURCE_DATE_EPOCH when
    set: always the fixed epoch here, so equal input gives equal bytes whatever the environment.
    fontTools also logs notices about font headers (not about the document) while subsetting."""
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = FIXED_EPOCH
    font_tools = logging.getLogger("fontTools")
    level = font_tools.level
    font_tools.setLevel(logging.ERROR)
    try:
        yield
    finally:
        font_tools.setLevel(level)
        if previous is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = previous


def _font_config():
    """One font configuration per process, kept for its life. A forked worker builds its own:
    WeasyPrint skips a font face whose file is in the configuration's folder, and the parent's
    folder is shared with the parent and its other workers, while the faces they registered are
    not. The parent's configuration stays in the worker's table, untouched: dropping it there
    would run its finaliser, which deletes the folder the parent still uses."""
    process = os.getpid()
    if process not in _FONT_CONFIGS:
        from weasyprint.text.fonts import FontConfiguration

        _FONT_CONFIGS[process] = FontConfiguration()
    return _FONT_CONFIGS[process]


_FONT_CONFIGS: dict[int, object] = {}


@contextmanager
def _no_user_fontconfig():
    """Fontconfig reads the user's own settings (~/.config/fontconfig, ~/.fonts.conf: aliases,
    preferred families, hinting), which change the fonts and the layout; it reads them lazily,
    while rendering. Rendering runs with HOME and XDG_CONFIG_HOME pointing at an empty folder
    (the font cache stays where it was)."""
    import tempfile

    names = ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME")
    saved = {name: os.environ.get(name) for name in names}
    cache = saved["XDG_CACHE_HOME"] or str(Path.home() / ".cache")
    with tempfile.TemporaryDirectory(prefix="cardgen-home-") as empty:
        os.environ.update(HOME=empty, XDG_CONFIG_HOME=empty, XDG_CACHE_HOME=cache)
        try:
            yield
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


@lru_cache(maxsize=1)
def _image_cache() -> dict:
    return {}


# --------------------------------------------------------------------------- fonts


def font_face_css(game: Game) -> str:
    """@font-face rules for every font shipped with the game or in art/fonts/."""
    for path in fonts.document_fonts(game):
        if not inside(path, allowed_roots(game)):
            raise BuildError(f"font {path.name} is a link leading outside the game folder and art/",
                             display_path(path, game.folder), "copy the font into the game's fonts/ folder")
    return "\n".join(_font_face(path, display_path(path, game.folder)) for path in fonts.document_fonts(game))


@lru_cache(maxsize=64)
def _font_face(path: Path, where: str) -> str:
    family, weight, italic = _font_names(path, where)
    return (f'@font-face {{ font-family: "{family}"; src: url("{path.resolve().as_uri()}"); '
            f"font-weight: {weight}; font-style: {'italic' if italic else 'normal'}; }}")


def _font_names(path: Path, where: str) -> tuple[str, int, bool]:
    """Family, weight and italic flag from the font's own tables (the file name is a guess)."""
    try:
        font = fonts.document_font(path)
    except (OSError, ValueError) as exc:
        raise BuildError(f"font {path.name} cannot be used: {exc}", where, "replace or remove the file in fonts/") from None
    return font.family, font.weight, font.italic


def symbol_font_name(game: Game, names: list[str] | None = None) -> tuple[str, str]:
    """The CSS family and URL of the font of the named symbols (default: all), both naming its
    content: WeasyPrint's font configuration, shared by every document a process renders, keeps
    each font face it has seen under its family and URL, so other symbols must not reuse them."""
    digest = hashlib.sha256(symbols.symbol_font(game, names)).hexdigest()[:16]
    family = f"{symbols.FONT_FAMILY}-{digest}"
    return family, f"{GENERATED}:{family}.otf"


def symbol_marks(game: Game) -> dict[str, str | None]:
    """Each color's symbol as a character of the symbol font (None: the color has no symbol file)."""
    characters = symbols.code_points(game)
    return {color.id: characters.get(color.symbol) for color in game.colors}


def star_mark(game: Game) -> str | None:
    return symbols.code_points(game).get("star")


def symbol_context(game: Game) -> dict:
    """What the templates' symbol macros read: each color's and each card's symbol as a character."""
    characters = symbols.code_points(game)
    return {
        "symbols": symbol_marks(game),
        "star_mark": star_mark(game),
        "card_mark": lambda card: characters.get(game.symbol_of(card)),
    }



# --------------------------------------------------------------------------- the rulebook's outline

_HEADING = re.compile(r"^(#{1,3})\s+(.+?)\s*#*\s*$")
_TYPED_NUMBER = re.compile(r"^\d+(?:\.\d+)*\.?\s+")
_FENCE = re.compile(r"^\s*(```|~~~)")


# about what one A4 page of 10 pt text holds, and what a setup's tables or the card diagram take
PAGE_WEIGHT, SETUP_WEIGHT, DIAGRAM_WEIGHT = 3500, 1800, 2000


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
        """Long chapters start on a page of their own; short ones follow the one before."""
        return self.weight >= PAGE_WEIGHT

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


def parse_rules(markdown: str) -> list[Part]:
    """rules.md → chapters (#), sections (##) and subsections (###); typed numbers are dropped."""
    chapters: list[Part] = []
    stack: list[Part] = []
    lines: list[str] = []
    in_fence = False

    def flush():
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
            part.html = markdown_html(part.prose, game, f"rules.md, section '{part.title}'")
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
    if not score:
        chapter = Part(1, "Cards")
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


def _kind_filter(game: Game, title: str) -> tuple[str, bool] | None:
    words = _norm(title)
    negation = re.match(r"^(non|not|no|other than)\s+", words)
    stem = words[negation.end():] if negation else words
    for kind in game.kinds:
        for form in {_norm(kind.id), _norm(kind.name)}:
            if stem in (form, form + "s", form + "es"):
                return kind.id, not negation
    return None


def _place_setups(report: GameReport, chapters: list[Part]) -> None:
    """One section per setup, right after the intro of the deck-setup chapter."""
    if not report.setups:
        return
    chapter = next((ch for ch in chapters if "setups" in _norm(ch.title)), None) or next(
        (ch for ch in chapters if "setup" in _norm(ch.title)), None)
    if chapter is None:
        chapter = Part(1, "Deck Setups", setup_steps=True)
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
    chapter = next((ch for ch in chapters if re.search(r"components|contents|materials|in the box", _norm(ch.title))),
                   None)
    if chapter is None:
        chapter = Part(1, "Components")
        setups = next((i for i, ch in enumerate(chapters) if any(part.setup for part in ch.walk())), len(chapters))
        chapters.insert(setups, chapter)
    chapter.components = components_list(game, report)


def _place_variations(game: Game, chapters: list[Part]) -> None:
    if not game.variations:
        return
    chapter = next((ch for ch in chapters if re.search(r"variation|variant", _norm(ch.title))), None)
    if chapter is None:
        chapter = Part(1, "Variations")
        chapters.append(chapter)
    chapter.variations = game.variations


def _place_card_diagram(chapters: list[Part], card_chapter: Part | None) -> None:
    for chapter in chapters:
        for part in chapter.walk():
            title = _norm(part.title)
            if "card" in title and re.search(r"structure|anatomy|parts of", title):
                part.card_diagram = True
                return
    if card_chapter is not None:
        card_chapter.card_diagram = True


def _number(parts: list[Part], prefix: str = "") -> None:
    for i, part in enumerate(parts, 1):
        part.number = f"{prefix}{i}"
        _number(part.children, part.number + ".")


# --------------------------------------------------------------------------- rulebook context


def rulebook_context(game: Game, report: GameReport) -> dict:
    chapters = rulebook_outline(game, report)
    example, parts = _example_card(game), card_parts(game)
    shown = _parts_of(example) if example else set()
    return {
        "chapters": chapters,
        "contents": [p for ch in chapters for p in ch.walk()],
        "report": report,
        "example_card": example,
        "card_parts": parts,
        "example_card_image": example_card_url(game),
        "callouts": diagram_callouts(game, parts, shown),
        "example_parts": shown,
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
        "hand_label": lambda setup, played: hand_label(game, setup, played),
        "starting_hands": lambda setup_report: starting_hands(game, setup_report),
        "component_rows": component_rows,
        "percent": lambda value: f"{value:.0%}",
        "role_names": lambda role: " / ".join(k.name for k in game.kinds if k.role == role),
        "title_hex": game.title_hex,
    }


def _card_explanation(game: Game, card: Card) -> Markup:
    return markdown_html(card.details or card.text, game, f"card '{card.name}'")


DIAGRAM_WIDTH_MM, DIAGRAM_DPI = 56, 300


def example_card_url(game: Game) -> str:
    """The URL the rulebook shows the example card under: the fetcher draws it (card_images)."""
    card = _example_card(game)
    digest = hashlib.sha256(f"{game.id}\0{card.id if card else ''}".encode()).hexdigest()[:16]
    return f"{GENERATED}:card-{digest}.png"


def example_card_png(game: Game) -> bytes:
    """The example card as the sheets print it (trimmed), at the diagram's width."""
    card = _example_card(game)
    width_mm, height_mm = card_size_mm(game.card_size)
    width = round(DIAGRAM_WIDTH_MM / 25.4 * DIAGRAM_DPI)
    return card_images.card_png(game, card, (width, round(width * height_mm / width_mm)), DIAGRAM_DPI)


def diagram_callouts(game: Game, parts: dict[str, int], shown: set[str]) -> list[tuple[int, float, float]]:
    """The number of each part the example card shows (`shown`) and where its callout sits on the
    card, in % of its width and height: at the region the card layout gives that part."""
    design = game.layout
    width, height = design["design"]["width"], design["design"]["height"]
    box = lambda key: design[key]  # noqa: E731
    spots = {
        "name": (box("name")["x"] + box("name")["width"] / 2, box("name")["y"] + box("name")["height"]),
        "symbol": (box("symbol")["x"] - box("symbol")["radius"], box("symbol")["y"] - box("symbol")["radius"]),
        "star": (box("star")["x"] - box("star")["size"], box("star")["y"]),
        "number": (box("number")["x"] + box("number")["radius"], box("number")["y"] - box("number")["radius"]),
        "flavor": (box("flavor")["x"], box("flavor")["y"] + box("flavor")["height"] / 2),
        "art": (box("art")["x"] + box("art")["width"] / 2, box("art")["y"] + box("art")["height"] / 3),
        "tags": (width / 2 - 12, box("tags")["y"] - box("tags")["height"] / 2),
        "text": (box("text")["x"], box("text")["y"]),
    }
    return [(number, round(100 * spots[part][0] / width, 2), round(100 * spots[part][1] / height, 2))
            for part, number in parts.items() if part in shown]


CARD_PARTS = ("name", "symbol", "star", "number", "flavor", "art", "tags", "text")  # the diagram's order
EVERY_CARD_PARTS = {"name", "symbol", "art"}  # every card has these (art: a placeholder without)


def _parts_of(card: Card) -> set[str]:
    """The parts of the card face this card shows."""
    optional = {"star": card.star, "number": card.number is not None, "flavor": bool(card.flavor),
                "tags": bool(card.tags), "text": bool(card.text)}
    return EVERY_CARD_PARTS | {part for part, shown in optional.items() if shown}


def card_parts(game: Game) -> dict[str, int]:
    """The parts of a card this game's cards use, numbered in the diagram's order."""
    used = EVERY_CARD_PARTS.union(*(_parts_of(card) for card in game.cards))
    return {part: i for i, part in enumerate((p for p in CARD_PARTS if p in used), start=1)}


def numbers_in_brackets(game: Game) -> bool:
    """Whether the effect texts quote their card's number in brackets, as in 'Draw (2) cards'."""
    return any(c.number is not None and f"({c.number})" in c.text for c in game.cards)


def _example_card(game: Game) -> Card | None:
    """The card that shows the most regions in the 'structure of a card' diagram."""
    return max(game.cards, key=lambda card: len(_parts_of(card)), default=None)


def _count_columns(setup_report: SetupReport, game: Game | None = None) -> list[tuple]:
    """The printed count table as rows of two (card, count) pairs: left column first."""
    lines = list(setup_report.setup.lines)
    half = (len(lines) + 1) // 2
    left, right = lines[:half], lines[half:]
    return [(l, right[i] if i < len(right) else None) for i, l in enumerate(left)]


def version_label(version: str) -> str:
    """'v1.1' for a version number, any other version text as written ('Classic')."""
    return f"v{version}" if version[:1].isdigit() else version


def hand_label(game: Game, setup: Setup, played: PlayerCount) -> str:
    """'6 cards plus 1 Defuse' — what each player starts with at a player count: the setup's hand
    size there, or what the steps deal when the setup gives none."""
    extras = _extras_each(game, played)
    if played.hand is None and extras:
        return " and ".join(extras)
    label = counted(played.hand if played.hand is not None else played.dealt_per_player, "card")
    return label + (" plus " + " and ".join(extras) if extras else "")


def _extras_each(game: Game, played: PlayerCount) -> list[str]:
    """The extra cards each player gets at a player count ('1 Defuse'), from the engine."""
    return [f"{n} {game.card(card_id).name}" for card_id, n in played.extras.items() if n]


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
            line = f"{values[0]} {component.noun(values[0])}"
        else:
            line = f"{component.plural}: " + ", ".join(f"{totals[n]} with {n} players" for n in sorted(totals))
        lines.append(line + (f": {component.meaning}" if component.meaning else ""))
    return lines


def write_rulebook(game: Game, report: GameReport, out_dir: Path, paper: str = "a4") -> Path:
    pdf = render_pdf(game, "rulebook.html", rulebook_context(game, report), paper)
    return atomic_write(Path(out_dir) / "rulebook.pdf", pdf)


# --------------------------------------------------------------------------- deck-setup checklists


@dataclass
class ChecklistPage:
    report: SetupReport
    players: PlayerCount
    groups: list[tuple[Color, list[tuple[Card, int]]]]
    total: int
    steps: list[tuple[str, str]]  # (step text, the numbers for this player count)


def checklist_pages(game: Game, report: GameReport, setup: str | None = None,
                    players: int | None = None) -> list[ChecklistPage]:
    """One page per setup (or the one named) at the given player count (default: its largest)."""
    reports = [report.setup(setup)] if setup else report.setups
    pages = []
    for setup_report in reports:
        pages.append(_checklist_page(game, setup_report, players or setup_report.setup.max_players))
    return pages


def _checklist_page(game: Game, setup_report: SetupReport, players: int) -> ChecklistPage:
    played = setup_report.player_count(players)
    deck = played.starting_deck
    groups = []
    for color in game.colors:
        rows = [(card, deck[card.id]) for card in game.cards if card.color == color.id and deck.get(card.id)]
        if rows:
            groups.append((color, rows))
    steps = [(s.step.text, _step_numbers(game, played, s)) for s in played.steps if s.step.text]
    return ChecklistPage(setup_report, played, groups, sum(deck.values()), steps)


def _step_numbers(game: Game, played: PlayerCount, carried_out: StepReport) -> str:
    """A step's numbers as the engine carried it out for this player count ('' when it has none)."""
    step, count = carried_out.step, carried_out.count
    if step.extras:
        extras = _extras_each(game, played)
        return f"{' and '.join(extras)} to each player" if extras else "nothing to deal in this setup"
    if count is None:
        return ""
    if count == 0:
        return f"none with {played.players} players"
    amount = f"{'up to ' if step.up_to else ''}{counted(count, 'card')}"
    amount = f"{amount} to each player" if step.per_player else amount
    return f"{amount}, picked at random" if step.random else amount


def checklists_context(game: Game, report: GameReport, setup: str | None = None,
                       players: int | None = None) -> dict:
    return {
        "pages": checklist_pages(game, report, setup, players),
        **symbol_context(game),
        "checkbox_mark": symbols.code_points(game)["checkbox"],
        "kinds": {k.id: k for k in game.kinds},
        "number": format_number,
        "hand_label": lambda setup, played: hand_label(game, setup, played),
        "players_label": players_label,
    }


def write_checklists(game: Game, report: GameReport, out_dir: Path, paper: str = "a4",
                     setup: str | None = None, players: int | None = None) -> Path:
    pdf = render_pdf(game, "checklists.html", checklists_context(game, report, setup, players), paper)
    return atomic_write(Path(out_dir) / "checklists.pdf", pdf)

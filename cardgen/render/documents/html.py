"""render/documents/html: Jinja templates → HTML, and the whole way to PDF (render_pdf).

Templates are looked up in <game folder>/templates first, then in the shared templates/,
so a game can override any template or CSS and `{% extends %}` the shared ones. Every
template runs in Jinja's sandbox with autoescaping and StrictUndefined, closed further here:
no attributes of files, streams or modules, no huge values, a loop budget per document.
"""
from __future__ import annotations

import contextvars
import functools
import io
import os
import re
import traceback
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import jinja2
import jinja2.bccache
import jinja2.filters
import jinja2.loaders
import jinja2.nodes
import jinja2.runtime
import jinja2.utils
import jinja2.visitor
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from cardgen.errors import BuildError
from cardgen.inputs import symbols
from cardgen.inputs.paths import TEMPLATES as SHARED_TEMPLATES
from cardgen.inputs.paths import display_path, has_own_templates, inside, shortened
from cardgen.model.game import Game
from cardgen.model.sizes import DEFAULT_PAPER, PAPERS_MM
from cardgen.model.texts import ascii_digits, cards, component_count, kind_count
from cardgen.model.words import gettext, ngettext, percent
from cardgen.render.documents.markdown import markdown_html
from cardgen.render.documents.weasy import (
    GENERATED,
    allowed_roots,
    font_face_css,
    html_to_pdf,
    html_to_pdf_if,
    symbol_font_name,
)


def render_pdf(game: Game, template_name: str, context: dict[str, Any], paper: str = DEFAULT_PAPER) -> bytes:
    """Render a template of the game to PDF bytes (same input, same bytes)."""
    html = render_html(game, template_name, context, paper)
    return html_to_pdf(game, html, template_name)


def render_pdf_if(game: Game, template_name: str, context: dict[str, Any], paper: str,
                  wanted: Callable[[int], bool]) -> tuple[int, bytes | None]:
    """The document's number of pages, and render_pdf's PDF if `wanted(pages)` (else None, never
    written); LostContent as render_pdf."""
    return html_to_pdf_if(game, render_html(game, template_name, context, paper), template_name, wanted)


def render_html(game: Game, template_name: str, context: dict[str, Any], paper: str = DEFAULT_PAPER) -> str:
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


def _render_template(env: SandboxedEnvironment, game: Game, template_name: str, context: dict[str, Any]) -> str:
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


def _joined(parts: Iterable[str]) -> str:
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


class _Compiled(jinja2.BytecodeCache):
    """The templates compiled in this process, by name, file and source, for every environment
    `_environment` makes (all configured alike, so each compiles a source alike): a game in a new
    folder compiles only its own templates, and the workers forked after
    `compile_shipped_templates` compile none of the shipped ones."""

    LIMIT = 256  # `cardgen serve` compiles a game's template again at each edit

    def __init__(self) -> None:
        self._codes: dict[tuple[str, str], types.CodeType] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        bucket.code = self._codes.get((bucket.key, bucket.checksum))

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if len(self._codes) >= self.LIMIT:
            del self._codes[next(iter(self._codes))]  # the oldest
        assert bucket.code is not None
        self._codes[bucket.key, bucket.checksum] = bucket.code


_COMPILED = _Compiled()


def compile_shipped_templates() -> None:
    """Every shipped template compiled into the process's cache, before the workers fork: each
    document's worker then only renders them (it would compile the few it uses again, and
    compiling a template costs about as much as rendering it). Through an environment of its
    own, which asks the cache for each: one the cache let go of (serve compiles a game's template
    at each edit) is compiled again, the others cost a read of their file."""
    env = _new_environment((str(SHARED_TEMPLATES),), (SHARED_TEMPLATES,))
    for name in env.list_templates(extensions=("html", "css")):
        env.get_template(name)


@lru_cache(maxsize=16)
def _environment(folders: tuple[str, ...], roots: tuple[Path, ...]) -> SandboxedEnvironment:
    """One environment per template folders and process: Jinja then compiles each template once
    (compiling costs more than rendering) and again only when its file changes."""
    return _new_environment(folders, roots)


def _new_environment(folders: tuple[str, ...], roots: tuple[Path, ...]) -> SandboxedEnvironment:
    env = _Sandbox(
        loader=_ContainedLoader(list(folders), roots),
        bytecode_cache=_COMPILED,
        autoescape=jinja2.select_autoescape(["html", "htm", "xml", "svg"], default_for_string=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    # cardgen's own words in the language speaking (model.words), with the few tags a message holds
    env.install_gettext_callables(lambda message: _tags_only(gettext(message)),  # type: ignore[attr-defined]
                                  lambda one, several, n: _tags_only(ngettext(one, several, n)), newstyle=True)
    env.globals.update(cards=cards, kind_count=kind_count, component_count=component_count, percent=percent)
    env.filters["markdown"] = jinja2.pass_context(lambda context, text: markdown_html(text, context["game"]))
    env.filters["nobreak"] = lambda text: str(text).replace(" ", "\u00a0")  # keeps a label on one line
    env.filters["heading"] = heading_breaks
    env.filters["version"] = version_label
    env.filters["field_name"] = gettext  # diff's names of a card's fields (diff/games.py)
    env.filters = {name: _bounded(f) for name, f in env.filters.items()}
    return env


_PARENTHESIS = re.compile(r"\([^()]{1,24}\)")
_LAST_TWO_WORDS = re.compile(r"(\S+) (\S{1,6})$")


def heading_breaks(text: str) -> str:
    """A heading that breaks only where a reader expects: a short bracket is kept whole ('(A or K)')
    and a short last word keeps the one before it ('one suit'), by no-break spaces."""
    text = _PARENTHESIS.sub(lambda match: match.group(0).replace(" ", "\u00a0"), str(text))
    return _LAST_TWO_WORDS.sub("\\1\u00a0\\2", text)


# the markup a message may hold: a translation (a game's own catalog too) is text otherwise
_MESSAGE_TAGS = ("<strong>", "</strong>", "<em>", "</em>", "<b>", "</b>", '<span class="big">', "</span>")


def _tags_only(message: str) -> Markup:
    escaped = str(Markup.escape(message))
    for tag in _MESSAGE_TAGS:
        escaped = escaped.replace(str(Markup.escape(tag)), tag)
    return Markup(escaped)


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


def _check_arguments(args: Sequence[Any], kwargs: dict[str, Any]) -> None:
    """Numbers that ask a filter or method for a huge value ("x"|center(10**9)) are refused."""
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > _Sandbox.MAX_SIZE:
            raise _too_large(f"the number {value}")


T = TypeVar("T")


def _check_size(value: T) -> T:
    if isinstance(value, (str, list, tuple, dict)) and len(value) > MAX_STRING:
        raise _too_large(f"a value of {len(value)} items or characters")
    return value


def _bounded(function: Callable[..., Any]) -> Callable[..., Any]:
    """A filter that refuses huge numbers as arguments (not as the value it filters) and huge results."""
    value_at = 1 if jinja2.utils._PassArg.from_obj(function) else 0  # after the context or environment

    @functools.wraps(function)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        _check_arguments(args[value_at + 1:], kwargs)
        if function is jinja2.filters.do_format and _BIG_FORMAT.search(str(args[value_at])):
            raise _too_large("a format width")
        return _check_size(function(*args, **kwargs))
    return bounded


class _Limits(jinja2.visitor.NodeTransformer):
    """Rewrites a parsed template so that every loop's items and every `~` result pass through
    the environment's checks (Jinja has no hook for either)."""

    def visit_For(self, node: jinja2.nodes.For) -> jinja2.nodes.For:
        self.generic_visit(node)
        node.iter = jinja2.nodes.Call(jinja2.nodes.EnvironmentAttribute("loop_items"), [node.iter], [], None, None)
        return node

    def visit_Concat(self, node: jinja2.nodes.Concat) -> jinja2.nodes.Call:
        self.generic_visit(node)
        return jinja2.nodes.Call(jinja2.nodes.EnvironmentAttribute("sized"), [node], [], None, None)


class _Sandbox(SandboxedEnvironment):
    """Jinja's sandbox, closed further: templates get no attribute of file-system, stream or
    module objects (the model holds paths); `*`, `**`, `+`, `~`, `%`, filters and methods cannot
    build huge values, and loops have a budget per document."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})
    MAX_SIZE = 100_000

    def _parse(self, source: str, name: str | None, filename: str | None) -> Any:
        return _Limits().visit(super()._parse(source, name, filename))

    @staticmethod
    def sized(value: T) -> T:
        return _check_size(value)

    @staticmethod
    def loop_items(items: Any) -> Any:
        budget = _loop_budget.get(None)
        if budget is None:
            return items
        if hasattr(items, "__len__"):
            budget[0] -= len(items)
            if budget[0] < 0:
                raise jinja2.exceptions.SecurityError(f"a document's templates may loop over at most {MAX_LOOP_ITEMS} items")
            return items
        return _counted(items, budget)

    def call(__self, __context: jinja2.runtime.Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 - Jinja's own signature
        _check_arguments(args, kwargs)
        return _check_size(super().call(__context, __obj, *args, **kwargs))

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """Jinja's own sandboxed `str.format` and `format_map` (what a template gets for them),
        refused for a format string that asks for a width or precision of a million or more:
        before the string is made, not after."""
        wrapped = super().wrap_str_format(value)
        if wrapped is not None and _BIG_FORMAT.search(value.__self__):
            raise _too_large("a format width")
        return wrapped

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if isinstance(obj, (os.PathLike, io.IOBase, types.ModuleType)):
            return False
        return super().is_safe_attribute(obj, attr, value)

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any) -> Any:
        if operator == "**" and (not isinstance(right, (int, float)) or abs(right) > 64
                                 or not isinstance(left, (int, float)) or abs(left) > self.MAX_SIZE):
            raise jinja2.exceptions.SecurityError(f"'{left!r} ** {right!r}' is too large for a template")
        if operator == "*":
            sizes = [len(x) if isinstance(x, (str, list, tuple)) else 1 for x in (left, right)]
            counts = [x for x in (left, right) if isinstance(x, int)]
            if any(not isinstance(x, (int, float)) for x in (left, right)) and \
                    sizes[0] * sizes[1] * max([abs(c) for c in counts] or [1]) > self.MAX_SIZE:
                raise jinja2.exceptions.SecurityError("a repeated value that large is not allowed in a template")
        if operator == "%" and isinstance(left, str):
            if _BIG_FORMAT.search(left):
                raise _too_large("a format width")
            if "*" in left:  # a width or precision taken from the values ("%*d" % (width, n))
                _check_arguments(right if isinstance(right, tuple) else (right,), {})
        return _check_size(super().call_binop(context, operator, left, right))


def _counted(items: Iterable[Any], budget: list[int]) -> Iterator[Any]:
    for item in items:
        budget[0] -= 1
        if budget[0] < 0:
            raise jinja2.exceptions.SecurityError(f"a document's templates may loop over at most {MAX_LOOP_ITEMS} items")
        yield item


class _ContainedLoader(jinja2.FileSystemLoader):
    """Templates from the game's templates/ and the shared ones; a template that is a symlink
    leading out of the game folder, templates/ and art/ is refused, and so is one that is not a
    regular file (Jinja would pass over a pipe or folder of that name to the shared template)."""

    def __init__(self, searchpath: list[str], roots: tuple[Path, ...]) -> None:
        super().__init__(searchpath)
        self.roots = roots

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        try:
            return self._contained_source(environment, template)
        except jinja2.TemplateNotFound:  # an OSError too: templates look for optional ones this way
            raise
        except OSError as exc:  # a name the file system refuses (too long, ...): no file has it
            # a ValueError: reported as a template error at the line that names the template
            raise ValueError(f"template '{shortened(template)}' cannot be read: {exc.strerror or exc}") from None

    def _contained_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
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


def own_templates(game: Game) -> bool:
    """Whether the game has its own templates/ folder (which comes before the shipped one)."""
    return has_own_templates(game.folder)


def template_folders(game: Game) -> list[Path]:
    own = game.folder / "templates"
    return [own, SHARED_TEMPLATES] if own_templates(game) else [SHARED_TEMPLATES]


def _template_position(exc: BaseException, game: Game, env: SandboxedEnvironment, template_name: str) -> str:
    """'file:line' of the innermost template frame of a render error (Jinja maps frames to template lines)."""
    folders = list(env.loader.searchpath) if isinstance(env.loader, jinja2.FileSystemLoader) else []
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if any(frame.filename.startswith(folder) for folder in folders):
            return f"{display_path(frame.filename, game.folder)}:{frame.lineno}"
    return template_name



def symbol_marks(game: Game) -> dict[str, str | None]:
    """Each color's symbol as a character of the symbol font (None: the color has no symbol file)."""
    characters = symbols.code_points(game)
    return {color.id: characters.get(color.symbol) for color in game.colors}


def star_mark(game: Game) -> str | None:
    return symbols.code_points(game).get("star")


def symbol_context(game: Game) -> dict[str, Any]:
    """What the templates' symbol macros read: each color's and each card's symbol as a character."""
    characters = symbols.code_points(game)
    return {
        "symbols": symbol_marks(game),
        "star_mark": star_mark(game),
        "card_mark": lambda card: characters.get(game.symbol_of(card)),
    }



def version_label(version: str) -> str:
    """'v1.1' for a version number, any other version text as written ('Classic')."""
    return f"v{version}" if ascii_digits(version[:1]) else version


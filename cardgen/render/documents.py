"""render/documents: Jinja templates → HTML → WeasyPrint PDF (rulebook, checklists, cheat sheets).

Templates are looked up in <game folder>/templates first, then in the shared templates/,
so a game can override any template or CSS and `{% extends %}` the shared ones. Every
template runs in Jinja's sandbox with autoescaping and StrictUndefined. WeasyPrint only
ever sees local files inside the game folder, templates/ and art/: anything else (other
schemes, paths that escape, symlinks leading out) stops the build with a BuildError.
"""
from __future__ import annotations

import logging
import mimetypes
import traceback
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

import jinja2
from jinja2.sandbox import SandboxedEnvironment
from markdown_it import MarkdownIt
from markupsafe import Markup

from ..load import PROJECT_ROOT
from ..model import BuildError, Game

SHARED_TEMPLATES = PROJECT_ROOT / "templates"
SHARED_ART = PROJECT_ROOT / "art"
FONT_SUFFIXES = (".ttf", ".otf", ".woff", ".woff2")
PAPERS = {"a4": "A4", "letter": "letter"}
# WeasyPrint warnings about the machine, not the document: not build failures
ENVIRONMENT_NOTICES = ("Using fontTools instead of HarfBuzz",)


# --------------------------------------------------------------------------- the public core


def render_pdf(game: Game, template_name: str, context: dict, paper: str = "a4") -> bytes:
    """Render a template of the game to PDF bytes (same input, same bytes)."""
    html = render_html(game, template_name, context, paper)
    return html_to_pdf(game, html, template_name)


def render_html(game: Game, template_name: str, context: dict, paper: str = "a4") -> str:
    if paper not in PAPERS:
        raise BuildError(f"unknown paper size '{paper}'", hint=f"use one of: {', '.join(PAPERS)}")
    env = environment(game)
    full_context = {"game": game, "paper": PAPERS[paper], "font_faces": Markup(font_face_css(game)),
                    **context}
    try:
        return env.get_template(template_name).render(full_context)
    except jinja2.TemplateSyntaxError as exc:
        raise BuildError(f"template syntax: {exc.message}", f"{exc.filename or exc.name}:{exc.lineno}") from None
    except jinja2.TemplateNotFound as exc:
        raise BuildError(f"template '{exc.name}' not found",
                         hint=f"looked in {', '.join(str(p) for p in template_folders(game))}") from None
    except (jinja2.UndefinedError, jinja2.exceptions.SecurityError, TypeError, ValueError) as exc:
        raise BuildError(f"template error: {exc}", _template_position(exc, env, template_name)) from None


def environment(game: Game) -> SandboxedEnvironment:
    """The sandboxed Jinja environment of a game: its templates first, then the shared ones."""
    env = SandboxedEnvironment(
        loader=jinja2.FileSystemLoader([str(p) for p in template_folders(game)]),
        autoescape=jinja2.select_autoescape(["html", "htm", "xml", "svg"], default_for_string=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["markdown"] = lambda text: markdown_html(text, game)
    return env


def template_folders(game: Game) -> list[Path]:
    own = game.folder / "templates"
    return [own, SHARED_TEMPLATES] if own.is_dir() else [SHARED_TEMPLATES]


def _template_position(exc: BaseException, env, template_name: str) -> str:
    """'file:line' of the innermost template frame of a render error (Jinja maps frames to template lines)."""
    folders = list(env.loader.searchpath)
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if any(frame.filename.startswith(folder) for folder in folders):
            return f"{_short_path(frame.filename)}:{frame.lineno}"
    return template_name


def _short_path(path: str) -> str:
    try:
        return str(Path(path).relative_to(PROJECT_ROOT))
    except ValueError:
        return path


# --------------------------------------------------------------------------- Markdown


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    # html disabled: raw HTML typed in the data is shown as text, never passed through
    return MarkdownIt("commonmark", {"html": False, "typographer": False}).enable(["table", "strikethrough"])


def markdown_html(text: str, game: Game, origin: str = "") -> Markup:
    """Markdown of the game data → safe HTML. Images must be local files the fetcher may serve."""
    md = _markdown()
    tokens = md.parse(text or "")
    for token in _inline_children(tokens):
        if token.type == "image":
            check_local_url(token.attrGet("src") or "", game, origin or "Markdown in the game data")
    return Markup(md.renderer.render(tokens, md.options, {}))


def markdown_inline(text: str, game: Game, origin: str = "") -> Markup:
    """One line of Markdown (card text, list items) without the surrounding paragraph."""
    html = str(markdown_html(text, game, origin)).strip()
    if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        html = html[3:-4]
    return Markup(html)


def _inline_children(tokens):
    for token in tokens:
        yield token
        if token.children:
            yield from _inline_children(token.children)


# --------------------------------------------------------------------------- local files only


def allowed_roots(game: Game) -> list[Path]:
    return [game.folder.resolve(), SHARED_TEMPLATES.resolve(), SHARED_ART.resolve()]


def check_local_url(url: str, game: Game, origin: str) -> Path:
    """The local file a URL (absolute file: or relative to the game folder) points to, if allowed."""
    parts = urlsplit(url)
    if parts.scheme and parts.scheme != "file":
        raise BuildError(f"refused to fetch '{url}' (from {origin}): only local files can be used",
                         hint="copy the file into the game folder and use a relative path")
    if parts.scheme == "file":
        if parts.netloc not in ("", "localhost"):
            raise BuildError(f"refused to fetch '{url}' (from {origin}): not a local file")
        path = Path(url2pathname(unquote(parts.path)))
    else:
        path = game.folder / unquote(parts.path)
    resolved = path.resolve()
    if not any(resolved.is_relative_to(root) for root in allowed_roots(game)):
        raise BuildError(f"refused to fetch '{url}' (from {origin}): it is outside the game folder, "
                         "templates/ and art/", hint="keep images, CSS and fonts inside the game folder")
    if not resolved.is_file():
        raise BuildError(f"'{url}' (from {origin}) does not exist", hint=f"looked for {resolved}")
    return resolved


def _fetcher_class():
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class LocalFileFetcher(URLFetcher):
        """Serves allowed local files and nothing else; refusals stop the rendering."""

        def __init__(self, game: Game, origin: str):
            super().__init__(fail_on_errors=True)
            self.game, self.origin = game, origin
            self.refused: list[BuildError] = []

        def fetch(self, url, headers=None):
            try:
                path = check_local_url(url, self.game, self.origin)
            except BuildError as exc:
                self.refused.append(exc)
                raise
            mime, _ = mimetypes.guess_type(path.name)
            return URLFetcherResponse(path.as_uri(), path.read_bytes(),
                                      {"Content-Type": mime or "application/octet-stream"})

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

    fetcher = _fetcher_class()(game, f"template {origin} or the game data")
    collect = _Collect()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(collect)
    try:
        document = weasyprint.HTML(string=html, base_url=game.folder.resolve().as_uri() + "/",
                                   url_fetcher=fetcher)
        pdf = document.write_pdf(font_config=_font_config(), cache=_image_cache())
    except FatalURLFetchingError as exc:
        if fetcher.refused:
            raise fetcher.refused[0] from None
        raise BuildError(f"{origin}: {exc} ({exc.__cause__})") from None
    finally:
        logger.removeHandler(collect)
    if fetcher.refused:
        raise fetcher.refused[0]
    if collect.messages:
        raise BuildError(f"WeasyPrint could not render {origin} cleanly: " + "; ".join(collect.messages[:5]),
                         hint="fix the template or CSS named in the message")
    return pdf


@lru_cache(maxsize=1)
def _font_config():
    from weasyprint.text.fonts import FontConfiguration

    return FontConfiguration()


@lru_cache(maxsize=1)
def _image_cache() -> dict:
    return {}


# --------------------------------------------------------------------------- fonts


def font_files(game: Game) -> list[Path]:
    folders = [game.folder / "fonts", SHARED_ART / "fonts"]
    return sorted(p for folder in folders if folder.is_dir() for p in folder.iterdir()
                  if p.suffix.lower() in FONT_SUFFIXES)


def font_face_css(game: Game) -> str:
    """@font-face rules for every font shipped with the game or in art/fonts/."""
    return "\n".join(_font_face(path) for path in font_files(game))


@lru_cache(maxsize=64)
def _font_face(path: Path) -> str:
    family, weight, italic = _font_names(path)
    return (f'@font-face {{ font-family: "{family}"; src: url("{path.resolve().as_uri()}"); '
            f"font-weight: {weight}; font-style: {'italic' if italic else 'normal'}; }}")


def _font_names(path: Path) -> tuple[str, int, bool]:
    """Family, weight and italic flag from the font's own tables (the file name is a guess)."""
    try:
        from fontTools.ttLib import TTFont

        font = TTFont(path, lazy=True, fontNumber=0)
        name = font["name"]
        family = (name.getDebugName(16) or name.getDebugName(1) or path.stem).replace('"', "")
        weight = font["OS/2"].usWeightClass if "OS/2" in font else 400
        italic = bool(font["OS/2"].fsSelection & 1) if "OS/2" in font else "italic" in path.stem.lower()
        return family, weight, italic
    except Exception:  # unreadable font: describe it by its file name, WeasyPrint will report it
        stem = path.stem.lower()
        return path.stem.split("-")[0], 700 if "bold" in stem else 400, "italic" in stem


def symbol_url(game: Game, symbol: str) -> str | None:
    """File URL of a symbol's SVG: the game's symbols/ first, then art/symbols/; None if missing."""
    for folder in (game.folder / "symbols", SHARED_ART / "symbols"):
        path = folder / f"{symbol}.svg"
        if path.is_file():
            return path.resolve().as_uri()
    return None


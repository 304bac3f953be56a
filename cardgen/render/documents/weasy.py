"""render/documents/weasy: HTML → PDF with WeasyPrint.

WeasyPrint only ever sees local files inside the game folder, templates/ and art/, through the
fetcher here: anything else (other schemes, paths that escape, symlinks leading out) stops the
build with a BuildError. Generated resources (the symbol font, the example card of the diagram)
are served from memory under the `cardgen-generated:` scheme. The fonts: the game's own as
@font-face rules, one font configuration per process, embedded subsets stamped with a fixed time.
"""
from __future__ import annotations

import base64
import hashlib
import logging
import mimetypes
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardgen.errors import BuildError
from cardgen.inputs import fonts, images, symbols
from cardgen.inputs.files import MAX_FONT_BYTES, UnreadableInput, read_input
from cardgen.inputs.paths import display_path, game_roots, inside, local_file
from cardgen.model.game import Game
from cardgen.render.documents import patches, webfonts
from cardgen.render.documents.diagram import example_card, example_card_png
from cardgen.render.documents.overflow import lost_texts
from cardgen.render.documents.tagged import finish_tagged

MAX_CSS_BYTES = 1024 * 1024
# WeasyPrint warnings about the machine, not the document: not build failures
ENVIRONMENT_NOTICES = ("Using fontTools instead of HarfBuzz",)
GENERATED = "cardgen-generated"  # the URL scheme of the symbol font, which the fetcher serves from memory
FIXED_EPOCH = "946684800"  # 2000-01-01: the timestamp embedded fonts carry, so equal input gives equal bytes


def allowed_roots(game: Game) -> list[Path]:
    return game_roots(game.folder)


def checked_file(url: str, game: Game, origin: str) -> tuple[Path, bytes]:
    """The local file a URL names and its bytes, read once and checked as what it is: an image by
    the images' check, a font or a style sheet by its size. Nothing else may be fetched."""
    path = local_file(url, game.folder, origin)
    suffix = path.suffix.lower()
    roots = allowed_roots(game)
    try:
        if suffix in images.FORMATS:
            return path, images.document_image(images.checked(path, roots))
        if suffix == images.SVG:
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


def _fetcher_class() -> type:
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class Checked(URLFetcherResponse):
        """A local file's bytes as they were read and checked. Given a file: URL's path, WeasyPrint
        reads a PNG again from the file when it writes the PDF: what it embedded was the file as it
        then was, not these bytes (a 16-bit gray image, given in 8 bits, came out black)."""

        path = None

    class LocalFileFetcher(URLFetcher):
        """Serves allowed local files and nothing else; refusals stop the rendering."""

        def __init__(self, game: Game, origin: str, symbols_shown: list[str]):
            super().__init__(fail_on_errors=True)
            self.game, self.origin, self.symbols_shown = game, origin, symbols_shown
            self.refused: list[BuildError] = []

        def fetch(self, url: str, headers: object = None) -> Any:
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
            return Checked(path.as_uri(), data, {"Content-Type": mime or "application/octet-stream"})

    return LocalFileFetcher



# --------------------------------------------------------------------------- WeasyPrint


class _Collect(logging.Handler):
    """WeasyPrint reports problems (bad CSS, missing images) as log lines: collect them as failures."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if not message.startswith(ENVIRONMENT_NOTICES):
            self.messages.append(message)


class LostContent(BuildError):
    """A laid-out document does not show all its text (cut by a box, or dropped at a page's end)."""

    def __init__(self, origin: str, lost: list[str]):
        shown = ", ".join(f"'{text.strip()[:40]}'" for text in lost[:6]) + (f" and {len(lost) - 6} more" if len(lost) > 6 else "")
        super().__init__(f"{origin} cannot show all its text: {shown} would be cut off or left out",
                         hint="shorten the texts named, or fix the template's or CSS's fixed sizes "
                              "(height, overflow: hidden, float) that leave them no room")
        self.lost = lost


def html_to_pdf(game: Game, html: str, origin: str) -> bytes:
    """The PDF of an HTML document; LostContent when a text is not on its pages."""
    _, pdf = html_to_pdf_if(game, html, origin, lambda pages: True)
    assert pdf is not None  # every layout is wanted, and a lost text raised
    return pdf


def html_to_pdf_if(game: Game, html: str, origin: str, wanted: Callable[[int], bool]) -> tuple[int, bytes | None]:
    """An HTML document laid out: its number of pages, and its PDF if `wanted(pages)`, else None,
    the PDF never written (a third of a document's time); LostContent as html_to_pdf."""
    import weasyprint
    from weasyprint.urls import FatalURLFetchingError

    patches.install()
    fetcher = _fetcher_class()(game, f"template {origin} or the game data", symbols.used_in(game, html))
    collect = _Collect()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(collect)
    try:
        document = weasyprint.HTML(string=html, base_url=game.folder.resolve().as_uri() + "/",
                                   url_fetcher=fetcher)
        with _font_subsetting(), _no_user_fontconfig(), patches.lines_kept():
            laid_out = document.render(font_config=_font_config(), cache=_image_cache(game.language))
            lost = lost_texts(html, laid_out.pages)
            pages = len(laid_out.pages)
            pdf = None if lost or not wanted(pages) else finish_tagged(laid_out.write_pdf(pdf_variant="pdf/ua-1"),
                                                                       html, symbol_texts(game))
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
    if lost:
        raise LostContent(origin, lost)
    if collect.messages:
        raise BuildError(f"WeasyPrint could not render {origin} cleanly: " + "; ".join(collect.messages[:5]),
                         hint="fix the template or CSS named in the message")
    return pages, pdf


@contextmanager
def _font_subsetting() -> Iterator[None]:
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


def _font_config() -> object:
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
def _no_user_fontconfig() -> Iterator[None]:
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


@lru_cache(maxsize=8)
def _image_cache(language: str) -> dict[str, Any]:
    """WeasyPrint's images by URL, for a process's life: one cache for each language, as a worker
    renders the documents of every language of a build, and the example card's URL names the
    card, not the language it is drawn in."""
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



# where a page names a resource: a style sheet (its url()s) and a tag (its src and its style's url()s);
# text between tags is the reader's, whatever it says ("src=boom", "see url(top)")
_STYLED_OR_TAG = re.compile(r"""<style\b[^>]*>.*?</style\s*>|<[a-zA-Z](?:[^>"']|"[^"]*"|'[^']*')*>""",
                            re.IGNORECASE | re.DOTALL)
_RESOURCE = re.compile(r"""(url\(\s*["']?|\bsrc\s*=\s*["']?)([^"')\s>]+)""", re.IGNORECASE)
# a page that sends its reader elsewhere (a content security policy does not hold back a refresh)
_REFRESH = re.compile(r"""<meta\b[^>]*\bhttp-equiv\s*=\s*["']?\s*refresh""", re.IGNORECASE)
# What a browser may do with the HTML edition: show its own styles and its inlined (data:) style
# sheets, fonts and images; no script, frame, plugin, form or request, whatever a template writes.
SEALED = ("default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline' data:; base-uri 'none'; "
          "form-action 'none'")
_DOCTYPE = re.compile(r"\ufeff?(?:\s|<!--.*?-->)*<!doctype[^>]*>", re.IGNORECASE | re.DOTALL)


def self_contained(game: Game, html: str) -> str:
    """The HTML with every font and image it names inlined (data: URLs), read through the same
    checks as WeasyPrint's fetcher: one file that opens anywhere and asks no network. Its fonts
    keep the characters the page can show. It is sealed: a content security policy (SEALED), right
    after its doctype, lets a browser run or fetch nothing a game's template may have put in it."""
    fetcher = _fetcher_class()(game, "template rulebook.html or the game data", symbols.used_in(game, html))
    shown = webfonts.shown_characters(html)

    def inlined(match: re.Match[str]) -> str:
        url = match.group(2)
        if url.startswith(("data:", "#")):
            return match.group(0)
        response = fetcher.fetch(url if ":" in url else game.folder.resolve().as_uri() + "/" + url)
        data = webfonts.subset(response.read(), shown)
        return match.group(1) + f"data:{response.content_type};base64," + base64.b64encode(data).decode("ascii")

    def resources_inlined(found: re.Match[str]) -> str:
        if _REFRESH.match(found.group(0)):
            raise BuildError(f"template rulebook.html or the game data: {found.group(0)[:80]} would send the HTML "
                             "edition's reader to another page", hint="remove the refresh: the edition is one page")
        return _RESOURCE.sub(inlined, found.group(0))

    return _sealed(_STYLED_OR_TAG.sub(resources_inlined, html))


def _sealed(html: str) -> str:
    doctype = _DOCTYPE.match(html)
    at = doctype.end() if doctype else 0
    return f'{html[:at]}<meta http-equiv="Content-Security-Policy" content="{SEALED}">{html[at:]}'


def symbol_texts(game: Game) -> dict[str, str]:
    """What each symbol's character reads as in a tagged PDF: the name of the color it stands for,
    else the symbol's own name."""
    colors = {color.symbol: color.name for color in game.colors}
    return {character: colors.get(name) or name.replace("-", " ").replace("_", " ")
            for name, character in symbols.code_points(game).items()}


def example_card_url(game: Game) -> str:
    """The URL the rulebook shows the example card under: the fetcher draws it (card_images)."""
    card = example_card(game)
    digest = hashlib.sha256(f"{game.id}\0{card.id if card else ''}".encode()).hexdigest()[:16]
    return f"{GENERATED}:card-{digest}.png"


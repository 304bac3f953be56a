"""paths: where cardgen's own resources are, and the one check that a path stays inside allowed roots."""
from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import unquote, urlsplit

from cardgen.errors import BuildError

_PACKAGE = Path(__file__).resolve().parent.parent  # cardgen/
# templates/, art/ and card_data/ are inside the package when installed from a wheel
# (pyproject.toml maps them there), beside it in a checkout or an editable install.
PROJECT_ROOT = _PACKAGE if (_PACKAGE / "templates").is_dir() else _PACKAGE.parent
TEMPLATES = PROJECT_ROOT / "templates"
ART = PROJECT_ROOT / "art"
CARD_DATA = PROJECT_ROOT / "card_data"
SCHEMAS = _PACKAGE / "schemas"  # the editor schemas of the game files (made by load/schema.py)
LOCALE = _PACKAGE / "locale"  # the catalogs of cardgen's own words, <lang>.po (see inputs.catalogs)
# cardgen's own folders, with every symlink followed once: where cardgen is installed does not move
_OWN_ROOTS: dict[object, Path] = {TEMPLATES: TEMPLATES.resolve(), ART: ART.resolve()}


def inside(path: str | os.PathLike[str], roots: Iterable[str | os.PathLike[str]]) -> bool:
    """Whether path, with every symlink followed, lies inside one of the roots."""
    try:
        resolved = Path(path).resolve()
        # cardgen's own folders first: resolved already, they answer without a look at the disk
        ordered = sorted(roots, key=lambda root: root not in _OWN_ROOTS)
        return any(resolved.is_relative_to(_OWN_ROOTS.get(root) or Path(root).resolve()) for root in ordered)
    except (OSError, ValueError):  # a symlink loop, a NUL byte: nothing that could be read safely
        return False


def display_path(path: str | os.PathLike[str], game_folder: str | os.PathLike[str]) -> str:
    """A file as messages name it: a game's file relative to the game folder's parent, so the same
    game gives the same messages (and `check --json`) from any working directory; one of cardgen's
    own (templates/, art/) relative to where they are installed."""
    path, game_folder = Path(path), Path(game_folder)
    if not path.is_relative_to(game_folder) and path.is_relative_to(PROJECT_ROOT):
        return str(path.relative_to(PROJECT_ROOT))
    try:
        return os.path.relpath(path, game_folder.parent)
    except ValueError:  # another drive on Windows
        return str(path)


def has_own_templates(game_folder: str | os.PathLike[str]) -> bool:
    """Whether a game has its own templates/ folder (which comes before the shipped one)."""
    return (Path(game_folder) / "templates").is_dir()


def game_roots(game_folder: str | os.PathLike[str]) -> list[Path]:
    """Where the files a game's documents use may lie: the game folder, templates/ and art/."""
    return [Path(game_folder), TEMPLATES, ART]


def local_file(url: str, game_folder: str | os.PathLike[str], origin: str) -> Path:
    """The local file a URL (absolute file: or relative to the game folder) points to; BuildError
    when it is not a local file inside game_roots or does not exist."""
    from urllib.request import url2pathname  # here, not at the top: urllib.request imports http, email and ssl

    parts = urlsplit(url)
    if "\0" in unquote(parts.path):
        raise BuildError(f"refused to fetch {url!r} (from {origin}): a file name cannot hold a NUL character")
    if parts.scheme and parts.scheme != "file":
        raise BuildError(f"refused to fetch '{url}' (from {origin}): only local files can be used",
                         hint="copy the file into the game folder and use a relative path")
    if parts.scheme == "file":
        if parts.netloc not in ("", "localhost"):
            raise BuildError(f"refused to fetch '{url}' (from {origin}): not a local file")
        path = Path(url2pathname(unquote(parts.path)))
    else:
        path = Path(game_folder) / unquote(parts.path)
    resolved = path.resolve()
    if not inside(resolved, game_roots(game_folder)):
        raise BuildError(f"refused to fetch '{url}' (from {origin}): it is outside the game folder, "
                         "templates/ and art/", hint="keep images, CSS and fonts inside the game folder")
    try:
        found = resolved.is_file()
    except OSError as exc:  # a name the file system refuses (too long, ...): no file has it
        raise BuildError(f"'{shortened(url)}' (from {origin}) cannot be read: {exc.strerror or exc}") from None
    if not found:
        raise BuildError(f"'{url}' (from {origin}) does not exist",
                         hint=f"looked for {display_path(resolved, game_folder)}")
    return resolved


def shortened(name: str, limit: int = 60) -> str:
    """A name from the data as a message shows it: at most `limit` characters."""
    return name if len(name) <= limit else name[:limit - 3] + "..."

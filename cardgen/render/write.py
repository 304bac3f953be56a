"""write: outputs appear complete or not at all.

Each file is written to a temporary file beside its destination and renamed over it, so a
failed write leaves the last good file byte-identical and no temp file behind. (Publishing a
whole build at once is `build`'s job.)
"""
from __future__ import annotations

import hashlib
import io
import os
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.inputs.files import atomic_write
from cardgen.model.game import Game

if TYPE_CHECKING:
    import pikepdf

__all__ = ["atomic_write", "language_dir", "output_dir", "output_folder", "tagged_subsets"]
FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


def output_dir(game: Game, out: str | os.PathLike[str] | None = None) -> Path:
    """`--out DIR` if given, else output/<game>/ in the working directory."""
    return output_folder(game.id, out)


def language_dir(game: Game, out: str | os.PathLike[str] | None = None) -> Path:
    """Where a build publishes the game's outputs: output_dir for its source language, <lang>/
    inside it for another of its languages."""
    folder = output_folder(game.id, out)
    return folder / game.language if game.is_translation else folder


def output_folder(game_folder_name: str, out: str | os.PathLike[str] | None = None) -> Path:
    """The one rule for where a game's outputs go, also before the game is loaded (a game's id is
    its folder's name): `--out DIR` if given, else output/<game>/ in the working directory."""
    return Path(out) if out else Path("output") / game_folder_name


def tagged_subsets(pdf: bytes) -> bytes:
    """The PDF with each embedded font subset named by a tag of its own (ISO 32000-1 9.6.4: six
    capital letters, then '+'), drawn from a hash of the subset's font program: ReportLab names
    every first subset AAAAAA+. The same subset gets the same tag, so the bytes stay the same."""
    import pikepdf  # here, not at the top: a command that only reads the output folder's name pays nothing

    with pikepdf.open(io.BytesIO(pdf)) as document:
        for font in document.objects:
            if isinstance(font, pikepdf.Dictionary) and font.get("/Type") == pikepdf.Name.Font:
                _retag(font)
        out = io.BytesIO()
        document.save(out, deterministic_id=True)
        return out.getvalue()


def _retag(font: pikepdf.Dictionary) -> None:
    """A font's subset tag, in its name, its descendant's (a composite font) and its descriptor's."""
    import pikepdf

    named = [font, *font.get("/DescendantFonts", [])]
    descriptor = next((part["/FontDescriptor"] for part in named if "/FontDescriptor" in part), None)
    if descriptor is None:
        return
    program = next((descriptor[key] for key in FONT_FILES if key in descriptor), None)
    name = str(font.get("/BaseFont", ""))
    if program is None or not _is_subset(name[1:]):
        return
    digest = hashlib.sha256(name[8:].encode("utf-8") + program.read_raw_bytes()).digest()
    tag = "".join(chr(ord("A") + byte % 26) for byte in digest[:6])
    for part in named:
        if _is_subset(str(part.get("/BaseFont", ""))[1:]):
            part.BaseFont = pikepdf.Name("/" + tag + str(part.BaseFont)[7:])
    descriptor.FontName = pikepdf.Name("/" + tag + str(descriptor.FontName)[7:])


def _is_subset(name: str) -> bool:
    return len(name) > 7 and name[6] == "+" and name[:6].isalpha() and name[:6].isupper()

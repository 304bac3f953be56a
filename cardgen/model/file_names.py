"""model/file_names: what cardgen's output files are called, from the names in a game's data, and
the longest name a file system takes."""
from __future__ import annotations

MAX_FILE_NAME_BYTES = 255  # the longest file name Linux, macOS and Windows file systems take
# what the longest name derived from a sheet's may add: a PNG page (-p9999.png) and the temporary
# name a file is written under (.<name>.XXXXXXXX.tmp, see write.atomic_write)
_DERIVED_NAME_BYTES = len(".-p9999.png.XXXXXXXX.tmp")


def sheet_file_name(setup_name: str, deck: str | None = None) -> str:
    """A setup's card sheets: cards-<its id>.pdf in every language (cards-<id>-<deck>.pdf: a deck's of several)."""
    return f"cards-{slugify(setup_name)}{f'-{deck}' if deck else ''}.pdf"


def card_file_name(card_id: str) -> str:
    """The longest file name an export derives from a card's id (a card image's temporary name;
    see layout.exports)."""
    return f".999-{card_id}-x99999-front.png.XXXXXXXX.tmp"


def file_name_problem(name: str) -> str | None:
    """Why an output file name cannot be written on every file system, or None."""
    size = len(name.encode("utf-8")) - len(".pdf") + _DERIVED_NAME_BYTES
    if size > MAX_FILE_NAME_BYTES:
        return (f"its card sheets' file name {name} would be {len(name.encode('utf-8'))} bytes long "
                f"(with the page images' and temporary names, {size} of the {MAX_FILE_NAME_BYTES} bytes a file "
                "name may have)")
    return None


def slugify(text: str) -> str:
    out = []
    for ch in text.lower():
        if ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-") or "x"

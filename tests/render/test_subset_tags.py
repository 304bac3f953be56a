"""Every embedded font subset has a tag of its own (ISO 32000-1 9.6.4), read back with pdffonts
from each kind of PDF cardgen writes: card sheets (RGB and CMYK), the calibration sheets, a
one-card-a-page export, and the WeasyPrint documents; the tags are the same on every run."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import TINY_GAME, cardgen

pytestmark = pytest.mark.skipif(shutil.which("pdffonts") is None, reason="needs pdffonts (poppler-utils)")


def subset_names(pdf: Path) -> list[str]:
    """The subset fonts pdffonts lists (tag+name), one per font object."""
    listed = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in listed.splitlines()[2:] if re.match(r"[A-Z]{6}\+", line)]


def write(out: Path, *args: object) -> None:
    folder = out / "-".join(str(arg) for arg in args[2:]).replace("--", "") if len(args) > 2 else out / str(args[0])
    code, _, err = cardgen(*args, "--out", folder)
    assert code == 0, err


@pytest.fixture(scope="module")
def all_types(tmp_path_factory) -> Path:
    """The tiny game's sheet of every card type (the quick tests read this one only)."""
    out = tmp_path_factory.mktemp("tags")
    write(out, "cards", TINY_GAME, "--all-types")
    return out


@pytest.fixture(scope="module")
def written(all_types) -> Path:
    """Beside it, each other kind of PDF cardgen writes."""
    for args in (["cards", TINY_GAME, "--all-types", "--color", "cmyk"], ["cards", TINY_GAME, "--calibration"],
                 ["cards", TINY_GAME, "--calibration", "--marks", "silhouette"],
                 ["export", TINY_GAME, "--to", "drivethru", "--all-types"], ["rulebook", TINY_GAME],
                 ["checklist", TINY_GAME]):
        write(all_types, *args)
    return all_types


@pytest.mark.slow
def test_every_pdf_gives_each_font_subset_its_own_tag(written):
    pdfs = sorted(written.rglob("*.pdf"))
    assert len(pdfs) >= 7
    for pdf in pdfs:
        names = subset_names(pdf)
        assert names, pdf
        tags = [name.split("+")[0] for name in names]
        assert len(set(tags)) == len(tags), (pdf.name, names)


def test_the_tags_are_the_same_on_every_run(all_types, tmp_path):
    code, _, err = cardgen("cards", TINY_GAME, "--all-types", "--out", tmp_path)
    assert code == 0, err
    again, first = tmp_path / "cards-all-types.pdf", all_types / "all-types" / "cards-all-types.pdf"
    assert subset_names(again) == subset_names(first)
    assert again.read_bytes() == first.read_bytes()

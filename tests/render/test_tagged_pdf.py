"""Tagged, accessible PDFs (PDF/UA-1 through WeasyPrint, finished in render/documents/tagged.py):
every document of every shipped game is tagged, and its structure tree has headings in order
without a skipped level, alt text on every figure, a scope on every table header, link texts
that are not anchor ids, symbols that read as their names; the title shown and the language set."""
from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

import pikepdf
import pytest
from conftest import page_texts

pytestmark = pytest.mark.slow

HEADINGS = {f"/H{level}": level for level in range(1, 7)}
PRIVATE_USE = range(0xE000, 0xF900)


def elements(parent: pikepdf.Object) -> Iterator[pikepdf.Dictionary]:
    kids = parent.get("/K")
    for kid in kids if isinstance(kids, pikepdf.Array) else [kids] if kids is not None else []:
        if isinstance(kid, pikepdf.Dictionary) and kid.get("/Type") == "/StructElem":
            yield kid
            yield from elements(kid)


@dataclass(frozen=True)
class Element:
    tag: str
    alt: str
    scope: str


def structure(path) -> list[Element]:
    with pikepdf.open(path) as pdf:
        return [Element(str(e.S), str(e.get("/Alt", "")), str(e.get("/A", {}).get("/Scope", "")))
                for e in elements(pdf.Root.StructTreeRoot)]


def test_every_document_is_tagged(shipped_documents):
    assert len(shipped_documents) >= 15
    for path in shipped_documents:
        info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
        assert "Tagged:          yes" in info, path


def test_headings_go_down_one_level_at_a_time(shipped_documents):
    for path in shipped_documents:
        levels = [HEADINGS[e.tag] for e in structure(path) if e.tag in HEADINGS]
        for before, after in zip([0, *levels], levels):
            assert after <= before + 1, f"{path}: H{before} followed by H{after}"


def test_figures_have_alt_text_and_table_headers_a_scope(shipped_documents):
    figures = 0
    for path in shipped_documents:
        for element in structure(path):
            if element.tag == "/Figure":
                figures += 1
                assert len(element.alt) > 3, path
            if element.tag == "/TH":
                assert element.scope in ("/Row", "/Column"), path
    assert figures  # the card diagrams


def test_the_card_diagram_describes_the_cards_parts(shipped_documents):
    rulebook = next(p for p in shipped_documents if p.parent.name == "exploding_puppy" and p.name == "rulebook.pdf")
    alt = next(e.alt for e in structure(rulebook) if e.tag == "/Figure")
    assert alt.startswith("The card Favor the Future")
    assert "1 name" in alt and "symbol" in alt and "effect" in alt


def test_title_shown_language_set_links_say_where_they_go(shipped_documents):
    for path in shipped_documents:
        with pikepdf.open(path) as pdf:
            assert str(pdf.docinfo.get("/Title", "")).strip(), path
            assert pdf.Root.ViewerPreferences.DisplayDocTitle, path
            language = path.parent.name if path.parent.name == "de" else "en"
            assert str(pdf.Root.Lang) == language, path
            for page in pdf.pages:
                for annotation in page.obj.get("/Annots", []):
                    contents = str(annotation.get("/Contents", ""))
                    assert contents and not contents.startswith("part-"), (path, contents)


def test_symbols_read_as_their_names(shipped_documents):
    for path in shipped_documents:
        text = "".join(page_texts(path))
        assert not [c for c in text if ord(c) in PRIVATE_USE], path
    rulebook = next(p for p in shipped_documents if p.parent.name == "exploding_puppy" and p.name == "rulebook.pdf")
    assert "Black Black Gray Gray" in " ".join(page_texts(rulebook)[0].split())


def test_running_heads_are_artifacts_and_pocket_copies_tagged_once(shipped_documents):
    pocket = next(p for p in shipped_documents if p.name == "cheatsheet-pocket.pdf")
    articles = [e for e in structure(pocket) if e.tag == "/Art"]
    assert len(articles) == 1
    with pikepdf.open(pocket) as pdf:
        assert pdf.pages[0].Contents.read_bytes().count(b"/Artifact\nBMC") > 20  # the other copies' text
    rulebook = next(p for p in shipped_documents if p.parent.name == "exploding_puppy" and p.name == "rulebook.pdf")
    with pikepdf.open(rulebook) as pdf:
        numbers = pdf.Root.StructTreeRoot.ParentTree.Nums
        tree = {e.objgen for e in elements(pdf.Root.StructTreeRoot)}
        for index in range(len(pdf.pages)):  # every tagged content is in the tree
            assert all(ref.objgen in tree for ref in numbers[2 * index + 1] if isinstance(ref, pikepdf.Dictionary))

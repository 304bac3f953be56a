"""render/documents/patches: cardgen's patches over WeasyPrint, tinyhtml5, pydyf and pyphen make the same
bytes as the libraries' own code, on real documents; each is installed for the exact version it was written
against only."""
from __future__ import annotations

import io
from xml.etree import ElementTree

import pydyf
import pyphen
import pytest
import tinyhtml5
import tinyhtml5.inputstream
import weasyprint
import weasyprint.css
import weasyprint.layout.block
import weasyprint.layout.column
import weasyprint.layout.inline
import weasyprint.text.line_break
from conftest import checked

from cardgen.check.languages import report_in
from cardgen.model.words import speaking
from cardgen.render import documents
from cardgen.render.documents import columns, patches


def _documents(game_name: str, language: str | None, setup: str | None) -> dict[str, bytes]:
    """The game's rulebook and checklists; with `setup`, only that setup's checklists."""
    game, report = checked(game_name)
    report = report_in(report, language or game.language)
    game = report.game
    with speaking(game.words):
        made = {"checklists": documents.render_pdf(game, "checklists.html",
                                                   documents.checklists_context(game, report, setup))}
        if setup is None:
            made["rulebook"] = documents.render_pdf(game, "rulebook.html", documents.rulebook_context(game, report))
    return made


@pytest.mark.slow
@pytest.mark.parametrize("game, language, setup", [
    ("starter", None, None),
    ("exploding_puppy", "de", "Fight"),  # German: words hyphenated in the tables
])
def test_same_bytes_as_the_libraries_own_code(game, language, setup):
    """A rulebook (two columns of card entries, balanced) and checklists (tables, tagged, a page
    per setup and player count), with the patches and without."""
    patched = _documents(game, language, setup)
    with patches.left_out():
        assert weasyprint.layout.block.columns_layout is weasyprint.layout.column.columns_layout
        assert weasyprint.layout.inline.split_first_line is weasyprint.text.line_break.split_first_line
        assert weasyprint.css.StyleFor.__call__ is patches._STYLES["__call__"]
        own = _documents(game, language, setup)
    assert weasyprint.layout.block.columns_layout is columns.columns_layout  # back after
    assert patched == own


def test_installed_for_the_versions_written_against_only(monkeypatch):
    patches.install()
    for place, name, own in [(weasyprint.layout.block, "columns_layout", weasyprint.layout.column.columns_layout),
                             (weasyprint.layout.inline, "split_first_line", weasyprint.text.line_break.split_first_line),
                             *[(weasyprint.css.StyleFor, name, patches._STYLES[name]) for name in patches._STYLE_PATCHES],
                             (tinyhtml5.inputstream, "characters_until_regex",
                              patches._REPLACED["characters_until_regex"]),
                             (pydyf.PDF, "page_references", patches._REPLACED["page_references"]),
                             (pyphen, "HyphDict", patches._REPLACED["HyphDict"])]:
        monkeypatch.setattr(place, name, own)  # the libraries' own code, put back as it is after the test
    for library in (weasyprint, pydyf, tinyhtml5, pyphen):
        monkeypatch.setattr(library, "__version__", "0.1")
    patches.install()
    assert weasyprint.layout.block.columns_layout is weasyprint.layout.column.columns_layout
    assert weasyprint.layout.inline.split_first_line is weasyprint.text.line_break.split_first_line
    assert weasyprint.css.StyleFor.__call__ is patches._STYLES["__call__"]
    assert weasyprint.css.StyleFor.__init__ is patches._STYLES["__init__"]
    assert pydyf.PDF.page_references is not patches.page_references
    assert not isinstance(tinyhtml5.inputstream.characters_until_regex, patches._Patterns)
    assert pyphen.HyphDict is patches._REPLACED["HyphDict"]
    monkeypatch.setattr(weasyprint, "__version__", patches.WEASYPRINT_VERSION)
    monkeypatch.setattr(pydyf, "__version__", patches.PYDYF_VERSION)
    monkeypatch.setattr(tinyhtml5, "__version__", patches.TINYHTML5_VERSION)
    monkeypatch.setattr(pyphen, "__version__", patches.PYPHEN_VERSION)
    patches.install()
    assert weasyprint.layout.block.columns_layout is columns.columns_layout
    assert weasyprint.layout.inline.split_first_line == patches._LINES.split_first_line
    assert weasyprint.css.StyleFor.__call__ is patches._style_for_call
    assert weasyprint.css.StyleFor.__init__ is patches._style_for_init
    assert pydyf.PDF.page_references is patches.page_references
    assert isinstance(tinyhtml5.inputstream.characters_until_regex, patches._Patterns)
    assert pyphen.HyphDict is patches._LazyHyphDict


def test_page_references_follow_the_pages():
    """Read, then more pages added: the references are those of the pages now (pydyf's own say the same)."""
    patches.install()
    pdf = pydyf.PDF()
    seen = []
    for _ in range(3):
        pdf.add_page(pydyf.Dictionary({"Type": "/Page"}))
        pdf.add_object(pydyf.Dictionary({}))  # an object between pages: page numbers are not consecutive
        seen.append(pdf.page_references)
    with patches.left_out():
        own = pdf.page_references
    assert seen[-1] == own == (b"3 0 R", b"5 0 R", b"7 0 R")
    assert seen[0] == (b"3 0 R",)
    out = io.BytesIO()
    pdf.write(out)
    assert b"/Kids [3 0 R 5 0 R 7 0 R]" in out.getvalue()


def test_a_kept_line_is_given_again_as_a_copy():
    """Whoever draws a line may set its layout's text: the line kept for the next ask is not changed."""
    patches.install()
    style = weasyprint.HTML(string="<p>x</p>").render().pages[0]._page_box.style  # any real computed style
    asked = []

    def counting(*args):
        asked.append(args[0])
        return weasyprint.text.line_break.split_first_line(*args)

    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(patches._LINES, "original", counting)
        with patches.lines_kept():
            first = patches._LINES.split_first_line("Two words", style, None, 1000.0, 0)
            first[0].text = "changed"
            again = patches._LINES.split_first_line("Two words", style, None, 1000.0, 0)
            other = patches._LINES.split_first_line("Two words", style, None, 10.0, 0)
        outside = patches._LINES.split_first_line("Two words", style, None, 1000.0, 0)
    assert asked == ["Two words"] * 3  # the second ask was answered from the kept line; outside, nothing is kept
    assert again[0].text == "Two words" and again[1:] == first[1:]
    assert other[1:] != first[1:]
    assert outside[1:] == first[1:]


FOOTNOTES = """<html><head><style>
li::marker { color: #a00 }
.note { float: footnote }
::footnote-call { color: #00a }
::footnote-marker { font-weight: bold }
h2::marker { anchor: "heading-marker" }
</style></head><body><h2 style="display: list-item">Markers and notes</h2>
<ol><li>One</li><li>Two<span class="note">A footnote.</span></li></ol><ul><li>Three</li></ul>
<p>Text with a note<span class="note">Another.</span> and more.</p>
<div style="display: list-item; list-style-type: lower-alpha; text-transform: uppercase">A marker only WeasyPrint's own rule styles (not in capitals)</div></body></html>"""


def test_pseudo_elements_styled_by_the_document_are_the_same():
    """Styled markers, footnote calls and markers, a marker of WeasyPrint's own style alone, and a
    pseudo-element naming an anchor."""
    patches.install()
    made = []
    set_computed_styles = patches._STYLES["set_computed_styles"]

    def counting(self, element, parent, root=None, pseudo_type=None, base_url=None, target_collector=None):
        made.append(pseudo_type)
        return set_computed_styles(self, element, parent, root, pseudo_type, base_url, target_collector)

    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setitem(patches._STYLES, "set_computed_styles", counting)
        patched = weasyprint.HTML(string=FOOTNOTES).write_pdf()
    with patches.left_out():
        own = weasyprint.HTML(string=FOOTNOTES).write_pdf()
    assert patched == own
    assert "marker" in made  # the anchor's: made at once
    assert made.count("note-call") == 0 and made.count(None) < 20


TABLE_PARTS = """<html><head><style>.note { float: footnote }
::footnote-call { display: inline-table; border-collapse: collapse; padding: 20px; background: #fc0 }
li::marker { display: table-cell; margin: 30px }
</style></head><body><ol><li>Item<span class="note">A footnote.</span> and text</li></ol></body></html>"""


def test_pseudo_elements_shown_as_table_parts_are_the_same():
    """WeasyPrint takes the padding off a table whose borders collapse and the margins off a
    table's part: off a marker's and a footnote call's too."""
    patches.install()
    patched = weasyprint.HTML(string=TABLE_PARTS).write_pdf()
    with patches.left_out():
        own = weasyprint.HTML(string=TABLE_PARTS).write_pdf()
    assert patched == own


def test_the_tokenizer_s_patterns_are_made_once_each_and_read_the_same():
    """tinyhtml5 made each pattern again for every run of text (its cache stored it under the
    pattern itself); kept under the characters, the same tree comes out."""
    html = "<p class=a>One &amp; <b>two</b></p><!-- x --><table><tr><td>3</td></tr></table>" * 50
    with patches.left_out():
        own = tinyhtml5.parse(html)
    patches.install()
    kept = patches._Patterns()
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(tinyhtml5.inputstream, "characters_until_regex", kept)
        ours = tinyhtml5.parse(html)
    assert ElementTree.tostring(ours) == ElementTree.tostring(own)
    assert 0 < len(kept) <= 8 and all(isinstance(characters, (str, tuple, frozenset)) for characters, _ in kept)


# German (the largest: compounds), Hungarian (nonstandard hyphenation: `cs/c=cs,1,3`), English, and
# one written here: characters as ^^hh (no shipped dictionary has one), the same letters twice (the
# last pattern of them counts, unless it is zeros alone), comments and the settings pyphen skips
DICTIONARIES = [pytest.param("de_DE", marks=pytest.mark.slow), pytest.param("hu_HU", marks=pytest.mark.slow),
                "en_US", "written"]
WRITTEN = """UTF-8
LEFTHYPHENMIN 2
% a comment
.b^^e4c1k
b1a^^e4
1ke
3ke
2c1k
0c0k
  e1r3e\t
"""
WORDS = ["Silbentrennungsregeln", "Schifffahrtsgesellschaft", "Bäckerei", "Zucker", "asszonnyal", "hosszú",
         "megszentségteleníthetetlenségeskedéseitekért", "hyphenation", "Exploding", "Puppy", "Bäckerkekse"]


@pytest.mark.parametrize("language", DICTIONARIES)
def test_a_dictionary_read_when_looked_up_hyphenates_as_pyphen_s_own(language, tmp_path):
    """Every pattern (its first position, values and nonstandard hyphenation) as pyphen parses it,
    none where pyphen keeps none (zeros alone), and the same hyphenation of words."""
    patches.install()
    path = pyphen.LANGUAGES[pyphen.language_fallback(language)] if language != "written" else tmp_path / "hyph_x.dic"
    if language == "written":
        path.write_text(WRITTEN, encoding="utf-8")
    own, lazy = patches._REPLACED["HyphDict"](path), patches._LazyHyphDict(path)
    assert lazy.maxlen >= own.maxlen

    def read(pattern):
        return pattern and (pattern[0], [(value, getattr(value, "data", None)) for value in pattern[1]])
    for letters in set(own.patterns) | set(lazy.patterns.lines):
        assert read(lazy.patterns.get(letters)) == read(own.patterns.get(letters)), letters
    for word in WORDS:
        assert [(point, point.data) for point in lazy.positions(word)] == \
            [(point, point.data) for point in own.positions(word)], word
    assert any(point.data for word in WORDS for point in own.positions(word)) == (language == "hu_HU")
    assert (own.positions("Bäckerkekse") == [3, 6]) == (language == "written")  # Bäc-ker-kekse: every line counted
    # a dictionary lives as long as the process: only the letters of a pattern are kept once looked up,
    # not the misses (every piece of every word hyphenated)
    assert set(lazy.patterns.parsed) <= set(lazy.patterns.lines)

"""render/documents/patches: what cardgen lays over WeasyPrint and the libraries under it
(tinyhtml5, pydyf) to make the same PDF in less time, each for the exact version it was written
against (any other keeps its own code):

- the column balancing (columns.py, WeasyPrint 70.0);
- the lines WeasyPrint splits text into, kept for the document (WeasyPrint 70.0): it lays the
  same text out at the same width again and again (each try of the column balancing, a table's
  cells measured, then laid out), and `split_first_line` gives the same answer for the same text,
  style and room: a copy of the first answer is given again;
- the styles of pseudo-elements no document has, made when first asked for (WeasyPrint 70.0): its
  own style sheet gives every element a ::marker, ::footnote-call, ::footnote-marker, ::note-call,
  ::note-marker and ::note-callback, and WeasyPrint matched those six rules against every element
  and made a computed style for each of them (six of the seven styles a document's cascade made),
  though only list items' markers and footnotes' ever show. The cascade runs without those six
  rules, and a pseudo-element's style is made when asked for, their declarations under what the
  document's own rules say (a user agent's rule gives way to any other): the same styles;
- tinyhtml5 2.1.0's cache of the patterns its tokenizer reads text up to (`chars_until`), which
  stored each pattern under the wrong key and so made it again for every run of text: kept
  under the key it is looked up by;
- pydyf 0.13.0's `page_references`, which builds the references of every page each time it is
  read (WeasyPrint reads it for every tagged element: quadratic in the pages), built once for
  each list of pages;
- pyphen 0.18.1's hyphenation dictionaries, which it parses whole when a document first
  hyphenates a word of the language (German: 66,000 patterns, 0.65 s in every process that
  sets German): read as lines by their letters, a pattern's values parsed when a word first
  looks it up. A document looks up a few hundred.

`install` puts them in place; `lines_kept` scopes the kept lines to one document; inside
`left_out`, the libraries run their own code.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from math import inf
from typing import Any
from xml.etree import ElementTree

from cardgen.render.documents import columns

WEASYPRINT_VERSION = "70.0"  # the version whose split_first_line and StyleFor are wrapped
PYDYF_VERSION = "0.13.0"  # the version whose page_references is replaced
TINYHTML5_VERSION = "2.1.0"  # the version whose chars_until cache is replaced
PYPHEN_VERSION = "0.18.1"  # the version whose HyphDict is replaced


def install() -> None:
    """Every patch whose library is at the version it was written for (none inside `left_out`)."""
    import pydyf
    import pyphen
    import tinyhtml5
    import tinyhtml5.inputstream
    import weasyprint
    import weasyprint.css
    import weasyprint.layout.inline
    import weasyprint.layout.preferred

    if _LEFT_OUT:
        return
    columns.install()
    if weasyprint.__version__ == WEASYPRINT_VERSION:
        if _LINES.original is None:
            _LINES.original = weasyprint.layout.inline.split_first_line
        weasyprint.layout.inline.split_first_line = _LINES.split_first_line
        weasyprint.layout.preferred.split_first_line = _LINES.split_first_line
        for name, patch in _STYLE_PATCHES.items():
            if getattr(weasyprint.css.StyleFor, name) is not patch:
                _STYLES[name] = getattr(weasyprint.css.StyleFor, name)
                setattr(weasyprint.css.StyleFor, name, patch)
    if tinyhtml5.__version__ == TINYHTML5_VERSION and not isinstance(tinyhtml5.inputstream.characters_until_regex,
                                                                         _Patterns):
        _REPLACED["characters_until_regex"] = tinyhtml5.inputstream.characters_until_regex
        tinyhtml5.inputstream.characters_until_regex = _Patterns()
    if pydyf.__version__ == PYDYF_VERSION and pydyf.PDF.page_references is not page_references:
        _REPLACED["page_references"] = pydyf.PDF.page_references
        pydyf.PDF.page_references = page_references
    if pyphen.__version__ == PYPHEN_VERSION and pyphen.HyphDict is not _LazyHyphDict:
        _REPLACED["HyphDict"] = pyphen.HyphDict
        pyphen.HyphDict = _LazyHyphDict


_LEFT_OUT: list[bool] = []
_REPLACED: dict[str, Any] = {}  # what the patches replaced in tinyhtml5, pydyf and pyphen


@contextmanager
def left_out() -> Iterator[None]:
    """Inside, WeasyPrint, tinyhtml5, pydyf and pyphen run their own code, as if cardgen had never
    patched them (to compare: the tests, the benches); after, as before."""
    import pydyf
    import pyphen
    import tinyhtml5.inputstream
    import weasyprint.css
    import weasyprint.layout.block
    import weasyprint.layout.column
    import weasyprint.layout.inline
    import weasyprint.layout.preferred
    import weasyprint.text.line_break

    places = [(weasyprint.layout.block, "columns_layout", weasyprint.layout.column.columns_layout),
              *[(weasyprint.css.StyleFor, name, _STYLES.get(name, getattr(weasyprint.css.StyleFor, name)))
                for name in _STYLE_PATCHES],
              (weasyprint.layout.inline, "split_first_line", weasyprint.text.line_break.split_first_line),
              (weasyprint.layout.preferred, "split_first_line", weasyprint.text.line_break.split_first_line),
              (tinyhtml5.inputstream, "characters_until_regex",
               _REPLACED.get("characters_until_regex", tinyhtml5.inputstream.characters_until_regex)),
              (pydyf.PDF, "page_references", _REPLACED.get("page_references", pydyf.PDF.page_references)),
              (pyphen, "HyphDict", _REPLACED.get("HyphDict", pyphen.HyphDict)),
              (pyphen, "hdcache", {})]  # dictionaries parsed by pyphen's own code, while inside
    saved = [getattr(place, name) for place, name, _ in places]
    _LEFT_OUT.append(True)
    try:
        for place, name, own in places:
            setattr(place, name, own)
        yield
    finally:
        _LEFT_OUT.pop()
        for (place, name, _), value in zip(places, saved):
            setattr(place, name, value)


# --------------------------------------------------------------------------- lines


class _Lines:
    """WeasyPrint's split_first_line, each answer kept while a document is laid out (`lines_kept`)."""

    def __init__(self) -> None:
        self.original: Any = None
        self.kept: dict[tuple, tuple] | None = None  # None: outside a document, nothing kept

    def split_first_line(self, text: str, style: Any, context: Any, max_width: Any, justification_spacing: Any,
                         is_line_start: bool = True, minimum: bool = False) -> tuple:
        kept = self.kept
        if kept is None:
            return self.original(text, style, context, max_width, justification_spacing, is_line_start, minimum)
        # the style by identity, and kept with the answer: no other style can take its id meanwhile
        key = (text, id(style), id(context), max_width, justification_spacing, is_line_start, minimum)
        answer = kept.get(key)
        if answer is None:
            layout, *rest = self.original(text, style, context, max_width, justification_spacing,
                                          is_line_start, minimum)
            answer = kept[key] = (_copy(layout), tuple(rest), style, context)
        layout, rest, _, _ = answer
        return (_copy(layout), *rest)


def _copy(layout: Any) -> Any:
    """A copy of a laid-out line's Layout (its Pango layout already let go: plain values only),
    so that no one who draws it (and may set its text) changes the one kept."""
    copied = object.__new__(type(layout))
    copied.__dict__.update(layout.__dict__)
    return copied


_LINES = _Lines()


@contextmanager
def lines_kept() -> Iterator[None]:
    """Inside, split_first_line's answers are kept and given again (one document's layout)."""
    outer = _LINES.kept
    _LINES.kept = {}
    try:
        yield
    finally:
        _LINES.kept = outer


# --------------------------------------------------------------------------- pseudo-elements


_STYLES: dict[str, Any] = {}  # WeasyPrint's own StyleFor methods, by name, that _STYLE_PATCHES wrap
# the pseudo-elements WeasyPrint's own style sheet gives every element
_ASKED_FOR = frozenset({"marker", "footnote-call", "footnote-marker", "note-call", "note-marker", "note-callback"})
# WeasyPrint's own style sheet without its rules for those, and their declarations by pseudo-element
_UA: dict[str, Any] = {}


def _style_for_init(self: Any, html: Any, sheets: list[tuple[Any, str, Any]], *rest: Any) -> None:
    """WeasyPrint 70.0's StyleFor.__init__, its own style sheet's rules for every element's
    pseudo-elements left out of the cascade (`_set_computed_styles`, `_style_for_call` add them)."""
    import weasyprint.html

    without = _ua_without_pseudo_rules()
    self._cardgen_document = html.etree_element, html.base_url
    sheets = [(without if sheet is weasyprint.html.UA_STYLESHEET else sheet, origin, specificity)
              for sheet, origin, specificity in sheets]
    _STYLES["__init__"](self, html, sheets, *rest)


def _ua_without_pseudo_rules() -> Any:
    """WeasyPrint's own style sheet without its rules that are a pseudo-element of _ASKED_FOR alone
    (`::marker {...}`), made once; their declarations, weighed as the cascade weighs a user
    agent's, go to _UA by pseudo-element."""
    if not _UA:
        import cssselect2
        import tinycss2
        import weasyprint
        import weasyprint.html
        from weasyprint.css import declaration_precedence
        from weasyprint.css.counters import CounterStyle

        rules = tinycss2.parse_stylesheet(weasyprint.html.UA)
        alone = {f"::{pseudo}" for pseudo in _ASKED_FOR}
        taken = [rule for rule in rules if rule.type == "qualified-rule" and tinycss2.serialize(rule.prelude).strip() in alone]
        kept = [rule for rule in rules if rule not in taken]
        declared = weasyprint.CSS(string=tinycss2.serialize(taken), counter_style=CounterStyle())
        # a pseudo-element alone applies to any element: matched against one, every rule answers
        any_element = cssselect2.ElementWrapper.from_html_root(ElementTree.Element("html"))
        _UA["declarations"] = {
            pseudo: {name: (values, (declaration_precedence("user agent", importance), inf, specificity))
                     for name, values, importance in declarations}
            for specificity, _, pseudo, (declarations, _) in declared.matcher.match(any_element)}
        _UA["sheet"] = weasyprint.CSS(string=tinycss2.serialize(kept), counter_style=CounterStyle())
    return _UA["sheet"]


def _with_ua(pseudo_type: str, cascaded: dict[str, Any]) -> dict[str, Any]:
    """A pseudo-element's cascaded declarations with WeasyPrint's own for it under them: any
    other rule outweighs those, which no other of its own rules can tie."""
    return {**_UA["declarations"].get(pseudo_type, {}), **cascaded}


def _set_computed_styles(self: Any, element: Any, parent: Any, root: Any = None, pseudo_type: str | None = None,
                         base_url: Any = None, target_collector: Any = None) -> None:
    """WeasyPrint 70.0's StyleFor.set_computed_styles; the style of such a pseudo-element left to
    be made when asked for (`_style_for_call`), unless it names an anchor (collected now)."""
    if pseudo_type in _ASKED_FOR and parent is not None:
        everything = self.get_cascaded_styles()
        cascaded = everything[element, pseudo_type] = _with_ua(pseudo_type, everything.get((element, pseudo_type), {}))
        if "anchor" not in cascaded:  # its anchor is none: nothing to collect
            self.__dict__.setdefault("_cardgen_waiting", {})[element, pseudo_type] = cascaded, parent
            return
    _STYLES["set_computed_styles"](self, element, parent, root, pseudo_type, base_url, target_collector)


def _style_for_call(self: Any, element: Any, pseudo_type: str | None = None) -> Any:
    """WeasyPrint 70.0's StyleFor.__call__, making such a pseudo-element's style first, as
    set_computed_styles would have made it (an element's pseudo-elements have the document's root
    and base URL): from the document's rules for it, if any, waiting, else from WeasyPrint's own
    alone."""
    computed = self.get_computed_styles()
    if pseudo_type in _ASKED_FOR and (element, pseudo_type) not in computed and (element, None) in computed:
        from weasyprint.css import ComputedStyle

        waiting = self.__dict__.get("_cardgen_waiting", {}).pop((element, pseudo_type), None)
        cascaded, parent = waiting or (_with_ua(pseudo_type, {}), element)
        root, base_url = self._cardgen_document
        style = computed[element, pseudo_type] = ComputedStyle(
            computed[parent, None], cascaded, pseudo_type, computed[root, None], base_url,
            self.font_config, self.initial_page_sizes)
        # set_computed_styles reads the anchor (a document's collector is always given): a style
        # with no value made yet is empty, and __call__ would skip its table fixes for it
        style["anchor"]
    return _STYLES["__call__"](self, element, pseudo_type)


_STYLE_PATCHES = {"__init__": _style_for_init, "set_computed_styles": _set_computed_styles,
                  "__call__": _style_for_call}


# --------------------------------------------------------------------------- tinyhtml5


class _Patterns(dict):
    """tinyhtml5 2.1.0's chars_until cache: the pattern matching a run of text up to (or, with
    `opposite`, made of) the given characters, made as chars_until makes it, and kept under the key
    chars_until looks it up by."""

    def __missing__(self, key: tuple[Any, bool]) -> re.Pattern[str]:
        characters, opposite = key
        regex = "".join([f"\\x{ord(character):02x}" for character in characters])
        if not opposite:
            regex = f"^{regex}"
        pattern = self[key] = re.compile(f"[{regex}]+")
        return pattern


# --------------------------------------------------------------------------- pydyf


@property  # type: ignore[misc]
def page_references(pdf: Any) -> tuple[bytes, ...]:
    """pydyf 0.13.0's PDF.page_references (the reference of each page, b'12 0 R'), built again
    only when the pages are not those it was built for."""
    numbers = tuple(pdf.pages["Kids"][::3])
    built = pdf.__dict__.get("_cardgen_page_references")
    if built is None or built[0] != numbers:
        built = pdf.__dict__["_cardgen_page_references"] = (
            numbers, tuple(f"{number} 0 R".encode("ascii") for number in numbers))
    return built[1]


# --------------------------------------------------------------------------- pyphen


_DIGIT = re.compile(r"\d")


class _LazyHyphDict:
    """pyphen 0.18.1's HyphDict (a hyph_*.dic file's patterns and the positions they give a word),
    its patterns read as lines by their letters (the pattern without its digits) and parsed when
    first looked up."""

    def __init__(self, path: Any) -> None:
        import pyphen

        with path.open("rb") as file:  # the first line names the encoding, as pyphen reads it
            encoding = file.readline().decode()
        if encoding.lower() == "microsoft-cp1251":
            encoding = "cp1251"
        lines: dict[str, tuple[str, ...]] = {}
        for line in path.read_text(encoding).split("\n")[1:]:
            line = line.strip()
            if line and not line.startswith(pyphen.ignored):
                key = _pattern_letters(line)
                lines[key] = (*lines.get(key, ()), line)
        self.patterns = _PatternsByLetters(lines)
        self.cache: dict[str, Any] = {}  # positions by word, which pyphen's `positions` keeps
        self.maxlen = max(map(len, lines), default=0)  # letters of no pattern only cost a look-up

    def positions(self, word: str) -> list[int]:
        """pyphen's own HyphDict.positions, which reads the patterns through `get`."""
        return _REPLACED["HyphDict"].positions(self, word)


def _pattern_letters(line: str) -> str:
    """The letters a pattern is looked up by: its text (^^hh written out, an alternative's part
    after / left out) without its digits."""
    import pyphen

    if "^^" in line or "/" in line:
        line = _split_alternative(pyphen.parse_hex(_hex_character, line))[0]
    return _DIGIT.sub("", line)


def _hex_character(match: re.Match[str]) -> str:
    return chr(int(match.group(1), 16))


def _split_alternative(pattern: str) -> tuple[str, str | None]:
    """A pattern, and its nonstandard hyphenation (`pattern/change,index,cut`) if it has one."""
    if "/" in pattern and "=" in pattern:
        pattern, alternative = pattern.split("/", 1)
        return pattern, alternative
    return pattern, None


def _pattern_values(line: str) -> tuple[int, tuple[int, ...]] | None:
    """A pattern's first position and values as pyphen keeps them, zeros at either end left out;
    None for a pattern of zeros alone, which pyphen leaves out."""
    import pyphen

    pattern, alternative = _split_alternative(pyphen.parse_hex(_hex_character, line))
    value = pyphen.AlternativeParser(pattern, alternative) if alternative is not None else int
    values = tuple(value(digit or "0") for digit, _ in pyphen.parse(pattern))
    if max(values) == 0:
        return None
    start, end = 0, len(values)
    while not values[start]:
        start += 1
    while not values[end - 1]:
        end -= 1
    return start, values[start:end]


class _PatternsByLetters:
    """A dictionary's patterns by their letters, each parsed when first looked up: of the lines
    with those letters, the last that is not zeros alone (pyphen keeps each in turn, and leaves
    those out)."""

    def __init__(self, lines: dict[str, tuple[str, ...]]):
        self.lines = lines
        self.parsed: dict[str, tuple[int, tuple[int, ...]] | None] = {}

    def get(self, letters: str) -> tuple[int, tuple[int, ...]] | None:
        if letters not in self.parsed:
            if letters not in self.lines:  # most look-ups (every piece of every word): nothing kept
                return None
            found = (_pattern_values(line) for line in reversed(self.lines[letters]))
            self.parsed[letters] = next((values for values in found if values is not None), None)
        return self.parsed[letters]

"""load: a game folder's YAML and Markdown → the model, every problem with file:line:column.

YAML is composed into nodes by PyYAML's safe loader (no object construction), then
converted by hand against the schema below. Working from nodes keeps each value's
position, keeps text exactly as typed (`no`, `1.10`, `012` stay text) and lets the loader
collect every problem in one run instead of stopping at the first.
"""
from __future__ import annotations

import dataclasses
import difflib
import math
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from cardgen.errors import UsageError
from cardgen.inputs import images
from cardgen.inputs.files import UnreadableInput, read_input
from cardgen.inputs.paths import ART, CARD_DATA, display_path, inside
from cardgen.load import schema
from cardgen.load.cheatsheet import read_reference
from cardgen.load.layout import read_layout
from cardgen.load.schema import (
    HEX_PATTERN,
    ID_PATTERN,
    INT_PATTERN,
    KIND_ROLES,
    LEVELS,
    MAX_COUNT,
    MAX_PLAYERS,
    MAX_TEXT,
    Fields,
    Values,
)
from cardgen.load.symbol_checks import symbol_findings
from cardgen.model import expressions
from cardgen.model.game import (
    COMPONENT_COUNTS,
    ERROR,
    WARNING,
    Attribute,
    Back,
    Card,
    Check,
    Color,
    Component,
    Finding,
    Game,
    Hand,
    Kind,
    Layout,
    Passage,
    Setup,
    SetupLine,
    Step,
    Tag,
    TextChecks,
    Variation,
    Waiver,
    Where,
    file_name_problem,
    matches,
    sheet_file_name,
    slugify,
)
from cardgen.model.sizes import CARD_SIZES_MM, DEFAULT_CARD_SIZE

DEFAULT_GAME = "exploding_puppy"
MAX_FILE_BYTES = 2_000_000
MAX_DEPTH = 40
MAX_NODES = 200_000
MAX_CARDS = 5000
MAX_SETUPS = 200  # the checklists print a page per setup
MAX_RULES_BYTES = 300_000  # rules.md: about 80 pages of rulebook prose, laid out in well under a minute
STR_TAG = "tag:yaml.org,2002:str"
NULL_TAG = "tag:yaml.org,2002:null"
STANDARD_TAG_PREFIX = "tag:yaml.org,2002:"


class GameNotFound(UsageError):
    """No game folder by that name or path."""


# --------------------------------------------------------------------------- YAML → nodes


if yaml.__with_libyaml__:
    class _Events(yaml.cyaml.CParser):
        """libyaml's scanner and parser: the events of a document, several times faster than PyYAML's own."""
else:
    class _Events(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
        """PyYAML's pure-Python scanner and parser, where libyaml is not installed."""

        def __init__(self, stream):
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)


class _SafeComposer(yaml.composer.Composer, _Events, yaml.resolver.Resolver):
    """Composes nodes (never objects) from the parser's events; refuses anchors, aliases, unknown
    tags, deep nesting and too many values before composing them. The composer is PyYAML's own
    (in Python) so that each of these checks runs before the node it guards is built."""

    def __init__(self, stream):
        _Events.__init__(self, stream)
        yaml.composer.Composer.__init__(self)
        yaml.resolver.Resolver.__init__(self)
        self._depth = self._nodes = 0

    def compose_node(self, parent, index):  # noqa: D102 - PyYAML hook
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise yaml.composer.ComposerError(
                None, None, "anchors and aliases (*name) are not supported in game data",
                event.start_mark,
            )
        if event.anchor:
            raise yaml.composer.ComposerError(
                None, None, "anchors (&name) are not supported in game data", event.start_mark
            )
        tag = event.tag
        if tag not in (None, "!") and not tag.startswith(STANDARD_TAG_PREFIX):
            raise yaml.composer.ComposerError(
                None, None, f"the YAML tag '{tag}' is not allowed in game data", event.start_mark
            )
        if isinstance(event, yaml.ScalarEvent) and UNUSABLE_CHARACTER.search(event.value):
            raise _UnusableCharacter(None, None, unusable_character(event.value), event.start_mark)
        self._depth += 1
        self._nodes += 1
        if self._depth > MAX_DEPTH:
            raise yaml.composer.ComposerError(
                None, None, f"nested more than {MAX_DEPTH} levels deep", event.start_mark
            )
        if self._nodes > MAX_NODES:
            raise yaml.composer.ComposerError(
                None, None, f"more than {MAX_NODES} values in one file", event.start_mark
            )
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


# Characters no game text can show or print: C0 and C1 controls (but tab, line feed and carriage
# return), DEL, and lone surrogates (a YAML "\ud800" escape; no file can be written with one).
UNUSABLE_CHARACTER = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


class _UnusableCharacter(yaml.composer.ComposerError):
    """A value with a control character or a lone surrogate."""


def unusable_character(value: str) -> str:
    character = UNUSABLE_CHARACTER.search(value).group()
    return f"the value holds the character U+{ord(character):04X}, which cannot be shown or printed"


_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _leads_out(reader: Reader, folder: Path) -> bool:
    """A game file that is a symlink leading out of the game folder is an error, never read."""
    if inside(reader.path, [folder]):
        return False
    reader.error(None, "file-outside", f"{reader.path.name} is a link leading outside the game folder",
                 "copy the file into the game folder instead of linking to it")
    return True


# --------------------------------------------------------------------------- the reader


@dataclass
class Reader:
    """Converts nodes of one file, collecting findings instead of raising."""

    path: Path
    findings: list[Finding] = field(default_factory=list)
    game_folder: Path | None = None  # default: the file's own folder (game files sit at its top)
    source: str | None = None  # the YAML text composed by document(), which the nodes' marks index

    @cached_property  # every finding and Where of the file carries it: worked out once
    def name(self) -> str:
        return display_path(self.path, self.game_folder or self.path.parent)

    def where(self, node: yaml.Node | None) -> Where:
        if node is None:
            return Where(self.name)
        return Where(self.name, node.start_mark.line + 1, node.start_mark.column + 1)

    def passage(self, node: yaml.Node) -> Passage:
        """Where a text value is typed, with its source as written (none for CSV cells)."""
        source = self.source[node.start_mark.index:node.end_mark.index] if self.source is not None else ""
        return Passage(self.where(node), source)

    def error(self, node, code: str, message: str, hint: str = "") -> None:
        self.findings.append(Finding(ERROR, code, message, self.where(node), hint))

    # -- documents

    def document(self) -> yaml.Node | None:
        text = self.read_text()
        if text is None:
            return None
        self.source = text
        try:
            node = yaml.compose(text, Loader=_SafeComposer)
        except _UnusableCharacter as exc:
            mark = exc.problem_mark
            self.findings.append(Finding(ERROR, "unusable-character", exc.problem,
                                         Where(self.name, mark.line + 1, mark.column + 1),
                                         "remove the escape sequence (\\e, \\x.., \\u....) from the value"))
            return None
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            where = Where(self.name, mark.line + 1, mark.column + 1) if mark else Where(self.name)
            problem = exc.problem or exc.context or "invalid YAML"
            self.findings.append(Finding(ERROR, "yaml-syntax", f"YAML syntax: {problem}", where,
                                         "check indentation, colons and quotes on this line"))
            return None
        except (yaml.YAMLError, RecursionError) as exc:
            self.error(None, "yaml-syntax", f"YAML syntax: {exc}".splitlines()[0])
            return None
        if node is None:
            self.error(None, "empty-file", "the file is empty")
        return node

    def read_text(self, encoding: str = "utf-8") -> str | None:
        """The file's text, or None (reported) when it is unreadable, too large or not UTF-8."""
        try:
            size = self.path.stat().st_size
        except OSError as exc:
            self.error(None, "file-unreadable", f"cannot read the file: {exc.strerror}")
            return None
        if size > MAX_FILE_BYTES:
            self.error(None, "file-too-large",
                       f"the file is {size} bytes; the limit is {MAX_FILE_BYTES}",
                       "split it or remove unused data")
            return None
        try:
            return read_input(self.path, MAX_FILE_BYTES).decode(encoding)
        except UnreadableInput as exc:
            self.error(None, "file-unreadable", f"the file {exc}")
            return None
        except UnicodeDecodeError as exc:
            self.error(None, "file-encoding", f"the file is not UTF-8 text ({exc.reason})",
                       "save it as UTF-8")
            return None

    # -- shapes

    def mapping(self, node, spec: Fields, what: str = "") -> Values:
        """A mapping with the keys `spec` declares (load/schema.py). Unknown, duplicate and missing
        keys are reported; the values are read through their declared types (Values.read)."""
        if not isinstance(spec, Fields):
            raise TypeError("Reader.mapping reads against a declaration of load/schema.py, the one source "
                            "of the loader's keys and the editor schema: declare the mapping there")
        what = what or spec.name
        fields = spec.fields
        out = Values(self, spec, {})
        if not isinstance(node, yaml.MappingNode):
            self.error(node, "wrong-type", f"{what} should be a mapping (key: value lines)",
                       f"found {_node_kind(node)}")
            return out
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            if key is None:
                self.error(key_node, "wrong-type", f"{what}: keys must be plain words")
                continue
            if key in out:
                first = out[key].start_mark.line + 1
                self.error(key_node, "duplicate-key",
                           f"{what}: key '{key}' appears twice (first on line {first})",
                           "remove or rename one of them")
                continue
            if key not in fields and spec.others:
                out[key] = value_node
                continue
            if key not in fields:
                self.error(key_node, "unknown-key", f"{what}: unknown key '{key}'",
                           _did_you_mean(key, fields) or f"known keys: {', '.join(fields)}")
                continue
            out[key] = value_node
        for key in spec.required():
            if key not in out:
                self.error(node, "missing-field", f"{what}: missing required key '{key}'")
        for key, needed in spec.needs.items():
            if key in out and needed not in out:
                self.error(out[key], "missing-field", f"{what}: '{key}' needs '{needed}' beside it")
        return out

    def free_mapping(self, node, what: str) -> list[tuple[yaml.Node, yaml.Node]]:
        """A mapping with data-defined keys (e.g. card counts); duplicates are reported."""
        if not isinstance(node, yaml.MappingNode):
            self.error(node, "wrong-type", f"{what} should be a mapping", f"found {_node_kind(node)}")
            return []
        seen: dict[str, int] = {}
        pairs = []
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.error(key_node, "wrong-type", f"{what}: keys must be plain text")
                continue
            folded = key_node.value.casefold()
            if folded in seen:
                self.error(key_node, "duplicate-key",
                           f"{what}: '{key_node.value}' appears twice (first on line {seen[folded]})",
                           "add the counts together in one line")
                continue
            seen[folded] = key_node.start_mark.line + 1
            pairs.append((key_node, value_node))
        return pairs

    def sequence(self, node, what: str) -> list[yaml.Node]:
        if node is None or _is_null(node):
            return []
        if not isinstance(node, yaml.SequenceNode):
            self.error(node, "wrong-type", f"{what} should be a list (lines starting with '- ')",
                       f"found {_node_kind(node)}")
            return []
        return list(node.value)

    # -- scalars

    def text(self, node, what: str, default: str = "", limit: int = MAX_TEXT) -> str:
        if node is None or _is_null(node):
            return default
        if not isinstance(node, yaml.ScalarNode):
            self.error(node, "wrong-type", f"{what} should be text", f"found {_node_kind(node)}")
            return default
        value = node.value
        if len(value) > limit:
            self.error(node, "text-too-long", f"{what} is {len(value)} characters; the limit is {limit}")
            return value[:limit]
        return value

    def integer(self, node, what: str, low: int = 0, high: int = MAX_COUNT,
                allow_null: bool = False) -> int | None:
        if node is None or _is_null(node):
            if allow_null:
                return None
            self.error(node, "wrong-type", f"{what} should be a whole number, not empty")
            return None
        if not isinstance(node, yaml.ScalarNode) or node.tag == STR_TAG and node.style:
            self.error(node, "wrong-type", f"{what} should be a whole number",
                       f"found {_node_kind(node)}")
            return None
        if not INT_PATTERN.match(node.value.strip()):
            self.error(node, "not-a-whole-number", f"{what} should be a whole number, not '{node.value}'",
                       "write digits only, e.g. 3")
            return None
        value = int(node.value.strip(), 10)
        if not low <= value <= high:
            bound = f"at least {low}" if value < low else f"at most {high}"
            self.error(node, "number-out-of-range", f"{what} is {value}; it must be {bound}",
                       f"write a whole number from {low} to {high}")
            return None
        return value

    def number(self, node, what: str, low: float, high: float) -> float | None:
        if not isinstance(node, yaml.ScalarNode):
            self.error(node, "wrong-type", f"{what} should be a number", f"found {_node_kind(node)}")
            return None
        try:
            value = float(node.value)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            self.error(node, "wrong-type", f"{what} should be a number, not '{node.value}'",
                       f"write a number from {low:g} to {high:g}")
            return None
        if not low <= value <= high:
            self.error(node, "number-out-of-range", f"{what} is {value:g}; it must be {low:g}–{high:g}",
                       f"write a number from {low:g} to {high:g}")
            return None
        return value

    def boolean(self, node, what: str, default: bool = False) -> bool:
        if node is None or _is_null(node):
            return default
        if isinstance(node, yaml.ScalarNode) and node.value.lower() in ("true", "false", "yes", "no"):
            return node.value.lower() in ("true", "yes")
        self.error(node, "wrong-type", f"{what} should be true or false, not '{getattr(node, 'value', '')}'")
        return default

    def identifier(self, node, what: str) -> str | None:
        value = self.text(node, what)
        if not ID_PATTERN.match(value):
            self.error(node, "bad-id", f"{what} '{value}' is not a valid identifier",
                       "use lower-case letters, digits, '-' or '_'")
            return None
        return value

    def hex_color(self, node, what: str) -> str | None:
        if node is None:
            return None
        value = self.text(node, what)
        if not HEX_PATTERN.match(value):
            self.error(node, "bad-color", f"{what} '{value}' is not a color", "write it as #rrggbb")
            return None
        return value.lower()

    def text_list(self, node, what: str) -> tuple[str, ...]:
        if isinstance(node, yaml.ScalarNode) and not _is_null(node):
            return (self.text(node, what),)
        return tuple(self.text(item, what) for item in self.sequence(node, what))

    def count_spec(self, node, what: str):
        """An integer, an expression, or a table by player count."""
        if isinstance(node, yaml.MappingNode):
            table = {}
            for key_node, value_node in self.free_mapping(node, what):
                players = self.integer(key_node, f"{what}: player count", 1, MAX_PLAYERS)
                value = self.integer(value_node, f"{what} for {key_node.value} players")
                if players is not None and value is not None:
                    table[players] = value
            return table
        if isinstance(node, yaml.ScalarNode) and INT_PATTERN.match(node.value.strip()):
            return self.integer(node, what)
        text = self.text(node, what)
        try:
            expressions.parse(text)
        except expressions.ExpressionError as exc:
            self.error(node, "bad-expression", f"{what}: {exc}",
                       "e.g. 'players - 1' or '10 * max(0, 7 - players)'")
            return None
        return text

    def condition(self, node) -> str | None:
        """A `when:` expression, or None when absent or unreadable (then reported)."""
        text = self.text(node, "when")
        if not text:
            return None
        try:
            expressions.parse(text)
        except expressions.ExpressionError as exc:
            self.error(node, "bad-expression", f"when: {exc}", "e.g. when: players == 3")
            return None
        return text

    def plain(self, node, what: str, depth: int = 0) -> Any:
        """Free-form data (strings, lists, mappings) for templates; scalars stay as typed."""
        if isinstance(node, yaml.MappingNode):
            return {key.value: self.plain(value, what, depth + 1)
                    for key, value in self.free_mapping(node, what)}
        if isinstance(node, yaml.SequenceNode):
            return [self.plain(item, what, depth + 1) for item in node.value]
        return self.text(node, what)


def _is_null(node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == NULL_TAG and not node.style  # plain: None, or "" from libyaml


def _node_kind(node) -> str:
    if node is None:
        return "nothing"
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    return f"'{node.value}'" if node.value else "an empty value"


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    choices = list(choices)
    folded = {c.casefold(): c for c in choices}
    close = difflib.get_close_matches(word.casefold(), list(folded), n=1, cutoff=0.6)
    return f"did you mean '{folded[close[0]]}'?" if close else ""


# --------------------------------------------------------------------------- the game


def find_game_folder(game: str | os.PathLike | None) -> Path:
    """A game named under card_data/ (in the working directory or the project), or a folder path."""
    name = str(game or DEFAULT_GAME)
    as_path = Path(name)
    candidates = [as_path] if (os.sep in name or as_path.is_dir()) else []
    candidates += [Path("card_data") / name, CARD_DATA / name]
    for folder in candidates:
        if (folder / "game.yaml").is_file():
            return folder.resolve()
    known = ", ".join(list_games()) or "none"
    raise GameNotFound(f"no game '{name}': expected a folder with a game.yaml (known games: {known})")


def list_games() -> list[str]:
    roots = [Path("card_data"), CARD_DATA]
    names: set[str] = set()
    for root in roots:
        if root.is_dir():
            names.update(p.name for p in root.iterdir() if (p / "game.yaml").is_file())
    return sorted(names)


@dataclass
class LoadResult:
    game: Game | None
    findings: list[Finding]

    @property
    def ok(self) -> bool:
        return self.game is not None and not any(f.level == ERROR for f in self.findings)


NO_SETUPS = yaml.MappingNode("tag:yaml.org,2002:map", [])  # a game without setups.yaml (yet)


def load_game(game: str | os.PathLike | None = None) -> LoadResult:
    from cardgen.load.spreadsheet import cards_reader

    folder = find_game_folder(game)
    readers = {"game": Reader(folder / "game.yaml"), "cards": cards_reader(folder),
               "setups": Reader(folder / "setups.yaml")}
    findings: list[Finding] = []
    docs = {}
    for name, reader in readers.items():
        if name == "setups" and not reader.path.exists():
            reader.findings.append(Finding(WARNING, "no-setups", "the game folder has no setups.yaml: the game has "
                                           "no setups yet", reader.where(None), "the build makes a proof sheet of "
                                           "every card type and the rulebook; add setups.yaml for decks, checklists "
                                           "and setup checks (see docs/data-format.md)"))
            docs[name] = NO_SETUPS
        elif not reader.path.exists():  # anything else there is read, or refused when not a regular file
            reader.error(None, "missing-file", f"the game folder has no {reader.path.name}",
                         f"create {name}.yaml{' (or cards.csv)' if name == 'cards' else ''} (see docs/data-format.md)")
            docs[name] = None
        elif _leads_out(reader, folder):
            docs[name] = None
        else:
            docs[name] = reader.document()
    if any(doc is None for doc in docs.values()):
        return LoadResult(None, [f for r in readers.values() for f in r.findings])

    from cardgen.load.targets import check_build_exports, load_targets

    builder = _GameBuilder(folder, readers)
    targets, target_findings = load_targets(folder)
    game = dataclasses.replace(builder.build(docs), export_targets=targets)
    check_build_exports(game, targets, builder.exports_node, readers["game"])
    findings = [f for r in readers.values() for f in r.findings] + builder.extra_findings + target_findings
    findings += symbol_findings(game, builder.symbol_refs)
    return LoadResult(game, findings)


class _GameBuilder:
    def __init__(self, folder: Path, readers: dict[str, Reader]):
        self.folder = folder
        self.g, self.c, self.s = readers["game"], readers["cards"], readers["setups"]
        self.extra_findings: list[Finding] = []
        self.piles: list[str] = list(self.START_PILES)
        self.component_ids: list[str] = []
        self.symbol_refs: list[tuple[str, Where, str]] = []  # (name, where named, what names it)

    def build(self, docs) -> Game:
        g = self.g
        top = g.mapping(docs["game"], schema.GAME)
        self.exports_node = top.get("exports")
        backs = self._identified(top.get("backs"), schema.BACK, lambda ident, m: Back(
            ident, m.read("title", ""), m.read("background"), m.read("pattern"), m.read("border"),
            self._symbol(m, f"back '{ident}'", key="emblem"), g.where(m.get("title") or m.get("id"))))
        self.back_ids = [b.id for b in backs]
        colors = self._colors(top.get("colors"))
        tags = self._identified(top.get("tags"), schema.TAG,
                                lambda ident, m: Tag(ident, m.read("name", ""), m.read("meaning", "")))
        kinds = self._kinds(top.get("kinds"))
        attributes = self._attributes(top.get("attributes"))
        kind_styles = self._kind_styles(top.get("kind_styles"), kinds)
        self.known_ids = {"color": [c.id for c in colors], "tag": [t.id for t in tags],
                          "kind": [k.id for k in kinds]}
        cards = self._cards(docs["cards"], colors, tags, kinds, attributes)
        self.known_ids["card"] = [c.name for c in cards]
        setups = () if docs["setups"] is NO_SETUPS else self._setups(docs["setups"], cards)
        steps = self._steps(top.get("setup"))
        components = self._components(top.get("components"))
        checks = self._checks(top.get("checks"))
        self._check_waivers(setups, checks)
        variations = tuple(
            Variation(m.read("name", ""), m.read("text", ""), g.passage(m["text"]) if "text" in m else None)
            for m in (g.mapping(n, schema.VARIATION) for n in g.sequence(top.get("variations"), "variations"))
        )
        title = top.read("title", "")
        cheatsheet, reference = read_reference(g, top.get("reference"), title)
        default_setup = top.read("default_setup") or None
        if default_setup and slugify(default_setup) not in {s.id for s in setups}:
            g.error(top.get("default_setup"), "unknown-setup", f"default_setup '{default_setup}' is not a setup",
                    _did_you_mean(default_setup, [s.name for s in setups]))
        return Game(
            id=self.folder.name,
            folder=self.folder,
            title=title,
            version=top.read("version", ""),
            author=top.read("author", ""),
            date=top.read("date", ""),
            card_size=self._card_size(top.get("card_size")),
            colors=colors, tags=tags, kinds=kinds, attributes=attributes,
            kind_styles=kind_styles, cards=cards, setups=setups, steps=steps, checks=checks,
            variations=variations, components=components, default_setup=default_setup,
            rules_markdown=self._rules_markdown(),
            rules_file=display_path(self.folder / "rules.md", self.folder),
            text_checks=self._text_checks(top.get("text_checks"), cards),
            layout=self._layout(),
            cheatsheet=cheatsheet, extra=reference,
            backs=backs,
            exports=tuple(top.read("exports", ())),
        )

    # -- game.yaml parts

    def _card_size(self, node):
        g = self.g
        if node is None:
            return DEFAULT_CARD_SIZE
        if isinstance(node, yaml.MappingNode):
            m = g.mapping(node, schema.CARD_SIZE)
            width, height = CARD_SIZES_MM[DEFAULT_CARD_SIZE]
            return {"width_mm": m.read("width_mm") or width, "height_mm": m.read("height_mm") or height}
        name = g.text(node, "card_size")
        if name not in CARD_SIZES_MM:
            g.error(node, "unknown-size", f"card_size '{name}' is not a known size",
                    _did_you_mean(name, CARD_SIZES_MM) or f"use one of {', '.join(CARD_SIZES_MM)} or "
                    "{width_mm: .., height_mm: ..}")
            return DEFAULT_CARD_SIZE
        return name

    def _colors(self, node) -> tuple[Color, ...]:
        g = self.g
        colors = self._identified(node, schema.COLOR, lambda cid, m: Color(
            id=cid, name=m.read("name", ""), meaning=m.read("meaning", ""),
            hex=m.read("hex") or "#888888", symbol=self._symbol(m, f"color '{cid}'"),
            text_hex=m.read("text_hex"), title_hex=m.read("title_hex"), back=self._back_id(g, m.get("back")),
        ))
        if not colors:
            g.error(node, "missing-field", "game.yaml defines no colors", "add a colors: list")
        return colors

    def _symbol(self, m: Values, what: str, reader: Reader | None = None, key: str = "symbol") -> str | None:
        """A color's or a card's symbol (default star) or a back's emblem (default none); load_game
        checks at the end that the game has it."""
        name = m.read(key)
        if name is None:
            return "star" if key == "symbol" else None
        self.symbol_refs.append((name, (reader or self.g).where(m[key]), what))
        return name

    def _kinds(self, node) -> tuple[Kind, ...]:
        return self._identified(node, schema.KIND, lambda ident, m: Kind(
            ident, m.read("name", ""), m.read("meaning", ""), self._role(m), self._back_id(self.g, m.get("back"))))

    def _back_id(self, reader: Reader, node) -> str | None:
        """A color's, kind's or card's back: the id of one of game.yaml's backs."""
        ident = reader.text(node, "back")
        if not ident:
            return None
        if ident not in self.back_ids:
            reader.error(node, "unknown-back", f"unknown back '{ident}'",
                         _did_you_mean(ident, self.back_ids) or
                         (f"backs are: {', '.join(self.back_ids)}" if self.back_ids else
                          "define it in game.yaml's backs: list"))
            return None
        return ident

    def _role(self, m: Values) -> str:
        role = m.read("role", "")
        if role and role not in KIND_ROLES:
            self.g.error(m["role"], "bad-role", f"role '{role}' is not one of {', '.join(KIND_ROLES)}",
                         "losing: drawing one loses the game; saving: saves a player from one")
            return ""
        return role

    def _identified(self, node, spec: Fields, make) -> tuple:
        """A list of mappings with unique `id`s, each turned into a model object by make(id, mapping)."""
        g = self.g
        what = spec.name
        out, seen = [], set()
        for item in g.sequence(node, f"{what}s"):
            m = g.mapping(item, spec)
            ident = g.identifier(m.get("id"), f"{what} id")
            if ident is None:
                continue
            if ident in seen:
                g.error(m["id"], "duplicate-id", f"{what} '{ident}' is defined twice")
                continue
            seen.add(ident)
            out.append(make(ident, m))
        return tuple(out)

    def _attributes(self, node) -> tuple[Attribute, ...]:
        g = self.g
        out = []
        for item in g.sequence(node, "attributes"):
            m = g.mapping(item, schema.ATTRIBUTE)
            ident = g.identifier(m.get("id"), "attribute id")
            source = m.read("from", "number")
            if source not in schema.ATTRIBUTE_SOURCES:
                g.error(m.get("from"), "unknown-key", f"attribute source '{source}' is not supported",
                        f"attributes are derived from: {', '.join(schema.ATTRIBUTE_SOURCES)}")
            digit = m.read("digit") or None
            if digit not in (None, *schema.DIGITS):
                g.error(m["digit"], "unknown-key", f"digit '{digit}' is not {' or '.join(schema.DIGITS)}")
                digit = None
            names = {}
            if "names" in m:
                table = schema.ATTRIBUTE.fields["names"].type
                for key_node, value_node in g.free_mapping(m["names"], "names"):
                    value = table.key.read(g, key_node, "attribute value")
                    if value is not None:
                        names[value] = table.value.read(g, value_node, "name")
            if ident:
                out.append(Attribute(ident, m.read("name", ""), digit, m.read("divide"), m.read("modulo"), names))
        return tuple(out)

    def _kind_styles(self, node, kinds) -> dict[str, dict[str, str]]:
        g = self.g
        styles = {}
        if node is None:
            return styles
        kind_ids = [k.id for k in kinds]
        for key_node, value_node in g.free_mapping(node, "kind_styles"):
            if key_node.value not in kind_ids:
                g.error(key_node, "unknown-kind", f"kind_styles: unknown kind '{key_node.value}'",
                        _did_you_mean(key_node.value, kind_ids))
                continue
            m = g.mapping(value_node, schema.KIND_STYLE)
            styles[key_node.value] = {k: m.read(k) for k in m if m.read(k)}
        return styles

    # -- cards.yaml

    def _cards(self, doc, colors, tags, kinds, attributes) -> tuple[Card, ...]:
        c = self.c
        top = c.mapping(doc, schema.CARDS)
        color_ids = [x.id for x in colors]
        tag_ids, kind_ids = [t.id for t in tags], [k.id for k in kinds]
        cards: list[Card] = []
        by_id: dict[str, Card] = {}
        for item in c.sequence(top.get("cards"), "cards"):
            for card in self._card_entries(item, color_ids, tag_ids, kind_ids, attributes):
                if card.id in by_id:
                    first = by_id[card.id].where
                    c.findings.append(Finding(ERROR, "duplicate-card",
                                              f"card '{card.name}' is defined twice (first at {first})",
                                              card.where, "card names must be unique, ignoring case"))
                    continue
                by_id[card.id] = card
                cards.append(card)
            if len(cards) > MAX_CARDS:
                c.error(item, "too-many-cards", f"more than {MAX_CARDS} card types")
                break
        return tuple(cards)

    def _card_entries(self, node, color_ids, tag_ids, kind_ids, attributes) -> list[Card]:
        c = self.c
        m = c.mapping(node, schema.CARD)
        if not m:
            return []
        if ("name" in m) == ("series" in m):
            c.error(node, "missing-field", "a card needs either 'name' or 'series' (not both)")
            return []
        if "color" not in m:
            return []
        color = m.read("color")
        if color not in color_ids:
            c.error(m.get("color"), "unknown-color", f"unknown color '{color}'",
                    _did_you_mean(color, color_ids) or f"colors are: {', '.join(color_ids)}")
            return []
        card_kinds = self._ids(m.get("kind"), kind_ids, "kind", "unknown-kind")
        card_tags = self._ids(m.get("tags"), tag_ids, "tag", "unknown-tag")
        common = dict(
            color=color, kinds=card_kinds, tags=card_tags,
            star=m.read("star", False),
            symbol=self._symbol(m, f"card '{getattr(m.get('name') or m.get('series'), 'value', '')}'", c)
            if "symbol" in m else None,
            printed=m.read("print", True),
            back=self._back_id(c, m.get("back")),
            art_file=self._art(m, getattr(m.get("name") or m.get("series"), "value", "")),
            low_res=self._low_res(m),
            where=c.where(node),
            places={"name": c.passage(m["name"] if "name" in m else m["series"]),
                    **{k: c.passage(m[k]) for k in ("flavor", "text", "details", "art") if k in m}},
        )
        texts = {k: m.read(k, "") for k in ("flavor", "text", "details")}
        if "name" in m:
            name = m.read("name").strip()
            if not name:
                c.error(m["name"], "missing-field", "card name is empty")
                return []
            number = m.read("number")
            labels = {} if number is None else {a.id: a.label_of(number) for a in attributes}
            return [Card(id=slugify(name), name=name, number=number, attributes=labels, **texts, **common)]
        return self._series(m, texts, common, attributes)

    def _art(self, m: Values, card: str) -> Path | None:
        """A card's art file: a relative path to an image in the game folder or the shared art/ (never
        a URL, an absolute path, '..' or a symlink leading out) that the card renderer can draw."""
        c = self.c
        node, value = m.get("art"), m.read("art", "")
        if not value:
            return None
        hint = "write a path inside the game folder, e.g. art/boom.png"
        if _URL_SCHEME.match(value) or value.startswith(("/", "\\")) or "\\" in value \
                or ".." in value.split("/"):
            c.error(node, "art-path", f"card '{card}': art '{value}' must be a relative path to a file, not a URL, "
                    "an absolute path or a path with '..'", hint)
            return None
        for base in (self.folder, ART):
            candidate = base / value
            if candidate.exists() or candidate.is_symlink():
                if not inside(candidate, [base]):
                    c.error(node, "art-outside", f"card '{card}': art '{value}' leads outside the game folder and art/",
                            "copy the file into the game folder instead of linking to it")
                    return None
                if candidate.suffix.lower() not in images.FORMATS:
                    c.error(node, "bad-art", f"card '{card}': art '{value}' has the extension '{candidate.suffix}': "
                            "only .png, .jpg and .jpeg images can be used", images.HINT)
                    return None
                try:
                    images.checked(candidate, [base])
                except images.BadImage as exc:
                    c.error(node, "bad-art", f"card '{card}': art '{value}' {exc}", exc.hint)
                    return None
                return candidate.resolve()
        c.error(node, "art-not-found", f"card '{card}': art '{value}' does not exist in the game folder or art/", hint)
        return None

    def _low_res(self, m: Values) -> bool:
        value = m.read("low_res", "")
        if value and value not in schema.LOW_RES:
            self.c.error(m["low_res"], "bad-low-res", f"low_res '{value}' is not 'ok'",
                         "write low_res: ok to print the card's art below 150 ppi, or leave it out")
        return value in schema.LOW_RES

    def _series(self, m, texts, common, attributes) -> list[Card]:
        c = self.c
        pattern = m.read("series")
        if "numbers" not in m:
            return []  # reported with the card's keys
        rng = c.mapping(m["numbers"], schema.RANGE)
        low, high = rng.read("from"), rng.read("to")
        if low is None or high is None:
            return []
        if high < low or high - low >= MAX_CARDS:
            c.error(m["numbers"], "number-out-of-range",
                    f"numbers {low}..{high} must count up and hold at most {MAX_CARDS} cards")
            return []
        cards = []
        for number in range(low, high + 1):
            values = {"number": number}
            labels = {a.id: a.label_of(number) for a in attributes}
            values.update(labels)
            try:
                name = fill_pattern(pattern, values)
                filled = {k: fill_pattern(v, values) for k, v in texts.items()}
            except ValueError as exc:
                c.error(m["series"], "bad-pattern", str(exc), "use {number}, {number:02d} or an attribute id")
                return []
            cards.append(Card(id=slugify(name), name=name, number=number, attributes=labels,
                              **filled, **common))
        return cards

    def _ids(self, node, known: list[str], what: str, code: str) -> tuple[str, ...]:
        c = self.c
        out = []
        for item_node, value in self._id_items(node, what):
            if value not in known:
                c.error(item_node, code, f"unknown {what} '{value}'",
                        _did_you_mean(value, known) or f"{what}s are: {', '.join(known) or 'none defined'}")
            elif value not in out:
                out.append(value)
        return tuple(out)

    def _id_items(self, node, what):
        c = self.c
        if node is None or _is_null(node):
            return []
        items = [node] if isinstance(node, yaml.ScalarNode) else c.sequence(node, f"{what}s")
        return [(n, c.text(n, what).strip().lower()) for n in items]

    # -- setups.yaml

    def _setups(self, doc, cards) -> tuple[Setup, ...]:
        s = self.s
        top = s.mapping(doc, schema.SETUPS)
        index = {card.id: card for card in cards}
        names = [card.name for card in cards]
        setups, seen = [], set()
        for item in s.sequence(top.get("setups"), "setups"):
            if len(setups) == MAX_SETUPS:
                s.error(item, "too-many-setups", f"more than {MAX_SETUPS} setups")
                break
            m = s.mapping(item, schema.SETUP)
            if not m:
                continue
            name = m.read("name", "").strip()
            if not name:
                continue
            if slugify(name) in seen:
                s.error(m["name"], "duplicate-setup", f"setup '{name}' is defined twice")
                continue
            problem = file_name_problem(sheet_file_name(name))
            if problem:
                s.error(m["name"], "file-name-too-long", f"setup '{name}': {problem}",
                        "shorten the setup's name (names in non-Latin scripts take 2–4 bytes a letter)")
            seen.add(slugify(name))
            low, high = self._players(m.get("players"))
            if "cards" not in m and "each" not in m:
                s.error(item, "missing-field", f"setup '{name}': missing 'cards' (or 'each')")
            lines = self._lines(m["cards"], index, names, name) if "cards" in m else ()
            lines += self._each(m.get("each"), cards, lines, name)
            setups.append(Setup(
                id=slugify(name), name=name, blurb=m.read("blurb", ""),
                min_players=low, max_players=high,
                hand=self._hand(m.get("hand"), index, names),
                lines=lines,
                extra_rules=m.read("extra_rules", ()),
                copies=m.read("copies", 1),
                waivers=self._waivers(m.get("waive")),
                where=s.where(item),
                places=self._setup_places(m),
            ))
        return tuple(setups)

    def _setup_places(self, m) -> dict:
        s = self.s
        places = {"blurb": s.passage(m["blurb"])} if "blurb" in m else {}
        rules = m.get("extra_rules")
        items = [rules] if isinstance(rules, yaml.ScalarNode) and not _is_null(rules) else s.sequence(rules, "extra rules")
        places.update({f"extra_rules[{i}]": s.passage(n) for i, n in enumerate(items)})
        return places

    def _players(self, node) -> tuple[int, int]:
        s = self.s
        m = s.mapping(node, schema.PLAYERS)
        low, high = m.read("min"), m.read("max")
        if low is not None and high is not None and high < low:
            s.error(node, "bad-players", f"players: max ({high}) is less than min ({low})")
            return low, low
        return (low or 1), (high or low or 1)

    def _resolve_card(self, key_node, index, names, context: str) -> str | None:
        name = key_node.value
        ident = slugify(name)
        if ident in index:
            return ident
        if any(f.level == ERROR for f in self.c.findings):
            return None  # cards.yaml is broken: its errors explain the missing card
        self.s.error(key_node, "unknown-card", f"{context}: no card named '{name}' in cards.yaml",
                     _did_you_mean(name, names) or "add the card to cards.yaml or fix the name")
        return None

    def _lines(self, node, index, names, setup_name) -> tuple[SetupLine, ...]:
        s = self.s
        lines = []
        for key_node, value_node in s.free_mapping(node, f"setup '{setup_name}': cards"):
            ident = self._resolve_card(key_node, index, names, f"setup '{setup_name}'")
            count = schema.SETUP.fields["cards"].type.value.read(s, value_node, f"count of '{key_node.value}'")
            if count is None and not _is_null(value_node):
                continue
            if ident:
                lines.append(SetupLine(ident, count, s.where(key_node)))
        return tuple(lines)

    def _each(self, node, cards, lines, setup_name) -> tuple[SetupLine, ...]:
        """`each: [{select: .., count: N}]`: N copies of every card the selector picks."""
        s = self.s
        listed = {line.card for line in lines}
        out = []
        for item in s.sequence(node, "each"):
            m = s.mapping(item, schema.EACH)
            selector = self._selector(m.get("select"), s)
            count = m.read("count")
            picked = [card for card in cards if matches(card, selector)]
            if selector is not None and not picked:
                s.error(m.get("select"), "empty-selection", f"setup '{setup_name}': each: the selector picks no card")
            for card in picked:
                if card.id in listed:
                    s.error(item, "duplicate-key", f"setup '{setup_name}': '{card.name}' is counted twice",
                            "list it under cards or pick it with each, not both")
                    continue
                listed.add(card.id)
                if count is not None:
                    out.append(SetupLine(card.id, count, s.where(item)))
        return tuple(out)

    def _hand(self, node, index, names) -> Hand:
        s = self.s
        if node is None:
            return Hand()
        m = s.mapping(node, schema.HAND)
        deal = m.read("deal")
        if expressions.uses(deal, "hand"):
            s.error(m["deal"], "bad-expression", "hand: deal cannot use hand (it is the hand size itself)",
                    "e.g. deal: 7, deal: 12 - players or deal: {2: 10, 3: 9, 4: 8}")
            deal = None
        extras, places = [], {}
        if "extras" in m and not _is_null(m["extras"]):
            for key_node, value_node in s.free_mapping(m["extras"], "hand: extras"):
                ident = self._resolve_card(key_node, index, names, "hand: extras")
                count = schema.HAND.fields["extras"].type.value.read(s, value_node, f"extras count of '{key_node.value}'")
                if ident and count not in (None, 0):
                    extras.append((ident, count))
                    places[ident] = s.where(value_node)
        return Hand(deal, tuple(extras), s.where(m["deal"]) if "deal" in m else None, places)

    def _components(self, node) -> tuple[Component, ...]:
        """game.yaml's components: what the game has besides its cards, each counted by player count."""
        g = self.g
        components = self._identified(node, schema.COMPONENT, lambda ident, m: Component(
            id=ident, name=m.read("name", ""), plural=m.read("plural") or f"{m.read('name', '')}s",
            count=m.read("count"), meaning=m.read("meaning", ""), each=m.read("each"), to_win=m.read("to_win"),
            where=g.where(m["id"]), places={key: g.where(m[key]) for key in COMPONENT_COUNTS if key in m}))
        for component in components:
            if component.id in self.piles or component.id in ("setup", *self.CHECK_PILES):
                self.extra_findings.append(Finding(
                    ERROR, "duplicate-id", f"component '{component.id}' has the name of a pile", component.where,
                    "checks name piles and components alike: give the component another id"))
        self.component_ids = [c.id for c in components]
        return components

    def _text_checks(self, node, cards) -> TextChecks:
        """text_checks: {aliases: {Name: {color|kind|tag|card: id}}, waive: [{check, reason, inside}]}."""
        g = self.g
        if node is None:
            return TextChecks()
        m = g.mapping(node, schema.TEXT_CHECKS)
        aliases = {}
        for key_node, value_node in g.free_mapping(m["aliases"], "aliases") if "aliases" in m else ():
            target = self._alias_target(key_node.value, value_node, cards)
            if target:
                aliases[key_node.value] = target
        waivers = []
        for item in g.sequence(m.get("waive"), "waive"):
            w = g.mapping(item, schema.GAME_WAIVER)
            waivers.append(Waiver(w.read("check", ""), w.read("reason", ""), g.where(w.get("check", item)),
                                  w.read("inside", "")))
        return TextChecks(aliases, tuple(waivers))

    def _alias_target(self, alias: str, node, cards) -> tuple[str, str] | None:
        """An alias's {color|kind|tag: id} or {card: name} as (what, id); None (reported) if unknown."""
        g = self.g
        target = g.mapping(node, schema.ALIAS, f"alias '{alias}'")
        if len(target) != 1:
            g.error(node, "bad-alias", f"alias '{alias}' needs exactly one of: {', '.join(schema.ALIAS.exactly_one)}",
                    "e.g. Unique Cards: {color: special}")
            return None
        what, = target
        value = target.read(what)
        known = {c.id: c.name for c in cards} if what == "card" else {i: i for i in self.known_ids[what]}
        ident = slugify(value) if what == "card" else value
        if ident not in known:
            g.error(target[what], f"unknown-{what}", f"alias '{alias}': unknown {what} '{value}'",
                    _did_you_mean(value, known.values()) or f"{what}s are: {', '.join(known.values())}")
            return None
        return what, ident

    def _waivers(self, node) -> tuple[Waiver, ...]:
        s = self.s
        out = []
        for item in s.sequence(node, "waive"):
            m = s.mapping(item, schema.SETUP_WAIVER)
            out.append(Waiver(m.read("check", ""), m.read("reason", ""), s.where(m.get("check", item))))
        return tuple(out)

    def _check_waivers(self, setups, checks) -> None:
        ids = [c.id for c in checks]
        for setup in setups:
            for waiver in setup.waivers:
                if waiver.check not in ids:
                    self.extra_findings.append(Finding(
                        ERROR, "unknown-check", f"setup '{setup.name}' waives unknown check '{waiver.check}'",
                        waiver.where, _did_you_mean(waiver.check, ids) or f"checks are: {', '.join(ids)}"))

    # -- rules data

    def _steps(self, node) -> tuple[Step, ...]:
        g = self.g
        if node is None:
            return ()
        m = g.mapping(node, schema.SETUP_PROCEDURE)
        steps = []
        piles = self.piles  # the piles that exist so far, in order of appearance
        for item in g.sequence(m.get("steps"), "steps"):
            sm = g.mapping(item, schema.STEP)
            actions = [a for a in schema.STEP.exactly_one if a in sm]
            if len(actions) != 1:
                g.error(item, "bad-step", f"a step needs exactly one of: {', '.join(schema.STEP.exactly_one)}")
                continue
            action = actions[0]
            common = dict(action=action, when=sm.read("when"), text=sm.read("text", ""), where=g.where(item))
            if action == "shuffle":
                steps.append(Step(source=self._pile(sm.get("shuffle"), piles, "shuffle"), **common))
                continue
            spec = g.mapping(sm[action], schema.STEP.fields[action].type)
            source = self._pile(spec.get("from"), piles, "from")
            target = spec.read("to") or ("hands" if action == "deal" else "deck")
            if ID_PATTERN.match(target) and target not in piles:
                piles.append(target)
            steps.append(Step(
                source=source,
                target=target,
                select=self._selector(spec.get("select")),
                count=spec.read("count"),
                per_player=action == "deal",
                extras=spec.read("extras", False),
                up_to=spec.read("up_to", False),
                random=spec.read("random", False),
                **common,
            ))
        return tuple(steps)

    START_PILES = ("deck", "hands")  # the setup's cards, and what the players were dealt
    CHECK_PILES = ("draw_pile", "hand")  # the deck after the steps; each player's share of the hands

    def _pile(self, node, piles: list[str], what: str) -> str:
        """A step's pile to take from (or shuffle): one that exists at this point of the steps."""
        name = self.g.text(node, what, "deck")
        if name not in piles:
            self.g.error(node, "unknown-pile", f"{what}: no pile '{name}' exists at this step",
                         " ".join(filter(None, [_did_you_mean(name, piles), f"piles so far: {', '.join(piles)} "
                                                "(a pile exists once a step moves cards to it)"])))
        return name

    def _check_piles(self, node, on: tuple[str, ...], selects: bool) -> None:
        """A check's `on:` names piles the setup steps make (or draw_pile, hand, setup), or components."""
        known = ["setup", *self.CHECK_PILES, *self.piles]
        components = [name for name in on if name in self.component_ids]
        for name in on:
            if name not in known and name not in self.component_ids:
                things = f"piles are: {', '.join(known)}" + (
                    f"; components: {', '.join(self.component_ids)}" if self.component_ids else "")
                self.g.error(node, "unknown-pile", f"on: no pile or component '{name}': the setup steps never "
                             "make it and no component has that id",
                             _did_you_mean(name, known + self.component_ids) or things)
        if components and len(components) != len(on):
            self.g.error(node, "bad-check", f"on: '{', '.join(on)}' adds components to cards",
                         "check the components and the piles of cards separately")
        elif components and selects:
            self.g.error(node, "bad-check", f"on: '{', '.join(on)}': a selector picks cards, not components",
                         "remove select: from this check")

    def _selector(self, node, reader: Reader | None = None):
        g = reader or self.g
        if node is None:
            return None
        m = g.mapping(node, schema.SELECT)
        out = {}
        for key, value in m.items():
            if key in ("any",):
                out[key] = [self._selector(v, g) for v in g.sequence(value, key)]
            elif key == "not":
                out[key] = self._selector(value, g)
            elif key == "attribute":
                table = schema.SELECT.fields["attribute"].type
                out[key] = {k.value: table.value.read(g, v, "attribute value") for k, v in g.free_mapping(value, key)}
            elif key == "star":
                out[key] = m.read(key)
            else:
                values = m.read(key)
                self._check_selected_ids(g, value, key, values)
                out[key] = [x.casefold() if key == "card" else x for x in values]
        return out

    def _check_selected_ids(self, reader: Reader, node, key: str, values) -> None:
        known = self.known_ids.get(key, [])
        for value in values:
            if value not in known and value.casefold() not in {k.casefold() for k in known}:
                reader.error(node, f"unknown-{key}", f"select: unknown {key} '{value}'",
                             _did_you_mean(value, known) or f"{key}s are: {', '.join(known) or 'none'}")

    def _checks(self, node) -> tuple[Check, ...]:
        g = self.g
        checks, seen = [], set()
        for item in g.sequence(node, "checks"):
            m = g.mapping(item, schema.CHECK)
            ident = g.identifier(m.get("id"), "check id")
            level = m.read("level", "")
            if level not in LEVELS:
                g.error(m.get("level"), "bad-level", f"level '{level}' is not one of {', '.join(LEVELS)}")
                continue
            on = m.read("on", ())
            if not on or not all(ID_PATTERN.match(name) for name in on) or ("setup" in on and len(on) > 1):
                g.error(m.get("on"), "bad-check", f"on: '{', '.join(on)}' must be setup, or pile names",
                        "e.g. on: draw_pile, on: hand, on: [draw_pile, box]")
                continue
            self._check_piles(m.get("on"), on, "select" in m)
            bounds = {k: m.read(k) for k in ("at_least", "at_most", "equals") if k in m}
            if not bounds:
                g.error(item, "bad-check", "a check needs at_least, at_most or equals")
                continue
            if ident is None or ident in seen:
                if ident:
                    g.error(m["id"], "duplicate-id", f"check '{ident}' is defined twice")
                continue
            seen.add(ident)
            checks.append(Check(id=ident, level=level, on=on, message=m.read("message", ""),
                                select=self._selector(m.get("select")), source=m.read("source", ""),
                                when=m.read("when"), where=g.where(item), **bounds))
        return tuple(checks)

    # -- other files

    def _rules_markdown(self) -> str:
        path = self.folder / "rules.md"
        if not path.exists():
            self.extra_findings.append(Finding(WARNING, "no-rules", "the game folder has no rules.md: the rulebook "
                                               "shows only what the data holds (cards, setups, variations)",
                                               Where(display_path(path, self.folder)),
                                               "write the rules in rules.md (see docs/data-format.md)"))
            return ""
        reader = Reader(path)
        if _leads_out(reader, self.folder):
            self.extra_findings += reader.findings
            return ""
        if path.stat().st_size > MAX_RULES_BYTES:
            reader.error(None, "file-too-large", f"rules.md is larger than {MAX_RULES_BYTES} bytes",
                         "a rulebook that long would take minutes to lay out: shorten it")
            self.extra_findings += reader.findings
            return ""
        try:
            text = read_input(path, MAX_RULES_BYTES).decode("utf-8")
        except UnreadableInput as exc:
            reader.error(None, "file-unreadable", f"rules.md {exc}")
        except UnicodeDecodeError:
            reader.error(None, "file-encoding", "rules.md is not UTF-8 text", "save it as UTF-8")
        else:
            _check_rules_shape(reader, text)
        self.extra_findings += reader.findings
        return "" if reader.findings else text

    def _layout(self) -> Layout:
        reader = Reader(self.folder / "layout.yaml")
        design = read_layout(self.folder, reader, self.symbol_refs)
        self.extra_findings += reader.findings
        return design


# rules.md's shape: each heading is a numbered part of the rulebook with its own table of
# contents line, and each table column a box the layout sizes against every other: both cost
# far more than prose (55,000 headings took minutes, a 40,000-column table over a minute).
MAX_RULES_HEADINGS = 300
MAX_TABLE_COLUMNS = 30
_MARKDOWN_HEADING = re.compile(r"^ {0,3}#{1,6}(\s|$)")
_TABLE_DELIMITER = re.compile(r"^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$")


def _check_rules_shape(reader: Reader, text: str) -> None:
    """Too many headings, or a table too wide, is an error at the line that passes the limit."""
    headings = 0
    for number, line in enumerate(text.splitlines(), 1):
        if _MARKDOWN_HEADING.match(line):
            headings += 1
            if headings == MAX_RULES_HEADINGS + 1:
                reader.findings.append(Finding(
                    ERROR, "too-many-headings", f"rules.md has more than {MAX_RULES_HEADINGS} headings",
                    Where(reader.name, number, 1), "a rulebook part needs more than a heading: merge sections"))
        elif "-" in line and _TABLE_DELIMITER.match(line):
            columns = line.strip().strip("|").count("|") + 1
            if columns > MAX_TABLE_COLUMNS:
                reader.findings.append(Finding(
                    ERROR, "table-too-wide", f"the table has {columns} columns; the limit is {MAX_TABLE_COLUMNS}",
                    Where(reader.name, number, 1), "split the table: a page is not wide enough for it anyway"))


# --------------------------------------------------------------------------- patterns

_PATTERN_FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)(?::(0?[0-9]{0,2}d))?\}")


def fill_pattern(pattern: str, values: dict[str, Any]) -> str:
    """Fill {name} / {name:02d} fields. Only plain names: no attribute access, no indexing."""

    def replace(match: re.Match) -> str:
        name, spec = match.group(1), match.group(2)
        if name not in values:
            raise ValueError(f"unknown field '{{{name}}}' in pattern '{pattern}'")
        value = values[name]
        if spec:
            if not isinstance(value, int):
                raise ValueError(f"'{{{name}:{spec}}}' needs a number")
            return format(value, spec)
        return str(value)

    return _PATTERN_FIELD.sub(replace, pattern)

"""load/reader: one game file read into nodes, and typed values read from the nodes, each problem\na finding at its file:line:column with a hint."""
from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TypeVar, overload

import yaml

from cardgen.inputs.files import UnreadableInput, read_input
from cardgen.inputs.paths import display_path, inside
from cardgen.load.schema import (
    HEX_PATTERN,
    ID_PATTERN,
    INT_PATTERN,
    MAX_COUNT,
    MAX_TEXT,
    Fields,
    Scalar,
    declared,
)
from cardgen.load.yaml_nodes import (
    LIBYAML_TOO_DEEP,
    MAX_FILE_BYTES,
    STR_TAG,
    TOO_DEEP,
    UnusableCharacter,
    compose,
    is_null,
    node_kind,
)
from cardgen.model import expressions
from cardgen.model.game import ERROR, CountSpec, Finding, PlainData
from cardgen.model.sizes import MAX_PLAYERS
from cardgen.model.where import Passage, Where

URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
W = TypeVar("W")
D = TypeVar("D")


def leads_out(reader: Reader, folder: Path) -> bool:
    """A game file that is a symlink leading out of the game folder is an error, never read."""
    if inside(reader.path, [folder]):
        return False
    reader.error(None, "file-outside", f"{reader.path.name} is a link leading outside the game folder",
                 "copy the file into the game folder instead of linking to it")
    return True


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

    def error(self, node: yaml.Node | None, code: str, message: str, hint: str = "") -> None:
        self.findings.append(Finding(ERROR, code, message, self.where(node), hint))

    # -- documents

    def document(self) -> yaml.Node | None:
        text = self.read_text()
        if text is None:
            return None
        self.source = text
        try:
            node = compose(text)
        except UnusableCharacter as exc:
            mark = exc.problem_mark
            self.findings.append(Finding(ERROR, "unusable-character", exc.problem or "",
                                         Where(self.name, mark.line + 1, mark.column + 1) if mark else Where(self.name),
                                         "remove the escape sequence (\\e, \\x.., \\u....) from the value"))
            return None
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            where = Where(self.name, mark.line + 1, mark.column + 1) if mark else Where(self.name)
            problem = exc.problem or exc.context or "invalid YAML"
            if problem == LIBYAML_TOO_DEEP:  # libyaml's own limit (PyYAML 6.0.4 on) may stop it before load's
                problem = TOO_DEEP
            self.findings.append(Finding(ERROR, "yaml-syntax", f"YAML syntax: {problem}", where,
                                         self._syntax_hint(text, mark.line if mark else None)))
            return None
        except yaml.reader.ReaderError as exc:  # a character YAML does not allow (a control character)
            at = exc.position  # libyaml's reader (load.yaml_nodes) counts bytes of UTF-8, PyYAML's characters
            at = len(text.encode("utf-8")[:at].decode("utf-8", "ignore")) if yaml.__with_libyaml__ else at
            line = text.count("\n", 0, at)
            column = at - (text.rfind("\n", 0, at) + 1)
            character = exc.character if isinstance(exc.character, str) else chr(exc.character)
            self.findings.append(Finding(ERROR, "yaml-syntax", f"YAML syntax: the character U+{ord(character):04X} "
                                         "cannot be in a YAML file", Where(self.name, line + 1, column + 1),
                                         "remove it (a control character, perhaps pasted with a text)"))
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
            return read_input(self.path, MAX_FILE_BYTES, [self.game_folder or self.path.parent]).decode(encoding)
        except UnreadableInput as exc:
            self.error(None, "file-unreadable", f"the file {exc}")
            return None
        except UnicodeDecodeError as exc:
            data = exc.object[:exc.start]
            line = data.count(b"\n")
            column = len(data) - (data.rfind(b"\n") + 1)
            self.error(_at(self.path.name, line, column), "file-encoding",
                       f"the file is not UTF-8 text: byte 0x{exc.object[exc.start]:02x} ({exc.reason})",
                       "save it as UTF-8 (in a spreadsheet: CSV UTF-8)")
            return None

    # -- shapes

    def mapping(self, node: yaml.Node | None, spec: Fields, what: str = "") -> Values:
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
                       f"found {node_kind(node)}")
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
                           did_you_mean(key, fields) or f"known keys: {', '.join(fields)}")
                continue
            out[key] = value_node
        for key in spec.required():
            if key not in out:
                self.error(node, "missing-field", f"{what}: missing required key '{key}'")
        for key, needed in spec.needs.items():
            if key in out and needed not in out:
                self.error(out[key], "missing-field", f"{what}: '{key}' needs '{needed}' beside it")
        return out

    def free_mapping(self, node: yaml.Node | None, what: str) -> list[tuple[yaml.Node, yaml.Node]]:
        """A mapping with data-defined keys (e.g. card counts); duplicates are reported."""
        if not isinstance(node, yaml.MappingNode):
            self.error(node, "wrong-type", f"{what} should be a mapping", f"found {node_kind(node)}")
            return []
        seen: dict[str, int] = {}
        pairs: list[tuple[yaml.Node, yaml.Node]] = []
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

    def sequence(self, node: yaml.Node | None, what: str) -> list[yaml.Node]:
        if node is None or is_null(node):
            return []
        if not isinstance(node, yaml.SequenceNode):
            self.error(node, "wrong-type", f"{what} should be a list (lines starting with '- ')",
                       f"found {node_kind(node)}")
            return []
        return list(node.value)

    # -- scalars

    def text(self, node: yaml.Node | None, what: str, default: str = "", limit: int = MAX_TEXT) -> str:
        if node is None or is_null(node):
            return default
        if not isinstance(node, yaml.ScalarNode):
            self.error(node, "wrong-type", f"{what} should be text", f"found {node_kind(node)}")
            return default
        value: str = node.value  # a scalar node's value is its text
        if len(value) > limit:
            self.error(node, "text-too-long", f"{what} is {len(value)} characters; the limit is {limit}")
            return value[:limit]
        return value

    def integer(self, node: yaml.Node | None, what: str, low: int = 0, high: int = MAX_COUNT,
                allow_null: bool = False) -> int | None:
        if node is None or is_null(node):
            if allow_null:
                return None
            self.error(node, "wrong-type", f"{what} should be a whole number, not empty")
            return None
        if not isinstance(node, yaml.ScalarNode) or node.tag == STR_TAG and node.style:
            self.error(node, "wrong-type", f"{what} should be a whole number",
                       f"found {node_kind(node)}")
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

    def number(self, node: yaml.Node | None, what: str, low: float, high: float) -> float | None:
        if not isinstance(node, yaml.ScalarNode):
            self.error(node, "wrong-type", f"{what} should be a number", f"found {node_kind(node)}")
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

    def boolean(self, node: yaml.Node | None, what: str, default: bool = False) -> bool:
        if node is None or is_null(node):
            return default
        if isinstance(node, yaml.ScalarNode) and node.value.lower() in ("true", "false", "yes", "no"):
            return node.value.lower() in ("true", "yes")
        self.error(node, "wrong-type", f"{what} should be true or false, not '{getattr(node, 'value', '')}'")
        return default

    def identifier(self, node: yaml.Node | None, what: str) -> str | None:
        value = self.text(node, what)
        if not ID_PATTERN.match(value):
            self.error(node, "bad-id", f"{what} '{value}' is not a valid identifier",
                       "use lower-case letters, digits, '-' or '_'")
            return None
        return value

    def hex_color(self, node: yaml.Node | None, what: str) -> str | None:
        if node is None:
            return None
        value = self.text(node, what)
        if not HEX_PATTERN.match(value):
            comment = self._comment_after(node)
            if not value and comment:
                self.error(node, "bad-color", f"{what} is empty: YAML read '{comment}' as a comment",
                           f"put the color in quotes: \"{comment}\"")
            else:
                self.error(node, "bad-color", f"{what} '{value}' is not a color", "write it as #rrggbb")
            return None
        return value.lower()

    @staticmethod
    def _syntax_hint(text: str, line: int | None) -> str:
        """What to check where YAML stopped: an unquoted '#rrggbb' (a comment to YAML) on that line
        or the one before, else the usual suspects."""
        lines = text.splitlines()
        for number in ([line - 1, line] if line is not None else []):
            found = re.search(r":\s*(#[0-9A-Fa-f]{3,8})\b", lines[number]) if 0 <= number < len(lines) else None
            if found:
                return f"'{found.group(1)}' starts a comment in YAML: put it in quotes, \"{found.group(1)}\""
        return "check indentation, colons and quotes on this line"

    def _comment_after(self, node: yaml.Node) -> str:
        """The '#...' word right after an empty value on its line ('hex: #c62828' unquoted)."""
        if self.source is None or not hasattr(node, "start_mark"):
            return ""
        line_end = self.source.find("\n", node.start_mark.index)
        rest = self.source[node.start_mark.index:line_end if line_end >= 0 else None].lstrip()
        match = re.match(r"#[0-9A-Fa-f]{3,8}\b", rest)
        return match.group() if match else ""

    def text_list(self, node: yaml.Node | None, what: str) -> tuple[str, ...]:
        if isinstance(node, yaml.ScalarNode) and not is_null(node):
            return (self.text(node, what),)
        return tuple(self.text(item, what) for item in self.sequence(node, what))

    def count_spec(self, node: yaml.Node | None, what: str, by: str = "player") -> CountSpec | None:
        """An integer, an expression, or a table by player count (or by seat)."""
        if isinstance(node, yaml.MappingNode):
            table: dict[int, int] = {}
            for key_node, value_node in self.free_mapping(node, what):
                players = self.integer(key_node, f"{what}: {by} count" if by == "player" else f"{what}: {by}",
                                       1, MAX_PLAYERS)
                value = self.integer(value_node, f"{what} for {key_node.value} {by}s" if by == "player"
                                     else f"{what} for {by} {key_node.value}")
                if players is not None and value is not None:
                    table[players] = value
            return table
        if isinstance(node, yaml.ScalarNode) and INT_PATTERN.match(node.value.strip()):
            return self.integer(node, what)
        text = self.text(node, what)
        try:
            expressions.parse_expression(text)
        except expressions.ExpressionError as exc:
            self.error(node, "bad-expression", f"{what}: {exc}",
                       "e.g. 'players - 1' or '10 * max(0, 7 - players)'")
            return None
        return text

    def condition(self, node: yaml.Node | None) -> str | None:
        """A `when:` expression, or None when absent or unreadable (then reported)."""
        text = self.text(node, "when")
        if not text:
            return None
        try:
            expressions.parse_expression(text)
        except expressions.ExpressionError as exc:
            self.error(node, "bad-expression", f"when: {exc}", "e.g. when: players == 3")
            return None
        return text

    def plain(self, node: yaml.Node | None, what: str, depth: int = 0) -> PlainData:
        """Free-form data (strings, lists, mappings) for templates; scalars stay as typed."""
        if isinstance(node, yaml.MappingNode):
            return {key.value: self.plain(value, what, depth + 1)
                    for key, value in self.free_mapping(node, what)}
        if isinstance(node, yaml.SequenceNode):
            return [self.plain(item, what, depth + 1) for item in node.value]
        return self.text(node, what)


class Values(dict[str, yaml.Node]):
    """A mapping's values by key (YAML nodes), read through their declared types (load/schema.py)."""

    def __init__(self, reader: Reader, spec: Fields, values: dict[str, yaml.Node]):
        super().__init__(values)
        self.reader, self.spec = reader, spec

    @overload
    def read(self, key: str, kind: type[Scalar[W]]) -> W | None: ...
    @overload
    def read(self, key: str, kind: type[Scalar[W]], default: D) -> W | D: ...

    def read(self, key: str, kind: type[Scalar[W]], default: object = None) -> object:
        """The key's value as its declared type reads it (`kind`: the type the caller expects it
        declared as, checked), or `default` when the mapping does not hold the key."""
        return self._read(key, declared(self.spec, key, kind), default)

    def value(self, key: str) -> object:
        """The key's value as its declared type reads it, for keys of several types (a layout's
        settings, a face element's parameters); None when the mapping does not hold the key."""
        return self._read(key, declared(self.spec, key, Scalar), None)

    def _read(self, key: str, scalar: Scalar[object], default: object) -> object:
        if key not in self:
            return default
        return scalar.read(self.reader, self[key], self.spec.fields[key].label or key)


def did_you_mean(word: str, choices: Iterable[str], cutoff: float = 0.6,
                 key: Callable[[str], str] = str.casefold) -> str:
    """'did you mean 'Choice'?' for the choice closest to `word`, both compared by `key` (case does
    not count), the choice shown as written; "" when none is close."""
    by_key: dict[str, str] = {}
    for choice in choices:
        by_key.setdefault(key(choice), choice)
    close = difflib.get_close_matches(key(word), list(by_key), n=1, cutoff=cutoff)
    return f"did you mean '{by_key[close[0]]}'?" if close else ""


def _at(file: str, line: int, column: int) -> yaml.ScalarNode:
    """A node standing for a place in a file that did not parse (0-based line and column)."""
    mark = yaml.Mark(file, 0, line, column, None, None)  # type: ignore[arg-type]  # no buffer: the stubs want one
    return yaml.ScalarNode("tag:yaml.org,2002:str", "", mark, mark)

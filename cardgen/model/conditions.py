"""Conditions on a card's fields, as a face's `when:` (and `for:`) writes them: `kind == creature`,
`attack`, `cost >= 3 and not star`, `color != "red"`.

A small parser of its own (no `eval`, no Python `ast`: field ids hold '-'): names are field ids,
a bare word compared with a field is that word (`kind == creature`), strings are quoted, numbers
are numbers; `==  != < <= > >=`, `and`, `or`, `not` and parentheses. A name alone holds when the
card's value is set (not empty, not no; 0 is set). A list field (kind, tags) equals a word it
holds."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Union

from cardgen.model.fields import FieldValue

MAX_LENGTH = 200
COMPARISONS = ("==", "!=", "<=", ">=", "<", ">")
# numbers in ASCII digits, as in counts ('٣' is a digit to \d and to float())
_TOKEN = re.compile(r"""\s*(?:(?P<number>[0-9]+(?:\.[0-9]+)?)|(?P<string>"[^"]*"|'[^']*')|(?P<op>==|!=|<=|>=|<|>|\(|\))"""
                    r"""|(?P<name>[A-Za-z_][A-Za-z0-9_-]*))""")
_WORDS = ("and", "or", "not")


class ConditionError(ValueError):
    def __init__(self, message: str, column: int = 0):
        super().__init__(message)
        self.column = column  # 0-based, in the condition's text


@dataclass(frozen=True)
class Name:
    """A field id (or, compared with a field, a word: `kind == creature`)."""

    id: str
    column: int = 0


@dataclass(frozen=True)
class Literal:
    value: str | float


@dataclass(frozen=True)
class Compare:
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Logic:
    op: str  # and | or | not
    terms: tuple[Node, ...]


Node = Union[Name, Literal, Compare, Logic]


@dataclass(frozen=True)
class Condition:
    """A parsed condition with its text."""

    text: str
    tree: Node

    def holds(self, value: Callable[[str], FieldValue]) -> bool:
        """Whether it holds for a card, given how to read the card's value of a field."""
        return bool(_truth(self.tree, value))

    def fields(self) -> list[Name]:
        """The names read as fields (a bare word compared with a field is not one)."""
        return [name for name, as_field in _names(self.tree) if as_field]

    def words(self) -> list[tuple[str, str]]:
        """(field, word) for each bare word compared with a field: `kind == creature`."""
        out = []
        for node in _walk(self.tree):
            if isinstance(node, Compare) and isinstance(node.left, Name) and isinstance(node.right, Name):
                out.append((node.left.id, node.right.id))
        return out


def parse_condition(text: str) -> Condition:
    if len(text) > MAX_LENGTH:
        raise ConditionError(f"the condition is {len(text)} characters; the limit is {MAX_LENGTH}")
    tokens = _tokens(text)
    parser = _Parser(tokens, len(text))
    tree = parser.either()
    if parser.position < len(tokens):
        kind, value, column = tokens[parser.position]
        raise ConditionError(f"unexpected '{value}'", column)
    return Condition(text, tree)


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out, position = [], 0
    while text[position:].strip():
        match = _TOKEN.match(text, position)
        if match is None or match.lastgroup is None:
            column = len(text) - len(text[position:].lstrip())
            raise ConditionError(f"'{text[column]}' cannot be read in a condition", column)
        kind = match.lastgroup
        out.append((kind, match.group(kind), match.start(kind)))
        position = match.end()
    return out


class _Parser:
    def __init__(self, tokens: list[tuple[str, str, int]], end: int):
        self.tokens, self.position, self.end = tokens, 0, end

    def _peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def _take(self, value: str) -> bool:
        token = self._peek()
        if token is not None and token[1] == value and token[0] in ("op", "name"):
            self.position += 1
            return True
        return False

    def either(self) -> Node:
        terms = [self.both()]
        while self._take("or"):
            terms.append(self.both())
        return terms[0] if len(terms) == 1 else Logic("or", tuple(terms))

    def both(self) -> Node:
        terms = [self.negated()]
        while self._take("and"):
            terms.append(self.negated())
        return terms[0] if len(terms) == 1 else Logic("and", tuple(terms))

    def negated(self) -> Node:
        if self._take("not"):
            return Logic("not", (self.negated(),))
        return self.comparison()

    def comparison(self) -> Node:
        left = self.atom()
        token = self._peek()
        if token is not None and token[1] in COMPARISONS:
            self.position += 1
            return Compare(token[1], left, self.atom())
        return left

    def atom(self) -> Node:
        token = self._peek()
        if token is None:
            raise ConditionError("the condition ends where a field or value is expected", self.end)
        kind, value, column = token
        self.position += 1
        if value == "(":
            inner = self.either()
            if not self._take(")"):
                raise ConditionError("a '(' is not closed", column)
            return inner
        if kind == "number":
            return Literal(float(value))
        if kind == "string":
            return Literal(value[1:-1])
        if kind == "name" and value not in _WORDS:
            return Name(value, column)
        raise ConditionError(f"unexpected '{value}'", column)


def _walk(node: Node) -> Iterator[Node]:
    yield node
    if isinstance(node, Compare):
        yield from _walk(node.left)
        yield from _walk(node.right)
    elif isinstance(node, Logic):
        for term in node.terms:
            yield from _walk(term)


def _names(node: Node) -> list[tuple[Name, bool]]:
    if isinstance(node, Name):
        return [(node, True)]
    if isinstance(node, Compare):
        right_is_word = isinstance(node.left, Name) and isinstance(node.right, Name)
        return _names(node.left) + [(name, as_field and not right_is_word) for name, as_field in _names(node.right)]
    if isinstance(node, Logic):
        return [pair for term in node.terms for pair in _names(term)]
    return []


def is_set(value: FieldValue) -> bool:
    """A value a card has: not missing, not empty, not no (0 is a value)."""
    return value is not None and value is not False and value != "" and value != ()


def _truth(node: Node, value: Callable[[str], FieldValue]) -> object:
    if isinstance(node, Name):
        return is_set(value(node.id))
    if isinstance(node, Literal):
        return bool(node.value)
    if isinstance(node, Logic):
        if node.op == "not":
            return not _truth(node.terms[0], value)
        results = (_truth(term, value) for term in node.terms)
        return all(results) if node.op == "and" else any(results)
    return _compare(node, value)


def _operand(node: Node, value: Callable[[str], FieldValue], word: bool) -> FieldValue:
    if isinstance(node, Literal):
        return node.value
    if isinstance(node, Name):
        return node.id if word else value(node.id)
    return _truth(node, value)  # type: ignore[return-value]  # a comparison of comparisons: yes or no


def _compare(node: Compare, value: Callable[[str], FieldValue]) -> bool:
    left = _operand(node.left, value, False)
    right = _operand(node.right, value, isinstance(node.left, Name) and isinstance(node.right, Name))
    if isinstance(left, tuple):  # a list field: holds the word (== ) or not (!=)
        held = str(right) in left
        return held if node.op == "==" else not held if node.op == "!=" else False
    if node.op in ("==", "!="):
        equal = _same(left, right)
        return equal if node.op == "==" else not equal
    try:
        a, b = float(left), float(right)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False  # an order between texts or missing values: never holds
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[node.op]


def _same(left: FieldValue, right: FieldValue) -> bool:
    if isinstance(left, bool) or isinstance(right, bool):
        return left is right or str(left).lower() in ("true", "yes") and str(right).lower() in ("true", "yes")
    try:
        return float(left) == float(right)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return str(left) == str(right)

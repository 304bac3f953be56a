"""Counts in the rules data: integers, small arithmetic expressions, or tables by player count.

Expressions are parsed with `ast` and only a whitelist of node types is evaluated, so
data can never call into Python.
"""
from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

from cardgen.model.game import CountSpec, Setup

VARIABLES = ("players", "hand", "seat")  # seat: a deal's by_seat only (1: the first player)
FUNCTIONS: dict[str, Callable[..., int]] = {"min": min, "max": max}
MAX_LENGTH = 200

_BINARY: dict[type[ast.operator], Callable[[int, int], int]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b if b else 0,
    ast.Mod: lambda a, b: a % b if b else 0,
}
_COMPARE: dict[type[ast.cmpop], Callable[[int, int], bool]] = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
}


class ExpressionError(ValueError):
    pass


# what a count may not hold, in the data's words (Python's own names mean nothing to a designer)
_REFUSED: dict[type[ast.AST], str] = {
    ast.Div: "'/' (division) is not allowed in counts: counts are whole numbers; use '//' to divide and round down",
    ast.Pow: "'**' (a power) is not allowed in counts: write the product out, e.g. players * players",
    ast.BitAnd: "'&' is not allowed in counts: use 'and'", ast.BitOr: "'|' is not allowed in counts: use 'or'",
    ast.BitXor: "'^'",
    ast.LShift: "'<<'", ast.RShift: "'>>'", ast.MatMult: "'@'", ast.Invert: "'~'", ast.Not: "'not'",
    ast.Attribute: "a '.' (an attribute)", ast.Subscript: "'[...]' (an index)",
    ast.List: "a list '[...]'", ast.Tuple: "a list of values (a comma)", ast.Dict: "a mapping '{...}'",
    ast.Set: "a set '{...}'", ast.Lambda: "'lambda'", ast.JoinedStr: "a text", ast.Starred: "'*'",
    ast.In: "'in'", ast.NotIn: "'not in'", ast.Is: "'is'", ast.IsNot: "'is not'",
    ast.NamedExpr: "':='", ast.ListComp: "a list comprehension", ast.GeneratorExp: "a generator",
}


def _refused(node: ast.AST) -> str:
    """Why a part of an expression cannot be in a count, in the data's words."""
    what = _REFUSED.get(type(node)) or (f"'{ast.unparse(node)}'" if isinstance(node, ast.expr) else "this operator")
    return what if " is not allowed " in what else f"{what} is not allowed in counts"


def parse_expression(text: str) -> ast.Expression:
    """Parse and validate an expression; raises ExpressionError with a readable reason."""
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"expression longer than {MAX_LENGTH} characters")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"cannot read expression {text!r}: {exc.msg}") from None
    for node in ast.walk(tree):
        _validate_node(node)
    return tree


def _validate_node(node: ast.AST) -> None:
    allowed = (
        ast.Expression, ast.BinOp, ast.UnaryOp, ast.USub, ast.UAdd, ast.Constant, ast.Name,
        ast.Load, ast.Call, ast.Compare, ast.IfExp, ast.BoolOp, ast.And, ast.Or,
        *_BINARY, *_COMPARE,
    )
    if not isinstance(node, allowed):
        raise ExpressionError(_refused(node))
    if isinstance(node, ast.Constant) and (type(node.value) is not int or abs(node.value) > 10**6):
        raise ExpressionError(f"only whole numbers up to 1000000 are allowed, not {node.value!r}")
    if isinstance(node, ast.Name) and node.id not in VARIABLES and node.id not in FUNCTIONS:
        raise ExpressionError(
            f"unknown name '{node.id}' (known: {', '.join(VARIABLES + tuple(FUNCTIONS))})"
        )
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS or node.keywords:
            raise ExpressionError("only min(...) and max(...) may be called")
        if len(node.args) < 2:
            raise ExpressionError(f"{node.func.id}(...) needs at least two values, e.g. "
                                  f"{node.func.id}(1, players - 2)")


def setup_variables(setup: Setup, players: int) -> dict[str, int]:
    """The VARIABLES' values for a setup (model.Setup) at a player count: `hand` only when the setup
    declares `hand: deal` (an expression using it otherwise is an error, never a silent 0)."""
    variables = {"players": players}
    if setup.hand.deal is not None:
        try:
            variables["hand"] = evaluate(setup.hand.deal, variables)
        except ExpressionError as exc:
            raise ExpressionError(f"hand: deal: {exc}") from None
    return variables


def uses(spec: CountSpec | None, name: str) -> bool:
    """Whether a count spec's expression uses a variable."""
    if not isinstance(spec, str):
        return False
    try:
        tree = parse_expression(spec)
    except ExpressionError:
        return False
    return any(isinstance(node, ast.Name) and node.id == name for node in ast.walk(tree))


def evaluate(spec: CountSpec, variables: Mapping[str, int]) -> int:
    """The value of a count spec (int, expression string or {players: value} table)."""
    if isinstance(spec, bool):
        raise ExpressionError("a count cannot be true/false")
    if isinstance(spec, int):
        return spec
    if isinstance(spec, Mapping):
        players = variables["players"]
        if players not in spec:
            raise ExpressionError(f"the table has no entry for {players} players")
        return int(spec[players])
    return int(_eval(parse_expression(str(spec)).body, variables))


def _eval(node: ast.AST, env: Mapping[str, int]) -> int:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):  # parse admits whole numbers only
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise ExpressionError(f"'{node.id}' has no value here" + (
                " (the setup gives no hand: deal)" if node.id == "hand" else ""))
        return env[node.id]
    if isinstance(node, ast.UnaryOp):
        value = _eval(node.operand, env)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp):
        return _BINARY[type(node.op)](_eval(node.left, env), _eval(node.right, env))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):  # parse admits min and max only
        return FUNCTIONS[node.func.id](*(_eval(a, env) for a in node.args))
    if isinstance(node, ast.Compare):
        left = _eval(node.left, env)
        for op, right_node in zip(node.ops, node.comparators):
            right = _eval(right_node, env)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.IfExp):
        return _eval(node.body if _eval(node.test, env) else node.orelse, env)
    if isinstance(node, ast.BoolOp):
        values = [_eval(v, env) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    raise ExpressionError(_refused(node))

"""`cardgen check` passing means `cardgen build` succeeds: mutate real game folders, check each,
and build what passes.

Each case copies a small real game, applies a few seeded mutations (values anywhere in
game.yaml, cards.yaml and setups.yaml, the layout.yaml settings, the cheat sheet, symbol files),
runs `cardgen check` and, when it exits 0, the build's own rendering paths:

- every card face and the back through the card renderer (layout, fonts, symbols, art, text);
- the rulebook, the checklists and the cheat sheet up to their HTML (templates, Markdown, the
  symbol font, the engine's figures);
- and, for every `full_every`th passing case, the whole `cardgen build` (WeasyPrint, the worker
  pool, file names, publishing).

A case fails when check exits 0 but the build refuses the folder, or when anything prints a
traceback. The test suite runs a few hundred cases; run this file for more:

    PYTHONPATH=$PWD python3 tests/e2e/check_implies_build.py --cases 5000 [--first 1000] [--full-every 10]
"""
from __future__ import annotations

import argparse
import contextlib
import copy
import io
import random
import re
import shutil
import sys
import traceback
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from cardgen.publish.check import load_checked

ROOT = Path(__file__).resolve().parents[2]
GAMES = (ROOT / "tests" / "data" / "tiny_game", ROOT / "card_data" / "starter")
DATA_FILES = ("game.yaml", "cards.yaml", "setups.yaml")

# values a mutation may put anywhere: types, ranges, expressions, names, markup, scripts
VALUES: tuple[Any, ...] = (
    0, 1, 2, 3, -1, 7, 100, 1001, 10**7, 0.5, 2.5, True, False, None, "", " ", "x", "0", "1.10", "yes",
    "Böom", "Ünïcødé Ság", "日本語のカード", "Ωmega", "x" * 81, "word " * 60, "**bold** and *it*", ":bomb:",
    ":gear: :star:", ":nope:", "<b>x</b> & <i>", "[x](http://127.0.0.1/)", "![i](art/none.png)",
    "#ff0000", "#12345g", "red", "players", "players - 1", "hand + 1", "max()", "max(players)",
    "min(1, players)", "10 * max(0, 7 - players)", "players > 2", "players // 0", "1000000 * 1000000",
    "deck", "hands", "box", "draw_pile", "hand", "setup", "face_up", "bomb", "star", "gear", "shield",
    "now", "hazard", "treasure", "blue", "gold", "poker", "tarot", "mini", "bridge", "huge", "63x88",
    "art/none.png", "../secret.png", "/etc/passwd", "con", "a/b", "a\\b", "x" * 300,
    [], {}, ["now"], {"min": 2, "max": 4}, {"2": 1, "3": 2}, {"deal": 2}, {"a": 1}, [{"title": "T", "items": ["i"]}],
)
SVGS = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect x="1" y="1" width="8" height="8"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle cx="5" cy="5" r="4" fill="none" '
    'stroke="#000" stroke-width="2"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><g transform="rotate(30 5 5)">'
    '<path d="M1 1 L9 1 L5 9 Z" fill-rule="evenodd"/></g></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"><rect width="1" height="1"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>B</text></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><image href="../../x.png"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1e9 1e9"><rect width="1e9" height="1e9"/></svg>',
    "not xml at all",
    "",
)
SYMBOL_NAMES = ("bomb", "gear", "star", "shield", "new-one", "Bad Name")


class _Loader(yaml.SafeLoader):
    """YAML 1.1 without its on/off/yes/no booleans: cardgen reads `on:` and `No` as text."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|false)$"), list("tf"))


@cache
def base_data(game: Path) -> dict:
    """The game's YAML files as data (read once: every case starts from a copy)."""
    return {name: yaml.load((game / name).read_text(encoding="utf-8"), Loader=_Loader) for name in DATA_FILES}


def default_layout() -> dict:
    from cardgen.load.layout import default_settings

    return default_settings()


def _dump(tree: Any) -> str:
    return yaml.dump(tree, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), allow_unicode=True, sort_keys=False)


# --------------------------------------------------------------------------- mutations


@dataclass
class Case:
    seed: int
    game: Path
    steps: list[str] = field(default_factory=list)  # what was mutated, to replay and read a failure

    def __str__(self) -> str:
        return f"case {self.seed} ({self.game.name}): " + "; ".join(self.steps)


def mutate_folder(folder: Path, case: Case, rng: random.Random) -> None:
    """1 to 3 mutations of the game folder, each described in case.steps."""
    data = copy.deepcopy(base_data(case.game))
    layout: dict = {}
    for _ in range(rng.choices((1, 2, 3), weights=(5, 3, 1))[0]):
        kind = rng.choices(("data", "layout", "symbol", "cheatsheet"), weights=(6, 3, 1, 1))[0]
        if kind == "data":
            name = rng.choice(DATA_FILES)
            case.steps.append(f"{name}: {mutate_tree(data[name], rng)}")
        elif kind == "layout":
            case.steps.append(f"layout.yaml: {mutate_layout(layout, rng)}")
        elif kind == "symbol":
            case.steps.append(mutate_symbols(folder, rng))
        else:
            sheet = data["game.yaml"].setdefault("reference", {}).setdefault("cheatsheet", {})
            if not isinstance(sheet, dict):
                continue
            case.steps.append(f"game.yaml cheatsheet: {mutate_cheatsheet(sheet, rng)}")
    for name, tree in data.items():
        (folder / name).write_text(_dump(tree), encoding="utf-8")
    if layout:
        (folder / "layout.yaml").write_text(_dump(layout), encoding="utf-8")


def mutate_tree(tree: Any, rng: random.Random) -> str:
    """One change at a random place of a YAML tree: a new value, a renamed key (a typo), a removed
    or repeated entry."""
    places = list(_places(tree, ()))
    if not places:
        return "nothing to change"
    parent, key, path = rng.choice(places)
    label = ".".join(str(p) for p in path)
    action = rng.choices(("value", "sibling", "typo", "remove", "repeat"), weights=(6, 2, 1, 1, 1))[0]
    if action == "value":
        parent[key] = copy.deepcopy(rng.choice(VALUES))
        return f"{label} = {parent[key]!r}"[:200]
    if action == "sibling":  # a value of the same file, so names and ids stay plausible
        other = rng.choice(places)
        parent[key] = copy.deepcopy(other[0][other[1]])
        return f"{label} = {parent[key]!r}"[:200]
    if action == "typo" and isinstance(parent, dict) and isinstance(key, str) and len(key) > 1:
        i = rng.randrange(len(key) - 1)
        typo = key[:i] + key[i + 1] + key[i] + key[i + 2:]
        parent[typo] = parent.pop(key)
        return f"{label} renamed {typo}"
    if action == "repeat" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
        return f"{label} repeated"
    del parent[key]
    return f"{label} removed"


def _places(tree: Any, path: tuple):
    """(parent, key, path) of every value below tree."""
    items = tree.items() if isinstance(tree, dict) else enumerate(tree) if isinstance(tree, list) else ()
    for key, value in list(items):
        yield tree, key, (*path, key)
        yield from _places(value, (*path, key))


def mutate_layout(layout: dict, rng: random.Random) -> str:
    """A layout.yaml setting: often a valid value at the edges of its range, sometimes not."""
    from cardgen.load.layout import is_font_role, range_of

    default = default_layout()
    section = rng.choice(list(default))
    key = rng.choice(list(default[section]))
    value = default[section][key]
    if rng.random() < 0.1:
        key = key[::-1]  # a typo
    elif section == "fonts":
        value = rng.choice(list(default["fonts"].values()) + ["Missing.ttf", "x.otf"])
    elif is_font_role(key):
        value = rng.choice(list(default["fonts"]) + ["comic"])
    elif key == "emblem":
        value = rng.choice(SYMBOL_NAMES + ("",))
    elif isinstance(value, (int, float)):
        low, high = range_of(section, key)
        # a designer's nudge as often as the edges of the range (which mostly put a box off the card)
        nudge = value * rng.choice((0.9, 1.1))
        value = rng.choice([nudge, nudge, nudge, low, high, (low + high) / 2, value * rng.choice((0.5, 1.5, 3)),
                            low - 1, high + 1])
    elif str(value).startswith("#"):
        value = rng.choice(["#000000", "#ffffff", "#f6b400", "red", "#fff"])
    layout.setdefault(section, {})[key] = value
    return f"{section}.{key} = {value!r}"


def mutate_symbols(folder: Path, rng: random.Random) -> str:
    name, svg = rng.choice(SYMBOL_NAMES), rng.choice(SVGS)
    (folder / "symbols").mkdir(exist_ok=True)
    (folder / "symbols" / f"{name}.svg").write_text(svg, encoding="utf-8")
    return f"symbols/{name}.svg = {svg[:60]!r}"


def mutate_cheatsheet(sheet: dict, rng: random.Random) -> str:
    key = rng.choice(("title", "subtitle", "goal", "card_heading", "card_group_by", "sections", "combos",
                      "copies_label", "players_note", "sectoins"))
    value = rng.choice([rng.choice(VALUES), [{"title": "Turn", "items": ["Draw.", "Play."] * rng.randint(1, 30)}],
                        {"title": "Combos", "rows": [{"cards": "2x", "name": "Pair", "effect": "Steal."}]},
                        "none", "text"])
    sheet[key] = copy.deepcopy(value)
    return f"{key} = {value!r}"[:200]


# --------------------------------------------------------------------------- check, then build


def run_cli(*args: str) -> tuple[int, str]:
    from cardgen import cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            code = cli.main(list(args))
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue()


def build_paths(folder: Path) -> None:
    """The build's rendering of the checked folder, short of WeasyPrint: raises what the build would."""
    from cardgen.layout import sheet as layout
    from cardgen.render import cards, documents
    from cardgen.render.documents import cheatsheet

    game, report = load_checked(str(folder))
    sheet = layout.make_sheet("a4", game.card_size)
    cards.render_sheets(game, [card for card in game.cards if card.printed] or list(game.cards), sheet)
    documents.render_html(game, "rulebook.html", documents.rulebook_context(game, report))
    documents.render_html(game, "checklists.html", documents.checklists_context(game, report))
    if game.cheatsheet is not None:
        documents.render_html(game, "cheatsheet.html", dict(
            cheatsheet.cheatsheet_context(game, report, game.cheatsheet, "a4"), pocket=False,
            pt=lambda size: f"{size}pt"))


def run_case(seed: int, work: Path, full_build: bool) -> tuple[str, str]:
    """('rejected' | 'built' | 'built fully', '') when the invariant holds, else
    ('FAILED', why)."""
    rng = random.Random(seed)
    case = Case(seed, rng.choice(GAMES))
    # the same path for every case of a game: the documents' template cache is kept by game folder
    folder = work / "case" / case.game.name
    shutil.rmtree(folder.parent, ignore_errors=True)
    shutil.copytree(case.game, folder)
    try:
        mutate_folder(folder, case, rng)
        code, out = run_cli("check", str(folder))
        if "Traceback" in out or code not in (0, 1):
            return "FAILED", f"{case}\ncheck exited {code}:\n{out}"
        if code == 1:
            return "rejected", ""
        try:
            build_paths(folder)
        except Exception:
            return "FAILED", f"{case}\ncheck passed, the build refused:\n{traceback.format_exc()}"
        if not full_build:
            return "built", ""
        code, out = run_cli("build", str(folder), "--out", str(folder.parent / "out"))
        if code != 0 or "Traceback" in out:
            return "FAILED", f"{case}\ncheck passed, `cardgen build` exited {code}:\n{out}"
        return "built fully", ""
    finally:
        shutil.rmtree(folder.parent, ignore_errors=True)


def run(cases: range, work: Path, full_every: int) -> tuple[dict[str, int], list[str]]:
    """The cases' outcomes; a full build on the first built case and every `full_every`th after."""
    tally: dict[str, int] = {}
    failures = []
    for seed in cases:
        built = tally.get("built", 0) + tally.get("built fully", 0)
        outcome, why = run_case(seed, work, full_build=full_every > 0 and built % full_every == 0)
        tally[outcome] = tally.get(outcome, 0) + 1
        if why:
            failures.append(why)
    return tally, failures


def main(argv=None) -> int:
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--first", type=int, default=0, help="the first case's seed")
    parser.add_argument("--full-every", type=int, default=10, help="a full `cardgen build` every Nth built case "
                        "(0: never)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        tally, failures = run(range(args.first, args.first + args.cases), Path(work), args.full_every)
    for failure in failures:
        print(failure, end="\n\n")
    print(", ".join(f"{n} {outcome}" for outcome, n in sorted(tally.items())))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())

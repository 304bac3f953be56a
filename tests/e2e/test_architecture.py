"""The stage packages keep their order: no import circle, no import from a lower stage to a
higher one (a module imported by its name, "cardgen.publish.run", counts as imported), no cardgen
import hidden inside a function, no module over 600 lines, no public name (a function, a class or
a type's alias) given to two things by two modules (docs/architecture.md)."""
from __future__ import annotations

import ast
import functools
import re
from fnmatch import fnmatch
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "cardgen"
# each stage may import the stages before it; the faces (cardgen's top-level modules) any stage
STAGES = ("errors", "model", "inputs", "layout", "load", "check", "simulate", "diff", "report", "render", "publish")
MAX_LINES = 600


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if path.name == "__init__.py" else parts)


def is_module(name: str) -> bool:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def absolute(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    """The module a `from … import` names, relative imports (`from .x import y`) made absolute."""
    if node.level == 0:
        return node.module or ""
    base = importer.split(".")
    base = base if is_package else base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def cardgen_imports(tree: ast.AST, importer: str = "", is_package: bool = False) -> list[tuple[ast.stmt, str]]:
    """(statement, imported module) for every import of a cardgen module, relative ones included."""
    found: list[tuple[ast.stmt, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and absolute(node, importer, is_package).startswith("cardgen"):
            module = absolute(node, importer, is_package)
            submodules = [f"{module}.{alias.name}" for alias in node.names if is_module(f"{module}.{alias.name}")]
            found += [(node, name) for name in submodules or [module]]
        elif isinstance(node, ast.Import):
            found += [(node, alias.name) for alias in node.names if alias.name.startswith("cardgen")]
    return found


_BY_NAME = re.compile(r"cardgen(?:\.\w+)+(?::\w+)?")  # a module named as data: "cardgen.publish.run[:built]"


def named_modules(tree: ast.AST) -> set[str]:
    """The cardgen modules a module names in a string, to import them when it needs them."""
    return {name for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and _BY_NAME.fullmatch(node.value) and is_module(name := node.value.split(":")[0])}


def stage(module: str) -> int | None:
    """The stage's place in STAGES; None for the faces (cli, serve, terminal, scaffold)."""
    if module == "cardgen":
        return 0  # the package itself holds only its version
    parts = module.split(".")
    name = parts[1] if len(parts) > 1 else ""
    return STAGES.index(name) if name in STAGES else None


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


@functools.cache
def imports_of(name: str) -> list[tuple[ast.stmt, str]]:
    """A module's cardgen imports, parsed when a test first asks (not while every worker collects)."""
    return cardgen_imports(ast.parse(MODULES[name].read_text(encoding="utf-8")), name, MODULES[name].name == "__init__.py")


@functools.cache
def graph() -> dict[str, set[str]]:
    """Each module's cardgen imports, those by name included."""
    return {name: {target for _, target in imports_of(name)}
            | named_modules(ast.parse(MODULES[name].read_text(encoding="utf-8"))) for name in MODULES}


STAGE_MODULES = sorted(name for name in MODULES if stage(name) is not None)  # the faces may call any stage


def test_the_stages_exist_with_their_modules():
    assert {stage(name) for name in MODULES} >= set(range(len(STAGES)))


@pytest.mark.parametrize("module", STAGE_MODULES)
def test_a_module_imports_only_its_own_stage_and_those_before_it(module):
    own = stage(module)
    assert own is not None
    upward = sorted(target for target in graph()[module] if stage(target) is None or stage(target) > own)
    assert not upward, f"{module} ({STAGES[own]}) imports from a later stage: {upward}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_cardgen_import_hides_inside_a_function(module):
    hidden = [(node.lineno, target) for node, target in imports_of(module) if node.col_offset > 0]
    assert not hidden, f"{module} imports inside a block: {hidden}"


def test_the_import_graph_has_no_circle():
    state: dict[str, str] = {}
    edges = graph()

    def visit(module: str, path: list[str]) -> None:
        state[module] = "open"
        for target in sorted(edges.get(module, ())):
            if target == module or target not in edges:
                continue
            if state.get(target) == "open":
                circle = path[path.index(target):] + [target]
                raise AssertionError("import circle: " + " -> ".join(circle))
            if target not in state:
                visit(target, path + [target])
        state[module] = "done"

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_is_over_600_lines(module):
    lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{module} has {lines} lines"


def test_the_checker_catches_what_it_looks_for(tmp_path):
    """The graph rules above see real violations (so they cannot pass by looking at nothing)."""
    tree = ast.parse("def f():\n    from cardgen.publish import cache\nfrom cardgen.render import write\n")
    imports = cardgen_imports(tree)
    assert sorted((node.col_offset > 0, target) for node, target in imports) == [
        (False, "cardgen.render.write"), (True, "cardgen.publish.cache")]
    assert stage("cardgen.publish.cache") > stage("cardgen.model.game")
    assert stage("cardgen.cli") is None
    relative = ast.parse("from ..render import write\nfrom . import cache\ndef f():\n    from .plan import x\n")
    assert sorted(target for _, target in cardgen_imports(relative, "cardgen.publish.folder")) == [
        "cardgen.publish.cache", "cardgen.publish.plan", "cardgen.render.write"]
    assert [target for _, target in cardgen_imports(relative, "cardgen.publish", is_package=True)][0] == "cardgen.render.write"
    by_name = ast.parse('"""Names cardgen.publish.cache in prose."""\nRUN = "cardgen.publish.run"\n'
                        'SHARED = "cardgen.render.write:atomic_write"\nPOT = "cardgen.pot"\n')
    assert named_modules(by_name) == {"cardgen.publish.run", "cardgen.render.write"}


def test_every_folder_of_tests_is_collected(pytestconfig):
    """pytest passes over folders matching norecursedirs (its default list names "build"): a
    stage's tests in such a folder would silently never run."""
    skipped = pytestconfig.getini("norecursedirs")
    tests = PACKAGE.parent / "tests"
    folders = [path for path in tests.rglob("*") if path.is_dir() and "__pycache__" not in path.parts]
    assert [f.name for f in folders if any(fnmatch(f.name, pattern) for pattern in skipped)] == []
    assert {"check", "layout", "load", "publish", "render", "simulate"} <= {f.name for f in folders}


# Names every module of a kind defines alike, for one role: each command's parser and run, each
# library patch's install.
ROLES = {"add_arguments": "cardgen.commands.", "run": "cardgen.commands.", "install": "cardgen.render.documents."}


_TYPE_NAME = re.compile(r"[A-Z][a-z0-9]+\w*")  # Step, CountSpec: not a constant (MAX_LINES), not a TypeVar's T


def public_definitions(sources: dict[str, str]) -> dict[str, list[str]]:
    """Each public top-level function, class or type alias name, with the modules that define it."""
    defined: dict[str, list[str]] = {}
    for module, source in sources.items():
        for node in ast.parse(source).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                defined.setdefault(node.name, []).append(module)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
            for target in targets:
                if isinstance(target, ast.Name) and _TYPE_NAME.fullmatch(target.id):
                    defined.setdefault(target.id, []).append(module)
    return defined


def names_of_two_things(sources: dict[str, str]) -> dict[str, list[str]]:
    """The public names two modules define, but for the roles modules of a kind share."""
    return {name: modules for name, modules in public_definitions(sources).items()
            if len(modules) > 1 and not all(m.startswith(ROLES.get(name, "\0")) for m in modules)}


def test_no_two_modules_give_one_public_name_to_two_things():
    assert names_of_two_things({name: path.read_text(encoding="utf-8") for name, path in MODULES.items()}) == {}


def test_the_name_check_finds_a_name_two_modules_define():
    sources = {"cardgen.model.a": "def parse(text): ...\nStep = tuple[str, int]\nMAX = 1\nT = TypeVar('T')\n",
               "cardgen.load.b": "class parse: ...\ndef _own(): ...\nclass Step: ...\nMAX = 2\nT = TypeVar('T')\n",
               "cardgen.commands.x": "def run(args): ...\n", "cardgen.commands.y": "def run(args): ...\n",
               "cardgen.render.z": "def run(): ...\n"}
    assert names_of_two_things(sources) == {"parse": ["cardgen.model.a", "cardgen.load.b"],
                                            "Step": ["cardgen.model.a", "cardgen.load.b"],
                                            "run": ["cardgen.commands.x", "cardgen.commands.y", "cardgen.render.z"]}

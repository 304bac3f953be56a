"""Load composes each game file with libyaml's composer when it can (load/yaml_nodes.compose) and
checks the nodes after, else with its own SafeComposer, which checks each node before making it.
Either way the answer is SafeComposer's: the same nodes, tags, styles and marks (so every finding
keeps its file:line:column), or the same error at the same place."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import ROOT

from cardgen.load import yaml_nodes
from cardgen.load.yaml_nodes import MAX_DEPTH, SafeComposer, compose

FILES = sorted({*ROOT.glob("card_data/**/*.yaml"), *ROOT.glob("art/**/*.yaml"), *ROOT.glob("tests/data/**/*.yaml")})


def answer(text: str) -> object:
    """SafeComposer's nodes as plain data (marks included), or its error."""
    try:
        return plain(yaml.compose(text, Loader=SafeComposer))
    except (yaml.YAMLError, RecursionError) as exc:
        return type(exc), str(exc)


def fast(text: str) -> object:
    try:
        return plain(compose(text))
    except (yaml.YAMLError, RecursionError) as exc:
        return type(exc), str(exc)


def plain(node: yaml.Node | None) -> object:
    if node is None:
        return None
    marks = tuple((mark.line, mark.column, mark.index, type(mark).__name__) for mark in (node.start_mark, node.end_mark))
    head = (type(node).__name__, node.tag, getattr(node, "style", None), getattr(node, "flow_style", None), marks)
    if isinstance(node, yaml.ScalarNode):
        return head, node.value
    if isinstance(node, yaml.MappingNode):
        return head, [(plain(key), plain(value)) for key, value in node.value]
    return head, [plain(item) for item in node.value]


def test_libyaml_composes_the_shipped_files():
    """The fast way is taken: libyaml is there and the shipped files pass the checks after."""
    assert yaml.__with_libyaml__
    shipped = [path for path in FILES if "card_data" in path.parts]
    assert len(shipped) > 10
    for path in shipped:
        text = path.read_text(encoding="utf-8")
        if "&" not in text:
            assert yaml_nodes._passes(yaml.compose(text, Loader=yaml_nodes._Composed), "\\" in text), path


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_a_file_is_composed_as_safecomposer_composes_it(path: Path):
    text = path.read_text(encoding="utf-8")
    assert fast(text) == answer(text)


DEEP = "".join(f"{'  ' * depth}k{depth}:\n" for depth in range(MAX_DEPTH + 2)) + f"{'  ' * (MAX_DEPTH + 2)}v: 1\n"


@pytest.mark.parametrize("text", [
    "a: &x 1\nb: *x\n",  # an anchor and its alias
    "a: &x 1\n",  # an anchor alone: nothing in the nodes shows it
    "a: *y\n",  # an alias of nothing
    "a: [1, *y]\n",
    "a: !foo 12\n",  # a tag of its own
    "a: !!python/object:os.system 12\n",
    "a: ! 12\nb: !!str 13\n",  # standard tags: fine
    'a: "\\x01"\n',  # an escape that makes an unusable character
    'a: "\\e[31m"\nb: "\\ud800"\n',
    'a: "tab\\there"\n',  # an escape that makes a usable one
    "a: b\x01c\n",  # an unusable character typed
    "- a\n---\n- b\n",  # two documents
    "a: [1, 2\n",  # a syntax error
    "a: b\n  c: d\n",
    "",
    "# only a comment\n",
    "{a: [1, {b: c}], d: {e: f}}\n",
    "a: ~\nb:\nc: null\n'd': \"e\"\nf: |\n  g\n  h\n",
    DEEP,  # nested past SafeComposer's limit
    "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n",
    "x: 'it\\'s'\ny: 'Cats & Dogs'\n",  # an ampersand in a value: SafeComposer composes it
], ids=lambda text: repr(text[:30]))
def test_broken_and_odd_yaml_is_answered_as_safecomposer_answers_it(text):
    assert fast(text) == answer(text)


def test_too_many_values_are_refused_as_safecomposer_refuses_them(monkeypatch):
    yaml_nodes._compose_kept.cache_clear()  # a tree kept under the real limit would be given again
    monkeypatch.setattr(yaml_nodes, "MAX_NODES", 50)
    text = "".join(f"- {number}\n" for number in range(60))
    refused = answer(text)
    assert isinstance(refused, tuple) and "more than 50 values" in refused[1]
    assert fast(text) == refused


def test_a_short_text_composed_again_is_the_same_tree_and_an_edited_one_a_new_tree():
    """Load reads the shipped faces every time, serve the files that did not change: a short text's
    tree is kept. A long one is not (the memory it would hold), and an error is raised every time."""
    text = "name: Tiny\ncards: [a, b]\n"
    first = compose(text)
    assert compose(text) is first
    edited = compose(text.replace("b]", "c]"))
    assert plain(edited) != plain(first) and plain(compose(text)) == plain(first)
    long = "x: " + "y" * yaml_nodes.KEPT_TEXT_CHARACTERS + "\n"
    assert compose(long) is not compose(long)
    for _ in range(2):
        with pytest.raises(yaml.YAMLError):
            compose("a: [1, 2\n")

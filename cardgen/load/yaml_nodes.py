"""load/yaml_nodes: YAML text to nodes, safely: libyaml's parser under a composer that refuses tags,\nanchors and aliases, counts nodes and depth, and refuses characters no output can show."""
from __future__ import annotations

import functools
from typing import IO

import yaml

from cardgen.model.texts import UNUSABLE_CHARACTER, unusable_character

MAX_FILE_BYTES = 2_000_000


MAX_DEPTH = 40
TOO_DEEP = f"nested more than {MAX_DEPTH} levels deep"
LIBYAML_TOO_DEEP = "exceeded maximum nesting depth"


MAX_NODES = 200_000


STR_TAG = "tag:yaml.org,2002:str"


NULL_TAG = "tag:yaml.org,2002:null"


STANDARD_TAG_PREFIX = "tag:yaml.org,2002:"


if yaml.__with_libyaml__:
    class _Events(yaml.cyaml.CParser):  # type: ignore[name-defined,misc]  # PyYAML's stubs leave out libyaml's parser
        """libyaml's scanner and parser: the events of a document, several times faster than PyYAML's own."""
else:
    class _Events(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):  # type: ignore[no-redef]
        """PyYAML's pure-Python scanner and parser, where libyaml is not installed."""

        def __init__(self, stream: str | bytes | IO[str] | IO[bytes]) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)


class SafeComposer(yaml.composer.Composer, _Events, yaml.resolver.Resolver):
    """Composes nodes (never objects) from the parser's events; refuses anchors, aliases, unknown
    tags, deep nesting and too many values before composing them. The composer is PyYAML's own
    (in Python) so that each of these checks runs before the node it guards is built."""

    def __init__(self, stream: str | bytes | IO[str] | IO[bytes]) -> None:
        _Events.__init__(self, stream)  # type: ignore[call-arg]  # (the stubs do not know libyaml's parser)
        yaml.composer.Composer.__init__(self)
        yaml.resolver.Resolver.__init__(self)
        self._depth = self._nodes = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:  # noqa: D102 - PyYAML hook
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise yaml.composer.ComposerError(
                None, None, "anchors and aliases (*name) are not supported in game data",
                event.start_mark,  # type: ignore[arg-type]  # libyaml's marks are PyYAML's Mark but for the name
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
            raise UnusableCharacter(None, None, unusable_character(event.value),
                                    event.start_mark)  # type: ignore[arg-type]  # (as above)
        self._depth += 1
        self._nodes += 1
        if self._depth > MAX_DEPTH:
            raise yaml.composer.ComposerError(
                None, None, TOO_DEEP, event.start_mark
            )
        if self._nodes > MAX_NODES:
            raise yaml.composer.ComposerError(
                None, None, f"more than {MAX_NODES} values in one file", event.start_mark
            )
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class UnusableCharacter(yaml.composer.ComposerError):
    """A value with a control character or a lone surrogate."""


if yaml.__with_libyaml__:
    class _Composed(yaml.cyaml.CParser, yaml.resolver.Resolver):  # type: ignore[name-defined,misc]  # (as above)
        """libyaml's parser and composer: the same nodes, marks and tags as SafeComposer's, several
        times faster, but with none of its checks: `compose` makes them on the nodes after."""

        def __init__(self, stream: str) -> None:
            yaml.cyaml.CParser.__init__(self, stream)  # type: ignore[attr-defined]  # (as above)
            yaml.resolver.Resolver.__init__(self)


# The trees of the last texts composed, up to this size each, are kept and given again: a load reads
# the shipped faces every time, serve and playtest read the files that did not change again. The
# nodes are shared: they are read, never changed.
KEPT_TEXTS, KEPT_TEXT_CHARACTERS = 16, 64 * 1024


def compose(text: str) -> yaml.Node | None:
    """A file's node tree (see _compose), the same tree again for the same short text."""
    return _compose_kept(text) if len(text) <= KEPT_TEXT_CHARACTERS else _compose(text)


@functools.lru_cache(maxsize=KEPT_TEXTS)
def _compose_kept(text: str) -> yaml.Node | None:
    return _compose(text)


def _compose(text: str) -> yaml.Node | None:
    """A file's node tree, as SafeComposer composes it, or its error. Composed by libyaml when
    the text holds no anchor (no '&') and no unusable character, and the nodes pass every check
    SafeComposer makes (no node twice: an alias; standard tags only; no unusable character that
    an escape made; the depth and the number of nodes): else, or on any error, SafeComposer
    composes it again, and its nodes or its error (at its place) are the answer."""
    if yaml.__with_libyaml__ and "&" not in text and not UNUSABLE_CHARACTER.search(text):
        try:
            node = yaml.compose(text, Loader=_Composed)
        except Exception:  # noqa: BLE001 - SafeComposer finds it too, and says it its way
            node = None
        else:
            if node is None or _passes(node, escapes="\\" in text):
                return node
    return yaml.compose(text, Loader=SafeComposer)


def _passes(root: yaml.Node, escapes: bool) -> bool:
    """Whether libyaml's nodes pass SafeComposer's checks (see compose), level by level. No node
    can be there twice: an alias needs an anchor, and a text with one is SafeComposer's."""
    level, depth, count = [root], 1, 0
    while level:
        count += len(level)
        if depth > MAX_DEPTH or count > MAX_NODES:
            return False
        below: list[yaml.Node] = []
        for node in level:
            if not node.tag.startswith(STANDARD_TAG_PREFIX):
                return False
            value = node.value
            if isinstance(value, str):
                if escapes and UNUSABLE_CHARACTER.search(value):
                    return False
            elif isinstance(node, yaml.MappingNode):
                for key, item in value:
                    below += (key, item)
            else:
                below += value
        level, depth = below, depth + 1
    return True


def is_null(node: yaml.Node | None) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag == NULL_TAG and not node.style  # plain: None, or "" from libyaml


def node_kind(node: yaml.Node | None) -> str:
    if node is None:
        return "nothing"
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    return f"'{node.value}'" if node.value else "an empty value"


def top_value(document: yaml.Node | None, key: str) -> yaml.Node | None:
    """A key's value in a file's top mapping, read ahead of the rest of the file (None: not there)."""
    if not isinstance(document, yaml.MappingNode):
        return None
    return next((value for name, value in document.value if isinstance(name, yaml.ScalarNode) and name.value == key),
                None)

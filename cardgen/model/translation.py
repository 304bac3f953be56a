"""translation: a game's texts in another language, as load reads them from i18n/<lang>.yaml and
rules.<lang>.md, keyed by the source game's ids; model.translate makes the game in that language."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from cardgen.model.where import Passage, Where
from cardgen.model.words import Words


@dataclass(frozen=True)
class Translated:
    text: str
    place: Passage  # where it is typed in the translation file


@dataclass(frozen=True)
class Translation:
    language: str
    file: str  # the translation file as messages name it (i18n/de.yaml)
    words: Words = field(default_factory=Words)
    # by key: "title", "cards/<card id>/text", "setups/<setup id>/extra_rules/0", "setup_steps/2", ...
    texts: Mapping[str, Translated] = field(default_factory=dict)
    rules_markdown: str = ""  # "": the game has no rules.<lang>.md and its rulebook uses the source's
    rules_file: str = ""


@dataclass(frozen=True)
class Untranslated:
    """A source text the translation does not give."""

    key: str  # as the translation would give it: "cards/nope/text"
    what: str  # "card 'Nope': text"
    text: str  # the source's
    where: Where | None  # the source text's place

"""words: the words cardgen writes itself (headings, labels, counts, the cheat sheet's captions) in
the language of the output being made, from a gettext catalog (inputs.catalogs reads it).

The renderers call `gettext`/`ngettext` (the templates `_`/`ngettext`, installed by
render.documents.html) and the figures go through `decimal`/`join`, which format them for the
language's locale. Which language speaks is set around the making of one output with
`speaking(game.words)`: a build of several languages renders each in its own worker under its
own words, and code that sets none speaks English."""
from __future__ import annotations

import gettext as gnu
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache

from cardgen.model.where import Where

SOURCE_LANGUAGE = "en"  # the language of cardgen's own messages (the catalogs' msgids)


@dataclass(frozen=True)
class Words:
    language: str = SOURCE_LANGUAGE
    catalog: gnu.NullTranslations = field(default_factory=gnu.NullTranslations, compare=False)
    # each translation the catalogs give, where it is written: printed like the game's texts, so
    # checked like them (check.languages)
    printed: tuple[tuple[str, Where], ...] = field(default=(), compare=False, repr=False)

    def gettext(self, message: str) -> str:
        return self.catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalog.ngettext(singular, plural, n)


ENGLISH = Words()
_speaking: ContextVar[Words] = ContextVar("words", default=ENGLISH)


@contextmanager
def speaking(words: Words) -> Iterator[None]:
    """Everything made inside speaks `words`' language."""
    token = _speaking.set(words)
    try:
        yield
    finally:
        _speaking.reset(token)


def gettext(message: str) -> str:
    """A message of cardgen's own in the language speaking."""
    return _speaking.get().gettext(message)


def ngettext(singular: str, plural: str, n: float) -> str:
    """The message's form for n in the language speaking (its own plural rule: French says
    '0 joueur', English '0 players'); a fraction counts as the whole number it rounds to."""
    return _speaking.get().ngettext(singular, plural, round(n))


def marked(message: str) -> str:
    """A message for the catalogs, said in English here and translated where it is shown (a
    default pile's name is made once, at load, and read in every language)."""
    return message


def decimal(figure: str) -> str:
    """A figure written with a decimal point ('2.5', '~7.5') in the language's way ('2,5')."""
    from babel.numbers import get_decimal_symbol  # Babel when a figure is written: the model imports without it

    return figure.replace(".", get_decimal_symbol(_locale())) if "." in figure else figure


def join(items: Sequence[str]) -> str:
    """'a, b and c' in the language's way ('a, b und c')."""
    from babel.lists import format_list

    return format_list(list(items), locale=_locale()) if items else ""


def lower_first(noun: str) -> str:
    """A label's noun inside a sentence: 'deck' of 'Deck', except in a language that writes every
    noun capitalised (German)."""
    return noun if _locale().split("_")[0] in CAPITALISED_NOUNS else noun[:1].lower() + noun[1:]


CAPITALISED_NOUNS = ("de", "lb")


def is_one(n: float) -> bool:
    """Whether the language says n things with the singular (English 1; French 0 and 1)."""
    return _plural_form(_locale(), round(n)) == "one"


def percent(share: float) -> str:
    """A share as a whole percentage, written the language's way: '24%', '24 %'."""
    if _speaking.get().language == SOURCE_LANGUAGE:
        return f"{share:.0%}"  # as the English documents always said it
    from babel.numbers import format_percent

    return format_percent(share, locale=_locale())


def locale_words(words: Words) -> str:
    """What the language's locale itself prints, beside the catalog: its list words and signs
    ('1, 2 und 3', '2,5', '24 %')."""
    with speaking(words):
        return " ".join((join(["1", "2"]), join(["1", "2", "3"]), decimal("2.5"), percent(0.24)))


def _locale() -> str:
    return _speaking.get().language.replace("-", "_")


@lru_cache(maxsize=64)
def _plural_form(locale: str, n: int) -> str:
    from babel.core import Locale

    return str(Locale.parse(locale).plural_form(n))

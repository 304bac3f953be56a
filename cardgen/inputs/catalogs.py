"""catalogs: the gettext catalogs of cardgen's own words. cardgen ships cardgen/locale/<lang>.po;
a game may add i18n/<lang>.po, for a language cardgen does not ship or for other words in this
game, and its messages win. Read with Babel and compiled in memory: nothing is written.

A game's catalog is untrusted: it is read through inputs.files, as UTF-8 text; its header is
checked, never applied (the catalog keeps the language's own plural rule); and each translation
must fill in as its message does and hold only characters that print.

Babel is imported where a catalog or a locale is used: a game in English alone never needs it."""
from __future__ import annotations

import gettext
import io
import re
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, cast

from cardgen.inputs.files import UnreadableInput, read_input
from cardgen.inputs.paths import LOCALE, display_path
from cardgen.model.game import ERROR, WARNING, Finding
from cardgen.model.texts import UNUSABLE_CHARACTER, unusable_character
from cardgen.model.where import Where
from cardgen.model.words import SOURCE_LANGUAGE, Words, locale_words

if TYPE_CHECKING:
    from babel.core import Locale
    from babel.messages.catalog import Catalog, Message

    class FileCatalog(Catalog):  # what _file_catalog makes
        headers: list[Message]

MAX_CATALOG_BYTES = 1_000_000
POT = LOCALE / "cardgen.pot"  # every message, for a new language's catalog
# a language tag as Babel writes it, with hyphens: en, pt-BR, zh-Hant-TW, ca-ES-VALENCIA
_LANGUAGE_TAG = re.compile(r"[A-Za-z0-9]{1,8}(?:-[A-Za-z0-9]{1,8}){0,3}")
MAX_PLURAL_FORMS = 6  # the most any language has (Arabic, Welsh)
_UTF8 = ("utf-8", "utf8", "us-ascii", "ascii", "charset")  # "charset": the placeholder of gettext's templates


def canonical_language(code: str) -> str | None:
    """The tag Babel (the CLDR) knows `code` as, written with hyphens ('pt-BR' for pt_br); None
    for a code it does not know. A game's language is used only as this tag: it names files and
    the output folder of the language, so 'de./../x', which Babel reads as de, must not pass."""
    from babel.core import Locale, UnknownLocaleError

    if not _LANGUAGE_TAG.fullmatch(code):
        return None
    try:
        locale = Locale.parse(code.replace("-", "_"))
    except (UnknownLocaleError, ValueError, TypeError):
        return None
    return "-".join(part for part in (locale.language, locale.script, locale.territory, locale.variant) if part)


def language_name(code: str) -> str:
    """'German' for de: how messages name a language."""
    from babel.core import Locale

    return str(Locale.parse(code.replace("-", "_")).get_display_name(SOURCE_LANGUAGE))


def load_words(language: str, game_folder: Path, listed: Where | None = None) -> tuple[Words, list[Finding]]:
    """The words of `language` (a canonical tag, `listed` there in game.yaml): the shipped catalog
    with the game's own over it. A language with neither speaks English, with a warning."""
    if language == SOURCE_LANGUAGE:
        return Words(), []
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    catalog = Catalog(locale=language.replace("-", "_"))
    findings: list[Finding] = []
    printed: dict[object, tuple[str, Where]] = {}
    sources = [LOCALE / f"{language}.po", game_folder / "i18n" / f"{language}.po"]
    found = [path for path in sources if path.is_file()]
    for path in found:
        findings += _merge(catalog, path, game_folder, printed)
    if not found:
        findings.append(Finding(WARNING, "no-catalog", f"no catalog of cardgen's own words for '{language}': the "
                                f"{language} documents say them in English", Where(display_path(sources[1], game_folder)),
                                f"copy {display_path(POT, game_folder)} to i18n/{language}.po in the game folder and "
                                "translate its messages (docs/translate.md)"))
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    words = Words(language, gettext.GNUTranslations(buffer))
    if listed is not None:  # what the locale itself prints, where the language is chosen
        printed[None] = (locale_words(words), listed)
    return replace(words, printed=tuple(printed.values())), findings


def _merge(catalog: Catalog, path: Path, game_folder: Path, printed: dict[object, tuple[str, Where]]) -> list[Finding]:
    """The messages of one catalog file into `catalog` (and their translations into `printed`, by
    message); the findings on the file."""
    from babel.messages.pofile import PoFileError, PoFileParser

    file = display_path(path, game_folder)
    try:
        text = _text(read_input(path, MAX_CATALOG_BYTES, [game_folder, LOCALE]), path.name)
        lines = text.split("\n")
        _keywords(lines, path.name)
        read = _file_catalog()(catalog.locale)
        PoFileParser(read, abort_invalid=True).parse(lines)
    except UnreadableInput as exc:
        return [Finding(ERROR, "file-unreadable", f"{path.name} {exc}", Where(file))]
    except _BadLine as exc:
        return [Finding(ERROR, exc.code, str(exc), Where(file, exc.line, exc.column), exc.hint)]
    except PoFileError as exc:  # Babel counts lines from 0 and says so in its message ("... on 3")
        said = str(exc).removesuffix(f" on {exc.lineno}")
        return [Finding(ERROR, "bad-catalog", f"{path.name} is not a gettext catalog: {said}",
                        Where(file, exc.lineno + 1, 1), "fix the line named (a .po file of msgid/msgstr pairs, see "
                        "docs/translate.md)")]
    findings = [problem for header in read.headers for problem in _header_problems(header, lines, path.name, file)]
    for message in read:
        forms = [str(form or "") for form in message.string] if isinstance(message.string, tuple) else []
        source = str(message.id[0] if isinstance(message.id, (tuple, list)) else message.id)
        if not source or message.fuzzy or not (any(forms) if forms else message.string):
            continue  # a fuzzy translation is one a translator has yet to confirm: gettext skips it too
        where = Where(file, message.lineno or 0, 1)
        problem = _translation_problem(source, forms or [str(message.string)], path.name, where)
        if problem is not None:
            findings.append(problem)
            continue
        if forms:  # a form the file lacks (a catalog made for another plural rule): its last given one
            given = [form for form in forms if form]
            message.string = tuple(forms[i] if i < len(forms) and forms[i] else given[-1]
                                   for i in range(catalog.num_plurals))
        if message.id in catalog:  # Babel would keep the first one's translation
            del catalog[message.id]
        catalog[message.id] = message
        printed[source] = (" ".join(forms) if forms else str(message.string), where)
    return findings


class _BadLine(ValueError):
    def __init__(self, code: str, message: str, line: int, column: int = 1, hint: str = ""):
        super().__init__(message)
        self.code, self.line, self.column, self.hint = code, line, column, hint


def _text(data: bytes, name: str) -> str:
    """A catalog's text: UTF-8 (a byte-order mark allowed), whatever its header says."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
        raise _BadLine("file-encoding", f"{name} is not UTF-8 text: byte 0x{data[exc.start]:02x} ({exc.reason})",
                       data.count(b"\n", 0, exc.start) + 1, exc.start - start + 1,
                       "save it as UTF-8 (and say charset=UTF-8 in its header)") from None


_PLURAL_KEYWORD = re.compile(r"msgstr\[\d\]")


def _keywords(lines: list[str], name: str) -> None:
    """Babel reads a plural form's number with int(), a traceback for msgstr[x]: each is checked here."""
    for number, line in enumerate(lines, 1):
        keyword = line.strip().removeprefix("#~").lstrip().partition(" ")[0]
        if keyword.startswith("msgstr[") and not _PLURAL_KEYWORD.fullmatch(keyword):
            raise _BadLine("bad-catalog", f"{name}: '{keyword[:20]}' is no plural form (msgstr[0] to "
                           f"msgstr[{MAX_PLURAL_FORMS - 1}])", number, 1,
                           "write msgstr[N] \"...\", N the form's number from 0")


@cache
def _file_catalog() -> type[FileCatalog]:
    """A catalog file as Babel reads it, its header (the message of msgid "") kept aside in
    `headers` instead of applied: a header's nplurals is the length of every plural message Babel
    makes (10^9 takes all memory, 'two' is a traceback), and cardgen's catalog keeps the
    language's own rule anyway. (A class made when first asked for: it is Babel's Catalog's.)"""
    from babel.messages.catalog import Catalog

    class Read(Catalog):
        def __init__(self, locale: Locale | str | None):
            super().__init__(locale=locale)
            self.headers: list[Message] = []

        def __setitem__(self, id: str | tuple[str, ...] | list[str], message: Message) -> None:  # noqa: A002 - Babel's name
            if id == "":
                self.headers.append(message)
            else:
                super().__setitem__(id, message)

    return cast("type[FileCatalog]", Read)


_NPLURALS = re.compile(r"nplurals\s*=\s*([^;\s]*)", re.IGNORECASE)
_CHARSET = re.compile(r"charset\s*=\s*([^;\s]*)", re.IGNORECASE)


def _header_problems(header: Message, lines: list[str], name: str, file: str) -> list[Finding]:
    """The header's fields cardgen would misread: a number of plural forms that is none, a charset
    other than UTF-8."""
    text, findings = str(header.string), []
    nplurals, charset = _NPLURALS.search(text), _CHARSET.search(text)
    if nplurals and nplurals[1] not in [str(n) for n in range(1, MAX_PLURAL_FORMS + 1)]:
        findings.append(Finding(ERROR, "bad-catalog", f"{name}: the header's nplurals={nplurals[1][:20]} is not a number "
                                f"of plural forms (1 to {MAX_PLURAL_FORMS})", _header_line(header, lines, "nplurals", file),
                                "write the language's Plural-Forms (cardgen/locale/*.po have them), or leave it out"))
    if charset and charset[1].lower() not in _UTF8:
        findings.append(Finding(ERROR, "bad-catalog", f"{name}: the header says charset={charset[1][:20]}, but cardgen "
                                "reads catalogs as UTF-8", _header_line(header, lines, "charset", file),
                                "save the file as UTF-8 and write charset=UTF-8 in its header"))
    return findings


def _header_line(header: Message, lines: list[str], field: str, file: str) -> Where:
    """The line of the header's field (the header's own line if it cannot be told)."""
    start = header.lineno or 1
    found = next((i for i in range(start, len(lines) + 1) if field in lines[i - 1].lower()), start)
    return Where(file, found, 1)


def _translation_problem(message: str, forms: list[str], name: str, where: Where) -> Finding | None:
    """A translation that cannot be printed where the message is: a placeholder it invented, a lone
    %, a character that does not print."""
    for form in forms:
        if form and UNUSABLE_CHARACTER.search(form):
            return Finding(ERROR, "bad-catalog-message", f"{name}: the translation of {message[:60]!r}: "
                           f"{unusable_character(form)}", where, "remove the character (or its escape, \\a \\b \\f \\v)")
        if form and not _formats_like(message, form):
            return Finding(ERROR, "bad-catalog-message", f"{name}: the translation {form[:200]!r} of {message[:200]!r} "
                           "has a placeholder the message does not have, or a lone %", where,
                           "use only the message's %(name)s placeholders, and %% for a percent sign where the message "
                           "has them")
    return None


_PLACEHOLDER = re.compile(r"%\((\w+)\)")
_FILLED = re.compile(r"%(?:%|\((\w+)\)s)")  # what a translation may hold: %% and %(name)s, nothing wider


def _formats_like(message: str, translation: str) -> bool:
    """Whether a translation can be filled in wherever the message is (the templates fill every
    message in, Python the ones with placeholders): a game's catalog must not make a document
    fail with a placeholder it invented or a lone %, nor ask for a field a billion wide."""
    names = set(_PLACEHOLDER.findall(message))
    if not _fills(message, names):
        return not _PLACEHOLDER.search(translation)  # never filled in: only no new placeholders
    return _fills(translation, names)


def _fills(text: str, names: set[str]) -> bool:
    """Whether every % of text is a %% or one of the %(name)s placeholders: `text % values` cannot fail."""
    return "%" not in _FILLED.sub(lambda m: "" if m[1] is None or m[1] in names else "%", text)

"""catalogs: the gettext catalogs of cardgen's own words. cardgen ships cardgen/locale/<lang>.po;
a game may add i18n/<lang>.po, for a language cardgen does not ship or for other words in this
game, and its messages win. Read with Babel and compiled in memory: nothing is written."""
from __future__ import annotations

import gettext
import io
import re
from pathlib import Path

from babel.core import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po

from cardgen.inputs.files import UnreadableInput, read_input
from cardgen.inputs.paths import LOCALE, display_path
from cardgen.model.game import ERROR, WARNING, Finding
from cardgen.model.where import Where
from cardgen.model.words import SOURCE_LANGUAGE, Words

MAX_CATALOG_BYTES = 1_000_000
POT = LOCALE / "cardgen.pot"  # every message, for a new language's catalog


def known_language(code: str) -> bool:
    """Whether Babel knows the locale (its plural rule, number and list formats)."""
    try:
        Locale.parse(code.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return False
    return True


def language_name(code: str) -> str:
    """'German' for de: how messages name a language."""
    return str(Locale.parse(code.replace("-", "_")).get_display_name(SOURCE_LANGUAGE))


def load_words(language: str, game_folder: Path) -> tuple[Words, list[Finding]]:
    """The words of `language`: the shipped catalog with the game's own over it. A language with
    neither speaks English, with a warning."""
    if language == SOURCE_LANGUAGE:
        return Words(), []
    catalog = Catalog(locale=language.replace("-", "_"))
    findings: list[Finding] = []
    sources = [LOCALE / f"{language}.po", game_folder / "i18n" / f"{language}.po"]
    found = [path for path in sources if path.is_file()]
    for path in found:
        findings += _merge(catalog, path, game_folder)
    if not found:
        findings.append(Finding(WARNING, "no-catalog", f"no catalog of cardgen's own words for '{language}': the "
                                f"{language} documents say them in English", Where(display_path(sources[1], game_folder)),
                                f"copy {display_path(POT, game_folder)} to i18n/{language}.po in the game folder and "
                                "translate its messages (docs/translate.md)"))
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Words(language, gettext.GNUTranslations(buffer)), findings


def _merge(catalog: Catalog, path: Path, game_folder: Path) -> list[Finding]:
    where = Where(display_path(path, game_folder))
    try:
        text = read_input(path, MAX_CATALOG_BYTES, [game_folder, LOCALE])
        read = read_po(io.BytesIO(text), locale=catalog.locale, abort_invalid=True)
    except UnreadableInput as exc:
        return [Finding(ERROR, "file-unreadable", f"{path.name} {exc}", where)]
    except PoFileError as exc:
        return [Finding(ERROR, "bad-catalog", f"{path.name} is not a gettext catalog: {exc}", where,
                        "fix the line named (a .po file of msgid/msgstr pairs, see docs/translate.md)")]
    findings = []
    for message in read:
        forms = [str(form or "") for form in message.string] if isinstance(message.string, tuple) else []
        if not message.id or message.fuzzy or not (any(forms) if forms else message.string):
            continue  # a fuzzy translation is one a translator has yet to confirm: gettext skips it too
        source = str(message.id[0] if isinstance(message.id, (tuple, list)) else message.id)
        wrong = next((form for form in forms or [str(message.string)] if form and not _formats_like(source, form)), None)
        if wrong is not None:
            findings.append(Finding(ERROR, "bad-catalog-message", f"{path.name}: the translation {wrong!r} of {source!r} "
                                    "has a placeholder the message does not have, or a lone %",
                                    Where(where.file, message.lineno or 0), "use only the message's %(name)s placeholders, "
                                    "and %% for a percent sign where the message has them"))
            continue
        if forms:  # a form the file lacks (a catalog made for another plural rule): its last given one
            given = [form for form in forms if form]
            message.string = tuple(forms[i] if i < len(forms) and forms[i] else given[-1]
                                   for i in range(catalog.num_plurals))
        if message.id in catalog:  # Babel would keep the first one's translation
            del catalog[message.id]
        catalog[message.id] = message
    return findings


_PLACEHOLDER = re.compile(r"%\((\w+)\)")


def _formats_like(message: str, translation: str) -> bool:
    """Whether a translation can be filled in wherever the message is (the templates fill every
    message in, Python the ones with placeholders): a game's catalog must not make a document
    fail with a placeholder it invented or a lone %."""
    values = {name: "" for name in _PLACEHOLDER.findall(message)}
    try:
        message % values
    except (KeyError, ValueError, TypeError):
        return not _PLACEHOLDER.search(translation)  # never filled in: only no new placeholders
    try:
        translation % values
    except (KeyError, ValueError, TypeError):
        return False
    return True

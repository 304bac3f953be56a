"""load/translations: game.yaml's `languages:` and, for each language after the source's,
i18n/<lang>.yaml (the texts, by the ids of the source files), rules.<lang>.md (the prose) and the
catalog of cardgen's own words (inputs.catalogs). A translation of an id the game does not have is
a warning with a did-you-mean; a text the translation lacks is left to check (check.languages)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import yaml

from cardgen.inputs.catalogs import canonical_language, language_name, load_words
from cardgen.inputs.paths import display_path
from cardgen.load.fields import translation_spec
from cardgen.load.reader import Reader, did_you_mean, leads_out
from cardgen.load.rules import read_rules
from cardgen.load.schema import Fields, ListOf, Table, Text
from cardgen.model.game import WARNING, Finding, Game
from cardgen.model.texts import ascii_digits
from cardgen.model.translate import translatable
from cardgen.model.translation import Translated, Translation
from cardgen.model.where import Where
from cardgen.model.words import SOURCE_LANGUAGE

MAX_LANGUAGES = 16  # each is a folder of outputs and a build of its own


def read_languages(reader: Reader, node: yaml.Node | None) -> dict[str, Where]:
    """game.yaml's languages, each where it is listed: each one Babel knows (for its plural rule and
    number formats), written as Babel writes it (the code names files and an output folder)."""
    if node is None:
        return {}
    codes = reader.text_list(node, "languages")
    items = [node] if isinstance(node, yaml.ScalarNode) else reader.sequence(node, "languages")
    out: dict[str, Where] = {}
    for code, item in zip(codes, items):
        canonical = canonical_language(code)
        shown = code[:40]
        if len(out) == MAX_LANGUAGES:
            reader.error(item, "too-many-languages", f"languages: more than {MAX_LANGUAGES} languages",
                         f"list at most {MAX_LANGUAGES}, and split more over several game folders (docs/translate.md)")
            break
        if code in out:
            reader.error(item, "duplicate-language", f"languages: '{shown}' is listed twice")
        elif canonical is None:
            reader.error(item, "unknown-language", f"languages: '{shown}' is not a language code",
                         "use a code such as en, de, fr or pt-BR")
        elif canonical != code:
            reader.error(item, "unknown-language", f"languages: '{shown}' is written '{canonical}'",
                         f"write {canonical}: the code names the language's files (i18n/{canonical}.yaml) and "
                         "output folder")
        else:
            out[code] = reader.where(item)
    return out


def with_languages(game: Game, languages: Mapping[str, Where]) -> tuple[Game, list[Finding]]:
    """The game in its source language (the first listed) with every other language's translation."""
    codes = tuple(languages)
    source = codes[0] if codes else SOURCE_LANGUAGE
    words, findings = load_words(source, game.folder, languages.get(source))
    translations = {}
    for language in codes[1:]:
        translation, found = _translation(game, language, languages[language])
        translations[language] = translation
        findings += found
    return replace(game, language=source, languages=codes, words=words, translations=translations), findings


def _translation(game: Game, language: str, listed: Where) -> tuple[Translation, list[Finding]]:
    path = game.folder / "i18n" / f"{language}.yaml"
    words, findings = load_words(language, game.folder, listed)
    reader = Reader(path, game_folder=game.folder)
    texts: dict[str, Translated] = {}
    if not path.exists():
        findings.append(Finding(WARNING, "no-translation", f"languages lists '{language}' but the game folder has no "
                                f"{display_path(path, game.folder)}: its {language_name(language)} outputs show the "
                                "source's texts", reader.where(None),
                                f"write it, or start from a translator's sheet: cardgen convert {game.id} --translate "
                                f"{language} (docs/translate.md)"))
    elif not leads_out(reader, game.folder) and (document := reader.document()) is not None:
        _Texts(reader, texts).read(document, translation_spec(game.fields), "")
    rules = game.folder / f"rules.{language}.md"
    markdown, rules_findings = read_rules(game.folder, rules) if rules.exists() else ("", [])
    translation = Translation(language, reader.name, words, texts, markdown, display_path(rules, game.folder))
    findings += reader.findings + rules_findings + _unknown_keys(game, translation)
    return translation, findings


class _Texts:
    """Reads a translation file into flat keys ("cards/nope/text") against the schema."""

    def __init__(self, reader: Reader, texts: dict[str, Translated]):
        self.reader, self.texts = reader, texts

    def read(self, node: yaml.Node, spec: Fields, prefix: str) -> None:
        values = self.reader.mapping(node, spec)
        for key in values:
            self._value(values[key], spec.fields[key].type, f"{prefix}{key}")

    def _value(self, node: yaml.Node, kind: object, key: str) -> None:
        r = self.reader
        if isinstance(kind, Text):
            text = r.text(node, key)
            if text:
                self.texts[key] = Translated(text, r.passage(node))
        elif isinstance(kind, ListOf):
            for index, item in enumerate(r.sequence(node, key)):
                self._value(item, kind.item, f"{key}/{index}")
        elif isinstance(kind, Table):
            for id_node, value in r.free_mapping(node, key):
                self._value(value, kind.value, f"{key}/{id_node.value}")
        elif isinstance(kind, Fields):
            self.read(node, kind, f"{key}/")


def _unknown_keys(game: Game, translation: Translation) -> list[Finding]:
    """A warning for each text the translation gives that names no text of the game (a typo, or a
    card renamed since: its text has nowhere to go, and what it was meant for is untranslated)."""
    known = {text.key for text in translatable(game, translation.language)}
    return [_unknown(key, known, text.place.where) for key, text in translation.texts.items() if key not in known]


def _unknown(key: str, known: set[str], where: Where) -> Finding:
    """A translated text the game has no source of."""
    section, _, rest = key.partition("/")
    ident = rest.split("/")[0]
    ids = {k.split("/")[1] for k in known if k.startswith(f"{section}/") and k.count("/") >= 2}
    if ids and ident not in ids and not ascii_digits(ident):
        return Finding(WARNING, "unknown-translation", f"{section}: the game has no '{ident}' to translate", where,
                       did_you_mean(ident, ids) or f"the ids are those of the game's files: {', '.join(sorted(ids)[:8])}, …")
    return Finding(WARNING, "unknown-translation", f"'{key}' is no text of the game (its source is empty, or there is "
                   "no such place)", where,
                   did_you_mean(key, known) or "translate only the texts the game's files have (docs/translate.md)")


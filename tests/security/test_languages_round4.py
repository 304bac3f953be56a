"""Round four of hostile inputs (issue 36), languages: a language code written as a path, a
translator's sheet linked from outside, catalogs and sheets made to exhaust memory or raise, and
translations check let through that the build then refused. Each case ends with exit 0, 1 or 2
and a message at its file:line, nothing outside the game folder and the output folder touched."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import TEST_DATA, cardgen, edit

FRENCH_GAME = TEST_DATA / "petit_jeu"
HEADER = 'msgid ""\nmsgstr ""\n"Language: fr\\n"\n'  # lines 1-3 of every catalog below
PLURAL = '\nmsgid "%(num)s card"\nmsgid_plural "%(num)s cards"\nmsgstr[0] "%(num)s carte"\nmsgstr[1] "%(num)s cartes"\n'


def files_under(root: Path, *left_out: Path) -> dict[str, bytes]:
    """Every file under root (but under the folders left out) and its bytes."""
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*"))
            if path.is_file() and not any(path.is_relative_to(folder) for folder in left_out)}


@pytest.fixture
def french(game_copy):
    return game_copy(FRENCH_GAME)


@pytest.fixture(autouse=True)
def outside(tmp_path, french):
    """put(name, bytes): a file of the user's beside the game; after the test, every file beside the
    game folder and tmp_path/out must be as put."""
    files: dict[str, bytes] = {}

    def put(name: str, data: bytes) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        files[name] = data
        return path

    put("mine/rulebook.pdf", b"the user's own rulebook")
    yield put
    assert files_under(tmp_path, french, tmp_path / "out") == files


def check(game: Path) -> tuple[int, str]:
    code, out, err = cardgen("check", game)
    return code, out + err


# --------------------------------------------------------------------------- language codes


def test_a_language_code_written_as_a_path_is_refused_and_nothing_outside_is_touched(french, outside, tmp_path):
    out = tmp_path / "work" / "out"  # out / "de./../../documents" is tmp_path/work/documents
    outside("work/documents/rulebook.pdf", b"mine")
    outside("work/documents/export-tts/deck.json", b"{}")
    edit(french / "game.yaml", "languages: [en, fr]", 'languages: [en, "de./../../documents", DE, pt-br]')
    code, said = check(french)
    assert code == 1
    assert "petit_jeu/game.yaml:7:17: error: languages: 'de./../../documents' is not a language code" in said
    assert "petit_jeu/game.yaml:7:40: error: languages: 'DE' is written 'de'" in said
    assert "petit_jeu/game.yaml:7:44: error: languages: 'pt-br' is written 'pt-BR'" in said
    assert cardgen("build", french, "--out", out)[0] == 1
    assert sorted(p.name for p in (tmp_path / "work").iterdir()) == ["documents"]  # and no build output


def test_a_game_lists_at_most_16_languages(french):
    codes = ["fr", "de", "it", "es", "nl", "pt", "pt-BR", "sv", "da", "nb", "fi", "pl", "cs", "hu", "ro", "el"]
    edit(french / "game.yaml", "languages: [en, fr]", f"languages: [en, {', '.join(codes)}]")
    code, said = check(french)
    assert code == 1 and "petit_jeu/game.yaml:7:80: error: languages: more than 16 languages [too-many-languages]" in said


def test_convert_takes_only_a_language_code(french):
    code, _, err = cardgen("convert", french, "--translate", "../../../etc/passwd", "--to", "yaml")
    assert code == 2 and "'../../../etc/passwd' is not a language code" in err
    code, _, err = cardgen("convert", french, "--translate", "FR", "--to", "csv")
    assert code == 2 and "'FR' is written 'fr'" in err


# --------------------------------------------------------------------------- a game's catalog


@pytest.mark.parametrize("catalog, expected", [
    (HEADER + '"Plural-Forms: nplurals=two; plural=(n > 1);\\n"\n' + PLURAL,
     "fr.po:4:1: error: fr.po: the header's nplurals=two is not a number of plural forms (1 to 6)"),
    (HEADER + '"Plural-Forms: nplurals=1000000000; plural=(n > 1);\\n"\n' + PLURAL,
     "fr.po:4:1: error: fr.po: the header's nplurals=1000000000 is not a number of plural forms (1 to 6)"),
    (HEADER + '"Plural-Forms: npl"\n"urals=' + "9" * 5000 + ';\\n"\n' + PLURAL,  # split over two lines
     "fr.po:1:1: error: fr.po: the header's nplurals=99999999999999999999 is not a number of plural forms"),
    (HEADER + '"Content-Type: text/plain; charset=rot13\\n"\n' + PLURAL,
     "fr.po:4:1: error: fr.po: the header says charset=rot13, but cardgen reads catalogs as UTF-8"),
    (HEADER + '\nmsgid "Contents"\nmsgstr "Table des mati\xe8res"\n',  # written in Latin-1 below
     "fr.po:6:23: error: fr.po is not UTF-8 text: byte 0xe8 (invalid continuation byte)"),
    (HEADER + '\nmsgid "Contents"\nmsgstr "Som\x1bmaire\x07"\n',
     "fr.po:5:1: error: fr.po: the translation of 'Contents': the value holds the character U+001B"),
    (HEADER + '\nmsgid "Contents"\nmsgstr "Som\\amaire"\n',
     "fr.po:5:1: error: fr.po: the translation of 'Contents': the value holds the character U+0007"),
    (HEADER + '\nmsgid "Contents"\n\nmsgid "Deck"\nmsgstr "Pioche"\n',
     "fr.po:5:1: error: fr.po is not a gettext catalog: missing msgstr for msgid 'Contents' [bad-catalog]"),
    (HEADER + '\nmsgid "%(num)s card"\nmsgid_plural "%(num)s cards"\nmsgstr[x] "carte"\n',
     "fr.po:7:1: error: fr.po: 'msgstr[x]' is no plural form (msgstr[0] to msgstr[5])"),
    (HEADER + '\nmsgid "%(num)s card"\nmsgid_plural "%(num)s cards"\nmsgstr[0] "%(num)999999999999s carte"\n',
     "fr.po:5:1: error: fr.po: the translation '%(num)999999999999s carte' of '%(num)s card' has a placeholder"),
    (HEADER + '\nmsgid "Contents"\nmsgstr "目录"\n',  # in a build: WeasyPrint's .notdef glyph, refused
     "fr.po:5:1: error: French: cardgen's words: '目' (U+76EE CJK UNIFIED IDEOGRAPH-76EE), '录' (U+5F55 CJK UNIFIED "
     "IDEOGRAPH-5F55) in none of the documents' fonts"),
], ids=["nplurals-two", "nplurals-billion", "nplurals-5000-digits", "charset-rot13", "latin-1", "esc-bel",
        "escaped-bel", "missing-msgstr", "msgstr-x", "huge-width", "no-glyph"])
def test_a_hostile_catalog_is_an_error_at_its_line(french, catalog, expected):
    data = catalog.encode("latin-1") if "\xe8" in catalog else catalog.encode("utf-8")
    (french / "i18n" / "fr.po").write_bytes(data)
    code, said = check(french)
    assert code == 1 and f"petit_jeu/i18n/{expected}" in said


def test_a_catalog_with_a_byte_order_mark_is_read(french):
    (french / "i18n" / "fr.po").write_bytes(b"\xef\xbb\xbf" + (HEADER + '\nmsgid "Contents"\nmsgstr "Sommaire"\n').encode())
    assert check(french)[0] == 0


def test_a_catalog_linked_from_outside_is_not_read(french, outside):
    secret = outside("mine/secret.po", (HEADER + '\nmsgid "Contents"\nmsgstr "SECRET"\n').encode())
    (french / "i18n" / "fr.po").symlink_to(secret)
    code, said = check(french)
    assert code == 1 and "petit_jeu/i18n/fr.po: error: fr.po leads outside the game folder" in said


# --------------------------------------------------------------------------- the translator's sheet


def convert(game: Path) -> tuple[int, str, str]:
    return cardgen("convert", game, "--translate", "fr", "--to", "yaml")


def test_a_translators_sheet_linked_from_outside_is_not_read(french, outside):
    secret = outside("mine/secret.csv", b"key,en,fr\ntitle,Tiny,SECRET-FROM-OUTSIDE\n")
    (french / "i18n" / "fr.csv").symlink_to(secret)
    code, out, err = convert(french)
    assert code == 1 and out == "" and "SECRET" not in err
    assert "petit_jeu/i18n/fr.csv: error: the file leads outside the game folder, templates/ and art/" in err


@pytest.mark.parametrize("sheet, expected", [
    ("key,en,fr\ncheatsheet/sections/²/title,a,b\n",
     "fr.csv:2:1: error: row 2: the key 'cheatsheet/sections/²/title' has '²' where sections needs a place from 0"),
    ("key,en,fr\n\nsetup_steps/007,a,b\n",
     "fr.csv:3:1: error: row 3: the key 'setup_steps/007' has '007' where setup_steps needs a place"),
    ("key,en,fr\ntitle,a,\"two\nlines\"\ncheatsheet/goal,a," + "x" * 150_000 + "\n",
     "fr.csv:4:1: error: fr.csv cannot be read as CSV: field larger than field limit (131072)"),
    ("key,en,fr\n" + "".join(f"cheatsheet/sections/{i}/items/9999,a,b\n" for i in range(10_000)),
     "fr.csv:2:1: error: row 2: the key 'cheatsheet/sections/0/items/9999' makes the translation's lists longer "
     "than 10000 places in all"),
    ("key,en,fr\n" + "a/" * 50_000 + "b,x,y\n", "fr.csv:2:1: error: row 2: the key 'a/a/a/"),
    ("key,en,fr\ntitle,a,b\x1bc\n",
     "fr.csv:2:1: error: row 2: the key 'title' has a text that cannot be printed: the value holds the character U+001B"),
    ("key,en,fr\ntitle,Tiny,Petit\n,Shield,Bouclier\n", "fr.csv:3:1: error: row 3 has a translation but no key"),
    ("key,en,fr,fr\ntitle,Tiny,Petit,Minuscule\n", "fr.csv:1:1: error: fr.csv has more than one 'fr' column"),
    ("key,en,fr\ntitle,Tiny,\"Petit\ngoal,x,y\n", "fr.csv:2:1: error: fr.csv cannot be read as CSV: unexpected end of data"),
], ids=["superscript-two", "leading-zeros", "huge-cell", "nested-places", "deep-key", "escape", "no-key",
        "language-twice", "quote-left-open"])
def test_a_hostile_translators_sheet_is_an_error_at_its_line(french, sheet, expected):
    (french / "i18n" / "fr.csv").write_text(sheet, encoding="utf-8")
    code, out, err = convert(french)
    assert code == 1 and out == "" and f"petit_jeu/i18n/{expected}" in err


# --------------------------------------------------------------------------- what check must find for the build


def test_a_translated_texts_image_that_the_build_would_refuse_is_an_error_at_its_line(french):
    edit(french / "cards.yaml", 'text: "You are out."}', 'text: "You are out.", details: "Long rule text."}')
    edit(french / "i18n" / "fr.yaml", "text: Vous êtes éliminé.}",
         'text: Vous êtes éliminé., details: "Voir ![x](nothere.png)"}')
    code, said = check(french)
    assert code == 1
    assert ("petit_jeu/i18n/fr.yaml:25:88: error: French: 'nothere.png' (from card 'Explosion' (details)) does not "
            "exist [bad-image]") in said


def test_an_image_the_translated_rules_show_is_named_from_their_own_file(french):
    with (french / "rules.fr.md").open("a", encoding="utf-8") as rules:
        rules.write("\n![x](https://example.com/x.png)\n")
    code, said = check(french)
    assert code == 1
    assert re.search(r"petit_jeu/rules\.fr\.md:\d+:6: error: French: refused to fetch 'https://example\.com/x\.png' "
                     r"\(from rules\.fr\.md\)", said), said


def test_a_locales_own_words_no_font_has_are_an_error_at_the_language(french):
    edit(french / "game.yaml", "languages: [en, fr]", "languages: [en, fr, zh-Hant-TW]")
    code, said = check(french)
    assert code == 1
    assert ("petit_jeu/game.yaml:7:21: error: Chinese (Traditional, Taiwan): cardgen's words: '和' (U+548C CJK "
            "UNIFIED IDEOGRAPH-548C)") in said

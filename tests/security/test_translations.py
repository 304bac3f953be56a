"""A game's translations are untrusted like the rest of its folder: a catalog cannot put markup into
the documents or make them fail with a placeholder of its own, a translation file linked from
elsewhere is not read, and a language code is never a path."""
from __future__ import annotations

import os

import pytest
from conftest import TEST_DATA, cardgen, edit, page_texts

from cardgen.publish.check import check_folder

FRENCH_GAME = TEST_DATA / "petit_jeu"
HEADER = 'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\n'


@pytest.mark.slow
def test_a_catalogs_markup_is_printed_as_text_and_its_placeholders_are_checked(game_copy, tmp_path):
    game = game_copy(FRENCH_GAME)
    (game / "i18n" / "fr.po").write_text(
        HEADER + 'msgid "Gather the cards"\nmsgstr "<b>Réunir</b> <img src=\'http://example.com/x.png\'> les cartes"\n',
        encoding="utf-8")
    assert cardgen("checklist", game, "--lang", "fr", "--out", tmp_path)[0] == 0
    text = " ".join(" ".join(page_texts(tmp_path / "fr" / "checklists.pdf")).split())
    assert "Réunir <img src='http://example.com/x.png'> les cartes" in text  # the tag shown, not followed

    (game / "i18n" / "fr.po").write_text(
        HEADER + 'msgid "Contents"\nmsgstr "Sommaire %(secret)s"\n\n'
        '#, python-format\nmsgid "%(cards)s to each player"\nmsgstr "100 % de %(cards)s"\n', encoding="utf-8")
    findings = [f for f in check_folder(game).errors() if f.code == "bad-catalog-message"]
    assert [(f.level, f.where.line) for f in findings] == [("error", 5), ("error", 9)]  # each at its msgid
    assert "'Sommaire %(secret)s'" in findings[0].message and findings[0].where.file.endswith("i18n/fr.po")
    code, _, err = cardgen("rulebook", game, "--lang", "fr", "--out", tmp_path)
    assert code == 1 and "bad-catalog-message" in err and "Traceback" not in err


def test_a_translation_linked_from_outside_the_game_is_not_read(game_copy, tmp_path):
    game = game_copy(FRENCH_GAME)
    outside = tmp_path / "secret.yaml"
    outside.write_text("title: from outside\n", encoding="utf-8")
    (game / "i18n" / "fr.yaml").unlink()
    os.symlink(outside, game / "i18n" / "fr.yaml")
    report = check_folder(game).report
    assert report is None or all(t.text != "from outside" for t in report.game.translations["fr"].texts.values())
    assert any(f.code == "file-outside" for f in check_folder(game).errors())


def test_a_language_code_is_never_a_path(game_copy, tmp_path):
    game = game_copy(FRENCH_GAME)
    code, _, err = cardgen("build", game, "--lang", "../../etc", "--out", tmp_path)
    assert code == 2 and not (tmp_path.parent.parent / "etc").exists()
    edit(game / "game.yaml", "languages: [en, fr]", "languages: [en, ../fr]")
    errors = check_folder(game).errors()
    assert [f.code for f in errors] == ["unknown-language"] and errors[0].where.line

"""A game in several languages: Exploding Puppy in German, the tiny test game in French. Every page
of their outputs is read back: the translated texts are on them and none of cardgen's own
English messages is (the catalogs'); check finds what a translation gets wrong, at its line."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from conftest import CARD_DATA, ROOT, TEST_DATA, cardgen, edit, page_texts

from cardgen.check.languages import report_in
from cardgen.inputs.catalogs import load_words
from cardgen.model.texts import cards
from cardgen.model.words import ngettext, speaking
from cardgen.publish.check import check_folder
from cardgen.publish.driver import drive
from cardgen.publish.kinds.documents import plan_rulebook
from cardgen.publish.limits import Limits
from cardgen.publish.request import Request

LOCALE = ROOT / "cardgen" / "locale"
FRENCH_GAME = TEST_DATA / "petit_jeu"


def catalog(language: str):
    with open(LOCALE / f"{language}.po", "rb") as file:
        return read_po(file)


def english_phrases(language: str) -> set[str]:
    """The words of each of cardgen's messages the language says otherwise: each run of text
    between its placeholders and tags that holds a word."""
    phrases = set()
    for message in catalog(language):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for english in ids:
            for part in re.split(r"%\(\w+\)s|<[^>]+>|%%", english):
                part = part.strip(" \u00a0")
                # a phrase of at least four letters: "by" or "(was" could be words of the language too
                if len(re.findall(r"[A-Za-z]", part)) >= 4 and not any(part in s for s in strings):
                    phrases.add(part)
    return phrases


def english_left(text: str, language: str) -> list[str]:
    flat = " ".join(text.split())
    # each phrase the text holds at all (a quick look), then as words of their own
    return sorted(p for p in english_phrases(language)
                  if p in flat and re.search(rf"(?<![\w-]){re.escape(p)}(?![\w-])", flat))


def every_page(folder: Path) -> dict[str, str]:
    return {pdf.name: "\n".join(page_texts(pdf)) for pdf in sorted(folder.glob("*.pdf"))}


@pytest.fixture(scope="module")
def german(tmp_path_factory, shipped_document):
    """Exploding Puppy's German rulebook and checklists (`cardgen rulebook/checklist --lang de`,
    built once for the run, which put them in <out>/de/) and its Basic sheets built here."""
    out = tmp_path_factory.mktemp("de") / "out"
    (out / "de").mkdir(parents=True)
    for name in ("rulebook.pdf", "checklists.pdf"):
        shutil.copy(shipped_document("exploding_puppy", name, "de"), out / "de" / name)
    code, _, err = cardgen("cards", CARD_DATA / "exploding_puppy", "--setup", "basic", "--lang", "de", "--out", out)
    assert code == 0, err
    return out


def test_exploding_puppy_is_translated_whole():
    assert check_folder("exploding_puppy", all_translated=True).ok


@pytest.mark.slow  # Exploding Puppy's German rulebook and checklists (the tiny French game shows the same, quickly)
def test_the_german_build_has_the_german_texts_and_no_english_word_of_cardgen(german):
    assert not list(german.glob("*.pdf")), "the German outputs go into <out>/de/"
    pages = every_page(german / "de")
    assert sorted(pages) == ["cards-basic.pdf", "checklists.pdf", "rulebook.pdf"]
    sheets = " ".join(pages["cards-basic.pdf"].split())
    assert "Sofort zeigen. Ohne Entschärfung bist du tot." in sheets and "Show it immediately" not in sheets
    assert "Beidseitig drucken, an der langen Kante wenden" in sheets
    checklists = " ".join(pages["checklists.pdf"].split())
    assert "Karten zusammensuchen" in checklists and "Aufbau für 8 Spieler" in checklists
    assert "Jede Hand 7 Karten (1 Entschärfung und 6 Karten)" in checklists
    rulebook = " ".join(pages["rulebook.pdf"].split())
    assert "Spielregeln v1.1" in rulebook and "Jeder Spieler beginnt mit 1 Entschärfung und 6 Karten." in rulebook
    assert "3.1.1 Welpen" in rulebook and "4 Stapelaufbauten" in rulebook and "Die Teile einer Karte" in rulebook
    for name, text in pages.items():
        assert english_left(text, "de") == [], name


@pytest.fixture(scope="module")
def french(tmp_path_factory):
    out = tmp_path_factory.mktemp("fr") / "out"
    code, _, err = cardgen("build", FRENCH_GAME, "--out", out)
    assert code == 0, err
    return out


@pytest.mark.slow
def test_build_makes_every_language_the_french_one_without_english_words(french):
    assert {p.name for p in french.glob("*.pdf")} == {p.name for p in (french / "fr").glob("*.pdf")} == {
        "cards-starter.pdf", "rulebook.pdf", "checklists.pdf", "cheatsheet.pdf", "cheatsheet-pocket.pdf"}
    pages = every_page(french / "fr")
    assert "Vous êtes éliminé." in pages["cards-starter.pdf"] and "You are out" not in pages["cards-starter.pdf"]
    assert "Mise en place pour 3 joueurs" in " ".join(pages["checklists.pdf"].split())
    assert "Soyez le dernier joueur en lice." in pages["cheatsheet.pdf"]
    for name, text in pages.items():
        assert english_left(text, "fr") == [], name
    english = {name: "\n".join(page_texts(french / name)) for name in ("checklists.pdf", "cards-starter.pdf")}
    assert "Gather the cards" in english["checklists.pdf"] and "Vous êtes" not in english["cards-starter.pdf"]  # English stays


def pictures(pdf: Path) -> set[bytes]:
    """The image data a PDF draws (the rulebook's: the example card)."""
    import pikepdf

    with pikepdf.open(pdf) as document:
        return {image.read_raw_bytes() for page in document.pages for image in page.get_images().values()}


@pytest.mark.slow
def test_each_language_s_rulebook_shows_its_own_example_card(tmp_path):
    """A build renders every language's outputs on one pool of workers, and WeasyPrint keeps each
    image it drew by its URL for the life of the worker: the French rulebook, rendered by the
    worker that drew the English one, must not show the English card."""
    built = drive(Request(FRENCH_GAME, lambda game, report: plan_rulebook(game), every_language=True,
                          out=tmp_path, limits=Limits(workers=1)))
    assert built.ok and [result.folder for result in built.results] == [tmp_path, tmp_path / "fr"]
    english, in_french = pictures(tmp_path / "rulebook.pdf"), pictures(tmp_path / "fr" / "rulebook.pdf")
    assert english and in_french and not english & in_french


@pytest.mark.slow
def test_build_finds_every_language_up_to_date_and_rebuilds_a_deleted_one(french):
    code, _, err = cardgen("build", FRENCH_GAME, "--out", french)
    assert code == 0 and "(12 up to date)" in " ".join(err.split()), err
    shutil.rmtree(french / "fr")
    assert cardgen("build", FRENCH_GAME, "--out", french)[0] == 0
    assert (french / "fr" / "rulebook.pdf").is_file()


def test_a_translation_renames_cards_and_setups_but_plays_and_prints_the_same(game_copy, tmp_path):
    """Cards and setups are found by id: a translated name that is another card's English name or id,
    or a name two setups share, changes nothing but the words."""
    game = game_copy(FRENCH_GAME)
    edit(game / "game.yaml", "- deal: {from: deck, select: {kind: shield}, count: 1}",
         "- deal: {from: deck, select: {card: [Shield]}, count: 1}")
    edit(game / "i18n" / "fr.yaml", "peek: {name: Coup d’œil,", "peek: {name: Shield,")
    with open(game / "setups.yaml", "a", encoding="utf-8") as setups:
        setups.write("  - {name: Quick, players: {min: 2, max: 3}, hand: {deal: 3}, "
                     "cards: {Boom: 5, shield: 4, Peek: 6, 'no': 5}}\n")
    edit(game / "i18n" / "fr.yaml", "  starter: {name: Débutant, blurb: La seule mise en place.}",
         "  starter: {name: Débutant, blurb: La seule mise en place.}\n  quick: {name: Débutant}")
    checked = check_folder(game)
    assert [f.code for f in checked.report.findings if f.code == "duplicate-name"] == ["duplicate-name"]
    french = report_in(checked.report, "fr")
    for source, translated in zip(checked.report.setups, french.setups):
        assert [p.piles for p in source.players] == [p.piles for p in translated.players]
    assert cardgen("cards", game, "--setup", "quick", "--lang", "fr", "--out", tmp_path)[0] == 0
    assert (tmp_path / "fr" / "cards-quick.pdf").is_file()


@pytest.mark.parametrize("language, expected", [
    ("de", ["0 Karten", "1 Karte", "2 Karten", "0 Spieler", "1 Spieler", "2 Spieler"]),
    ("fr", ["0 carte", "1 carte", "2 cartes", "0 joueur", "1 joueur", "2 joueurs"]),
    ("en", ["0 cards", "1 card", "2 cards", "0 players", "1 player", "2 players"]),
])
def test_plural_forms_for_0_1_and_2(language, expected):
    words, findings = load_words(language, FRENCH_GAME)
    assert findings == []
    with speaking(words):
        said = [cards(n) for n in (0, 1, 2)]
        said += [ngettext("%(num)s player", "%(num)s players", n) % {"num": n} for n in (0, 1, 2)]
    assert said == expected


@pytest.mark.slow
def test_the_catalogs_hold_every_message_of_the_code_translated():
    """Every message the renderers and templates say is in the German and French catalogs, with a
    translation (and each plural form); none is left over from code that is gone."""
    method_map = [("cardgen/**.py", "python"), ("templates/**.html", "jinja2")]
    options = {"templates/**.html": {"extensions": "jinja2.ext.i18n", "trim_blocks": "true", "lstrip_blocks": "true"}}
    keywords = {"gettext": None, "ngettext": (1, 2), "_": None, "marked": None}
    said = {message[2] for message in extract_from_dir(ROOT, method_map, options, keywords)}
    said = {m[0] if isinstance(m, tuple) else m for m in said}
    with open(LOCALE / "cardgen.pot", "rb") as file:
        assert {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(file) if m.id} == said
    for language in ("de", "fr"):
        translated = {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in catalog(language) if m.id}
        assert set(translated) == said, language
        assert all(all(s) if isinstance(s, tuple) else s for s in translated.values()), language


def test_check_finds_what_a_german_translation_gets_wrong_at_its_line(game_copy):
    game = game_copy("exploding_puppy")
    de = game / "i18n" / "de.yaml"
    text = de.read_text(encoding="utf-8")
    text = re.sub(r"\n  nope:\n(    .*\n)+", "\n", text)  # a card left untranslated
    text = text.replace("  imploding-puppy:\n", "  imploding-pupy:\n")  # an id that is not there
    text = text.replace("text: Sofort zeigen. Ohne **Entschärfung** bist du tot.",
                        "text: " + "Sofort zeigen, und zwar wirklich sofort. " * 12)  # too long for the box
    text = text.replace("name: Hund\n", "name: Hund \u4e2d\n")  # a character no shipped font has
    text = text.replace("flavor: Er war ein Guter. War.", "flavor: \"Er war ein Guter :bombe:\"")  # no such symbol
    de.write_text(text, encoding="utf-8")
    findings = check_folder(game).report.findings
    said = {f.code: f for f in findings if "de.yaml" in str(f.where) or "German" in f.message}

    untranslated = [f for f in findings if f.code == "untranslated" and "'Nope'" in f.message]
    assert {f.message for f in untranslated} >= {"German: card 'Nope': name is not translated in exploding_puppy/i18n/de.yaml"}
    assert untranslated[0].level == "warning" and untranslated[0].where.file == "exploding_puppy/cards.yaml"

    unknown = said["unknown-translation"]
    assert "cards: the game has no 'imploding-pupy'" in unknown.message and "imploding-puppy" in unknown.hint

    too_long = said["text-does-not-fit"]
    assert too_long.level == "error" and too_long.message.startswith("German: card 'Explodierender Welpe': the text")
    assert too_long.where.file.endswith("i18n/de.yaml") and text.splitlines()[too_long.where.line - 1].strip().startswith("text: Sofort zeigen, und")

    glyph = said["missing-glyph"]
    assert glyph.level == "error" and "German" in glyph.message and "U+4E2D" in glyph.message
    assert text.splitlines()[glyph.where.line - 1].strip() == "name: Hund \u4e2d"

    symbol = said["unknown-symbol"]
    assert symbol.message == "German: card 'Explodierender Welpe' flavor: no symbol 'bombe'" and "'bomb'" in symbol.hint
    assert text.splitlines()[symbol.where.line - 1].strip() == "flavor: \"Er war ein Guter :bombe:\""

    assert check_folder(game, all_translated=True).report.has_errors
    assert not any(f.level == "error" and f.code == "untranslated" for f in findings)


def test_a_translators_sheet_goes_out_and_comes_back_as_the_translation(game_copy):
    game = game_copy(FRENCH_GAME)
    code, sheet, _ = cardgen("convert", game, "--translate", "fr", "--to", "csv")
    assert code == 0 and sheet.splitlines()[0] == "key,en,fr"
    assert "cards/boom/text,You are out.,Vous êtes éliminé." in sheet.splitlines()
    edited = sheet.replace("cards/peek/flavor,Hm?,Hein ?", "cards/peek/flavor,Hm?,'=Quoi ?")  # a formula start
    (game / "i18n" / "fr.csv").write_text(edited, encoding="utf-8")
    code, back, _ = cardgen("convert", game, "--translate", "fr", "--to", "yaml")
    assert code == 0
    (game / "i18n" / "fr.yaml").write_text(back, encoding="utf-8")
    fr = check_folder(game).report.game.translations["fr"].texts
    assert fr["cards/peek/flavor"].text == "=Quoi ?" and fr["setup_steps/4"].text.startswith("Mélangez")
    assert len(fr) == len([line for line in sheet.splitlines()[1:] if not line.endswith(",")])


def test_a_language_the_game_does_not_list_is_a_usage_error_and_adding_one_needs_no_code(game_copy, tmp_path):
    game = game_copy(FRENCH_GAME)
    code, _, err = cardgen("rulebook", game, "--lang", "de", "--out", tmp_path)
    assert code == 2 and "is not in 'de'" in err
    # Italian: no shipped catalog, the game brings its own (a copy of the French one, for the test)
    edit(game / "game.yaml", "languages: [en, fr]", "languages: [en, fr, it]")
    shutil.copy(game / "i18n" / "fr.yaml", game / "i18n" / "it.yaml")
    shutil.copy(LOCALE / "fr.po", game / "i18n" / "it.po")
    catalog_file = game / "i18n" / "it.po"  # each plural form Italian has
    catalog_file.write_text(catalog_file.read_text(encoding="utf-8").replace(
        '"Mise en place pour %(num)s joueurs"', '"Preparazione per %(num)s giocatori"'), encoding="utf-8")
    assert cardgen("checklist", game, "--lang", "it", "--out", tmp_path)[0] == 0
    assert "Preparazione per 3 giocatori" in " ".join(" ".join(page_texts(tmp_path / "it" / "checklists.pdf")).split())

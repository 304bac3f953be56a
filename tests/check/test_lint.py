"""The text checks: rules.md, card texts, setups and variations read against the card data."""
from __future__ import annotations

import json
import re

import pytest
from conftest import CARD_DATA, cardgen, report_for

from cardgen.check import lint
from cardgen.load import load_game

PUPPY = "card_data/exploding_puppy"
IN_PUPPY = "exploding_puppy"  # findings name files from the game folder's parent


def text_findings(folder, code=None):
    return [f for f in report_for(folder).findings if f.code.startswith(("text-", "card-number"))
            and code in (None, f.code)]


def places(findings) -> set[str]:
    return {f"{f.where.file.split('/')[-1]}:{f.where.line}" for f in findings}


def quoted_lines(folder, pattern: str) -> set[str]:
    """file:line of every line matching pattern in rules.md and cards.yaml, by a plain search."""
    out = set()
    for name in ("rules.md", "cards.yaml"):
        for number, line in enumerate((folder / name).read_text().splitlines(), 1):
            if re.search(pattern, line) and not line.lstrip().startswith("#"):
                out.add(f"{name}:{number}")
    return out


@pytest.fixture(scope="module")
def puppy():
    return report_for("exploding_puppy")


def _line(card: str, phrase: str) -> int:
    """The line of cards.yaml where `phrase` first appears in the details of `card`."""
    lines = (CARD_DATA / "exploding_puppy" / "cards.yaml").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == f'- name: "{card}"')
    details = next(i for i, line in enumerate(lines[start:], start) if line.strip().startswith("details:"))
    return next(i for i, line in enumerate(lines[details:], details) if phrase in line) + 1


def test_the_shipped_game_reports_the_stale_quotes_and_accepts_the_marked_examples(puppy):
    findings = {(f.level, f.code, str(f.where)) for f in puppy.findings}
    # Alliance quotes »See the future (4)« (the card says 5); Blood Feud quotes a number
    # Targeted Attack does not have
    assert ("warning", "text-number", f"{IN_PUPPY}/cards.yaml:{_line('Alliance', 'See the future (4)')}:234") in findings
    assert ("warning", "text-number", f"{IN_PUPPY}/cards.yaml:{_line('Blood Feud', 'Targeted Attack (1)')}:160") in findings
    # the illustrations game.yaml marks as examples stay visible as notes
    assert ("info", "text-number", f"{IN_PUPPY}/cards.yaml:{_line('Scaling', 'See the future (4)')}:100") in findings
    assert ("info", "text-number", f"{IN_PUPPY}/rules.md:110:199") in findings
    assert not [f for f in puppy.findings if f.code == "text-unknown-name" and f.level == "warning"]
    assert not puppy.has_errors


def test_names_are_recognised_in_their_written_forms():
    game = load_game("exploding_puppy").game
    names = lint.Names(game)
    recognised = {(r.phrase, r.target.name) for text in lint.texts(game)
                  for r in lint.references(text.value, names) if r.target}
    for phrase, name in [("Dog-Cards", "Dog"), ("Nope-card", "Nope"), ("Exploding Puppys", "Exploding Puppy"),
                         ("Imploding Puppys", "Imploding Puppy"), ("Attacks", "Attack"), ("Skip", "Skip"),
                         ("Nope cards", "Nope"), ("Blood Feud", "Blood Feud"), ("NOW card", "Now"),
                         ("See the future (4)", "See the future"), ("special", "Special"),
                         ("Unique Cards", "Unique Cards"), ("Kleptomaniac card", "Kleptomaniac")]:
        assert (phrase, name) in recognised, phrase
    # counted over rules.md and every card, setup and variation text (191 when this was written)
    assert len([1 for text in lint.texts(game) for r in lint.references(text.value, names) if r.target]) > 150


def test_quoted_sentences_and_sentence_starts_are_not_names():
    game = load_game("exploding_puppy").game
    names = lint.Names(game)
    text = ("Shuffle the deck. If an effect says »Discard three cards of the same color«, you may. "
            "»You« on a static effect. Each card played. Player A gives Player B a card.")
    assert lint.references(text, names) == []
    # while a name inside a quoted sentence, or after a sentence start, is still read
    found = lint.references(text.replace("same color«", "same color« or a Nope card").replace("three cards",
                                                                                            "three Bark Cards"), names)
    assert [(r.phrase, r.target and r.target.name) for r in found] == [("Bark Cards", None), ("Nope card", "Nope")]


def test_an_undeclared_group_name_is_reported_until_aliased(game_copy):
    folder = game_copy("exploding_puppy")
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("    Unique Cards: {color: special}\n", ""))
    [finding] = text_findings(folder, "text-unknown-name")
    line = next(n for n, l in enumerate(game_yaml.read_text().splitlines(), 1) if "Unique Cards into" in l)
    assert (finding.where.line, finding.level) == (line, "warning")
    assert "'Unique Cards'" in finding.message and "variation 'Special'" in finding.message
    assert "aliases" in finding.hint


def test_a_changed_number_flags_every_sentence_that_quotes_it(game_copy):
    folder = game_copy("exploding_puppy")
    cards = folder / "cards.yaml"
    text = cards.read_text()
    own = text.index('  - name: "See the future"')
    cards.write_text(text[:own] + text[own:].replace("number: 5", "number: 7", 1))
    findings = text_findings(folder)
    quotes = [f for f in findings if f.code == "text-number" and "See the" in f.message]
    assert places(quotes) == quoted_lines(folder, r"(?i)see the future \(\d\)")
    assert all("(7)" in f.message for f in quotes)
    # the card's own text still says (5), on the face and in the details
    own_lines = {f"cards.yaml:{n}" for n, l in enumerate(cards.read_text().splitlines(), 1)
                 if "Privately view the top (5)" in l}
    assert places(f for f in findings if f.code == "card-number") == own_lines and len(own_lines) == 2


def test_a_renamed_card_leaves_stale_references_with_did_you_mean(game_copy):
    folder = game_copy("exploding_puppy")
    for name in ("cards.yaml", "setups.yaml"):
        path = folder / name
        path.write_text(path.read_text().replace('"Blood Feud":', '"Blood Oath":')
                        .replace('name: "Blood Feud"', 'name: "Blood Oath"'))
    stale = text_findings(folder, "text-unknown-name")
    # Fight's extra rule quotes »Blood Feud« twice
    line, text = next((n, l) for n, l in enumerate((folder / "setups.yaml").read_text().splitlines(), 1)
                      if "»Blood Feud«" in l)
    columns = [m.start() + 1 for m in re.finditer("Blood Feud", text)]
    assert [(f.where.line, f.where.column) for f in stale] == [(line, c) for c in columns] and len(columns) == 2
    assert all(f.hint == "did you mean 'Blood Oath'?" for f in stale)


def test_setup_figures_in_the_text_are_held_against_the_procedure(game_copy):
    folder = game_copy("exploding_puppy")
    rules = folder / "rules.md"
    rules.write_text(rules.read_text().replace("then deal 6 cards to each player", "then deal 5 cards to each player"))
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace('count: "10 * max(0, 7 - players)"',
                                                       'count: "8 * max(0, 7 - players)"'))
    [deal] = text_findings(folder, "text-deal")
    assert deal.where.line == 1 + rules.read_text().splitlines().index(
        "2. Shuffle the deck, then deal 5 cards to each player.")
    assert "Basic deals 6" in deal.message
    aside = text_findings(folder, "text-set-aside")
    # 2.3 and chapter 4 of rules.md, Darkness's extra rule, and the step's own text
    assert {f.where.file.split("/")[-1] for f in aside} == {"rules.md", "setups.yaml", "game.yaml"} and len(aside) == 4
    assert all("30 at 4 players" in f.message or "40 at 3 players" in f.message for f in aside)


def test_a_waiver_that_waives_nothing_is_reported(game_copy):
    folder = game_copy("exploding_puppy")
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace(
        "inside: \"a Swap Top and Bottom (2) makes\"", "inside: \"a Swap Top and Bottom (3) makes\""))
    [unused] = text_findings(folder, "text-waiver-unused")
    assert unused.where.file.endswith("game.yaml") and "waives no finding" in unused.message
    assert "Swap Top and Bottom (2)" in next(f.message for f in text_findings(folder, "text-number")
                                             if f.level == "warning" and "Swap" in f.message)


def test_an_alias_to_an_unknown_color_is_a_load_error(game_copy):
    folder = game_copy("exploding_puppy")
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("{color: special}", "{color: specal}"))
    finding = next(f for f in load_game(folder).findings if f.code == "unknown-color")
    assert "did you mean 'special'" in finding.hint and finding.where.line


def test_check_json_carries_the_text_findings():
    code, out, _ = cardgen("check", "exploding_puppy", "--json")
    assert code == 0
    found = {(f["where"], f["level"]) for f in json.loads(out)["findings"] if f["code"] == "text-number"}
    assert (f"{IN_PUPPY}/cards.yaml:{_line('Alliance', 'See the future (4)')}:234", "warning") in found


def test_a_variation_needing_a_card_no_setup_prints_is_reported_at_its_name(puppy, game_copy):
    """Exploding Puppy's Criminal Mind variation sorts out the Kleptomaniac card, which no setup
    prints: its players would not have it. Once a setup prints it, the warning goes."""
    [finding] = [f for f in puppy.findings if f.code == "text-unprinted-card"]
    assert finding.level == "warning" and str(finding.where) == f"{IN_PUPPY}/game.yaml:207:25"
    assert finding.message == "variation 'Criminal Mind': needs card 'Kleptomaniac', which no setup prints"
    folder = game_copy("exploding_puppy")
    setups = folder / "setups.yaml"
    setups.write_text(setups.read_text(encoding="utf-8").replace('      "Nope": 8\n', '      "Nope": 8\n      "Kleptomaniac": 1\n', 1),
                      encoding="utf-8")
    assert text_findings(folder, "text-unprinted-card") == []

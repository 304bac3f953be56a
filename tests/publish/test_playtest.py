"""A playtest round: `cardgen diff --since REF` against a folder, a zip and a git revision finds
each seeded edit of Exploding Puppy and nothing else; `cards --changed-since` prints only what
the swap list puts in, after a page with the swap list; the rulebook ends with the changes since a
tag (those of a small round: the whole rulebook of Tiny Hazards is a few pages, Exploding Puppy's
twenty)."""
from __future__ import annotations

import collections
import json
import shutil
import subprocess
import zipfile

import pypdf
import pytest
from conftest import CARD_DATA, TINY_GAME, cardgen, edit, page_lines
from PIL import Image

from cardgen.check.languages import report_in
from cardgen.publish.check import check_folder
from cardgen.render.cards import form_name

NEW_CARD = '''cards:

  - name: "Fetch"
    color: gray
    flavor: "Good dog."
    text: "Take a card from the discard pile."
'''
GONE_CARD = '''cards:

  - name: "Old Trick"
    color: gray
    text: "Playtested out."
'''


def versions(root):
    """Exploding Puppy 1.1 and a 1.2 with one edit of each kind."""
    old, new = root / "old" / "exploding_puppy", root / "new" / "exploding_puppy"
    shutil.copytree(CARD_DATA / "exploding_puppy", old)
    for folder, color in ((old, (200, 30, 30)), ):
        (folder / "art").mkdir()
        Image.new("RGB", (600, 420), color).save(folder / "art" / "defuse.png")
    edit(old / "cards.yaml", "cards:\n", GONE_CARD)
    shutil.copytree(CARD_DATA / "exploding_puppy", new)
    (new / "art").mkdir()
    Image.new("RGB", (600, 420), (30, 30, 200)).save(new / "art" / "defuse.png")  # the art changes
    for folder in (old, new):
        edit(folder / "cards.yaml", '  - name: "Defuse"\n', '  - name: "Defuse"\n    art: art/defuse.png\n')
    edit(new / "game.yaml", 'version: "1.1"', 'version: "1.2"')
    edit(new / "cards.yaml", "Two turns, one bad decision.", "Two turns, one very bad decision.")  # Attack's flavor
    edit(new / "cards.yaml", "    number: 3\n", "    number: 4\n")  # Hobo Puppy's number
    edit(new / "cards.yaml", '  - name: "Bury"\n    color: blue', '  - name: "Bury"\n    color: green')
    edit(new / "cards.yaml", '  - name: "Cut"\n', '  - name: "Slice"\n    id: cut\n')  # renamed, same id
    edit(new / "cards.yaml", "cards:\n", NEW_CARD)
    text = (new / "setups.yaml").read_text(encoding="utf-8").replace('"Cut":', '"Slice":')
    text = text.replace('      "Nope": 8\n', '      "Nope": 9\n', 1)  # Basic: one Nope more
    (new / "setups.yaml").write_text(text, encoding="utf-8")
    lines = text.splitlines()
    default = lines.index("  - name: Default")
    dog = next(i for i in range(default, len(lines)) if lines[i].strip().startswith('"Dog":'))
    lines[dog] = '      "Dog": 30'  # Default: ten Dogs more
    (new / "setups.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return old, new


def small_versions(root):
    """Tiny Hazards 0.1 and a 0.2 with an edit of each kind the rulebook's changes name."""
    old, new = root / "old" / "tiny_game", root / "new" / "tiny_game"
    shutil.copytree(TINY_GAME, old)
    edit(old / "cards.yaml", "cards:\n", 'cards:\n  - {name: Old Trick, color: blue, text: "Playtested out."}\n')
    shutil.copytree(TINY_GAME, new)
    edit(new / "game.yaml", 'version: "0.1"', 'version: "0.2"')
    edit(new / "cards.yaml", 'flavor: "Hm?"', 'flavor: "Hm? Hm!"')  # Peek's flavor
    edit(new / "cards.yaml", '{name: "No",', '{name: "Nope", id: "no",')  # renamed, same id
    edit(new / "cards.yaml", "cards:\n", 'cards:\n  - {name: Fetch, color: blue, text: "Take a card back."}\n')
    edit(new / "setups.yaml", "no: 5", "Nope: 5")
    edit(new / "setups.yaml", "Boom: 5", "Boom: 6")
    edit(new / "setups.yaml", "Peek: 6", "Peek: 5")
    return old, new


@pytest.fixture(scope="module")
def rounds(tmp_path_factory):
    return versions(tmp_path_factory.mktemp("round"))


def diff_json(new, since) -> dict:
    code, out, err = cardgen("diff", new, "--since", since, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.fixture(scope="module")
def since_old(rounds) -> dict:
    """`diff --since` the old folder, as JSON (only read)."""
    old, new = rounds
    return diff_json(new, old)


def test_diff_finds_every_seeded_edit_and_nothing_else(rounds, since_old):
    _, new = rounds
    found = since_old
    cards = {(c["status"], c["name"], tuple(c["fields"])) for c in found["cards"]}
    assert cards == {("added", "Fetch", ()), ("removed", "Old Trick", ()), ("changed", "Attack", ("flavor",)),
                     ("changed", "Hobo Puppy", ("number",)), ("changed", "Bury", ("color",)),
                     ("changed", "Slice", ("name",)), ("changed", "Defuse", ("art",))}
    assert next(c for c in found["cards"] if c["name"] == "Slice")["old_name"] == "Cut"
    printed = {(c["setup"], c["card"], c["old"], c["new"]) for c in found["counts"] if c["players"] is None}
    assert printed == {("Basic", "Nope", 8, 9), ("Default", "Dog", 20, 30)}
    decks = {(c["setup"], c["card"]) for c in found["counts"] if c["players"] is not None}
    assert decks == {("Basic", "Nope"), ("Default", "Dog")}
    assert found["settings"] == ["version: 1.1 → 1.2"]
    assert found["rules"] == {"removed": 0, "added": 0} and not found["layout"]
    assert diff_json(new, new)["cards"] == []  # a version against itself: nothing


def git_repository(repo, old, new, tag="v1.1"):
    """A repository whose tag holds the old version and whose work tree holds the new."""
    game = repo / "games" / old.name
    shutil.copytree(old, game)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "1.1"], check=True)
    subprocess.run([*git, "tag", tag], check=True)
    shutil.rmtree(game)
    shutil.copytree(new, game)
    return game, git


@pytest.mark.slow
def test_diff_reads_a_zip_and_a_git_revision(rounds, since_old, tmp_path):
    old, new = rounds
    with zipfile.ZipFile(tmp_path / "old.zip", "w") as archive:
        for path in sorted(old.rglob("*")):
            archive.write(path, path.relative_to(old.parent))
    expected = since_old  # against the folder
    assert diff_json(new, tmp_path / "old.zip") == expected

    game, git = git_repository(tmp_path / "repo", old, new)
    status = subprocess.run([*git, "status", "--porcelain"], capture_output=True, text=True, check=True).stdout
    assert diff_json(game, "v1.1") == expected
    assert subprocess.run([*git, "status", "--porcelain"], capture_output=True, text=True).stdout == status

    code, _, err = cardgen("diff", game, "--since", "no-such-tag")
    assert code == 2 and "'no-such-tag' is neither a game folder, a zip of one, nor a git revision" in err
    broken = tmp_path / "broken" / "exploding_puppy"
    shutil.copytree(old, broken)
    edit(broken / "cards.yaml", "color: red", "color: redd")
    code, _, err = cardgen("diff", new, "--since", broken)
    assert code == 1 and "does not load cleanly" in err and "unknown color 'redd'" in err and "Traceback" not in err


@pytest.mark.slow
def test_the_reprint_holds_what_the_swap_list_puts_in(rounds, tmp_path):
    old, new = rounds
    code, out, err = cardgen("cards", new, "--changed-since", old, "--setup", "Basic", "--out", tmp_path)
    assert code == 0, err
    swaps = ["take out 8 × Attack (old), put in 8 × Attack (new)", "add 1 × Nope",
             "take out 2 × Bury (old), put in 2 × Bury (new)", "take out 2 × Cut (old), put in 2 × Slice (new)",
             "take out 10 × Defuse (old), put in 10 × Defuse (new)"]  # 2 in the deck, 1 for each of 8
    assert sorted(line.strip() for line in out.splitlines()[1:]) == sorted(swaps)
    reader = pypdf.PdfReader(tmp_path / "cards-basic-reprint.pdf")
    first = reader.pages[0].extract_text()
    assert "Reprint: Basic: from 1.1 to 1.2" in first and all(line in first for line in swaps)
    faces = collections.Counter()
    for page in reader.pages[2::2]:  # the swap list, its blank back, then faces and backs
        for name in page["/Resources"].get("/XObject", {}):
            if name.startswith("/FormXob.face"):
                faces[name] += page.get_contents().get_data().count(f"{name} Do".encode())
    expected = {"attack": 8, "nope": 1, "bury": 2, "cut": 2, "defuse": 10}
    assert faces == {f"/FormXob.{form_name('face', card)}": n for card, n in expected.items()}
    code, out, err = cardgen("cards", new, "--changed-since", old, "--setup", "Basic", "--lang", "de", "--out", tmp_path)
    assert code == 0, err
    first = " ".join(pypdf.PdfReader(tmp_path / "de" / "cards-basic-reprint.pdf").pages[0].extract_text().split())
    assert "Nachdruck: Grundspiel: von 1.1 zu 1.2" in first and "1 × Nö hinzufügen" in first
    assert "8 × Angriff (alt) herausnehmen, 8 × Angriff (neu) hineinlegen" in first
    code, _, err = cardgen("cards", new, "--changed-since", old, "--setup", "Nope", "--out", tmp_path)
    assert code == 2 and "no setup 'Nope'" in err and "Traceback" not in err
    for other in ("--calibration", "--all-types"):  # a reprint is neither: said, not silently ignored
        code, _, err = cardgen("cards", new, "--changed-since", old, other, "--out", tmp_path)
        assert code == 2 and f"argument {other}: not allowed with argument --changed-since" in err


@pytest.mark.slow
def test_the_visual_diff_shows_old_and_new_side_by_side(rounds, tmp_path):
    old, new = rounds
    code, _, err = cardgen("diff", new, "--since", old, "--pdf", "--out", tmp_path)
    assert code == 0, err
    reader = pypdf.PdfReader(tmp_path / "diff-since-exploding-puppy.pdf")
    texts = [page.extract_text() for page in reader.pages]
    changed = [t for t in texts if t.startswith("Changed:")]
    assert len(changed) == 5 and len(reader.pages) == 7  # 5 changed cards, the added one, the removed one
    attack = next(t for t in changed if t.startswith("Changed: Attack: flavor"))
    assert "old" in attack and "new" in attack and "very" in attack  # the inserted word
    for page, text in zip(reader.pages, texts):
        if text.startswith("Changed:"):
            assert len(page.images) == 2  # the old face and the new, as printed
    assert any(t.startswith("Added: 1 card") and "Fetch" in t for t in texts)
    assert any(t.startswith("Removed: 1 card") and "Old Trick" in t for t in texts)


def test_the_visual_diff_shows_every_changed_text_the_rulebooks_details_too(game_copy, tmp_path):
    """A card whose only change is its rulebook explanation (`details`, not printed on the card):
    the diff names it, and its page shows the words of the explanation that changed."""
    old, new = game_copy(TINY_GAME, "old"), game_copy(TINY_GAME, "new")
    for folder, details in ((old, "Then put them back."), (new, "Then put them back in any order.")):
        edit(folder / "cards.yaml", 'text: "Look at the top (2) cards."}',
             f'text: "Look at the top (2) cards.", details: "{details}"}}')
    code, _, err = cardgen("diff", new, "--since", old, "--pdf", "--out", tmp_path)
    assert code == 0, err
    texts = [page.extract_text() for page in pypdf.PdfReader(tmp_path / "diff-since-old.pdf").pages]
    assert len(texts) == 1 and texts[0].startswith("Changed: Peek: details"), texts
    assert " ".join(texts[0].split()).endswith("details: Then put them back. back in any order.")  # a word struck, three added


@pytest.mark.slow
def test_the_rulebook_ends_with_the_changes_since_a_tag(rounds, tmp_path):
    small, _ = git_repository(tmp_path / "small", *small_versions(tmp_path), tag="v0.1")
    edit(small / "game.yaml", 'version: "0.2"', 'version: "0.2"\nchanges_since: v0.1')
    code, _, err = cardgen("rulebook", small, "--out", tmp_path / "out")
    assert code == 0, err
    text = "\n".join(page_lines(tmp_path / "out" / "rulebook.pdf"))
    changes = text[text.rindex("Changes in version 0.2"):]
    for line in ("Nope (was No): name changed", "Peek: flavor changed", "Fetch: a new card",
                 "Old Trick: no longer in the game", "Starter: Boom 5 → 6 copies", "Starter: Peek 6 → 5 copies"):
        assert line in changes, line
    old, new = rounds
    game, _ = git_repository(tmp_path / "repo", old, new)
    edit(game / "game.yaml", 'version: "1.2"', 'version: "1.2"\nchanges_since: v1.1')
    assert cardgen("check", game)[0] == 0
    in_german = report_in(check_folder(game).report, "de")  # what the German rulebook's changes say
    german, words = in_german.changes, in_german.game.words
    assert ("Angriff", ("Stimmungstext",)) in [(c.name, tuple(map(words.gettext, c.fields))) for c in german.cards]
    assert {(c.setup, c.name, c.old, c.new) for c in german.counts if c.players is None} >= {
        ("Grundspiel", "Nö", 8, 9), ("Standard", "Hund", 20, 30)}
    edit(game / "game.yaml", "changes_since: v1.1", "changes_since: v0.9")
    code, out, _ = cardgen("check", game)
    assert code == 1 and "exploding_puppy/game.yaml:7:16: error: changes_since: 'v0.9'" in out
    assert "[bad-changes-since]" in out

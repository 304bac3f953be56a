"""render/documents: the rulebook and checklists read back from real PDFs, escaping, the
local-only URL fetcher and template errors."""
from __future__ import annotations

import http.server
import re
import threading
from pathlib import Path

import pypdf
import pytest
from conftest import TEST_DATA, TINY_GAME, checked, each_shipped_game, edit, page_lines

from cardgen.errors import BuildError, UsageError
from cardgen.render import documents

TOC_LINE = re.compile(r"^(\d+(?:\.\d+)*) (.+?) (\d+)$")




SYMBOLS = re.compile(r" ?[\ue000-\uf8ff]")  # the symbol font's characters (Private Use Area)


def page_texts(path: Path) -> list[str]:
    """Each page's text in lines, without the symbols set in the symbol font."""
    return [SYMBOLS.sub("", text) for text in page_lines(path)]


def flat(text: str) -> str:
    """Text without line breaks or hyphenation, for searching sentences and names."""
    return re.sub(r"\s+", " ", re.sub(r"-\n", "", text))


@pytest.fixture(scope="module")
def puppy(puppy_rulebook):
    game, report, path = puppy_rulebook
    return game, report, path, page_texts(path)


# --------------------------------------------------------------------------- the rulebook


@pytest.mark.slow
def test_rulebook_contains_every_card_and_setup(puppy):
    game, report, _, pages = puppy
    text = flat("\n".join(pages))
    for card in game.cards:
        assert card.name in text, card.name
    for setup in game.setups:
        assert setup.name in text
        assert setup.blurb in text


def test_rulebook_follows_the_source_structure(puppy):
    _, _, _, pages = puppy
    contents = [TOC_LINE.match(line) for line in pages[1].splitlines()]
    entries = [(m.group(1), m.group(2)) for m in contents if m]
    titles = [f"{n} {t}" for n, t in entries]
    for expected in ("1 Overview", "1.3 Structure of a card", "2.6 Nomenclature", "3 Card Explanations",
                     "3.1.1 Puppys", "3.1.2 Non-puppy", "3.9 Special", "4 Deck Setups", "4.6 Life and Death",
                     "5 Advanced Rules and Variations"):
        assert expected in titles


def test_contents_page_numbers_match_the_pages(puppy):
    _, _, _, pages = puppy
    entries = [TOC_LINE.match(line) for line in pages[1].splitlines()]
    entries = [m for m in entries if m]
    assert len(entries) >= 30
    for match in entries:
        number, title, page = match.group(1), match.group(2), int(match.group(3))
        heading = f"{number} {title}"
        lines = [line.strip() for line in pages[page - 1].splitlines()]
        # a heading's symbol reads as its name ("3.1 Black Black"): the number, then the title at the end
        assert any(line.startswith(number + " ") and line.endswith(title) for line in lines), \
            f"'{heading}' not on page {page}"


def test_rulebook_has_outline_and_page_numbers(puppy):
    _, _, path, pages = puppy
    top = [entry["/Title"] for entry in pypdf.PdfReader(path).outline if not isinstance(entry, list)]
    assert top == ["1 Overview", "2 Gameplay Rules", "3 Card Explanations", "4 Deck Setups",
                   "5 Advanced Rules and Variations"]
    for number, text in enumerate(pages[2:], start=3):
        assert text.rstrip().endswith(str(number))


def test_every_setup_count_table_is_in_the_rulebook(puppy):
    game, report, _, pages = puppy
    text = flat("\n".join(pages))
    for setup_report in report.setups:
        assert f"{setup_report.total} cards" in text


def test_editing_a_card_changes_the_rulebook(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    cards = folder / "cards.yaml"
    source = cards.read_text(encoding="utf-8")
    old = "Cancel an action."
    assert old in source
    cards.write_text(source.replace(old, "Zebras are quietly judging everyone."), encoding="utf-8")
    game, report = checked(folder)
    text = flat("\n".join(page_texts(documents.write_rulebook(game, report, tmp_path / "out"))))
    assert "Zebras are quietly judging everyone." in text
    assert old not in text


def test_a_game_without_rules_md_gets_generated_chapters(tmp_path):
    game, report = checked(TINY_GAME)
    pages = page_texts(documents.write_rulebook(game, report, tmp_path))
    contents = pages[1]
    assert "1 Cards" in contents and "2 Deck Setups" in contents
    text = flat("\n".join(pages))
    for card in game.cards:
        assert card.name in text
    assert "Take out the hazards." in text  # the setup steps, as no prose describes them


@pytest.mark.parametrize("name", each_shipped_game())
def test_every_game_renders(name, shipped_document):
    game, report = checked(name)
    assert not report.has_errors, [str(f) for f in report.every_finding() if f.level == "error"]
    # its rulebook and checklists, built by the commands
    assert game.title in page_texts(shipped_document(name, "rulebook.pdf"))[0]
    assert game.setups and shipped_document(name, "checklists.pdf").is_file()


@pytest.mark.slow
def test_an_inline_symbol_in_card_text_is_the_symbol_in_the_documents_too(game_copy, tmp_path):
    folder = game_copy("starter")
    game, report = checked(folder)
    dragon = next(card for card in game.cards if card.name == "Dragon")
    assert ":star:" in dragon.text
    text = "\n".join(page_lines(documents.write_rulebook(game, report, tmp_path)))
    # the star is the Treasure color's symbol: in a tagged PDF it reads as the color's name
    assert "Discard all your Treasure Treasure" in flat(text)
    assert ":star:" not in text


def test_same_input_same_bytes(tmp_path):
    game, report = checked(TINY_GAME)
    first = documents.render_pdf(game, "rulebook.html", documents.rulebook_context(game, report))
    second = documents.render_pdf(game, "rulebook.html", documents.rulebook_context(game, report))
    assert first == second


def test_letter_paper(tmp_path):
    game, report = checked(TINY_GAME)
    path = documents.write_rulebook(game, report, tmp_path, paper="letter")
    box = pypdf.PdfReader(path).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)


# --------------------------------------------------------------------------- checklists


def test_checklists_a_page_per_setup_and_player_count(puppy_checklists):
    game, report, path = puppy_checklists
    pages = iter(page_texts(path))
    for setup in report.setups:  # every count deals differently here: a page each, in turn
        for played in setup.players:
            text = flat(next(pages))
            assert setup.setup.name in text and f"Set up for {played.players} players" in text
    assert next(pages, None) is None


@pytest.mark.slow
def test_player_counts_whose_pages_read_the_same_share_one(game_copy, tmp_path):
    folder = game_copy(TEST_DATA / "task_tricks")
    edit(folder / "setups.yaml", "players: {min: 3, max: 3}", "players: {min: 3, max: 5}")

    def players_shown() -> list[str]:
        game, report = checked(folder)
        return [re.search(r"Set up for ([\d–]+) players", flat(text)).group(1)
                for text in page_texts(documents.write_checklists(game, report, tmp_path))]
    assert players_shown() == ["3", "4", "5"]  # the deal differs by player count
    edit(folder / "game.yaml", "    - deal: {from: deck, count: hand}\n      text: Deal the playing cards.\n", "")
    assert players_shown() == ["3–5"]  # the task cards alone: laid out alike for 3 to 5 players


def test_checklist_numbers_for_a_chosen_player_count(puppy, tmp_path):
    game, report, _, _ = puppy
    pages = page_texts(documents.write_checklists(game, report, tmp_path, setup="Basic", players=4))
    assert len(pages) == 1
    text = flat(pages[0])
    assert re.search(r"Defuse 6\b", text)  # 2 in the table + 1 for each of 4 players
    assert "→ 30 cards, picked at random" in text  # 10 set aside for each player below 7 (random: true)
    player_count = report.setup("Basic").player_count(4)
    assert f"Draw pile {documents.format_number(player_count.draw_pile)} cards" in text


def test_checklist_refuses_a_player_count_outside_the_setup(puppy, tmp_path):
    game, report, _, _ = puppy
    with pytest.raises(UsageError, match="3–8 players, not 12"):
        documents.write_checklists(game, report, tmp_path, setup="Basic", players=12)


# --------------------------------------------------------------------------- escaping


def test_names_and_text_from_the_data_appear_literally(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    evil = "Peek <b>bold</b> {{ 7*7 }}"
    for name in ("cards.yaml", "setups.yaml"):
        path = folder / name
        path.write_text(path.read_text().replace("Peek", f'"{evil}"'), encoding="utf-8")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace('text: "Cancel an action."',
                                               'text: "Cancel <script>alert(1)</script> {% raw %}"'))
    game, report = checked(folder)
    text = flat("\n".join(page_texts(documents.write_rulebook(game, report, tmp_path))))
    assert evil in text
    assert "Cancel <script>alert(1)</script> {% raw %}" in text
    assert "49" not in text


def test_markdown_raw_html_is_escaped():
    game, _ = checked(TINY_GAME)
    html = str(documents.markdown_html("**ok** <img src=x onerror=alert(1)>", game))
    assert "<strong>ok</strong>" in html
    assert "<img" not in html and "&lt;img" in html


# --------------------------------------------------------------------------- nothing leaves the sandbox


@pytest.fixture
def web_server():
    """A local HTTP server that counts the requests it gets."""
    hits = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/css")
            self.end_headers()
            self.wfile.write(b"body { color: red }")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", hits
    server.shutdown()
    server.server_close()


def _with_details(folder: Path, details: str) -> None:
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace(
        'text: "You are out."', f'text: "You are out.", details: "{details}"'), encoding="utf-8")


@pytest.mark.parametrize("target", ["../../etc/passwd", "{url}/image.png", "data:image/png;base64,iVBORw0KGgo="])
def test_images_in_card_details_are_refused(target, game_copy, web_server, tmp_path):
    url, hits = web_server
    folder = game_copy(TINY_GAME)
    target = target.format(url=url)
    _with_details(folder, f"See ![diagram]({target})")
    game, report = checked(folder)
    with pytest.raises(BuildError) as caught:
        documents.write_rulebook(game, report, tmp_path)
    assert target in str(caught.value)
    assert "card 'Boom'" in str(caught.value)
    assert hits == []
    assert not (tmp_path / "rulebook.pdf").exists()


def test_a_symlink_leading_out_of_the_game_folder_is_refused(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "innocent.png").symlink_to("/etc/passwd")
    _with_details(folder, "![x](innocent.png)")
    game, report = checked(folder)
    with pytest.raises(BuildError, match="innocent.png.*outside the game folder"):
        documents.write_rulebook(game, report, tmp_path)


@pytest.mark.parametrize("css", ['@import url("{url}/remote.css");',
                                 'body {{ background: url("{url}/bg.png"); }}',
                                 'body {{ background: url("../../../../../../etc/passwd"); }}',
                                 'body {{ background: url("file:///etc/passwd"); }}',
                                 '@font-face {{ font-family: X; src: url("{url}/font.ttf"); }} body {{ font-family: X; }}'])
def test_urls_in_game_css_are_refused(css, game_copy, web_server, tmp_path):
    url, hits = web_server
    folder = game_copy(TINY_GAME)
    (folder / "templates").mkdir()
    (folder / "templates" / "game.css").write_text(css.format(url=url), encoding="utf-8")
    game, report = checked(folder)
    with pytest.raises(BuildError, match="refused to fetch"):
        documents.write_rulebook(game, report, tmp_path)
    assert hits == []


def test_files_inside_the_game_folder_are_served(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "art").mkdir()
    (folder / "art" / "dot.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle cx="5" cy="5" r="4"/></svg>')
    _with_details(folder, "Look: ![dot](art/dot.svg)")
    game, report = checked(folder)
    assert documents.write_rulebook(game, report, tmp_path).is_file()


# --------------------------------------------------------------------------- templates


def test_a_game_template_overrides_and_extends_the_shared_one(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "templates").mkdir()
    (folder / "templates" / "rulebook.html").write_text(
        '{% extends "base.html" %}\n{% block body %}<h1>Custom {{ game.title }}</h1>{% endblock %}\n')
    game, report = checked(folder)
    pages = page_texts(documents.write_rulebook(game, report, tmp_path))
    assert pages == ["Custom Tiny Hazards\n1"] or "Custom Tiny Hazards" in pages[0]


def test_a_typo_in_a_template_names_template_and_line(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "templates").mkdir()
    (folder / "templates" / "rulebook.html").write_text(
        '{% extends "base.html" %}\n{% block body %}\n<h1>{{ game.title }}</h1>\n{{ gmae.title }}\n{% endblock %}\n')
    game, report = checked(folder)
    with pytest.raises(BuildError) as caught:
        documents.write_rulebook(game, report, tmp_path)
    message = str(caught.value)
    assert message.startswith("tiny_game/templates/rulebook.html:4: ")  # relative to the game folder's parent
    assert "gmae" in message


def test_a_template_syntax_error_names_template_and_line(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "templates").mkdir()
    (folder / "templates" / "rulebook.html").write_text('{% extends "base.html" %}\n{% block body %}\n{% if %}\n')
    game, report = checked(folder)
    with pytest.raises(BuildError, match=r"^tiny_game/templates/rulebook.html:3: "):
        documents.write_rulebook(game, report, tmp_path)


def test_templates_run_in_the_sandbox(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "templates").mkdir()
    (folder / "templates" / "rulebook.html").write_text(
        "{{ game.__class__.__init__.__globals__ }}\n")
    game, report = checked(folder)
    with pytest.raises(BuildError, match="rulebook.html:1"):
        documents.write_rulebook(game, report, tmp_path)


def test_bad_css_is_a_failure_not_a_log_line(game_copy, tmp_path):
    folder = game_copy(TINY_GAME)
    (folder / "templates").mkdir()
    (folder / "templates" / "game.css").write_text("body { colr: red; }")
    game, report = checked(folder)
    with pytest.raises(BuildError, match="colr"):
        documents.write_rulebook(game, report, tmp_path)


def test_setup_tables_show_the_balance_figures(puppy):
    game, report, _, pages = puppy
    basic = next(page for page in pages if "A good starter." in page and "on 1st draw" in page)
    # Basic, 3 to 8 players: 8 puppies in draw piles of 32, 36, 40, 44, 48 and 42 cards
    assert re.search(r"Puppy on 1st draw ((?:\d+% ?)+)", basic).group(1).split() == [
        "25%", "22%", "20%", "18%", "17%", "19%"]
    assert "Defuse each (+ pile) 1 +2" in basic

"""`cardgen serve` in a real browser (headless Chromium from the distribution, driven by selenium
through the system chromedriver: nothing is downloaded), and stopped with Ctrl-C."""
from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pypdf
import pytest
from conftest import ROOT, TEST_DATA, edit, headless_chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from cardgen.render.documents.weasy import SEALED

pytestmark = pytest.mark.slow  # starts servers and a browser

class Served:
    """`cardgen serve GAME --port 0` in a subprocess whose temporary files go to `tmp`."""

    def __init__(self, game: Path, tmp: Path, *options: str):
        self.tmp = tmp
        tmp.mkdir()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp)}
        self.process = subprocess.Popen([sys.executable, "-m", "cardgen", "serve", str(game), "--port", "0", *options],
                                        env=env, stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert match, line + self.process.stderr.read() if not match and self.process.poll() is not None else line
        self.url = match.group()

    def interrupt(self, within: float = 60) -> tuple[int, str]:
        """Ctrl-C: the exit code and what it printed (within that many seconds); no process or
        temporary file is left."""
        workers = descendants(self.process.pid)
        self.process.send_signal(signal.SIGINT)
        code = self.process.wait(timeout=within)
        said = self.process.stderr.read()
        time.sleep(0.2)
        assert not {pid for pid in workers if _alive(pid)}, said
        assert list(self.tmp.iterdir()) == [], said
        return code, said


def descendants(pid: int) -> set[int]:
    """The processes started under `pid` (a server's document workers), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int(re.search(r"^PPid:\s*(\d+)", (entry / "status").read_text(), re.M).group(1))
            except (OSError, AttributeError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = re.search(r"^State:\s*(\w)", Path(f"/proc/{pid}/status").read_text(), re.M).group(1)
    except (OSError, AttributeError):
        return False
    return state != "Z"


@pytest.fixture
def browser():
    with headless_chromium() as driver:
        yield driver


def text_of(driver, selector: str) -> str:
    found = driver.find_elements(By.CSS_SELECTOR, selector)
    return found[0].text if found else ""


def test_the_page_follows_every_save_and_shows_data_errors_beside_the_last_good_cards(game_copy, tmp_path, browser):
    game = game_copy()
    served = Served(game, tmp_path / "tmp")
    try:
        wait = WebDriverWait(browser, 20, poll_frequency=0.1)
        browser.get(served.url)
        card = 'figure[data-card="boom"] img'
        total = '.setup[data-setup="Starter"] .total'
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, card) and text_of(d, total) == "20")
        image = browser.find_element(By.CSS_SELECTOR, card)
        old_src = image.get_attribute("src")
        assert "You are out." in image.get_attribute("alt")
        assert browser.execute_script("return arguments[0].naturalWidth", image) > 100  # the PNG loaded

        cards, setups = game / "cards.yaml", game / "setups.yaml"
        cards.write_text(cards.read_text().replace("You are out.", "You are out, sorry."))
        setups.write_text(setups.read_text().replace("Boom: 5", "Boom: 6"))
        wait.until(lambda d: "sorry" in d.find_element(By.CSS_SELECTOR, card).get_attribute("alt")
                   and text_of(d, total) == "21")
        image = browser.find_element(By.CSS_SELECTOR, card)
        assert image.get_attribute("src") != old_src
        wait.until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image))
        assert "table-size" in text_of(browser, "#report")  # the engine's warning about the new total

        good_src = image.get_attribute("src")
        cards.write_text(cards.read_text().replace("color: red", "color: crimson", 1))
        wait.until(lambda d: "crimson" in text_of(d, "#errors"))
        assert re.search(r"cards\.yaml:2:\d+", text_of(browser, "#errors"))
        assert browser.find_element(By.CSS_SELECTOR, card).get_attribute("src") == good_src
    finally:
        code, said = served.interrupt()
    assert code == 0, said


def test_ctrl_c_while_building_leaves_no_process_and_no_temporary_file(game_copy, tmp_path):
    served = Served(game_copy(), tmp_path / "tmp")
    deadline = time.monotonic() + 20
    while not descendants(served.process.pid) and time.monotonic() < deadline:  # the document workers started
        time.sleep(0.05)
    assert descendants(served.process.pid)
    code, said = served.interrupt()
    assert code == 0, said
    assert "stopped" in said


def test_ctrl_c_cancels_the_document_being_built(game_copy, tmp_path):
    """A rulebook of a hundred pages takes WeasyPrint many seconds: Ctrl-C does not wait for it
    (it stops within a second; the bound here only tells that from waiting for the rulebook)."""
    game = game_copy()
    (game / "rules.md").write_text("# Rules\n\n" + "".join(
        f"Paragraph {i}: draw a card, then another, and say what it does to the table.\n\n" for i in range(3000)))
    served = Served(game, tmp_path / "tmp")
    deadline = time.monotonic() + 60
    while not descendants(served.process.pid) and time.monotonic() < deadline:  # the document workers started
        time.sleep(0.05)
    assert descendants(served.process.pid)
    code, said = served.interrupt(within=10)
    assert code == 0 and "stopped" in said, said


def test_serve_since_shows_the_changes_beside_the_documents(game_copy, tmp_path):
    """`serve --since`: the visual diff is one of the documents, rebuilt from the data."""
    old = game_copy(name="old_tiny")
    new = game_copy()
    for game in (old, new):  # no setups: the documents are the rulebook (then the diff), no checklists
        (game / "setups.yaml").unlink()
    edit(new / "cards.yaml", '"Cancel an action."', '"Cancel any action."')
    served = Served(new, tmp_path / "tmp", "--since", str(old))
    try:
        deadline, diff = time.monotonic() + 60, None
        while diff is None and time.monotonic() < deadline:
            state = json.loads(urllib.request.urlopen(served.url + "state.json", timeout=10).read())
            diff = next((d["file"] for d in state["documents"] if d["file"].startswith("diff-since-")), None)
            time.sleep(0.2)
        assert diff == "diff-since-old-tiny.pdf", state
        pdf = urllib.request.urlopen(served.url + "documents/" + diff, timeout=10).read()
        text = pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
        assert text.startswith("Changed: No: text") and "any" in text
    finally:
        assert served.interrupt()[0] == 0


def test_serve_switches_between_the_games_languages(game_copy, tmp_path):
    """The page's language choice (GET /language/<code>): cards, report and documents in French."""
    game = game_copy(TEST_DATA / "petit_jeu")
    # without its cheat sheet (the end of game.yaml and of its translation), whose French
    # test_languages reads: the preview builds the rulebook and checklists in each language
    for path, cheatsheet in ((game / "game.yaml", "\nreference:\n  cheatsheet:\n"), (game / "i18n" / "fr.yaml", "\ncheatsheet:\n")):
        text = path.read_text(encoding="utf-8")
        path.write_text(text[:text.index(cheatsheet) + 1], encoding="utf-8")
    served = Served(game, tmp_path / "tmp")
    try:
        state = _state_when(served, lambda s: s["status"] == "ready")
        assert state["languages"] == ["en", "fr"] and state["language"] == "en" and state["title"] == "Tiny Hazards"
        assert urllib.request.urlopen(served.url + "language/fr", timeout=10).status == 200
        state = _state_when(served, lambda s: s["language"] == "fr" and s["status"] == "ready" and s["documents"])
        assert state["title"] == "Petits Hasards" and state["setups"] == ["Débutant"]
        assert [d["file"] for d in state["documents"]] == ["checklists.pdf", "rulebook.pdf"]
        assert [c["name"] for c in state["cards"]] == ["Explosion", "Bouclier", "Coup d’œil", "Non"]
        pdf = urllib.request.urlopen(served.url + "documents/checklists.pdf", timeout=10).read()
        assert "Réunir les cartes" in pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
        edition = urllib.request.urlopen(served.url + "documents/rulebook.html", timeout=10)  # the HTML edition
        assert edition.headers["Content-Type"].startswith("text/html") and b'<html lang="fr">' in edition.read()
        assert edition.headers["Content-Security-Policy"] == SEALED  # a game's template runs nothing here either
        # back to English: its documents, unchanged, are reused and listed again
        assert urllib.request.urlopen(served.url + "language/en", timeout=10).status == 200
        state = _state_when(served, lambda s: s["language"] == "en" and s["status"] == "ready" and s["documents"])
        assert state["title"] == "Tiny Hazards" and [d["file"] for d in state["documents"]] == ["checklists.pdf",
                                                                                               "rulebook.pdf"]
        pdf = urllib.request.urlopen(served.url + "documents/checklists.pdf", timeout=10).read()
        assert "Gather the cards" in pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
        try:
            urllib.request.urlopen(served.url + "language/de", timeout=10)
            raise AssertionError("a language the game does not have was chosen")
        except urllib.error.HTTPError as exc:
            assert exc.code == 404
    finally:
        assert served.interrupt()[0] == 0


def _state_when(served, condition, seconds: float = 60):
    deadline = time.monotonic() + seconds
    while True:
        state = json.loads(urllib.request.urlopen(served.url + "state.json", timeout=10).read())
        if condition(state) or time.monotonic() > deadline:
            return state
        time.sleep(0.2)

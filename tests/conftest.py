"""Shared fixtures and helpers: the real game data, copies of game folders to break or edit, the
engine's report of a game and the text of a PDF's pages."""
from __future__ import annotations

import contextlib
import fcntl
import functools
import gc
import hashlib
import io
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pypdfium2
import pytest
from hypothesis import settings
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from cardgen import cli
from cardgen.check.game import check_game
from cardgen.layout.sheet import Sheet, make_sheet
from cardgen.load import load_game
from cardgen.model.sizes import DEFAULT_BLEED_MM, DEFAULT_PAPER

ROOT = Path(__file__).resolve().parent.parent
CARD_DATA = ROOT / "card_data"
TEST_DATA = Path(__file__).resolve().parent / "data"
TINY_GAME = TEST_DATA / "tiny_game"

# Hypothesis: on CI every run tries the same examples (derandomized), so a red run can be replayed
# and a green one is not luck; `HYPOTHESIS_PROFILE=long` runs the fuzzers with ten times the
# examples (see README, "Working on cardgen").
settings.register_profile("ci", derandomize=True)
settings.register_profile("long")
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default")
settings.load_profile(PROFILE)
FUZZ_SCALE = 10 if PROFILE == "long" else 1  # the fuzzers' budgets are multiplied by it


def page_texts(path: Path) -> list[str]:
    """Each page's text, read back with PDFium: as faithful as pypdf's extract_text and a hundred
    times faster on card sheets (whose pages repeat forms and outlined titles)."""
    document = pypdfium2.PdfDocument(path)
    try:
        return [page.get_textpage().get_text_range() for page in document]
    finally:
        document.close()


def page_chars(path: Path) -> list[list[dict]]:
    """Each page's drawn characters, read back with PDFium, as pdfplumber names them (text, size,
    x0, x1, y0, y1 from the bottom-left, the box from the font's ascent to its descent) but some
    fifty times faster."""
    import pypdfium2.raw as pdfium

    document = pypdfium2.PdfDocument(path)
    try:
        pages = []
        for page in document:
            text = page.get_textpage()
            chars = []
            for i in range(text.count_chars()):
                character = text.get_text_range(i, 1)
                if character.strip():
                    x0, y0, x1, y1 = text.get_charbox(i, loose=True)
                    chars.append({"text": character, "size": pdfium.FPDFText_GetFontSize(text.raw, i),
                                  "x0": x0, "x1": x1, "y0": y0, "y1": y1})
            pages.append(chars)
        return pages
    finally:
        document.close()


def page_fonts(path: Path) -> tuple[list[list[tuple[str, str]]], int]:
    """Each page's drawn characters with the name of the font each is set in, as pdfplumber's
    chars' "text" and "fontname" (a glyph a tagged PDF gives a text of its own, a symbol reading
    as its name, is one character holding that text), and how many images the pages place (in
    forms too), read with PDFium."""
    import ctypes

    import pypdfium2.raw as pdfium

    document = pypdfium2.PdfDocument(path)
    name, flags = ctypes.create_string_buffer(256), ctypes.c_int()
    try:
        pages, images = [], 0
        for page in document:
            text = page.get_textpage()
            chars: list[tuple[str, str, tuple]] = []
            for i in range(text.count_chars()):
                character = text.get_text_range(i, 1)
                if character.strip() and pdfium.FPDFText_IsGenerated(text.raw, i) != 1:
                    pdfium.FPDFText_GetFontInfo(text.raw, i, name, len(name), ctypes.byref(flags))
                    font, box = name.value.decode(), text.get_charbox(i)
                    if chars and chars[-1][1:] == (font, box):  # the next letter of one glyph's text
                        chars[-1] = (chars[-1][0] + character, font, box)
                    else:
                        chars.append((character, font, box))
            pages.append([(character, font) for character, font, _ in chars])
            images += len(list(page.get_objects(filter=(pdfium.FPDF_PAGEOBJ_IMAGE,), max_depth=16)))
        return pages, images
    finally:
        document.close()


def page_words(path: Path) -> list[list[dict]]:
    """Each page's words, read back with PDFium, as pdfplumber's extract_words gives them (text,
    size, x0, x1, and y0, y1 from the bottom-left) but many times faster: the characters in the
    order they are drawn, a word ending at a space, a new line or a gap of more than 3 pt."""
    import pypdfium2.raw as pdfium

    document = pypdfium2.PdfDocument(path)
    try:
        pages = []
        for page in document:
            text = page.get_textpage()
            words: list[dict] = []
            last = None
            for i in range(text.count_chars()):
                character = text.get_text_range(i, 1)
                if not character.strip():
                    last = None
                    continue
                x0, y0, x1, y1 = text.get_charbox(i, loose=True)
                if last is None or abs(y0 - last["y0"]) > 3 or x0 - last["x1"] > 3 or x0 < last["x0"]:
                    last = {"text": "", "size": 0.0, "x0": x0, "x1": x1, "y0": y0, "y1": y1}
                    words.append(last)
                last["text"] += character
                last["size"] = max(last["size"], pdfium.FPDFText_GetFontSize(text.raw, i))
                last.update(x1=max(last["x1"], x1), y1=max(last["y1"], y1), y0=min(last["y0"], y0))
            pages.append(words)
        return pages
    finally:
        document.close()


def page_lines(path: Path) -> list[str]:
    """Each page's text laid out in lines as pdfplumber's extract_text gives it (words whose tops
    lie within 3 pt of the last one's on one line, left to right), read with PDFium in a tenth of
    the time: as a page shows it, columns side by side, where page_texts gives the text in the
    order it is drawn."""
    import pypdfium2.raw as pdfium

    document = pypdfium2.PdfDocument(path)
    try:
        pages = []
        for page in document:
            text = page.get_textpage()
            words: list[list] = []  # [top, x0, x1, text], the characters drawn one after the other
            for i in range(text.count_chars()):
                if pdfium.FPDFText_IsGenerated(text.raw, i) == 1:  # a space or line end PDFium put in
                    continue
                character = text.get_text_range(i, 1)
                if character.isspace():
                    words.append([])
                    continue
                x0, _, x1, top = text.get_charbox(i, loose=True)
                word = words[-1] if words else []
                if not word or abs(word[0] - top) > 3 or x0 - word[2] > 3 or x0 < word[1]:
                    word = [top, x0, x1, ""]
                    words.append(word)
                word[2] = max(word[2], x1)
                word[3] += "-" if character == "\ufffe" else character  # PDFium marks a hyphen at a break so
            lines: list[list[list]] = []
            for word in sorted((w for w in words if w), key=lambda w: -w[0]):
                if lines and lines[-1][-1][0] - word[0] <= 3:
                    lines[-1].append(word)
                else:
                    lines.append([word])
            pages.append("\n".join(" ".join(w[3] for w in sorted(line, key=lambda w: w[1])) for line in lines))
        return pages
    finally:
        document.close()


def words_in(chars: list[dict], x0: float, y0: float, x1: float, y1: float) -> str:
    """The characters inside a box (PDF coordinates), as words in reading order."""
    inside = [c for c in chars if x0 <= (c["x0"] + c["x1"]) / 2 <= x1 and y0 <= (c["y0"] + c["y1"]) / 2 <= y1]
    inside.sort(key=lambda c: (-round(c["y0"]), c["x0"]))
    words, last = [], None
    for c in inside:
        gap = last is None or abs(c["y0"] - last["y0"]) > 1 or c["x0"] - last["x1"] > 0.15 * c["size"]
        if gap:
            words.append("")
        words[-1] += c["text"]
        last = c
    return " ".join(words)


# --------------------------------------------------------------------------- outputs built once per run
# A rulebook takes seconds of WeasyPrint: what many tests only read is built once for the whole run,
# by the first worker (of pytest-xdist's) that needs it, into a folder beside the workers' own; a
# worker needing it meanwhile waits for it. Tests only read these folders (a test that changes a
# file copies it first): each worker checks at its end that no shared file was changed.


class SharedOutputs:
    """Folders built once per run and shared read-only by the tests of every worker."""

    def __init__(self, root: Path):
        self.root = root
        self.made: dict[Path, dict[str, str]] = {}  # folder -> its files' digests when built

    def _claim(self, name: str, make: Callable[[Path], None], wait: bool) -> Path | None:
        folder, done = self.root / f"shared-{name}", self.root / f"shared-{name}.done"
        with open(self.root / f"shared-{name}.lock", "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                return None  # another worker is building it
            if not done.exists():
                shutil.rmtree(folder, ignore_errors=True)  # what a failed attempt left
                folder.mkdir()
                make(folder)
                done.touch()
        self.made.setdefault(folder, digests(folder))
        return folder

    def get(self, name: str, make: Callable[[Path], None]) -> Path:
        """The folder `make(folder)` fills, built by whichever worker asks first."""
        return self._claim(name, make, wait=True)  # type: ignore[return-value]

    def get_all(self, makers: dict[str, Callable[[Path], None]]) -> dict[str, Path]:
        """Several folders, this worker building those no other worker is building and then waiting
        for the rest (two workers asking for the same list build half of it each)."""
        found = {name: self._claim(name, make, wait=False) for name, make in makers.items()}
        return {name: folder or self.get(name, makers[name]) for name, folder in found.items()}

    def check_unchanged(self) -> None:
        changed = [str(folder) for folder, files in self.made.items() if digests(folder) != files]
        assert not changed, f"a test changed a shared output (copy it before changing it): {changed}"


def digests(folder: Path) -> dict[str, str]:
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.fixture(scope="session")
def shared_outputs(tmp_path_factory):
    """Under pytest-xdist, the workers' base folders share their parent (one per run); without it,
    this run's own base folder."""
    base = tmp_path_factory.getbasetemp()
    shared = SharedOutputs(base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base)
    yield shared
    shared.check_unchanged()


@pytest.fixture(scope="session", autouse=True)
def renderers_ready(tmp_path_factory):
    """WeasyPrint imported and a tiny rulebook laid out in this process, once: the worker processes
    that the tests' builds fork inherit the libraries and their per-process caches, instead of each
    importing WeasyPrint and reading its fonts again (a second or more of CPU per worker, hundreds
    of workers a run). A user's `cardgen build` starts cold: the tests of whole processes
    (tests/e2e/test_cli.py, test_terminal.py, test_debris.py...) run it that way."""
    import weasyprint  # noqa: F401 - imported for the workers to inherit

    from cardgen.render import documents

    game, report = checked(TINY_GAME)
    documents.write_rulebook(game, report, tmp_path_factory.mktemp("renderers-ready"))
    # What this process holds now (the libraries, the test modules, pytest's own) is never garbage:
    # kept out of the cycle collector's passes, as the workers keep what they inherit.
    gc.collect()
    gc.freeze()


SHIPPED_GAMES = sorted(folder.name for folder in CARD_DATA.iterdir() if (folder / "game.yaml").is_file())


def each_shipped_game(quick: str = "exploding_puppy") -> list:
    """The shipped games as parameters, all but `quick` (whose documents the quick tests build anyway)
    marked slow: `-m "not slow"` checks one game, the whole suite every game."""
    return [pytest.param(name, marks=() if name == quick else pytest.mark.slow) for name in SHIPPED_GAMES]


# The command that writes each document of a shipped game (`cardgen rulebook` writes rulebook.html too).
DOCUMENT_COMMANDS = {"rulebook.pdf": "rulebook", "rulebook.html": "rulebook", "checklists.pdf": "checklist",
                     "cheatsheet.pdf": "cheatsheet", "cheatsheet-pocket.pdf": "cheatsheet"}


def document_commands(name: str) -> list[tuple[str, str]]:
    """(language, command) for every document a shipped game has: its rulebook, its checklists if it
    has setups, its cheat sheets if it has one, in each of its languages."""
    game = loaded(name).game
    commands = ["rulebook"] + ["checklist"] * bool(game.setups) + ["cheatsheet"] * bool(game.cheatsheet)
    return [(language, command) for language in game.every_language for command in commands]


def build_document(name: str, language: str, command: str, out: Path) -> None:
    """One document of a shipped game in one language, built by its command into out/NAME (a
    language other than the game's own in out/NAME/LANGUAGE)."""
    code, _, err = cardgen(command, CARD_DATA / name, "--out", out / name, "--lang", language)
    assert code == 0, err


@functools.cache
def own_language(name: str) -> str:
    return loaded(name).game.language


def _shared_name(name: str, language: str, command: str) -> str:
    return f"shipped-{name}-{language}-{command}"


@pytest.fixture(scope="session")
def shipped_document(shared_outputs) -> Callable[..., Path]:
    """shipped_document(game, file, language=None): a document of a shipped game (see DOCUMENT_COMMANDS)
    as its command writes it, in the game's own language or the one named; each document in each
    language is built once for the run, when a test first asks for it."""
    def get(name: str, file: str, language: str | None = None) -> Path:
        own = own_language(name)
        language = language or own
        command = DOCUMENT_COMMANDS[file]
        folder = shared_outputs.get(_shared_name(name, language, command),
                                    lambda out: build_document(name, language, command, out))
        return folder / name / ("" if language == own else language) / file
    return get


@pytest.fixture(scope="session")
def puppy_rulebook(shipped_document):
    """Exploding Puppy's English rulebook as `cardgen rulebook` writes it, with the game and the
    engine's report (documents.write_rulebook of that report writes the same file)."""
    report = report_for("exploding_puppy")
    return report.game, report, shipped_document("exploding_puppy", "rulebook.pdf")


@pytest.fixture(scope="session")
def puppy_checklists(shipped_document):
    """Exploding Puppy's English checklists as `cardgen checklist` writes them, with the game and
    the engine's report (documents.write_checklists of that report writes the same file)."""
    report = report_for("exploding_puppy")
    return report.game, report, shipped_document("exploding_puppy", "checklists.pdf")


@pytest.fixture(scope="session")
def shipped_documents(shared_outputs) -> list[Path]:
    """Every document of every shipped game in each of its languages (see build_document), each
    built once for the run; two workers asking at once build half of them each."""
    makers = {_shared_name(name, language, command):
              (lambda out, name=name, language=language, command=command: build_document(name, language, command, out))
              for name in SHIPPED_GAMES for language, command in document_commands(name)}
    folders = shared_outputs.get_all(makers)
    return sorted(path for folder in folders.values() for path in folder.rglob("*.pdf"))


@pytest.fixture(scope="session")
def data_document(shared_outputs) -> Callable[[str, str], Path]:
    """data_document(game, file): a document of a game of tests/data (rulebook.pdf, checklists.pdf,
    cheatsheet.pdf or cheatsheet-pocket.pdf) as its renderer writes it from the game's report,
    written once for the run."""
    from cardgen.render import documents
    from cardgen.render.documents.cheatsheet import write_cheatsheet

    writers = {"rulebook.pdf": documents.write_rulebook, "checklists.pdf": documents.write_checklists,
               "cheatsheet.pdf": write_cheatsheet, "cheatsheet-pocket.pdf": write_cheatsheet}

    def get(name: str, file: str) -> Path:
        write = writers[file]

        def make(out: Path) -> None:
            game, report = checked(TEST_DATA / name)
            write(game, report, out)
        return shared_outputs.get(f"data-{name}-{write.__name__}", make) / file
    return get


CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"  # the distribution's: nothing downloaded
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run", "--disable-sync", "--window-size=1200,1000"]


@contextlib.contextmanager
def headless_chromium(*flags: str):
    """The system's Chromium, headless, driven through its chromedriver, with a profile of its own."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    with tempfile.TemporaryDirectory(prefix="cardgen-chromium-") as profile:
        for flag in [*CHROMIUM_FLAGS, *flags, f"--user-data-dir={profile}"]:
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
        try:
            yield driver
        finally:
            driver.quit()


def loaded(folder):
    """The load result of a game (a name under card_data/ or a path) that must load cleanly."""
    result = load_game(folder)
    assert result.ok, [str(f) for f in result.findings]
    return result


def report_for(folder):
    """The engine's report of a game (a name under card_data/ or a path) that must load cleanly."""
    result = loaded(folder)
    return check_game(result.game, result.findings)


def sheet_for(game, paper: str = DEFAULT_PAPER, size=None, bleed: float = DEFAULT_BLEED_MM, **options) -> Sheet:
    """The sheet a build plans for a game's cards (its own card size unless `size`)."""
    return make_sheet(paper, size or game.card_size, bleed, **options)


def checked(folder):
    """A game that must load cleanly (a name under card_data/ or a path), and the engine's report."""
    report = report_for(folder)
    return report.game, report


@pytest.fixture
def game_copy(tmp_path):
    """Copy a game folder (a name under card_data/ or a path) into tmp_path and return the copy."""

    def copy(game: str | Path = TINY_GAME, name: str | None = None) -> Path:
        source = Path(game) if Path(game).is_dir() else CARD_DATA / str(game)
        target = tmp_path / (name or source.name)
        shutil.copytree(source, target)
        return target

    return copy


def check(folder, capsys) -> tuple[int, str]:
    """`cardgen check FOLDER`: its exit code and report (never a traceback)."""
    code = cli.main(["check", str(folder)])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out


def cardgen(*args, cwd=None) -> tuple[int, str, str]:
    """A cardgen command run in this process (in `cwd` if given): exit code, stdout, stderr; never a
    traceback."""
    out, err = io.StringIO(), io.StringIO()
    previous = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main([str(arg) for arg in args])
            except SystemExit as exc:  # argparse's usage errors
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        os.chdir(previous)
    assert "Traceback" not in out.getvalue() + err.getvalue(), err.getvalue()
    return code, out.getvalue(), err.getvalue()


def edit(path, old: str, new: str) -> None:
    """Replace the first `old` in a file of a game copy (which must contain it)."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")

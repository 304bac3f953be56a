"""serve: the live preview. `cardgen serve GAME` watches the game folder, templates/ and art/,
rebuilds what changed and serves one page on 127.0.0.1 that shows every card type as the
printed card, the engine's report and the documents, and updates itself when a file is saved.

Made after MkDocs' `serve`: the standard library's threading HTTP server and a long-polling
endpoint (/livereload/<version> answers as soon as the preview is newer than <version>), no
reload by hand and no websocket. The watcher polls the build's own list of input files.

A rebuild loads and checks the game, then draws the card images (one small PDF per card type
rasterised with pypdfium2, kept by the key of what the card is made from, so a one-card edit
draws one card) and publishes them with the report; then it builds the documents through
the driver (`publish.driver.drive`, with the check made for the cards), whose cache rebuilds only
those whose inputs changed. A data error is shown with its file:line while the last good cards
and documents stay. Everything lives in memory and in one temporary folder. Ctrl-C (or SIGTERM)
stops at once: the work under way is cancelled, its worker processes killed, and the temporary
folder removed.
"""
from __future__ import annotations

import io
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone
from functools import partial
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from cardgen import load
from cardgen.check.languages import report_in
from cardgen.check.results import Checked, figure
from cardgen.errors import CardgenError, UsageError
from cardgen.model.game import ERROR, INFO, WARNING, Finding
from cardgen.model.sizes import DEFAULT_PAPER
from cardgen.model.texts import ascii_digits
from cardgen.publish import cache
from cardgen.publish.check import check_folder
from cardgen.publish.driver import drive
from cardgen.publish.kinds import kind_of, plan_all
from cardgen.publish.plan import Plan
from cardgen.publish.playtest import write_diff_pdf
from cardgen.publish.request import Request
from cardgen.publish.workers import Cancelled, bounded, bounded_all, cancelled_by, out_of_memory
from cardgen.render import card_images, pdfpages
from cardgen.render.documents.weasy import SEALED

DOCUMENT_TYPES = {".pdf": "application/pdf", ".html": "text/html; charset=utf-8"}  # what /documents/ serves
CARD_SCALE = 2.0  # card images at 144 dpi: sharp on a high-density screen
PAGE_SCALE = 0.75  # document pages at 54 dpi: a readable thumbnail
POLL_SECONDS = 25.0  # a long poll answers at the latest after this long (then the page asks again)
# on Ctrl-C, the longest the threads get to end: a cancelled build ends within a tenth of a second,
# a step done in-process (loading the game) is let finish so that it cannot write after the cleanup
STOP_SECONDS = 10.0
LEVEL_ORDER = {ERROR: 0, WARNING: 1, INFO: 2}


def serve(game: str | None, port: int = 8000, announce: Callable[[str], None] = print, since: str = "") -> None:
    """Serve the preview of a game until interrupted (Ctrl-C or SIGTERM), then cancel the work
    under way (its workers killed) and remove the temporary folder. Both signals are ignored
    from then on: the process is expected to exit."""
    folder = load.find_game_folder(game)
    workdir = Path(tempfile.mkdtemp(prefix="cardgen-serve-"))
    # the renderers' own temporary files (WeasyPrint's fonts) go inside it too: the document
    # workers exit without running the cleanup their libraries leave to the end of a process
    (workdir / "tmp").mkdir()
    saved_tempdir, tempfile.tempdir = tempfile.tempdir, str(workdir / "tmp")
    preview = Preview(folder, workdir, since)
    try:
        server = _Server(("127.0.0.1", port), _handler(preview))
    except OSError as exc:
        shutil.rmtree(workdir, ignore_errors=True)
        tempfile.tempdir = saved_tempdir
        raise UsageError(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}",
                         hint="choose another --port (0 picks a free one)") from None
    server.daemon_threads = True
    signal.signal(signal.SIGTERM, _interrupt)
    threads = [threading.Thread(target=preview.cancellable, args=(loop,), name=name, daemon=True)
               for loop, name in ((preview.build_loop, "cardgen-build"), (preview.documents_loop, "cardgen-documents"))]
    threads.append(threading.Thread(target=preview.watch_loop, name="cardgen-watch", daemon=True))
    try:
        for thread in threads:
            thread.start()
        announce(f"serving {folder.name} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)")
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        announce("stopping")
    finally:
        # the process is stopping: a second Ctrl-C or SIGTERM (a process group's, say) must not cut
        # the cleanup short and leave the temporary folder, nor kill the process as it exits
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        preview.stop()  # cancels the builds: their workers are killed within a tenth of a second
        server.server_close()
        ending = time.monotonic() + STOP_SECONDS
        for thread in threads:
            thread.join(timeout=max(0.0, ending - time.monotonic()))
        shutil.rmtree(workdir, ignore_errors=True)
        tempfile.tempdir = saved_tempdir


class _Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        """A browser that closes its connection early is no error of the preview's."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


WATCH_SECONDS = 0.25  # how often the watcher looks at the input files


def _stat_snapshot(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """Each input file's label, modification time and size (-1 when it cannot be read)."""
    out = []
    for label, path in cache.input_files(folder):
        try:
            info = os.stat(path)
            out.append((label, info.st_mtime_ns, info.st_size))
        except OSError:
            out.append((label, -1, -1))
    return tuple(out)


class Preview:
    """What the page shows, rebuilt on every change, and the version the long polls wait on."""

    def __init__(self, folder: Path, workdir: Path, since: str = ""):
        self.folder, self.documents_dir = folder, workdir / "documents"
        self.since = since  # an earlier version: the documents include the visual diff against it
        self.version = 0
        self.changed = threading.Condition()
        self.dirty, self.stopping = threading.Event(), threading.Event()
        self.dirty.set()  # the first build
        self.documents_due = threading.Event()
        # the latest (inputs, game, report, the source language's report) to build documents from
        self.documents_job: tuple | None = None
        self.images: dict[str, bytes] = {}  # card key -> PNG
        self.pages: dict[tuple[str, str, int], bytes] = {}  # (document, sha, page) -> PNG
        self.built: dict[str, str] = {}  # document file -> when it was last built
        self.language = ""  # the language the page shows ("": the game's source language)
        self.shown_dir = self.documents_dir  # where the documents of that language are built
        self.state: dict[str, Any] = {"game": folder.name, "title": folder.name, "status": "building",
                                      "cards": [], "colors": [], "setups": [], "report": None,
                                      "documents": [], "errors": [], "document_errors": [], "updated": "",
                                      "languages": [], "language": ""}

    # -- the threads

    def watch_loop(self) -> None:
        """A rebuild whenever an input file changes, appears or goes (the game folder too: it may
        be deleted and made again). Polled, with the build's own list of input files: links out
        of the game folder, templates/ and art/ are never followed."""
        last: tuple[tuple[str, int, int], ...] | None = None
        while True:
            try:
                now = _stat_snapshot(self.folder)
                if last is not None and now != last:
                    self.dirty.set()
                last = now
            except Exception as exc:  # noqa: BLE001 - the page must say the preview stopped following
                self._show(errors=[_problem(f"cannot watch the game folder: {exc}")], status="error")
            if self.stopping.wait(WATCH_SECONDS):
                return

    def build_loop(self) -> None:
        """Cards and report, on every change."""
        while not self.stopping.is_set():
            self.dirty.wait()
            if self.stopping.is_set():
                return
            self.dirty.clear()
            self._guarded(self.rebuild)

    def documents_loop(self) -> None:
        """The documents, from the latest good load, in a thread of their own: a rulebook that
        takes seconds never delays the cards of the next save."""
        while not self.stopping.is_set():
            self.documents_due.wait()
            if self.stopping.is_set():
                return
            self.documents_due.clear()
            with self.changed:
                job, self.documents_job = self.documents_job, None
            if job is not None:
                self._guarded(lambda: self.build_documents(*job))

    def cancellable(self, loop: Callable[[], None]) -> None:
        """A thread's loop, whose work in worker processes is cancelled as soon as the preview stops."""
        with cancelled_by(self.stopping):
            loop()

    def _guarded(self, step: Callable[[], None]) -> None:
        try:
            step()
        except Cancelled:  # the preview is stopping
            pass
        except CardgenError as exc:  # the game folder went away, say
            self._show(errors=[_problem(exc.message)], status="error")
        except Exception as exc:  # noqa: BLE001 - a bug in cardgen must not end the preview
            self._show(errors=[_problem(f"{exc.__class__.__name__}: {exc}", level="bug")], status="failed")

    def stop(self) -> None:
        self.stopping.set()
        self.dirty.set()
        self.documents_due.set()
        with self.changed:
            self.changed.notify_all()

    def choose_language(self, language: str) -> bool:
        """Show the game in another of its languages (rebuilt now); False for one it does not have."""
        if language not in self.state["languages"]:
            return False
        with self.changed:
            if language != self.language:
                self.language, self.built = language, {}
        self.dirty.set()
        return True

    def wait_newer(self, version: int, timeout: float = POLL_SECONDS) -> int:
        with self.changed:
            self.changed.wait_for(lambda: self.version > version or self.stopping.is_set(), timeout)
            return self.version

    # -- a rebuild

    def rebuild(self) -> None:
        """Load and check; on errors show them and keep the last good cards and documents.
        Else draw the cards, publish them with the report, and hand the documents over."""
        self._show(status="building")
        inputs = cache.snapshot(self.folder)
        checked = check_folder(self.folder)
        if checked.report is None:
            self._show(errors=_findings(checked.errors()), status="error")
            return
        errors = [f for f in checked.report.every_finding() if f.level == ERROR]
        languages = list(checked.report.game.every_language)
        language = self.language if self.language in languages else languages[0]
        report = report_in(checked.report, language) if not errors else checked.report
        game = report.game
        cards, problems = self._draw_cards(inputs, game, report)
        shown = {card["image"].rsplit("/", 1)[-1][:-len(".png")] for card in cards}
        self.images = {key: image for key, image in self.images.items() if key in shown}
        self._show(title=game.title, cards=cards, colors=[_color(c) for c in game.colors],
                   languages=languages, language=language,
                   setups=[s.setup.name for s in report.setups], report=_report(report),
                   errors=_findings(errors) + problems, status="error" if errors or problems else "building documents")
        if not errors:
            with self.changed:
                self.documents_job = (inputs, checked, language)
            self.documents_due.set()

    def _draw_cards(self, inputs: cache.Snapshot, game, report) -> tuple[list[dict], list[dict]]:
        """Each printed card's picture: those not drawn before, drawn in worker processes under the
        build's ceilings (the game's symbols, art and texts are untrusted), a few at a time. A
        card that cannot be drawn keeps its last good picture, marked stale."""
        counts = {s.setup.name: s.print_counts for s in report.setups}
        previous = {card["id"]: card for card in self.state["cards"]}
        printed = [card for card in game.cards if card.printed]
        keys = {card.id: cache.sheet_key(inputs, game, "preview", [card]) for card in printed}
        new = [card for card in printed if keys[card.id] not in self.images]
        problems = []
        for card, picture in zip(new, _card_pictures(game, new)):
            if isinstance(picture, bytes):
                self.images[keys[card.id]] = picture
            else:
                problems.append(picture)
        shown = []
        for card in printed:
            key = keys[card.id]
            if key in self.images:
                shown.append({"id": card.id, "name": card.name, "color": card.color, "text": card.text,
                              "flavor": card.flavor, "image": f"/card/{key}.png",
                              "setups": {name: n for name, c in counts.items() if (n := c.get(card.id, 0))}})
            elif card.id in previous:  # keep the last good picture
                shown.append({**previous[card.id], "stale": True})
        return shown, problems

    def build_documents(self, inputs: cache.Snapshot, checked: Checked, language: str) -> None:
        """The documents of the game in the language shown, through the driver, from the check the
        cards were drawn from."""
        built = drive(Request(self.folder, _documents, language=language, out=self.documents_dir, checked=checked,
                              inputs=inputs))
        result = built.results[0]
        self.shown_dir = result.folder
        now = _local_time()
        written, problems = list(result.written), [*result.failures, *result.bugs]
        source = checked.report
        if self.since and source is not None:
            try:
                # the changes are the source's (the earlier version has no translation to compare)
                written.append(write_diff_pdf(source.game, source, self.since, self.shown_dir, DEFAULT_PAPER))
            except CardgenError as exc:
                problems.append(f"the changes since {self.since}: {exc}")
        for path in written:
            self.built[path.name] = now
        for path in result.reused:  # built before, in this language (shown again after another was)
            self.built.setdefault(path.name, _local_time(path.stat().st_mtime))
        failures = [_problem(text) for text in problems]
        shown = []
        for name in sorted(self.built):
            path = self.shown_dir / name
            if path.suffix == ".pdf" and path.is_file():
                edition = path.with_suffix(".html").name  # a document's HTML edition, built beside it
                shown.append({"file": name, "built": self.built[name], "pages": pdfpages.page_count(path.read_bytes()),
                              "sha": _short_sha(path), "html": edition if edition in self.built else None})
        current = {(d["file"], d["sha"]) for d in shown}
        self.pages = {key: image for key, image in self.pages.items() if key[:2] in current}
        with self.changed:
            waiting = self.dirty.is_set() or self.documents_due.is_set()  # newer data is on its way
            status = self.state["status"] if waiting else "error" if failures or self.state["errors"] else "ready"
        self._show(documents=shown, document_errors=failures, status=status)

    def _show(self, **changes) -> None:
        with self.changed:
            self.state = {**self.state, **changes,
                          "updated": _local_time()}
            self.version += 1
            self.changed.notify_all()

    # -- what the handler serves

    def document(self, name: str) -> tuple[bytes, str] | None:
        """A document the preview built (a PDF, or an HTML edition: self-contained, it asks the
        preview for nothing else) and its content type; None for any other name."""
        path = self._built(name)
        kind = DOCUMENT_TYPES.get(path.suffix) if path else None
        return (path.read_bytes(), kind) if path and kind else None

    def _built(self, name: str) -> Path | None:
        """The file of a document the preview built, by its name; None for any other name."""
        path = self.shown_dir / name
        return path if name in self.built and "/" not in name and not name.startswith(".") and path.is_file() else None

    def page_image(self, name: str, page: int) -> bytes | None:
        path = self._built(name)
        if path is None or path.suffix != ".pdf":
            return None
        key = (name, _short_sha(path), page)
        if key not in self.pages:
            try:
                image = pdfpages.page_image(path.read_bytes(), page, PAGE_SCALE)
            except IndexError:
                return None
            self.pages[key] = _to_png(image)
        return self.pages[key]


def _documents(game, report) -> Plan:
    """The documents of a build of every output: the preview shows the card sheets as cards."""
    plan = plan_all(game, report)
    return Plan(tuple(o for o in plan.outputs if kind_of(o).preview))


# --------------------------------------------------------------------------- the page's data


def _findings(findings: list[Finding]) -> list[dict]:
    return [f.as_dict() for f in sorted(findings, key=lambda f: LEVEL_ORDER.get(f.level, 3))]


def _problem(message: str, level: str = ERROR, where: object = None, hint: str = "") -> dict:
    """A problem that is no finding of the data (a card that cannot be drawn, an output that
    failed, the folder gone), in a finding's shape for the page."""
    return {**Finding(level, "", message, hint=hint).as_dict(), "where": str(where) if where else None}


def _color(color) -> dict:
    return {"id": color.id, "name": color.name, "hex": color.hex}


def _report(report) -> dict:
    """The engine's report as the page shows it: per setup, totals per player count."""
    setups = []
    for s in report.setups:
        setups.append({"name": s.setup.name, "total": s.total, "print_total": s.print_total,
                       "by_color": s.by_color, "by_kind": {k: n for k, n in s.by_kind.items() if n},
                       "players": [{"players": p.players, "dealt": figure(p.dealt_per_player), "draw_pile": figure(p.draw_pile),
                                    "draw_by_kind": {k: figure(v) for k, v in p.draw_by_kind.items()}} for p in s.players],
                       "findings": _findings(s.all_findings())})
    return {"setups": setups, "findings": _findings(report.every_finding())}


def _card_pictures(game, cards: list) -> list[bytes | dict]:
    """Each card's face as a PNG, or the problem that kept it from being drawn: on a few worker
    processes at once; when one of them passes a ceiling, card by card, to name the card and
    still draw the others."""
    card_images.ready_to_draw()
    try:
        return bounded_all([partial(_card_picture, game, card) for card in cards], "drawing the cards")
    except CardgenError:
        return [_one_card_picture(game, card) for card in cards]


def _one_card_picture(game, card) -> bytes | dict:
    try:
        return bounded(partial(_card_picture, game, card), f"drawing card '{card.name}'")
    except CardgenError as exc:  # a ceiling passed
        return _problem(exc.message, where=card.where, hint=exc.hint)


def _card_picture(game, card) -> bytes | dict:
    """A card's face as a PNG, or the problem in its data that kept it from being drawn (a
    worker's task; running out of memory is the ceiling's, not the card's)."""
    try:
        return _to_png(pdfpages.page_image(card_images.face_pdf(game, card), 1, CARD_SCALE))
    except CardgenError as exc:
        if out_of_memory(exc):
            raise
        return _problem(exc.message, where=exc.where, hint=exc.hint)


def _to_png(image) -> bytes:
    data = io.BytesIO()
    image.save(data, "PNG")
    return data.getvalue()


def _short_sha(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


# --------------------------------------------------------------------------- HTTP


MAX_NUMBER_DIGITS = 9  # a version or page number in a request: ASCII digits, at most this many


def _number(text: str) -> int | None:
    """A number of a request's path: ASCII digits only, bounded."""
    if len(text) > MAX_NUMBER_DIGITS or not ascii_digits(text):
        return None
    return int(text)


def _handler(preview: Preview):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the standard library's name
            port = self.server.server_address[1]  # type: ignore[index]  # an (address, port) pair for TCP
            if self.headers.get("Host", "") not in (f"127.0.0.1:{port}", f"localhost:{port}"):
                # another name for this address (DNS rebinding) would let any web page read the preview
                return self.send_error(HTTPStatus.FORBIDDEN, "this preview answers only at 127.0.0.1 or localhost")
            path = self.path.split("?", 1)[0]
            parts = [p for p in path.split("/") if p]
            if path == "/":
                return self._send(PAGE.read_bytes(), "text/html; charset=utf-8")
            if path == "/state.json":
                with preview.changed:
                    body = {**preview.state, "version": preview.version}
                return self._send(json.dumps(body).encode("utf-8"), "application/json")
            if len(parts) == 2 and parts[0] == "livereload" and _number(parts[1]) is not None:
                version = preview.wait_newer(_number(parts[1]) or 0)
                return self._send(json.dumps({"version": version}).encode("utf-8"), "application/json")
            if len(parts) == 2 and parts[0] == "language":
                return self._send(b"{}", "application/json") if preview.choose_language(parts[1]) else self._missing()
            if len(parts) == 2 and parts[0] == "card" and parts[1].endswith(".png"):
                image = preview.images.get(parts[1][:-4])
                return self._send(image, "image/png", cache=True) if image else self._missing()
            if len(parts) == 2 and parts[0] == "documents":
                document = preview.document(parts[1])
                if document is None:
                    return self._missing()
                content, kind = document
                # a game's HTML edition runs and fetches nothing here either
                return self._send(content, kind, policy=SEALED if kind.startswith("text/html") else "")
            if len(parts) == 3 and parts[0] == "documents" and parts[2].endswith(".png") \
                    and _number(parts[2][:-4]) is not None:
                image = preview.page_image(parts[1], _number(parts[2][:-4]) or 0)
                return self._send(image, "image/png") if image else self._missing()
            return self._missing()

        def _send(self, body: bytes, kind: str, cache: bool = False, policy: str = "") -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", kind)
            if policy:
                self.send_header("Content-Security-Policy", policy)
            self.send_header("Content-Length", str(len(body)))
            # card images are named by their content's key: they never change
            self.send_header("Cache-Control", "max-age=31536000, immutable" if cache else "no-store")
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def _missing(self) -> None:
            self.send_error(HTTPStatus.NOT_FOUND)

        def log_message(self, format, *args):  # noqa: A002 - quiet: the terminal is for errors
            pass

    return Handler


def _local_time(seconds: float | None = None) -> str:
    """A moment (now, or seconds since the epoch) as the page shows it: local time, to the second."""
    moment = datetime.now(timezone.utc) if seconds is None else datetime.fromtimestamp(seconds, timezone.utc)
    return moment.astimezone().isoformat(timespec="seconds")


PAGE = Path(__file__).resolve().with_name("serve.html")  # the page and its script

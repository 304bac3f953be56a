"""Helpers for the security tests: canary files outside the game folder, a counting web server,
game copies with a template of their own, building outputs in-process (or failing to) and reading
PDFs back (text and decompressed streams)."""
from __future__ import annotations

import http.server
import io
import secrets
import signal
import struct
import threading
import time
import zlib
from pathlib import Path

import pypdf
import pytest
from conftest import TINY_GAME, page_texts, sheet_for
from conftest import checked as loaded_and_checked

from cardgen import load
from cardgen.check.game import check_game
from cardgen.errors import BuildError
from cardgen.render import documents


@pytest.fixture
def no_hang():
    """A FIFO read without care blocks for ever: fail instead of hanging the suite."""
    def stuck(signum, frame):
        raise TimeoutError("still running after 300 s: a read blocked or the work is unbounded")

    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(300)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def checked(folder):
    """Load and check a game folder that must be clean, without an error from the engine either."""
    game, report = loaded_and_checked(folder)
    assert not report.has_errors, [str(f) for f in report.every_finding()]
    return game, report


def build_rulebook(folder, out: Path) -> Path:
    game, report = checked(folder)
    return documents.write_rulebook(game, report, out)


def build_cards(folder, out: Path) -> Path:
    from cardgen.render import cards

    game, report = checked(folder)
    return cards.write_setup_sheets(game, report.setups[0], sheet_for(game), out, backs=False)


def pdf_text(path: Path) -> str:
    return "\n".join(page_texts(path))


def pdf_streams(path: Path) -> bytes:
    """The file's bytes followed by every stream decompressed: what a reader could get out of it."""
    reader = pypdf.PdfReader(path)
    chunks = [path.read_bytes()]
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            obj = reader.get_object(number)
        except Exception:
            continue
        if isinstance(obj, pypdf.generic.StreamObject):
            try:
                chunks.append(obj.get_data())
            except Exception:
                pass
    return b"\n".join(chunks)


def png_bytes(width: int, height: int, seed: int = 0) -> bytes:
    from PIL import Image

    image = Image.new("RGB", (width, height), (seed % 256, 90, 200))
    data = io.BytesIO()
    image.save(data, "PNG")
    return data.getvalue()


def huge_png(width: int, height: int) -> bytes:
    """A valid 1-bit PNG of width x height pixels that is small on disk (a decompression bomb)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    row = b"\x00" * (1 + (width + 7) // 8)
    compressor = zlib.compressobj(9)
    idat = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def set_card(folder: Path, name: str, **fields) -> None:
    """Replace fields of one card of the tiny game (flow mapping on one line)."""
    import yaml

    cards = folder / "cards.yaml"
    data = yaml.safe_load(cards.read_text(encoding="utf-8"))
    for card in data["cards"]:
        if card.get("name") == name:
            card.update(fields)
    cards.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


@pytest.fixture
def canary(tmp_path):
    """A folder outside every game folder holding files with a random secret in them."""
    secret = "CANARY" + secrets.token_hex(8)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "canary.txt").write_text(f"{secret}\n")
    (outside / "canary.md").write_text(f"# {secret}\n\n{secret}\n")
    (outside / "canary.css").write_text(f'body::before {{ content: "{secret}"; }}\n')
    (outside / "canary.html").write_text(f"<p>{secret}</p>\n")
    (outside / "canary.png").write_bytes(png_bytes(37, 23))
    (outside / "canary.yaml").write_text(f"cards:\n  - {{name: {secret}, color: red}}\n")
    return outside, secret


@pytest.fixture
def web_server():
    """A local HTTP server that counts every request; /redirect sends to /target."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            if self.path.startswith("/redirect"):
                self.send_response(302)
                self.send_header("Location", "/target.png")
                self.end_headers()
                return
            body = png_bytes(8, 8) if self.path.endswith(".png") else b"body { color: red }"
            self.send_response(200)
            self.send_header("Content-Type", "image/png" if self.path.endswith(".png") else "text/css")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.timeout = 5
    # a short poll: shutdown() waits for the next one, half a second by default, at every test
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", hits
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def attempt(kind: str, folder, out: Path) -> str | None:
    """Load, check and build one output ('cards', 'rulebook', 'checklists', 'cheatsheet') the way
    the command line does; return the error message(s), or None when the output was written."""
    result = load.load_game(folder)
    problems = [str(f) for f in result.findings if f.level == "error"]
    if problems:
        return "\n".join(problems)
    report = check_game(result.game, result.findings)
    problems = [str(f) for f in report.every_finding() if f.level == "error"]
    if problems:
        return "\n".join(problems)
    try:
        if kind in ("cards", "cards+backs"):
            from cardgen.render import cards

            cards.write_setup_sheets(result.game, report.setups[0], sheet_for(result.game), out, backs=kind == "cards+backs")
        elif kind == "rulebook":
            documents.write_rulebook(result.game, report, out)
        elif kind == "checklists":
            documents.write_checklists(result.game, report, out)
        elif kind == "cheatsheet":
            from cardgen.render.documents import cheatsheet

            cheatsheet.write_cheatsheet(result.game, report, out)
        else:
            raise ValueError(kind)
    except BuildError as exc:
        return str(exc)
    return None


def outputs(out: Path) -> list[str]:
    return sorted(p.name for p in out.rglob("*")) if out.exists() else []


def timed(call, *args):
    """(what call(*args) returns, the seconds it took)."""
    start = time.monotonic()
    result = call(*args)
    return result, time.monotonic() - start


def refused(kind: str, folder, out: Path) -> str:
    """Build one output that must fail (see `attempt`); return its error message, having made sure
    there is one and that nothing was written to `out`."""
    message = attempt(kind, folder, out)
    assert message, f"{kind}: built, though it should have been refused"
    assert outputs(out) == []
    return message


@pytest.fixture
def game_with_template(game_copy):
    """A copy of the tiny game with one file of its own in templates/: make(body, name) -> folder."""

    def make(body: str, name: str = "rulebook.html") -> Path:
        folder = game_copy(TINY_GAME)
        (folder / "templates").mkdir(exist_ok=True)
        (folder / "templates" / name).write_text(body)
        return folder

    return make

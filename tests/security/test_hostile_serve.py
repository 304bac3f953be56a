"""`cardgen serve` against hostile requests and folders: another Host name (DNS rebinding), numbers
no request should carry, a port out of range, SIGTERM to the process group, a link to / in the
game folder, and the game folder deleted and made again."""
from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest
from conftest import ROOT, TINY_GAME
from e2e.test_serve import Served, descendants

pytestmark = pytest.mark.slow  # starts servers


def get(url: str, path: str, host: str | None = None) -> tuple[int, bytes]:
    address = url.split("//", 1)[1].rstrip("/")
    connection = http.client.HTTPConnection(address, timeout=30)
    connection.putrequest("GET", path, skip_host=True)
    connection.putheader("Host", address if host is None else host)
    connection.endheaders()
    response = connection.getresponse()
    return response.status, response.read()


def raw_get(url: str, path: bytes) -> bytes:
    """The status line of a GET whose path has bytes http.client would not send."""
    address = url.split("//", 1)[1].rstrip("/")
    host, port = address.split(":")
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        connection.sendall(b"GET " + path + b" HTTP/1.0\r\nHost: " + address.encode() + b"\r\n\r\n")
        return connection.recv(100).split(b"\r\n", 1)[0]


def state(url: str) -> dict:
    return json.loads(get(url, "/state.json")[1])


def wait_for(condition, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError("the preview never got there")


def test_requests_are_answered_only_for_the_address_served_and_with_sane_numbers(game_copy, tmp_path):
    served = Served(game_copy(TINY_GAME), tmp_path / "tmp")
    try:
        port = served.url.rstrip("/").rsplit(":", 1)[1]
        assert get(served.url, "/state.json")[0] == 200
        assert get(served.url, "/state.json", f"localhost:{port}")[0] == 200
        for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1.nip.io:{port}", ""):
            status, body = get(served.url, "/state.json", host)
            assert status == 403 and b"cards" not in body, host
        for raw in ("\u00b2".encode("latin-1"), "\u0663".encode()):  # a superscript two, an Arabic-Indic three
            assert b" 404 " in raw_get(served.url, b"/livereload/" + raw)
        for path in ("/livereload/" + "9" * 5000,
                     "/documents/rulebook.pdf/" + "7" * 5000 + ".png"):
            status, _ = get(served.url, path)
            assert status == 404, path
    finally:
        code, said = served.interrupt()
    assert code == 0 and "Traceback" not in said


def test_a_port_out_of_range_is_a_usage_error_leaving_nothing(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "cardgen", "serve", str(TINY_GAME), "--port", "99999"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and "out of range" in done.stderr and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_sigterm_twice_to_the_process_group_stops_cleanly(tmp_path):
    """The workers building the documents get the signal too (it is sent once they run: the cards
    are drawn first, a few seconds); the second one comes during the cleanup."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path)}
    process = subprocess.Popen([sys.executable, "-m", "cardgen", "serve", "exploding_puppy", "--port", "0"],
                               env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert "serving" in process.stderr.readline()
    deadline = time.monotonic() + 120
    while not descendants(process.pid):
        assert time.monotonic() < deadline and process.poll() is None, "no worker was started"
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGTERM)
    time.sleep(0.3)
    os.killpg(process.pid, signal.SIGTERM)
    code = process.wait(timeout=120)
    said = process.stderr.read()
    assert code == 0 and "Traceback" not in said and "stopped" in said, said
    time.sleep(0.3)
    assert list(tmp_path.iterdir()) == []


def test_a_link_to_the_root_is_not_watched_and_a_recreated_folder_is_picked_up(game_copy, tmp_path):
    game = game_copy(TINY_GAME)
    (game / "setups.yaml").unlink()  # no setups: its one document is the rulebook (one worker, not two)
    (game / "root").symlink_to("/")
    served = Served(game, tmp_path / "tmp")
    try:
        wait_for(lambda: state(served.url)["status"] == "error")  # check refuses the link, the page says so
        (game / "root").unlink()
        wait_for(lambda: state(served.url)["status"] == "ready")
        backup = tmp_path / "backup"
        shutil.move(game, backup)
        wait_for(lambda: state(served.url)["status"] == "error")
        shutil.move(backup, game)
        wait_for(lambda: state(served.url)["status"] == "ready")
    finally:
        code, said = served.interrupt()
    assert code == 0 and "Traceback" not in said

"""Times the edit loop on a copy of Exploding Puppy, each figure also as a ratio to a full
(`--clean`) build in the same run:

- a `cardgen build` with nothing changed (target: 0.5 s);
- after a one-card text edit: `cardgen cards` (the default setup's sheet, target: 1 s) and
  `cardgen rulebook` (bound by one WeasyPrint pass), each updating its output;
- `cardgen serve`: from the save of a one-card edit to the page's state naming the card's
  new image (what the browser shows next; the long poll answers at once).

Every command runs as a subprocess, as a user runs it: wall-clock time, and CPU time (user +
system of the child, steadier on a busy machine). Run by hand:

    python3 bench/bench_incremental.py [--repeat N]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "card_data" / "exploding_puppy"
CARD, OLD = "defuse", "When you would explode"
WORDS = ("really", "truly", "surely", "nearly", "almost", "finally", "suddenly", "loudly")
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def cardgen(*args: str) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one cardgen command (which must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cardgen", *args], env=ENV, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stderr
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def edit(cards: Path, number: int) -> None:
    """A one-card text edit: the Defuse card's effect text, different each time."""
    text = cards.read_text(encoding="utf-8")
    text = re.sub(r"When you would (\w+ )?explode", f"When you would {WORDS[number % len(WORDS)]} explode", text,
                  count=1)
    cards.write_text(text, encoding="utf-8")


def best(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return min(s[0] for s in samples), min(s[1] for s in samples)


def builds(work: Path, repeat: int) -> dict[str, tuple[float, float]]:
    game, out = work / "exploding_puppy", work / "out"
    shutil.copytree(GAME, game)
    cards = game / "cards.yaml"
    assert OLD in cards.read_text(encoding="utf-8")
    full = best([cardgen("build", str(game), "--out", str(out), "--clean") for _ in range(repeat)])
    unchanged = best([cardgen("build", str(game), "--out", str(out)) for _ in range(repeat)])
    sheet, rulebook = [], []
    for number in range(repeat):
        edit(cards, number)
        sheet.append(cardgen("cards", str(game), "--out", str(out)))
        rulebook.append(cardgen("rulebook", str(game), "--out", str(out)))
    return {"full build (--clean)": full, "no-change build": unchanged,
            "one-card edit -> cards": best(sheet), "one-card edit -> rulebook": best(rulebook)}


def serve_latency(work: Path, repeat: int) -> list[float]:
    """Seconds from saving a one-card edit to the served state showing the card's new image."""
    game = work / "served"
    shutil.copytree(GAME, game)
    cards = game / "cards.yaml"
    server = subprocess.Popen([sys.executable, "-m", "cardgen", "serve", str(game), "--port", "0"],
                              env={**ENV, "TMPDIR": str(work)}, stderr=subprocess.PIPE, text=True)
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+/", server.stderr.readline()).group()
        state = wait_for(url, lambda s: s["status"] == "ready")
        latencies = []
        for number in range(repeat):
            image = card_image(state)
            time.sleep(0.5)  # a quiet moment, as between two saves by hand
            edit(cards, number + 1)
            saved = time.perf_counter()
            state = wait_for(url, lambda s: card_image(s) not in (None, image))
            latencies.append(time.perf_counter() - saved)
            state = wait_for(url, lambda s: s["status"] == "ready")
        return latencies
    finally:
        server.send_signal(2)
        server.wait(timeout=60)


def card_image(state: dict) -> str | None:
    return next((c["image"] for c in state["cards"] if c["id"] == CARD), None)


def wait_for(url: str, done) -> dict:
    """Follow the long poll, as the page does, until the state satisfies `done`."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        state = json.load(urllib.request.urlopen(url + "state.json"))
        if done(state):
            return state
        urllib.request.urlopen(f"{url}livereload/{state['version']}").read()
    raise TimeoutError("the served state never got there")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as folder:
        work = Path(folder)
        figures = builds(work, args.repeat)
        latencies = serve_latency(work, args.repeat)
    full_wall, full_cpu = figures["full build (--clean)"]
    print(f"Exploding Puppy, best of {args.repeat} (wall-clock; CPU of the command):")
    for name, (wall, cpu) in figures.items():
        print(f"  {name:<28} {wall:6.2f} s  ({wall / full_wall:5.1%} of the full build)   "
              f"CPU {cpu:6.2f} s ({cpu / full_cpu:5.1%})")
    print(f"  serve: save -> new card image in the page's state: median {statistics.median(latencies):.2f} s, "
          f"each {', '.join(f'{s:.2f}' for s in latencies)} s  ({statistics.median(latencies) / full_wall:5.1%} "
          f"of the full build)")


if __name__ == "__main__":
    main()

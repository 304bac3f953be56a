"""Times `cardgen check` (load and check) of generated games of growing size, next to the least
reading the same files can cost: libyaml parsing them into Python objects (no positions, no
schema, no engine, no text checks).

The games come from bench/big_game.py (all cards different, each once) in a temporary folder:
1000, 4000 and 5000 card types for up to 8 players, and 5000 card types for up to 100 players
(the engine plays out every player count). The per-card cost should stay flat. Times are CPU
seconds, best of N. Run by hand:

    python3 bench/bench_check.py [--repeat N]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from big_game import write_big_game  # noqa: E402
from timing import timed  # noqa: E402

from cardgen.publish.check import check_folder

CASES = ((1000, 8), (4000, 8), (5000, 8), (5000, 100))


def check(folder: Path) -> None:
    """What `cardgen check GAME` does, minus printing."""
    checked = check_folder(str(folder))
    assert checked.ok, [str(f) for f in checked.errors()][:5]


def parse_only(folder: Path) -> None:
    for name in ("game.yaml", "cards.yaml", "setups.yaml"):
        yaml.load((folder / name).read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"CPU seconds, best of {args.repeat}")
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as temp:
        for cards, players in CASES:
            folder = write_big_game(Path(temp) / f"big{cards}-{players}", cards, players)
            ours, floor = timed(lambda: check(folder), args.repeat), timed(lambda: parse_only(folder), args.repeat)
            print(f"{cards:>5} cards, 2-{players:<3} players  check {ours:6.2f} s ({ours / cards * 1000:5.3f} ms/card)  "
                  f"libyaml parse {floor:5.2f} s  ratio {ours / floor:5.2f}x", flush=True)


if __name__ == "__main__":
    main()

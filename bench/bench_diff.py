"""Times `cardgen diff` of two versions of a generated game (bench/big_game.py) next to a raw
baseline: loading both folders' YAML with PyYAML's C loader and comparing them as plain data.

`diff` is what the command costs: load and check both versions (the engine plays out every
setup), then compare cards, counts, settings and rules. Times are CPU seconds, best of N; run by
hand:

    python3 bench/bench_diff.py [--repeat N] [--sizes 1000 5000]
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

from cardgen.publish.playtest import playtest_round  # noqa: E402


def edited(folder: Path) -> Path:
    """A new version: every tenth card's text changed."""
    text = (folder / "cards.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    changed = [line.replace('text: "', 'text: "Changed. ', 1) if i % 10 == 1 else line for i, line in enumerate(lines)]
    (folder / "cards.yaml").write_text("\n".join(changed) + "\n", encoding="utf-8")
    return folder


def baseline(old: Path, new: Path) -> int:
    """Raw PyYAML: both versions' files as data, the cards compared by name."""
    def cards(folder: Path) -> dict:
        data = yaml.load((folder / "cards.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        return {card.get("name") or card.get("series"): card for card in data["cards"]}
    before, after = cards(old), cards(new)
    return sum(before.get(name) != card for name, card in after.items())


def diff(old: Path, new: Path) -> int:
    with playtest_round(str(new), str(old)) as round_:
        return len(round_.diff.cards)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000])
    args = parser.parse_args()
    print(f"CPU seconds, best of {args.repeat}")
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as temp:
        for n in args.sizes:
            old = write_big_game(Path(temp) / f"old{n}" / "big", n)
            new = edited(write_big_game(Path(temp) / f"new{n}" / "big", n))
            changed = diff(old, new)
            took, base = timed(lambda: diff(old, new), args.repeat), timed(lambda: baseline(old, new), args.repeat)
            print(f"{n:>5} cards, {changed} changed: diff {took:6.2f} s, raw YAML comparison {base:6.2f} s, "
                  f"{took / base:5.1f}x", flush=True)


if __name__ == "__main__":
    main()

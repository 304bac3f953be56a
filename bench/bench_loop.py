"""The edit loop in whole-process CPU seconds (user + system of the command and its workers),
the median of N runs of each, as a user runs them on a copy of Exploding Puppy:

- `cardgen check` (target: 0.5 s);
- `cardgen build` with nothing changed (target: 0.3 s);
- `cardgen cards` after a one-card text edit (target: 1 s), and the same command with nothing
  changed since (what is left when the sheet need not be drawn: load, check, plan, reuse);

next to the least any cardgen command costs on the same machine in the same run: `python -c
"import yaml"` (cardgen reads YAML). The commands alternate round by round, so a busy moment on
a shared machine weighs on each alike. Python writes its bytecode caches in a first round, not
counted, as an installed cardgen has them. With --against, each command also runs from another
checkout of cardgen in the same rounds (before and after a change, on the same machine load).
Run by hand:

    python3 bench/bench_loop.py [--repeat N] [--against /path/to/other/checkout]
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "card_data" / "exploding_puppy"
WORDS = ("really", "truly", "surely", "nearly", "almost", "finally", "suddenly", "loudly")


def cpu(*arguments: str, root: Path = ROOT) -> float:
    """CPU seconds of one Python process (and the workers it waited for), with cardgen from
    `root`; it must succeed."""
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONPATH": str(root)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    # run from `root`: `python -m` puts the working directory first on sys.path, before PYTHONPATH
    done = subprocess.run([sys.executable, *arguments], env=env, capture_output=True, text=True, cwd=root)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stderr
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def edit(cards: Path, number: int) -> None:
    """A one-card text edit: the Defuse card's effect text, different each time."""
    text = cards.read_text(encoding="utf-8")
    text = re.sub(r"When you would (\w+ )?explode", f"When you would {WORDS[number % len(WORDS)]} explode", text,
                  count=1)
    cards.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--against", type=Path, help="another checkout of cardgen, timed in the same rounds")
    parser.add_argument("--game", type=Path, default=GAME,
                        help="a copy of Exploding Puppy to time instead (e.g. with languages: [en] only)")
    args = parser.parse_args()
    roots = {"": ROOT, **({f" [{args.against}]": args.against.resolve()} if args.against else {})}
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as folder:
        runs: dict[str, Callable[[], float]] = {'python -c "import yaml"': lambda: cpu("-c", "import yaml")}
        for label, root in roots.items():
            runs.update(_runs(args.game, Path(folder) / f"run{len(runs)}", root, label))
        times: dict[str, list[float]] = {name: [] for name in runs}
        for round_ in range(args.repeat + 1):
            for name, run in runs.items():
                spent = run()
                if round_:
                    times[name].append(spent)
    median = {name: statistics.median(values) for name, values in times.items()}
    floor = median['python -c "import yaml"']
    print(f"Exploding Puppy: CPU seconds of the whole process, median of {args.repeat}; "
          f"ratio to python -c \"import yaml\"")
    for name in runs:
        print(f"  {name:<60} {median[name]:6.3f} s  {median[name] / floor:5.1f}x")


def _runs(source: Path, work: Path, root: Path, label: str) -> dict[str, Callable[[], float]]:
    """The commands timed, with cardgen from `root`, each on its own copy of the game."""
    game, edited, out = work / "exploding_puppy", work / "edited" / "exploding_puppy", work / "out"
    shutil.copytree(source, game)
    shutil.copytree(source, edited)  # the one-card edits: the other copy stays unchanged
    cards = edited / "cards.yaml"
    assert "When you would explode" in cards.read_text(encoding="utf-8")
    cardgen = ("-m", "cardgen")
    cpu(*cardgen, "build", str(game), "--out", str(out / "build"), root=root)  # what a no-change build finds
    cpu(*cardgen, "cards", str(edited), "--out", str(out / "cards"), root=root)
    edits = iter(range(10 ** 6))

    def edited_cards() -> float:
        edit(cards, next(edits))
        return cpu(*cardgen, "cards", str(edited), "--out", str(out / "cards"), root=root)

    return {
        f"cardgen check{label}": lambda: cpu(*cardgen, "check", str(game), root=root),
        f"cardgen build, nothing changed{label}": lambda: cpu(*cardgen, "build", str(game), "--out",
                                                              str(out / "build"), root=root),
        f"one-card edit -> cardgen cards{label}": edited_cards,
        f"cardgen cards, nothing changed{label}": lambda: cpu(*cardgen, "cards", str(edited), "--out",
                                                              str(out / "cards"), root=root),
    }


if __name__ == "__main__":
    main()

"""Times card sheets drawn from face data against main's built-in face and the raw-ReportLab floor,
in one run: a generated game of N different cards (bench/big_game.py), `cardgen cards GAME --clean`
as a process of this tree and of another tree (--main, the code before faces were data), and
/work/shared/bench/raw_sheets.py for the same N, alternating, CPU seconds of each process with its
children, median of --repeat runs. Run by hand:

    python3 bench/bench_faces.py [--cards 1000] [--repeat 5] [--main /work/main]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.big_game import write_big_game  # noqa: E402

RAW = Path("/work/shared/bench/raw_sheets.py")


def cpu_of(command: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) a child process and its own children used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--main", type=Path, default=Path("/work/main"), help="the tree before faces were data")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = write_big_game(Path(temp) / "big", args.cards)
        runs: dict[str, list[float]] = {"faces": [], "main": [], "raw": []}
        for _ in range(args.repeat):
            for name, tree in (("faces", ROOT), ("main", args.main)):
                env = {**os.environ, "PYTHONPATH": str(tree)}
                runs[name].append(cpu_of([sys.executable, "-m", "cardgen", "cards", str(folder), "--clean",
                                          "--out", str(Path(temp) / name)], env))
            runs["raw"].append(cpu_of([sys.executable, str(RAW), str(args.cards), str(Path(temp) / "raw.pdf"),
                                       str(ROOT / "art")], dict(os.environ)))
    median = {name: statistics.median(times) for name, times in runs.items()}
    print(f"{args.cards} different cards, median of {args.repeat} runs, CPU seconds:")
    for name, seconds in median.items():
        print(f"  {name:6} {seconds:7.2f}  ({seconds / median['raw']:.2f}x the raw floor)")
    print(f"faces from data / main's built-in face: {median['faces'] / median['main']:.3f}x")


if __name__ == "__main__":
    main()

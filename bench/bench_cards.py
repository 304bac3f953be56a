"""Times card sheets against the raw-ReportLab floor, in one run: for each size N, a generated game
of N different cards (bench/big_game.py, every face drawn from scratch: the worst case), the whole
`cardgen cards GAME --clean` as a process of this tree, next to ../shared/bench/raw_sheets.py
drawing N cards (its README: the least a sheet with cardgen's elements can cost), alternating the
two. Per process: CPU seconds (user + system, with its workers) and peak memory (the largest
resident set of the process or any of its workers); each figure the median of --repeat runs, and
the ratios cardgen / floor. Python may write its bytecode caches (a first round, not counted,
writes them), as an installed cardgen has them. Run by hand (about three minutes):

    python3 bench/bench_cards.py [--repeat 3] [--sizes 98 1000 5000] [--raw PATH]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.big_game import write_big_game  # noqa: E402

RAW = Path(__file__).resolve().parents[2] / "shared" / "bench" / "raw_sheets.py"  # shared/ beside the repository


def run(arguments: list[str]) -> tuple[float, float]:
    """(CPU seconds, peak MiB) of one Python process and the workers it waited for, run from the
    repository's root: wait4 reports both for the child and its reaped children."""
    environment = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, *arguments], cwd=ROOT, env=environment, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{' '.join(arguments)} failed:\n{errors.decode(errors='replace')}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[98, 1000, 5000])
    parser.add_argument("--raw", type=Path, default=RAW, help="the floor's script")
    args = parser.parse_args()
    print(f"whole process, median of {args.repeat}: CPU seconds and peak MiB (with workers); ratio cardgen / floor")
    with tempfile.TemporaryDirectory(prefix="cardgen-bench-") as temp:
        for n in args.sizes:
            folder = write_big_game(Path(temp) / f"big{n}", n)
            commands = {"cardgen": ["-m", "cardgen", "cards", str(folder), "--clean", "--out", str(Path(temp) / "out")],
                        "floor": [str(args.raw), str(n), str(Path(temp) / "raw.pdf"), str(ROOT / "art")]}
            figures: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
            for round_ in range(args.repeat + 1):
                for name, arguments in commands.items():
                    figure = run(arguments)
                    if round_:  # the first round writes the bytecode caches
                        figures[name].append(figure)
            cpu = {name: statistics.median(f[0] for f in runs) for name, runs in figures.items()}
            peak = {name: statistics.median(f[1] for f in runs) for name, runs in figures.items()}
            print(f"{n:>5} cards  cardgen {cpu['cardgen']:6.2f} s {peak['cardgen']:5.0f} MiB  "
                  f"floor {cpu['floor']:6.2f} s {peak['floor']:5.0f} MiB  "
                  f"CPU {cpu['cardgen'] / cpu['floor']:4.2f}x  peak {peak['cardgen'] / peak['floor']:4.2f}x", flush=True)


if __name__ == "__main__":
    main()

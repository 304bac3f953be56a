"""Times the start of the command line: whole-process CPU seconds (user + system) of
`python -m cardgen --version`, `--help` and `check exploding_puppy`, next to the least any Python
command costs on the same machine in the same run: `python -c pass` and `python -c "import yaml"`
(cardgen reads YAML). The runs alternate, so that a busy moment weighs on every command alike;
each figure is the median of N. Python may write its bytecode caches (a first round, not counted,
writes them), as an installed cardgen has them: compiling the sources would be most of the time.
Run by hand:

    python3 bench/bench_startup.py [--repeat N]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BASELINES = {"python -c pass": ["-c", "pass"], 'python -c "import yaml"': ["-c", "import yaml"]}
COMMANDS = {"cardgen --version": ["-m", "cardgen", "--version"], "cardgen --help": ["-m", "cardgen", "--help"],
            "cardgen check exploding_puppy": ["-m", "cardgen", "check", "exploding_puppy"]}


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_cpu(arguments: list[str]) -> float:
    """CPU seconds of one Python process running `arguments`, from the repository's root."""
    environment = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONPATH": str(ROOT)}
    start = children_cpu()
    subprocess.run([sys.executable, *arguments], cwd=ROOT, env=environment, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return children_cpu() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    runs = {**BASELINES, **COMMANDS}
    times: dict[str, list[float]] = {name: [] for name in runs}
    for round_ in range(args.repeat + 1):
        for name, arguments in runs.items():
            spent = process_cpu(arguments)
            if round_:
                times[name].append(spent)
    median = {name: statistics.median(values) for name, values in times.items()}
    floor = median['python -c "import yaml"']
    print(f"CPU seconds of the whole process, median of {args.repeat}; ratio to python -c \"import yaml\"")
    for name in runs:
        print(f"{name:<32} {median[name]:6.3f} s  {median[name] / floor:5.2f}x  (over it: {median[name] - floor:+.3f} s)")


if __name__ == "__main__":
    main()

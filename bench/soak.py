"""The fuzz soak: many mutated games (tests/security/mutations.py) through `check` and the
renderers, counting how each ended; any traceback, foreign exception or case over 30 s is a bug,
printed with its seed (re-run one with --seed N --cases 1). CI runs a few hundred cases in
tests/security/test_fuzz.py; run this by hand for longer:

    python3 bench/soak.py --cases 10000 [--seed 0] [--jobs 2] [--full-every 50]

--full-every N renders every Nth case to whole PDFs (WeasyPrint and ReportLab to the end).
Each job is a process of its own, under a 2 GiB memory limit.
"""
from __future__ import annotations

import argparse
import collections
import multiprocessing
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

MEMORY_LIMIT = 2 << 30


def _job(seeds: list[int], full_every: int, queue) -> None:
    from security.mutations import run_case

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    for seed in seeds:
        with tempfile.TemporaryDirectory(prefix="cardgen-soak-") as workdir:
            outcome = run_case(seed, Path(workdir), full=bool(full_every) and seed % full_every == 0)
        queue.put(outcome)
    queue.put(None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0, help="the first case's seed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--full-every", type=int, default=50)
    args = parser.parse_args()
    seeds = list(range(args.seed, args.seed + args.cases))
    queue = multiprocessing.get_context("fork").Queue()
    jobs = [multiprocessing.get_context("fork").Process(target=_job, args=(seeds[i::args.jobs], args.full_every, queue))
            for i in range(args.jobs)]
    for job in jobs:
        job.start()
    counts: collections.Counter = collections.Counter()
    by_target: collections.Counter = collections.Counter()
    bugs, running, start = [], len(jobs), time.monotonic()
    while running:
        outcome = queue.get()
        if outcome is None:
            running -= 1
            continue
        counts[outcome.stage] += 1
        by_target[outcome.target] += 1
        if outcome.stage == "BUG":
            bugs.append(outcome)
            print(f"BUG seed {outcome.seed} ({outcome.target}): {outcome.detail}", flush=True)
        done = sum(counts.values())
        if done % 500 == 0:
            print(f"{done} cases, {time.monotonic() - start:.0f} s: {dict(counts)}", flush=True)
    for job in jobs:
        job.join()
    print(f"\n{sum(counts.values())} cases (seeds {args.seed}..{args.seed + args.cases - 1}) in "
          f"{time.monotonic() - start:.0f} s")
    for stage, n in counts.most_common():
        print(f"  {stage:<26} {n}")
    print("by file edited: " + ", ".join(f"{t} {n}" for t, n in sorted(by_target.items())))
    print(f"bugs: {len(bugs)}" + (" (seeds " + ", ".join(str(b.seed) for b in bugs) + ")" if bugs else ""))
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())

"""Times a full `cardgen build GAME --clean` (every language, on the build's two workers): each
output's CPU time in the worker that rendered it, each worker's total, the parent's part, and the
wall time that makes on two quiet cores (the parent's part, then the busier worker's CPU time);
beside it, the wall time of the `cardgen build` command measured on this machine, which other
work may share. CPU time is what to compare: a shared machine stretches wall time far more.

    python3 bench/bench_build.py [GAME] [--booklet] [--repeat N]

Each figure is the least of N runs (the least disturbed)."""
from __future__ import annotations

import argparse
import collections
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardgen.publish import run, workers  # noqa: E402
from cardgen.publish.driver import drive  # noqa: E402
from cardgen.publish.kinds import plan_all  # noqa: E402
from cardgen.publish.request import Request  # noqa: E402


def timed_outputs():
    """Wrap the workers' rendering of one output (the workers are forked from this process, so they
    run the wrapper): each output's CPU time and worker, on the report it sends back."""
    render_one = workers._render_one

    def timed(output, game, report, stage, limits):
        start = time.process_time()
        done = render_one(output, game, report, stage, limits)
        done.cpu, done.worker = time.process_time() - start, os.getpid()
        return done

    workers._render_one = timed


def one_build(game: str, booklet: bool) -> tuple[float, dict[str, tuple[float, int]]]:
    """The parent's CPU time, and each output's (CPU time, worker), of one build in this process."""
    dones: dict[str, tuple[float, int]] = {}
    render_all = run.render_all

    def kept(sources, outputs, limits, started):
        for index, done in render_all(sources, outputs, limits, started):
            language = sources[index][0].language
            dones[f"{language}: {done.output.label}"] = (done.cpu, done.worker)
            yield index, done

    run.render_all = kept
    try:
        with tempfile.TemporaryDirectory() as out:
            start = time.process_time()
            built = drive(Request(game, lambda g, report: plan_all(g, report, booklet=booklet),
                                  every_language=True, out=out, clean=True))
            parent = time.process_time() - start
            assert built.ok, [r.failures + r.bugs for r in built.results]
    finally:
        run.render_all = render_all
    return parent, dones


def command(game: str, booklet: bool) -> tuple[float, float]:
    """Wall and CPU time (itself and its workers) of the `cardgen build` command."""
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cardgen", "build", game, "--clean", "--out", out,
                        *(["--booklet"] if booklet else [])],
                       check=True, capture_output=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def startup() -> float:
    """CPU time of `cardgen build --help`: what the command imports before it loads the game."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "cardgen", "build", "--help"], check=True, capture_output=True,
                   env=dict(os.environ, PYTHONPATH=str(ROOT)))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="exploding_puppy")
    parser.add_argument("--booklet", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    timed_outputs()
    outputs: dict[str, list[float]] = collections.defaultdict(list)
    parents, spans, walls, cpus, starts = [], [], [], [], []
    for _ in range(args.repeat):
        parent, dones = one_build(args.game, args.booklet)
        parents.append(parent)
        for label, (cpu, _) in dones.items():
            outputs[label].append(cpu)
        busy: dict[int, float] = collections.defaultdict(float)
        for cpu, worker in dones.values():
            busy[worker] += cpu
        spans.append(sorted(busy.values(), reverse=True))
        wall, cpu = command(args.game, args.booklet)
        walls.append(wall)
        cpus.append(cpu)
        starts.append(startup())
    print(f"{args.game}, every language, --clean{' --booklet' if args.booklet else ''}: least of {args.repeat}, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for label, times in outputs.items():
        print(f"  {min(times):6.2f} s CPU  {label}")
    total = sum(min(times) for times in outputs.values())
    span = min(spans, key=lambda s: s[0])
    print(f"  {total:6.2f} s CPU  every output; the workers {' + '.join(f'{s:.2f}' for s in span)}")
    parent, start = min(parents), min(starts)
    print(f"  parent {parent:.2f} s CPU (load, check, plan, publish) + {start:.2f} s startup (imports)")
    print(f"computed wall on two quiet cores: {start + parent + span[0]:.1f} s "
          f"(startup + parent + the busier worker); measured: the command {min(walls):.1f} s wall, "
          f"{min(cpus):.1f} s CPU")


if __name__ == "__main__":
    main()

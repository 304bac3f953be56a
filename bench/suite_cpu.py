"""Where the test suite's CPU time goes: each test's CPU seconds, its own and those of the
processes it started (build workers, `python -m cardgen`, git), by test and by file.

The suite's goal is a wall-clock time on two cores, and it runs CPU-bound on both: its wall
time is about its CPU time over two. So a test costs what its CPU time says, whichever process
spends it. Record a run, then read it (the record lists every test, one line each):

    PYTHONPATH=bench python3 -m pytest -p suite_cpu --suite-cpu /tmp/suite-cpu.tsv
    python3 bench/suite_cpu.py /tmp/suite-cpu.tsv [--top N]

A session fixture's cost (a shared document, a wheel) lands on the first test that asks for it.
"""
from __future__ import annotations

import argparse
import os
import resource
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

FIELDS = ("test", "own_user", "own_sys", "children_user", "children_sys", "wall", "worker")
GOAL_SECONDS = 120  # the whole suite on two cores (issue 37)
BUCKETS = (0.02, 0.05, 0.2, 0.5, 1.0, 2.0, float("inf"))  # CPU seconds a test takes


def pytest_addoption(parser: Any) -> None:
    parser.addoption("--suite-cpu", metavar="FILE", help="append each test's CPU seconds to FILE (bench/suite_cpu.py)")


def _clock() -> tuple[float, ...]:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime, own.ru_stime, children.ru_utime, children.ru_stime, time.monotonic()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Iterator[None]:
    record = item.config.getoption("--suite-cpu")
    start = _clock()
    yield
    if record:
        spent = [f"{end - begin:.3f}" for begin, end in zip(start, _clock())]
        with open(record, "a", encoding="utf-8") as file:  # each worker appends whole lines
            file.write("\t".join([item.nodeid, *spent, os.environ.get("PYTEST_XDIST_WORKER", "-")]) + "\n")


def read(record: Path) -> list[dict[str, Any]]:
    rows = []
    for line in record.read_text(encoding="utf-8").splitlines():
        values = dict(zip(FIELDS, line.split("\t")))
        row: dict[str, Any] = {name: float(values[name]) for name in FIELDS[1:-1]}
        row.update(test=values["test"], file=values["test"].split("::")[0],
                   cpu=row["own_user"] + row["own_sys"] + row["children_user"] + row["children_sys"])
        rows.append(row)
    return rows


def report(rows: list[dict[str, Any]], top: int) -> str:
    cpu = sum(row["cpu"] for row in rows)
    children = sum(row["children_user"] + row["children_sys"] for row in rows)
    lines = [f"{len(rows)} tests, {cpu:.1f} s of CPU ({children:.1f} s in the processes they started), "
             f"{sum(row['wall'] for row in rows):.1f} s of wall time between the workers",
             f"on two cores: at least {cpu / 2:.0f} s of wall time; {GOAL_SECONDS} s allows {2 * GOAL_SECONDS} s of CPU", "",
             "tests by their CPU time:"]
    floor = 0.0
    for ceiling in BUCKETS:
        inside = [row["cpu"] for row in rows if floor <= row["cpu"] < ceiling]
        span = f"{floor:5.2f} s to {ceiling:5.2f} s" if ceiling < float("inf") else f"{floor:5.2f} s and more"
        lines.append(f"  {span:>18}: {len(inside):5d} tests, {sum(inside):7.1f} s")
        floor = ceiling
    by_file: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    for row in rows:
        by_file[row["file"]] += row["cpu"]
        counts[row["file"]] += 1
    lines += ["", f"the {top} costliest files:"]
    lines += [f"  {seconds:7.1f} s  {counts[name]:4d} tests  {name}" for name, seconds in by_file.most_common(top)]
    lines += ["", f"the {top} costliest tests:"]
    lines += [f"  {row['cpu']:7.2f} s  {row['test']}" for row in sorted(rows, key=lambda row: -row["cpu"])[:top]]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("record", type=Path, help="the file a run wrote with --suite-cpu")
    parser.add_argument("--top", type=int, default=25, help="how many files and tests to list")
    args = parser.parse_args()
    print(report(read(args.record), args.top))


if __name__ == "__main__":
    main()

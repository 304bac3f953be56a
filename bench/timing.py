"""The benches' clock: CPU seconds of this process and of its finished children (the build's
workers), best of N runs, the least disturbed by other work on a shared machine."""
from __future__ import annotations

import resource
from collections.abc import Callable


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(function: Callable[[], object], repeat: int) -> float:
    """Best CPU time of `repeat` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = cpu_seconds()
        function()
        best = min(best, cpu_seconds() - start)
    return best

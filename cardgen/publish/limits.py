"""publish/limits: the ceilings on each output's work (publish/workers.py enforces them). Light: a
request names its ceilings without importing the worker pool."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """The ceiling on each output's work. A real game's largest output takes a few seconds and
    a few hundred MB; these stop runaway input (a pathological SVG, template or rules.md) fast."""

    cpu_seconds: int = 30
    memory_bytes: int = 1 << 30  # address space of a worker process
    # only against a hang: on a busy machine 30 s of CPU time can take minutes; CPU time is the measure
    wall_seconds: float = 300.0
    workers: int = 2

    @property
    def cpu_spent(self) -> str:
        return f"used more than {self.cpu_seconds} s of CPU time"

    @property
    def memory_spent(self) -> str:
        return f"needed more than {self.memory_bytes >> 20} MB of memory"


# the build's ceilings: a run and check's rendering of a game's own templates read them when they
# start (`limits.LIMITS`, not a copy imported once), so that a test may lower them
LIMITS = Limits()

"""publish/limits: the ceilings on each output's work (publish/workers.py enforces them). Light: a
request names its ceilings without importing the worker pool."""
from __future__ import annotations

from dataclasses import dataclass

try:
    import resource
except ImportError:  # not a POSIX system: the wall-clock timeout still applies
    resource = None  # type: ignore[assignment]


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


# the build's ceilings: work under ceilings reads them when it starts (`current`, not a copy
# imported once), so that a test may lower them
LIMITS = Limits()


def current(limits: Limits | None) -> Limits:
    """The ceilings given, or the build's own (LIMITS as it is now)."""
    return LIMITS if limits is None else limits


def set_limit(name: str, soft: int, hard: int | None = None) -> None:
    """Set a resource limit of this process (`name` as in the resource module, RLIMIT_CPU...) to
    `soft`, and its hard limit to `hard` when given (what an exec'd program must not raise again),
    never above a hard limit set from outside (`ulimit -H`): there, asking for more than it allows
    would fail. The soft limit is set, not only lowered: a worker sets each task's CPU time from
    where its last task left it. Nothing where the system has no such limit."""
    which = getattr(resource, name, None)
    if which is None:
        return
    outside = resource.getrlimit(which)[1]
    if hard is None or (outside != resource.RLIM_INFINITY and outside < hard):
        hard = outside
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    try:
        resource.setrlimit(which, (soft, hard))
    except (ValueError, OSError):
        pass

"""publish/workers: each output rendered in a worker process under a ceiling of CPU time and
memory, with a much longer wall-clock time only against a worker that hangs (a busy machine
slows work down, it does not make it more); workers die with the command, even when it is
killed, and at once when the work they do is cancelled (`cancelled_by`)."""
from __future__ import annotations

import ctypes
import gc
import math
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path
from typing import TypeVar, cast

from cardgen.check.results import GameReport
from cardgen.errors import BuildError, CardgenError, UsageError
from cardgen.model.game import Game
from cardgen.model.words import speaking
from cardgen.publish.folder import FULL_DISK, output_error
from cardgen.publish.kinds import Rendering, kind_of
from cardgen.publish.limits import Limits, current, set_limit
from cardgen.publish.plan import Output

T = TypeVar("T")


@dataclass
class Done:
    """What a worker reports about one output."""

    output: Output
    problem: str | None = None
    bug: str | None = None
    placeholders: set[str] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # the names of the files it wrote
    spent: bool = False  # a ceiling was hit: the worker exits rather than render more


class _OutOfTime(BaseException):
    """Raised in a worker by SIGXCPU; a BaseException so that no renderer's `except Exception`
    turns it into an ordinary failure."""


Source = tuple[Game, GameReport, Path]  # a game (in one of its languages), its report and the stage its outputs go into


def render_all(sources: Sequence[Source], outputs: Sequence[tuple[int, Output]], limits: Limits,
               started: Callable[[int, Output], None]) -> Iterator[tuple[int, Done]]:
    """Each output, rendered from its source (its index in `sources`: the game in one of its
    languages) into that source's stage, on one small pool of worker processes, each under the
    ceilings; a worker that dies or runs over its time is killed and replaced, and its output
    reported as failed. The longest outputs are started first (`longest_first`). Yields each
    output's source index and report, as each one is done."""
    if not outputs:
        return
    scratch = sources[0][2] / SCRATCH
    scratch.mkdir()
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    pending = longest_first(outputs)
    idle: list[_Worker] = []
    busy: dict[_Worker, tuple[int, Output, float]] = {}
    size = min(limits.workers, len(outputs))
    try:
        while pending or busy:
            while pending and len(busy) < size:
                worker = idle.pop() if idle else _Worker(context, sources, scratch, limits)
                if not worker.process.is_alive():  # died while idle (killed from outside)
                    worker.stop()
                    continue
                index, output = pending.pop(0)
                worker.send(index, output)
                started(index, output)
                busy[worker] = (index, output, time.monotonic() + limits.wall_seconds)
            _wait_for([w.connection for w in busy] + [w.process.sentinel for w in busy],
                      min(end for _, _, end in busy.values()))
            for worker, (index, output, end) in list(busy.items()):
                done = worker.poll(output, end, limits)
                if done is None:
                    continue
                del busy[worker]
                if worker.process.is_alive() and not done.spent:
                    idle.append(worker)
                else:
                    worker.stop()
                yield index, done
    finally:
        for worker in idle:
            worker.stop()
        for worker in busy:  # left early (cancelled, interrupted): its output is not wanted
            worker.kill()
        shutil.rmtree(scratch, ignore_errors=True)


def longest_first(outputs: Sequence[tuple[int, Output]]) -> list[tuple[int, Output]]:
    """The outputs in the order the workers take them: the longest to render first (by their kind's
    cost), the others in the order given. Started last, a long one would keep one worker busy
    while the other has nothing left to do."""
    return sorted(outputs, key=lambda item: -kind_of(item[1]).cost)


# A worker's garbage collection: the first generation collected after 50,000 new objects rather than
# 700, the older ones every 20 collections of the one before rather than 10. WeasyPrint makes and
# drops millions of objects laying out a document, many of them in cycles; at Python's defaults
# the collector ran a thousand times a document, and each full collection went through everything
# the worker had imported and kept since it started (WeasyPrint's modules, fonts, caches): 3.3 s of
# the 28 s Exploding Puppy's two rulebooks and two checklists took in one worker, 0.9 s at these.
# The worker holds some 20 MB more between collections.
WORKER_GC = (50_000, 20, 20)


# The workers' temporary files (WeasyPrint's font files, which it removes only when a process
# ends normally, and workers never do): a folder of the stage, so the build removes it, and the
# next run does after a kill.
SCRATCH = ".scratch"


class _Worker:
    """A process that renders the outputs it is sent, one at a time."""

    def __init__(self, context, sources: Sequence[Source], scratch: Path, limits: Limits):
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_worker_main, daemon=True,
                                       args=(child, sources, scratch, limits, os.getpid()))
        with _signals_held():
            self.process.start()
        child.close()

    def send(self, source: int, output: Output) -> None:
        self.connection.send((source, output))

    def poll(self, output: Output, deadline: float, limits: Limits) -> Done | None:
        """The worker's report on `output`, a failure if it died or ran over time, or None."""
        if self.connection.poll():
            try:
                return self.connection.recv()
            except (EOFError, OSError):
                pass  # it died while answering: see below
        elif self.process.is_alive():
            if time.monotonic() < deadline:
                return None
            self.kill()
            return Done(output, _over_the_limit(output, _hung(limits)), spent=True)
        self.process.join(5)
        return Done(output, _died(output, self.process.exitcode, limits), spent=True)

    def stop(self) -> None:
        """Ask an idle worker to exit; kill it if it does not."""
        if self.process.is_alive():
            try:
                self.connection.send(None)
            except OSError:
                pass
            self.process.join(0.5)
        self.kill()

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)
        self.connection.close()


def _worker_main(connection, sources: Sequence[Source], scratch: Path, limits: Limits, parent: int) -> None:
    _enter_worker(limits, parent)
    gc.freeze()  # what the worker inherits (the game, its report, the modules) is never its garbage: not looked at again
    gc.set_threshold(*WORKER_GC)
    tempfile.tempdir = str(scratch)
    while True:
        try:
            sent = connection.recv()
        except (EOFError, OSError):
            return
        if sent is None:
            return
        source, output = sent
        game, report, stage = sources[source]
        _cpu_ceiling(limits)
        done = _render_one(output, game, report, stage, limits)
        connection.send(done)
        if done.spent:
            return


def _render_one(output: Output, game: Game, report: GameReport, stage: Path, limits: Limits) -> Done:
    """Render one output into a folder of its own, then move its files into the stage: so the
    build knows which files each output made (the cache's record)."""
    done = Done(output)
    own = None
    try:
        own = Path(tempfile.mkdtemp(dir=stage))
        kind = kind_of(output)
        with speaking(game.words):
            kind.renderer()(output, game, report, Rendering(own, stage.parent, done.placeholders, done.warnings))
        files = {path: path.relative_to(own).as_posix() for path in sorted(own.rglob("*")) if path.is_file()}
        undeclared = [name for name in files.values() if not kind.writes(name)]
        if undeclared:  # a bug in the renderer or in its kind's files: nothing of it is published
            raise RuntimeError(f"{kind.name} wrote {', '.join(undeclared)}: not among its files ({', '.join(kind.files)})")
        for path, name in files.items():  # an export's parts share one folder
            (stage / name).parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, stage / name)
            done.files.append(name)
    except _OutOfTime:
        done.problem, done.spent = _over_the_limit(output, limits.cpu_spent), True
    except MemoryError:
        done.problem, done.spent = _out_of_memory(output, limits), True
    except CardgenError as exc:
        cause = exc.__context__  # a library's failure, worded as a problem of the data, may be one of these
        if isinstance(cause, MemoryError):
            done.problem, done.spent = _out_of_memory(output, limits), True
        elif isinstance(cause, OSError) and cause.errno in FULL_DISK:
            done.problem = str(output_error(cause, output.label))
        else:
            done.problem = str(exc)
    except OSError as exc:
        done.problem = str(output_error(exc, output.label))
    except Exception:  # noqa: BLE001 - anything else is a bug in cardgen: keep its traceback
        done.bug = f"while rendering {output.label}:\n{traceback.format_exc()}"
    finally:
        if own is not None:
            shutil.rmtree(own, ignore_errors=True)
    return done


def bounded(task: Callable[[], T], what: str, limits: Limits | None = None) -> T:
    """task() in a forked process under the ceilings (work that untrusted data drives, outside a
    build: `check` rendering a game's own templates, `diff --pdf` drawing the faces); its result,
    or a BuildError naming `what` and the ceiling it passed."""
    return bounded_all([task], what, limits)[0]


def bounded_all(tasks: Sequence[Callable[[], T]], what: str, limits: Limits | None = None,
                done: Callable[[int, int], None] = lambda done, total: None) -> list[T]:
    """Each task in a forked worker process under the ceilings, in the order given, on
    limits.workers processes at most, each taking the next task when it has finished one (so that
    many small tasks do not each pay for a process): every task under a CPU-time ceiling of its
    own, a process under the memory ceiling from what it inherited. Their results in order. The
    first that fails stops the others: a BuildError naming `what` and the ceiling it passed, or the
    CardgenError the task raised. `done` hears how many tasks of how many are finished, as each
    one is."""
    limits = current(limits)
    context = multiprocessing.get_context("fork")
    pending = list(range(len(tasks)))
    idle: list[_Pooled] = []
    running: dict[_Pooled, int] = {}
    results: dict[int, object] = {}
    done(0, len(tasks))
    try:
        while pending or running:
            while pending and len(running) < max(1, limits.workers):
                worker = idle.pop() if idle else _Pooled(context, tasks, limits)
                running[worker] = pending.pop(0)
                worker.send(running[worker], limits)
            _wait_for([w.connection for w in running] + [w.process.sentinel for w in running],
                      min(w.deadline for w in running))
            for worker, index in list(running.items()):
                answer = worker.answer(limits)
                if answer is None:
                    continue
                del running[worker]
                if answer[0] == "ok":
                    idle.append(worker)
                else:
                    worker.end()
                results[index] = _result(answer, what)
                done(len(results), len(tasks))
    finally:
        for worker in [*idle, *running]:
            worker.end()
    return [cast(T, results[index]) for index in range(len(tasks))]


class _Pooled:
    """A worker process that runs the tasks it is sent (by their index), one at a time."""

    def __init__(self, context, tasks: Sequence[Callable[[], object]], limits: Limits):
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_pooled_main, args=(child, tasks, limits, os.getpid()), daemon=True)
        with _signals_held():
            self.process.start()
        child.close()
        self.deadline = math.inf

    def send(self, index: int, limits: Limits) -> None:
        self.connection.send(index)
        self.deadline = time.monotonic() + limits.wall_seconds

    def answer(self, limits: Limits) -> tuple[str, object] | None:
        """(kind, value) once the task has answered, died or run over its time; None while it runs."""
        if self.connection.poll():
            try:
                return self.connection.recv()
            except (EOFError, OSError):
                pass  # it died: see below
        elif self.process.is_alive():
            return None if time.monotonic() < self.deadline else ("time", _hung(limits))
        self.process.join(5)
        return "died", _death(self.process.exitcode, limits)

    def end(self) -> None:
        self.connection.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join()


def _result(answer: tuple[str, object], what: str) -> object:
    kind, value = answer
    if kind == "ok":
        return value
    if kind == "error":  # a CardgenError, sent as its parts (its class may take other arguments)
        usage, message, where, hint = cast(tuple, value)
        raise (UsageError if usage else BuildError)(message, where, hint)
    if kind == "bug":
        raise RuntimeError(f"{what} failed in its worker process:\n{value}")
    raise BuildError(f"{what} {value}", hint="make it do less work")


def _pooled_main(connection, tasks: Sequence[Callable[[], object]], limits: Limits, parent: int) -> None:
    _enter_worker(limits, parent)
    gc.freeze()  # what the worker inherits is never its garbage: not looked at again (nor copied for it)
    while True:
        try:
            index = connection.recv()
        except (EOFError, OSError):
            return
        _cpu_ceiling(limits)
        answer = _answer(tasks[index], limits)
        try:
            connection.send(answer)
        except MemoryError:
            connection.send(("memory", limits.memory_spent))
        except Exception:  # noqa: BLE001 - an answer that cannot be sent is a bug too
            connection.send(("bug", traceback.format_exc()))
        if answer[0] != "ok":
            return


def _answer(task: Callable[[], object], limits: Limits) -> tuple[str, object]:
    """What the task came to, as the parent reads it (_result)."""
    try:
        return "ok", task()
    except _OutOfTime:
        return "time", limits.cpu_spent
    except MemoryError:
        return "memory", limits.memory_spent
    except CardgenError as exc:
        return (("memory", limits.memory_spent) if out_of_memory(exc)
                else ("error", (isinstance(exc, UsageError), exc.message, exc.where, exc.hint)))
    except Exception:  # noqa: BLE001 - a bug in cardgen: its traceback goes to the parent
        return "bug", traceback.format_exc()


def out_of_memory(exc: CardgenError) -> bool:
    """Whether a library's failure, worded as a problem of the data, was running out of memory."""
    return isinstance(exc.__context__, MemoryError)


class Cancelled(Exception):
    """The work was cancelled (`cancelled_by`): its workers are gone."""


_CANCEL: ContextVar[threading.Event | None] = ContextVar("cardgen_cancel", default=None)
CANCEL_POLL = 0.1  # seconds: how soon a cancelled wait notices


@contextmanager
def cancelled_by(event: threading.Event) -> Iterator[None]:
    """Inside: once `event` is set, the work this thread waits on is cancelled at once, its
    worker processes killed and their temporary files removed (`cardgen serve` on Ctrl-C)."""
    token = _CANCEL.set(event)
    try:
        yield
    finally:
        _CANCEL.reset(token)


def _wait_for(waitables: list, deadline: float) -> None:
    """Until one of them is ready or the deadline passes; Cancelled if the work was cancelled."""
    cancel = _CANCEL.get()
    timeout = max(0.0, deadline - time.monotonic())
    wait(waitables, timeout=timeout if cancel is None else min(timeout, CANCEL_POLL))
    if cancel is not None and cancel.is_set():
        raise Cancelled()


def _hung(limits: Limits) -> str:
    return f"did not finish within {limits.wall_seconds:g} s of wall-clock time"


def _out_of_memory(output: Output, limits: Limits) -> str:
    return _over_the_limit(output, limits.memory_spent)


# Ctrl-C and SIGTERM reach the whole process group, workers included, and the parent decides. A
# worker must never run a handler it inherited (serve's raises KeyboardInterrupt): they are held
# (blocked) while the parent forks, and the worker lets them through once it ignores them.
_HELD = {signal.SIGINT, signal.SIGTERM}
_CAN_HOLD = hasattr(signal, "pthread_sigmask")  # where workers fork: not on Windows


@contextmanager
def _signals_held() -> Iterator[None]:
    """Inside, Ctrl-C and SIGTERM wait: a worker forked here starts with them blocked."""
    if not _CAN_HOLD:
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _enter_worker(limits: Limits, parent: int) -> None:
    """What every worker process does first: leave Ctrl-C and SIGTERM to its parent (ignored, then
    let through: see _HELD), die with its parent, and take the memory ceiling."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if _CAN_HOLD:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    _die_with_parent(parent)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file-size limit becomes an OSError, reported
    signal.signal(signal.SIGXCPU, _out_of_time)
    set_limit("RLIMIT_AS", _address_space() + limits.memory_bytes)


def _cpu_ceiling(limits: Limits) -> None:
    """limits.cpu_seconds more of CPU time from now: for each piece of work a worker takes."""
    set_limit("RLIMIT_CPU", math.ceil(time.process_time()) + limits.cpu_seconds)


def _out_of_time(signum, frame):
    raise _OutOfTime()


def _address_space() -> int:
    """The address space a worker starts with, inherited from the process that forked it (a test
    runner or `cardgen serve` may hold a gigabyte of it): the memory ceiling counts from there.
    0 where the system does not say."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """Workers never outlive the build: on Linux the kernel kills them when the parent dies
    (even by SIGKILL); elsewhere, and as a fallback, a thread checks every half second."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the line above armed the signal
        os._exit(1)

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _over_the_limit(output: Output, what: str) -> str:
    return str(BuildError(f"{output.label} {what} and was stopped",
                          hint=f"the likely cause is {kind_of(output).likely}"))


def _died(output: Output, exitcode: int | None, limits: Limits) -> str:
    return str(BuildError(f"the process rendering {output.label} {_death(exitcode, limits)}",
                          hint=f"the likely cause is {kind_of(output).likely}"))


def _death(exitcode: int | None, limits: Limits) -> str:
    if exitcode is not None and exitcode < 0:
        how = f"was killed by {signal.Signals(-exitcode).name}"
        if -exitcode == signal.SIGKILL:
            how += f" (perhaps out of memory: the limit is {limits.memory_bytes >> 20} MB)"
        return how
    return f"exited with code {exitcode}"

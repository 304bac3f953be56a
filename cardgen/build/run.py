"""build: plans the outputs of a command, renders each in a worker process under a CPU-time,
memory and wall-clock ceiling, stages them and publishes them all together or not at all.

Every building command goes through here, `cardgen build` with a plan of every output and
`cardgen rulebook` (and the others) with a plan of one, as do the tests and the benches.

Publishing, the promise a reader of the output folder can rely on:

1. every output is written into a staging folder inside the output folder,
   `.cardgen-build-<id>.tmp/`; a failed or killed build leaves the old outputs untouched, and
   the next run removes the staging folder;
2. when every output succeeded, the size and SHA-256 of each staged file are written into the
   staging folder, and it is renamed `.cardgen-publish-<id>.tmp/`: that one rename commits
   the build;
3. its files are moved over the old outputs, each by one atomic rename, and then
   `cardgen-manifest.json` is written (atomically), listing each output with its size and
   SHA-256 as staged. A run killed during step 3 is finished by the next run writing to the
   folder, before it does anything else (the files moved before the kill are in the manifest
   too: their entries were committed with the rest).

So each output file is always complete, and the outputs form one build exactly when each of
them matches the manifest. Runs writing to the same folder take turns (a lock on the folder).
"""
from __future__ import annotations

import ctypes
import dataclasses
import errno
import gc
import hashlib
import json
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
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from cardgen.build import cache
from cardgen.check import engine
from cardgen.layout import sheet as layout
from cardgen import load
from cardgen.check.engine import GameReport
from cardgen.errors import BuildError, CardgenError, UsageError
from cardgen.model.game import ERROR, Finding, Game, slugify
from cardgen.render.write import atomic_write, output_dir
from cardgen.model import sizes
from cardgen.render import cards, documents, exports
from cardgen.render.documents import cheatsheet
from cardgen.model.targets import Target

MANIFEST = "cardgen-manifest.json"
STAGE_PREFIX, PUBLISH_PREFIX, STAGE_SUFFIX = ".cardgen-build-", ".cardgen-publish-", ".tmp"


# --------------------------------------------------------------------------- load and check












# --------------------------------------------------------------------------- the plan


@dataclass(frozen=True)
class SheetOptions:
    """How card sheets are printed (see `cardgen cards --help`)."""

    size: Any = None  # None: the game's card size
    bleed: float = sizes.DEFAULT_BLEED_MM
    backs: bool = True
    offset: tuple[float, float] = (0.0, 0.0)
    mode: str = "long-edge"  # sizes.PRINT_MODES
    spacing: str = "gutter"  # sizes.SPACINGS
    png: bool = False

    def make_sheet(self, game: Game, paper: str) -> layout.Sheet:
        return layout.make_sheet(paper, self.size or game.card_size, self.bleed, self.offset, self.mode, self.spacing)


@dataclass(frozen=True)
class ExportPart:
    """One part of an export: a deck's cards for a target, split so that workers share the work."""

    target: Target
    deck: str  # the setup's slug, or "all-types"
    counts: tuple[tuple[str, int], ...]  # (card id, copies)
    part: int = 0
    parts: int = 1


@dataclass(frozen=True)
class Output:
    """One output to render: `kind` names its renderer, `label` names it in messages."""

    kind: str
    label: str
    paper: str = "a4"
    setup: str | None = None
    players: int | None = None
    sheet: SheetOptions = SheetOptions()
    export: ExportPart | None = None


@dataclass(frozen=True)
class Plan:
    outputs: tuple[Output, ...]
    skipped: tuple[str, ...] = ()  # outputs this game does not have, each with the reason
    notes: tuple[str, ...] = ()  # what the user should know about the outputs (fewer cards a sheet)


def plan_all(game: Game, report: GameReport, paper: str = "a4", exports: Sequence[str] = ()) -> Plan:
    """`cardgen build`: the rulebook, the checklists, the cheat sheet when the game has one, the
    card sheets of every setup, and the exports game.yaml names or `exports` asks for (of the
    default setup, or of every card type when the game has no setups)."""
    outputs, skipped = [Output("rulebook", "the rulebook", paper)], []
    if game.setups:
        outputs.append(Output("checklists", "the checklists", paper))
    else:
        skipped.append("checklists.pdf and the setups' card sheets: the game has no setups.yaml; "
                       "cards-all-types.pdf proofs every card instead")
        outputs.append(Output("all-types", "the sheet of every card type", paper))
    if game.cheatsheet is not None:
        outputs.append(Output("cheatsheet", "the cheat sheet", paper))
    else:
        skipped.append(f"cheatsheet.pdf: {_NO_CHEATSHEET}")
    outputs += [_setup_sheets(s.setup.name, paper) for s in report.setups]
    for target in dict.fromkeys((*game.exports, *exports)):
        outputs += _export_outputs(game, report, _target(game, target, None), None, all_types=not game.setups)
    return Plan(tuple(outputs), tuple(skipped), _sheet_notes(game, paper, SheetOptions()) if report.setups else ())


def plan_rulebook(game: Game, paper: str = "a4") -> Plan:
    return Plan((Output("rulebook", "the rulebook", paper),))


def plan_checklists(game: Game, paper: str = "a4", setup: str | None = None,
                    players: int | None = None) -> Plan:
    """The checklists of every setup, or of one; at one player count when asked."""
    setups = [_setup(game, setup)] if setup else list(game.setups)
    if players is not None:
        for s in setups:
            s.require_players(players)
    return Plan((Output("checklists", "the checklists", paper, setup, players),))


def plan_cheatsheet(game: Game, paper: str = "a4") -> Plan:
    if game.cheatsheet is None:
        raise BuildError(f"{game.title} has no cheat sheet: {_NO_CHEATSHEET}",
                         hint="add a 'reference: cheatsheet:' section to its game.yaml")
    return Plan((Output("cheatsheet", "the cheat sheet", paper),))


def plan_cards(game: Game, paper: str = "a4", sheet: SheetOptions = SheetOptions(), setup: str | None = None,
               players: int | None = None, all_types: bool = False, calibration: bool = False) -> Plan:
    """One card sheet: a setup's deck (the game's default setup unless named), one card of each
    type, or the duplex calibration sheet. Options out of range are usage errors."""
    notes = _sheet_notes(game, paper, sheet)
    if calibration:
        if sheet.mode == "gutterfold":
            raise UsageError("a gutterfold sheet is folded, not printed double-sided: it needs no calibration",
                             hint="calibrate --mode long-edge or short-edge")
        return Plan((Output("calibration", "the calibration sheet", paper, sheet=sheet),))
    if all_types:
        return Plan((Output("all-types", "the sheet of every card type", paper, sheet=sheet),), notes=notes)
    if not game.setups:
        raise UsageError(f"{game.title} has no setups yet, so there is no deck to print",
                         hint="use --all-types for a proof sheet of every card type, or add setups.yaml")
    name = setup or game.default_setup or game.setups[0].name
    chosen = _setup(game, name)
    if players is not None:
        chosen.require_players(players)
    return Plan((_setup_sheets(chosen.name, paper, players, sheet),), notes=notes)


def _sheet_notes(game: Game, paper: str, sheet: SheetOptions) -> tuple[str, ...]:
    """The sheet's layout, checked (options out of range are usage errors), and what the user
    should know about it: the cards its bleed costs, cut lines shared between cards."""
    try:
        made = sheet.make_sheet(game, paper)
    except ValueError as exc:
        raise UsageError(str(exc), hint="choose another --size, --bleed, --offset, --mode or --paper") from None
    notes = [layout.fewer_cards_note(made, paper)]
    if made.spacing == "shared-cuts" and made.bleed:
        notes.append("note: --layout shared-cuts: neighbouring cards share one cut line and have no bleed "
                     "towards each other (only the sheet's outer edges have bleed): cut exactly on the lines")
    return tuple(note for note in notes if note)


def plan_export(game: Game, report: GameReport, target: str, setup: str | None = None,
                all_types: bool = False, dpi: int | None = None) -> Plan:
    """`cardgen export`: a deck's cards for a print service or Tabletop Simulator: the named
    setup's print counts (the default setup unless named), or one card of every type."""
    return Plan(tuple(_export_outputs(game, report, _target(game, target, dpi), setup, all_types)))


def _export_outputs(game: Game, report: GameReport, target, setup: str | None, all_types: bool) -> list[Output]:
    if all_types:
        deck, counts = "all-types", {c.id: 1 for c in game.cards}
    else:
        if not game.setups:
            raise UsageError(f"{game.title} has no setups yet", hint="use --all-types to export every card type")
        chosen = _setup(game, setup or game.default_setup or game.setups[0].name)
        deck = slugify(chosen.name)
        counts = {card_id: n for card_id, n in report.setup(chosen.name).print_counts.items() if n}
    exports.card_pixels(game, target)  # a size the target has no product for fails here, not in a worker
    parts = exports.parts_of(game, target, counts)
    frozen = tuple(sorted(counts.items()))
    return [Output("export", f"the {target.id} export of {deck}" + (f" (part {i + 1} of {parts})" if parts > 1 else ""),
                   export=ExportPart(target, deck, frozen, i, parts)) for i in range(parts)]




def _target(game: Game, name: str, dpi: int | None):
    target = game.export_targets.get(name)
    if target is None:
        raise UsageError(f"no export target '{name}'",
                         hint=f"targets are: {', '.join(game.export_targets)} (or add one in the game's "
                              "export-targets.yaml)")
    if dpi is not None:
        if target.sizes:
            raise UsageError(f"{target.name} ({name}) wants fixed pixel sizes: --dpi is for the png target only")
        target = dataclasses.replace(target, dpi=dpi)
    return target


_NO_CHEATSHEET = "game.yaml has no 'reference: cheatsheet:' section"


def _setup_sheets(name: str, paper: str, players: int | None = None, sheet: SheetOptions = SheetOptions()) -> Output:
    return Output("cards", f"the card sheets of {name}", paper, name, players, sheet)


def _setup(game: Game, name: str):
    try:
        return game.setup(name)
    except KeyError:
        raise UsageError(f"no setup '{name}' in {game.id} (setups: "
                         f"{', '.join(s.name for s in game.setups) or 'none'})") from None


# --------------------------------------------------------------------------- running a plan


@dataclass(frozen=True)
class Limits:
    """The ceiling on each output's work. A real game's largest output takes a few seconds and
    a few hundred MB; these stop runaway input (a pathological SVG, template or rules.md) fast."""

    cpu_seconds: int = 30
    memory_bytes: int = 1 << 30  # address space of a worker process
    wall_seconds: float = 90.0  # the machine may be busy: CPU time is the real measure
    workers: int = 2


LIMITS = Limits()


@dataclass(frozen=True)
class Event:
    """What `run` reports as it works, for a progress display (cli.py shows it): an output
    `started` rendering, `finished`, or `failed` (its message is in the Result), or `reused`:
    up to date, not rendered."""

    kind: str
    output: Output


@dataclass
class Result:
    written: list[Path] = field(default_factory=list)
    reused: list[Path] = field(default_factory=list)  # outputs already up to date: not rebuilt
    notes: tuple[str, ...] = ()
    failures: list[str] = field(default_factory=list)  # one clean message per failed output
    bugs: list[str] = field(default_factory=list)  # tracebacks of unexpected exceptions
    warnings: list[str] = field(default_factory=list)
    skipped: tuple[str, ...] = ()
    title: str = ""  # the game's

    @property
    def ok(self) -> bool:
        return not self.failures and not self.bugs


def run(game: Game, report: GameReport, plan: Plan, out: str | os.PathLike | None = None,
        limits: Limits | None = None, on_event: Callable[[Event], None] = lambda event: None, *, clean: bool = False,
        inputs: cache.Snapshot | None = None, request: Any = None) -> Result:
    """Render the plan's outputs into a staging folder in `out` (default output/<game>/) and
    publish them when every one succeeded (see the module's docstring). `on_event` hears of
    each output as it starts and ends, or that it was up to date.

    Outputs whose inputs are unchanged since they were published are not rendered again
    (unless `clean`). `inputs` is the snapshot of the input files taken before the game was
    loaded (taken here if not given); `request`, the command's options, lets `reuse` answer
    the same command on unchanged files without loading the game."""
    out = output_dir(game, out)
    limits = limits or LIMITS
    inputs = inputs or cache.snapshot(game.folder)
    result = Result(skipped=plan.skipped, title=game.title, notes=plan.notes)
    placeholders: set[str] = set()
    with _locked(_output_folder(out)):
        recover(out)
        keys = {output: _output_key(inputs, game, report, output) for output in plan.outputs}
        known = {} if clean else _current_outputs(out)
        todo = _to_render(plan.outputs, keys, known)
        for output in plan.outputs:
            if output not in todo:
                result.reused += [out / name for name in known[keys[output]]["files"]]
                placeholders.update(known[keys[output]]["placeholders"])
                result.warnings += known[keys[output]].get("warnings", [])
                on_event(Event("reused", output))
        made: dict[str, dict] = {}
        stage = _new_stage(out)
        try:
            outputs = _render_all(game, report, todo, stage, limits,
                                  lambda output: on_event(Event("started", output)))
            for done in outputs:
                on_event(Event("failed" if done.problem or done.bug else "finished", done.output))
                placeholders |= done.placeholders
                result.warnings += done.warnings
                if done.problem:
                    result.failures.append(done.problem)
                if done.bug:
                    result.bugs.append(done.bug)
                made[keys[done.output]] = {"files": sorted(done.files), "placeholders": sorted(done.placeholders),
                                           "warnings": done.warnings}
            if placeholders:  # one warning for all the card sheets, not one per sheet
                result.warnings.append(cards.placeholder_warning(game, sorted(placeholders, key=str.casefold)))
            if result.ok:
                runs = {} if request is None else {cache.request_key(inputs, request): {
                    "outputs": [keys[o] for o in plan.outputs], "warnings": result.warnings,
                    "skipped": list(plan.skipped), "title": game.title}}
                result.written = _publish(_commit(stage, made, runs), out)
        finally:
            shutil.rmtree(stage, ignore_errors=True)
    return result


def _to_render(outputs: Sequence[Output], keys: dict[Output, str], known: dict) -> list[Output]:
    """The outputs whose inputs changed. An export's parts share one folder, published whole, so
    a changed part renders the others again too."""
    changed = [output for output in outputs if keys[output] not in known]
    exports = {_export_folder(output) for output in changed if output.export}
    return [output for output in outputs if output in changed or output.export and _export_folder(output) in exports]


def _export_folder(output: Output) -> tuple[str, str]:
    return output.export.target.id, output.export.deck


def reuse(inputs: cache.Snapshot, request: Any, out: str | os.PathLike | None = None) -> Result | None:
    """What the last run of the same command published, if every input file and option is the
    same and its outputs are unchanged on disk; None if anything needs building. Loads nothing:
    a build with nothing to do costs a digest of the input files and outputs. A folder a killed
    run left behind is no answer: the run that removes it (`recover`) is a full one."""
    out = Path(out) if out else Path("output") / inputs.folder.name
    if any(_left_behind(out)):
        return None
    manifest = _read_manifest(out)
    last = manifest["cache"]["runs"].get(cache.request_key(inputs, request))
    known = _current_outputs(out, manifest)
    if not isinstance(last, dict) or not all(key in known for key in last.get("outputs", ())):
        return None
    files = [out / name for key in last["outputs"] for name in known[key]["files"]]
    return Result(reused=files, warnings=list(last.get("warnings", ())), skipped=tuple(last.get("skipped", ())),
                  title=str(last.get("title", "")))


def _output_key(inputs: cache.Snapshot, game: Game, report: GameReport, output: Output) -> str:
    """An output's cache key: card sheets from the cards they print, documents from everything."""
    if output.kind == "cards":
        printed = report.setup(output.setup)
        setup = printed.setup
        wanted = ({line.card for line in setup.lines} | {card for card, _ in setup.hand.extras}
                  | set(printed.print_counts))
        return cache.sheet_key(inputs, game, (output, printed.print_counts),
                               [c for c in game.cards if c.id in wanted], [setup])
    if output.kind == "all-types":
        return cache.sheet_key(inputs, game, output, game.cards)
    if output.kind == "calibration":
        return cache.sheet_key(inputs, game, output, ())
    if output.kind == "export":  # its part of the target's files, from every card (the parts share one folder)
        return cache.sheet_key(inputs, game, output, game.cards)
    return cache.document_key(inputs, output)


# --------------------------------------------------------------------------- the workers


@dataclass
class _Done:
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


def _render_all(game: Game, report: GameReport, outputs: Sequence[Output], stage: Path,
                limits: Limits, started: Callable[[Output], None]) -> Iterator[_Done]:
    """Each output on a small pool of worker processes, each under the ceilings; a worker that
    dies or runs over its time is killed and replaced, and its output reported as failed."""
    if not outputs:
        return
    (stage / SCRATCH).mkdir()
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    pending = list(outputs)
    idle: list[_Worker] = []
    busy: dict[_Worker, tuple[Output, float]] = {}
    size = min(limits.workers, len(outputs))
    try:
        while pending or busy:
            while pending and len(busy) < size:
                worker = idle.pop() if idle else _Worker(context, game, report, stage, limits)
                if not worker.process.is_alive():  # died while idle (killed from outside)
                    worker.stop()
                    continue
                output = pending.pop(0)
                worker.send(output)
                started(output)
                busy[worker] = (output, time.monotonic() + limits.wall_seconds)
            deadline = min(end for _, end in busy.values())
            wait([w.connection for w in busy] + [w.process.sentinel for w in busy],
                 timeout=max(0.0, deadline - time.monotonic()))
            for worker, (output, end) in list(busy.items()):
                done = worker.poll(output, end, limits)
                if done is None:
                    continue
                del busy[worker]
                if worker.process.is_alive() and not done.spent:
                    idle.append(worker)
                else:
                    worker.stop()
                yield done
    finally:
        for worker in idle + list(busy):
            worker.stop()
        shutil.rmtree(stage / SCRATCH, ignore_errors=True)


# The workers' temporary files (WeasyPrint's font files, which it removes only when a process
# ends normally, and workers never do): a folder of the stage, so the build removes it, and the
# next run does after a kill.
SCRATCH = ".scratch"


class _Worker:
    """A process that renders the outputs it is sent, one at a time."""

    def __init__(self, context, game: Game, report: GameReport, stage: Path, limits: Limits):
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_worker_main, daemon=True,
                                       args=(child, game, report, stage, limits, os.getpid()))
        self.process.start()
        child.close()

    def send(self, output: Output) -> None:
        self.connection.send(output)

    def poll(self, output: Output, deadline: float, limits: Limits) -> _Done | None:
        """The worker's report on `output`, a failure if it died or ran over time, or None."""
        if self.connection.poll():
            try:
                return self.connection.recv()
            except (EOFError, OSError):
                pass  # it died while answering: see below
        elif self.process.is_alive():
            if time.monotonic() < deadline:
                return None
            self.stop()
            return _Done(output, _over_the_limit(output, f"took longer than {limits.wall_seconds:g} s"), spent=True)
        self.process.join(5)
        return _Done(output, _died(output, self.process.exitcode, limits), spent=True)

    def stop(self) -> None:
        if self.process.is_alive():
            try:
                self.connection.send(None)
            except OSError:
                pass
            self.process.join(0.5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)
        self.connection.close()


def _worker_main(connection, game: Game, report: GameReport, stage: Path, limits: Limits, parent: int) -> None:
    _die_with_parent(parent)
    tempfile.tempdir = str(stage / SCRATCH)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent decides
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file-size limit becomes an OSError, reported
    signal.signal(signal.SIGXCPU, _out_of_time)
    _lower_limit("RLIMIT_AS", _address_space() + limits.memory_bytes)
    while True:
        try:
            output = connection.recv()
        except (EOFError, OSError):
            return
        if output is None:
            return
        _lower_limit("RLIMIT_CPU", math.ceil(time.process_time()) + limits.cpu_seconds)
        done = _render_one(output, game, report, stage, limits)
        connection.send(done)
        if done.spent:
            return


def _render_one(output: Output, game: Game, report: GameReport, stage: Path, limits: Limits) -> _Done:
    """Render one output into a folder of its own, then move its files into the stage: so the
    build knows which files each output made (the cache's record)."""
    done = _Done(output)
    own = None
    try:
        own = Path(tempfile.mkdtemp(dir=stage))
        RENDERERS[output.kind](output, game, report, _Rendering(own, stage.parent, done.placeholders, done.warnings))
        for path in sorted(p for p in own.rglob("*") if p.is_file()):
            name = path.relative_to(own).as_posix()  # an export's parts share one folder
            (stage / name).parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, stage / name)
            done.files.append(name)
    except _OutOfTime:
        done.problem, done.spent = _over_the_limit(output, f"used more than {limits.cpu_seconds} s of CPU time"), True
    except MemoryError:
        done.problem, done.spent = _out_of_memory(output, limits), True
    except CardgenError as exc:
        cause = exc.__context__  # a library's failure, worded as a problem of the data, may be one of these
        if isinstance(cause, MemoryError):
            done.problem, done.spent = _out_of_memory(output, limits), True
        elif isinstance(cause, OSError) and cause.errno in _FULL_DISK:
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


def _out_of_memory(output: Output, limits: Limits) -> str:
    return _over_the_limit(output, f"needed more than {limits.memory_bytes >> 20} MB of memory")


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


def _lower_limit(name: str, value: int) -> None:
    """Set a resource's soft limit to `value` (never above a hard limit set from outside)."""
    try:
        import resource
    except ImportError:  # not a POSIX system: the wall-clock timeout still applies
        return
    which = getattr(resource, name, None)
    if which is None:
        return
    soft, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    try:
        resource.setrlimit(which, (value, hard))
    except (ValueError, OSError):
        pass


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


# --------------------------------------------------------------------------- the renderers


@dataclass(frozen=True)
class _Rendering:
    """Where a renderer writes, and what it reports besides its files."""

    folder: Path  # its own folder in the staging folder
    published: Path  # the output folder its files are published in (files that name each other use it)
    placeholders: set[str]  # cards drawn without art
    warnings: list[str]


def _render_rulebook(output: Output, game, report, to: _Rendering) -> None:
    documents.write_rulebook(game, report, to.folder, output.paper)


def _render_checklists(output: Output, game, report, to: _Rendering) -> None:
    documents.write_checklists(game, report, to.folder, output.paper, output.setup, output.players)


def _render_cheatsheet(output: Output, game, report, to: _Rendering) -> None:
    cheatsheet.write_cheatsheet(game, report, to.folder, output.paper, warn=to.warnings.append)


def _render_setup_sheets(output: Output, game, report, to: _Rendering) -> None:
    cards.write_setup_sheets(game, report.setup(output.setup), to.folder, players=output.players,
                             placeholders=to.placeholders, **_sheet_options(output))


def _render_all_types(output: Output, game, report, to: _Rendering) -> None:
    cards.write_proof_sheet(game, to.folder, placeholders=to.placeholders, **_sheet_options(output))


def _render_calibration(output: Output, game, report, to: _Rendering) -> None:
    cards.write_calibration(game, to.folder, paper=output.paper, offset=output.sheet.offset, mode=output.sheet.mode,
                            png=output.sheet.png)


def _render_export(output: Output, game, report, to: _Rendering) -> None:
    job = output.export
    exports.export(game, job.target, job.deck, dict(job.counts), to.folder, to.published, job.part, job.parts)


def _sheet_options(output: Output) -> dict:
    s = output.sheet
    return dict(paper=output.paper, size=s.size, bleed=s.bleed, backs=s.backs, offset=s.offset, mode=s.mode,
                spacing=s.spacing, png=s.png)


RENDERERS: dict[str, Callable] = {
    "rulebook": _render_rulebook, "checklists": _render_checklists, "cheatsheet": _render_cheatsheet,
    "cards": _render_setup_sheets, "all-types": _render_all_types, "calibration": _render_calibration,
    "export": _render_export,
}

LIKELY_CAUSES = {
    "rulebook": "rules.md (its length, headings or tables), the game's templates, or the images and symbols it shows",
    "checklists": "the game's templates or its setups",
    "cheatsheet": "the cheat-sheet section, the game's templates or its symbols",
    "cards": "the number of cards, or the art, symbols and fonts they are drawn with",
    "all-types": "the number of card types, or the art, symbols and fonts they are drawn with",
    "calibration": "the layout's fonts",
    "export": "the number of cards, the target's pixel sizes, or the art, symbols and fonts the cards are drawn with",
}


def _over_the_limit(output: Output, what: str) -> str:
    return str(BuildError(f"{output.label} {what} and was stopped",
                          hint=f"the likely cause is {LIKELY_CAUSES[output.kind]}"))


def _died(output: Output, exitcode: int | None, limits: Limits) -> str:
    if exitcode is not None and exitcode < 0:
        how = f"was killed by {signal.Signals(-exitcode).name}"
        if -exitcode == signal.SIGKILL:
            how += f" (perhaps out of memory: the limit is {limits.memory_bytes >> 20} MB)"
    else:
        how = f"exited with code {exitcode}"
    return str(BuildError(f"the process rendering {output.label} {how}",
                          hint=f"the likely cause is {LIKELY_CAUSES[output.kind]}"))


# --------------------------------------------------------------------------- staging and publishing


_WRITE_HINTS = {
    errno.ENOSPC: "free some disk space and build again",
    errno.EDQUOT: "free some disk space and build again",
    errno.EFBIG: "the file system (or a limit set for this process) refuses a file this large",
    errno.ENAMETOOLONG: "shorten the setup name: it names the card-sheet file",
    errno.EROFS: "choose an output folder you can write to with --out",
    errno.EACCES: "choose an output folder you can write to with --out",
    errno.EPERM: "choose an output folder you can write to with --out",
    errno.ENOTDIR: "a part of the output path is a file: choose another folder with --out",
}


_FULL_DISK = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


def output_error(exc: OSError, what: str) -> CardgenError:
    """An OSError met while reading or writing an output, as a clean error: a folder the user
    cannot write to is a usage error, a full disk or an impossible file name a build error."""
    where = f" ({exc.filename})" if exc.filename else ""
    message = f"cannot write {what}: {exc.strerror or exc}{where}"
    kind = UsageError if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOTDIR) else BuildError
    return kind(message, hint=_WRITE_HINTS.get(exc.errno, ""))


def _output_folder(out: Path) -> Path:
    if out.exists() and not out.is_dir():
        raise UsageError(f"the output folder {out} is a file", hint="choose another folder with --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise UsageError(f"the output folder {out} cannot be created: a part of its path is a file",
                         hint="choose another folder with --out") from None
    except OSError as exc:
        raise output_error(exc, f"the output folder {out}") from None
    return out


@contextmanager
def _locked(out: Path) -> Iterator[None]:
    """Runs writing to one folder take turns: one staging and publishing at a time."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        yield
        return
    fd = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def recover(out: Path) -> None:
    """Finish a publish a killed run had committed, and remove staging folders of killed runs.
    The caller holds the folder's lock."""
    committed, staged = _left_behind(out)
    for folder in committed:
        _publish(folder, out)
    for folder in staged:
        shutil.rmtree(folder, ignore_errors=True)


def _left_behind(out: Path) -> tuple[list[Path], list[Path]]:
    """The committed and the staging folders that killed runs left in an output folder."""
    return sorted(out.glob(f"{PUBLISH_PREFIX}*{STAGE_SUFFIX}")), sorted(out.glob(f"{STAGE_PREFIX}*{STAGE_SUFFIX}"))


def _new_stage(out: Path) -> Path:
    try:
        return Path(tempfile.mkdtemp(prefix=STAGE_PREFIX, suffix=STAGE_SUFFIX, dir=out))
    except OSError as exc:
        raise output_error(exc, f"in the output folder {out}") from None


_ENTRIES = ".cardgen-entries.json"  # in a staging folder: what it commits, for the manifest


def _commit(stage: Path, made: dict, runs: dict) -> Path:
    """Write the size and SHA-256 of each staged file and the cache's record into the stage,
    then rename it: that one rename commits the build."""
    committed = stage.with_name(PUBLISH_PREFIX + stage.name[len(STAGE_PREFIX):])
    try:
        record = {"outputs": _staged_entries(stage), "made": made, "runs": runs}
        atomic_write(stage / _ENTRIES, json.dumps(record, sort_keys=True).encode("utf-8"))
        os.replace(stage, committed)
    except OSError as exc:
        raise output_error(exc, f"the outputs into {stage.parent}") from None
    _sync_folder(stage.parent)
    return committed


def _publish(committed: Path, out: Path) -> list[Path]:
    """Move a committed staging folder's files over the outputs, then write the manifest from
    what was committed (so a publish finished by the next run lists every file, including those
    moved before the kill). An output that is a folder (an export's files) replaces the old
    folder whole."""
    moved = []
    try:
        record = _committed_record(committed)
        for name in sorted({name.split("/")[0] for name in record["outputs"]}):
            path, target = committed / name, out / name
            if not os.path.lexists(path):  # moved before a kill
                continue
            if path.is_dir():
                _replace_folder(path, target, committed)
            else:
                os.replace(path, target)
            moved.append(target)
        _write_manifest(out, record["outputs"], record["made"], record["runs"])
    except OSError as exc:
        raise BuildError(f"publishing the outputs in {out} stopped halfway: {exc.strerror or exc}",
                         hint="the next run in this folder finishes it") from None
    shutil.rmtree(committed, ignore_errors=True)
    return moved


def _replace_folder(new: Path, target: Path, committed: Path) -> None:
    """An output that is a folder (an export's files): the old folder goes into the committed
    staging folder (removed with it), the new one takes its place."""
    if target.is_dir():
        os.replace(target, committed / f".old-{target.name}")
    os.replace(new, target)


def _entry(data: bytes) -> dict:
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def _committed_record(committed: Path) -> dict:
    """What a committed folder was committed with (its files' entries read again, and no cache
    record, if the record is lost)."""
    try:
        record = json.loads((committed / _ENTRIES).read_text(encoding="utf-8"))
        if isinstance(record, dict) and all(isinstance(record.get(part), dict) for part in ("outputs", "made", "runs")):
            return record
    except (OSError, ValueError):
        pass
    return {"outputs": _staged_entries(committed), "made": {}, "runs": {}}


def _staged_entries(folder: Path) -> dict[str, dict]:
    """The size and SHA-256 of each output file in a staging or committed folder (not its
    record, nor the old folders a publish set aside)."""
    return {path.relative_to(folder).as_posix(): _entry(path.read_bytes()) for path in sorted(folder.rglob("*"))
            if path.is_file() and path.name != _ENTRIES and not path.relative_to(folder).parts[0].startswith(".old-")}


def _write_manifest(out: Path, published: dict, made: dict, runs: dict) -> None:
    """cardgen-manifest.json: each output in the folder cardgen published, with its size and
    SHA-256 as staged, written last. Outputs published by earlier runs keep their entries while
    they exist.

    Its "cache" part records the key each output was made from ("outputs": key -> its files
    and the cards it drew without art) and, per command ("runs": request key), the outputs and
    messages of its last run. A file published again drops the record of what made it before."""
    manifest = _read_manifest(out)
    entries, known, last = manifest["outputs"], manifest["cache"]["outputs"], manifest["cache"]["runs"]
    known = {key: entry for key, entry in known.items() if not set(published) & set(entry["files"])}
    known.update(made)
    entries.update(published)
    entries = {name: entry for name, entry in sorted(entries.items()) if (out / name).is_file()}
    known = {key: entry for key, entry in known.items() if all(name in entries for name in entry["files"])}
    last.update(runs)
    last = {request: run for request, run in last.items() if all(key in known for key in run["outputs"])}
    document = {"outputs": entries, "cache": {"outputs": known, "runs": last}}
    atomic_write(out / MANIFEST, (json.dumps(document, indent=2, sort_keys=True) + "\n").encode("utf-8"))


def _read_manifest(out: Path) -> dict:
    """The manifest, with empty parts for what it lacks or cannot be read."""
    try:
        document = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        document = {}
    document = document if isinstance(document, dict) else {}
    part = document.get("cache") if isinstance(document.get("cache"), dict) else {}
    return {"outputs": _mapping(document.get("outputs")),
            "cache": {"outputs": {key: entry for key, entry in _mapping(part.get("outputs")).items()
                                  if isinstance(entry, dict) and isinstance(entry.get("files"), list)
                                  and isinstance(entry.get("placeholders"), list)},
                      "runs": {key: run for key, run in _mapping(part.get("runs")).items()
                               if isinstance(run, dict) and isinstance(run.get("outputs"), list)}}}


def _mapping(value) -> dict:
    return dict(value) if isinstance(value, dict) else {}


def _current_outputs(out: Path, manifest: dict | None = None) -> dict[str, dict]:
    """The cache's records whose files are on disk exactly as published (size and SHA-256)."""
    manifest = manifest or _read_manifest(out)
    entries = manifest["outputs"]
    return {key: entry for key, entry in manifest["cache"]["outputs"].items()
            if all(_unchanged(out / name, entries.get(name)) for name in entry["files"])}


def _unchanged(path: Path, entry) -> bool:
    if not isinstance(entry, dict):
        return False
    try:
        data = path.read_bytes()
    except OSError:
        return False
    return len(data) == entry.get("bytes") and hashlib.sha256(data).hexdigest() == entry.get("sha256")


def _sync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

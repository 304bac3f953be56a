"""publish/workers: the order the workers take the outputs in (the longest to render first, so that
neither worker is left with a long one while the other has nothing to do), how often they
collect their garbage, and a worker never running the signal handler of the process it is
forked from."""
from __future__ import annotations

import dataclasses
import gc
import os
import signal

import pytest
from conftest import TINY_GAME, checked

from cardgen.publish import workers
from cardgen.publish.kinds import KINDS, OutputKind, kind_of, plan_all
from cardgen.publish.kinds.documents import plan_checklists, plan_rulebook
from cardgen.publish.kinds.sheets import plan_cards
from cardgen.publish.limits import Limits
from cardgen.publish.plan import Output, PaperOptions, Plan
from cardgen.publish.run import Job, render_and_publish
from cardgen.publish.workers import WORKER_GC, bounded, longest_first


def test_documents_first_then_the_html_edition_then_the_card_sheets_each_in_plan_order():
    game, report = checked("exploding_puppy")
    outputs = [(language, output) for language in (0, 1) for output in plan_all(game, report).outputs]
    ordered = longest_first(outputs)
    assert sorted(ordered, key=repr) == sorted(outputs, key=repr)
    kinds = [output.kind for _, output in ordered]
    assert kinds[:4] == ["rulebook", "checklists"] * 2 and kinds[4:6] == ["rulebook-html"] * 2
    assert set(kinds[6:]) == {"cards"}
    assert [item for item in ordered if item[1].kind == "cards"] == [item for item in outputs if item[1].kind == "cards"]
    assert [kind_of(output).cost for _, output in ordered] == sorted((kind_of(o).cost for _, o in outputs), reverse=True)


def _write_its_files(output, game, report, to):
    """A renderer that writes the files its kind declares, each a line of text."""
    for pattern in kind_of(output).files:
        (to.folder / pattern.replace("*", "stub")).write_text(output.label, encoding="utf-8")


@pytest.mark.slow
def test_a_build_starts_them_in_that_order(monkeypatch, tmp_path):
    """On one worker, the outputs start in the order it takes them: the card sheets planned first
    start last. (The order is the pool's: each kind's renderer is a stub writing its files.)"""
    for name in ("rulebook", "checklists", "rulebook-html", "cards"):
        monkeypatch.setitem(KINDS, name, dataclasses.replace(KINDS[name], render=_write_its_files))
    game, report = checked(TINY_GAME)
    plan = Plan(plan_cards(game).outputs + plan_rulebook(game).outputs + plan_checklists(game).outputs)
    started = []
    [result] = render_and_publish([Job(game, report, plan)], tmp_path, Limits(workers=1),
                                          lambda event: started.append(event.output.kind) if event.kind == "started" else None)
    assert result.ok
    assert started == ["rulebook", "checklists", "rulebook-html", "cards"]


def _write_collector_settings(output, game, report, to):
    (to.folder / "gc.txt").write_text(f"{gc.get_threshold()} {gc.get_freeze_count() > 0}", encoding="utf-8")


def test_a_worker_collects_its_garbage_less_often_than_python_s_default(monkeypatch, tmp_path):
    """A worker's first generation is collected after WORKER_GC's count of new objects (WeasyPrint
    makes millions), and what it inherited is never looked at."""
    monkeypatch.setitem(KINDS, "collector", OutputKind("collector", ("gc.txt",), lambda *args: "key",
                                                  _write_collector_settings, "nothing"))
    game, report = checked(TINY_GAME)
    [result] = render_and_publish([Job(game, report, Plan((Output("collector", "the settings", PaperOptions()),)))],
                                          tmp_path)
    assert result.ok, result.failures + result.bugs
    assert WORKER_GC[0] > gc.get_threshold()[0]  # the parent keeps its own
    assert (tmp_path / "gc.txt").read_text(encoding="utf-8") == f"{WORKER_GC} True"


def _interrupt(signum, frame):
    raise KeyboardInterrupt  # as `cardgen serve`'s handler does


def test_a_sigterm_reaching_a_worker_as_it_starts_is_left_to_the_parent(monkeypatch):
    """A SIGTERM to the process group can reach a worker before it has set its own handlers:
    here it sends itself one first thing. It must not run the parent's handler (a traceback, a
    dead worker): the signal waits, blocked since the fork, until the worker ignores it."""
    enter = workers._enter_worker

    def signalled_first(limits, parent):
        os.kill(os.getpid(), signal.SIGTERM)
        enter(limits, parent)

    monkeypatch.setattr(workers, "_enter_worker", signalled_first)
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        assert bounded(lambda: 6 * 7, "the answer") == 42
    finally:
        signal.signal(signal.SIGTERM, previous)

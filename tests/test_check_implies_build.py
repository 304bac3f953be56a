"""The invariant of issue 12: for any game folder, `cardgen check` exit 0 ⇒ `cardgen build` exit 0,
and neither prints a traceback. Seeded mutations of real game folders (tests/check_implies_build.py;
run that file by hand for thousands more)."""
from __future__ import annotations

from check_implies_build import run

CASES = range(300)
FULL_EVERY = 40  # a whole `cardgen build` (WeasyPrint, workers, publishing) on every 40th built case


def test_check_passing_means_the_build_succeeds(tmp_path):
    tally, failures = run(CASES, tmp_path, FULL_EVERY)
    assert not failures, "\n\n".join(failures)
    built = tally.get("built", 0) + tally.get("built fully", 0)
    # the mutations must exercise both sides: data that check refuses, and data that gets built
    assert tally.get("rejected", 0) >= len(CASES) // 5 and built >= len(CASES) // 5, tally
    assert tally.get("built fully", 0) >= 1, tally

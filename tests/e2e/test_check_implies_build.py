"""The check-implies-build invariant: for any game folder, `cardgen check` exit 0 ⇒ `cardgen build` exit 0,
and neither prints a traceback. Seeded mutations of real game folders (tests/e2e/check_implies_build.py;
run that file by hand for thousands more), in chunks that the test workers share."""
from __future__ import annotations

import pytest
from check_implies_build import run

pytestmark = pytest.mark.slow  # hundreds of mutated games through check and the renderers

CASES = 300
CHUNKS = 4
FULL_EVERY = 40  # a whole `cardgen build` (WeasyPrint, workers, publishing) on every other chunk's
# first built case, then every 40th: each costs as much as a dozen cases


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_check_passing_means_the_build_succeeds(chunk, tmp_path):
    cases = range(chunk, CASES, CHUNKS)
    full_builds = chunk % 2 == 0
    tally, failures = run(cases, tmp_path, FULL_EVERY if full_builds else 0)
    assert not failures, "\n\n".join(failures)
    built = tally.get("built", 0) + tally.get("built fully", 0)
    # the mutations must exercise both sides: data that check refuses, and data that gets built
    assert tally.get("rejected", 0) >= len(cases) // 5 and built >= len(cases) // 5, tally
    assert (tally.get("built fully", 0) >= 1) == full_builds, tally

"""The command line starts thin: `cardgen --version` and `--help` import no drawing, PDF or
document library, and `cardgen check` none that writes or reads a PDF. `cardgen check` of a game
whose texts fit, and `cardgen build` with nothing changed, import no renderer, no worker pool,
no PDF or document library, not ReportLab's typesetting nor numpy (the build not even the stages
that load and check a game). Python's import log (-X importtime) names every module a process
imports, those imported inside a function too."""
from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT, TINY_GAME, cardgen

DRAWING_AND_PDF = {"reportlab", "weasyprint", "pikepdf", "pypdfium2"}
PDF = {"weasyprint", "pikepdf", "pypdfium2"}


def imported_modules(*args: str) -> set[str]:
    """Every module a `python -m cardgen ARGS` process imports (it must succeed)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "cardgen", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    names = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "cardgen.cli" in names  # the log is there: the assertions below look at something
    return names


def imported(*args: str) -> set[str]:
    """The top-level packages a `python -m cardgen ARGS` process imports (it must succeed)."""
    return {name.split(".")[0] for name in imported_modules(*args)}


# what only drawing, rendering or simulating needs: a module, or a package with all its modules (a
# name ending in "_": every module whose name starts so). The kinds registry and render.write (the
# output folder's name) are light: a build with nothing to do reads them.
HEAVY = ("reportlab.platypus", "weasyprint", "pikepdf", "pypdfium2", "numpy", "cardgen.render.cards",
         "cardgen.render.documents", "cardgen.render.exports", "cardgen.render.card_images", "cardgen.simulate",
         "cardgen.publish.workers", "cardgen.publish.run", "cardgen.publish.kinds.render_")


def heavy(modules: set[str], also: tuple[str, ...] = ()) -> list[str]:
    return sorted(name for name in modules if any(_under(name, prefix) for prefix in (*HEAVY, *also)))


def _under(name: str, prefix: str) -> bool:
    return name.startswith(prefix) if prefix.endswith("_") else name == prefix or name.startswith(prefix + ".")


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_version_and_help_import_no_drawing_or_pdf_library(flag):
    modules = imported(flag)
    assert modules & DRAWING_AND_PDF == set()
    assert "cardgen" in modules


def test_check_imports_no_pdf_library():
    modules = imported("check", "exploding_puppy")
    assert modules & PDF == set()
    assert "reportlab" in modules  # the fit check sets texts with the painter's own type setter


@pytest.mark.slow
def test_check_of_a_game_in_english_alone_reads_no_catalog_or_locale():
    """Babel comes with a translation (cardgen's words in another language, their catalog, the
    language's name): Exploding Puppy's German pulls it in, the tiny game in English does not."""
    assert "babel" not in imported("check", str(TINY_GAME))
    assert "babel" in imported("check", "exploding_puppy")


def test_check_of_a_game_whose_texts_fit_imports_no_renderer_typesetting_or_simulator():
    modules = imported_modules("check", "exploding_puppy")
    assert {"cardgen.publish.check", "cardgen.check.fit", "cardgen.layout.textfit"} <= modules
    assert heavy(modules) == []


@pytest.mark.slow
def test_a_build_with_nothing_changed_imports_no_stage_that_loads_checks_or_renders(game_copy, tmp_path):
    folder, out = game_copy(), tmp_path / "out"
    code, _, err = cardgen("build", folder, "--out", out)  # the last run: in this process, its imports are not looked at
    assert code == 0, err
    modules = imported_modules("build", str(folder), "--out", str(out))
    assert "cardgen.publish.reuse" in modules  # the last run's outputs answered
    assert heavy(modules, ("cardgen.load", "cardgen.check.game", "cardgen.publish.check", "reportlab")) == []


def test_the_heavy_list_sees_a_heavy_import():
    """The two tests above would see such an import (so they cannot pass by looking at nothing)."""
    assert heavy({"cardgen.cli", "reportlab.platypus.paragraph", "numpy", "numpyish"}) == [
        "numpy", "reportlab.platypus.paragraph"]
    assert heavy({"cardgen.publish.kinds", "cardgen.publish.kinds.render_sheets"}) == ["cardgen.publish.kinds.render_sheets"]
    assert heavy({"cardgen.load.reader", "cardgen.render.write"}, ("cardgen.load",)) == ["cardgen.load.reader"]


def test_a_command_imports_its_own_module_only():
    """`cardgen list --help` imports the list command's module, not the others' (importlib's
    import_module, which the dispatch uses, is not in the import log: sys.modules says)."""
    code = ("import sys\nfrom cardgen.cli import main\ntry:\n    main(['list', '--help'])\nexcept SystemExit:\n    pass\n"
            "print(*sorted(m for m in sys.modules if m.startswith('cardgen.commands.')), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.stderr.split() == ["cardgen.commands.list", "cardgen.commands.options"]

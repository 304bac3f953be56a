"""The command line starts thin: `cardgen --version` and `--help` import no drawing, PDF or
document library, and `cardgen check` none that writes or reads a PDF. Python's import log
(-X importtime) names every module a process imports, those imported inside a function too."""
from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT

DRAWING_AND_PDF = {"reportlab", "weasyprint", "pikepdf", "pypdfium2"}
PDF = {"weasyprint", "pikepdf", "pypdfium2"}


def imported(*args: str) -> set[str]:
    """The top-level packages a `python -m cardgen ARGS` process imports (it must succeed)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "cardgen", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    names = [line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    assert "cardgen.cli" in names  # the log is there: the assertions below look at something
    return {name.split(".")[0] for name in names}


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_version_and_help_import_no_drawing_or_pdf_library(flag):
    modules = imported(flag)
    assert modules & DRAWING_AND_PDF == set()
    assert "cardgen" in modules


def test_check_imports_no_pdf_library():
    modules = imported("check", "exploding_puppy")
    assert modules & PDF == set()
    assert "reportlab" in modules  # the fit check sets texts with the painter's own type setter


def test_a_command_imports_its_own_module_only():
    """`cardgen list --help` imports the list command's module, not the others' (importlib's
    import_module, which the dispatch uses, is not in the import log: sys.modules says)."""
    code = ("import sys\nfrom cardgen.cli import main\ntry:\n    main(['list', '--help'])\nexcept SystemExit:\n    pass\n"
            "print(*sorted(m for m in sys.modules if m.startswith('cardgen.commands.')), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.stderr.split() == ["cardgen.commands.list", "cardgen.commands.options"]

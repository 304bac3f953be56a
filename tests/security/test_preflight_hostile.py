"""`cardgen preflight` against hostile PDFs (tests/security/hostile_pdfs.py): each ends with exit
1 or 2 and a message naming what is wrong, never a traceback, a hang or a file left behind.
PostScript is never interpreted, the walk stops at its budget with "too complex to check", a
malformed operator or object is a fail line, and ghostscript failing is a fail line too."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import pytest
from conftest import ROOT, cardgen

from security.hostile_pdfs import HOSTILE

# each case: the exit code, and a line the output must hold
EXPECTED = {
    "postscript before the header": (1, "pass  total ink at most 300 %"),
    "postscript only": (1, "is not a PDF (it does not start with %PDF-)"),
    "nested forms (12 ** 8 placements)": (1, "too complex to check: more than 500,000 placed forms and images"),
    "10,000 pages": (1, "too complex to check: more than 2,000 pages"),
    "a million q": (1, "too complex to check: graphics states nested more than 256 deep (q)"),
    "a million q Q": (1, "too complex to check: more than 2,000,000 content operators and operands"),
    "content inflating to 80 MB": (1, "too complex to check: more than 67,108,864 bytes of page content"),
    "'1 2 cm'": (1, "'cm' has 2 numbers, not 6 (page 1)"),
    "'/Foo w'": (1, "the line width of 'w' is not a number (page 1)"),
    "an image without /Width": (1, "image X without /Width (page 1)"),
    "a form without /BBox": (1, "form X without /BBox (page 1)"),
    "a three-number /Matrix": (1, "the /Matrix of form X has 3 numbers, not 6 (page 1)"),
    "an ICCBased color space without /N": (1, "an ICCBased color space without its number of components (/N)"),
    "a password": (1, "the file is encrypted with a password: nothing else could be checked"),
    "ghostscript failing": (1, "ghostscript could not render the file: Couldn't find named resource"),
    "not a PDF at all": (1, "is not a PDF cardgen can read (unable to find trailer dictionary"),
}


def test_every_hostile_case_has_its_expectation():
    assert set(EXPECTED) == set(HOSTILE)


# one case as a command of its own (the one ghostscript renders: what it and the process leave at
# exit); the others through the command line's entry point in this process, the same way
WHOLE_PROCESS = "postscript before the header"


SLOW = {"a million q"}  # a million instructions parsed before the nesting is read: 1.5 s


@pytest.mark.parametrize("case", [pytest.param(case, marks=[pytest.mark.slow] if case in SLOW else [])
                                  for case in sorted(HOSTILE)])
def test_a_hostile_pdf_ends_with_a_message_and_leaves_nothing(case, tmp_path, monkeypatch, no_hang):
    """Run with its temporary folder and working folder empty: both are empty again afterwards,
    and the message names the point."""
    path = tmp_path / "hostile.pdf"
    path.write_bytes(HOSTILE[case]())
    scratch, cwd = tmp_path / "tmp", tmp_path / "cwd"
    scratch.mkdir()
    cwd.mkdir()
    if case == WHOLE_PROCESS:
        run = subprocess.run([sys.executable, "-m", "cardgen", "preflight", str(path)], cwd=cwd, capture_output=True,
                             text=True, timeout=300, env={**os.environ, "TMPDIR": str(scratch), "PYTHONPATH": str(ROOT)})
        returncode, said = run.returncode, run.stdout + run.stderr
    else:
        monkeypatch.setenv("TMPDIR", str(scratch))  # for ghostscript, and for Python's tempfile:
        monkeypatch.setattr(tempfile, "tempdir", None)  # it reads TMPDIR again
        returncode, out, err = cardgen("preflight", path, cwd=cwd)
        said = out + err
    code, line = EXPECTED[case]
    assert returncode == code and line in said and "Traceback" not in said, said
    assert not list(scratch.iterdir()) and not list(cwd.iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cwd", "hostile.pdf", "tmp"]


def test_a_pipe_or_a_folder_is_a_usage_error_at_once(tmp_path):
    fifo = tmp_path / "cards.pdf"
    os.mkfifo(fifo)  # nothing writes to it: opening it to read would block for ever
    code, _, err = cardgen("preflight", fifo)
    assert code == 2 and "cards.pdf is not a file (a folder, pipe or device cannot be checked)" in err
    code, _, err = cardgen("preflight", tmp_path)
    assert code == 2 and "is not a file" in err


def test_the_messages_name_no_in_memory_object(tmp_path):
    path = tmp_path / "broken.pdf"
    path.write_bytes(HOSTILE["not a PDF at all"]())
    code, _, err = cardgen("preflight", path)
    assert code == 1 and "BytesIO" not in err and "0x" not in err

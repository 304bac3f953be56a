"""publish/preflight/ghostscript: the total ink of a CMYK file, measured on ghostscript's CMYK
rendering of its pages. The file is untrusted: ghostscript runs with -dSAFER on its PDF
interpreter only (the file is opened with `runpdf`, so no PostScript in it is ever run), under
ceilings of CPU time, memory and file size, reading a copy in a folder of its own that is
removed afterwards; the pages stream out of a pipe one at a time (PAM), so nothing is kept."""
from __future__ import annotations

import math
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import IO

from PIL import Image, ImageMath

from cardgen.publish.limits import Limits, set_limit
from cardgen.publish.preflight.report import MAX_INK, Checking

INK_DPI = 30  # the CMYK rendering the ink is measured on: areas, not hairlines
MAX_PIXELS = 4_000_000  # a page's pixels: a larger page is measured at a lower resolution
INK_PAGES = 500  # pages measured; a longer file is measured on its first ones, and says so
FILE_SIZE = 64 << 20  # ghostscript's own files (its message log, its band lists)
ROWS = 256  # rows of a page read at once


class _Stopped(Exception):
    """ghostscript did not finish; the message says why."""


def check_ink(data: bytes, pages: int, largest_page: float, ceilings: Limits, point: Checking) -> None:
    """The most ink on any spot of the file's first INK_PAGES pages; `largest_page` is the largest
    page's area in square points."""
    gs = shutil.which("gs")
    if gs is None:
        point.note = "not measured: ghostscript (gs) is not installed"
        return
    measured = min(pages, INK_PAGES)
    if measured < pages:
        point.note = f"measured on the first {measured} of {pages} pages"
    dpi = max(1, min(INK_DPI, math.floor(math.sqrt(MAX_PIXELS / max(largest_page / 72 / 72, 1e-9)))))
    with tempfile.TemporaryDirectory(prefix="cardgen-preflight-") as folder:
        try:
            for number, most in enumerate(_most_ink_per_page(gs, Path(folder), data, measured, dpi, ceilings),
                                          start=1):
                if most > MAX_INK + 1:
                    point.fail(f"{most:.0f} % on the darkest spot", number)
        except _Stopped as stopped:
            point.fail(str(stopped))


def _most_ink_per_page(gs: str, folder: Path, data: bytes, pages: int, dpi: int, ceilings: Limits):
    (folder / "in.pdf").write_bytes(data)
    log = folder / "gs.log"
    command = [gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dPDFSTOPONERROR", "-sDEVICE=pamcmyk32",
               f"-r{dpi}", "-dFirstPage=1", f"-dLastPage={pages}", "-sOutputFile=-", "-sstdout=%stderr",
               "--permit-file-read=in.pdf", "-c", "(in.pdf) (r) file runpdf"]
    with open(log, "wb") as errors:
        process = subprocess.Popen(command, cwd=folder, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=errors, env={**os.environ, "TMPDIR": str(folder)},
                                   preexec_fn=_ceilings(ceilings))
    timed_out = threading.Event()

    def time_out() -> None:
        timed_out.set()
        process.kill()

    timer = threading.Timer(ceilings.wall_seconds, time_out)
    timer.start()
    try:
        assert process.stdout is not None
        while (page := _read_page(process.stdout)) is not None:
            yield page
    finally:
        timer.cancel()
        process.kill()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()
    _stopped(process.returncode, timed_out.is_set(), log, ceilings)


def _ceilings(ceilings: Limits):
    def limit() -> None:  # in the child, between fork and exec: only setrlimit
        set_limit("RLIMIT_CPU", ceilings.cpu_seconds, ceilings.cpu_seconds + 1)
        set_limit("RLIMIT_AS", ceilings.memory_bytes, ceilings.memory_bytes)
        set_limit("RLIMIT_FSIZE", FILE_SIZE, FILE_SIZE)
        set_limit("RLIMIT_CORE", 0, 0)
    return limit


def _stopped(code: int, timed_out: bool, log: Path, ceilings: Limits) -> None:
    if code == 0:
        return
    if code in (-signal.SIGXCPU, -signal.SIGKILL) and not timed_out:
        raise _Stopped(f"too complex to check: ghostscript {ceilings.cpu_spent}")
    if timed_out:
        raise _Stopped(f"too complex to check: ghostscript took longer than {ceilings.wall_seconds:g} s")
    with open(log, "rb") as errors:
        said = [line.strip() for line in errors.read(4096).decode("utf-8", "replace").splitlines() if line.strip()]
    raise _Stopped("ghostscript could not render the file" + (f": {said[0][:200]}" if said else f" (code {code})"))


def _read_page(stream: IO[bytes]) -> float | None:
    """The most ink on one page of ghostscript's PAM output, in percent; None at the end."""
    fields: dict[str, str] = {}
    for _ in range(16):
        line = stream.readline(256)
        if not line:
            return None
        text = line.decode("ascii", "replace").strip()
        if text == "ENDHDR":
            break
        key, _, value = text.partition(" ")
        fields[key] = value
    else:
        raise _Stopped("ghostscript's rendering could not be read (no end of header)")
    try:
        width, height = int(fields["WIDTH"]), int(fields["HEIGHT"])
    except (KeyError, ValueError):
        raise _Stopped("ghostscript's rendering could not be read (no size)") from None
    if fields.get("DEPTH") != "4" or not 0 < width * height <= 4 * MAX_PIXELS:
        raise _Stopped(f"ghostscript's rendering could not be read ({width} x {height} pixels)")
    most = 0.0
    for top in range(0, height, ROWS):
        rows = min(ROWS, height - top)
        chunk = stream.read(width * rows * 4)
        if len(chunk) < width * rows * 4:
            return None  # cut short: ghostscript stopped (its code says why)
        most = max(most, _most_ink(Image.frombytes("CMYK", (width, rows), chunk)))
    return most


def _most_ink(image: Image.Image) -> float:
    """The largest sum of the four inks on one pixel, in percent."""
    total = ImageMath.lambda_eval(lambda band: band["c"] + band["m"] + band["y"] + band["k"],
                                  **dict(zip("cmyk", (b.convert("I") for b in image.split()))))
    low, high = total.getextrema()
    return float(high) / 255 * 100

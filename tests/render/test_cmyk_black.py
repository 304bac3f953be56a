"""Black text in CMYK: every text run under 12 pt that is black (or a near-black gray) in the RGB
build is 0 0 0 1 in the CMYK build, overprinting (an ExtGState with /OP true /op true /OPM 1);
grays stay black ink alone; and the CMYK sheet still passes preflight. The runs are read from the
content streams of both builds (pages and the card forms placed on them), in drawing order."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pypdf
import pytest
from conftest import cardgen
from pypdf.generic import ContentStream

SMALL = 12.0
TEXT_SHOWING = {b"Tj", b"TJ", b"'", b'"'}


@dataclass(frozen=True)
class Run:
    text: str
    size: float
    fill: tuple[float, ...]
    overprint: bool


@dataclass
class State:
    fill: tuple[float, ...] = (0.0,)
    size: float = 0.0
    overprint: bool = False

    def copy(self) -> State:
        return State(self.fill, self.size, self.overprint)


def runs(path: Path) -> list[Run]:
    """Every text run of the first face page, in drawing order, with its fill and overprint."""
    reader = pypdf.PdfReader(path)
    page = reader.pages[0]
    found: list[Run] = []
    walk(ContentStream(page.get_contents(), reader).operations, page["/Resources"], reader, State(), found, {})
    return found


def walk(operations, resources, reader, state: State, found: list[Run], forms: dict) -> None:
    """`forms`: each form's operations by its object number, parsed once however often it is drawn."""
    stack = []
    states = resources.get("/ExtGState", {}) if resources else {}
    xobjects = resources.get("/XObject", {}) if resources else {}
    for operands, op in operations:
        if op == b"q":
            stack.append(state.copy())
        elif op == b"Q":
            state = stack.pop()
        elif op in (b"k", b"rg", b"g"):
            state.fill = tuple(float(v) for v in operands)
        elif op == b"gs":
            entry = states[operands[0]].get_object()
            value = entry.get("/op", entry.get("/OP"))
            if value is not None:  # a pypdf BooleanObject is always truthy: read its value
                state.overprint = bool(value.value)
            assert not state.overprint or entry.get("/OPM") == 1
        elif op == b"Tf":
            state.size = float(operands[1])
        elif op in TEXT_SHOWING:
            text = operands[-1]
            shown = "".join(str(t) for t in text if isinstance(t, str)) if isinstance(text, list) else str(text)
            found.append(Run(shown, state.size, state.fill, state.overprint))
        elif op == b"Do":
            reference = xobjects.raw_get(operands[0])
            form = reference.get_object()
            if form.get("/Subtype") == "/Form":
                if reference.idnum not in forms:
                    forms[reference.idnum] = ContentStream(form, reader).operations
                walk(forms[reference.idnum], form.get("/Resources"), reader, state.copy(), found, forms)


def black_rgb(fill: tuple[float, ...]) -> bool:
    rgb = fill * 3 if len(fill) == 1 else fill
    return len(rgb) == 3 and max(rgb) - min(rgb) <= 0.03 and sum(rgb) / 3 <= 0.15


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    out = {}
    for color in ("rgb", "cmyk"):
        folder = tmp_path_factory.mktemp(color)
        code, _, err = cardgen("cards", "exploding_puppy", "--setup", "Basic", "--color", color, "--out", folder)
        assert code == 0, err
        out[color] = folder / "cards-basic.pdf"
    return out


@pytest.fixture(scope="module")
def read(builds):
    """The text runs of both builds' first face page, read once for the tests that compare them."""
    return {color: runs(path) for color, path in builds.items()}


@pytest.mark.slow
def test_small_black_text_is_black_ink_alone_overprinting(read):
    rgb, cmyk = read["rgb"], read["cmyk"]
    assert [run.text for run in rgb] == [run.text for run in cmyk]
    small_black = [(a, b) for a, b in zip(rgb, cmyk) if a.size < SMALL and black_rgb(a.fill)]
    assert len(small_black) > 20  # the rules text of nine cards, the instructions, the ruler
    for was, now in small_black:
        assert now.fill == (0, 0, 0, 1) and now.overprint, (was, now)


@pytest.mark.slow
def test_other_text_knocks_out_and_grays_stay_black_ink_alone(read):
    for was, now in zip(read["rgb"], read["cmyk"]):
        if now.fill != (0, 0, 0, 1):
            assert not now.overprint, (was, now)
        rgb = was.fill * 3 if len(was.fill) == 1 else was.fill
        if was.size < SMALL and max(rgb) - min(rgb) < 0.01 and sum(rgb) / 3 < 0.45:
            assert now.fill[:3] == (0, 0, 0), (was, now)


@pytest.mark.slow
def test_the_cmyk_sheet_still_passes_preflight(builds):
    code, out, err = cardgen("preflight", builds["cmyk"])
    assert code == 0, out + err

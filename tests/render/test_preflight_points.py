"""`cardgen preflight` names each class of problem a PDF/X-1a shop flags: a CMYK card sheet
that passes is seeded with one problem at a time (with pikepdf), and preflight exits 1 naming
that point and no other."""
from __future__ import annotations

import dataclasses

import pikepdf
import pytest
from conftest import TINY_GAME, cardgen

from cardgen.publish.preflight import preflight

TRANSPARENCY = "no transparency (opacity, soft mask, group)"


@pytest.fixture(scope="module")
def good_sheet(tmp_path_factory):
    """The tiny game's CMYK sheet of every card type, faces and backs: two pages, where its setup's
    sheets are four (each preflight reads and renders every page)."""
    out = tmp_path_factory.mktemp("cmyk")
    code, _, err = cardgen("cards", TINY_GAME, "--all-types", "--color", "cmyk", "--out", out)
    assert code == 0, err
    path = out / "cards-all-types.pdf"
    code, said, _ = cardgen("preflight", path)
    assert code == 0 and "FAIL" not in said, said
    return path


def draw(pdf: pikepdf.Pdf, content: bytes, kind: str, name: str, resource: pikepdf.Object) -> None:
    """Draw `content` on the first page with a resource of its own."""
    page = pdf.pages[0]
    resources = page.obj.Resources
    if kind not in resources:
        resources[kind] = pikepdf.Dictionary()
    resources[kind][name] = resource
    page.contents_add(pdf.make_stream(content))


def opacity(pdf):  # a graphics state without /Type and without a transparency group
    draw(pdf, b"q /Half gs 0 0 0 1 k 60 60 100 100 re f Q\n", "/ExtGState", "/Half",
         pikepdf.Dictionary(ca=0.5))


def blend_mode(pdf):
    draw(pdf, b"q /Mul gs 0 0 0 1 k 60 60 100 100 re f Q\n", "/ExtGState", "/Mul",
         pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, BM=pikepdf.Name.Multiply))


def lab(pdf):
    draw(pdf, b"q /Lab0 cs 50 20 20 sc 60 60 100 100 re f Q\n", "/ColorSpace", "/Lab0",
         pikepdf.Array([pikepdf.Name.Lab, pikepdf.Dictionary(WhitePoint=[0.9505, 1, 1.089], Range=[-100, 100, -100, 100])]))


def rgb_shading(pdf):
    function = pikepdf.Dictionary(FunctionType=2, Domain=[0, 1], C0=[1, 0, 0], C1=[0, 0, 1], N=1)
    draw(pdf, b"q 60 60 100 100 re W n /Sh0 sh Q\n", "/Shading", "/Sh0", pikepdf.Dictionary(
        ShadingType=2, ColorSpace=pikepdf.Name.DeviceRGB, Coords=[60, 60, 160, 160], Function=function))


def rgb_annotation(pdf):
    page = pdf.pages[0]
    trim = [float(v) for v in page.obj.TrimBox]
    note = pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Square, C=[1, 0, 0],
                              Rect=[trim[0] + 20, trim[1] + 20, trim[0] + 80, trim[1] + 80])
    page.obj.Annots = pdf.make_indirect(pikepdf.Array([pdf.make_indirect(note)]))


def javascript(pdf):
    pdf.Root.OpenAction = pikepdf.Dictionary(S=pikepdf.Name.JavaScript, JS=pikepdf.String("app.alert(1)"))


SEEDS = {
    "opacity without a group": (opacity, TRANSPARENCY, "a fill opacity of 0.5"),
    "blend mode": (blend_mode, "no blend mode", "blend mode Multiply"),
    "Lab": (lab, "no Lab color", "a Lab color space (Lab0)"),
    "RGB shading": (rgb_shading, "no RGB shading (gradient)", "a shading in RGB"),
    "RGB annotation": (rgb_annotation, "no annotation inside the bleed",
                       "an RGB Square annotation inside the bleed (page 1)"),
    "JavaScript": (javascript, "no JavaScript or other actions", "a JavaScript action"),
}


def failed(said: str) -> dict[str, list[str]]:
    """The failed points of preflight's output, each with its problems."""
    points: dict[str, list[str]] = {}
    current = None
    for line in said.splitlines()[1:]:
        if line.startswith("  FAIL  "):
            current = points.setdefault(line[8:], [])
        elif line.startswith("        ") and current is not None:
            current.append(line.strip())
        else:
            current = None
    return points


@pytest.mark.slow
@pytest.mark.parametrize("seed", sorted(SEEDS))
def test_preflight_names_each_seeded_problem(good_sheet, seed, tmp_path):
    seeded, point, problem = SEEDS[seed]
    with pikepdf.open(good_sheet) as pdf:
        seeded(pdf)
        pdf.save(tmp_path / "seeded.pdf", deterministic_id=True)
    code, said, err = cardgen("preflight", tmp_path / "seeded.pdf")
    assert code == 1, err
    assert failed(said) == {point: [problem]}, said


@pytest.mark.slow
def test_preflight_names_encryption_and_a_later_pdf_version(good_sheet, tmp_path):
    with pikepdf.open(good_sheet) as pdf:
        pdf.save(tmp_path / "locked.pdf", encryption=pikepdf.Encryption(owner="shop", user="", R=3, aes=False, metadata=False))
        pdf.save(tmp_path / "newer.pdf", deterministic_id=True, min_version="1.6")
    code, said, _ = cardgen("preflight", tmp_path / "locked.pdf")
    assert code == 1 and failed(said) == {"no encryption": ["the file is encrypted (PDF/X allows no encryption)"]}
    code, said, _ = cardgen("preflight", tmp_path / "newer.pdf")
    assert code == 1 and failed(said) == {"PDF 1.4 or earlier (PDF/X-1a:2003)": ["the header says PDF 1.6"]}


@pytest.mark.slow
def test_preflight_names_each_wrong_pdfx_key(good_sheet, tmp_path):
    with pikepdf.open(good_sheet) as pdf:
        pdf.docinfo["/GTS_PDFXVersion"] = "PDF/X-1a:2003"  # what cardgen wrote before: the conformance as the version
        del pdf.docinfo["/GTS_PDFXConformance"]
        del pdf.docinfo["/Trapped"]
        pdf.save(tmp_path / "keys.pdf", deterministic_id=True)
    code, said, _ = cardgen("preflight", tmp_path / "keys.pdf")
    assert code == 1 and failed(said) == {
        "PDF/X-1a:2003 keys (GTS_PDFXVersion, GTS_PDFXConformance, Title, dates, Trapped)": [
            "GTS_PDFXVersion is (PDF/X-1a:2003), not (PDF/X-1:2003)",
            "no GTS_PDFXConformance (it should be (PDF/X-1a:2003))",
            "Trapped is not /True or /False in the document information"]}


@pytest.mark.slow
def test_the_report_comes_back_whole_and_frozen(good_sheet, tmp_path):
    """What the worker found and the ink measured after it are one report, made when both are
    known: nothing can change it afterwards."""
    with pikepdf.open(good_sheet) as pdf:
        rgb_annotation(pdf)
        pdf.save(tmp_path / "seeded.pdf", deterministic_id=True)
    report = preflight(tmp_path / "seeded.pdf")
    [point] = [point for point in report.points if not point.passed]
    assert point.failures == (("an RGB Square annotation inside the bleed", (1,)),)
    assert point.problems == ["an RGB Square annotation inside the bleed (page 1)"]
    ink = report.point("total ink at most 300 %")
    assert ink.passed and ink.note == ""  # measured (else "not measured: ..."), after the worker, in the one report
    with pytest.raises(dataclasses.FrozenInstanceError):
        ink.note = "not measured"
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.points = ()

"""Files a print shop accepts: `cards --color cmyk` and the DriveThruCards export are PDF/X-1a in
the shipped CMYK profile (no RGB, an output intent, page boxes, embedded fonts, no transparency),
ghostscript reads them without a word, and `cardgen preflight` passes them and names what is
wrong in files seeded with each problem a shop would flag."""
from __future__ import annotations

import resource
import shutil
import subprocess
import sys

import pikepdf
import pytest
from conftest import TINY_GAME, cardgen, edit
from PIL import Image
from test_preflight_points import failed

from cardgen.publish.preflight import preflight

GHOSTSCRIPT = shutil.which("gs")


def art(width: int, height: int) -> Image.Image:
    """A colorful picture with a transparent corner (PDF/X-1a allows no alpha: it is flattened)."""
    image = Image.new("RGBA", (width, height), (30, 140, 200, 255))
    for x in range(0, width, 7):
        for y in range(0, height, 5):
            image.putpixel((x, y), (220, 60 + x % 150, 40, 255))
    image.paste((0, 0, 0, 0), (0, 0, width // 4, height // 4))
    return image


@pytest.fixture
def game_with_art(game_copy):
    """The tiny game with art on every card: 500 x 350 px, over 300 ppi on its mini cards."""
    def make(width: int = 500, height: int = 350):
        folder = game_copy(TINY_GAME, f"tiny_game_{width}")
        (folder / "art").mkdir()
        for name in ("Boom", "Shield", "Peek", "No"):
            art(width, height).save(folder / "art" / f"{name.lower()}.png")
            quoted = f'"{name}"' if name == "No" else name
            edit(folder / "cards.yaml", f"{{name: {quoted}, ", f"{{name: {quoted}, art: art/{name.lower()}.png, ")
        return folder
    return make


def every_object(pdf: pikepdf.Pdf):
    for obj in pdf.objects:
        if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
            yield obj


def box(page, key):
    x0, y0, x1, y1 = (float(v) for v in page.obj[key])
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def inside(inner, outer) -> bool:
    return inner[0] >= outer[0] and inner[1] >= outer[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def assert_pdfx(path):
    """What ISO 15930-4 (PDF/X-1a:2003) asks of the file, point by point, read with pikepdf;
    ghostscript renders it silently."""
    assert path.read_bytes().startswith(b"%PDF-1.4\n")  # PDF 1.4 at most
    with pikepdf.open(path) as pdf:
        assert not pdf.is_encrypted and "/Encrypt" not in pdf.trailer
        assert "/Version" not in pdf.Root or pdf.Root.Version <= "/1.4"
        assert isinstance(pdf.trailer.ID, pikepdf.Array) and len(pdf.trailer.ID) == 2  # the file identifier
        info = pdf.docinfo
        assert str(info["/GTS_PDFXVersion"]) == "PDF/X-1:2003"
        assert str(info["/GTS_PDFXConformance"]) == "PDF/X-1a:2003"
        assert str(info["/Title"]) and info["/Trapped"] in ("/True", "/False")
        for key in ("/CreationDate", "/ModDate"):
            assert str(info[key]).startswith("D:20000101")  # fixed: the file is reproducible
        (intent,) = pdf.Root.OutputIntents
        assert intent.Type == "/OutputIntent" and intent.S == "/GTS_PDFX"
        assert intent.OutputConditionIdentifier == "FOGRA39" and str(intent.RegistryName) == "http://www.color.org"
        assert int(intent.DestOutputProfile.N) == 4
        for page in pdf.pages:
            assert ("/TrimBox" in page.obj) != ("/ArtBox" in page.obj)  # one or the other
            assert inside(box(page, "/TrimBox"), box(page, "/BleedBox"))
            assert inside(box(page, "/BleedBox"), box(page, "/MediaBox"))
            assert "/Annots" not in page.obj
            content = b"".join(part.read_bytes() for part in ([page.Contents] if isinstance(
                page.Contents, pikepdf.Stream) else page.Contents))
            assert b" rg\n" not in content and b" RG\n" not in content
        assert "/OpenAction" not in pdf.Root and "/AA" not in pdf.Root
        images = 0
        for obj in every_object(pdf):
            assert obj.get("/ColorSpace") != "/DeviceRGB"
            if obj.get("/Type") == "/ExtGState":  # overprint only: no transparency
                assert set(obj.keys()) <= {"/Type", "/OP", "/op", "/OPM"}, obj
            if obj.get("/Subtype") == "/Image":
                images += 1
                assert obj.ColorSpace == "/DeviceCMYK" and "/SMask" not in obj
            if obj.get("/Subtype") == "/Form":
                assert b" rg\n" not in obj.read_bytes() and b" RG\n" not in obj.read_bytes()
            if obj.get("/Type") == "/Font":
                assert "/FontFile2" in obj.FontDescriptor, obj.BaseFont
    assert GHOSTSCRIPT, "ghostscript (gs) reads the files here: .ci/run installs it"
    run = subprocess.run([GHOSTSCRIPT, "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=nullpage", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and not run.stdout.strip() and not run.stderr.strip(), run.stdout + run.stderr
    return images


@pytest.mark.slow
def test_a_cmyk_card_sheet_is_pdfx_and_passes_preflight(game_with_art, tmp_path):
    """The sheet of every card type, faces and backs (two pages): a setup's CMYK sheets (four
    pages here) pass every point but those seeded to fail in test_preflight_names_each_problem..."""
    folder = game_with_art()
    code, _, err = cardgen("cards", folder, "--all-types", "--color", "cmyk", "--out", tmp_path)
    assert code == 0, err
    path = tmp_path / "cards-all-types.pdf"
    assert assert_pdfx(path) >= 1  # the art (the same picture on every card: one image)
    report = preflight(path)
    assert report.passed, report.lines()
    again = tmp_path / "again"
    assert cardgen("cards", folder, "--all-types", "--color", "cmyk", "--out", again)[0] == 0
    assert (again / "cards-all-types.pdf").read_bytes() == path.read_bytes()  # deterministic


@pytest.mark.slow
def test_the_drivethrucards_export_is_pdfx_and_passes_preflight(game_with_art, tmp_path):
    code, _, err = cardgen("export", game_with_art(), "--to", "drivethru", "--out", tmp_path)
    assert code == 0, err
    (path,) = tmp_path.glob("export-drivethru-*/*.pdf")
    assert assert_pdfx(path) >= 1  # the art, in CMYK
    report = preflight(path)
    assert report.passed, report.lines()


def flagged(said: str) -> dict[str, dict[str, list[str]]]:
    """Each file `cardgen preflight` names in its output, with its failed points and the problems it
    shows of each (the first five, then "and N more")."""
    sections: dict[str, list[str]] = {}
    for line in said.splitlines():
        if not line.startswith(" "):
            name, _, verdict = line.rpartition(": ")
            assert verdict in ("passes", "would be flagged"), line
            sections[name] = [line]
        else:
            sections[name].append(line)
    return {name: failed("\n".join(lines)) for name, lines in sections.items()}


PDFX_KEYS = "PDF/X-1a:2003 keys (GTS_PDFXVersion, GTS_PDFXConformance, Title, dates, Trapped)"


@pytest.mark.slow
def test_preflight_names_each_problem_of_seeded_bad_files(game_with_art, tmp_path):
    rgb = game_with_art()  # RGB art, with alpha, on an RGB sheet
    assert cardgen("cards", rgb, "--out", tmp_path / "rgb")[0] == 0
    low = game_with_art(215, 150)  # about 150 ppi: check warns, the shop flags it
    (low / "layout.yaml").write_text("text: {border: 0.2}\nname: {y: 0.5}\n", encoding="utf-8")
    code, out, _ = cardgen("check", low)
    assert code == 0 and "[art-low-resolution]" in out and "[outside-safe-zone]" in out
    assert cardgen("cards", low, "--color", "cmyk", "--out", tmp_path / "low")[0] == 0
    path, rgb_path = tmp_path / "low" / "cards-starter.pdf", tmp_path / "rgb" / "cards-starter.pdf"
    code, said, _ = cardgen("preflight", path, rgb_path)  # both files checked once, by the command
    assert code == 1
    both = flagged(said)
    assert list(both) == [str(path), str(rgb_path)]

    found = both[str(rgb_path)]
    assert set(found) == {"CMYK only (no RGB color or image)", "PDF/X output intent", PDFX_KEYS,
                          "no transparency (opacity, soft mask, group)"}
    assert found["no transparency (opacity, soft mask, group)"] == ["an image with a soft mask (alpha)"]
    assert any(problem.startswith("an RGB image") for problem in found["CMYK only (no RGB color or image)"])

    found = both[str(path)]
    assert set(found) == {"images at 300 ppi or more", "no line under 0.25 pt", "text inside the 3 mm safe zone"}
    assert all(" ppi" in problem and int(problem.split(" at ")[1].split()[0]) < 160
               for problem in found["images at 300 ppi or more"])
    assert found["no line under 0.25 pt"] == ["a line 0.14 pt wide (pages 1, 3)"]  # 0.2 pt scaled to a mini card
    assert any(problem.startswith("'B' at") for problem in found["text inside the 3 mm safe zone"])  # Boom's name

    code, _, err = cardgen("preflight", tmp_path / "nothing.pdf")
    assert code == 1 and "nothing.pdf cannot be read (No such file or directory)" in err and "Traceback" not in err
    (tmp_path / "text.pdf").write_text("not a PDF")
    code, _, err = cardgen("preflight", tmp_path / "text.pdf")
    assert code == 1 and "text.pdf is not a PDF (it does not start with %PDF-)" in err


def test_preflight_measures_the_total_ink_of_a_cmyk_file(tmp_path):
    """A 400 % black (all four inks full) fails; the profile's rich black (under 300 %) passes."""
    assert GHOSTSCRIPT, "the ink is measured on ghostscript's CMYK rendering: .ci/run installs it"
    from reportlab.lib.colors import CMYKColor
    from reportlab.pdfgen.canvas import Canvas

    for name, color in (("heavy", CMYKColor(1, 1, 1, 1)), ("rich", CMYKColor(0.6, 0.5, 0.5, 1))):
        canvas = Canvas(str(tmp_path / f"{name}.pdf"), pagesize=(200, 200), invariant=1)
        canvas.setFillColor(color)
        canvas.rect(20, 20, 160, 160, stroke=0, fill=1)
        canvas.save()
    ink = {name: [p for p in preflight(tmp_path / f"{name}.pdf").points if p.name.startswith("total ink")][0]
           for name in ("heavy", "rich")}
    assert ink["heavy"].problems == ["400 % on the darkest spot (page 1)"]
    assert ink["rich"].passed and not ink["rich"].note

    # under hard limits set from outside, lower than cardgen's own ceilings (`ulimit -t 20 -f 32768`),
    # ghostscript still starts, under the lower of the two
    def outside_limits():
        resource.setrlimit(resource.RLIMIT_CPU, (20, 20))
        resource.setrlimit(resource.RLIMIT_FSIZE, (32 << 20, 32 << 20))
    run = subprocess.run([sys.executable, "-m", "cardgen", "preflight", tmp_path / "heavy.pdf"], capture_output=True,
                         text=True, preexec_fn=outside_limits, check=False)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert "total ink at most 300 %\n        400 % on the darkest spot (page 1)" in run.stdout


# Each service's card with its bleed at 300 dpi, from its template (art/export-targets.yaml says
# where each comes from); the mini cards are tests/render/test_exports.py's
TEMPLATES = [("tgc", "poker", (825, 1125)), ("tgc", "bridge", (750, 1125)), ("tgc", "tarot", (900, 1500)),
             ("tgc", "square", (1125, 1125)), ("tgc", "jumbo", (1125, 1725)), ("mpc", "poker", (822, 1122)),
             ("mpc", "bridge", (747, 1122)), ("mpc", "tarot", (897, 1497)), ("drivethru", "poker", (825, 1125)),
             ("drivethru", "tarot", (900, 1500))]


def game_of_size(game_copy, size: str):
    """The tiny game (four card types: the fewest card images to render) with cards of `size`."""
    folder = game_copy(TINY_GAME, f"tiny_game_{size}")
    edit(folder / "game.yaml", "card_size: mini", f"card_size: {size}")
    return folder


@pytest.mark.parametrize("target, size, pixels", TEMPLATES, ids=[f"{t}-{s}" for t, s, _ in TEMPLATES])
def test_each_services_cards_export_at_its_template_size(game_copy, target, size, pixels, tmp_path):
    code, _, err = cardgen("export", game_of_size(game_copy, size), "--to", target, "--out", tmp_path)
    assert code == 0, err
    (folder,) = tmp_path.glob(f"export-{target}-*")
    if target == "drivethru":  # a page per side of a card, in points
        with pikepdf.open(next(folder.glob("*.pdf"))) as pdf:
            pages = {tuple(round(float(v) * 300 / 72, 6) for v in page.MediaBox) for page in pdf.pages}
        assert pages == {(0, 0, *pixels)}
        return
    images = sorted(folder.glob("*.png"))
    assert len(images) > 2  # the fronts and the back
    for path in images:
        with Image.open(path) as image:
            assert image.size == pixels and round(image.info["dpi"][0]) == 300


@pytest.mark.parametrize("target, size", [("mpc", "square"), ("mpc", "jumbo"), ("drivethru", "square"),
                                          ("drivethru", "jumbo")])
def test_a_service_without_the_games_size_says_which_sizes_it_has(game_copy, target, size, tmp_path):
    code, _, err = cardgen("export", game_of_size(game_copy, size), "--to", target, "--out", tmp_path)
    assert code == 1 and not list(tmp_path.glob("export-*/*.*"))
    assert f"({target}) has no product for {size} cards" in err
    assert "its card sizes are: poker, bridge, tarot, mini" in err

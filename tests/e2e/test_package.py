"""The installed package: a wheel built from this checkout, installed into a fresh virtual
environment, used from an empty folder, as a designer would (`pip install .`, then `cardgen new`).

The wheel is built and installed once per session. The heavy dependencies are not downloaded
again: the new virtual environment reads the running environment's site-packages (the system's,
or a virtual environment's when the tests run in one) as plain folders after its own, so their
.pth files (an editable install of this checkout) do not apply and cardgen itself comes from the
wheel (checked below), never from this checkout."""
from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT, page_texts

pytestmark = pytest.mark.slow  # builds a wheel and a virtual environment

SOURCES = ("pyproject.toml", "README.md", "cardgen", "templates", "art", "card_data")


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    source.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(root), str(source)],
                   check=True, capture_output=True, timeout=300)
    return next(root.glob("cardgen-*.whl"))


@pytest.fixture(scope="session")
def venv_bin(wheel, tmp_path_factory) -> Path:
    venv = tmp_path_factory.mktemp("venv")
    # Without a pip of its own (copying one in takes seconds): the running pip installs into it.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q", "--no-deps",
                    str(wheel)], check=True, capture_output=True, timeout=300, env=outside_checkout())
    # After the install: a pip that saw the running environment (or this checkout's egg-info, on the
    # tests' PYTHONPATH) would take its cardgen, an editable install, as already installed.
    own = next((venv / "lib").glob("python*/site-packages"))
    (own / "running-environment.pth").write_text("\n".join(running_site_packages()) + "\n", encoding="utf-8")
    return venv / "bin"


def running_site_packages() -> list[str]:
    """The folders the running interpreter imports installed libraries from."""
    folders = [*site.getsitepackages(), site.getusersitepackages(), *sys.path]
    return list(dict.fromkeys(f for f in folders if Path(f).name in ("site-packages", "dist-packages")
                              and Path(f).is_dir()))


def outside_checkout() -> dict[str, str]:
    """The environment without the tests' own PYTHONPATH (which points at this checkout)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def installed(venv_bin: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(venv_bin / args[0]), *args[1:]], cwd=cwd, env=outside_checkout(), capture_output=True,
                          text=True, timeout=300)


def test_the_wheel_carries_every_module_template_font_symbol_and_shipped_game(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"cardgen/{p.relative_to(ROOT / 'cardgen').as_posix()}" for p in (ROOT / "cardgen").rglob("*")
                if p.is_file() and "__pycache__" not in p.parts}  # the modules and serve's page
    for folder in ("templates", "art", "card_data"):
        expected |= {f"cardgen/{p.relative_to(ROOT).as_posix()}" for p in (ROOT / folder).rglob("*") if p.is_file()}
    expected |= {f"cardgen/schemas/{p.name}" for p in (ROOT / "cardgen" / "schemas").glob("*.json")}
    assert expected - names == set()


def test_the_installed_package_starts_a_game_and_builds_it_from_an_empty_folder(venv_bin, tmp_path):
    where = installed(venv_bin, tmp_path, "python", "-c", "import cardgen; print(cardgen.__file__)")
    assert where.stdout.startswith(str(venv_bin.parent)), where.stdout + where.stderr

    new = installed(venv_bin, tmp_path, "cardgen", "new", "mygame")
    assert new.returncode == 0, new.stderr
    assert "cardgen build mygame" in new.stdout
    build = installed(venv_bin, tmp_path, "cardgen", "build", "mygame")
    assert build.returncode == 0, build.stderr

    out = tmp_path / "output" / "mygame"
    assert sorted(p.name for p in out.iterdir()) == [
        "cardgen-manifest.json", "cards-standard.pdf", "cheatsheet-pocket.pdf", "cheatsheet.pdf", "checklists.pdf",
        "rulebook.html", "rulebook.pdf"]
    faces = " ".join(page_texts(out / "cards-standard.pdf"))  # read with PDFium: pdfplumber takes seconds here
    for name in ("Dragon", "Shield", "Peek", "Crown", "Coin 1", "Coin 3"):
        assert name in faces
    assert "Mygame" in page_texts(out / "rulebook.pdf")[0]


def test_the_installed_package_lists_and_copies_the_shipped_games(venv_bin, tmp_path):
    listing = installed(venv_bin, tmp_path, "cardgen", "list")
    assert listing.returncode == 0, listing.stderr
    shipped = sorted(p.name for p in (ROOT / "card_data").iterdir() if (p / "game.yaml").is_file())
    for name in shipped:
        assert f"{name}: " in listing.stdout
    assert "cannot be loaded" not in listing.stdout

    assert installed(venv_bin, tmp_path, "cardgen", "new", "pups", "--from", "exploding_puppy").returncode == 0
    check = installed(venv_bin, tmp_path, "cardgen", "check", "pups")
    assert check.returncode == 0, check.stdout
    modeline, copied = (tmp_path / "pups" / "cards.yaml").read_text(encoding="utf-8").split("\n", 1)
    assert copied == (ROOT / "card_data/exploding_puppy/cards.yaml").read_text(encoding="utf-8")
    schema_file = Path(modeline.removeprefix("# yaml-language-server: $schema="))
    assert schema_file.is_relative_to(venv_bin.parent) and schema_file.is_file()  # the installed package's

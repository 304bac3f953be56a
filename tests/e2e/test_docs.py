"""The docs stay in step with the code: the README names every command and option, the docs
name every built-in symbol and give the print services' sizes as shipped."""
from __future__ import annotations

import argparse
import re

from conftest import ROOT

from cardgen import cli
from cardgen.load.targets import load_targets
from cardgen.model.sizes import CARD_SIZES_MM

BUILT_IN_SYMBOLS = sorted(p.stem for p in (ROOT / "art" / "symbols").glob("*.svg"))


def readme_entries() -> dict[str, str]:
    """The README's command list: `cardgen NAME ...` → its entry, up to the next command."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index("## Commands"):readme.index("`GAME` is")]
    parts = re.split(r"^cardgen (\w+)", block, flags=re.M)[1:]
    return dict(zip(parts[::2], parts[1::2]))


def test_the_readme_names_every_command_with_every_option():
    parser = cli._parser(every=True)  # every command's subparser, through the registry
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    entries = readme_entries()
    assert sorted(entries) == sorted(commands)
    for name, command in commands.items():
        options = {o for action in command._actions for o in action.option_strings if o.startswith("--")}
        missing = [o for o in sorted(options - {"--help"}) if not re.search(rf"{o}\b", entries[name])]
        assert not missing, f"README: cardgen {name} lacks {missing}"


def test_the_docs_show_every_built_in_symbol():
    sheet = (ROOT / "docs" / "symbols.md").read_text(encoding="utf-8")
    assert sorted(re.findall(r'src="\.\./art/symbols/([a-z0-9_-]+)\.svg"', sheet)) == BUILT_IN_SYMBOLS
    reference = (ROOT / "docs" / "data-format.md").read_text(encoding="utf-8")
    listed = re.search(r"\(symbols\.md\): (.*?)\.", reference, re.S).group(1)
    assert sorted(re.findall(r"`([a-z0-9_-]+)`", listed)) == BUILT_IN_SYMBOLS


def test_the_docs_give_each_services_sizes_as_shipped(tmp_path):
    """docs/printing.md: each preset in mm, and each service's image with its bleed (px), or —."""
    text = (ROOT / "docs" / "printing.md").read_text(encoding="utf-8")
    rows = text.split("<!-- service-sizes -->")[1].split("<!-- /service-sizes -->")[0].strip().splitlines()[2:]
    documented = {cells[0]: cells[1:] for cells in ([c.strip() for c in row.split("|")[1:-1]] for row in rows)}
    assert list(documented) == list(CARD_SIZES_MM)
    targets, _ = load_targets(tmp_path)  # the shipped targets: tmp_path has none of its own
    for size, (mm, *services) in documented.items():
        assert mm == "{:g} × {:g}".format(*CARD_SIZES_MM[size])
        for name, cell in zip(("tgc", "mpc", "drivethru"), services):
            pixels = targets[name].sizes.get(size)
            shipped = f"{pixels.full[0]} × {pixels.full[1]}, {pixels.bleed:g}" if pixels else "—"
            assert cell.removesuffix(" *") == shipped, (size, name)

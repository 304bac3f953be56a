"""The docs stay in step with the code: the README names every command and option, the docs
name every built-in symbol."""
from __future__ import annotations

import argparse
import re

from conftest import ROOT

from cardgen import cli

BUILT_IN_SYMBOLS = sorted(p.stem for p in (ROOT / "art" / "symbols").glob("*.svg"))


def readme_entries() -> dict[str, str]:
    """The README's command list: `cardgen NAME ...` → its entry, up to the next command."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index("## Commands"):readme.index("`GAME` is")]
    parts = re.split(r"^cardgen (\w+)", block, flags=re.M)[1:]
    return dict(zip(parts[::2], parts[1::2]))


def test_the_readme_names_every_command_with_every_option():
    parser = cli._parser()
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

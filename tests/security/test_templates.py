"""Template injection and template typos.

Data values are never compiled as templates: `{{ 7*191 }}` typed in the data stays literal in the
rulebook, the checklists, the cheat sheet and on the card sheet. A game folder's own templates run
in a sandbox that also keeps them away from files and runaway arithmetic; what it refuses, and any
undefined variable, stops the build naming the template and line."""
from __future__ import annotations

import time

import pytest
from conftest import TINY_GAME

from security.conftest import attempt, pdf_text, refused

INJECTED = "{{ 7*191 }}"  # 1337 if it were ever evaluated
REFERENCE = f"""
reference:
  cheatsheet:
    title: "Cheat {INJECTED}"
    goal: "Goal {INJECTED}"
    sections:
      - {{title: "Turn {INJECTED}", items: ["Draw {INJECTED} {{% raw %}}"]}}
variations:
  - {{name: "Variant {INJECTED}", text: "Play {INJECTED} twice."}}
"""


@pytest.fixture(scope="module")
def injected_game(tmp_path_factory):
    import shutil

    folder = tmp_path_factory.mktemp("injected") / "game"
    shutil.copytree(TINY_GAME, folder)
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text()
                     .replace("Peek", f'"Peek {INJECTED}"')
                     .replace('"Oops."', f'"Oops {INJECTED}."')
                     .replace('"You are out."', f'"Out {INJECTED}.", details: "Details {INJECTED} {{% if %}}"'))
    setups = folder / "setups.yaml"
    setups.write_text(setups.read_text().replace("Peek: 6", f'"Peek {INJECTED}": 6')
                      .replace("The only setup.", f'"Setup {INJECTED}"'))
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text() + REFERENCE)
    (folder / "rules.md").write_text(f"# Overview\n\nRules {INJECTED} and {{% for x in y %}}.\n")
    return folder


@pytest.mark.parametrize("kind", ["rulebook", "checklists", "cheatsheet", "cards"])
def test_data_values_are_never_compiled_as_templates(kind, injected_game, tmp_path):
    assert attempt(kind, injected_game, tmp_path) is None
    (pdf,) = [p for p in tmp_path.glob("*.pdf") if "pocket" not in p.name]
    text = " ".join(pdf_text(pdf).split())
    assert "1337" not in text
    assert INJECTED in text or "{{ 7*191" in text  # line breaks may split it; still literal


SANDBOX_ESCAPES = {
    "mro": "{{ ''.__class__.__mro__ }}",
    "cycler-globals": "{{ cycler.__init__.__globals__ }}",
    "subclasses": "{{ ().__class__.__base__.__subclasses__() }}",
    "format-string": "{{ '{0.__class__}'.format(game) }}",
}


@pytest.mark.parametrize("case", sorted(SANDBOX_ESCAPES))
def test_game_templates_cannot_reach_python_internals(case, game_with_template, tmp_path):
    folder = game_with_template(f"<p>ok</p>\n{SANDBOX_ESCAPES[case]}\n")
    message = refused("rulebook", folder, tmp_path / "out")
    assert "rulebook.html:2" in message and "unsafe" in message


def test_game_templates_cannot_read_files_through_the_model(game_with_template, canary, tmp_path):
    outside, secret = canary
    folder = game_with_template("<p>{{ game.folder.joinpath('..', 'outside', 'canary.txt').read_text() }}</p>\n")
    message = refused("rulebook", folder, tmp_path / "out")
    assert "rulebook.html:1" in message
    assert secret not in message


def test_game_templates_cannot_write_files_through_the_model(game_with_template, tmp_path):
    folder = game_with_template("{{ (game.folder / 'pwned.txt').write_text('x') }}\n")
    message = attempt("rulebook", folder, tmp_path / "out")
    assert message and "rulebook.html:1" in message
    assert not (folder / "pwned.txt").exists()


@pytest.mark.parametrize("expression", ["10 ** 10 ** 10", "'x' * 10 ** 10", "[1] * 10 ** 9",
                                        "range(10 ** 9) | list | length"])
def test_game_templates_cannot_run_away(expression, game_with_template, tmp_path):
    folder = game_with_template(f"<p>{{{{ {expression} }}}}</p>\n")
    start = time.monotonic()
    message = attempt("rulebook", folder, tmp_path / "out")
    assert time.monotonic() - start < 10
    assert message and "rulebook.html:1" in message


TYPOS = {
    "rulebook.html": '{% extends "base.html" %}\n{% block body %}\n<h1>{{ game.title }}</h1>\n'
                     '{{ gmae }}\n{% endblock %}\n',
    "checklists.html": '{% extends "base.html" %}\n{% block body %}\n{% for page in pages %}\n'
                       '{{ page.reprot }}\n{% endfor %}\n{% endblock %}\n',
    "macros.html": '{% macro card_name(card) %}{{ crad }}{% endmacro %}\n',
}


@pytest.mark.parametrize("name", sorted(TYPOS))
def test_undefined_variables_stop_the_build_naming_template_and_line(name, game_with_template, tmp_path):
    folder = game_with_template(TYPOS[name], name)
    if name == "macros.html":  # a macro the rulebook calls, with a typo inside
        (folder / "templates" / "rulebook.html").write_text(
            '{% import "macros.html" as m %}\n<p>\n{{ m.card_name(game.cards[0]) }}\n</p>\n')
        kind, where = "rulebook", "macros.html:1"
    else:
        kind, where = name.split(".")[0], f"{name}:4"
    message = refused(kind, folder, tmp_path / "out")
    misspelt = {"rulebook.html": "'gmae' is undefined", "checklists.html": "no attribute 'reprot'",
                "macros.html": "'crad' is undefined"}[name]
    assert where in message and misspelt in message

"""Templates compiled once a process (render/documents/html): the shipped ones before the workers
fork, so that no document's worker compiles them again; a game's own, again whenever they change."""
from __future__ import annotations

import os

import jinja2
import pytest
from conftest import TINY_GAME, cardgen, checked

from cardgen.render.documents import html
from cardgen.render.documents.html import compile_shipped_templates, render_html
from cardgen.render.documents.rulebook import rulebook_context


@pytest.fixture
def compiled(monkeypatch) -> list[str]:
    """The names of the templates Jinja compiles from now on."""
    names: list[str] = []
    compile_source = jinja2.Environment.compile

    def counted(self, source, name=None, filename=None, *args, **kwargs):
        names.append(name)
        return compile_source(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return names


def _rulebook(folder) -> str:
    game, report = checked(folder)
    return render_html(game, "rulebook.html", rulebook_context(game, report))


def test_a_game_in_a_new_folder_compiles_none_of_the_shipped_templates_again(game_copy, compiled):
    compile_shipped_templates()
    compiled.clear()
    html = _rulebook(game_copy(TINY_GAME, "never_seen_before"))
    assert "Tiny Hazards" in html
    assert compiled == []


def test_a_games_own_template_is_compiled_again_when_it_changes(game_copy, compiled):
    folder = game_copy(TINY_GAME)
    (folder / "templates").mkdir()
    template = folder / "templates" / "rulebook.html"
    template.write_text('{% extends "base.html" %}{% block body %}<h1>First {{ game.title }}</h1>{% endblock %}')
    assert "First Tiny Hazards" in _rulebook(folder)
    template.write_text('{% extends "base.html" %}{% block body %}<h1>Second {{ game.title }}</h1>{% endblock %}')
    html = _rulebook(folder)
    assert "Second Tiny Hazards" in html and "First" not in html
    assert compiled.count("rulebook.html") == 2


@pytest.mark.slow
def test_a_builds_workers_compile_none_of_the_shipped_templates(game_copy, tmp_path, monkeypatch):
    """The build compiles them (if this process has not yet) before its workers fork."""
    log = tmp_path / "compiled.log"
    compile_source = jinja2.Environment.compile

    def logged(self, source, name=None, filename=None, *args, **kwargs):
        with open(log, "a", encoding="utf-8") as file:  # the workers are forked: a file hears them too
            file.write(f"{os.getpid()} {name}\n")
        return compile_source(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", logged)
    monkeypatch.setattr(html._COMPILED, "_codes", {})  # as in a new process: nothing compiled yet
    code, _, err = cardgen("build", game_copy(TINY_GAME), "--out", tmp_path / "out")
    assert code == 0, err
    assert (tmp_path / "out" / "rulebook.pdf").is_file() and (tmp_path / "out" / "checklists.pdf").is_file()
    in_workers = [line for line in log.read_text().splitlines() if not line.startswith(f"{os.getpid()} ")] \
        if log.exists() else []
    assert in_workers == []

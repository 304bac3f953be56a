"""Output kinds live in one registry (publish/kinds/): a kind added by the recipe of
docs/architecture.md ("A new output"), a module and its entry in KINDS, is planned by `cardgen
build`, rendered, published, listed in the manifest, reused while its inputs are unchanged,
previewed or not, given the simulated figures or not, and named with its likely cause when it
fails, all from its declaration. The registry holds only the throw-away kinds in most of these
tests, so that any output the build makes without asking the registry shows up, and any it
renders by another way than the kind's own fails."""
from __future__ import annotations

import dataclasses
import importlib.util
import json
import shutil
import sys

import pytest
from conftest import CARD_DATA, cardgen, checked, edit

from cardgen.model.sizes import DEFAULT_PAPER
from cardgen.publish import cache
from cardgen.publish.check import check_folder
from cardgen.publish.folder import MANIFEST
from cardgen.publish.kinds import KINDS, OutputKind, kind_of, plan_all
from cardgen.publish.kinds.sheets import plan_cards
from cardgen.publish.plan import Output, PaperOptions, Plan
from cardgen.publish.result import Event
from cardgen.publish.run import Job, render_and_publish
from cardgen.publish.simulate import CACHE_FILE
from cardgen.serve import Preview


def run(game, report, plan, out, **options):
    """One language's plan rendered and published (the driver's last step)."""
    [result] = render_and_publish([Job(game, report, plan)], out, **options)
    return result


# The recipe's module, as a game designer would write it into cardgen/publish/kinds/stickers.py.
STICKERS = '''
"""publish/kinds/stickers: a sheet of stickers, one line per card and a colour of their own (a
throw-away kind for a test)."""
from __future__ import annotations

from dataclasses import dataclass

from cardgen.publish import cache
from cardgen.publish.kinds.kind import OutputKind
from cardgen.publish.plan import Output, Plan
from cardgen.render.write import atomic_write


@dataclass(frozen=True)
class StickerOptions:
    paper: str
    colour: str = "yellow"


def _render(output, game, report, to):
    figures = [str(played.plays) for s in report.setups for played in s.players]
    lines = [f"{game.title} on {output.options.colour} {output.options.paper}", *(card.name for card in game.cards),
             *figures]
    atomic_write(to.folder / "stickers.txt", ("\\n".join(lines) + "\\n").encode("utf-8"))


def _key(inputs, game, report, output):
    """The cards, not the prose: a rules.md edit leaves the stickers alone."""
    return cache.sheet_key(inputs, game, output, game.cards)


def _build(game, report, wanted):
    return Plan((Output(STICKERS.name, "the stickers", StickerOptions(wanted.paper)),))


STICKERS = OutputKind("stickers", ("stickers.txt",), _key, _render, "the number of stickers",
                      options_type=StickerOptions, build=_build)
'''


@pytest.fixture
def stickers(tmp_path, monkeypatch):
    """The recipe's module, imported from where it was written: its OutputKind, not yet registered."""
    path = tmp_path / "stickers.py"
    path.write_text(STICKERS, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("cardgen_test_stickers", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # as an import would: its dataclass looks its module up, and its options go to the workers by its name
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module.STICKERS


@pytest.fixture
def registry():
    """Register kinds (KINDS itself, changed in place: whoever holds it sees them), alone or
    beside the shipped ones; the registry is as it was afterwards."""
    shipped = dict(KINDS)

    def register(*kinds: OutputKind, alone: bool = True) -> None:
        if alone:
            KINDS.clear()
        KINDS.update({kind.name: kind for kind in kinds})

    yield register
    KINDS.clear()
    KINDS.update(shipped)


def manifest(out) -> dict:
    return json.loads((out / MANIFEST).read_text(encoding="utf-8"))


def test_the_recipe_s_kind_is_planned_built_published_listed_and_reused_until_its_cards_change(
        stickers, registry, game_copy, tmp_path):
    registry(stickers)
    folder, out = game_copy(), tmp_path / "out"
    game, report = checked(folder)
    plan = plan_all(game, report, paper="letter")
    assert plan.outputs == (Output("stickers", "the stickers", stickers.options_type("letter")),)  # nothing past the registry

    result = run(game, report, plan, out)
    assert result.ok, result.failures + result.bugs
    assert result.written == (out / "stickers.txt",)
    lines = (out / "stickers.txt").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "Tiny Hazards on yellow letter" and lines[1:1 + len(game.cards)] == [c.name for c in game.cards]
    listed = manifest(out)
    assert set(listed["outputs"]) == {"stickers.txt"}
    assert listed["outputs"]["stickers.txt"]["bytes"] == (out / "stickers.txt").stat().st_size
    assert [entry["files"] for entry in listed["cache"]["outputs"].values()] == [["stickers.txt"]]

    again = run(game, report, plan, out)
    assert again.ok and again.written == () and again.reused == (out / "stickers.txt",)

    # its own key: the prose is not on it (a document's key, every input, would rebuild it)
    (folder / "rules.md").write_text("# Tiny Hazards\n\nDraw a card; a hazard you cannot stop ends your game.\n",
                                     encoding="utf-8")
    game, report = checked(folder)
    assert run(game, report, plan, out).written == ()
    edit(folder / "cards.yaml", "text: \"You are out.\"", "text: \"You are out, sorry.\"")
    game, report = checked(folder)
    assert run(game, report, plan, out).written == (out / "stickers.txt",)

    # an option of its own, declared in its module: on its key and read by its renderer
    blue = Plan((Output("stickers", "the stickers", stickers.options_type("letter", colour="blue")),))
    assert run(game, report, blue, out).written == (out / "stickers.txt",)
    assert (out / "stickers.txt").read_text(encoding="utf-8").startswith("Tiny Hazards on blue letter\n")


def test_cardgen_build_makes_the_kind_beside_nothing_else_and_then_reuses_it(stickers, registry, game_copy,
                                                                            tmp_path):
    registry(stickers)
    folder, out = game_copy(), tmp_path / "out"
    code, _, err = cardgen("build", folder, "--out", out)
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [MANIFEST, "stickers.txt"]
    code, _, err = cardgen("build", folder, "--out", out)
    assert code == 0 and "wrote" not in err and "1 up to date" in err, err


def test_beside_the_shipped_kinds_it_comes_last_in_the_plan(stickers, registry, game_copy):
    game, report = checked(game_copy())
    shipped = plan_all(game, report)
    registry(stickers, alone=False)
    plan = plan_all(game, report)
    assert plan.outputs == (*shipped.outputs, Output("stickers", "the stickers", stickers.options_type(DEFAULT_PAPER)))
    assert (plan.skipped, plan.notes) == (shipped.skipped, shipped.notes)


def out_of_memory(output, game, report, to):
    raise MemoryError()


def test_its_likely_cause_is_named_when_its_renderer_fails_and_nothing_is_published(stickers, registry, game_copy,
                                                                                    tmp_path):
    registry(dataclasses.replace(stickers, render=out_of_memory))
    game, report = checked(game_copy())
    out = tmp_path / "out"
    result = run(game, report, plan_all(game, report), out)
    assert not result.ok and len(result.failures) == 1
    assert "the stickers needed more than" in result.failures[0]
    assert "the likely cause is the number of stickers" in result.failures[0]
    assert not (out / "stickers.txt").exists() and not (out / MANIFEST).exists()


def test_a_file_its_kind_does_not_declare_is_a_bug_and_nothing_is_published(stickers, registry, game_copy, tmp_path):
    def more(output, game, report, to):
        stickers.render(output, game, report, to)
        (to.folder / "posters.txt").write_text("not a sticker")

    registry(dataclasses.replace(stickers, render=more))
    game, report = checked(game_copy())
    out = tmp_path / "out"
    result = run(game, report, plan_all(game, report), out)
    assert len(result.bugs) == 1 and "stickers wrote posters.txt: not among its files (stickers.txt)" in result.bugs[0]
    assert not (out / "stickers.txt").exists()


def test_an_output_planned_with_another_kind_s_options_is_refused(stickers, registry, game_copy, tmp_path):
    registry(stickers, alone=False)
    game, report = checked(game_copy())
    with pytest.raises(ValueError, match="'stickers' outputs take StickerOptions as options, not PaperOptions"):
        run(game, report, Plan((Output("stickers", "the stickers", PaperOptions("letter")),)), tmp_path / "out")
    # a setup's sheet options are card sheet options and more: still not those of every card type
    [setup_sheets] = plan_cards(game).outputs
    with pytest.raises(ValueError, match="'all-types' outputs take CardSheetOptions as options, not SetupSheetOptions"):
        run(game, report, Plan((Output("all-types", "every card", setup_sheets.options),)), tmp_path / "out")
    assert not any((tmp_path / "out").iterdir())  # nothing rendered
    with pytest.raises(KeyError, match="no output kind 'posters'"):
        kind_of(Output("posters", "the posters", PaperOptions()))
    with pytest.raises(ValueError, match=r"its options \(dict\) are not a frozen dataclass"):
        dataclasses.replace(stickers, options_type=dict)
    with pytest.raises(ValueError, match=r"its options \(Unfrozen\) are not a frozen dataclass"):
        dataclasses.replace(stickers, options_type=dataclasses.make_dataclass("Unfrozen", ["deck"]))


@dataclasses.dataclass(frozen=True)
class DeckPart:
    deck: str


def parts(salt: dict[str, int], together: bool) -> OutputKind:
    """A kind of two parts (decks a and b), each keyed on its own salt."""
    def render(output, game, report, to):
        (to.folder / "parts").mkdir()
        (to.folder / "parts" / f"{output.options.deck}.txt").write_text(f"part {output.options.deck}")

    return OutputKind("parts", ("parts/*.txt",), lambda inputs, game, report, output: f"{output.options.deck}"
                      f"{salt[output.options.deck]}", render, "the parts", options_type=DeckPart,
                      together=(lambda output: "one folder") if together else None)


@pytest.mark.parametrize("together", [True, False])
def test_outputs_published_together_are_rendered_again_together(registry, game_copy, tmp_path, together):
    salt = {"a": 0, "b": 0}
    registry(parts(salt, together))
    game, report = checked(game_copy())
    out = tmp_path / "out"
    plan = Plan((Output("parts", "part a", DeckPart("a")), Output("parts", "part b", DeckPart("b"))))

    def rendered() -> list[str]:
        events: list[Event] = []
        assert run(game, report, plan, out, on_event=events.append).ok
        return sorted(event.output.label for event in events if event.kind == "finished")

    assert rendered() == ["part a", "part b"]
    assert rendered() == []
    salt["a"] += 1
    assert rendered() == (["part a", "part b"] if together else ["part a"])
    if together:  # the folder is published whole: with both parts
        assert sorted(p.name for p in (out / "parts").iterdir()) == ["a.txt", "b.txt"]


def test_the_live_preview_builds_the_kinds_it_previews(stickers, registry, game_copy, tmp_path):
    def poster(output, game, report, to):
        (to.folder / "posters.txt").write_text("a poster")

    posters = OutputKind("posters", ("posters.txt",), stickers.key, poster, "the posters", preview=False,
                   build=lambda game, report, wanted: Plan((Output("posters", "the posters", PaperOptions()),)))
    registry(stickers, posters)
    folder = game_copy()
    preview = Preview(folder, tmp_path / "serve")
    source = check_folder(folder)
    preview.build_documents(cache.snapshot(folder), source, source.report.game.language)
    assert (preview.documents_dir / "stickers.txt").is_file()
    assert set(manifest(preview.documents_dir)["outputs"]) == {"stickers.txt"}  # posters: not built at all


def test_a_kind_showing_the_simulated_figures_has_them_a_kind_that_does_not_costs_no_simulation(
        stickers, registry, tmp_path):
    folder = tmp_path / "exploding_kittens"
    shutil.copytree(CARD_DATA / "exploding_kittens", folder)
    edit(folder / "game.yaml", "  saved: random\n", "  saved: random\n  documents: true\n")
    game, report = checked(folder)

    registry(stickers)
    plain = tmp_path / "plain"
    assert run(game, report, plan_all(game, report), plain).ok
    assert "None" in (plain / "stickers.txt").read_text(encoding="utf-8").splitlines()[-1]
    assert not (plain / CACHE_FILE).exists()

    registry(dataclasses.replace(stickers, plays=True))
    played = tmp_path / "played"
    assert run(game, report, plan_all(game, report), played).ok
    assert "HowItPlays(games=2000" in (played / "stickers.txt").read_text(encoding="utf-8").splitlines()[-1]
    assert (played / CACHE_FILE).is_file()

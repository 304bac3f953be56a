"""The editor schemas (cardgen/schemas/*.schema.json): made from the loader's own declarations
(cardgen/load/schema.py), they accept every shipped game and reject what the loader rejects.

Editors read YAML 1.2 (yaml-language-server): `yes` is text, dates are text; `as_editors_read`
gives the data a JSON Schema validator sees in an editor."""
from __future__ import annotations

import copy
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml
from conftest import CARD_DATA, ROOT, TEST_DATA

from cardgen import cli
from cardgen.load import editor_schemas, load_game, schema, targets
from cardgen.load.reader import Reader
from cardgen.model.fields import CardField
from cardgen.model.game import ERROR

DEFAULT_LAYOUT = ROOT / "art" / "card-layout.yaml"  # every setting: a complete layout.yaml

SHIPPED = sorted(p.name for p in CARD_DATA.iterdir() if (p / "game.yaml").is_file())
_INT = re.compile(r"^[-+]?[0-9]+$|^0o[0-7]+$|^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$|^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$")


class NumberKey(str):
    """A mapping key written as a plain number (e.g. a player count): JSON keys are text, but
    `write` gives it back as typed."""


def as_editors_read(node: yaml.Node):
    """A composed YAML node as plain data under YAML 1.2's core schema."""
    if isinstance(node, yaml.MappingNode):
        return {(NumberKey if not key.style and _INT.match(key.value) else str)(key.value): as_editors_read(value)
                for key, value in node.value}
    if isinstance(node, yaml.SequenceNode):
        return [as_editors_read(item) for item in node.value]
    text = node.value
    if node.style:  # quoted or a block: text
        return text
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    if text in ("true", "True", "TRUE", "false", "False", "FALSE"):
        return text.lower() == "true"
    if _INT.match(text):
        return int(text, 0) if text[:2] in ("0o", "0x") else int(text)
    if _FLOAT.match(text):
        return float(text.replace(".inf", "inf").replace(".nan", "nan"))
    return text


def read_as_editors(path: Path):
    return as_editors_read(yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader))  # libyaml's nodes


def game_file(folder: Path, name: str) -> Path | None:
    """A game's file to read; for a game without a layout.yaml, the default layout, every setting
    written; for translation.yaml, its first translation (None if it has none)."""
    if name == "translation.yaml":
        return next(iter(sorted((folder / "i18n").glob("*.yaml"))), None)
    return DEFAULT_LAYOUT if name == "layout.yaml" and not (folder / name).is_file() else folder / name


def written_file(folder: Path, name: str) -> Path:
    """Where the file a test changes is written in the game's copy."""
    return game_file(folder, name) or folder / name if name == "translation.yaml" else folder / name


class _Dumper(yaml.CSafeDumper):  # libyaml's emitter: the same YAML, several times faster
    pass


_Dumper.add_representer(NumberKey, lambda dumper, key: dumper.represent_scalar("tag:yaml.org,2002:int", str(key)))


def write(path: Path, data) -> None:
    path.write_text(yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True), encoding="utf-8")


def validator(name: str, fields: tuple[CardField, ...] = ()) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(editor_schemas.json_schema(editor_schemas.files()[name], name, fields))


def schema_errors(name: str, data, fields: tuple[CardField, ...] = ()) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(name, fields).iter_errors(data)]


# --------------------------------------------------------------------------- the files


def test_the_shipped_schema_files_are_the_declarations_made_json():
    """Regenerate with `cardgen schema --write cardgen/schemas` when a declaration changes."""
    shipped = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "cardgen" / "schemas").glob("*.json")}
    assert shipped == editor_schemas.schema_texts()
    for text in shipped.values():
        jsonschema.Draft7Validator.check_schema(yaml.safe_load(text))


def test_the_schema_command_prints_each_files_line_and_writes_the_files(capsys, tmp_path):
    assert cli.main(["schema"]) == 0
    out = capsys.readouterr().out
    for name in editor_schemas.files():
        assert f"# yaml-language-server: $schema={editor_schemas.schema_file(name).as_posix()}" in out
        assert editor_schemas.schema_file(name).is_file()
    assert cli.main(["schema", "--write", str(tmp_path / "s")]) == 0
    assert {p.name: p.read_text(encoding="utf-8") for p in (tmp_path / "s").iterdir()} == editor_schemas.schema_texts()


@pytest.mark.parametrize("game", SHIPPED)
def test_every_shipped_game_is_valid_against_the_schemas(game):
    """Against the shipped schemas, or a game with card fields against its own (cardgen schema --game)."""
    fields = load_game(CARD_DATA / game).game.fields
    for name in editor_schemas.files():
        if (CARD_DATA / game / name).is_file():
            assert schema_errors(name, read_as_editors(CARD_DATA / game / name), fields) == [], name


def test_the_default_layout_is_a_valid_layout_yaml():
    assert schema_errors("layout.yaml", read_as_editors(DEFAULT_LAYOUT)) == []


def test_new_games_start_with_the_line_that_points_editors_at_the_schemas(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["new", "quest"]) == 0 and cli.main(["new", "pups", "--from", "exploding_puppy"]) == 0
    for game in ("quest", "pups"):
        for name in ("game.yaml", "cards.yaml", "setups.yaml"):  # neither has a layout.yaml
            first, rest = (tmp_path / game / name).read_text(encoding="utf-8").split("\n", 1)
            assert first == f"# yaml-language-server: $schema={editor_schemas.schema_file(name).as_posix()}"
            assert Path(first.split("=", 1)[1]).is_file()
    assert (tmp_path / "pups" / "cards.yaml").read_text(encoding="utf-8").split("\n", 1)[1] == \
        (CARD_DATA / "exploding_puppy" / "cards.yaml").read_text(encoding="utf-8")
    assert load_game(tmp_path / "quest").ok


# --------------------------------------------------------------------------- the schema rejects what the loader rejects


def loader_errors(folder: Path) -> list[str]:
    return [f"{f.code}: {f}" for f in load_game(folder).findings if f.level == ERROR]


TYPOS = [  # (file, a change to the data, the loader's finding code)
    ("cards.yaml", lambda d: d["cards"][0].update(colour="red"), "unknown-key"),
    ("cards.yaml", lambda d: d["cards"][0].update(star="maybe"), "wrong-type"),
    ("cards.yaml", lambda d: d["cards"][0].update(number="three"), "not-a-whole-number"),
    ("setups.yaml", lambda d: d["setups"][0].update(copies=[1, 2]), "wrong-type"),
    ("setups.yaml", lambda d: d["setups"][0].update(copies="twice"), "bad-expression"),
    ("setups.yaml", lambda d: d["setups"][0]["players"].update(min=0), "number-out-of-range"),
    ("game.yaml", lambda d: d["colors"][0].update(hex="red"), "bad-color"),
    ("game.yaml", lambda d: d.update(card_size="huge"), "unknown-size"),
    ("game.yaml", lambda d: d["checks"][0].update(level="fatal"), "bad-level"),
    ("game.yaml", lambda d: d["setup"]["steps"][0].update(shuffle="deck"), "bad-step"),
]


@pytest.mark.parametrize("name, change, code", TYPOS, ids=[f"{t[0]}-{t[2]}-{i}" for i, t in enumerate(TYPOS)])
def test_a_typo_the_loader_rejects_the_schema_rejects(tmp_path, name, change, code):
    folder = shutil.copytree(CARD_DATA / "starter", tmp_path / "starter")
    data = read_as_editors(folder / name)
    change(data)
    write(folder / name, data)
    assert any(e.startswith(f"{code}:") for e in loader_errors(folder)), loader_errors(folder)
    assert schema_errors(name, data)


# --------------------------------------------------------------------------- loader and schema cannot drift apart


def _declared(t: schema.Type, out: dict) -> dict:
    """Every mapping declaration reachable from t, by id."""
    if isinstance(t, schema.Fields):
        if id(t) not in out:
            out[id(t)] = t
            for f in t.fields.values():
                _declared(f.type, out)
    elif isinstance(t, schema.ListOf):
        _declared(t.item, out)
    elif isinstance(t, schema.Table):
        _declared(t.value, out)
    elif isinstance(t, schema.AnyOf):
        for option in t.options:
            _declared(option, out)
    return out


DECLARED = {}
for _spec in (*editor_schemas.files().values(), targets.EXPORT_TARGET):  # export targets: art/ and a game's own table
    _declared(_spec, DECLARED)


def test_every_mapping_the_loader_reads_is_declared_in_the_schema_and_every_declaration_is_read(monkeypatch, tmp_path):
    """The loader reads mappings only through declarations the editor schema is made of (a key the
    loader knew but the schema not, or the other way round, would need a declaration outside
    them); and every declaration is read by the loader when it loads the shipped games (and one
    with a layout.yaml of every setting, and the test game with components)."""
    with_layout = shutil.copytree(CARD_DATA / "starter", tmp_path / "starter")
    shutil.copy(DEFAULT_LAYOUT, with_layout / "layout.yaml")
    # and a translation with every part (its ids need not exist: the file is read all the same)
    (with_layout / "game.yaml").write_text((with_layout / "game.yaml").read_text() + "languages: [en, fr]\n")
    (with_layout / "i18n").mkdir()
    write(with_layout / "i18n" / "fr.yaml", {
        "title": "T", **{part: {"x": {"name": "N"}} for part in ("colors", "tags", "kinds", "piles", "components", "fields")},
        "backs": {"x": {"title": "T"}}, "checks": {"x": {"message": "M"}}, "cards": {"x": {"text": "T"}},
        "setups": {"x": {"name": "N"}}, "variations": {"x": {"text": "T"}},
        "cheatsheet": {"sections": [{"title": "T"}], "combos": {"rows": [{"cards": "C"}]}}})
    read = {}
    original = Reader.mapping

    def recording(self, node, spec, what=""):
        declared = spec.extends or spec  # a card or a selector with the game's own fields: its declaration
        read[id(declared)] = declared
        return original(self, node, spec, what)

    monkeypatch.setattr(Reader, "mapping", recording)
    for game in [*SHIPPED, with_layout, *(TEST_DATA / name for name in ("courtly_coins", "market_day", "creature_mini", "task_tricks"))]:
        load_game(CARD_DATA / game)
    # no shipped game has a custom size or a second card back (a deck's cards share one back)
    custom_size = [d for d in DECLARED.values() if d in (schema.CARD_SIZE, schema.BACK)]
    assert {d.name for d in read.values() if id(d) not in DECLARED} == set()
    assert {d.name for i, d in DECLARED.items() if i not in read and d not in custom_size} == set()


def _first_places(data, t: schema.Type, path: tuple, out: dict) -> None:
    """Where each declared mapping first occurs in a file's data: its path, by declaration id."""
    if isinstance(t, schema.Fields) and isinstance(data, dict):
        out.setdefault(id(t), path)
        for key, value in data.items():
            if key in t.fields:
                _first_places(value, t.fields[key].type, (*path, key), out)
    elif isinstance(t, schema.ListOf) and isinstance(data, list):
        for i, item in enumerate(data):
            _first_places(item, t.item, (*path, i), out)
    elif isinstance(t, schema.Table) and isinstance(data, dict):
        for key, value in data.items():
            _first_places(value, t.value, (*path, key), out)
    elif isinstance(t, schema.AnyOf):
        for option in t.options:
            _first_places(data, option, path, out)


def _wrong_value(t: schema.Type):
    """A value of the wrong shape for a type: text where a list or mapping belongs, else a mapping."""
    return "wrong" if isinstance(t, (schema.Fields, schema.Table, schema.ListOf)) else {"wrong": {"deeper": 1}}


def _mutations():
    """For each declared mapping, in the smallest shipped game that has it: an unknown key, and
    each declared key given a value of the wrong shape."""
    places = {}
    for game in ("starter", "good_puppies", "exploding_puppy"):
        for name, spec in editor_schemas.files().items():
            found: dict = {}
            path = game_file(CARD_DATA / game, name)
            if path is not None:
                _first_places(read_as_editors(path), spec, (), found)
            for ident, path in found.items():
                places.setdefault(ident, (game, name, path))
    for ident, (game, name, path) in places.items():
        spec = DECLARED[ident]
        if not spec.others:  # reference: keeps other keys as free data for a game's templates
            yield pytest.param(game, name, path, "an_unknown_key", "wrong", id=f"{spec.name}-unknown")
        for key, f in spec.fields.items():
            yield pytest.param(game, name, path, key, _wrong_value(f.type), id=f"{game}-{name}-{spec.name}-{key}")


@pytest.mark.parametrize("game, name, path, key, value", list(_mutations()))
def test_for_each_declared_key_a_wrong_value_is_rejected_by_loader_and_schema(tmp_path, game, name, path, key, value):
    folder = shutil.copytree(CARD_DATA / game, tmp_path / game)
    data = read_as_editors(game_file(folder, name))
    target = data
    for step in path:
        target = target[step]
    target[key] = copy.deepcopy(value)
    write(written_file(folder, name), data)
    assert loader_errors(folder), f"the loader accepts {key}: {value!r} at {path}"
    assert schema_errors(name, data), f"the schema accepts {key}: {value!r} at {path}"


def test_the_shipped_games_written_back_as_plain_yaml_still_load(tmp_path):
    """The mutation tests above write the data back with PyYAML: that alone changes nothing."""
    for game in ("starter", "good_puppies", "exploding_puppy"):
        folder = shutil.copytree(CARD_DATA / game, tmp_path / game)
        for name in editor_schemas.files():
            if game_file(folder, name) is not None:
                write(written_file(folder, name), read_as_editors(game_file(folder, name)))
        assert loader_errors(folder) == []

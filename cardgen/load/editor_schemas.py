"""load/editor_schemas: the JSON Schema files editors use to check and complete a game's YAML
files as they are typed, made from the same declarations the loader reads with (schema.py, and
layout.py for layout.yaml)."""
from __future__ import annotations

import json
from pathlib import Path

from cardgen.errors import UsageError
from cardgen.inputs.files import atomic_write
from cardgen.inputs.paths import SCHEMAS
from cardgen.load.fields import shared_specs
from cardgen.load.layout import LAYOUT
from cardgen.load.schema import CARDS, DRAFT, GAME, SETUPS, TRANSLATION, Fields, Json
from cardgen.model.fields import CardField


def files() -> dict[str, Fields]:
    """Each game file's declaration (layout.yaml's is made from the shipped default layout;
    translation.yaml stands for every i18n/<lang>.yaml)."""
    return {"game.yaml": GAME, "cards.yaml": CARDS, "setups.yaml": SETUPS, "layout.yaml": LAYOUT,
            "translation.yaml": TRANSLATION}


def json_schema(spec: Fields, title: str, fields: tuple[CardField, ...] = ()) -> Json:
    """The JSON Schema of a declaration; with a game's own card fields, its cards, selectors and
    translated card texts take their keys too."""
    defs: Json = {}
    if fields:
        used: Json = {}
        spec.json(used)
        for name, shared in shared_specs(fields).items():
            if name in used:  # defined first: every reference to it is to the game's own
                shared.define(defs)
    body = spec.json(defs)
    out: Json = {"$schema": DRAFT, "title": title, **body}
    if defs:
        out["definitions"] = dict(sorted(defs.items()))
    return out


def shown_name(yaml_name: str) -> str:
    """The game file a declaration is for, as people find it: translation.yaml is each i18n/<lang>.yaml."""
    return "i18n/<lang>.yaml" if yaml_name == "translation.yaml" else yaml_name


def schema_file(yaml_name: str) -> Path:
    """The JSON Schema shipped for a game file, e.g. game.yaml -> cardgen/schemas/game.schema.json."""
    return SCHEMAS / f"{Path(yaml_name).stem}.schema.json"


def schema_texts(fields: tuple[CardField, ...] = ()) -> dict[str, str]:
    """Each schema file's name and text, made from the declarations above (with a game's own card
    fields: that game's schemas)."""
    return {schema_file(name).name: json.dumps(json_schema(spec, f"cardgen {name}", fields), indent=2,
                                               ensure_ascii=False) + "\n"
            for name, spec in files().items()}


def write_schemas(folder: Path, fields: tuple[CardField, ...] = ()) -> list[Path]:
    """The schema files written into `folder` (each whole or not at all; never through a link)."""
    if folder.exists() and not folder.is_dir() or folder.is_symlink() and not folder.exists():
        raise UsageError(f"{folder} is {'a file' if folder.exists() else 'a broken link'}, not a folder",
                         hint="give a folder to write the schema files into")
    texts = schema_texts(fields)
    links = [folder / name for name in texts if (folder / name).is_symlink()]
    if links:
        raise UsageError(f"{links[0]} is a link: cardgen does not write through links",
                         hint="remove the link, or write the schemas into another folder")
    written = []
    try:
        for name, text in texts.items():
            written.append(atomic_write(folder / name, text.encode("utf-8")))
    except OSError as exc:
        raise UsageError(f"cannot write the schemas into {folder}: {exc.strerror or exc}",
                         hint="give a folder you can write to") from None
    return written


def modeline(yaml_name: str) -> str:
    """The comment that makes editors (through yaml-language-server) validate and complete a game file."""
    return f"# yaml-language-server: $schema={schema_file(yaml_name).as_posix()}"

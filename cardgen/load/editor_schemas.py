"""load/editor_schemas: the JSON Schema files editors use to check and complete a game's YAML
files as they are typed, made from the same declarations the loader reads with (schema.py, and
layout.py for layout.yaml)."""
from __future__ import annotations

import json
from pathlib import Path

from cardgen.inputs.paths import SCHEMAS
from cardgen.load.layout import LAYOUT
from cardgen.load.schema import CARDS, DRAFT, GAME, SETUPS, Fields


def files() -> dict[str, Fields]:
    """Each game file's declaration (layout.yaml's is made from the shipped default layout)."""
    return {"game.yaml": GAME, "cards.yaml": CARDS, "setups.yaml": SETUPS, "layout.yaml": LAYOUT}


def json_schema(spec: Fields, title: str) -> dict:
    defs: dict = {}
    body = spec.json(defs)
    out = {"$schema": DRAFT, "title": title, **body}
    if defs:
        out["definitions"] = dict(sorted(defs.items()))
    return out


def schema_file(yaml_name: str) -> Path:
    """The JSON Schema shipped for a game file, e.g. game.yaml -> cardgen/schemas/game.schema.json."""
    return SCHEMAS / f"{Path(yaml_name).stem}.schema.json"


def schema_texts() -> dict[str, str]:
    """Each shipped schema file's name and text, made from the declarations above."""
    return {schema_file(name).name: json.dumps(json_schema(spec, f"cardgen {name}"), indent=2, ensure_ascii=False) + "\n"
            for name, spec in files().items()}


def write_schemas(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in schema_texts().items():
        (folder / name).write_text(text, encoding="utf-8")
        written.append(folder / name)
    return written


def modeline(yaml_name: str) -> str:
    """The comment that makes editors (through yaml-language-server) validate and complete a game file."""
    return f"# yaml-language-server: $schema={schema_file(yaml_name).as_posix()}"

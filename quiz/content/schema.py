"""JSON Schemas of the content files, generated from the models for authors' editors."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from quiz.content.loader import PROJECT_ROOT
from quiz.model.cards import CardFile
from quiz.model.rulesets import Ruleset

SCHEMA_DIR = PROJECT_ROOT / "schemas"
SCHEMAS: dict[str, type[BaseModel]] = {"ruleset.schema.json": Ruleset, "card-file.schema.json": CardFile}


def schema_texts() -> dict[str, str]:
    """File name -> JSON text of each schema."""
    texts = {}
    for name, model in SCHEMAS.items():
        schema = model.model_json_schema(by_alias=True)
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        texts[name] = json.dumps(schema, ensure_ascii=False, indent=2) + "\n"
    return texts


def write_schemas(folder: Path = SCHEMA_DIR) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in schema_texts().items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written

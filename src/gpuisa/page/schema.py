"""The JSON schema of an instruction page (``gpuisa show --json``), generated from ``page.model``.

    python -m gpuisa.page.schema            # print it
    python -m gpuisa.page.schema --write    # write schema/instruction-page.schema.json (committed)
    python -m gpuisa.page.schema --check    # exit 1 when the committed file differs

Why a generator of our own (~100 lines) rather than a library: the model is plain dataclasses with a
handful of type forms (str, int, float, bool, Any, Literal, X | None, list[X], dict[str, X], another
dataclass), and one rule the libraries do not know, ``optional()`` fields that are left out of the JSON
instead of written as null (not required, never null).  pydantic would replace the dataclasses (and is
not installed); dataclass-to-schema packages are not installed either and would not know that rule.
The same walk writes the OpenAPI 3.0 flavour (``nullable``, ``#/components/schemas/``) that
``/api/openapi.json`` lists under components.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import types
import typing
from pathlib import Path
from typing import Any

from .codec import hints
from .model import InstructionPage

COMMAND = "python -m gpuisa.page.schema --write"
SCHEMA_FILE = Path(__file__).resolve().parents[3] / "schema" / "instruction-page.schema.json"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
SCALARS = {str: "string", int: "integer", float: "number", bool: "boolean"}


class _Walk:
    def __init__(self, openapi: bool):
        self.openapi = openapi
        self.defs: dict[str, dict] = {}

    def ref(self, cls: type) -> dict:
        prefix = "#/components/schemas/" if self.openapi else "#/$defs/"
        if cls.__name__ not in self.defs:
            self.defs[cls.__name__] = {}  # (reserved first: a class may refer to itself)
            self.defs[cls.__name__] = self.object(cls)
        return {"$ref": prefix + cls.__name__}

    def object(self, cls: type) -> dict:
        props, required = {}, []
        types_of = hints(cls)
        for f in dataclasses.fields(cls):
            tp = types_of[f.name]
            if f.metadata.get("omit_none"):  # left out when None: not required, never null
                tp = _without_none(tp)
            else:
                required.append(f.name)
            props[f.name] = self.type(tp)
        out: dict[str, Any] = {"type": "object"}
        doc = " ".join((cls.__doc__ or "").split())
        if doc and not doc.startswith(cls.__name__ + "("):  # (not the text dataclass makes up)
            out["description"] = doc
        out.update({"properties": props, "required": required, "additionalProperties": False})
        return out

    def type(self, tp: Any) -> dict:
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if dataclasses.is_dataclass(tp):
            return self.ref(typing.cast(type, tp))
        if origin in (typing.Union, types.UnionType):
            rest = [a for a in args if a is not type(None)]
            if len(rest) != 1 or len(args) != 2:
                raise TypeError(f"unsupported union {tp}")
            return self.nullable(self.type(rest[0]))
        if origin is list:
            return {"type": "array", "items": self.type(args[0])}
        if origin is dict:
            if args[0] is not str:
                raise TypeError(f"object keys must be strings: {tp}")
            return {"type": "object", "additionalProperties": self.type(args[1])}
        if origin is typing.Literal:
            return {"type": SCALARS[type(args[0])], "enum": list(args)}
        if tp is Any:
            return {}
        if tp in SCALARS:
            return {"type": SCALARS[tp]}
        raise TypeError(f"unsupported type {tp}")

    def nullable(self, schema: dict) -> dict:
        if self.openapi:
            return {"allOf": [schema], "nullable": True} if "$ref" in schema else {**schema, "nullable": True}
        if "$ref" in schema or "type" not in schema:
            return {"anyOf": [schema, {"type": "null"}]} if schema else {}
        out = {**schema, "type": [schema["type"], "null"]}
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        return out


def _without_none(tp: Any) -> Any:
    args = typing.get_args(tp)
    if typing.get_origin(tp) in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        return rest[0] if len(rest) == 1 else typing.Union[tuple(rest)]
    return tp


def page_schema() -> dict:
    """JSON Schema (draft 2020-12) of ``InstructionPage.to_json()``."""
    walk = _Walk(openapi=False)
    top = walk.object(InstructionPage)
    return {"$schema": DRAFT, "$comment": f"generated from gpuisa/page/model.py by `{COMMAND}`; do not edit",
            "title": "gpuisa instruction page (gpuisa show --json)", **top,
            "$defs": {k: walk.defs[k] for k in sorted(walk.defs)}}


def openapi_components() -> dict[str, dict]:
    """The same classes as OpenAPI 3.0 component schemas (``InstructionPage`` and every section)."""
    walk = _Walk(openapi=True)
    walk.ref(InstructionPage)
    return {k: walk.defs[k] for k in sorted(walk.defs)}


def schema_text() -> str:
    return json.dumps(page_schema(), indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = schema_text()
    if "--write" in args:
        SCHEMA_FILE.parent.mkdir(exist_ok=True)
        SCHEMA_FILE.write_text(text)
        print(f"wrote {SCHEMA_FILE}")
    elif "--check" in args:
        current = SCHEMA_FILE.read_text() if SCHEMA_FILE.exists() else ""
        if current != text:
            print(f"{SCHEMA_FILE} is out of date: run {COMMAND}", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

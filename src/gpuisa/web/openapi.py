"""The OpenAPI 3.0 description of gpuisa's JSON API (served at /api/openapi.json).

Written out by hand so that it states exactly what the handlers in ``app.py`` accept and answer,
including the bounds they enforce; schemathesis checks the two against each other.
"""

from __future__ import annotations

from typing import Any

from .. import archs, isas
from ..page.schema import openapi_components
from . import playground

ERROR = {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}}
SOURCE = {"type": "object", "properties": {"source": {"type": "string"}, "version": {"type": "string"},
                                           "note": {"type": "string"}, "inferred": {"type": "boolean"}}}
FIELD = {"type": "object", "required": ["name", "hi", "lo"],
         "properties": {"name": {"type": "string"}, "hi": {"type": "integer"}, "lo": {"type": "integer"},
                        "value": {"type": "integer"}, "bits": {"type": "string"},
                        "ranges": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}}}
OPERAND = {"type": "object", "required": ["name", "role"],
           "properties": {"name": {"type": "string"}, "role": {"type": "string"},
                          "kind": {"type": "string", "nullable": True}, "format": {"type": "string", "nullable": True},
                          "size": {"type": "integer", "nullable": True}, "implicit": {"type": "boolean"},
                          "note": {"type": "string"}, "inferred": {"type": "boolean"}}}
ENCODING = {"type": "object", "required": ["name", "opcode", "fields"],
            "properties": {"name": {"type": "string"}, "width": {"type": "integer", "nullable": True},
                           "opcode": {"type": "integer", "nullable": True},
                           "identifier": {"type": "string", "nullable": True}, "condition": {"type": "string"},
                           "fields": {"type": "array", "items": FIELD}, "syntax": {"type": "string"},
                           "operands": {"type": "array", "items": OPERAND}}}
PAGE: dict[str, Any] = {"type": "object",
        "required": ["name", "vendor", "isa", "isa_kind", "arch", "arch_title", "category", "summary", "description",
                     "encodings", "operands", "targets", "generations", "sources", "url"],
        "properties": {"name": {"type": "string"}, "vendor": {"type": "string"},
                       "isa": {"type": "string"},  # enum: the registered ISAs (openapi_schema)
                       "isa_kind": {"type": "string", "enum": ["native", "virtual"]},
                       "arch": {"type": "string"}, "arch_title": {"type": "string"}, "category": {"type": "string"},
                       "subgroup": {"type": "string", "nullable": True}, "summary": {"type": "string"},
                       "description": {"nullable": True},
                       "encodings": {"type": "array", "items": ENCODING},
                       "operands": {"type": "array", "items": {"type": "object"}},
                       "targets": {"type": "array", "items": {"type": "string"}},
                       "flags": {"type": "object"},
                       "generations": {"type": "object", "additionalProperties": {
                           "type": "object", "nullable": True,
                           "properties": {"encoding": {"type": "string"}, "opcode": {"type": "integer", "nullable": True},
                                          "layout_same": {"type": "boolean"}}}},
                       "generation_summary": {"type": "string"},
                       "sources": {"type": "array", "items": {"type": "object"}},
                       "url": {"type": "string", "pattern": "^/isa/"}}}
HIT = {"type": "object", "required": ["name", "arch", "isa", "summary", "url"],
       "properties": {"name": {"type": "string"}, "arch": {"type": "string"}, "isa": {"type": "string"},
                      "summary": {"type": "string"}, "url": {"type": "string"}}}
ARCH = {"type": "object", "required": ["name", "title", "vendor", "isa", "kind", "targets", "instructions", "url"],
        "properties": {"name": {"type": "string"}, "title": {"type": "string"}, "family": {"type": "string"},
                       "vendor": {"type": "string"}, "isa": {"type": "string"},
                       "kind": {"type": "string", "enum": ["native", "virtual"]},
                       "targets": {"type": "array", "items": {"type": "string"}},
                       "instructions": {"type": "integer"}, "url": {"type": "string"}}}
NAMES = {"type": "array", "items": {"type": "string"}}
WAVE64 = {"type": "boolean", "default": False, "description": "wave64 (vcc instead of vcc_lo on RDNA)"}
PTX_TEXT = {"type": "string", "minLength": 1, "maxLength": 512, "pattern": "\\S", "example": "vsub.u32.u32.u32 d, a, b;"}
DIFF = {"type": "object",
        "required": ["from", "to", "added", "removed", "renumbered", "reencoded", "layout_changed", "counts", "url"],
        "properties": {"from": {"type": "string"}, "to": {"type": "string"}, "added": NAMES, "removed": NAMES,
                       "renumbered": {"type": "array", "items": {
                           "type": "object", "required": ["name", "encoding", "from", "to"],
                           "properties": {"name": {"type": "string"}, "encoding": {"type": "string"},
                                          "from": {"type": "integer", "nullable": True},
                                          "to": {"type": "integer", "nullable": True}}}},
                       "reencoded": {"type": "array", "items": {
                           "type": "object", "required": ["name", "from", "to"],
                           "properties": {"name": {"type": "string"}, "from": NAMES, "to": NAMES}}},
                       "layout_changed": {"type": "array", "items": {
                           "type": "object", "required": ["name", "encoding"],
                           "properties": {"name": {"type": "string"}, "encoding": {"type": "string"}}}},
                       "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
                       "url": {"type": "string"}}}


def arch_spellings(present: list[str], native_only: bool = False) -> list[str]:
    """Every name of the architectures in the store: families and gfx targets (any letter case works too)."""
    out = []
    for name in present:
        a = archs.by_name(name)
        if a.kind == "native" or not native_only:
            out += [a.name, *a.targets]
    return out


def _json(schema: dict, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict:
    what = {404: "not found (or the feature's package is not installed yet)", 413: "request body too large",
            422: "invalid input: the message says what is allowed"}
    return {str(c): _json(ERROR, what[c]) for c in codes}


def _arch_param(present: list[str], required: bool, name: str = "arch", native_only: bool = False) -> dict:
    return {"name": name, "in": "query", "required": required,
            "description": "an architecture: family name (rdna3.5, cdna3, ptx) or gfx target (gfx942)",
            "schema": {"type": "string", "enum": arch_spellings(present, native_only)}}


def _post(summary: str, body: dict, required: list[str], result: dict) -> dict:
    return {"post": {
        "summary": summary,
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": required, "properties": body}}}},
        "responses": {"200": _json(result, "the result"), **_errors(404, 413, 422)}}}


HEX_PATTERN = r"^[\s,]*(0[xX])?[0-9A-Fa-f]{2}([\s,]*(0[xX])?[0-9A-Fa-f]{2})*[\s,]*$"


def _playground_paths(arch_body: dict) -> dict:
    """The POST actions of the playground (AMD decode/encode/eval, PTX check/eval)."""
    lanes = playground.MAX_LANES
    return {
        "/api/decode": _post(
            "decode machine code (bytes in memory order)",
            {"arch": arch_body, "hex": {"type": "string", "maxLength": 2 * playground.MAX_BYTES, "pattern": HEX_PATTERN,
                                        "example": "05 00 39 d6 01 05 0e 00"}, "wave64": WAVE64},
            ["arch", "hex"],
            {"type": "object", "required": ["arch", "bytes", "instructions"],
             "properties": {"arch": {"type": "string"}, "bytes": {"type": "integer"},
                            "instructions": {"type": "array"}}}),
        "/api/encode": _post(
            "assemble text into machine code",
            {"arch": arch_body, "text": {"type": "string", "minLength": 1, "maxLength": playground.MAX_TEXT, "pattern": "\\S",
                                         "example": "v_msad_u8 v5, v1, v2, v3"}, "wave64": WAVE64},
            ["arch", "text"],
            {"type": "object", "required": ["arch"],
             "properties": {"arch": {"type": "string"}, "bytes": {"type": "integer"}, "hex": {"type": "string"},
                            "result": {}}}),
        "/api/eval": _post(
            "evaluate an instruction on chosen operand values (one value, or one per lane)",
            {"arch": arch_body, "name": {"type": "string", "pattern": "^[A-Za-z0-9_.]{1,%d}$" % playground.MAX_NAME},
             "lanes": {"type": "integer", "minimum": 1, "maximum": lanes, "default": 1}, "wave64": WAVE64,
             "operands": {"type": "object", "maxProperties": playground.MAX_OPERANDS,
                          "propertyNames": {"pattern": "^[A-Za-z_][A-Za-z0-9_]{0,31}$",
                                            "not": {"enum": ["arch", "name", "lanes"]}},
                          "additionalProperties": {"oneOf": [
                              {"type": "integer"}, {"type": "number"}, {"type": "string", "maxLength": 64},
                              {"type": "array", "maxItems": lanes,
                               "items": {"oneOf": [{"type": "integer"}, {"type": "number"}, {"type": "string"}]}}]}}},
            ["arch", "name"],
            {"type": "object", "required": ["arch", "name", "lanes", "result"],
             "properties": {"arch": {"type": "string"}, "name": {"type": "string"}, "lanes": {"type": "integer"},
                            "result": {}}}),
        "/api/ptx/check": _post(
            "check one PTX instruction against the catalog (gpuisa ptx check)",
            {"text": PTX_TEXT, "target": {"type": "string", "maxLength": 16, "example": "sm_90"},
             "version": {"type": "string", "maxLength": 8, "example": "8.0"}},
            ["text"],
            {"type": "object", "required": ["valid"],
             "properties": {"valid": {"type": "boolean"}, "name": {"type": "string", "nullable": True},
                            "form": {"type": "string", "nullable": True}, "error": {"type": "string", "nullable": True},
                            "min_target": {"type": "string", "nullable": True},
                            "ptx_version": {"type": "string", "nullable": True}}}),
        "/api/ptx/eval": _post(
            "evaluate one PTX instruction on integer inputs (gpuisa eval --isa ptx)",
            {"text": PTX_TEXT, "operands": {"type": "object", "maxProperties": playground.MAX_OPERANDS,
                                            "additionalProperties": {"type": "integer"}}},
            ["text"],
            {"type": "object", "required": ["text", "result"],
             "properties": {"text": {"type": "string"}, "form": {"type": "string"}, "result": {}}}),
    }


def _isa_schema(capability: str | None = None) -> dict:
    """The registered ISAs (those with ``capability``) as a string enum."""
    return {"type": "string", "enum": isas.keys(capability)}


def openapi_schema(present: list[str]) -> dict:
    """The schema for a store holding the architectures ``present`` (their names are the allowed values)."""
    arch_body = {"type": "string", "enum": arch_spellings(present, native_only=True),
                 "description": "a native architecture: rdna3, gfx1100, cdna3, ..."}
    page = {**PAGE, "properties": {**PAGE["properties"], "isa": _isa_schema()}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "gpuisa JSON API", "version": "1",
                 "description": "Read-only access to gpuisa's GPU instruction-set reference; the playground actions "
                                "answer 404 while their feature is not installed."},
        "paths": {
            "/api/archs": {"get": {"summary": "architectures with vendor, ISA, targets and instruction count",
                                   "responses": {"200": _json({"type": "array", "items": ARCH}, "architectures")}}},
            "/api/show": {"get": {
                "summary": "an instruction's page: the JSON of `gpuisa show --json`, plus `url`",
                "parameters": [{"name": "name", "in": "query", "required": True,
                                "schema": {"type": "string", "minLength": 1, "maxLength": 100,
                                           "pattern": "^[A-Za-z0-9_.]+$"}}, _arch_param(present, False),
                               {"name": "isa", "in": "query", "required": False, "schema": _isa_schema()}],
                "responses": {"200": _json(page, "the page"), **_errors(404, 422)}}},
            "/api/search": {"get": {
                "summary": "instructions by name, fragment, summary words, encoding, format or category",
                "parameters": [{"name": "q", "in": "query", "required": True,
                                "schema": {"type": "string", "minLength": 1, "maxLength": 100}}, _arch_param(present, False),
                               {"name": "limit", "in": "query", "required": False,
                                "schema": {"type": "integer", "minimum": 1, "maximum": 200, "default": 30}},
                               {"name": "isa", "in": "query", "required": False, "schema": _isa_schema()}],
                "responses": {"200": _json({"type": "array", "items": HIT}, "ranked matches"), **_errors(422)}}},
            "/api/diff": {"get": {
                "summary": "what changed from generation a to generation b",
                "parameters": [_arch_param(present, True, "a", True), _arch_param(present, True, "b", True)],
                "responses": {"200": _json(DIFF, "the differences"), **_errors(422)}}},
            **_playground_paths(arch_body),
            "/api/asm/{isa}/{opcode}": {"get": {
                "summary": "documentation of an opcode as compilers emit it (Compiler Explorer's asm documentation)",
                "parameters": [{"name": "isa", "in": "path", "required": True, "schema": _isa_schema("doc")},
                               {"name": "opcode", "in": "path", "required": True,
                                "schema": {"type": "string", "minLength": 1, "maxLength": 100, "example": "v_add_f32_e64"}},
                               _arch_param(present, False)],
                "responses": {"200": _json({"type": "object", "required": ["tooltip", "html", "url"],
                                            "properties": {"tooltip": {"type": "string"}, "html": {"type": "string"},
                                                           "url": {"type": "string"}}}, "the documentation"),
                              **_errors(404)}}},
        },
        # the page model of `gpuisa show --json` (``page.model``) and each of its sections, generated
        "components": {"schemas": openapi_components()},
    }

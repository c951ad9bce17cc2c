"""The page model to and from JSON, by walking the dataclasses' fields and type hints.

``to_json`` writes every field under its name, leaving out ``optional()`` fields that are None.
``from_json`` builds the typed object from the JSON (a fact provider's section, a stored page) and
refuses, with the key's path, a key the model does not have or a missing required one: a provider that
starts writing a new key has to add it to the model (and so to the published schema) first.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any


class ModelError(ValueError):
    """JSON that does not fit the page model (the key's path and the reason in the message)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
        self.keys: list[str] = []

    def __str__(self) -> str:
        return "".join(k if k.startswith("[") else "." + k for k in self.keys).lstrip(".") + ": " + self.reason


_PLAIN = (str, int, float, bool, type(None))


def to_json(obj: Any) -> Any:
    if isinstance(obj, _PLAIN):
        return obj
    if isinstance(obj, (list, tuple)):
        return [v if isinstance(v, _PLAIN) else to_json(v) for v in obj]
    if isinstance(obj, dict):
        return {k: v if isinstance(v, _PLAIN) else to_json(v) for k, v in obj.items()}
    out = {}
    for name, omit in _field_names(type(obj)):
        value = getattr(obj, name)
        if value is None and omit:
            continue
        out[name] = value if isinstance(value, _PLAIN) else to_json(value)
    return out


_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _field_names(cls: type) -> tuple[tuple[str, bool], ...]:
    """(name, left out when None) of each field of a model dataclass."""
    if cls not in _FIELDS:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"not part of the page model: {cls.__name__}")
        _FIELDS[cls] = tuple((f.name, bool(f.metadata.get("omit_none"))) for f in dataclasses.fields(cls))
    return _FIELDS[cls]


@functools.lru_cache(maxsize=None)
def hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_json(tp: Any, data: Any, path: str = "page") -> Any:
    """``data`` as an instance of the type ``tp`` (a model dataclass, list/dict of them, a scalar type)."""
    try:
        return _converter(tp)(data)
    except ModelError as exc:
        exc.keys.insert(0, path)
        raise


def _at(key: str, convert, data):
    try:
        return convert(data)
    except ModelError as exc:
        exc.keys.insert(0, key)
        raise


@functools.lru_cache(maxsize=None)
def _converter(tp: Any):
    """A function data -> value for the type ``tp``, made once per type."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if dataclasses.is_dataclass(tp):
        return _dataclass_converter(typing.cast(type, tp))
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1 or len(args) != 2:
            raise TypeError(f"unions of several types are not part of the model: {tp}")
        inner = _converter(rest[0])
        return lambda data: None if data is None else inner(data)
    if origin is list and args[0] in (str, int, bool):
        plain = args[0]

        def convert_plain_list(data):
            if not isinstance(data, (list, tuple)):
                raise ModelError(f"a list expected, not {type(data).__name__}")
            if all(type(v) is plain for v in data):
                return list(data)
            return [_scalar(plain, v) for v in data]
        return convert_plain_list
    if origin is list:
        item = _converter(args[0])

        def convert_list(data):
            if not isinstance(data, (list, tuple)):
                raise ModelError(f"a list expected, not {type(data).__name__}")
            try:
                return [item(v) for v in data]
            except ModelError as exc:
                exc.keys.insert(0, "[]")
                raise
        return convert_list
    if origin is dict:
        value = _converter(args[1])

        def convert_dict(data):
            if not isinstance(data, dict):
                raise ModelError(f"an object expected, not {type(data).__name__}")
            return {str(k): _at(str(k), value, v) for k, v in data.items()}
        return convert_dict
    if origin is typing.Literal:
        def convert_literal(data):
            if data not in args:
                raise ModelError(f"{data!r} is not one of {list(args)}")
            return data
        return convert_literal
    return functools.partial(_scalar, tp)


def _scalar(tp: Any, data: Any) -> Any:
    if tp is Any:
        return data
    if tp is float and isinstance(data, (int, float)) and not isinstance(data, bool):
        return data
    if tp is int and isinstance(data, bool):
        raise ModelError("an integer expected, not a boolean")
    if isinstance(data, tp):
        return data
    raise ModelError(f"{tp.__name__} expected, not {type(data).__name__}")


def _dataclass_converter(cls: type):
    known = hints(cls)
    fields = [(f.name, f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
              for f in dataclasses.fields(cls)]
    converters: dict[str, Any] = {}

    def convert(data):
        if not isinstance(data, dict):
            raise ModelError(f"an object expected, not {type(data).__name__}")
        if not converters:  # (made on first use: a class may refer to itself)
            converters.update({name: _converter(known[name]) for name, _ in fields})
        extra = [k for k in data if k not in known]
        if extra:
            raise ModelError(f"key {extra[0]!r} is not in the page model ({cls.__name__})")
        kwargs = {}
        for name, required in fields:
            if name in data:
                kwargs[name] = _at(name, converters[name], data[name])
            elif required:
                raise ModelError(f"key {name!r} missing ({cls.__name__})")
        return cls(**kwargs)
    return convert

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
    """JSON that does not fit the page model (path and reason in the message)."""


def to_json(obj: Any) -> Any:
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out = {}
        for f in dataclasses.fields(obj):
            value = getattr(obj, f.name)
            if value is None and f.metadata.get("omit_none"):
                continue
            out[f.name] = to_json(value)
        return out
    if isinstance(obj, dict):
        return {k: to_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    return obj


@functools.lru_cache(maxsize=None)
def hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_json(tp: Any, data: Any, path: str = "page") -> Any:
    """``data`` as an instance of the type ``tp`` (a model dataclass, list/dict of them, a scalar type)."""
    origin = typing.get_origin(tp)
    if dataclasses.is_dataclass(tp):
        return _dataclass(tp, data, path)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if data is None and type(None) in args:
            return None
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            return from_json(rest[0], data, path)
        raise ModelError(f"{path}: unions of several types are not part of the model")
    if origin is list:
        if not isinstance(data, (list, tuple)):
            raise ModelError(f"{path}: a list expected, not {type(data).__name__}")
        (item,) = typing.get_args(tp)
        return [from_json(item, v, f"{path}[{i}]") for i, v in enumerate(data)]
    if origin is dict:
        if not isinstance(data, dict):
            raise ModelError(f"{path}: an object expected, not {type(data).__name__}")
        _, value = typing.get_args(tp)
        return {str(k): from_json(value, v, f"{path}.{k}") for k, v in data.items()}
    if origin is typing.Literal:
        if data not in typing.get_args(tp):
            raise ModelError(f"{path}: {data!r} is not one of {list(typing.get_args(tp))}")
        return data
    return _scalar(tp, data, path)


def _scalar(tp: Any, data: Any, path: str) -> Any:
    if tp is Any:
        return data
    if tp is float and isinstance(data, (int, float)) and not isinstance(data, bool):
        return data
    if tp is int and isinstance(data, bool):
        raise ModelError(f"{path}: an integer expected, not a boolean")
    if isinstance(data, tp):
        return data
    raise ModelError(f"{path}: {tp.__name__} expected, not {type(data).__name__}")


def _dataclass(cls: type, data: Any, path: str) -> Any:
    if not isinstance(data, dict):
        raise ModelError(f"{path}: an object expected, not {type(data).__name__}")
    known = hints(cls)
    extra = [k for k in data if k not in known]
    if extra:
        raise ModelError(f"{path}: key {extra[0]!r} is not in the page model ({cls.__name__})")
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name in data:
            kwargs[f.name] = from_json(known[f.name], data[f.name], f"{path}.{f.name}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise ModelError(f"{path}: key {f.name!r} missing ({cls.__name__})")
    return cls(**kwargs)

"""The JSON Schema of the Global Wellbeing Game's template, derived from the frozen dataclasses in
``boardgen.config`` that validate it (one source of truth: the schema cannot drift from the loader)."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from boardgen.config import _NOT_TEMPLATE_KEYS, Colour, Config, Mm, _template_key

_LENGTH = {"anyOf": [{"type": "number"}, {"type": "string", "pattern": r"^\s*-?\d+(\.\d+)?\s*(mm|cm|in|pt)?\s*$"}],
           "description": 'a length: "66cm", "3mm", "0.5in"; a bare number is mm'}


def _schema(tp: Any) -> dict[str, Any]:
    origin = get_origin(tp)
    if tp is Mm:
        return dict(_LENGTH)
    if tp is Colour:
        return {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if origin is Literal:
        return {"enum": list(get_args(tp))}
    if origin in (Union, types.UnionType):
        options = [a for a in get_args(tp) if a is not type(None)]
        inner = _schema(options[0]) if len(options) == 1 else {"anyOf": [_schema(a) for a in options]}
        if tp is not None and type(None) in get_args(tp):
            return {"anyOf": [inner, {"type": "null"}, {"const": "auto"}]}
        return inner
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _schema(args[0])}
        return {"type": "array", "prefixItems": [_schema(a) for a in args], "minItems": len(args),
                "maxItems": len(args)}
    if origin in (Mapping, dict, typing.Mapping) or (origin is not None and issubclass(origin, Mapping)):
        return {"type": "object", "additionalProperties": _schema(get_args(tp)[1])}
    if dataclasses.is_dataclass(tp):
        hints = get_type_hints(tp)
        props: dict[str, Any] = {}
        required = []
        for f in dataclasses.fields(tp):
            if f.name in _NOT_TEMPLATE_KEYS:
                continue
            props[_template_key(f.name)] = _schema(hints[f.name])
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                required.append(_template_key(f.name))
        out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
        if required:
            out["required"] = required
        return out
    return {}


def flagship_json_schema() -> dict[str, Any]:
    schema = _schema(Config)
    schema["properties"].pop("language")  # written as `edition: {language: de}` (boardgen/i18n.py), not a key
    schema["properties"]["extends"] = {"type": "string", "description": "a bundled template name or a path"}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "boardgen template: The Global Wellbeing Game", **schema}

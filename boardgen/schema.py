"""Template schemas with pydantic: shared field types, the base every game's template model extends, and the
one-line error a bad value gets (file, dotted key, what was expected, a "did you mean").

A game's template is a pydantic model (``extra="forbid"``, frozen). Lengths are written with units ("24in",
"3mm"; a bare number is mm) and held in millimetres in fields named ``*_mm``, which the template writes
without the suffix (``width_mm`` is the key ``width``). ``json_schema(model)`` gives what ``boardgen schema``
prints and editors read through the ``# yaml-language-server: $schema=...`` line of each shipped template.
"""

from __future__ import annotations

import difflib
import math
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    WithJsonSchema,
)
from pydantic.json_schema import SkipJsonSchema

from boardgen.config import parse_length_mm
from boardgen.errors import ConfigError
from boardgen.kit.kinds import KINDS, SHAPES


def _length(value: object) -> float:
    try:
        return parse_length_mm(value)
    except ValueError as exc:
        raise ValueError(f"expected {exc}") from None


def _finite(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("expected a finite number")
    return value


Length = Annotated[float, BeforeValidator(_length), WithJsonSchema({
    "anyOf": [{"type": "number"}, {"type": "string", "pattern": r"^\s*-?\d+(\.\d+)?\s*(mm|cm|in|pt)?\s*$"}],
    "description": 'a length: "24in", "3mm", "2.5cm", "9pt"; a bare number is mm'})]
"""A length in millimetres, written with or without a unit."""

Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$", description='an sRGB colour "#rrggbb"')]
Finite = Annotated[float, BeforeValidator(_finite)]


def _printable(value: str) -> str:
    from boardgen.config import _FORBIDDEN_CHARS, forbidden_kind

    bad = _FORBIDDEN_CHARS.search(value)
    if bad:
        raise ValueError(f"text holds the {forbidden_kind(bad.group())} U+{ord(bad.group()):04X}; expected "
                         "printable text")
    return value


PrintableText = Annotated[str, AfterValidator(_printable)]
"""Text that is printed (titles, names): no control characters, lone surrogates or Unicode noncharacters. The
template reader refuses them in any text already; this keeps a template built in code (a sweep variant, a test)
to the same rule."""

MAX_TOKEN_VALUE = 100
MAX_TOKENS_PER_VALUE = 300
TokenValue = Annotated[int, Field(ge=1, le=MAX_TOKEN_VALUE, description="what one token is worth")]
TokenCount = Annotated[int, Field(ge=0, le=MAX_TOKENS_PER_VALUE, description="tokens of this value printed")]
TokenSupply = Annotated[dict[TokenValue, TokenCount], Field(min_length=1, max_length=8)]
"""Tokens by value (``{1: 60, 5: 24}``): every game's coin, cube and resource tokens. The counts are printed, so
they are bounded like pages are (300 tokens of one value is about 30 sheets)."""

PieceCount = Annotated[int, Field(ge=1, le=200, description="pieces of this kind (printed, so bounded)")]


def _die_sides(value: int) -> int:
    from boardgen.config import DICE_SIDES

    if value not in DICE_SIDES:
        raise ValueError(f"no paper die has {value} sides; expected one of {', '.join(map(str, DICE_SIDES))}")
    return value


DieSides = Annotated[int, Field(
    ge=4, le=20, json_schema_extra={"enum": [4, 6, 8, 10, 12, 20]},
    description="sides of a die: 4, 6, 8, 10, 12 or 20 (the paper dice boardgen prints)"), AfterValidator(_die_sides)]
"""The sides of a die a game rolls and boardgen prints (boardgen.config.DICE_SIDES)."""


class CrossKeyError(ValueError):
    """Raised by a model validator that checks several keys, to blame one of them: ``key`` is dotted and relative
    to the model that raises it (``CrossKeyError("map.target_cells", "too few for 36 fields")``)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def _template_key(name: str) -> str:
    return name[:-3] if name.endswith("_mm") else name


class TemplateModel(BaseModel):
    """A section of a template: unknown keys fail, values are frozen, ``*_mm`` fields drop the suffix."""

    model_config = ConfigDict(extra="forbid", frozen=True, alias_generator=_template_key, populate_by_name=True,
                              allow_inf_nan=False)


class PodProfileSpec(TemplateModel):
    """A print-on-demand shop's picture of one part (see boardgen/exports/pod_profiles.yaml for the keys)."""

    kinds: tuple[Literal[KINDS], ...] = Field(min_length=1, max_length=len(KINDS))  # type: ignore[valid-type]
    shop: str = Field("", max_length=80)
    shapes: tuple[Literal[SHAPES], ...] = Field(SHAPES, max_length=len(SHAPES))  # type: ignore[valid-type]
    trim_in: tuple[Annotated[float, Field(gt=0, le=40)], Annotated[float, Field(gt=0, le=40)]] | None = Field(
        None, description="finished size in inches (at most 40 a side); none: the part's own")
    bleed_in: float = Field(0.125, ge=0, le=0.5)
    safe_in: float = Field(0.125, ge=0, le=0.5)
    dpi: int = Field(300, ge=72, le=1200)


class ExportSection(TemplateModel):
    """What `boardgen export` reads besides the parts: the template's own print-on-demand profiles."""

    pod_profiles: dict[str, PodProfileSpec] = Field(default_factory=dict, max_length=32)


class GameTemplate(TemplateModel):
    """The keys every game's template has. ``source`` and ``template_sha256`` are set by the loader."""

    game: str = Field(description="which game this template builds (see `boardgen games`)")
    edition: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$",
                         description="output folder name: OUT/<edition>/")
    title: PrintableText = Field(min_length=1, max_length=120)
    language: SkipJsonSchema[str] = Field("en", description="BCP 47 tag of the printed words; the template "
                                          "writes it as `edition: {language: de}` (boardgen/i18n.py)")
    seed: int = Field(2026, ge=0, lt=2**63, description="seeds every random choice boardgen makes")
    export: ExportSection = Field(default_factory=ExportSection,
                                  description="print-on-demand profiles of this template (`boardgen export pod`)")

    _source: str = PrivateAttr(default="<template>")
    _template_sha256: str = PrivateAttr(default="")

    @property
    def source(self) -> str:
        return self._source

    @property
    def template_sha256(self) -> str:
        return self._template_sha256


M = TypeVar("M", bound=GameTemplate)


def _dotted(loc: tuple[int | str, ...]) -> str:
    """``("rules", "turns")`` -> ``rules.turns``; a key holding spaces, colons or quotes (or empty) is quoted,
    as the flagship's loader shows it, so every message names a key a reader can find."""
    from boardgen.config import _shown_key

    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif parts:
            parts.append(f".{_shown_key(item)}")
        else:
            parts.append(_shown_key(item))
    return "".join(parts) or "(top level)"


def _known_keys(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """The keys allowed where ``loc`` points (for a "did you mean")."""
    current: Any = model
    for item in loc[:-1]:
        if isinstance(item, int) or not (isinstance(current, type) and issubclass(current, BaseModel)):
            continue
        for name, info in current.model_fields.items():
            if (info.alias or name) == item:
                current = _inner_model(info.annotation)
                break
    if isinstance(current, type) and issubclass(current, BaseModel):
        return [info.alias or name for name, info in current.model_fields.items()]
    return []


def _inner_model(annotation: Any) -> Any:
    """The BaseModel inside ``X``, ``tuple[X, ...]``, ``dict[str, X]`` or ``X | None`` (else the annotation)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):
        found = _inner_model(arg)
        if isinstance(found, type) and issubclass(found, BaseModel):
            return found
    return annotation


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def validate_template(model: type[M], data: Any, source: str, template_sha256: str = "") -> M:
    """``data`` (a parsed YAML mapping) as ``model``; any problem is one ConfigError naming the dotted key."""
    if not isinstance(data, dict):
        raise ConfigError(source, "(top level)", "expected a YAML mapping of template keys")
    try:
        config = model.model_validate(data)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        loc = tuple(error["loc"])
        key = _dotted(loc)
        if error["type"] == "extra_forbidden":
            known = _known_keys(model, loc)
            close = difflib.get_close_matches(str(loc[-1]), known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            if not close and known:
                hint = f"; expected one of {', '.join(known)}"
            raise ConfigError(source, key, f"unknown key{hint}") from None
        if error["type"] == "missing":
            raise ConfigError(source, key, "missing; this key is required") from None
        message = error["msg"].removeprefix("Value error, ")
        blamed = (error.get("ctx") or {}).get("error")
        if isinstance(blamed, CrossKeyError):
            key = f"{key}.{blamed.key}" if loc else blamed.key
            raise ConfigError(source, key, str(blamed)) from None
        raise ConfigError(source, key, f"{message} (got {_short(error.get('input'))})") from None
    config._source = source
    config._template_sha256 = template_sha256
    return config


_BOUNDS = (("ge", "minimum"), ("gt", "exclusiveMinimum"), ("le", "maximum"), ("lt", "exclusiveMaximum"))


def _length_bounds(model: type[BaseModel], schema: dict[str, Any], seen: set[type], root: type) -> None:
    """Put the bounds of every ``Length`` field into its JSON Schema (its own schema, which admits "24in", would
    hide them): ``minimum``/``maximum`` in mm, which apply to a bare number, and the same in the description."""
    if model in seen:
        return
    seen.add(model)
    node = schema if model is root else schema.get("$defs", {}).get(model.__name__, {})
    for name, info in model.model_fields.items():
        for arg in _models_in(info.annotation):
            _length_bounds(arg, schema, seen, root)
        if not name.endswith("_mm"):
            continue
        prop = node.get("properties", {}).get(info.alias or name)
        if prop is None:
            continue
        bounds = {key: getattr(meta, attr) for meta in info.metadata for attr, key in _BOUNDS
                  if getattr(meta, attr, None) is not None}
        if not bounds:
            continue
        prop.update(bounds)
        low = bounds.get("minimum", bounds.get("exclusiveMinimum"))
        high = bounds.get("maximum", bounds.get("exclusiveMaximum"))
        span = f"{low:g} to {high:g} mm" if low is not None and high is not None else (
            f"at least {low:g} mm" if low is not None else f"at most {high:g} mm")
        prop["description"] = f"{prop['description']}; {span}" if prop.get("description") else span


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in getattr(annotation, "__args__", ()) for m in _models_in(arg)]


def json_schema(model: type[BaseModel], title: str) -> dict[str, Any]:
    schema = model.model_json_schema(by_alias=True)
    _length_bounds(model, schema, set(), model)
    schema["title"] = title
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema

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
import sys
from typing import Annotated, Any, ClassVar, Literal, TypeVar, get_args, get_origin

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictInt,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
    create_model,
    model_validator,
)
from pydantic.json_schema import JsonDict, SkipJsonSchema

from boardgen.errors import ConfigError
from boardgen.kit.kinds import KINDS, SHAPES
from boardgen.yaml_reader import FORBIDDEN_CHARS, forbidden_kind, parse_length_mm, short_repr, shown_key

DICE_SIDES: tuple[int, ...] = (4, 6, 8, 10, 12, 20)
"""The dice boardgen prints as paper nets, so the sides any die of a template may have."""


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
    bad = FORBIDDEN_CHARS.search(value)
    if bad:
        raise ValueError(f"text holds the {forbidden_kind(bad.group())} U+{ord(bad.group()):04X}; expected "
                         "printable text")
    return value


PrintableText = Annotated[str, AfterValidator(_printable)]
"""Text that is printed (titles, names): no control characters, lone surrogates or Unicode noncharacters. The
template reader refuses them in any text already; this keeps a template built in code (a sweep variant, a test)
to the same rule."""

def _one_line(value: str) -> str:
    if any(c in value for c in "\t\n\r"):
        raise ValueError("expected one line of at most 120 characters (it is printed on the board and cards)")
    return value


ONE_LINE_SCHEMA: JsonDict = {"pattern": "^[^\\t\\n\\r]*$"}
"""What ``OneLine`` checks, as JSON Schema states it (a pattern an editor checks)."""
OneLine = AfterValidator(_one_line)
"""Printed text that must stay on one line (a title, a zone's name): ``Annotated[str, OneLine]``."""

MAX_TOKEN_VALUE = 100
MAX_TOKENS_PER_VALUE = 300
TokenValue = Annotated[int, Field(ge=1, le=MAX_TOKEN_VALUE, description="what one token is worth")]
TokenCount = Annotated[int, Field(ge=0, le=MAX_TOKENS_PER_VALUE, description="tokens of this value printed")]
TokenSupply = Annotated[dict[TokenValue, TokenCount], Field(min_length=1, max_length=8)]
"""Tokens by value (``{1: 60, 5: 24}``): every game's coin, cube and resource tokens. The counts are printed, so
they are bounded like pages are (300 tokens of one value is about 30 sheets)."""

PieceCount = Annotated[int, Field(ge=1, le=200, description="pieces of this kind (printed, so bounded)")]


def _die_sides(value: int) -> int:
    if value not in DICE_SIDES:
        raise ValueError(f"no paper die has {value} sides; expected one of {', '.join(map(str, DICE_SIDES))}")
    return value


DieSides = Annotated[StrictInt, Field(
    ge=4, le=20, json_schema_extra={"enum": [4, 6, 8, 10, 12, 20]},
    description="sides of a die: 4, 6, 8, 10, 12 or 20 (the paper dice boardgen prints)"), AfterValidator(_die_sides)]
"""The sides of a die a game rolls and boardgen prints (DICE_SIDES)."""


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


class Players(TemplateModel):
    """``players: {min, usual, max}``: the fewest and most seats the rules allow and the count a build, validate
    and simulate play by default. Each game narrows the limits with ``players_model``."""

    min: StrictInt = Field(2, ge=1, le=12, description="fewest players the rules allow")
    usual: StrictInt = Field(4, ge=1, le=12, description="players in the default game (validate, simulate)")
    max: StrictInt = Field(4, ge=1, le=12, description="most players the rules allow (the kit prints for them)")

    @model_validator(mode="after")
    def _in_order(self) -> Players:
        if not self.min <= self.usual <= self.max:
            raise ValueError(f"expected min <= usual <= max players, got {self.min}, {self.usual}, {self.max}")
        return self


def players_model(name: str, fewest: int, most: int, default: tuple[int, int, int],
                  base: type[Players] = Players) -> type[Players]:
    """A game's ``players`` section: ``min``, ``usual`` and ``max`` each between ``fewest`` and ``most``."""
    low, usual, high = default
    model: type[Players] = create_model(  # type: ignore[call-overload]
        name, __base__=base, __module__=base.__module__,
        min=(StrictInt, Field(low, ge=fewest, le=most, description="fewest players the rules allow")),
        usual=(StrictInt, Field(usual, ge=fewest, le=most,
                                description="players in the default game (validate, simulate)")),
        max=(StrictInt, Field(high, ge=fewest, le=most,
                              description="most players the rules allow (the kit prints for them)")))
    return model  # type: ignore[return-value]


MAX_SIMULATED_GAMES = 1_000_000
"""Games one `simulate` or `validate` run may play (their ``--games`` limit, ``commands.options.MAX_GAMES``): about
an hour at ~330 games/s per job (the slowest game); every game's record is kept for the report, so memory grows
with it too."""


class Simulate(TemplateModel):
    """``simulate: {bots, games, validate_games}``: what ``boardgen validate`` (and the build's validate stage)
    and ``boardgen simulate`` play when the command line does not say. Each game sets its defaults and the
    most validation games with ``simulate_model``."""

    bots: tuple[str, ...] | None = Field(None, min_length=1, max_length=10,
                                         description="bots validate and simulate seat, in turn (repeated to fill "
                                         "the seats); none: the game's own mix (`boardgen games` lists its bots)")
    games: StrictInt = Field(1000, ge=1, le=MAX_SIMULATED_GAMES,
                             description="games `boardgen simulate` plays without --games")
    validate_games: StrictInt = Field(200, ge=0, le=100_000,
                                      description="games `boardgen validate` and the build's validate stage play")


def simulate_model(name: str, validate_games: int, most_validate_games: int = 100_000, least_validate_games: int = 0,
                   games: int = 1000) -> type[Simulate]:
    """A game's ``simulate`` section with its own default and limit of validation games."""
    model: type[Simulate] = create_model(  # type: ignore[call-overload]
        name, __base__=Simulate, __module__=Simulate.__module__,
        validate_games=(StrictInt, Field(validate_games, ge=least_validate_games, le=most_validate_games,
                                         description="games `boardgen validate` and the build's validate stage "
                                         "play")),
        games=(StrictInt, Field(games, ge=1, le=MAX_SIMULATED_GAMES,
                                description="games `boardgen simulate` plays without --games")))
    return model


Paper = Literal["a4", "letter"]


def _each_paper_once(papers: object) -> object:
    if isinstance(papers, list | tuple):
        seen: set[object] = set()
        for paper in papers:
            if isinstance(paper, str) and paper in seen:
                raise ValueError(f"{paper} listed twice; expected each paper once")
            if isinstance(paper, str):
                seen.add(paper)
    return papers


Papers = Annotated[tuple[Paper, ...], Field(min_length=1, max_length=2, description="the papers to print for, "
                                           "each once", json_schema_extra={"uniqueItems": True}),
                   BeforeValidator(_each_paper_once)]
"""``papers: [a4, letter]``: the papers a game whose pages are laid out for a paper prints for."""


_told: set[str] = set()
"""Files whose deprecation line was printed in this process (each file's is printed once)."""


def _pop_dotted(data: dict[str, Any], key: str) -> tuple[bool, Any]:
    *path, last = key.split(".")
    node: Any = data
    for part in path:
        node = node.get(part) if isinstance(node, dict) else None
    if not isinstance(node, dict) or last not in node:
        return False, None
    value = node.pop(last)
    if path and not node:  # a section left empty by the move (``simulation: {}``) goes with it
        _pop_dotted(data, ".".join(path))
    return True, value


def _put_dotted(data: dict[str, Any], key: str, value: Any) -> None:
    *path, last = key.split(".")
    node = data
    for part in path:
        inner = node.get(part)
        if not isinstance(inner, dict):
            inner = node[part] = {}
        node = inner
    node[last] = value


def move_old_keys(data: Any, moved: dict[str, str], source: str, players_was_a_count: bool = False) -> Any:
    """``data`` with each old key of ``moved`` (dotted, old -> new) put at its new place, and one line on
    stderr per file: ``FILE: old keys still read, please rewrite: rules.players -> players.usual, ...``. An
    old key given beside its new one wins (it is the one a file extending a shipped template writes). With
    ``players_was_a_count``, an old top-level ``players: N`` is ``players: {min: N, usual: N, max: N}``."""
    if not isinstance(data, dict):
        return data
    data = _copy_mappings(data)
    told: list[str] = []
    for old, new in moved.items():
        found, value = _pop_dotted(data, old)
        if not found:
            continue
        told.append(f"{old} -> {new}")
        _put_dotted(data, new, value)
    players = data.get("players")
    if players_was_a_count and isinstance(players, int) and not isinstance(players, bool):
        told.append(f"players: {players} -> players: {{min: {players}, usual: {players}, max: {players}}}")
        data["players"] = {"min": players, "usual": players, "max": players}
    if told and source not in _told:
        _told.add(source)
        print(f"{source}: old keys still read, please rewrite: {'; '.join(told)}", file=sys.stderr)
    return data


def _copy_mappings(value: Any) -> Any:
    return {k: _copy_mappings(v) for k, v in value.items()} if isinstance(value, dict) else value


class GameTemplate(TemplateModel):
    """The keys every game's template has. ``source`` and ``template_sha256`` are set by the loader."""

    game: str = Field(description="which game this template builds (see `boardgen games`)")
    edition: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$",
                         description="output folder name: OUT/<edition>/")
    title: Annotated[PrintableText, AfterValidator(_one_line)] = Field(min_length=1, max_length=120,
                                                                      json_schema_extra=ONE_LINE_SCHEMA)
    language: SkipJsonSchema[str] = Field("en", description="BCP 47 tag of the printed words; the template "
                                          "writes it as `edition: {language: de}` (boardgen/i18n.py)")
    seed: int = Field(2026, ge=0, lt=2**63, description="seeds every random choice boardgen makes")
    export: ExportSection = Field(default_factory=ExportSection,
                                  description="print-on-demand profiles of this template (`boardgen export pod`)")

    moved_keys: ClassVar[dict[str, str]] = {}
    """Old spellings this game still reads, dotted old key -> dotted new key (``move_old_keys``)."""
    players_was_a_count: ClassVar[bool] = False
    """The game's templates once wrote ``players: N`` for a fixed count: still read, as ``{min: N, usual: N,
    max: N}``."""

    _source: str = PrivateAttr(default="<template>")
    _template_sha256: str = PrivateAttr(default="")

    @model_validator(mode="before")
    @classmethod
    def _old_spellings(cls, data: Any, info: ValidationInfo) -> Any:
        source = (info.context or {}).get("source", "<template>") if isinstance(info.context, dict) else "<template>"
        return move_old_keys(data, cls.moved_keys, source, cls.players_was_a_count)

    @property
    def source(self) -> str:
        return self._source

    @property
    def template_sha256(self) -> str:
        return self._template_sha256


M = TypeVar("M", bound=GameTemplate)


def _dotted(loc: tuple[int | str, ...]) -> str:
    """``("rules", "turns")`` -> ``rules.turns``; a key holding spaces, colons or quotes (or empty) is quoted,
    so every message names a key a reader can find. pydantic's ``[key]`` marker (a bad mapping key) is dropped."""
    parts: list[str] = []
    for item in loc:
        if item == "[key]":
            continue
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif parts:
            parts.append(f".{shown_key(item)}")
        else:
            parts.append(shown_key(item))
    return "".join(parts) or "(top level)"


def _is_mapping(annotation: Any) -> bool:
    """Whether ``annotation`` (maybe ``X | None``) is a ``dict[K, V]`` (its next location item is a key)."""
    if get_origin(annotation) is dict:
        return True
    return any(get_origin(a) is dict for a in get_args(annotation))


def _field_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> tuple[Any, Any]:
    """(the model that holds the key ``loc`` ends on, its FieldInfo), or (the innermost model, None) when ``loc``
    ends inside a list or mapping (an item's limits are not its field's)."""
    current: Any = model
    found: tuple[Any, Any] = (model, None)
    skip_key = False
    for item in loc:
        if skip_key or isinstance(item, int) or item == "[key]":
            skip_key = False
            found = (current, None)
            continue
        if not (isinstance(current, type) and issubclass(current, BaseModel)):
            return current, None
        match = next((f for name, f in current.model_fields.items() if (f.alias or name) == item), None)
        if match is None:
            return current, None
        found = (current, match)
        skip_key = _is_mapping(match.annotation)
        current = _inner_model(match.annotation)
    return found


def _known_keys(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """The keys allowed where ``loc`` points (for a "did you mean")."""
    holder, field = _field_at(model, loc[:-1])
    inner = _inner_model(field.annotation) if field is not None else holder
    if isinstance(inner, type) and issubclass(inner, BaseModel):
        return [info.alias or name for name, info in inner.model_fields.items()]
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


def _number(value: Any, unit: str) -> str:
    text = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else f"{value:g}"
    return text + unit


def _range_words(error: dict[str, Any], field: Any, unit: str) -> str:
    """"between 1 and 500", "more than 0 and at most 600mm", "at least 0": the field's whole range when the error
    is about the field itself, else the one bound pydantic names."""
    bounds: dict[str, Any] = {}
    if field is not None:
        for meta in field.metadata:
            for attr in ("ge", "gt", "le", "lt"):
                if getattr(meta, attr, None) is not None:
                    bounds[attr] = getattr(meta, attr)
    bounds.update({k: v for k, v in (error.get("ctx") or {}).items() if k in ("ge", "gt", "le", "lt")
                   and not ({"ge", "gt"} & set(bounds) if k in ("ge", "gt") else {"le", "lt"} & set(bounds))})
    low = ("at least", bounds["ge"]) if "ge" in bounds else ("more than", bounds["gt"]) if "gt" in bounds else None
    high = ("at most", bounds["le"]) if "le" in bounds else ("less than", bounds["lt"]) if "lt" in bounds else None
    if low and high and low[0] == "at least" and high[0] == "at most":
        return f"between {_number(low[1], unit)} and {_number(high[1], unit)}"
    words = [f"{bound[0]} {_number(bound[1], unit)}" for bound in (low, high) if bound is not None]
    return " and ".join(words)


_PATTERN_WORDS = {r"^#[0-9a-fA-F]{6}$": 'a colour "#rrggbb"'}
_TYPE_WORDS = {
    "int_type": "a whole number", "int_parsing": "a whole number", "int_from_float": "a whole number",
    "int_parsing_size": "a smaller whole number", "float_type": "a number", "float_parsing": "a number",
    "finite_number": "a finite number", "bool_type": "true or false", "bool_parsing": "true or false",
    "string_type": "a text", "dict_type": "a mapping", "model_type": "a mapping", "model_attributes_type": "a mapping",
    "list_type": "a list", "tuple_type": "a list", "iterable_type": "a list", "set_type": "a list",
    "none_required": "nothing (null)", "string_unicode": "a text",
}


def plain_error(model: type[BaseModel], error: Any) -> tuple[str, str]:
    """One pydantic error as (dotted key, message) in boardgen's words: what was expected, then ``(got X)``;
    an unknown key gets a "did you mean"."""
    loc = tuple(error["loc"])
    key = _dotted(loc)
    kind = error["type"]
    ctx = error.get("ctx") or {}
    if kind == "extra_forbidden":
        known = _known_keys(model, loc)
        close = difflib.get_close_matches(str(loc[-1]), known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else (f"; expected one of {', '.join(known)}" if known else "")
        return key, f"unknown key{hint}"
    if kind == "missing":
        return key, "missing; this key is required"
    blamed = ctx.get("error")
    if isinstance(blamed, CrossKeyError):
        inner = [item for item in loc if item != "[key]"]
        return (f"{key}.{blamed.key}" if inner and blamed.key else blamed.key or key), str(blamed)
    holder, field = _field_at(model, loc)
    name = next((n for n, f in getattr(holder, "model_fields", {}).items() if f is field), "")
    unit = "mm" if name.endswith("_mm") else ""
    if kind in _TYPE_WORDS:
        expected = f"expected {_TYPE_WORDS[kind]}"
    elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        expected = f"expected {_range_words(error, field, unit)}"
    elif kind == "string_too_short":
        expected = "expected a text" if ctx.get("min_length") == 1 else f"expected at least {ctx.get('min_length')} " \
            "characters"
    elif kind == "string_too_long":
        expected = f"expected at most {ctx.get('max_length')} characters"
    elif kind == "string_pattern_mismatch":
        pattern = str(ctx.get("pattern", ""))
        described = field.description if field is not None and field.description else None
        expected = f"expected {_PATTERN_WORDS.get(pattern) or described or 'text matching ' + pattern}"
    elif kind in ("too_short", "too_long"):
        most = ctx.get("max_length") if kind == "too_long" else ctx.get("min_length")
        expected = f"expected {'at most' if kind == 'too_long' else 'at least'} {most:,} items"
    elif kind in ("literal_error", "enum"):
        expected = "expected one of " + str(ctx.get("expected", "")).replace(" or ", ", ")
    else:  # a validator's own message (it says what was expected), or pydantic's words as a last resort
        expected = str(error["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    if "got " in expected or "input" not in error:
        return key, expected
    got = error["input"]
    shown = f"{got:,}" if isinstance(got, int) and not isinstance(got, bool) and got.bit_length() <= 64 else \
        short_repr(got)
    return key, f"{expected} (got {shown})"


def _as_written(value: Any) -> Any:
    """A YAML value with its lists as tuples: the models hold tuples, and validate strictly (no "16" for 16, no
    true for 1), so a template passes exactly when its JSON Schema (integer, number, string, boolean) says so."""
    if isinstance(value, list | tuple):
        return tuple(_as_written(v) for v in value)
    if isinstance(value, dict):
        return {k: _as_written(v) for k, v in value.items()}
    return value


def validate_template(model: type[M], data: Any, source: str, template_sha256: str = "") -> M:
    """``data`` (a parsed YAML mapping) as ``model``; any problem is one ConfigError naming the dotted key."""
    if not isinstance(data, dict):
        raise ConfigError(source, "(top level)", "expected a YAML mapping of template keys")
    try:
        config = model.model_validate(_as_written(data), strict=True, context={"source": source})
    except ValidationError as exc:
        key, message = plain_error(model, exc.errors(include_url=False)[0])
        raise ConfigError(source, key, message) from None
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


EXTENDS_SCHEMA = {"type": "string", "minLength": 1, "maxLength": 1024,
                  "description": "a bundled template's name or a path beside this file: this template is that one "
                                 "with this file's keys merged over it (null removes a key)"}


def _edition_forms(schema: dict[str, Any]) -> None:
    """``edition`` is a folder name, or ``{name, language}`` (boardgen/i18n.normalise_edition): both in the schema."""
    plain = schema.get("properties", {}).get("edition")
    if plain is None:
        return
    name = {k: v for k, v in plain.items() if k not in ("description", "title")}
    schema["properties"]["edition"] = {
        "anyOf": [name, {"type": "object", "additionalProperties": False, "properties": {
            "name": name, "language": {"type": "string", "pattern": r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8}){0,3}$",
                                       "description": "BCP 47 tag of the printed words (en, de, fr-CA)"}}}],
        "description": plain.get("description", "") + "; or {name, language} for a translated edition"}


def json_schema(model: type[BaseModel], title: str) -> dict[str, Any]:
    schema = model.model_json_schema(by_alias=True)
    _length_bounds(model, schema, set(), model)
    schema.setdefault("properties", {})["extends"] = dict(EXTENDS_SCHEMA)
    _edition_forms(schema)
    schema["title"] = title
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema

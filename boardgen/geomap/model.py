"""The geographic map's values: what it is built from (``MapSpec``), its land cells and the board they make."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from shapely.geometry import MultiPolygon, Polygon

from boardgen.geomap.hexgrid import Hex, HexLayout
from boardgen.geomap.spec import BoardConfig, ClassificationConfig, HexConfig, MapConfig, OverrideConfig


@dataclass(frozen=True)
class MapSpec:
    """Everything a geographic map is built from besides the data files' bytes: the board's size and margin, the
    projection and data files (``map``), the hex lattice, the climate classification and its zone names (in
    table order: ties go to the earlier zone), and per-cell overrides. ``source`` names the template, for
    messages and for finding data files beside it. Each game makes one from its own template keys."""

    board: BoardConfig
    map: MapConfig
    hexes: HexConfig
    classification: ClassificationConfig
    zones: tuple[str, ...]
    overrides: OverrideConfig = field(default_factory=OverrideConfig)
    source: str = "<template>"

    @classmethod
    def of(cls, config: Any) -> MapSpec:
        """The spec of ``config``: itself, or the map keys of a template whose sections have the spec's names
        (``board``, ``map``, ``hexes``, ``classification``, ``zones``, ``overrides``, ``source``)."""
        if isinstance(config, MapSpec):
            return config
        return cls(config.board, config.map, config.hexes, config.classification, tuple(config.zones),
                   config.overrides, config.source)


@dataclass(frozen=True)
class Cell:
    """One land cell of the board."""

    label: str  # stable, human-readable: column letters + row number, e.g. "AF12"
    hex: Hex
    column: int  # offset column (0 = leftmost hex column of the board)
    row: int  # offset row (0 = top hex row of the board)
    center_mm: tuple[float, float]  # board mm, origin top-left, y down
    land_share: float  # share of the hex covered by land, 0..1
    zone: str
    zone_shares: Mapping[str, float]  # share of the cell's classified land in each game zone (sums to 1)
    koppen_shares: Mapping[str, float]  # share of the cell's classified land in each Köppen class
    high_ground_share: float  # share of the cell's land at or above the template's high-ground elevation
    mean_elevation_m: float  # mean elevation of the cell's land
    zone_reason: str  # which rule gave the zone: high-ground, priority, plurality, minimum, override, island
    neighbours: tuple[str, ...]  # labels of adjacent land cells, sorted
    kept_as_island: str = ""  # name/description when the cell exists only to keep a landmass on the map


@dataclass(frozen=True)
class IslandKept:
    """A landmass over the template's minimum area that no hex reached the land threshold on."""

    label: str
    area_km2: float
    center_lonlat: tuple[float, float]


@dataclass(frozen=True)
class Board:
    """The classified map: everything later stages (board art, sections, rules) need. ``config`` is what the
    game built it from (its whole template, or the bare ``MapSpec``); ``spec`` the map's part of it."""

    config: Any
    layout: HexLayout
    cells: tuple[Cell, ...]  # sorted by (row, column)
    land_mm: MultiPolygon  # land projected to board mm (for coastlines)
    frame_mm: Polygon  # the projection's whole-world outline on the board
    equator_km_per_mm: float  # true ground distance per board mm along the equator (for scale notes)
    islands_kept: tuple[IslandKept, ...] = ()
    notes: tuple[str, ...] = ()  # what the classifier did (minimum top-ups, overrides), for `boardgen info`
    stats: Mapping[str, Any] = field(default_factory=dict)  # timings and counts
    spec: MapSpec | None = None  # set by build_board; None only in hand-made test boards (then: of ``config``)

    @property
    def map_spec(self) -> MapSpec:
        return self.spec if self.spec is not None else MapSpec.of(self.config)

    def cell(self, label: str) -> Cell:
        for c in self.cells:
            if c.label == label:
                return c
        raise KeyError(label)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(c.label for c in self.cells)

    def zone_counts(self) -> dict[str, int]:
        counts = dict.fromkeys(self.map_spec.zones, 0)
        for c in self.cells:
            counts[c.zone] += 1
        return counts

    def hex_corners_mm(self, cell: Cell) -> list[tuple[float, float]]:
        return self.layout.corners(cell.hex)

    def spaces_graph(self) -> Any:
        """The map as a ``boardgen.layout.spaces.BoardGraph``: one space per land cell, its label as id, its zone as
        kind, its hexagon as outline, and the classifier's facts (land share, climate shares, elevation, why it
        got its zone) as data; neighbours only where both cells list each other."""
        from boardgen.layout.spaces import BoardGraph, Space

        cells = {c.label: c for c in self.cells}
        spaces = []
        for c in self.cells:
            neighbours = tuple(n for n in c.neighbours if n in cells and c.label in cells[n].neighbours)
            data = {"column": c.column, "row": c.row, "land_share": round(c.land_share, 3),
                    "zone_shares": {k: round(v, 3) for k, v in c.zone_shares.items()},
                    "climate_shares": {k: round(v, 3) for k, v in c.koppen_shares.items() if v},
                    "high_ground_share": round(c.high_ground_share, 3),
                    "mean_elevation_m": round(c.mean_elevation_m), "zone_reason": c.zone_reason,
                    **({"kept_as_island": c.kept_as_island} if c.kept_as_island else {})}
            spaces.append(Space(c.label, c.label, c.zone, c.center_mm, neighbours, data,
                                tuple(self.hex_corners_mm(c))))
        return BoardGraph(tuple(spaces), self.map_spec.board.width_mm, self.map_spec.board.height_mm)

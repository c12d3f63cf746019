"""A small synthetic board for the board/section tests (the real one is conftest's ``default_board``).

``synthetic_board`` needs no data files: a hand-made hex layout, a few blob-shaped continents and cells
classified by position.
"""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Point, Polygon, box

from boardgen.games.global_wellbeing.schema import Config, load_template
from boardgen.geomap.hexgrid import (
    Hex,
    HexLayout,
    column_letters,
    hexes_covering,
    offset_coordinates,
    orientation_named,
)
from boardgen.geomap.model import Board, Cell


def _cells_from_land(config: Config, layout: HexLayout, land: MultiPolygon, zone_of) -> tuple[Cell, ...]:
    width_mm, height_mm = config.board.width_mm, config.board.height_mm
    hexes = hexes_covering(layout, width_mm, height_mm)
    polys = np.array([Polygon(layout.corners(h)) for h in hexes])
    shares = shapely.area(shapely.intersection(polys, land)) / layout.area_mm2
    chosen: dict[Hex, float] = {}
    for h, share in zip(hexes, shares, strict=True):
        x, y = layout.hex_to_point(h)
        if share >= config.hexes.land_threshold and 0 <= x <= width_mm and 0 <= y <= height_mm:
            chosen[h] = float(share)
    offsets = {h: offset_coordinates(layout, h) for h in chosen}
    min_col = min(c for c, _ in offsets.values())
    min_row = min(r for _, r in offsets.values())
    labels = {h: f"{column_letters(c - min_col)}{r - min_row + 1}" for h, (c, r) in offsets.items()}
    zones = tuple(config.zones)
    cells = []
    for h in sorted(chosen, key=lambda h: (offsets[h][1], offsets[h][0])):
        zone = zone_of(layout.hex_to_point(h), zones)
        neighbours = tuple(sorted(labels[n] for n in h.neighbours() if n in chosen))
        cells.append(Cell(label=labels[h], hex=h, column=offsets[h][0] - min_col, row=offsets[h][1] - min_row,
                          center_mm=layout.hex_to_point(h), land_share=chosen[h], zone=zone,
                          zone_shares={zone: 1.0}, koppen_shares={}, high_ground_share=0.0, mean_elevation_m=0.0,
                          zone_reason="plurality", neighbours=neighbours))
    return tuple(cells)


def synthetic_board(config: Config | None = None) -> Board:
    """Three blob continents on a 660 x 440 board, one of them straddling the middle of every cut line."""
    config = config or load_template()
    layout = HexLayout(orientation_named(config.hexes.orientation), 9.5, (4.0, 6.0))
    blobs = [
        Point(330, 220).buffer(70),  # the centre section, touching all four inner cut lines' middles
        Point(200, 120).buffer(35),  # across the top-left junction area
        Point(520, 330).buffer(45),
        box(425, 75, 465, 125),  # straddles the right vertical cut in the top row
    ]
    land = MultiPolygon([b for b in shapely.union_all(blobs).geoms]) if shapely.union_all(blobs).geom_type == \
        "MultiPolygon" else MultiPolygon([shapely.union_all(blobs)])
    frame = box(6, 20, config.board.width_mm - 6, config.board.height_mm - 20)

    def zone_of(centre: tuple[float, float], zones: tuple[str, ...]) -> str:
        return zones[int(centre[0] // 40 + centre[1] // 40) % len(zones)]

    cells = _cells_from_land(config, layout, land, zone_of)
    return Board(config=config, layout=layout, cells=cells, land_mm=land, frame_mm=frame, equator_km_per_mm=60.0)


"""The default Global Wellbeing Game map against its quality bar (real data, no mocks)."""

from __future__ import annotations

import json

import pytest

from boardgen.export import adjacency_json, cell_at_lonlat, cells_csv, cells_geojson
from boardgen.geomap.model import Board


def test_cell_count_is_in_the_template_range(default_board: Board) -> None:
    from boardgen.geomap.spec import cell_count_band

    low, high = cell_count_band(default_board.config.hexes)
    assert (low, high) == (291, 309)  # auto: hexes.target_cells 300 +- 3%
    assert low <= len(default_board.cells) <= high


def test_every_zone_meets_its_minimum_and_the_badge_threshold(default_board: Board) -> None:
    config = default_board.config
    for zone, count in default_board.zone_counts().items():
        assert count >= config.classification.minimum_cells, zone
        assert count >= config.rules.badge_threshold, zone


@pytest.mark.parametrize(
    "place, lon, lat, zone",
    [
        ("Tibet", 88.0, 32.0, "Mountains"),
        ("Tibet east", 95.0, 33.0, "Mountains"),
        ("Sahara", 10.0, 24.0, "Arid"),
        ("Sahara east", 27.0, 24.0, "Arid"),
        ("Arabia", 46.0, 22.0, "Arid"),
        ("central Australia", 133.0, -25.0, "Arid"),
        ("Amazon", -62.0, -4.0, "Tropical"),
        ("Congo basin", 22.0, 0.0, "Tropical"),
        ("Greenland", -40.0, 75.0, "Polar"),
        ("Greenland summit", -38.0, 72.6, "Polar"),
    ],
)
def test_known_places_have_their_zone(default_board: Board, place: str, lon: float, lat: float, zone: str) -> None:
    cell = cell_at_lonlat(default_board, lon, lat)
    assert cell is not None, f"{place} has no cell"
    assert cell.zone == zone, f"{place} ({cell.label}) is {cell.zone}"


@pytest.mark.parametrize("stretch, lon, lat", [
    ("northern Andes (Ecuador)", -78.5, -1.5), ("Peruvian Andes", -75.5, -10.5), ("Altiplano", -67.5, -18.0),
    ("Atacama Andes", -68.5, -24.0), ("Aconcagua", -70.0, -32.6),
])
def test_the_andes_are_mountains_along_their_length(default_board: Board, stretch: str, lon: float, lat: float) -> None:
    """At the map's resolution a hex mixes the range with lowland on either side: each stretch of the Andes
    must have a Mountains cell on it or next to it."""
    cell = cell_at_lonlat(default_board, lon, lat)
    assert cell is not None
    nearby = [cell, *(default_board.cell(label) for label in cell.neighbours)]
    assert any(c.zone == "Mountains" for c in nearby), f"{stretch}: {[(c.label, c.zone) for c in nearby]}"


@pytest.mark.parametrize("region, lon_range, lat_range", [
    ("Mediterranean basin", (-10.0, 36.0), (30.0, 45.0)),
    ("California", (-125.0, -114.0), (32.0, 42.0)),
])
def test_mediterranean_regions_have_mediterranean_cells(default_board: Board, region, lon_range, lat_range) -> None:
    labels = {
        cell.label
        for lon in range(int(lon_range[0]), int(lon_range[1]) + 1)
        for lat in range(int(lat_range[0]), int(lat_range[1]) + 1)
        if (cell := cell_at_lonlat(default_board, lon, lat)) is not None and cell.zone == "Mediterranean"
    }
    assert labels, f"no Mediterranean cell in the {region}"


@pytest.mark.parametrize("island, lon, lat", [
    ("Japan (Honshu)", 138.5, 36.5), ("Sri Lanka", 80.7, 7.8), ("Cuba", -79.0, 21.8),
    ("New Zealand South", 170.5, -44.0),
    ("Iceland", -18.5, 64.9), ("Taiwan", 121.0, 23.7), ("Ireland", -8.0, 53.4), ("Great Britain", -2.0, 53.0),
    ("Madagascar", 46.7, -19.0), ("Tasmania", 146.6, -42.0),
])
def test_big_islands_are_not_lost(default_board: Board, island: str, lon: float, lat: float) -> None:
    import numpy as np

    from boardgen.export import board_projection

    x, y = board_projection(default_board).to_mm(np.array([lon]), np.array([lat]))
    nearest = min(default_board.cells, key=lambda c: (c.center_mm[0] - x[0]) ** 2 + (c.center_mm[1] - y[0]) ** 2)
    distance_mm = float(np.hypot(nearest.center_mm[0] - x[0], nearest.center_mm[1] - y[0]))
    assert distance_mm <= default_board.layout.size_mm * 1.3, f"{island}: {nearest.label} is {distance_mm:.1f} mm away"


def test_cells_have_consistent_shares_and_symmetric_neighbours(default_board: Board) -> None:
    by_label = {c.label: c for c in default_board.cells}
    assert len(by_label) == len(default_board.cells)
    for cell in default_board.cells:
        assert sum(cell.zone_shares.values()) == pytest.approx(1.0, abs=0.01) or cell.kept_as_island
        assert 0 <= cell.land_share <= 1 and 0 <= cell.high_ground_share <= 1
        for other in cell.neighbours:
            assert cell.label in by_label[other].neighbours
            assert cell.hex.distance(by_label[other].hex) == 1


def test_labels_name_columns_and_rows_on_the_page(default_board: Board) -> None:
    for cell in default_board.cells:
        assert cell.label.endswith(str(cell.row + 1))
    rows = {}
    for cell in default_board.cells:
        rows.setdefault(cell.row, set()).add(round(cell.center_mm[1], 3))
    assert all(len(ys) == 1 for ys in rows.values())


def test_exports_agree_with_the_board(default_board: Board) -> None:
    geo = json.loads(cells_geojson(default_board))
    assert [f["properties"]["label"] for f in geo["features"]] == list(default_board.labels)
    for feature in geo["features"]:
        assert feature["geometry"]["type"] in ("Polygon", "MultiPolygon")
        for ring in (feature["geometry"]["coordinates"] if feature["geometry"]["type"] == "Polygon"
                     else [r for p in feature["geometry"]["coordinates"] for r in p]):
            assert all(-180 <= lon <= 180 and -90 <= lat <= 90 for lon, lat in ring)
    csv_rows = cells_csv(default_board).decode().splitlines()
    assert len(csv_rows) == len(default_board.cells) + 1
    assert csv_rows[0].startswith("label,q,r,")
    adjacency = json.loads(adjacency_json(default_board))
    assert adjacency == {c.label: list(c.neighbours) for c in default_board.cells}


def test_a_cell_crossing_the_map_edge_is_split_at_180_degrees(default_board: Board) -> None:
    geo = json.loads(cells_geojson(default_board))
    polygons = [p for f in geo["features"] for p in (
        f["geometry"]["coordinates"] if f["geometry"]["type"] == "MultiPolygon" else [f["geometry"]["coordinates"]])]
    lons = [lon for polygon in polygons for ring in polygon for lon, _ in ring]
    assert any(min(r[0] for r in p[0]) < -170 for p in polygons)
    assert any(max(r[0] for r in p[0]) > 170 for p in polygons)
    assert min(lons) >= -180 and max(lons) <= 180

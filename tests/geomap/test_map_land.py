"""The TopoJSON land loader on the shipped Natural Earth data and on small hand-made topologies."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from shapely.geometry import Point

from boardgen.errors import DataError
from boardgen.geomap.projection.fit import BoardProjection
from boardgen.geomap.projection.land import (
    close_polar_ring,
    drop_antarctica,
    land_from_topojson,
    load_land,
    unwrap_longitudes,
)
from boardgen.yaml_reader import data_dir


@pytest.fixture(scope="module")
def land():
    return load_land(data_dir() / "land-50m.json")


def test_land_is_valid_and_about_21420_square_degrees(land) -> None:
    assert land.is_valid
    assert land.area == pytest.approx(21_420, abs=15)
    assert land.bounds[0] >= -180 and land.bounds[2] <= 180


def test_caspian_sea_is_water_and_its_shores_are_land(land) -> None:
    assert not land.contains(Point(51.0, 42.0))
    assert land.contains(Point(45.0, 47.5 - 4.0))  # Dagestan, west shore
    assert not land.contains(Point(35.0, 43.0))  # Black Sea


@pytest.mark.parametrize("lon, lat", [(175.0, 67.0), (-173.5, 65.5), (178.0, -17.8), (-179.87, -16.7)])
def test_chukotka_and_fiji_are_land_on_both_sides_of_180(land, lon: float, lat: float) -> None:
    assert land.contains(Point(lon, lat))


def test_antarctica_circles_the_pole_and_can_be_dropped(land) -> None:
    assert land.contains(Point(0.0, -89.0)) and land.contains(Point(120.0, -80.0))
    north = drop_antarctica(land)
    assert north.bounds[1] >= -60.0
    assert north.area == pytest.approx(land.area - 4_470, rel=0.1)


def test_unwrap_makes_a_ring_continuous() -> None:
    ring = np.array([[170.0, 0.0], [179.0, 1.0], [-179.0, 1.0], [-170.0, 0.0]])
    assert unwrap_longitudes(ring)[:, 0].tolist() == [170.0, 179.0, 181.0, 190.0]


def test_a_ring_around_the_pole_is_closed_through_it() -> None:
    ring = unwrap_longitudes(np.array([[-180.0, -70.0], [-60.0, -72.0], [60.0, -71.0], [179.9, -70.0]]))
    closed = close_polar_ring(ring)
    assert (closed[-3:-1, 1] == -90.0).all()


def test_hand_made_topology_crossing_180_is_cut_into_two_valid_pieces() -> None:
    topology = {
        "type": "Topology",
        "objects": {"land": {"type": "GeometryCollection", "geometries": [{"type": "Polygon", "arcs": [[0]]}]}},
        "arcs": [[[170, 10], [-170, 10], [-170, 20], [170, 20], [170, 10]]],
    }
    land = land_from_topojson(topology)
    assert land.is_valid and len(land.geoms) == 2
    assert land.area == pytest.approx(200.0)


def test_board_projection_keeps_the_frame_fixed_and_the_edge_in_the_bering_strait() -> None:
    projection = BoardProjection("+proj=wintri +lon_0=11", 660.0, 440.0, 6.0)
    x, _ = projection.to_mm(np.array([-169.0 + 1e-6, 191.0 - 1e-6, 11.0]), np.array([0.0, 0.0, 0.0]))
    assert x[0] == pytest.approx(6.0, abs=0.01) and x[1] == pytest.approx(654.0, abs=0.01)
    assert x[2] == pytest.approx(330.0)
    back_lon, back_lat = projection.to_lonlat(*projection.to_mm(np.array([30.0]), np.array([45.0])))
    assert back_lon[0] == pytest.approx(30.0, abs=1e-6) and back_lat[0] == pytest.approx(45.0, abs=1e-6)


def test_a_missing_or_broken_land_file_is_a_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="not found"):
        load_land(tmp_path / "nope.json")
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"type": "FeatureCollection"}))
    with pytest.raises(DataError, match="Topology"):
        load_land(broken)

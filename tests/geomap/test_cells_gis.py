"""`boardgen cells` as GeoPackage and FlatGeobuf (through pyogrio) for every game with a geographic board: the
layers read back with every cell and every property the GeoJSON has, the CRS stated (WGS84, and the board's own
millimetres), rings counter-clockwise (RFC 7946), same bytes on rebuild."""

from __future__ import annotations

import json
from pathlib import Path

import pyogrio
import pytest
import shapely
from shapely.geometry import shape

from boardgen.cli import main
from boardgen.plugin import BuildContext, installed_games
from boardgen.template import load

GEOGRAPHIC = [pytest.param("global-wellbeing"), pytest.param("resilience-earth", marks=pytest.mark.slow)]


def run(*args: str) -> None:
    with pytest.raises(SystemExit) as done:
        main(["cells", *args])
    assert done.value.code == 0


def test_only_map_games_have_a_geographic_board() -> None:
    for name, plugin in installed_games().items():
        if name in ("global-wellbeing", "resilience-earth"):
            continue
        _game, config = load(plugin.default_template())
        assert plugin.geo is None or plugin.geo.geo_board(BuildContext(config, plugin)) is None, name


def _rings_ccw(geometry: object) -> bool:
    polys = getattr(geometry, "geoms", [geometry])
    return all(p.exterior.is_ccw and not any(i.is_ccw for i in p.interiors) for p in polys)  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", GEOGRAPHIC)
def test_geopackage_reads_back_as_the_geojson(name: str, tmp_path: Path) -> None:
    template = str(installed_games()[name].default_template())
    run("--template", template, "--format", "geojson", "--output", str(tmp_path / "cells.geojson"))
    run("--template", template, "--format", "gpkg", "--output", str(tmp_path / "board.gpkg"))
    geojson = json.loads((tmp_path / "cells.geojson").read_text())
    features = geojson["features"]
    assert all(_rings_ccw(shape(f["geometry"])) for f in features)

    layers = dict(pyogrio.list_layers(tmp_path / "board.gpkg").tolist())
    assert set(layers) == {"cells", "sections", "land", "cells_board_mm", "sections_board_mm", "land_board_mm"}
    cells = pyogrio.read_dataframe(tmp_path / "board.gpkg", layer="cells")
    assert cells.crs.to_epsg() == 4326
    assert len(cells) == len(features)
    if name == "global-wellbeing":
        assert len(cells) == 300
    for row, feature in zip(cells.itertuples(index=False), features, strict=True):
        values = row._asdict()
        for key, expected in feature["properties"].items():
            got = values[key]
            if isinstance(expected, dict | list):
                got = json.loads(got)
            assert got == expected, (feature["id"], key)
        assert shapely.equals_exact(row.geometry.normalize(), shape(feature["geometry"]).normalize(), 1e-9) or \
            abs(row.geometry.area - shape(feature["geometry"]).area) < 1e-9
    for layer in ("cells", "sections", "land"):
        frame = pyogrio.read_dataframe(tmp_path / "board.gpkg", layer=layer)
        assert len(frame) > 0 and all(_rings_ccw(g) for g in frame.geometry), layer
        mm = pyogrio.read_dataframe(tmp_path / "board.gpkg", layer=f"{layer}_board_mm")
        assert len(mm) == len(frame) and "millimetre" in mm.crs.to_wkt()
    first = (tmp_path / "board.gpkg").read_bytes()
    run("--template", template, "--format", "gpkg", "--output", str(tmp_path / "board.gpkg"))
    assert (tmp_path / "board.gpkg").read_bytes() == first


def test_flatgeobuf_layer(tmp_path: Path) -> None:
    template = str(installed_games()["global-wellbeing"].default_template())
    run("--template", template, "--format", "fgb", "--layer", "sections", "--output", str(tmp_path / "s.fgb"))
    frame = pyogrio.read_dataframe(tmp_path / "s.fgb")
    assert len(frame) >= 4 and frame.crs.to_epsg() == 4326
    assert {"section", "cells", "cell_count"} <= set(frame.columns)

"""The vectorised map and export steps give exactly what their per-cell / per-point forms give."""

from __future__ import annotations

import numpy as np
import pytest
from shapely.geometry import mapping

from boardgen import export
from boardgen.geomap.build import _islands_without_cell
from boardgen.geomap.hexgrid import FLAT, POINTY, Hex, HexLayout, hexes_covering
from boardgen.geomap.lattice import LandRaster, hex_keys, land_and_pixel_keys, land_hexes
from boardgen.geomap.model import Board
from boardgen.geomap.projection.rasters import KOPPEN_OCEAN, GlobalGrid, sample_koppen_land


def test_cell_geometries_match_the_per_cell_path(default_board: Board) -> None:
    projection = export.board_projection(default_board)
    fast = export.cells_lonlat_geometries(default_board, projection)
    slow = [export.cell_lonlat_geometry(default_board, c, projection) for c in default_board.cells]
    assert [g.wkb for g in fast] == [g.wkb for g in slow]
    assert sum(g.geom_type == "MultiPolygon" for g in slow) >= 1  # cells cut at 180 degrees are covered too
    assert export._geojson_geometries(fast) == [mapping(g) for g in slow]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pacific-centred", "antarctica", "projection-moll"])
def test_cell_geometries_match_the_per_cell_path_on_tweaked_maps(name: str) -> None:
    """Cells cut at 180 degrees on a Pacific-centred map, cells folded over the South Pole with Antarctica on,
    cells beyond Mollweide's oval: the fast path puts each together exactly as the per-cell path does."""
    from boardgen.games.global_wellbeing.board_layout import panelled_board
    from tests.board_tweaks import tweaked_config
    from tests.geomap.test_board_tweaks import SLOW_CASES

    board = panelled_board(tweaked_config(SLOW_CASES[name]))
    projection = export.board_projection(board)
    fast = export.cells_lonlat_geometries(board, projection)
    slow = [export.cell_lonlat_geometry(board, c, projection) for c in board.cells]
    assert [g.wkb for g in fast] == [g.wkb for g in slow]
    assert export._geojson_geometries(fast) == [mapping(g) for g in slow]


@pytest.mark.parametrize("orientation", [POINTY, FLAT], ids=["pointy", "flat"])
def test_board_hexes_match_a_set_of_hexes(orientation: object) -> None:
    layout = HexLayout(orientation, 7.3, (101.0, 66.0))  # type: ignore[arg-type]
    width, height = 200.0, 130.0
    pad = 2 * layout.size_mm
    gx, gy = np.meshgrid(np.arange(-pad, width + pad, layout.size_mm / 2),
                         np.arange(-pad, height + pad, layout.size_mm / 2))
    q, r = layout.points_to_hexes(gx.ravel(), gy.ravel())
    expected = []
    for h in sorted({Hex(int(a), int(b)) for a, b in zip(q, r, strict=True)}):
        x, y = layout.hex_to_point(h)
        if -layout.size_mm <= x <= width + layout.size_mm and -layout.size_mm <= y <= height + layout.size_mm:
            expected.append(h)
    assert hexes_covering(layout, width, height) == expected


def test_land_hexes_count_like_unique() -> None:
    rng = np.random.default_rng(7)
    raster = LandRaster(0.5, rng.uniform(0, 120, 5000), rng.uniform(0, 80, 5000), np.zeros(5000, dtype=np.int32))
    layout = HexLayout(POINTY, 3.1, (60.0, 40.0))
    keys, counts = np.unique(hex_keys(layout, raster.x_mm, raster.y_mm), return_counts=True)
    shares = np.minimum(counts * raster.pixel_area_mm2 / layout.area_mm2, 1.0)
    got_keys, got_shares = land_hexes(layout, raster, 0.05)
    assert np.array_equal(got_keys, keys[shares >= 0.05]) and np.array_equal(got_shares, shares[shares >= 0.05])


@pytest.mark.parametrize("orientation", [POINTY, FLAT], ids=["pointy", "flat"])
def test_points_to_hexes_rounds_like_the_cube_formula(orientation: object) -> None:
    """The buffered point-to-hex pass gives the textbook cube rounding, points on edges and corners included."""
    layout = HexLayout(orientation, 4.0, (0.5, -1.0))  # type: ignore[arg-type]
    rng = np.random.default_rng(5)
    grid = np.arange(-40.0, 40.0, 0.25)
    gx, gy = np.meshgrid(grid, grid)
    x = np.concatenate([gx.ravel(), rng.uniform(-40, 40, 3000)])
    y = np.concatenate([gy.ravel(), rng.uniform(-40, 40, 3000)])
    fq, fr = layout.fractional_hex(x, y)
    fs = -fq - fr
    q, r, s = np.round(fq), np.round(fr), np.round(fs)
    dq, dr, ds = np.abs(q - fq), np.abs(r - fr), np.abs(s - fs)
    fix_q = (dq > dr) & (dq > ds)
    q = np.where(fix_q, -r - s, q)
    r = np.where(~fix_q & (dr > ds), -q - s, r)
    got_q, got_r = layout.points_to_hexes(x, y)
    assert np.array_equal(got_q, q.astype(np.int64)) and np.array_equal(got_r, r.astype(np.int64))


def test_strided_land_hexes_and_pixel_keys_match_their_plain_forms() -> None:
    ys, xs = np.nonzero(np.random.default_rng(9).random((160, 240)) < 0.4)
    raster = LandRaster(0.5, (xs + 0.5) * 0.5, (ys + 0.5) * 0.5, np.zeros(len(xs), dtype=np.int32))
    layout = HexLayout(POINTY, 2.7, (60.0, 40.0))
    for _ in range(2):  # the second call reads the sample kept from the first
        x, y = raster.every_nth(2)
        keep = (xs % 2 == 0) & (ys % 2 == 0)
        assert np.array_equal(x, raster.x_mm[keep]) and np.array_equal(y, raster.y_mm[keep])
    keys, counts = np.unique(hex_keys(layout, x, y), return_counts=True)
    shares = np.minimum(counts * raster.pixel_area_mm2 * 4 / layout.area_mm2, 1.0)
    assert np.array_equal(land_hexes(layout, raster, 0.3, stride=2)[0], keys[shares >= 0.3])
    land_keys, pixel_keys = land_and_pixel_keys(layout, raster, 0.3)
    assert np.array_equal(land_keys, land_hexes(layout, raster, 0.3)[0])
    assert np.array_equal(pixel_keys, hex_keys(layout, raster.x_mm, raster.y_mm))


def test_islands_without_cell_match_a_per_landmass_count() -> None:
    """Each big landmass's most-covering hex (ties: the smaller key), kept when it is not a land cell and no
    earlier landmass took it."""
    rng = np.random.default_rng(11)
    for _ in range(40):
        n = int(rng.integers(50, 400))
        landmass = rng.integers(0, 12, n).astype(np.int32)
        pixel_keys = (rng.integers(-3, 4, n) + (1 << 20)) * (1 << 21) + rng.integers(-3, 4, n) + (1 << 20)
        chosen = rng.choice(12, size=int(rng.integers(1, 12)), replace=False)
        big = {int(i): 1.0 for i in chosen if (landmass == i).any()}
        land_keys = np.unique(rng.choice(pixel_keys, size=int(rng.integers(0, 20))))
        expected: dict[int, int] = {}
        for index in sorted(big):
            keys, counts = np.unique(pixel_keys[landmass == index], return_counts=True)
            best = int(keys[counts == counts.max()].min())
            if best not in set(land_keys.tolist()) and best not in expected.values():
                expected[index] = best
        got = _islands_without_cell(big, landmass, pixel_keys, land_keys)
        assert got == expected and list(got) == list(expected)


def test_nearest_land_class_matches_the_offset_loop() -> None:
    rng = np.random.default_rng(3)
    values = np.where(rng.random((90, 180)) < 0.97, KOPPEN_OCEAN, rng.integers(1, 31, (90, 180))).astype(np.uint8)
    grid = GlobalGrid(values)
    lon, lat = rng.uniform(-180, 180, 400), rng.uniform(-90, 90, 400)
    for radius in (2, 8, 40):
        row, col = grid.indices(lon, lat)
        expected = values[row, col].copy()
        offsets = sorted(((dr, dc) for dr in range(-radius, radius + 1) for dc in range(-radius, radius + 1)),
                         key=lambda o: (o[0] ** 2 + o[1] ** 2, o))[1:]
        for i in np.flatnonzero(expected == KOPPEN_OCEAN):
            for dr, dc in offsets:
                found = values[min(max(row[i] + dr, 0), 89), (col[i] + dc) % 180]
                if found != KOPPEN_OCEAN:
                    expected[i] = found
                    break
        assert np.array_equal(sample_koppen_land(grid, lon, lat, max_radius=radius), expected)

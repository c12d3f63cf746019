"""Hex maths: round trips, neighbours, corners, labels."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from boardgen.geomap.hexgrid import FLAT, HEX_DIRECTIONS, POINTY, Hex, HexLayout, column_letters, offset_coordinates

hexes = st.builds(Hex, st.integers(-500, 500), st.integers(-500, 500))
layouts = st.builds(
    HexLayout,
    st.sampled_from([POINTY, FLAT]),
    st.floats(0.5, 50.0),
    st.tuples(st.floats(-1000, 1000), st.floats(-1000, 1000)),
)


@given(hexes, layouts)
def test_point_to_hex_inverts_hex_to_point(h: Hex, layout: HexLayout) -> None:
    assert layout.point_to_hex(*layout.hex_to_point(h)) == h


@given(hexes, layouts, st.floats(0, 2 * math.pi), st.floats(0, 0.85))
def test_points_inside_the_inscribed_circle_belong_to_the_hex(h: Hex, layout: HexLayout, angle: float, frac: float):
    cx, cy = layout.hex_to_point(h)
    inner_radius = layout.size_mm * math.sqrt(3) / 2
    x, y = cx + frac * inner_radius * math.cos(angle), cy + frac * inner_radius * math.sin(angle)
    assert layout.point_to_hex(x, y) == h


@given(hexes)
def test_neighbours_are_at_distance_one(h: Hex) -> None:
    assert len(set(h.neighbours())) == 6
    assert all(h.distance(n) == 1 for n in h.neighbours())
    assert h.q + h.r + h.s == 0


@given(hexes, layouts)
def test_neighbouring_hexes_share_an_edge(h: Hex, layout: HexLayout) -> None:
    mine = np.array(layout.corners(h))
    for d in HEX_DIRECTIONS:
        theirs = np.array(layout.corners(h + d))
        distances = np.hypot(*(mine[:, None, :] - theirs[None, :, :]).transpose(2, 0, 1))
        assert (distances < 1e-6 * max(1.0, layout.size_mm)).sum() == 2


def test_corners_and_extent_of_a_pointy_hex() -> None:
    layout = HexLayout(POINTY, 10.0, (0.0, 0.0))
    corners = np.array(layout.corners(Hex(0, 0)))
    assert np.isclose(corners[:, 1].max() - corners[:, 1].min(), 20.0)
    assert np.isclose(corners[:, 0].max() - corners[:, 0].min(), 10 * math.sqrt(3))
    assert np.isclose(layout.area_mm2, 1.5 * math.sqrt(3) * 100)
    assert layout.hex_to_point(Hex(1, 0)) == (10 * math.sqrt(3), 0.0)


def test_column_letters_run_like_spreadsheet_columns() -> None:
    assert [column_letters(i) for i in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == [
        "A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"]


def test_offset_rows_and_columns_are_straight_on_the_page() -> None:
    layout = HexLayout(POINTY, 5.0, (0.0, 0.0))
    by_row: dict[int, set[float]] = {}
    for q in range(-6, 6):
        for r in range(-6, 6):
            _, row = offset_coordinates(layout, Hex(q, r))
            by_row.setdefault(row, set()).add(round(layout.hex_to_point(Hex(q, r))[1], 6))
    assert all(len(ys) == 1 for ys in by_row.values())

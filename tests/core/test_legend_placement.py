"""Legend blocks placed in a free area (boardgen/layout/legend.py): the nearest position to each anchor, a
reused ``FreeArea`` giving the same placements as a fresh one, and the search over block orders giving what
trying each order in turn gives (the first order that places every block, else the first order's error)."""

from __future__ import annotations

import itertools
import random

import pytest
import shapely
import shapely.affinity
from shapely.geometry import Point, box

from boardgen.errors import LayoutError
from boardgen.layout.legend import (
    BlockSpec,
    FreeArea,
    PlacedBlock,
    free_area,
    joined_parts,
    place_blocks,
    place_in_some_order,
)


def _each_order_in_turn(area: shapely.Geometry, blocks: list[BlockSpec]) -> list[PlacedBlock] | str:
    first_error = ""
    for order in itertools.permutations(range(len(blocks))):
        try:
            placed = place_blocks(area, [blocks[i] for i in order])
        except LayoutError as exc:
            first_error = first_error or str(exc)
            continue
        by_name = {b.name: b for b in placed}
        return [by_name[b.name] for b in blocks]
    return first_error


def _random_case(rng: random.Random) -> tuple[shapely.Geometry, list[BlockSpec]]:
    width, height = rng.uniform(150, 300), rng.uniform(100, 250)
    holes = [Point(rng.uniform(0, width), rng.uniform(0, height)).buffer(rng.uniform(3, 60), quad_segs=4)
             for _ in range(rng.randint(0, 10))]
    area = box(6, 6, width, height)
    if holes:
        area = shapely.difference(area, shapely.union_all(holes))
    blocks = [BlockSpec(f"block {k}", tuple((round(rng.uniform(20, 130), 1), round(rng.uniform(10, 150), 1))
                                            for _ in range(rng.randint(1, 3))),
                        (rng.uniform(0, width), rng.uniform(0, height))) for k in range(rng.randint(2, 3))]
    return area, blocks


def test_block_goes_nearest_its_anchor_and_the_next_keeps_the_gap() -> None:
    area = box(0, 0, 200, 100)
    table, key = place_blocks(area, [BlockSpec("table", ((50, 80),), (0, 0)), BlockSpec("key", ((40, 20),), (0, 0))])
    assert (table.x_mm, table.y_mm) == (0, 0)
    assert (key.x_mm, key.y_mm) == (54, 0)  # 4 mm gap


def test_a_later_shape_must_earn_its_place() -> None:
    area = box(0, 0, 200, 100)
    shapes = ((120, 30), (60, 30))
    wide = place_blocks(area, [BlockSpec("title", shapes, (90, 0))])[0]
    assert (wide.shape_index, wide.x_mm) == (0, 80)  # 10 mm off its anchor beats the narrow one's 15 mm handicap
    narrow = place_blocks(area, [BlockSpec("title", shapes, (120, 0))])[0]
    assert (narrow.shape_index, narrow.x_mm) == (1, 120)  # the wide one would be 40 mm off


def test_reused_free_area_places_as_a_fresh_one() -> None:
    rng = random.Random(21)
    for _ in range(40):
        area, blocks = _random_case(rng)
        shared = FreeArea(area)
        results = []
        for where in (area, shared, shared):
            try:
                results.append(place_blocks(where, blocks))
            except LayoutError as exc:
                results.append(str(exc))  # type: ignore[arg-type]
        assert results[0] == results[1] == results[2]


def test_order_search_matches_each_order_in_turn() -> None:
    rng = random.Random(7)
    later_orders = 0
    for _ in range(80):
        area, blocks = _random_case(rng)
        expected = _each_order_in_turn(area, blocks)
        try:
            got: list[PlacedBlock] | str = place_in_some_order(area, blocks)
        except LayoutError as exc:
            got = str(exc)
        assert got == expected
        if not isinstance(expected, str):
            try:
                place_blocks(area, blocks)
            except LayoutError:
                later_orders += 1
    assert later_orders > 0  # some cases only place in another order


def test_no_order_places_them_all_raises_the_first_orders_error() -> None:
    area = box(0, 0, 100, 100)
    blocks = [BlockSpec("a", ((90, 60),), (0, 0)), BlockSpec("b", ((90, 60),), (0, 0))]
    with pytest.raises(LayoutError, match=r"no room for the b \(90 x 60 mm\)"):
        place_in_some_order(area, blocks)


def test_area_joined_from_parts_places_as_its_geometry() -> None:
    """A ``FreeArea`` made by ``without`` and ``union`` (its pixels the parts', as the legend's last fallback
    joins sections) places blocks where a fresh area of the same geometry does, also when the parts touch."""
    rng = random.Random(5)
    for case in range(30):
        left, blocks = _random_case(rng)
        right, _ = _random_case(rng)
        shift = rng.choice([left.bounds[2] + rng.uniform(5, 40), left.bounds[2] - 30.0])  # apart, or overlapping
        right = shapely.affinity.translate(right, shift, rng.uniform(-20, 20))
        taken = PlacedBlock("table", left.bounds[0], left.bounds[1], 40.0, 30.0, 0)
        shared = FreeArea(left)
        shared.pixels(1.0)  # sampled before the block is taken out, as plan_legend's section-1 area is
        joined = shared.without(taken, 4.0).union(FreeArea(right))
        fresh = shapely.union(shapely.difference(left, taken.polygon.buffer(4.0, join_style="mitre")), right)
        assert shapely.equals_exact(joined.geometry, fresh, 0.0), case
        results = []
        for where in (fresh, joined):
            try:
                results.append(place_in_some_order(where, blocks))
            except LayoutError as exc:
                results.append(str(exc))  # type: ignore[arg-type]
        assert results[0] == results[1], case


def test_joined_parts_are_the_union() -> None:
    """A coast's parts joined by merging only those that overlap cover what their union covers (islands apart,
    some overlapping each other or a larger part, some touching), and leave the same free area; cut to a window
    first, the same inside it."""
    import numpy as np

    rng = random.Random(3)
    window = box(20, 15, 160, 120)
    for _ in range(40):
        parts = [Point(rng.uniform(0, 200), rng.uniform(0, 150)).buffer(rng.uniform(1, 25), quad_segs=rng.randint(2, 6))
                 for _ in range(rng.randint(1, 30))]
        parts += [box(10, 10, 40, 30), box(40, 10, 60, 30)]  # touching along an edge
        array = np.array(parts, dtype=object)
        expected = shapely.union_all(array)
        expected_area = free_area(window, (200, 150), [], expected, cut_margin_mm=0.0)
        for within in (None, window.buffer(5.0)):
            joined = joined_parts(array, within)
            assert joined.is_valid
            assert shapely.symmetric_difference(joined, expected).intersection(window).area < 1e-9
            area = free_area(window, (200, 150), [], joined, cut_margin_mm=0.0)
            assert shapely.symmetric_difference(area, expected_area).area < 1e-9


def test_joined_parts_keep_the_unions_vertices_when_parts_overlap_in_pairs() -> None:
    """Where parts overlap only in pairs (as on the board's coast), the joined parts and the free area left
    by them have the union's very vertices (only their order differs), so blocks go where they went."""
    import numpy as np

    rng = random.Random(5)
    for _ in range(30):
        parts = []
        for k in range(rng.randint(1, 12)):  # islands in a row of cells, some a pair that overlaps
            x, y = 15 + 30 * (k % 6), 20 + 50 * (k // 6)
            parts.append(Point(x, y).buffer(rng.uniform(2, 9), quad_segs=rng.randint(2, 6)))
            if rng.random() < 0.4:
                parts.append(Point(x + rng.uniform(-6, 6), y + rng.uniform(-6, 6)).buffer(rng.uniform(2, 6)))
        array = np.array(parts, dtype=object)
        expected = shapely.union_all(array)
        joined = joined_parts(array)
        assert joined.normalize().equals_exact(expected.normalize(), 0)
        outline = box(0, 0, 200, 130)
        assert free_area(outline, (200, 130), [], joined, cut_margin_mm=0.0).normalize().equals_exact(
            free_area(outline, (200, 130), [], expected, cut_margin_mm=0.0).normalize(), 0)

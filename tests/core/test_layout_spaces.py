"""Boards as graphs of spaces: grids, tracks, tile layouts and fields build checked graphs the engine and the
art both read."""

from __future__ import annotations

import pytest

from boardgen.errors import LayoutError
from boardgen.layout.spaces import (
    Area,
    BoardGraph,
    Space,
    SpaceStyle,
    column_name,
    field,
    numbered_field,
    render,
    square_grid,
    tile_layout,
    track,
)
from boardgen.render.scene import Group, Text


def test_square_grid_has_8_way_neighbours_and_chess_ids() -> None:
    g = square_grid(24, 24, 25.4)
    assert len(g) == 576 and g.width_mm == pytest.approx(609.6)
    assert set(g["A1"].neighbours) == {"B1", "A2", "B2"}
    assert len(g["C3"].neighbours) == 8
    assert g["X24"].position_mm == pytest.approx((609.6 - 12.7, 609.6 - 12.7))
    assert g.distances("A1")["X24"] == 23  # diagonal moves
    four = square_grid(5, 5, 10.0, diagonal=False)
    assert len(four["C3"].neighbours) == 4 and four.distances("A1")["E5"] == 8
    assert column_name(0) == "A" and column_name(25) == "Z" and column_name(26) == "AA"


def test_square_grid_kinds_by_function_and_centred_on_a_bigger_board() -> None:
    g = square_grid(3, 2, 20.0, kinds=lambda c, r: "dark" if (c + r) % 2 else "light", width_mm=100, height_mm=60)
    assert [s.kind for s in g.spaces] == ["light", "dark", "light", "dark", "light", "dark"]
    assert g["A1"].bounds_mm.x == pytest.approx(20.0) and g["A1"].bounds_mm.y == pytest.approx(10.0)
    with pytest.raises(LayoutError, match="do not fit"):
        square_grid(10, 10, 20.0, width_mm=100, height_mm=100)


@pytest.mark.parametrize("n", [4, 7, 20, 33, 40])
def test_loop_track_runs_round_the_edge_and_closes(n: int) -> None:
    g = track(["plain"] * n, 500.0, 400.0, "loop", margin_mm=10.0)
    assert len(g) == n
    assert g["T1"].neighbours == (f"T{n}", "T2")
    cells = [s.bounds_mm for s in g.spaces]
    for a in cells:  # inside the margin, no overlaps
        assert a.x >= 10 - 1e-6 and a.right <= 490 + 1e-6 and a.y >= 10 - 1e-6 and a.bottom <= 390 + 1e-6
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            assert not a.inset(0.01).intersects(b.inset(0.01))
    for i in range(n):  # consecutive spaces touch (a walkable path)
        a, b = cells[i], cells[(i + 1) % n]
        assert a.outset(0.01).intersects(b.outset(0.01))


def test_serpentine_track_is_open_and_snakes() -> None:
    g = track(["a", "b"] * 10, 300.0, 200.0, "serpentine", labels=[f"S{i}" for i in range(20)])
    assert g["T1"].neighbours == ("T2",) and g["T20"].neighbours == ("T19",)
    assert g["T2"].label == "S1" and g["T2"].kind == "b" and g["T2"].data["index"] == 1
    for i in range(1, 20):
        a, b = g[f"T{i}"].bounds_mm, g[f"T{i + 1}"].bounds_mm
        assert a.outset(0.01).intersects(b.outset(0.01))


def test_tile_layout_neighbours_across_edges() -> None:
    g = tile_layout({"a": (0, 0), "b": (1, 0), "c": (1, 1), "d": (3, 3)}, 50.0, margin_mm=5.0)
    assert set(g["b"].neighbours) == {"a", "c"} and g["d"].neighbours == ()
    assert g.width_mm == 4 * 50 + 10
    with pytest.raises(LayoutError, match="both at"):
        tile_layout({"a": (0, 0), "b": (0, 0)}, 50.0)


def test_numbered_and_dice_fields() -> None:
    f = numbered_field(4, 3, 30.0)
    assert f.ids[:5] == ("1", "2", "3", "4", "5") and set(f["6"].neighbours) == {"2", "5", "7", "10"}
    d = numbered_field(6, 6, 30.0, address="dice")
    assert "3-5" in d and d["3-5"].data["dice"] == [3, 5] and len(d["1-1"].neighbours) == 2
    with pytest.raises(LayoutError, match="6 x 6"):
        numbered_field(7, 6, 30.0, address="dice")


def test_field_neighbours_share_an_edge_not_a_corner() -> None:
    areas = [Area("a", ((0, 0), (10, 0), (10, 10), (0, 10))), Area("b", ((10, 0), (20, 0), (20, 10), (10, 10))),
             Area("c", ((10, 10), (20, 10), (20, 20), (10, 20))), Area("d", ((0, 10), (10, 10), (5, 20)))]
    g = field(areas, 20, 20)
    assert set(g["a"].neighbours) == {"b", "d"}  # touches c only at a corner
    assert set(g["c"].neighbours) == {"b"}


def test_graph_checks_itself() -> None:
    with pytest.raises(LayoutError, match="not the other way round"):
        BoardGraph((Space("a", "a", "x", (1, 1), ("b",)), Space("b", "b", "x", (2, 2), ())), 10, 10)
    with pytest.raises(LayoutError, match="used twice"):
        BoardGraph((Space("a", "a", "x", (1, 1), ()), Space("a", "a", "x", (2, 2), ())), 10, 10)
    with pytest.raises(LayoutError, match="off the"):
        BoardGraph((Space("a", "a", "x", (11, 1), ()),), 10, 10)


def test_render_draws_every_space_in_its_kind_style() -> None:
    g = track(["start", "event", "plain", "event"], 200, 200, "loop")
    scene = render(g, {"event": SpaceStyle(fill="#f9a825", icon="die", name="Event")})
    groups = [op for op in scene.items if isinstance(op, Group) and op.name.startswith("space:")]
    assert [op.name for op in groups] == ["space:T1", "space:T2", "space:T3", "space:T4"]
    assert scene.count("icon:die") == 2
    assert [t.text for t in scene.walk() if isinstance(t, Text) and t.name == "space-kind"] == ["Event", "Event"]
    assert sorted(t.text for t in scene.walk() if isinstance(t, Text) and t.name == "space-label") == \
        ["1", "2", "3", "4"]

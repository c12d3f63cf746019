"""Marks that survive cutting (section number and neighbour hints inside each piece), the map scale bar, and
the board table matching the table card."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from shapely.geometry import Polygon

from boardgen.build import BuildContext
from boardgen.games.global_wellbeing.board_art import (
    TABLE,
    TABLE_CAPTION,
    TITLE_FONTS,
    board_scene,
    edition_name,
    scale_bar_steps,
)
from boardgen.games.global_wellbeing.kit import art_board
from boardgen.geomap.jigsaw import mark_ops, piece_marks, section_page
from boardgen.layout.section_marks import (
    ARROWS,
    Blocked,
    MarkSizes,
    SectionMark,
    _best_point,
    _disc,
    _edge_anchor,
    _edge_band,
    _hint_box,
    _shared_edge,
    free_area,
    hint_text,
    plan_section_marks,
)
from boardgen.layout.sections import hex_polygons
from boardgen.render.cairo_backend import text_width_mm
from boardgen.render.imposition import A4
from boardgen.render.scene import Text
from tests.board_tweaks import tweak, tweaked_config


@pytest.fixture(scope="module")
def ctx(default_ctx: BuildContext) -> BuildContext:
    return default_ctx


@pytest.fixture(scope="module")
def art(ctx):
    from boardgen.games.global_wellbeing.kit import build_board_art

    return build_board_art(ctx)


@pytest.fixture(scope="module")
def marks(art):
    return piece_marks(art.board, art.sections, art.coast_mm, [b.polygon for b in art.legend])


def test_every_piece_carries_its_number_and_every_neighbour_inside_its_outline(art, marks):
    for section in art.sections.sections:
        own = [m for m in marks if m.section == section.number]
        numbers = [m for m in own if m.kind == "number"]
        assert [m.text for m in numbers] == [str(section.number)]
        hints = {m.side: m.neighbour for m in own if m.kind == "neighbour"}
        assert hints == dict(section.neighbours)
        inner = section.outline_mm.buffer(-MarkSizes().edge_clear_mm + 1e-6)
        for m in own:
            assert inner.contains(m.footprint), (section.number, m.text)
            assert m.footprint.contains(shapely.Point(m.centre_mm))


def test_in_piece_marks_overlap_no_land_cell_legend_or_each_other(ctx, art, marks):
    board = ctx.board
    cells = [Polygon(board.hex_corners_mm(c)) for c in board.cells]
    for m in marks:
        hits = [c.label for c, poly in zip(board.cells, cells, strict=True) if poly.intersects(m.footprint)]
        assert hits == [], (m.section, m.text, hits)
        for block in art.legend:
            assert not block.polygon.intersects(m.footprint), (m.section, m.text, block.name)
    for i, a in enumerate(marks):
        for b in marks[i + 1:]:
            assert not a.footprint.intersects(b.footprint), (a.text, b.text)


def test_hint_text_fits_its_footprint_and_points_across_its_edge(marks):
    sizes = MarkSizes()
    for op in mark_ops(marks):
        if isinstance(op, Text) and op.name == "piece-neighbour":
            assert text_width_mm(op.text, op.font) <= sizes.hint_width_mm
    for m in marks:
        if m.kind == "neighbour":
            assert ARROWS[m.side] in m.text and str(m.neighbour) in m.text


def test_section_pages_draw_the_marks_but_the_poster_does_not(art, marks):
    page = section_page(art_board(art), art.sections.sections[4], A4.landscape())
    texts = [op.text for op in page.scene.walk() if isinstance(op, Text) and op.name == "piece-number"]
    assert texts == ["5"]
    hints = sorted(op.text for op in page.scene.walk() if isinstance(op, Text) and op.name == "piece-neighbour")
    assert hints == sorted(m.text for m in marks if m.section == 5 and m.kind == "neighbour")
    assert board_scene(art).count("piece-number") == 0


def test_scale_bar_measures_true_km_along_the_equator(ctx, art):
    import pyproj

    from boardgen.geomap.projection.fit import BoardProjection

    projection = BoardProjection.from_config(ctx.config)
    lon0 = projection.central_meridian_deg
    x_mm, _ = projection.to_mm(np.array([lon0 - 30.0, lon0 + 30.0]), np.array([0.0, 0.0]))
    _, _, metres = pyproj.Geod(ellps="WGS84").inv(lon0 - 30.0, 0.0, lon0 + 30.0, 0.0)
    km_per_mm = metres / 1000 / (x_mm[1] - x_mm[0])
    assert ctx.board.equator_km_per_mm == pytest.approx(km_per_mm, rel=1e-3)
    scene = board_scene(art)
    bars = [op for op in scene.walk() if getattr(op, "name", "") == "scale-bar"]
    labels = [op.text for op in scene.walk() if getattr(op, "name", "") == "scale-bar-label"]
    step_km, step_mm = scale_bar_steps(km_per_mm)
    assert len(bars) == 3 and all(b.rect.width == pytest.approx(step_mm, abs=1e-3) for b in bars)
    assert labels[-1] == f"{3 * step_km:,} km"
    total_mm = sum(b.rect.width for b in bars)
    assert 3 * step_km == pytest.approx(total_mm * km_per_mm, rel=1e-3)
    assert 30.0 <= total_mm <= 60.0
    note = next(op.text for op in scene.walk() if getattr(op, "name", "") == "scale-note")
    assert f"1 cm ≈ {round(km_per_mm * 10, -1):,.0f} km along the equator" in note


def test_scale_bar_sits_in_the_title_block_on_open_sea(ctx, art):
    title = next(b for b in art.legend if b.name == "title")
    bars = [op for op in board_scene(art).walk() if getattr(op, "name", "") in ("scale-bar", "scale-bar-label")]
    assert bars
    for op in bars:
        if hasattr(op, "rect"):
            r = op.rect
            assert title.polygon.contains(shapely.box(r.x, r.y, r.right, r.bottom))
        else:
            assert title.polygon.contains(shapely.Point(op.x, op.y))
    cells = shapely.union_all([Polygon(ctx.board.hex_corners_mm(c)) for c in ctx.board.cells])
    assert not title.polygon.intersects(cells)


def test_board_table_matches_the_card(ctx, art):
    config = ctx.config
    scene = board_scene(art)
    texts = {op.name: op.text for op in scene.walk() if isinstance(op, Text) and op.name == "table-caption"}
    assert texts["table-caption"] == TABLE_CAPTION == "Bio-productivity index"
    values = [op for op in scene.walk() if isinstance(op, Text) and op.name == "table-value"]
    assert all(op.align == "left" for op in values)
    first_column = [int(op.text) for op in values[: config.zones[next(iter(config.zones))].die]]
    # the card's order (cards/tables.table_rows): the largest die at the top down to the smallest minimum
    assert first_column == sorted(first_column, reverse=True)
    ys = [op.y for op in values[: len(first_column)]]
    assert ys == sorted(ys)
    dice = [op.text for op in scene.walk() if getattr(op, "name", "") == "table-die-label"]
    assert dice == [f"d{z.die}" for z in config.zones.values()]
    assert TABLE.row_mm >= 9.0  # a zone marker fits one box (notes/table-geometry.md)


def test_title_in_the_sans_family_and_a_human_edition_line(ctx, art):
    assert all(f.family == "DejaVu Sans" and f.bold for f in TITLE_FONTS)
    scene = board_scene(art)
    title = next(op for op in scene.walk() if getattr(op, "name", "") == "board-title")
    assert title.font.family == "DejaVu Sans" and title.text == ctx.config.title
    edition = next(op.text for op in scene.walk() if getattr(op, "name", "") == "board-edition")
    assert ctx.config.edition not in edition and "global wellbeing" not in edition
    assert edition_name(ctx.config) == "Global Wellbeing"
    assert f"{len(ctx.board.cells)} land cells" in edition


def test_geojson_lists_each_pieces_marks(ctx):
    import json

    from boardgen.kit.stages import sections_stage

    outputs = {a.path: a.data for a in sections_stage(ctx)}
    data = json.loads(outputs["sections.geojson"])
    for feature in data["features"]:
        props = feature["properties"]
        kinds = [m["kind"] for m in props["marks"]]
        assert kinds.count("number") == 1 and kinds.count("neighbour") == len(props["neighbours"])



def _plain_marks(layout, land_cells, coast, legend):
    """``plan_section_marks`` the plain way: for each piece, the whole coast near it buffered and every obstacle
    united, then taken out of its inner area at once; each mark placed is then cut from the whole free area."""
    sizes = MarkSizes()
    marks = []
    outlines = {s.number: s.outline_mm for s in layout.sections}
    cells = shapely.union_all(list(land_cells)).buffer(sizes.land_clear_mm, quad_segs=2)
    coast_parts = shapely.simplify(np.array(list(coast), dtype=object), 0.4)
    for section in layout.sections:
        outline = section.outline_mm
        frame = shapely.box(*outline.bounds)
        parts = [shapely.intersection(cells, frame)]
        near = [p for p in coast_parts[shapely.intersects(coast_parts, frame.buffer(1.0, join_style="mitre"))]
                if p.geom_type == "Polygon" and not p.is_empty]
        if near:
            parts.append(shapely.buffer(shapely.MultiPolygon(near), 0.9, quad_segs=2))
        parts.extend(b.buffer(1.5, join_style="mitre") for b in legend if b.intersects(outline))
        free = shapely.difference(outline.buffer(-sizes.edge_clear_mm, join_style="mitre"), shapely.union_all(parts))
        x0, y0, x1, y1 = section.bounds_mm
        r = sizes.number_radius_mm
        corners = ((x0, y0), (x1, y0), (x0, y1), (x1, y1))
        centre = next((c for c in (_best_point(free, r, k, sizes.corner_reach_mm) for k in corners) if c), None)
        if centre is None:
            centre = _best_point(free, r, corners[0])
        if centre is not None:
            footprint = _disc(centre, r)
            marks.append(SectionMark(section.number, "number", str(section.number), centre, footprint))
            free = shapely.difference(free, footprint.buffer(1.5))
        hint_radius = ((sizes.hint_width_mm / 2) ** 2 + (sizes.hint_height_mm / 2) ** 2) ** 0.5
        for side, number in section.neighbours.items():
            edge = _shared_edge(section, outlines[number].buffer(1e-3))
            if edge.is_empty:
                continue
            band = shapely.intersection(free, _edge_band(edge, sizes.hint_reach_mm))
            centre = _best_point(band, hint_radius, _edge_anchor(edge, side, section))
            if centre is None:
                continue
            footprint = _hint_box(centre, sizes)
            marks.append(SectionMark(section.number, "neighbour", hint_text(side, number), centre, footprint,
                                     side=side, neighbour=number))
            free = shapely.difference(free, footprint.buffer(1.5))
    return tuple(marks)


def _marks_both_ways(art):
    args = (list(hex_polygons(art.board)), art.coast_mm, [b.polygon for b in art.legend])
    return plan_section_marks(art.sections, *args), _plain_marks(art.sections, *args)


def _assert_same_marks(quick, plain):
    assert [(m.section, m.kind, m.text, m.centre_mm, m.side, m.neighbour) for m in quick] == [
        (m.section, m.kind, m.text, m.centre_mm, m.side, m.neighbour) for m in plain]
    assert all(a.footprint.equals_exact(b.footprint, 0.0) for a, b in zip(quick, plain, strict=True))


def test_marks_placed_piece_by_piece_are_the_plain_way_s_marks(art):
    """The shortcuts (the coast cut to each piece's frame before it is buffered, the obstacles taken out one by
    one, the marks already placed cut from a hint's band rather than from the whole free area) place every mark
    where the plain way does, to the digit."""
    quick, plain = _marks_both_ways(art)
    assert len(quick) == 9 + sum(len(s.neighbours) for s in art.sections.sections)
    _assert_same_marks(quick, plain)
    for section in art.sections.sections:  # the free areas differ by slivers of the cut's 0.1 micrometre grid
        outline = section.outline_mm
        blocked = Blocked.of(list(hex_polygons(art.board)), art.coast_mm, [b.polygon for b in art.legend],
                             MarkSizes())
        quick_area = free_area(section, blocked, MarkSizes())
        assert quick_area.area > 1000.0 and quick_area.within(outline)
        assert all(not quick_area.intersects(b.polygon) for b in art.legend)


@pytest.mark.slow
@pytest.mark.parametrize("changes", [
    tweak(board="A1"), tweak(antarctica=True), tweak(projection="+proj=wintri +lon_0=150"), tweak(cells=600),
    tweak(board="50x35cm")], ids=["A1", "antarctica", "pacific", "600 cells", "50x35cm"])
def test_tweaked_boards_marks_are_the_plain_way_s_marks(changes):
    from boardgen.games.global_wellbeing.kit import build_board_art

    _assert_same_marks(*_marks_both_ways(build_board_art(BuildContext(tweaked_config(changes)))))

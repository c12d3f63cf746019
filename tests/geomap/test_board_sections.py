"""The 3 x 3 jigsaw cut: exact partition, no land cell cut, knobs in open sea, one way to fit."""

from __future__ import annotations

import itertools

import pytest
import shapely
from board_fixtures import synthetic_board
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon, box

from boardgen.errors import LayoutError
from boardgen.geomap.model import Board
from boardgen.layout import fit_solver
from boardgen.layout.jigsaw import GRID_MM
from boardgen.layout.sections import cut_sections, piece_signatures


@pytest.fixture(scope="session")
def real_board(default_board: Board) -> Board:
    return default_board


@pytest.fixture(scope="session", params=["synthetic", "real"])
def board_and_layout(request, real_board):
    board = synthetic_board() if request.param == "synthetic" else real_board
    return board, cut_sections(board)


def test_nine_sections_in_reading_order(board_and_layout):
    _, layout = board_and_layout
    assert [s.number for s in layout.sections] == list(range(1, 10))
    assert [(s.row, s.column) for s in layout.sections] == [(r, c) for r in range(3) for c in range(3)]
    centre = layout.sections[4]
    assert dict(centre.neighbours) == {"top": 2, "right": 6, "bottom": 8, "left": 4}
    assert dict(layout.sections[0].neighbours) == {"right": 2, "bottom": 4}
    assert len(layout.edges) == 12 and len(layout.knobs) == 12


def test_union_is_the_board_and_sections_do_not_overlap(board_and_layout):
    board, layout = board_and_layout
    board_rect = box(0, 0, board.config.board.width_mm, board.config.board.height_mm)
    union = shapely.union_all([s.outline_mm for s in layout.sections], grid_size=GRID_MM)
    assert shapely.area(shapely.symmetric_difference(union, board_rect)) < 1e-6
    assert abs(sum(s.outline_mm.area for s in layout.sections) - board_rect.area) < 1e-3
    for a, b in itertools.combinations(layout.sections, 2):
        assert shapely.area(shapely.intersection(a.outline_mm, b.outline_mm)) < 1e-6, (a.number, b.number)
    for s in layout.sections:
        assert s.outline_mm.geom_type == "Polygon" and s.outline_mm.is_valid
        assert len(s.outline_mm.interiors) == 0


def test_no_land_cell_is_split(board_and_layout):
    board, layout = board_and_layout
    seen = []
    for section in layout.sections:
        for label in section.cells:
            hexagon = Polygon(board.hex_corners_mm(board.cell(label)))
            inside = section.outline_mm.intersection(hexagon).area / hexagon.area
            on_board = hexagon.intersection(box(0, 0, 660, 440)).area / hexagon.area
            assert inside == pytest.approx(on_board, abs=1e-4), label
            seen.append(label)
    assert sorted(seen) == sorted(board.labels)


def test_knobs_sit_in_open_sea_on_their_edge(board_and_layout):
    board, layout = board_and_layout
    land = shapely.union_all([Polygon(board.hex_corners_mm(c)) for c in board.cells])
    for knob in layout.knobs:
        if knob.cell:  # a hexagonal tab: exactly one whole land cell (see test_cell_tabs_...)
            continue
        assert not knob.outline_mm.intersects(land.buffer(board.config.sections.land_clearance_mm - 0.01))
        tab_side = layout.sections[knob.owner].outline_mm
        assert shapely.area(shapely.difference(knob.outline_mm, tab_side)) < 1e-6
        # the tab really reaches across the straight line by the knob depth
        depth = board.config.sections.knob_depth_mm
        assert max(knob.outline_mm.bounds[2] - knob.outline_mm.bounds[0],
                   knob.outline_mm.bounds[3] - knob.outline_mm.bounds[1]) == pytest.approx(depth + 0.6, abs=0.05)


def test_knob_offsets_are_distinct(board_and_layout):
    board, layout = board_and_layout
    offsets = sorted(k.owner_offset_mm() for k in layout.knobs)
    gaps = [b - a for a, b in itertools.pairwise(offsets)]
    assert min(gaps) >= board.config.sections.knob_spacing_mm - 1e-9


def test_assembly_is_unique(board_and_layout):
    board, layout = board_and_layout
    report = layout.fit
    assert report.unique
    assert len(report.assemblies) == 1
    assert report.assemblies[0] == tuple((s, 0) for s in range(9))
    assert report.raw_solutions == 4  # the one assembly, turned 0/90/180/270 degrees as a whole (sizes ignored)
    # with the cut sizes as a further constraint, still one assembly
    xs = (0.0, *layout.cuts_x_mm, 660.0)
    ys = (0.0, *layout.cuts_y_mm, 440.0)
    sizes = [(xs[c + 1] - xs[c], ys[r + 1] - ys[r]) for r in range(3) for c in range(3)]
    signatures = piece_signatures(3, 3, layout.knobs)
    sized = fit_solver.solve(signatures, 3, 3, board.config.sections.fit_tolerance_mm, lengths_mm=sizes)
    assert len(sized.assemblies) == 1 and not sized.impostors


def test_sections_fit_a4_and_letter_landscape(real_board):
    layout = cut_sections(real_board)
    bleed_mm, printer_margin_mm = 3.0, 6.35
    for page_w, page_h in ((297.0, 210.0), (279.4, 215.9)):
        for s in layout.sections:
            x0, y0, x1, y1 = s.bounds_mm
            assert x1 - x0 + 2 * bleed_mm <= page_w - 2 * printer_margin_mm - 10, (s.number, page_w)
            assert y1 - y0 + 2 * bleed_mm <= page_h - 2 * printer_margin_mm - 10, (s.number, page_h)


# ------------------------------------------------------------------------------------------- the fit solver


def _grid_pieces(offset_of_edge, chequer: bool = True) -> list[fit_solver.Piece]:
    """3 x 3 pieces with one knob per internal edge at the given offsets; tabs and blanks alternate in a
    chequer pattern like the real cut (or all tabs point right/down)."""
    sides: list[list] = []
    for k in range(9):
        r, c = divmod(k, 3)
        sides.append([None if r == 0 else [], None if c == 2 else [], None if r == 2 else [], None if c == 0 else []])
    for index, (a, b, vertical) in enumerate(_EDGES):
        o = offset_of_edge(index)
        kind = -1 if chequer and sum(divmod(a, 3)) % 2 else 1
        first_side, second_side = (1, 3) if vertical else (2, 0)
        sides[a][first_side].append((o, kind))
        sides[b][second_side].append((-o, -kind))
    return [tuple(None if s is None else tuple(s) for s in piece) for piece in sides]


_EDGES = [(r * 3 + c, r * 3 + c + 1, True) for r in range(3) for c in range(2)] + \
         [(r * 3 + c, r * 3 + c + 3, False) for r in range(2) for c in range(3)]


def test_symmetric_knobs_are_ambiguous():
    pieces = _grid_pieces(lambda i: 0.0)  # every knob in the middle of its edge
    report = fit_solver.solve(pieces, 3, 3, tolerance_mm=2.5)
    assert len(report.assemblies) == 576
    assert len(report.impostors) == 27
    with pytest.raises(LayoutError, match="different ways"):
        fit_solver.check_unique_fit(pieces, 3, 3, tolerance_mm=2.5)
    one_way = _grid_pieces(lambda i: 0.0, chequer=False)  # all tabs right/down: still a mirrored second way
    assert len(fit_solver.solve(one_way, 3, 3, tolerance_mm=2.5).assemblies) == 2


def test_knobs_closer_than_the_tolerance_are_ambiguous():
    pieces = _grid_pieces(lambda i: -33.0 + 6.0 * i)  # distinct offsets, 6 mm apart
    assert fit_solver.check_unique_fit(pieces, 3, 3, tolerance_mm=2.5).unique
    with pytest.raises(LayoutError):  # a sloppy tolerance lets different edges pass for each other
        fit_solver.check_unique_fit(pieces, 3, 3, tolerance_mm=12.5)


def test_distinct_offsets_are_unique():
    pieces = _grid_pieces(lambda i: -33.0 + 6.0 * i)
    report = fit_solver.check_unique_fit(pieces, 3, 3, tolerance_mm=2.5)
    assert report.raw_solutions == 4 and not report.impostors


def test_sides_mate_rules():
    tab, blank = ((5.0, 1),), ((-5.0, -1),)
    assert fit_solver.sides_mate(tab, blank, 1.0)
    assert not fit_solver.sides_mate(tab, ((5.0, -1),), 1.0)  # the blank would sit at the mirrored place
    assert not fit_solver.sides_mate(tab, ((-5.0, 1),), 1.0)  # two tabs do not interlock
    assert not fit_solver.sides_mate(None, blank, 1.0)
    assert fit_solver.sides_mate(tab, ((-5.9, -1),), 1.0)
    assert fit_solver.sides_mate(((5.0, 1, 11.0),), ((-5.0, -1, 11.0),), 1.0)
    assert not fit_solver.sides_mate(((5.0, 1, 11.0),), ((-5.0, -1, 8.0),), 1.0)  # head too big for the hole


def test_cell_tabs_where_the_cut_runs_through_land():
    """A land band along a whole cut line leaves no open sea: whole land cells become hexagonal tabs."""
    from dataclasses import replace

    from board_fixtures import _cells_from_land
    from shapely.geometry import MultiPolygon

    board = synthetic_board()
    land = MultiPolygon([box(400, 0, 460, 440)])
    cells = _cells_from_land(board.config, board.layout, land, lambda centre, zones: zones[0])
    crowded = replace(board, cells=cells, land_mm=land)
    layout = cut_sections(crowded)
    tabs = [k for k in layout.knobs if k.cell]
    assert len(tabs) >= 3  # the three edges along the band
    for knob in tabs:
        hexagon = Polygon(crowded.hex_corners_mm(crowded.cell(knob.cell)))
        assert shapely.symmetric_difference(knob.outline_mm, hexagon).area < 1e-3  # exactly one whole cell
        assert knob.cell in layout.sections[knob.owner].cells
        assert knob.size_mm == pytest.approx(2 * crowded.layout.size_mm, abs=1e-3)
    assert layout.fit.unique
    assert sorted(label for s in layout.sections for label in s.cells) == sorted(crowded.labels)


def test_layout_error_when_no_room_for_a_knob():
    from dataclasses import replace

    from board_fixtures import _cells_from_land
    from shapely.geometry import MultiPolygon

    board = synthetic_board()
    land = MultiPolygon([box(400, 0, 460, 440)])
    cells = _cells_from_land(board.config, board.layout, land, lambda centre, zones: zones[0])
    sections = board.config.sections.model_copy(update={"knob_depth_mm": 75.0, "columns": 3, "rows": 3})
    deep = board.config.model_copy(update={"sections": sections})
    crowded = replace(board, config=deep, cells=cells, land_mm=land)
    with pytest.raises(LayoutError, match="no room for a knob"):
        cut_sections(crowded, max_section_mm=None)


def test_small_page_takes_more_sections_and_a_pinned_grid_that_cannot_fit_names_both_keys():
    from dataclasses import replace

    from boardgen.errors import ConfigError

    board = synthetic_board()
    layout = cut_sections(board, max_section_mm=(200.0, 140.0))  # sections: auto
    assert layout.rows * layout.columns > 9
    for section in layout.sections:
        x0, y0, x1, y1 = section.bounds_mm
        assert x1 - x0 <= 200.0 and y1 - y0 <= 140.0
    pinned = replace(
        board,
        config=board.config.model_copy(
            update={"sections": board.config.sections.model_copy(update={"columns": 3, "rows": 3})}
        ),
    )
    with pytest.raises(
        ConfigError,
        match=r"sections.columns: 3 with sections.rows 3 .* expected sections.columns: "
        rf"{layout.columns} and sections.rows: {layout.rows}",
    ):
        cut_sections(pinned, max_section_mm=(200.0, 140.0))


def test_layout_error_when_no_open_sea_for_the_legend():
    from dataclasses import replace

    from board_fixtures import _cells_from_land
    from shapely.geometry import MultiPolygon

    from boardgen.games.global_wellbeing.board_art import plan_legend

    board = synthetic_board()
    land = MultiPolygon([box(10, 10, 205, 130)])  # the top-left section is one big continent
    crowded = replace(board, cells=_cells_from_land(board.config, board.layout, land, lambda c, z: z[0]), land_mm=land)
    with pytest.raises(LayoutError, match="no room for the"):
        plan_legend(crowded, cut_sections(crowded))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.floats(40, 620), st.floats(40, 400), st.floats(8, 45)), min_size=1, max_size=6))
def test_random_continents_cut_cleanly_or_fail_with_a_layout_error(blobs):
    """Any land: either a clean cut (exact partition, no land cell split, one way to fit) or a LayoutError."""
    from dataclasses import replace

    from board_fixtures import _cells_from_land
    from shapely.geometry import MultiPolygon, Point

    board = synthetic_board()
    union = shapely.union_all([Point(x, y).buffer(r) for x, y, r in blobs])
    land = MultiPolygon(list(getattr(union, "geoms", [union])))
    cells = _cells_from_land(board.config, board.layout, land, lambda c, z: z[0])
    if not cells:
        return
    candidate = replace(board, cells=cells, land_mm=land)
    try:
        layout = cut_sections(candidate)
    except LayoutError:
        return
    outlines = [s.outline_mm for s in layout.sections]
    union_all = shapely.union_all(outlines, grid_size=GRID_MM)
    assert shapely.area(shapely.symmetric_difference(union_all, box(0, 0, 660, 440))) < 1e-3
    for a, b in itertools.combinations(outlines, 2):
        assert shapely.area(shapely.intersection(a, b)) < 1e-3
    assert sorted(label for s in layout.sections for label in s.cells) == sorted(c.label for c in cells)
    assert layout.fit.unique


def test_every_hex_has_one_section(board_and_layout):
    from boardgen.geomap.hexgrid import hexes_covering
    from boardgen.layout.sections import assign_hexes

    board, layout = board_and_layout
    numbers = assign_hexes(board, layout)
    assert set(numbers) >= set(hexes_covering(board.layout, 660, 440))
    assert set(numbers.values()) <= set(range(1, 10))
    for section in layout.sections:
        for label in section.cells:
            assert numbers[board.cell(label).hex] == section.number


def test_no_sliver_too_thin_to_cut_by_hand(board_and_layout):
    """Every part of every section is at least 3 mm wide (no splinters of card along the stepped cuts)."""
    _, layout = board_and_layout
    for section in layout.sections:
        outline = section.outline_mm
        opened = outline.buffer(-1.5, join_style="mitre").buffer(1.5, join_style="mitre")
        lost = outline.difference(opened)
        splinters = [g for g in getattr(lost, "geoms", [lost]) if g.area > 0.1]
        assert not splinters, (section.number, [g.centroid.coords[0] for g in splinters])


def _band_board(band: tuple[float, float, float, float]):
    from dataclasses import replace

    from board_fixtures import _cells_from_land
    from shapely.geometry import MultiPolygon

    board = synthetic_board()
    land = MultiPolygon([box(*band)])
    return replace(board, cells=_cells_from_land(board.config, board.layout, land, lambda c, z: z[0]), land_mm=land)


def test_a_knob_that_would_overflow_the_page_goes_to_the_other_section_of_its_edge():
    """A land band across the board whose cells step 10 mm past the first cut line: section 6 (middle right)
    already reaches below its rectangle, so the chequer pattern's knob on its lower edge would make it 180.6 mm
    tall; on a 176 mm page section 9 carries that knob instead and the cut fits."""
    from boardgen.layout.jigsaw import preferred_owner
    from boardgen.layout.sections import _cut_sections

    board = _band_board((0, 130, 660, 160))
    layout = _cut_sections(board, 3, 3, (999.0, 176.0))
    assert max(s.bounds_mm[3] - s.bounds_mm[1] for s in layout.sections) <= 176.0
    knob = next(k for k in layout.knobs if (k.edge.first, k.edge.second) == (5, 8))
    assert knob.owner != preferred_owner(knob.edge, (3, 3)) and knob.owner == 8
    assert layout.fit.unique



def test_partition_check_names_two_sections_that_overlap_and_passes_sections_that_only_touch():
    from types import MappingProxyType

    from boardgen.layout.sections import Section, check_partition

    def section(number: int, outline: Polygon) -> Section:
        return Section(number, 0, number - 1, outline, (), MappingProxyType({}))

    board = box(0, 0, 30, 10)
    touching = [section(1, box(0, 0, 10, 10)), section(2, box(10, 0, 20, 10)), section(3, box(20, 0, 30, 10))]
    check_partition(touching, board)
    overlapping = [section(1, box(0, 0, 11, 10)), section(2, box(10, 0, 20, 10)), section(3, box(20, 0, 30, 10))]
    with pytest.raises(LayoutError, match=r"sections 1 and 2 overlap by 10\.000 mm²"):
        check_partition(overlapping, board)
    with pytest.raises(LayoutError, match=r"miss 10\.000 mm²"):
        check_partition(touching[:2] + [section(3, box(21, 0, 30, 10))], board)

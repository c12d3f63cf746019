"""Every sensible map tweak of the Global Wellbeing template lays out: the table, key and title on section 1 in
open sea (or in the reserved panel strip), no land cell under them, the sections fitting A4 and Letter and
together one way only, the cell count in its band, no legend text under 6 pt.

The fast cases run the layout solver without drawing; the slow matrix covers target cells 150-600, six world
projections, Pacific- and Atlantic-centred maps, Antarctica, pointy and flat hexes and boards from 50 x 35 cm
to A1, and builds whole kits for a subset of them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boardgen.errors import ConfigError, LayoutError
from boardgen.geomap.model import Board
from boardgen.geomap.spec import cell_count_band
from boardgen.layout.sections import DEFAULT_PAGE_SIZES_MM, cut_sections, grid_options
from tests.board_tweaks import layout_problems, solve_layout, tweak, tweaked_config

FAST_CASES = {
    "default": tweak(),
    "cells-200": tweak(cells=200),
    "robinson": tweak(projection="+proj=robin"),
    "board-60x40cm": tweak(board="60x40cm"),
    "board-A1": tweak(board="A1"),
}

SLOW_CASES = {
    **{f"cells-{n}": tweak(cells=n) for n in (150, 250, 280, 350, 400, 450, 600)},
    **{f"projection-{p}": tweak(projection=f"+proj={p}") for p in ("eqearth", "natearth", "moll", "eck4")},
    "pacific-centred": tweak(projection="+proj=wintri +lon_0=150"),
    "atlantic-centred": tweak(projection="+proj=wintri +lon_0=-30"),
    "antarctica": tweak(antarctica=True),
    "flat": tweak(orientation="flat"),
    **{f"board-{b}": tweak(board=b) for b in ("50x35cm", "80x50cm", "90x60cm")},
    "robinson-pacific-antarctica": {**tweak(projection="+proj=robin +lon_0=150"), **tweak(antarctica=True)},
    "eqearth-flat-450": {**tweak(projection="+proj=eqearth"), **tweak(orientation="flat", cells=450)},
    "moll-50x35-150": {**tweak(projection="+proj=moll"), **tweak(board="50x35cm", cells=150)},
    "eck4-A1-600-flat": {**tweak(projection="+proj=eck4"), **tweak(board="A1", cells=600, orientation="flat")},
    "natearth-atlantic-90x60-250": {**tweak(projection="+proj=natearth +lon_0=-30"),
                                    **tweak(board="90x60cm", cells=250)},
}


@pytest.mark.parametrize("name", sorted(FAST_CASES))
def test_layout_solver_places_everything(name: str) -> None:
    solved = solve_layout(tweaked_config(FAST_CASES[name]))
    assert layout_problems(solved) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SLOW_CASES))
def test_layout_solver_places_everything_across_the_matrix(name: str) -> None:
    solved = solve_layout(tweaked_config(SLOW_CASES[name]))
    assert layout_problems(solved) == []


def test_default_board_keeps_its_nine_sections_and_open_sea_legend(default_board) -> None:
    """66 x 44 cm still gives the seed's 3 x 3 sections on landscape pages, and the default's panels need no
    fallback (its map and legend are what they were before the solver)."""
    solved = solve_layout(default_board.config)
    assert (solved.sections.rows, solved.sections.columns) == (3, 3)
    assert solved.sections.page_mm == DEFAULT_PAGE_SIZES_MM[0]
    assert solved.board.config.board.panel_strip_mm is None
    table = next(b for b in solved.legend if b.name == "bio-productivity table")
    assert (table.x_mm, table.y_mm, table.width_mm, table.height_mm) == pytest.approx((6, 6, 77, 142), abs=0.6)


@pytest.mark.parametrize(("board", "expected"), [("66x44cm", (3, 3, 0)), ("50x35cm", (2, 4, 1)),
                                                 ("A1", (4, 4, 0)), ("80x50cm", (3, 5, 1))])
def test_automatic_grid_is_the_fewest_pieces_that_fit(board: str, expected: tuple[int, int, int]) -> None:
    """(rows, columns, page: 0 landscape, 1 portrait) for a 12.5 mm knob reach and 18 mm cut search."""
    from boardgen.yaml_reader import parse_length_mm
    from tests.board_tweaks import BOARD_SIZES

    size = tuple(parse_length_mm(v) for v in BOARD_SIZES[board])
    options = grid_options(size, 12.5, 18.0, DEFAULT_PAGE_SIZES_MM)  # type: ignore[arg-type]
    assert options[0] == expected
    rows, columns, page = options[0]
    page_w, page_h = DEFAULT_PAGE_SIZES_MM[page]
    # even split plus a knob on each cut side (the cut search may move lines 18 mm to save a piece)
    assert size[0] / columns + (25.0 if columns > 2 else 12.5) <= page_w + 2 * 18.0
    assert size[1] / rows + (25.0 if rows > 2 else 12.5) <= page_h + 2 * 18.0


def test_a_grid_whose_knob_overflows_the_page_fails_at_its_knobs_and_the_next_one_cuts() -> None:
    """On A1 sampled at 0.5 mm the fewest pieces (4 x 4 landscape) cannot be cut: the only knob between sections
    3 and 7 is a land cell that would make section 7 taller than the page. That cut fails as soon as the knob is
    chosen (not once every piece is made) and the next grid (3 x 6 portrait) cuts."""
    from boardgen.games.global_wellbeing.board_layout import panelled_board
    from boardgen.layout.sections import _cut_sections

    board = panelled_board(tweaked_config({**FAST_CASES["board-A1"], "map": {"raster": "0.5mm"}}))
    with pytest.raises(LayoutError, match=r"no free knob position between sections 3 and 7 that keeps both within "
                                          r"the page \(251.4 x 171.0 mm\)"):
        _cut_sections(board, 4, 4, DEFAULT_PAGE_SIZES_MM[0])
    layout = cut_sections(board, DEFAULT_PAGE_SIZES_MM)
    assert (layout.rows, layout.columns, layout.page_mm) == (3, 6, DEFAULT_PAGE_SIZES_MM[1])


def test_pinned_grid_that_cannot_fit_names_both_keys_and_the_smallest_that_does(default_board) -> None:
    import dataclasses

    config = tweaked_config({"board": {"width": "80cm", "height": "50cm"},
                             "sections": {"columns": 3, "rows": 3}})
    board = dataclasses.replace(default_board, config=config)  # the cut's check needs only sizes and knobs
    with pytest.raises(ConfigError) as caught:
        cut_sections(board, DEFAULT_PAGE_SIZES_MM)
    message = str(caught.value)
    assert "sections.columns" in message and "sections.rows" in message and "global-wellbeing.yaml" in message
    assert "expected sections.columns: 5 and sections.rows: 3" in message


@pytest.mark.parametrize(("changes", "step_mm"), [
    ({}, 0.5),  # the default board: 660 x 440 mm
    (tweak(board="A1"), 0.656),  # 1.72 times the board: sqrt(1.72) times the step
    (tweak(cells=150), 0.5),  # the board alone decides
    (tweak(board="50x35cm"), 0.5),  # never finer than 0.5 mm
    ({"board": {"width": "3000mm", "height": "3000mm"}}, 2.784),  # the largest board
    ({"board": {"width": "841mm", "height": "594mm"}, "map": {"raster": "0.4mm"}}, 0.4),  # a pinned step
])
def test_automatic_raster_samples_any_board_with_the_default_boards_pixels(changes: dict[str, Any],
                                                                           step_mm: float) -> None:
    import math

    from boardgen.geomap.spec import MAX_RASTER_PIXELS, raster_step_mm

    config = tweaked_config(changes)
    got = raster_step_mm(config.board, config.map)
    assert got == step_mm
    pixels = math.ceil(config.board.width_mm / got) * math.ceil(config.board.height_mm / got)
    assert pixels <= MAX_RASTER_PIXELS
    if config.map.raster_mm is None and got > 0.5:
        assert pixels == pytest.approx(math.ceil(660 / 0.5) * math.ceil(440 / 0.5), rel=0.01)


def test_cell_count_band_follows_the_target_or_the_template() -> None:
    assert cell_count_band(tweaked_config({}).hexes) == (291, 309)
    assert cell_count_band(tweaked_config(tweak(cells=150)).hexes) == (146, 154)
    assert cell_count_band(tweaked_config({"hexes": {"cell_count_range": [280, 320]}}).hexes) == (280, 320)
    with pytest.raises(ConfigError, match=r"hexes.cell_count_range: \[280, 320\] does not hold hexes.target_cells "
                                          r"\(200\); expected a range around it, e.g. \[194, 206\], or auto"):
        tweaked_config({"hexes": {"target_cells": 200, "cell_count_range": [280, 320]}})


def test_unreachable_cell_count_names_the_range_and_a_target_that_works() -> None:
    from boardgen.geomap.build import build_board

    with pytest.raises(ConfigError) as caught:
        build_board(tweaked_config(tweak(cells=12)))
    message = str(caught.value)
    assert "hexes.target_cells: 12 cells" in message and "outside [12, 12]" in message
    target = int(message.rsplit("hexes.target_cells: ", 1)[1])
    assert len(build_board(tweaked_config(tweak(cells=target))).cells) == target


def test_info_exits_non_zero_outside_the_band(tmp_path: Path, capsys) -> None:
    from boardgen.cli import main
    from boardgen.games.global_wellbeing.schema import default_template_path

    template = tmp_path / "narrow.yaml"
    template.write_text(f"extends: {default_template_path()}\nhexes: {{cell_count_range: [300, 300], "
                        "size: 10.5mm}\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        main(["info", "-t", str(template)])
    out = capsys.readouterr().out
    assert exit_info.value.code == 1
    assert "OUTSIDE 300-300" in out and "legend panels, tried in this order" in out


WHOLE_KITS = ("cells-150", "cells-600", "robinson-pacific-antarctica", "moll-50x35-150", "eck4-A1-600-flat",
              "natearth-atlantic-90x60-250", "board-60x40cm", "flat")


@pytest.mark.slow
@pytest.mark.parametrize("name", WHOLE_KITS)
def test_whole_kit_builds(name: str, tmp_path: Path) -> None:
    """The whole kit: board poster, sections on A4 and Letter, components, leaflet, validation without errors."""
    from boardgen.build import build

    changes = {**SLOW_CASES, **FAST_CASES}[name]
    config = tweaked_config({**changes, "simulate": {"validate_games": 40}})
    out_dir, ctx = build(config, tmp_path)
    names = {a.path for a in ctx.artifacts}
    assert {"board-poster.pdf", "board-sections-a4.pdf", "board-sections-letter.pdf", "leaflet-a4.pdf",
            "kit-a4.zip", "kit-letter.zip"} <= names
    validation = json.loads((out_dir / "report" / "validation.json").read_text())
    assert validation["counts"]["error"] == 0, [f for f in validation["findings"] if f["severity"] == "error"]
    solved = solve_layout(config)
    assert layout_problems(solved) == []
    # every word printed on the board (labels, legend, piece marks) is set at 6 pt or more
    from boardgen.games.global_wellbeing.board_art import MIN_PLAY_TEXT_PT, board_scene, make_art
    from boardgen.games.global_wellbeing.kit import board_marks
    from boardgen.geomap.jigsaw import mark_ops
    from boardgen.render.scene import Group, Text

    art = make_art(solved.board, solved.sections, solved.legend)
    ops: list[object] = [*board_scene(art).items, *mark_ops(board_marks(art))]
    sizes = set()
    while ops:
        op = ops.pop()
        if isinstance(op, Text):
            sizes.add(op.font.size_pt)
        elif isinstance(op, Group):
            ops.extend(op.items)
    assert sizes and min(sizes) >= MIN_PLAY_TEXT_PT


@pytest.mark.slow
@pytest.mark.parametrize("name", ["moll-50x35-150", "eck4-A1-600-flat"])
def test_rim_cells_export_to_longitude_and_latitude(name: str) -> None:
    """Oval and pointed outlines leave some cells' hexagons (even centres) beyond the world's outline: the
    exported polygons and centres are the parts on the globe, never NaN."""
    import math

    from boardgen.export import cells_geojson
    from boardgen.games.global_wellbeing.board_layout import panelled_board

    features = json.loads(cells_geojson(panelled_board(tweaked_config(SLOW_CASES[name]))))["features"]
    assert features
    for feature in features:
        assert math.isfinite(feature["properties"]["lon"]) and math.isfinite(feature["properties"]["lat"])
        assert feature["geometry"]["coordinates"]


@pytest.mark.slow
@pytest.mark.parametrize("board", ["50x35cm", "60x40cm", "66x44cm", "80x50cm", "90x60cm", "A1"])
@pytest.mark.parametrize("cells", [100, 450, 1000])
def test_hex_search_lands_within_three_percent(board: str, cells: int) -> None:
    """Any target from 100 to 1,000 on any board size lands in the automatic band (target +- 3%)."""
    from boardgen.geomap.build import build_board

    config = tweaked_config(tweak(cells=cells, board=board))
    low, high = cell_count_band(config.hexes)
    assert low <= len(build_board(config).cells) <= high


def _with_sections(board: Board, **changes: Any) -> Board:
    """``board`` with its template's sections settings changed (the cut needs only the board and those)."""
    import dataclasses

    config = board.config
    return dataclasses.replace(board, config=config.model_copy(
        update={"sections": config.sections.model_copy(update=changes)}))


def _named_mm(message: str, key: str) -> float:
    return float(message.rsplit(f"{key}: ", 1)[1].split("mm", 1)[0])


def test_pinned_grid_whose_knobs_find_no_room_names_a_grid_that_cuts(default_board) -> None:
    """A 6 x 6 grid leaves an edge with no open sea and no land cell to move across: the error names the file,
    the key and the grid that does cut, and that grid cuts."""
    board = _with_sections(default_board, columns=6, rows=6)
    with pytest.raises(ConfigError) as caught:
        cut_sections(board, DEFAULT_PAGE_SIZES_MM)
    message = str(caught.value)
    assert "global-wellbeing.yaml: sections.columns: no room for a knob" in message
    assert "expected sections.columns: 3 and sections.rows: 3 (or auto)" in message
    layout = cut_sections(_with_sections(board, columns=None, rows=None), DEFAULT_PAGE_SIZES_MM)
    assert (layout.columns, layout.rows) == (3, 3) and layout.fit.unique


def test_knobs_too_deep_for_any_grid_name_knobs_that_fit(default_board) -> None:
    """Knobs reaching 60 mm past every cut leave no grid that fits the page: the error names knob sizes that
    do, and the board then cuts with them."""
    board = _with_sections(default_board, knob_neck_mm=40.0, knob_head_mm=55.0, knob_depth_mm=60.0)
    with pytest.raises(ConfigError) as caught:
        cut_sections(board, DEFAULT_PAGE_SIZES_MM)
    message = str(caught.value)
    assert "sections.columns: auto with sections.rows auto" in message
    head, neck, depth = (_named_mm(message, key) for key in ("sections.knob_head", "knob_neck", "knob_depth"))
    assert depth < 60
    layout = cut_sections(_with_sections(board, knob_neck_mm=neck, knob_head_mm=head, knob_depth_mm=depth),
                          DEFAULT_PAGE_SIZES_MM)
    assert layout.fit.unique


@pytest.mark.slow
def test_knobs_with_no_room_on_an_edge_name_smaller_knobs_that_cut(default_board) -> None:
    """Big knobs kept 10 mm off land find no room on some edge of every grid: the error names smaller knobs,
    found by cutting the board with them, and they cut."""
    board = _with_sections(default_board, knob_neck_mm=25.0, knob_head_mm=35.0, knob_depth_mm=40.0,
                           land_clearance_mm=10.0)
    with pytest.raises(ConfigError) as caught:
        cut_sections(board, DEFAULT_PAGE_SIZES_MM)
    message = str(caught.value)
    assert "global-wellbeing.yaml: sections.knob_head: no room for a knob between sections" in message
    head, neck, depth = (_named_mm(message, key) for key in ("sections.knob_head", "knob_neck", "knob_depth"))
    assert head < 35
    layout = cut_sections(_with_sections(board, knob_neck_mm=neck, knob_head_mm=head, knob_depth_mm=depth),
                          DEFAULT_PAGE_SIZES_MM)
    assert layout.fit.unique


@pytest.mark.slow
def test_board_too_low_even_for_a_panel_strip_names_a_height_that_lays_out() -> None:
    """A 100 x 20 cm board cuts into two rows whose top-left section is too low for the table even in a panel
    strip: the error names a board height, found by running the solver, and that board lays out."""
    changes = {"board": {"width": "100cm", "height": "20cm"}}
    with pytest.raises(ConfigError) as caught:
        solve_layout(tweaked_config(changes))
    message = str(caught.value)
    assert "global-wellbeing.yaml: board.height: no room for the bio-productivity table" in message
    height = _named_mm(message, "expected board.height")
    assert 200 < height <= 400
    solved = solve_layout(tweaked_config({"board": {"width": "100cm", "height": f"{height:g}mm"}}))
    assert layout_problems(solved) == []


@pytest.mark.parametrize(("name", "sure"), [("default", False), ("board-60x40cm", True)])
def test_strip_decided_before_the_hex_search_only_when_sure(name: str, sure: bool) -> None:
    """The check made before the hex search says the table has no room only where it has none (the 60 x 40 cm
    board's top-left corner is land); the board then gets its strip without the template's map being built."""
    from boardgen.games.global_wellbeing.board_layout import table_has_no_room_on_section_one

    config = tweaked_config(FAST_CASES[name])
    assert table_has_no_room_on_section_one(config) is sure
    assert (solve_layout(config).board.config.board.panel_strip_mm is not None) is sure


@pytest.mark.parametrize(("name", "sure"), [("default", False), ("robinson", True)])
def test_strip_decided_before_the_cut_only_when_sure(name: str, sure: bool) -> None:
    """The check made on the template's map before it is cut says the table has no room only where the legend
    solver indeed finds none (Robinson's top-left corner): that map is then neither cut nor given a legend."""
    from boardgen.games.global_wellbeing.board_layout import (
        legend_for,
        table_has_no_room_beside_the_cells,
        table_room_before_the_hex_search,
    )
    from boardgen.geomap.cache import cached_board

    board = cached_board(tweaked_config(FAST_CASES[name]))
    assert table_has_no_room_beside_the_cells(board) is sure
    # the same answer when it may first look in the open sea found before the hex search
    _, sea_before_hexes = table_room_before_the_hex_search(board.config)
    assert sea_before_hexes is not None
    assert table_has_no_room_beside_the_cells(board, sea_before_hexes=sea_before_hexes) is sure
    if sure:
        with pytest.raises(LayoutError, match="no room for the bio-productivity table"):
            legend_for(board)
    else:
        assert len(legend_for(board)) == 3


@pytest.mark.parametrize("key", ["remove_cells", "zones"])
def test_override_of_a_sea_hex_names_the_nearest_land_cell(key: str) -> None:
    """A1, the top-left corner, is open sea: the error names the nearest land cell, and that one works."""
    from boardgen.geomap.build import build_board

    changes = {"overrides": {key: ["A1"] if key == "remove_cells" else {"A1": "Polar"}}}
    with pytest.raises(ConfigError) as caught:
        build_board(tweaked_config(changes))
    message = str(caught.value)
    assert "A1 is not a land cell; expected one, e.g. " in message
    label = message.rsplit("e.g. ", 1)[1]
    fixed = {"overrides": {key: [label] if key == "remove_cells" else {label: "Polar"}}}
    board = build_board(tweaked_config(fixed))
    assert (label not in board.labels) if key == "remove_cells" else (board.cell(label).zone == "Polar")

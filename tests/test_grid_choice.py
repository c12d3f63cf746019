"""The one grid chooser (layout/grid_choice.py) over both kinds of boards: the hex maps' jigsaw sections
(layout/sections.grid_options: cut lines that move, knobs and land cells reaching past them, portrait pages only
after landscape ones) and the grid games' boards (render/board_print.plan_cut: straight seams, one knob's depth per
piece, the squarest pieces before the page's turn). Each grid it ranks first fits its page, and nothing with fewer
pieces does."""

from __future__ import annotations

import pytest

from boardgen.layout.grid_choice import PartFits, choose_grids
from boardgen.layout.sections import DEFAULT_PAGE_SIZES_MM, grid_options, parts_fit
from boardgen.render.board_print import Knobs, plan_cut, printable_piece_mm
from boardgen.render.imposition import A4, LETTER


def _straight_fits(depth_mm: float) -> PartFits:
    return lambda length, parts, page: length / parts + (depth_mm if parts > 1 else 0) <= page


@pytest.mark.parametrize(("board_mm", "expected"), [((660.0, 440.0), (3, 3, 0)), ((500.0, 350.0), (2, 4, 1)),
                                                    ((841.0, 594.0), (4, 4, 0)), ((800.0, 500.0), (3, 5, 1))])
def test_hex_map_sections_take_the_fewest_pieces_landscape_first(board_mm: tuple[float, float],
                                                                 expected: tuple[int, int, int]) -> None:
    options = grid_options(board_mm, 12.5, 18.0, DEFAULT_PAGE_SIZES_MM)
    assert options[0] == expected
    fewer = [(r, c) for r in range(1, 7) for c in range(1, 7) if 2 <= r * c < expected[0] * expected[1]]
    for r, c in fewer:  # no grid with fewer pieces fits any page
        assert not any(parts_fit(board_mm[0], c, w, 12.5, 18.0) and parts_fit(board_mm[1], r, h, 12.5, 18.0)
                       for w, h in DEFAULT_PAGE_SIZES_MM)


@pytest.mark.parametrize("board_mm", [(420.0, 420.0), (600.0, 400.0), (297.0, 210.0), (900.0, 300.0),
                                      (500.0, 700.0)])
def test_grid_game_boards_take_the_fewest_squarest_pieces_that_fit(board_mm: tuple[float, float]) -> None:
    knobs = Knobs()
    cut, landscape = plan_cut(*board_mm, (A4, LETTER), knobs)
    pages = [printable_piece_mm((A4, LETTER), landscape=turn) for turn in (True, False)]
    rows, columns, page = choose_grids(board_mm, pages, _straight_fits(knobs.depth_mm), most_per_side=30,
                                       most_pieces=30, page_before_shape=False)[0]
    assert (cut.rows, cut.columns, landscape) == (rows, columns, page == 0)
    max_w, max_h = pages[page]
    for section in cut.sections:
        x0, y0, x1, y1 = section.bounds_mm
        assert x1 - x0 <= max_w + 1e-6 and y1 - y0 <= max_h + 1e-6


def test_the_callers_order_of_page_and_shape() -> None:
    """A 300 x 200 mm board in two pieces: two 300 x 100 strips on the landscape page, or two 150 x 200 pieces,
    squarer, on the portrait one. The hex maps take the earlier page, the grid games the squarer pieces."""
    pages = [(320.0, 150.0), (160.0, 320.0)]
    fits = _straight_fits(0.0)
    assert choose_grids((300.0, 200.0), pages, fits, most_per_side=6, page_before_shape=True)[0] == (2, 1, 0)
    assert choose_grids((300.0, 200.0), pages, fits, most_per_side=6, page_before_shape=False)[0] == (1, 2, 1)


def test_pinned_counts_and_limits() -> None:
    pages = [(250.0, 170.0)]
    fits = _straight_fits(10.0)
    assert all(c == 4 for _, c, _ in choose_grids((900.0, 600.0), pages, fits, most_per_side=6, columns=4))
    assert all(r * c <= 12 for r, c, _ in choose_grids((900.0, 600.0), pages, fits, most_per_side=6,
                                                         most_pieces=12))
    assert choose_grids((100.0, 100.0), pages, fits, most_per_side=6)[0] == (1, 1, 0)
    assert choose_grids((100.0, 100.0), pages, fits, most_per_side=6, fewest_pieces=2)[0][:2] in {(1, 2), (2, 1)}

"""The legend's placement: when land cells leave no room in section 1's open sea, the error names them."""

from __future__ import annotations

import dataclasses

import pytest

from boardgen.errors import LayoutError
from boardgen.games.global_wellbeing.board_art import plan_legend
from boardgen.games.global_wellbeing.board_layout import max_section_size_mm
from boardgen.geomap.model import Board
from boardgen.layout.sections import cut_sections


def test_cells_in_the_legends_way_are_named(default_board: Board) -> None:
    sections = cut_sections(default_board, max_section_size_mm())
    table = next(b for b in plan_legend(default_board, sections) if b.name == "bio-productivity table")
    # an islet's cell in the middle of the only spot the table fits
    h = default_board.layout.point_to_hex(table.x_mm + table.width_mm / 2, table.y_mm + table.height_mm / 2)
    islet = dataclasses.replace(default_board.cells[0], label="ZZ1", hex=h,
                                center_mm=default_board.layout.hex_to_point(h), neighbours=())
    board = dataclasses.replace(default_board, cells=(*default_board.cells, islet))
    with pytest.raises(LayoutError, match=r"no room for the bio-productivity table .*: land cell ZZ1 in the way "
                                          r"\(overrides.remove_cells"):
        plan_legend(board, sections)

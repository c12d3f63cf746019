"""Tweaked Global Wellbeing templates for the layout tests: the default template with a few keys changed, as a
designer would change them (target cells, projection, centre, Antarctica, hex orientation, board size).

``tweaked_config`` builds the Config; ``solve_layout`` runs the layout solver without drawing (the map with its
panel fallbacks, the jigsaw cut and its one-way-fit proof, the legend) and ``layout_problems`` lists what a case
gets wrong: the table off section 1 or over a land cell, a piece too big for its page, a cell count out of band,
text a player reads set under 6 pt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import shapely

from boardgen.games.global_wellbeing.schema import Config, template_with
from boardgen.geomap.model import Board
from boardgen.geomap.spec import cell_count_band
from boardgen.layout.legend import PlacedBlock
from boardgen.layout.sections import SectionLayout, cut_sections

BOARD_SIZES = {"50x35cm": ("50cm", "35cm"), "60x40cm": ("60cm", "40cm"), "66x44cm": ("66cm", "44cm"),
               "80x50cm": ("80cm", "50cm"), "90x60cm": ("90cm", "60cm"), "A1": ("841mm", "594mm")}


def tweak(cells: int | None = None, projection: str | None = None, antarctica: bool | None = None,
          orientation: str | None = None, board: str | None = None) -> dict[str, Any]:
    """The template keys a case changes (as a template would write them)."""
    changes: dict[str, Any] = {}
    if cells is not None:
        changes.setdefault("hexes", {})["target_cells"] = cells
    if orientation is not None:
        changes.setdefault("hexes", {})["orientation"] = orientation
    if projection is not None:
        changes.setdefault("map", {})["projection"] = projection
    if antarctica:
        changes.setdefault("map", {}).update({"antarctica": True, "frame_latitudes": [-90, 90]})
    if board is not None:
        width, height = BOARD_SIZES[board]
        changes["board"] = {"width": width, "height": height}
    return changes


def tweaked_config(changes: dict[str, Any]) -> Config:
    """The default template with ``changes`` (section -> keys) merged over it; messages name its file."""
    return template_with(changes)


@dataclass(frozen=True)
class SolvedLayout:
    board: Board
    sections: SectionLayout
    legend: tuple[PlacedBlock, ...]


def solve_layout(config: Config) -> SolvedLayout:
    """The board as the build makes it (with the legend's fallbacks), its cut and its legend; nothing drawn."""
    from boardgen.games.global_wellbeing.board_layout import legend_for, panelled_board, section_page_sizes_mm

    board = panelled_board(config)
    sections = cut_sections(board, section_page_sizes_mm())
    return SolvedLayout(board, sections, legend_for(board, sections))


def legend_text_sizes_pt(solved: SolvedLayout) -> list[float]:
    """Every font size the legend panels set (the ops the board picture draws for them)."""
    from boardgen.games.global_wellbeing.board_art import key_ops, table_ops, title_ops
    from boardgen.render.scene import Group, Text

    ops: list[Any] = []
    for block in solved.legend:
        if block.name == "title":
            ops.extend(title_ops(solved.board, block))
        elif block.name == "zone key":
            ops.extend(key_ops(solved.board.config, block))
        else:
            ops.extend(table_ops(solved.board.config, block))
    sizes = []
    while ops:
        op = ops.pop()
        if isinstance(op, Text):
            sizes.append(op.font.size_pt)
        elif isinstance(op, Group):
            ops.extend(op.items)
    return sizes


def layout_problems(solved: SolvedLayout) -> list[str]:
    """What the case gets wrong (empty when every check holds)."""
    from boardgen.games.global_wellbeing.board_art import MIN_PLAY_TEXT_PT, check_legend_clear
    from boardgen.games.global_wellbeing.board_layout import section_page_sizes_mm
    from boardgen.layout.sections import hex_polygons

    board, layout = solved.board, solved.sections
    problems = list(check_legend_clear(board, solved.legend, layout.sections[0].outline_mm,
                                       [s.outline_mm for s in layout.sections]))
    names = {b.name for b in solved.legend}
    if names != {"bio-productivity table", "zone key", "title"}:
        problems.append(f"legend blocks {sorted(names)}")
    cells = hex_polygons(board)
    for block in solved.legend:
        if shapely.intersects(block.polygon, cells).any():
            problems.append(f"{block.name} over a land cell")
    if not layout.fit.unique:
        problems.append(f"{len(layout.fit.assemblies)} assemblies, {len(layout.fit.impostors)} impostors")
    if layout.page_mm not in section_page_sizes_mm():
        problems.append(f"cut for page {layout.page_mm}")
    else:
        page_w, page_h = layout.page_mm
        for s in layout.sections:
            x0, y0, x1, y1 = s.bounds_mm
            if x1 - x0 > page_w + 1e-6 or y1 - y0 > page_h + 1e-6:
                problems.append(f"section {s.number} is {x1 - x0:.1f} x {y1 - y0:.1f} mm on a {layout.page_mm} page")
    low, high = cell_count_band(board.config.hexes)
    if not low <= len(board.cells) <= high:
        problems.append(f"{len(board.cells)} cells outside [{low}, {high}]")
    small = sorted({s for s in legend_text_sizes_pt(solved) if s < MIN_PLAY_TEXT_PT})
    if small:
        problems.append(f"legend text at {small} pt")
    return problems

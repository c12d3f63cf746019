"""The table of a game of Global Warming as it stands, for play in the browser (boardgen serve): every cell a
space named as actions name cells, and the cell each action is played on."""

from __future__ import annotations

from typing import Any

from boardgen.games.global_warming.rules.engine import DIRS, PAWN_BASE, PICK_BASE, PLACE_BASE, GWState, suit_of

TABLE_CELL_MM = 30.0  # a cell of the table as play in the browser draws it


def table_graph(state: GWState) -> Any:
    """The table as a ``BoardGraph``: every cell a space named as actions name it ("(x,y)"), labelled with the tile
    lying there (face up for everyone) and of that tile's suit as kind, or "sea"; 4-way neighbours."""
    from boardgen.layout.spaces import BoardGraph, Space

    g = state.game
    n = g.size
    spaces = []
    for cell in range(n * n):
        x, y = cell % n, cell // n
        tile = state.cell_tile[cell]
        x0, y0 = x * TABLE_CELL_MM, y * TABLE_CELL_MM
        outline = ((x0, y0), (x0 + TABLE_CELL_MM, y0), (x0 + TABLE_CELL_MM, y0 + TABLE_CELL_MM),
                   (x0, y0 + TABLE_CELL_MM))
        neighbours = tuple(g.cell_name(c) for _d, c in g.neighbours[cell])
        pawn = state.tile_pawn[tile] if tile >= 0 else -1
        data = {"tile": g.tile_name(tile) if tile >= 0 else None, "pawn": pawn + 1 if pawn >= 0 else None}
        spaces.append(Space(g.cell_name(cell), g.tile_name(tile) if tile >= 0 else "",
                            g.suit_names[suit_of(tile)] if tile >= 0 else "sea",
                            (x0 + TABLE_CELL_MM / 2, y0 + TABLE_CELL_MM / 2), neighbours, data, outline))
    return BoardGraph(tuple(spaces), n * TABLE_CELL_MM, n * TABLE_CELL_MM)


def action_cell(state: GWState, action: int) -> str | None:
    """The table cell an action is played on: where a tile goes, the tile taken, or where a pawn steps."""
    g = state.game
    n = g.size
    if action >= PLACE_BASE:
        return g.cell_name(action - PLACE_BASE)
    if action >= PICK_BASE:
        cell = state.tile_cell[action - PICK_BASE]
        return g.cell_name(cell) if cell >= 0 else None
    if action >= PAWN_BASE:
        pawn, d = divmod(action - PAWN_BASE, 4)
        tile = state.pawn_tile[pawn] if pawn < len(state.pawn_tile) else -1
        if tile < 0 or state.tile_cell[tile] < 0:
            return None
        cell = state.tile_cell[tile]
        x, y = cell % n + DIRS[d][0], cell // n + DIRS[d][1]
        return g.cell_name(y * n + x) if 0 <= x < n and 0 <= y < n else None
    return None

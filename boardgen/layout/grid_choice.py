"""The one chooser of how many rows and columns of pieces a board is cut into so that every piece prints on a page.

Both kinds of boards use it: the hex maps' jigsaw sections (layout/sections.py, whose cut lines move to cross less
land and whose pieces reach past them with knobs and stepped land cells) and the grid games' boards
(render/board_print.plan_cut, whose seams keep spaces whole). Each caller says, through ``part_fits``, whether a
length cut into n parts fits a page's length with its own knobs and rules; the chooser enumerates the grids and
ranks them: the fewest pieces first, then the caller's order of the page (its index in ``pages``, e.g. landscape
before portrait) and the shape of the pieces (the squarest first), then fewer rows.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

PartFits = Callable[[float, int, float], bool]
"""part_fits(length_mm, parts, page_length_mm): whether ``length_mm`` cut into ``parts`` fits ``page_length_mm``."""


def choose_grids(board_mm: tuple[float, float], pages: Sequence[tuple[float, float]], part_fits: PartFits,
                 most_per_side: int, most_pieces: int | None = None, fewest_pieces: int = 1,
                 columns: int | None = None, rows: int | None = None, page_before_shape: bool = True
                 ) -> list[tuple[int, int, int]]:
    """(rows, columns, page index) of every grid whose pieces fit a page (``part_fits`` along both axes), best
    first: the fewest pieces, then the page and the pieces' shape (``|log(width / height)|`` of a piece), in the
    order ``page_before_shape`` says, then rows and columns. ``columns``/``rows`` pin that count; at most
    ``most_per_side`` each way and ``most_pieces`` in all, at least ``fewest_pieces``."""
    width_mm, height_mm = board_mm
    found = []
    for page, (page_w, page_h) in enumerate(pages):
        for c in [columns] if columns else range(1, most_per_side + 1):
            if not part_fits(width_mm, c, page_w):
                continue
            for r in [rows] if rows else range(1, most_per_side + 1):
                if r * c < fewest_pieces or (most_pieces is not None and r * c > most_pieces):
                    continue
                if not part_fits(height_mm, r, page_h):
                    continue
                shape = abs(math.log((width_mm / c) / (height_mm / r)))
                rank = (page, shape) if page_before_shape else (shape, page)
                found.append((r * c, *rank, r, c, page))
    found.sort()
    return [(r, c, page) for *_, r, c, page in found]

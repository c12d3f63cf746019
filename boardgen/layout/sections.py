"""The board cut into interlocking sections that print 1:1 on A4 or US Letter (the fewest that fit; 3 x 3 for
the default 66 x 44 cm board).

How the cut is made:

1. Each cut line is straight (a vertical line at some x, a horizontal one at some y, running the whole
   board), placed within ``sections.cut_search`` of the even split where it crosses the least land: the
   cost of a position is, summed over the land cells it crosses, the smaller of the cell's two parts.
2. Every land cell belongs wholly to the section holding most of its hexagon. Where a land cell sticks
   across a straight line, the cut steps round it along the cell's hex edges (ocean hexes may be cut).
3. Knobs (``jigsaw``) are added on the straight stretches in open sea, one per internal edge; where an edge
   has no open sea at all, a whole land cell beside the cut moves across instead (a hexagonal tab).
4. Checks: the sections' union is the board and they do not overlap, every section is one piece, every land
   cell lies wholly in one section, and ``fit_solver`` proves the pieces fit together one way only.

Everything is computed with snap-rounding to a 0.1 micrometre grid, so two neighbouring sections share
exactly the same boundary.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
import shapely
from shapely.geometry import LineString, MultiPolygon, Polygon, box

from boardgen.errors import ConfigError, LayoutError
from boardgen.geomap.hexgrid import Hex, hexes_covering
from boardgen.geomap.model import Board
from boardgen.geomap.spec import MAX_SECTIONS_PER_SIDE, SectionsConfig
from boardgen.layout import fit_solver
from boardgen.layout.grid_choice import choose_grids
from boardgen.layout.jigsaw import (
    GRID_MM,
    Edge,
    Knob,
    candidate_positions,
    knob_shape,
    owner_offset_mm,
    place_knob_shape,
    preferred_owner,
    spaced_choice,
)

SIDES: tuple[str, ...] = ("top", "right", "bottom", "left")

SPLINTER_MM = 3.0
"""Narrowest strip of card we leave between a knob and a step of the cut (thinner would tear when cut)."""

DEFAULT_MAX_SECTION_MM: tuple[float, float] = (251.4, 171.0)
"""Largest section, knobs included, whose trim fits the printable content area of both A4 and US Letter in
landscape with bleed, crop marks, header and ruler (render/imposition.content_area: A4 269 x 171 mm, Letter
251.4 x 176.9 mm). ``board_layout.max_section_size_mm`` computes it from the papers; a test keeps them equal."""


@dataclass(frozen=True)
class Section:
    number: int  # 1-based, in assembly (reading) order
    row: int
    column: int
    outline_mm: Polygon  # the cut outline, knobs included, in board mm
    cells: tuple[str, ...]  # labels of the land cells on this section, sorted
    neighbours: Mapping[str, int]  # side ("top", "right", "bottom", "left") -> neighbour's number

    @property
    def index(self) -> int:
        return self.number - 1

    @property
    def bounds_mm(self) -> tuple[float, float, float, float]:
        return tuple(self.outline_mm.bounds)  # type: ignore[return-value]


@dataclass(frozen=True)
class SectionLayout:
    rows: int
    columns: int
    board_mm: tuple[float, float]
    cuts_x_mm: tuple[float, ...]  # straight vertical cut lines (before stepping round land)
    cuts_y_mm: tuple[float, ...]
    sections: tuple[Section, ...]
    edges: tuple[Edge, ...]
    knobs: tuple[Knob, ...]
    fit: fit_solver.FitReport
    cut_cost_mm2: float  # land area the straight lines would have cut (the smaller parts), before stepping
    page_mm: tuple[float, float] | None = None  # the page content area the sections were cut to fit

    def section_of(self, label: str) -> Section:
        for section in self.sections:
            if label in section.cells:
                return section
        raise KeyError(label)

    def touching_pairs(self) -> list[tuple[int, int]]:
        """Every pair of sections (0-based indices) whose outlines share a stretch of boundary: the grid
        neighbours of ``edges`` first, in their order, then any other pair, e.g. diagonal neighbours that meet
        along one side of a hex tab."""
        pairs = [(e.first, e.second) for e in self.edges]
        seen = set(pairs)
        bounds = [s.bounds_mm for s in self.sections]
        for i, a in enumerate(self.sections):
            for j in range(i + 1, len(self.sections)):
                if (i, j) in seen or not _boxes_meet(bounds[i], bounds[j]):  # apart: no boundary in common
                    continue
                b = self.sections[j]
                if shapely.intersection(a.outline_mm.boundary, b.outline_mm.boundary, grid_size=GRID_MM).length > 0:
                    pairs.append((i, j))
        return pairs

    def cut_lines_mm(self) -> list[LineString]:
        """The internal cut lines (each shared boundary once, between any two sections that touch), for cut
        files and drawing."""
        lines: list[shapely.Geometry] = []
        for first, second in self.touching_pairs():
            shared = shapely.intersection(self.sections[first].outline_mm.boundary,
                                          self.sections[second].outline_mm.boundary, grid_size=GRID_MM)
            merged = shapely.line_merge(shared) if shared.geom_type == "MultiLineString" else shared
            lines.extend(getattr(merged, "geoms", [merged]))
        return [line for line in lines if line.geom_type == "LineString" and line.length > 0]


# ----------------------------------------------------------------------------------------------- cut lines


def _land_hexes(board: Board) -> np.ndarray:
    """Every land cell's hexagon on the GRID_MM grid (one GEOS call for all)."""
    if not board.cells:
        return np.array([], dtype=object)
    return shapely.set_precision(hex_polygons(board), GRID_MM)


def hex_polygons(board: Board) -> np.ndarray:
    """``Polygon(board.hex_corners_mm(cell))`` of every cell, as one array."""
    layout = board.layout
    centres = np.array([layout.hex_to_point(c.hex) for c in board.cells], dtype=float).reshape(-1, 2)
    return shapely.polygons(centres[:, None, :] + np.array(layout.corner_offsets()))


def hex_area_profile(board: Board, axis: int, step_mm: float = 0.01) -> tuple[np.ndarray, np.ndarray]:
    """(d, area) for one hexagon centred at 0: the area of its part with coordinate ``axis`` below d (read-only
    arrays, made once per hexagon shape: every cut of a board, whatever its grid, uses the same)."""
    return _hex_area_profile(tuple(board.layout.corner_offsets()), axis, step_mm)


@functools.lru_cache(maxsize=16)
def _hex_area_profile(corner_offsets: tuple[tuple[float, float], ...], axis: int, step_mm: float
                      ) -> tuple[np.ndarray, np.ndarray]:
    corners = np.array(corner_offsets)
    reach = float(np.abs(corners[:, axis]).max())
    d = np.arange(-reach - step_mm, reach + 2 * step_mm, step_mm)
    hexagon = Polygon(corners)
    big = 1e6
    halves = shapely.box(-big, -big, d, big) if axis == 0 else shapely.box(-big, -big, big, d)
    area = shapely.area(shapely.intersection(hexagon, halves))
    d.flags.writeable = False
    area.flags.writeable = False
    return d, area


@dataclass(frozen=True)
class _Land:
    """A board's land cells as every cut of it uses them, whatever the grid: made once for all the grids
    ``cut_sections`` tries (A1's first grid fails the page check, so its board is cut twice)."""

    hexes: np.ndarray  # each land cell's hexagon on the GRID_MM grid (``_land_hexes``)
    union: shapely.Geometry  # all of them, as one geometry
    centres_mm: np.ndarray  # (n, 2)

    @classmethod
    def of(cls, board: Board) -> _Land:
        hexes = _land_hexes(board)
        union = shapely.union_all(hexes, grid_size=GRID_MM) if len(hexes) else Polygon()
        centres = np.array([c.center_mm for c in board.cells]).reshape(-1, 2)
        for shared in (hexes, centres):  # read by every cut, written by none
            shared.flags.writeable = False
        return cls(hexes, union, centres)


def cut_costs(centres_mm: np.ndarray, profile: tuple[np.ndarray, np.ndarray], positions_mm: np.ndarray
              ) -> np.ndarray:
    """For each straight line position, the land it would cut: summed over the land hexes it crosses, the
    area of the smaller part (mm²). ``centres_mm``: the land hexes' centres along the axis."""
    d, area = profile
    total = float(area[-1])
    first = np.interp(positions_mm[:, None] - centres_mm[None, :], d, area, left=0.0, right=total)
    return np.minimum(first, total - first).sum(axis=1)


def choose_cuts(centres_mm: np.ndarray, profile: tuple[np.ndarray, np.ndarray], length_mm: float, parts: int,
                search_mm: float, max_part_mm: float | None, reach_mm: float, step_mm: float = 0.25
                ) -> tuple[list[float], float]:
    """Positions of the ``parts - 1`` straight cut lines along one axis and their total cost.

    Each line stays within ``search_mm`` of the even split. With ``max_part_mm``, every part plus ``reach_mm``
    beyond each of its cut sides (knobs, cells stepped round) must stay within it. Minimises the land cut,
    then the distance from the even split (dynamic programming over the lines in order)."""
    if parts == 1:
        return [], 0.0
    count = round(search_mm / step_mm)
    offsets = np.arange(-count, count + 1) * step_mm
    tie_break = 1e-3  # mm² of land per mm moved: only decides between equally good positions
    previous_pos = np.array([0.0])
    previous_score = np.array([0.0])
    back: list[np.ndarray] = []
    positions_by_cut: list[np.ndarray] = []
    for k in range(1, parts):
        positions = length_mm * k / parts + offsets
        score_here = cut_costs(centres_mm, profile, positions) + tie_break * np.abs(offsets)
        size = positions[:, None] - previous_pos[None, :]
        reach = reach_mm * (1 if k == 1 else 2)
        feasible = size > 0
        if max_part_mm is not None:
            feasible &= size + reach <= max_part_mm
        total = np.where(feasible, previous_score[None, :], np.inf)
        best = np.argmin(total, axis=1)
        previous_score = total[np.arange(len(positions)), best] + score_here
        back.append(best)
        positions_by_cut.append(positions)
        previous_pos = positions
    last = length_mm - previous_pos + reach_mm * (1 if parts > 1 else 0)
    if max_part_mm is not None:
        previous_score = np.where(last <= max_part_mm, previous_score, np.inf)
    i = int(np.argmin(previous_score))
    if not np.isfinite(previous_score[i]):
        raise LayoutError(f"board sections: cannot cut the board's {length_mm:g} mm into {parts} parts that fit "
                          f"the page ({max_part_mm:g} mm each, knobs included)")
    chosen = []
    for k in range(parts - 2, -1, -1):
        chosen.append(float(positions_by_cut[k][i]))
        i = int(back[k][i])
    chosen.reverse()
    cost = float(sum(cut_costs(centres_mm, profile, np.array(chosen))))
    return chosen, cost


# ----------------------------------------------------------------------------------------------- sections


def _as_polygons(geometry: shapely.Geometry) -> list[Polygon]:
    if geometry.is_empty:
        return []
    if geometry.geom_type == "Polygon":
        return [geometry]
    return [g for g in getattr(geometry, "geoms", []) if g.geom_type == "Polygon" and g.area > 0]


def _shared_length(a: shapely.Geometry, b: shapely.Geometry) -> float:
    return float(shapely.length(shapely.intersection(a.boundary, b.boundary, grid_size=GRID_MM)))


def _merge_fragments(pieces: list[shapely.Geometry], rects: Sequence[Polygon]) -> list[shapely.Geometry]:
    """Give every detached part of a section to the neighbour it shares the longest boundary with."""
    pieces = list(pieces)
    for _ in range(20):
        moved = False
        for k, geometry in enumerate(pieces):
            parts = _as_polygons(geometry)
            if len(parts) <= 1:
                continue
            main = max(parts, key=lambda p: (shapely.area(shapely.intersection(p, rects[k])), p.area))
            for part in parts:
                if part is main:
                    continue
                lengths = [(-_shared_length(part, other), j) for j, other in enumerate(pieces) if j != k]
                _, target = min(lengths)
                pieces[target] = shapely.union(pieces[target], part, grid_size=GRID_MM)
            pieces[k] = main
            moved = True
        if not moved:
            return pieces
    raise LayoutError("board sections: could not make every section one piece")


def _edges(rows: int, columns: int, xs: Sequence[float], ys: Sequence[float]) -> list[Edge]:
    edges = []
    for r in range(rows):
        for c in range(columns - 1):
            edges.append(Edge(r * columns + c, r * columns + c + 1, True, xs[c + 1], ys[r], ys[r + 1]))
    for r in range(rows - 1):
        for c in range(columns):
            edges.append(Edge(r * columns + c, (r + 1) * columns + c, False, ys[r + 1], xs[c], xs[c + 1]))
    return edges


def _cell_tabs(edge: Edge, owner: int, pieces: list[shapely.Geometry], hexes: np.ndarray, board: Board,
               margin_mm: float, reach_mm: float) -> list[_Candidate]:
    """Whole land cells of the neighbour that could move to ``owner`` as a hexagonal tab on ``edge``, reaching
    no further than ``reach_mm`` past the straight line (so the section still fits its page)."""
    giver = edge.second if owner == edge.first else edge.first
    owner_piece, giver_piece = pieces[owner], pieces[giver]
    others = [p for k, p in enumerate(pieces) if k not in (owner, giver)]
    found = []
    for cell, hexagon in zip(board.cells, hexes, strict=True):
        cx, cy = cell.center_mm
        along = cy if edge.vertical else cx
        x0, y0, x1, y1 = hexagon.bounds
        low, high = (x0, x1) if edge.vertical else (y0, y1)
        if max(abs(low - edge.fixed_mm), abs(high - edge.fixed_mm)) > reach_mm:
            continue
        if not edge.start_mm + margin_mm <= along <= edge.end_mm - margin_mm:
            continue
        if shapely.area(shapely.intersection(hexagon, giver_piece)) < hexagon.area * (1 - 1e-6):
            continue
        if _shared_length(hexagon, owner_piece) < 0.9 * board.layout.size_mm:
            continue
        if any(_shared_length(hexagon, other) > 1e-6 for other in others):
            continue
        grown = shapely.union(owner_piece, hexagon, grid_size=GRID_MM)
        shrunk = shapely.difference(giver_piece, hexagon, grid_size=GRID_MM)
        if any(g.geom_type != "Polygon" or len(g.interiors) for g in (grown, shrunk)):
            continue
        offset = owner_offset_mm(edge, along, owner)
        found.append((along, offset, owner, hexagon, cell.label, hexagon.bounds))
    return found


_Candidate = tuple[float, float, int, Polygon | None, str, tuple[float, float, float, float]]
"""(along_mm, owner offset, owner, outline or None for a round knob, cell label, the knob's bounds in board mm)"""


def _round_knobs(edge: Edge, owner: int, shape: Polygon, pair: shapely.Geometry, keep_clear: shapely.Geometry,
                 settings: SectionsConfig) -> list[_Candidate]:
    """The round knobs ``owner`` could carry on ``edge``: inside the two sections, clear of the land."""
    along_values = candidate_positions(edge, settings)
    if not along_values:
        return []
    template = place_knob_shape(shape, edge, 0.0, owner == edge.first, snap=False)
    coords = np.asarray(template.exterior.coords)
    shift = np.array([0.0, 1.0]) if edge.vertical else np.array([1.0, 0.0])
    moved = shapely.polygons(coords[None, :, :] + np.asarray(along_values)[:, None, None] * shift)
    ok = ~shapely.intersects(keep_clear, moved) & shapely.contains(pair, moved)
    alongs = np.asarray(along_values)[ok]
    offsets = owner_offset_mm(edge, alongs, owner)
    return [(along, offset, owner, None, "", tuple(bounds))
            for along, offset, bounds in zip(alongs.tolist(), offsets.tolist(), shapely.bounds(moved[ok]).tolist(),
                                             strict=True)]


def _other_owners_knobs(edge: Edge, owners: Sequence[int], shape: Polygon, pair: shapely.Geometry,
                        keep_clear: shapely.Geometry, settings: SectionsConfig) -> list[_Candidate]:
    """The round knobs the sections of ``owners`` (those the chequer pattern did not choose) could carry on
    ``edge``: made only when the chosen section's would all overflow the page."""
    return [c for owner in owners for c in _round_knobs(edge, owner, shape, pair, keep_clear, settings)]


def _place_knobs(edges: Sequence[Edge], pieces: list[shapely.Geometry], land: shapely.Geometry,
                 board: Board, rows: int, columns: int, hexes: np.ndarray, reach_mm: float,
                 max_section_mm: tuple[float, float] | None = None) -> list[Knob]:
    """One knob on every edge. ``max_section_mm``: no knob may make the section that carries it (with the knobs
    chosen before it) overflow the page; where the chequer pattern's owner has no such place, the other section
    of the edge carries it, and where neither has, the cut fails here rather than once the pieces are made."""
    settings = board.config.sections
    shape = knob_shape(settings)
    # at least SPLINTER_MM from land cells, so no splinter of card is left between a knob and a step in the cut
    clearance = max(settings.land_clearance_mm, SPLINTER_MM)
    keep_clear = shapely.buffer(land, clearance) if not land.is_empty else land
    shapely.prepare(keep_clear)
    options: list[tuple[int, Edge, list[_Candidate], Callable[[], list[_Candidate]]]] = []
    for index, edge in enumerate(edges):
        pair = shapely.union(pieces[edge.first], pieces[edge.second], grid_size=GRID_MM)
        shapely.prepare(pair)
        preferred = preferred_owner(edge, (rows, columns))
        owners = (preferred, edge.second if preferred == edge.first else edge.first)
        found: list[_Candidate] = []
        untried = list(owners)
        while untried and not found:  # the chequer pattern's owner; the other only when it has no place here
            found = _round_knobs(edge, untried.pop(0), shape, pair, keep_clear, settings)
        if not found:  # no open sea along this edge: a whole land cell becomes a hexagonal tab
            margin = settings.knob_depth_mm + board.layout.size_mm + 4.0
            for owner in owners:
                found.extend(_cell_tabs(edge, owner, pieces, hexes, board, margin, reach_mm + board.layout.size_mm))
            untried = []
        if not found:
            raise LayoutError(f"board sections: no room for a knob between sections {edge.first + 1} and "
                              f"{edge.second + 1} (no open sea and no land cell that can move across)")
        options.append((index, edge, found, functools.partial(_other_owners_knobs, edge, untried, shape, pair,
                                                              keep_clear, settings)))
    # Most constrained edges first; each takes the offset nearest its middle that keeps the spacing.
    options.sort(key=lambda item: (len({round(o[1], 3) for o in item[2]}), item[0]))
    used: list[tuple[float, float]] = []  # (owner offset, size) of the knobs chosen so far
    chosen: dict[int, Knob] = {}
    taken_cells: set[str] = set()
    extents = [list(piece.bounds) for piece in pieces]  # each section's bounds with the knobs chosen so far

    def fits(candidate: _Candidate) -> bool:
        if max_section_mm is None:
            return True
        (x0, y0, x1, y1), (kx0, ky0, kx1, ky1) = extents[candidate[2]], candidate[5]
        # (a round knob is measured before it is snapped to the grid: a grid step of slack)
        return (max(x1, kx1) - min(x0, kx0) <= max_section_mm[0] + GRID_MM
                and max(y1, ky1) - min(y0, ky0) <= max_section_mm[1] + GRID_MM)

    for index, edge, found, others in options:
        usable = [c for c in found if c[4] not in taken_cells and fits(c)]
        if not usable and found:
            usable = [c for c in others() if fits(c)]
        by_candidate = {(c[0], c[1]): c for c in usable}
        pick = spaced_choice([(c[0], c[1]) for c in usable], [o for o, _ in used], settings.knob_spacing_mm)
        if pick is None and usable:  # no offset unlike all others: take the most distinct, the solver decides
            pick = max(((c[0], c[1]) for c in usable),
                       key=lambda c: (min(abs(c[1] - o) for o, _ in used) if used else 0.0, -abs(c[1])))
        if pick is None:
            page = "" if max_section_mm is None else (f" that keeps both within the page ({max_section_mm[0]:.1f} x "
                                                      f"{max_section_mm[1]:.1f} mm)")
            raise LayoutError(f"board sections: no free knob position between sections {edge.first + 1} and "
                              f"{edge.second + 1}{page}")
        along, offset, owner, outline, label, _bounds = by_candidate[pick]
        if outline is None:
            chosen[index] = Knob(edge, along, owner, place_knob_shape(shape, edge, along, owner == edge.first),
                                 settings.knob_head_mm)
        else:
            chosen[index] = Knob(edge, along, owner, outline, round(2 * board.layout.size_mm, 3), label)
            taken_cells.add(label)
        kx0, ky0, kx1, ky1 = chosen[index].outline_mm.bounds
        x0, y0, x1, y1 = extents[owner]
        extents[owner] = [min(x0, kx0), min(y0, ky0), max(x1, kx1), max(y1, ky1)]
        used.append((offset, chosen[index].size_mm))
    return [chosen[i] for i in range(len(edges))]


def _apply_knobs(pieces: list[shapely.Geometry], knobs: Sequence[Knob]) -> list[shapely.Geometry]:
    pieces = list(pieces)
    for knob in knobs:
        other = knob.edge.second if knob.owner == knob.edge.first else knob.edge.first
        pieces[knob.owner] = shapely.union(pieces[knob.owner], knob.outline_mm, grid_size=GRID_MM)
        pieces[other] = shapely.difference(pieces[other], knob.outline_mm, grid_size=GRID_MM)
    return pieces


def piece_signatures(rows: int, columns: int, knobs: Sequence[Knob], with_sizes: bool = True
                     ) -> list[fit_solver.Piece]:
    """Each section's four sides for the fit solver: None on the border, else its knobs
    ((offset, tab/blank) and, with ``with_sizes``, the knob's size)."""
    sides: list[list[list[tuple[float, ...]] | None]] = []
    for k in range(rows * columns):
        r, c = divmod(k, columns)
        sides.append([None if r == 0 else [], None if c == columns - 1 else [],
                      None if r == rows - 1 else [], None if c == 0 else []])
    for knob in knobs:
        e = knob.edge
        first_side, second_side = (1, 3) if e.vertical else (2, 0)
        for section, side in ((e.first, first_side), (e.second, second_side)):
            bucket = sides[section][side]
            assert bucket is not None
            offset, kind = knob.offset_for(section)
            bucket.append((round(offset, 3), kind, knob.size_mm) if with_sizes else (round(offset, 3), kind))
    return [tuple(None if s is None else tuple(sorted(s)) for s in piece) for piece in sides]  # type: ignore[misc]


PageSizes = tuple[tuple[float, float], ...]

DEFAULT_PAGE_SIZES_MM: PageSizes = (DEFAULT_MAX_SECTION_MM, (182.0, 240.4))
"""The printable content areas a section may fill: A4 and Letter landscape, then portrait (the smaller of the two
papers each way; ``board_layout.section_page_sizes_mm`` computes them from the papers, a test keeps them equal)."""


def _page_sizes(max_section_mm: tuple[float, float] | PageSizes | None) -> PageSizes | None:
    if max_section_mm is None:
        return None
    if isinstance(max_section_mm[0], int | float):
        return (tuple(max_section_mm),)  # type: ignore[return-value]
    return tuple(max_section_mm)  # type: ignore[arg-type]


def knob_reach_mm(board: Board) -> float:
    """How far a section may reach past its straight cut line: a knob's tab or a land cell stepped round."""
    return max(board.config.sections.knob_depth_mm, board.layout.size_mm) + 0.5


def parts_fit(length_mm: float, parts: int, max_part_mm: float, reach_mm: float, search_mm: float) -> bool:
    """Whether ``length_mm`` can be cut into ``parts`` that each fit ``max_part_mm``, a part reaching ``reach_mm``
    past each of its cut lines, every line within ``search_mm`` of the even split (``choose_cuts``' rule)."""
    empty = np.zeros(0)
    try:
        choose_cuts(empty, (np.array([0.0, 1.0]), np.zeros(2)), length_mm, parts, search_mm, max_part_mm, reach_mm,
                    step_mm=max(0.25, search_mm / 40))
    except LayoutError:
        return False
    return parts > 1 or length_mm <= max_part_mm


def grid_options(board_mm: tuple[float, float], reach_mm: float, search_mm: float, pages: PageSizes,
                 columns: int | None = None, rows: int | None = None, most: int = MAX_SECTIONS_PER_SIDE
                 ) -> list[tuple[int, int, int]]:
    """(rows, columns, page index) of every grid whose sections (knobs included) fit a page, best first: the
    fewest pieces, then the earlier page (landscape before portrait), then the squarest pieces
    (``grid_choice.choose_grids``, with ``parts_fit``: cut lines that move and pieces that reach past them).
    ``columns`` or ``rows`` pin that count."""
    return choose_grids(board_mm, pages, lambda length, parts, page: parts_fit(length, parts, page, reach_mm,
                                                                               search_mm),
                        most_per_side=most, fewest_pieces=2, columns=columns, rows=rows, page_before_shape=True)


def smallest_grid_hint(board: Board, pages: PageSizes) -> str:
    """'sections.columns: 4 and sections.rows: 3' for the fewest pieces that fit the page by their size, else
    knobs that reach less far, else the largest board that 6 x 6 sections cover (the last resort of
    ``working_settings_hint``, when no setting it cut the board with worked)."""
    settings = board.config.sections
    size = (float(board.config.board.width_mm), float(board.config.board.height_mm))
    options = grid_options(size, knob_reach_mm(board), settings.cut_search_mm, pages)
    if options:
        r, c, _ = options[0]
        return f"sections.columns: {c} and sections.rows: {r} (or auto)"
    for scale in KNOB_SCALES:  # knobs that reach less far
        neck, head, depth = (round(v * scale, 1) for v in (settings.knob_neck_mm, settings.knob_head_mm,
                                                           settings.knob_depth_mm))
        reach = max(depth, board.layout.size_mm) + 0.5
        if grid_options(size, reach, settings.cut_search_mm, pages):
            return f"smaller knobs: sections.knob_head: {head:g}mm, knob_neck: {neck:g}mm and knob_depth: {depth:g}mm"
    reach, most = knob_reach_mm(board), MAX_SECTIONS_PER_SIDE
    longest = [max((length for length in range(100, 3001, 5)
                    if parts_fit(float(length), most, page[axis], reach, settings.cut_search_mm)), default=0)
               for axis in (0, 1) for page in pages[:1]]
    return (f"a board of at most {longest[0]} x {longest[1]} mm (board.width and board.height; "
            f"{most} x {most} sections at most)")


def cut_sections(board: Board, max_section_mm: tuple[float, float] | PageSizes | None = DEFAULT_PAGE_SIZES_MM
                 ) -> SectionLayout:
    """Cut ``board`` into its jigsaw sections (see the module's docstring); raises LayoutError if impossible.

    ``max_section_mm``: the (width, height) each section, knobs included, must fit (the printable area of the
    smallest paper, e.g. A4 and Letter landscape), or several such sizes (landscape, portrait): all sections fit
    one of them, the earliest that works; None: no limit (an automatic grid is then the default papers' one).
    With ``sections.columns``/``rows`` auto the grid is the one with the fewest pieces that fits
    (``grid_options``); a pinned grid that cannot fit is a ConfigError naming the smallest that does. Checked
    again on the finished outlines. A build computes it once, in its BuildContext (``board_layout.board_sections``).
    """
    settings = board.config.sections
    pages = _page_sizes(max_section_mm)
    if pages is None:  # no page limit: an automatic grid is the one the default papers would take
        rows, columns = settings.rows, settings.columns
        if rows is None or columns is None:
            size = (float(board.config.board.width_mm), float(board.config.board.height_mm))
            options = grid_options(size, knob_reach_mm(board), settings.cut_search_mm, DEFAULT_PAGE_SIZES_MM,
                                   columns, rows) or [(rows or 1, columns or 2, 0)]
            rows, columns, _ = options[0]
        return _cut_sections(board, rows, columns, None)
    board_mm = (float(board.config.board.width_mm), float(board.config.board.height_mm))
    options = grid_options(board_mm, knob_reach_mm(board), settings.cut_search_mm, pages, settings.columns,
                           settings.rows)
    if not options:
        pinned_columns = "auto" if settings.columns is None else settings.columns
        pinned_rows = "auto" if settings.rows is None else settings.rows
        page_text = " or ".join(f"{w:g} x {h:g} mm" for w, h in pages)
        raise ConfigError(board.config.source, "sections.columns",
                          f"{pinned_columns} with sections.rows {pinned_rows} cuts the {board_mm[0]:g} x "
                          f"{board_mm[1]:g} mm board into pieces that do not fit the page ({page_text} with knobs "
                          f"reaching {knob_reach_mm(board):.1f} mm past a cut); "
                          f"expected {working_settings_hint(board, pages)[1]}")
    try:
        return _cut_first_that_works(board, options, pages)
    except LayoutError as exc:
        key, hint = working_settings_hint(board, pages)
        raise ConfigError(board.config.source, key, f"{str(exc).removeprefix('board sections: ')}; "
                          f"expected {hint}") from None


def _cut_first_that_works(board: Board, options: Sequence[tuple[int, int, int]], pages: PageSizes
                          ) -> SectionLayout:
    """The cut of the first of ``options`` (best first; the eight best are tried) that can be cut: LayoutError
    from the first one when none can."""
    first_error: LayoutError | None = None
    land_cells = _Land.of(board) if options else None
    for rows, columns, page in options[:8]:
        try:
            return _cut_sections(board, rows, columns, pages[page], land_cells)
        except LayoutError as exc:  # this grid cannot be cut here: the next best one
            first_error = first_error or exc
    if first_error is None:
        raise LayoutError("board sections: no grid fits the page")
    raise first_error


KNOB_SCALES = (0.9, 0.8, 0.7, 0.6, 0.5)
"""The knob sizes (neck, head and depth together) tried, as shares of the template's, when a cut fails."""


def working_settings_hint(board: Board, pages: PageSizes) -> tuple[str, str]:
    """(key, text) naming sections settings that do cut ``board``, found by cutting it with them: the automatic
    grid when the template pins one, smaller knobs, a wider cut search, or else a grid with more pieces.
    Only called after a cut failed, so its cost is the failure's."""
    import dataclasses

    settings = board.config.sections
    size = (float(board.config.board.width_mm), float(board.config.board.height_mm))

    def cuts(**changes: object) -> tuple[int, int] | None:
        changed = settings.model_copy(update=changes)
        trial = dataclasses.replace(board, config=board.config.model_copy(update={"sections": changed}))
        options = grid_options(size, knob_reach_mm(trial), changed.cut_search_mm, pages, changed.columns,
                               changed.rows)
        try:
            layout = _cut_first_that_works(trial, options, pages)
        except LayoutError:
            return None
        return layout.rows, layout.columns

    if settings.columns is not None or settings.rows is not None:
        found = cuts(columns=None, rows=None)
        if found is not None:
            return "sections.columns", f"sections.columns: {found[1]} and sections.rows: {found[0]} (or auto)"
    for scale in KNOB_SCALES:
        neck, head, depth = (round(v * scale, 1) for v in (settings.knob_neck_mm, settings.knob_head_mm,
                                                           settings.knob_depth_mm))
        if cuts(knob_neck_mm=neck, knob_head_mm=head, knob_depth_mm=depth) is not None:
            return "sections.knob_head", (f"smaller knobs: sections.knob_head: {head:g}mm, knob_neck: {neck:g}mm "
                                          f"and knob_depth: {depth:g}mm")
    for search in (2 * settings.cut_search_mm, 4 * settings.cut_search_mm):
        if search > 0 and cuts(cut_search_mm=search) is not None:
            return "sections.cut_search", f"sections.cut_search: {search:g}mm"
    for rows, columns, _ in grid_options(size, knob_reach_mm(board), settings.cut_search_mm, pages)[8:32]:
        if cuts(columns=columns, rows=rows) is not None:
            return "sections.columns", f"sections.columns: {columns} and sections.rows: {rows}"
    return "sections", smallest_grid_hint(board, pages)


def _cut_sections(board: Board, rows: int, columns: int, max_section_mm: tuple[float, float] | None,
                  land_cells: _Land | None = None) -> SectionLayout:
    """The cut on a ``rows`` x ``columns`` grid, each section fitting ``max_section_mm``. ``land_cells``:
    ``_Land.of(board)`` when the caller has it."""
    config = board.config
    settings = config.sections
    width_mm, height_mm = float(config.board.width_mm), float(config.board.height_mm)
    board_rect = box(0.0, 0.0, width_mm, height_mm)
    land_cells = land_cells or _Land.of(board)
    hexes = land_cells.hexes

    reach_mm = knob_reach_mm(board)
    max_w, max_h = max_section_mm if max_section_mm is not None else (None, None)
    centres = land_cells.centres_mm
    cut_x, cost_x = choose_cuts(centres[:, 0], hex_area_profile(board, 0), width_mm, columns, settings.cut_search_mm,
                                max_w, reach_mm)
    cut_y, cost_y = choose_cuts(centres[:, 1], hex_area_profile(board, 1), height_mm, rows, settings.cut_search_mm,
                                max_h, reach_mm)
    xs, ys, cost = [0.0, *cut_x, width_mm], [0.0, *cut_y, height_mm], cost_x + cost_y
    rects = [shapely.set_precision(box(xs[c], ys[r], xs[c + 1], ys[r + 1]), GRID_MM)
             for r in range(rows) for c in range(columns)]

    # Every land cell to the section holding most of it.
    owner = np.zeros(len(hexes), dtype=int)
    if len(hexes):
        # a hexagon inside one rectangle belongs to it; only those on a cut line are measured
        bounds = shapely.bounds(hexes)
        rect_bounds = shapely.bounds(np.array(rects, dtype=object))
        inside = ((bounds[:, None, 0] >= rect_bounds[None, :, 0]) & (bounds[:, None, 1] >= rect_bounds[None, :, 1])
                  & (bounds[:, None, 2] <= rect_bounds[None, :, 2]) & (bounds[:, None, 3] <= rect_bounds[None, :, 3]))
        owner = np.argmax(inside, axis=1)
        cut = np.flatnonzero(~inside.any(axis=1))
        if len(cut):
            shares = np.column_stack([shapely.area(shapely.intersection(hexes[cut], rect)) for rect in rects])
            owner[cut] = np.argmax(shares, axis=1)
    # (rect - other sections' land) + own land == (rect - all land) + own land
    land = land_cells.union
    pieces: list[shapely.Geometry] = []
    for k, rect in enumerate(rects):
        own = shapely.union_all(hexes[owner == k], grid_size=GRID_MM) if (owner == k).any() else Polygon()
        piece = shapely.union(shapely.difference(rect, land, grid_size=GRID_MM), own, grid_size=GRID_MM)
        pieces.append(shapely.intersection(piece, board_rect, grid_size=GRID_MM))
    pieces = _merge_fragments(pieces, rects)

    edges = _edges(rows, columns, xs, ys)
    knobs = _place_knobs(edges, pieces, land, board, rows, columns, hexes, reach_mm, max_section_mm)
    pieces = _apply_knobs(pieces, knobs)

    sections = []
    for k, piece in enumerate(pieces):
        parts = _as_polygons(piece)
        if len(parts) != 1:
            raise LayoutError(f"board sections: section {k + 1} fell apart into {len(parts)} pieces")
        r, c = divmod(k, columns)
        neighbours = {}
        for side, (dr, dc) in zip(SIDES, ((-1, 0), (0, 1), (1, 0), (0, -1)), strict=True):
            if 0 <= r + dr < rows and 0 <= c + dc < columns:
                neighbours[side] = (r + dr) * columns + (c + dc) + 1
        sections.append(Section(k + 1, r, c, parts[0], (), MappingProxyType(neighbours)))
    sections = _assign_cells(board, hexes, sections)
    if max_section_mm is not None:
        for section in sections:
            x0, y0, x1, y1 = section.bounds_mm
            if x1 - x0 > max_section_mm[0] + 1e-6 or y1 - y0 > max_section_mm[1] + 1e-6:
                raise LayoutError(f"board sections: section {section.number} is {x1 - x0:.1f} x {y1 - y0:.1f} mm "
                                  f"with its knobs; the page holds {max_section_mm[0]:.1f} x "
                                  f"{max_section_mm[1]:.1f} mm")
    check_partition(sections, board_rect)

    signatures = piece_signatures(rows, columns, knobs)
    report = fit_solver.check_unique_fit(signatures, rows, columns, settings.fit_tolerance_mm)
    return SectionLayout(rows, columns, (width_mm, height_mm), tuple(xs[1:-1]), tuple(ys[1:-1]), tuple(sections),
                         tuple(edges), tuple(knobs), report, cost, max_section_mm)


def _assign_cells(board: Board, hexes: np.ndarray, sections: list[Section]) -> list[Section]:
    """Each land cell to the one section that holds all of it; LayoutError if a cell is cut."""
    outlines = np.array([s.outline_mm for s in sections], dtype=object)
    cells: list[list[str]] = [[] for _ in sections]
    if not len(hexes):
        return sections
    for outline in outlines:
        shapely.prepare(outline)
    # a hexagon covered by one outline has all of its area there (and none in the others, which it can only
    # touch along their shared boundary); the others are measured
    covered = shapely.covers(outlines[None, :], hexes[:, None])
    shares = covered.astype(float)
    measure = ~covered.any(axis=1)
    touching = shapely.intersects(hexes[measure, None], outlines[None, :])
    rows, cols = np.nonzero(touching)
    rows = np.flatnonzero(measure)[rows]
    shares[rows, cols] = shapely.area(shapely.intersection(hexes[rows], outlines[cols])) / shapely.area(hexes[rows])
    for cell, inside in zip(board.cells, shares, strict=True):
        holders = [k for k, share in enumerate(inside) if share > 1e-6]
        if len(holders) != 1:
            raise LayoutError(f"board sections: land cell {cell.label} would be cut between sections "
                              f"{', '.join(str(k + 1) for k in holders)}")
        cells[holders[0]].append(cell.label)
    return [Section(s.number, s.row, s.column, s.outline_mm, tuple(sorted(cells[k])), s.neighbours)
            for k, s in enumerate(sections)]


def assign_hexes(board: Board, layout: SectionLayout) -> dict[Hex, int]:
    """Every hex of the board's lattice (land or sea) to one section number: a land cell to the section that
    holds it whole, a sea hex to the section under its centre (sea hexes may be cut; this is where most of
    it lies for all but the hexes a cut line halves)."""
    numbers: dict[Hex, int] = {}
    by_label = {label: s.number for s in layout.sections for label in s.cells}
    width_mm, height_mm = layout.board_mm
    hexes = hexes_covering(board.layout, width_mm, height_mm)
    centres = np.array([board.layout.hex_to_point(h) for h in hexes])
    clamped = np.clip(centres, [1e-6, 1e-6], [width_mm - 1e-6, height_mm - 1e-6])
    outlines = np.array([s.outline_mm for s in layout.sections], dtype=object)
    inside = shapely.contains_xy(outlines[:, None], clamped[None, :, 0], clamped[None, :, 1])
    for i, h in enumerate(hexes):
        holders = np.nonzero(inside[:, i])[0]
        numbers[h] = int(holders[0]) + 1 if len(holders) else _nearest_section(layout, clamped[i])
    for cell in board.cells:
        numbers[cell.hex] = by_label[cell.label]
    return dict(sorted(numbers.items()))


def _nearest_section(layout: SectionLayout, point: np.ndarray) -> int:
    """A centre exactly on a cut line: the first section it touches."""
    distances = [s.outline_mm.distance(shapely.Point(*point)) for s in layout.sections]
    return int(np.argmin(distances)) + 1


def check_partition(sections: Sequence[Section], board_rect: Polygon, tolerance_mm2: float = 1e-3) -> None:
    """The sections cover the board exactly and do not overlap (LayoutError otherwise)."""
    outlines = [s.outline_mm for s in sections]
    union = shapely.union_all(outlines, grid_size=GRID_MM)
    missing = shapely.area(shapely.difference(board_rect, union, grid_size=GRID_MM))
    extra = shapely.area(shapely.difference(union, board_rect, grid_size=GRID_MM))
    if missing > tolerance_mm2 or extra > tolerance_mm2:
        raise LayoutError(f"board sections: the sections miss {missing:.3f} mm² of the board and spill "
                          f"{extra:.3f} mm² past it")
    # the outlines' areas add up to more than their union's by at least any two of them overlap: only then is
    # every pair measured (sections that overlap by less than the tolerance each pass, as they always did)
    if float(np.sum(shapely.area(outlines))) - shapely.area(union) <= tolerance_mm2:
        return
    bounds = [o.bounds for o in outlines]
    for i, a in enumerate(outlines):
        for j in range(i + 1, len(outlines)):
            if not _boxes_meet(bounds[i], bounds[j]):
                continue
            overlap = shapely.area(shapely.intersection(a, outlines[j], grid_size=GRID_MM))
            if overlap > tolerance_mm2:
                raise LayoutError(f"board sections: sections {i + 1} and {j + 1} overlap by {overlap:.3f} mm²")


def _boxes_meet(a: Sequence[float], b: Sequence[float]) -> bool:
    """Whether two (x0, y0, x1, y1) boxes overlap or touch, or come within a grid step of it."""
    return (a[0] <= b[2] + GRID_MM and b[0] <= a[2] + GRID_MM and a[1] <= b[3] + GRID_MM
            and b[1] <= a[3] + GRID_MM)


def as_multipolygon(sections: Sequence[Section]) -> MultiPolygon:
    return MultiPolygon([s.outline_mm for s in sections])

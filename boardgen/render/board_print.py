"""Any rectangular board as print files: a poster page for a print shop and jigsaw sections for home printers.

``print_board(scene, width_mm, height_mm, title)`` takes the board as a ``Scene`` in board mm (origin at the
board's top-left corner; art may paint 3 mm of bleed beyond the edge) and returns ``Artifact``s:

  {prefix}-poster.pdf            one page: the board as TrimBox + 3 mm bleed (BleedBox = MediaBox)
  {prefix}-sections-a4.pdf       one page per section at 1:1 (and -letter.pdf), TrimBox = the piece's box
  {prefix}-cut.svg               every section's closed outline in board mm on layer "cut" (numbers on "guides")

The board is cut into a grid of sections chosen so that every piece, knobs included, fits the printable area
of every paper asked for (fewest sections, then the squarest). Cuts are straight; each edge between two
sections carries one round knob (``boardgen.layout.jigsaw``): its position differs from every other edge's
and its owner is chosen so pieces stay within the paper. Knobs keep clear of the ``avoid`` rectangles (labels,
spaces a knob must not cross). ``boardgen.layout.fit_solver`` then tries every piece in every slot and every
quarter turn: exactly one assembly must exist, and no piece may fit another's place, else ``LayoutError``.

Each section page shows the piece with its cut line, its neighbours' numbers beside the matching sides, its
number and a small assembly diagram in the footer, and the 100 mm scale ruler.

The sheets, the pieces' art (``section_scene``), the PDFs that draw each piece once for every paper
(``section_sheet_pdfs``) and the exploded preview serve any cut board: a geographic map cut along its land
cells (``boardgen.geomap.jigsaw``) prints through them too. ``boardgen.kit.board`` names the kit's board files.
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import pikepdf
import shapely
from shapely.geometry import Polygon as ShapelyPolygon
from shapely.geometry import box

from boardgen.errors import LayoutError
from boardgen.geomap.spec import SectionsConfig
from boardgen.i18n import N_, Translator, current, printing_in
from boardgen.io import Artifact
from boardgen.layout import fit_solver
from boardgen.layout.grid_choice import choose_grids
from boardgen.layout.jigsaw import (
    GRID_MM,
    Edge,
    Knob,
    candidate_positions,
    knob_shape,
    knobs_clear_of,
    owner_offset_mm,
    place_knob_shape,
    spaced_choice,
)
from boardgen.layout.section_marks import ARROWS
from boardgen.layout.sections import piece_signatures
from boardgen.render.cairo_backend import MM_TO_PT, Page, note_pages, render_pdf, render_svg, text_width_mm
from boardgen.render.imposition import (
    A4,
    COMPACT_STYLE,
    LETTER,
    Paper,
    Placement,
    SheetStyle,
    compose_sheet,
    content_area,
    single_item_page,
)
from boardgen.render.scene import (
    PT,
    Circle,
    Font,
    Group,
    Op,
    Path,
    PathCommand,
    Rect,
    RectOp,
    Scene,
    Style,
    Text,
    fill,
    group,
    layer,
    stroke,
    translate,
)

CUT_LINE = "#111111"
CUT_WIDTH_MM = 0.9 * PT
BLEED_WASH = 0.45  # opacity of the white veil over the bleed beyond the cut line
NEIGHBOUR_FONT = Font("DejaVu Sans", 8.0, bold=True)
HINT_ROOM_MM = 4.0
"""Room kept beside each piece for its neighbours' numbers (they sit in the crop-mark band, unused here)."""
SIDES = ("top", "right", "bottom", "left")
RULER_TEXT = "Print at 100% / actual size: this bar must measure 100 mm (3.94 in)."
"""What ``imposition.scale_ruler`` prints beside a 100 mm ruler (measured to keep the footer clear)."""


class SectionLike(Protocol):
    """What a sheet needs to know of a section (this module's ``BoardSection`` or the flagship's)."""

    @property
    def number(self) -> int: ...
    @property
    def row(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def neighbours(self) -> Mapping[str, int]: ...
    @property
    def bounds_mm(self) -> tuple[float, float, float, float]: ...


class PieceLike(SectionLike, Protocol):
    """A section with its cut outline (knobs included, board mm): what its art is clipped to."""

    @property
    def outline_mm(self) -> ShapelyPolygon: ...


class GridLike(Protocol):
    @property
    def rows(self) -> int: ...
    @property
    def columns(self) -> int: ...
    @property
    def sections(self) -> Sequence[SectionLike]: ...


class PieceGridLike(GridLike, Protocol):
    """A cut whose sections carry their outlines (this module's ``BoardCut``, a map's ``SectionLayout``)."""

    @property
    def sections(self) -> Sequence[PieceLike]: ...


@dataclass(frozen=True)
class Knobs:
    """The jigsaw knobs: neck width, head diameter, reach past the cut, and how far apart (along their
    edges) two knobs' positions must be; the fit check treats knobs closer than ``tolerance_mm`` as alike."""

    neck_mm: float = 7.0
    head_mm: float = 11.0
    depth_mm: float = 12.0
    spacing_mm: float = 6.0
    tolerance_mm: float = 2.5
    clearance_mm: float = 1.0  # from the avoid rectangles

    def settings(self, rows: int = 1, columns: int = 1) -> SectionsConfig:
        return SectionsConfig(columns=columns, rows=rows, knob_neck_mm=self.neck_mm, knob_head_mm=self.head_mm,
                              knob_depth_mm=self.depth_mm, knob_spacing_mm=self.spacing_mm,
                              fit_tolerance_mm=self.tolerance_mm)


@dataclass(frozen=True)
class BoardSection:
    index: int  # 0-based, reading order
    row: int
    column: int
    rect_mm: Rect  # the straight cuts around it, board mm
    outline_mm: ShapelyPolygon  # knobs included, board mm
    neighbours: dict[str, int] = field(hash=False, compare=False)  # side -> neighbour's number

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def bounds_mm(self) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = self.outline_mm.bounds
        return (x0, y0, x1, y1)


@dataclass(frozen=True)
class BoardCut:
    width_mm: float
    height_mm: float
    rows: int
    columns: int
    cuts_x_mm: tuple[float, ...]  # the inner vertical cut lines
    cuts_y_mm: tuple[float, ...]
    sections: tuple[BoardSection, ...]
    knobs: tuple[Knob, ...]
    fit: fit_solver.FitReport


@dataclass(frozen=True)
class BoardPrint:
    artifacts: tuple[Artifact, ...]
    cut: BoardCut
    pages: dict[str, tuple[Page, ...]]  # paper slug -> section pages (as drawn directly; the PDFs hold the same)
    poster: Page


# ------------------------------------------------------------------------------------------ cutting


def _even_cuts(length: float, parts: int, snap_mm: float | None) -> list[float]:
    cuts = [length * i / parts for i in range(1, parts)]
    if snap_mm:
        cuts = [round(c / snap_mm) * snap_mm for c in cuts]
    return [round(c, 4) for c in cuts]


SEAM_CLEARANCE_MM = 0.5
"""A seam may run this close to a space it must keep whole (on a shared edge it runs exactly between two)."""


def _free(length: float, keep_whole: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The open intervals a seam may not lie in (each space's extent less the clearance), merged."""
    blocked = sorted((lo + SEAM_CLEARANCE_MM, hi - SEAM_CLEARANCE_MM) for lo, hi in keep_whole
                     if hi - lo > 2 * SEAM_CLEARANCE_MM)
    merged: list[tuple[float, float]] = []
    for lo, hi in blocked:
        if merged and lo < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


def _allowed(v: float, blocked: Sequence[tuple[float, float]]) -> bool:
    return not any(lo < v < hi for lo, hi in blocked)


def _nearest_allowed(c: float, blocked: Sequence[tuple[float, float]], low: float, high: float) -> float | None:
    """The place nearest ``c`` in [low, high] that lies in no blocked interval, or None."""
    if low > high:
        return None
    c = min(max(c, low), high)
    if _allowed(c, blocked):
        return c
    options = [v for lo, hi in blocked if lo < c < hi
               for v in (lo - SEAM_CLEARANCE_MM, hi + SEAM_CLEARANCE_MM)]
    options = [v for v in options if low <= v <= high and _allowed(v, blocked)]
    return min(options, key=lambda v: (abs(v - c), v)) if options else None


def seam_positions(length: float, parts: int, keep_whole: Sequence[tuple[float, float]],
                   snap_mm: float | None = None, max_part_mm: float | None = None) -> list[float]:
    """The inner cuts along one axis of a board ``length`` long cut into ``parts``, none strictly inside an
    interval of ``keep_whole`` (the extents of spaces along this axis: a straight seam at x runs through a space
    when x lies inside its extent). Each cut goes as near its even place as it can; when that makes a part
    longer than ``max_part_mm``, the cuts are placed so that no part is (as far along as each may go, then the
    longest parts split again). Raises LayoutError when no such cuts exist."""
    cuts = _even_cuts(length, parts, snap_mm)
    if not keep_whole:
        return cuts
    blocked = _free(length, keep_whole)
    out: list[float] = []
    for c in cuts:
        v = _nearest_allowed(c, blocked, (out[-1] if out else 0.0) + 1.0, length - 1.0)
        if v is None:
            raise LayoutError(f"board sections: no seam place near {c:.0f} mm keeps the spaces whole")
        out.append(round(v, 4))
    edges = [0.0, *out, length]
    if max_part_mm is None or max(b - a for a, b in itertools.pairwise(edges)) <= max_part_mm + 1e-6:
        return out
    greedy: list[float] = []  # each cut as far along as the part before it may reach
    at = 0.0
    while length - at > max_part_mm + 1e-6:
        limit = at + max_part_mm
        inside = next(((lo, hi) for lo, hi in blocked if lo < limit < hi), None)
        v = limit if inside is None else inside[0] - SEAM_CLEARANCE_MM
        if v <= at + 1.0:
            raise LayoutError("board sections: the spaces leave no seam places for parts that fit the page")
        greedy.append(round(v, 4))
        at = v
    if len(greedy) + 1 > parts:
        raise LayoutError(f"board sections: {parts} parts cannot keep the spaces whole and fit the page")
    while len(greedy) + 1 < parts:  # split the longest part again, as near its middle as the spaces allow
        edges = [0.0, *greedy, length]
        k = max(range(len(edges) - 1), key=lambda i: edges[i + 1] - edges[i])
        v = _nearest_allowed((edges[k] + edges[k + 1]) / 2, blocked, edges[k] + 1.0, edges[k + 1] - 1.0)
        if v is None:
            raise LayoutError(f"board sections: {parts} parts cannot keep the spaces whole")
        greedy = sorted([*greedy, round(v, 4)])
    return greedy


def spaces_cut(cut: BoardCut, keep_whole: Sequence[Rect]) -> list[int]:
    """Indices of the ``keep_whole`` rectangles an inner seam of ``cut`` runs through."""
    out = []
    for k, r in enumerate(keep_whole):
        if any(r.x + SEAM_CLEARANCE_MM < x < r.right - SEAM_CLEARANCE_MM for x in cut.cuts_x_mm) or \
                any(r.y + SEAM_CLEARANCE_MM < y < r.bottom - SEAM_CLEARANCE_MM for y in cut.cuts_y_mm):
            out.append(k)
    return out


def _edges(xs: Sequence[float], ys: Sequence[float]) -> list[Edge]:
    """Inner edges between neighbouring cells of the grid with borders ``xs`` x ``ys`` (reading order)."""
    columns, rows = len(xs) - 1, len(ys) - 1
    edges = []
    for r in range(rows):
        for c in range(columns):
            k = r * columns + c
            if c + 1 < columns:
                edges.append(Edge(k, k + 1, True, xs[c + 1], ys[r], ys[r + 1]))
            if r + 1 < rows:
                edges.append(Edge(k, k + columns, False, ys[r + 1], xs[c], xs[c + 1]))
    return edges


def cut_board(width_mm: float, height_mm: float, rows: int, columns: int, knobs: Knobs = Knobs(),
              avoid: Sequence[Rect] = (), max_piece_mm: tuple[float, float] | None = None,
              snap_mm: float | None = None, keep_whole: Sequence[Rect] = ()) -> BoardCut:
    """The board cut into ``rows`` x ``columns`` sections with one knob per inner edge, proven to assemble
    one way only. ``max_piece_mm``: every piece (knobs included) must fit it; knob owners are chosen to keep
    within it. ``keep_whole``: spaces (board mm) no seam may run through: the seams move off their even
    places to the nearest gap between them (grid lines, gaps between track spaces). Raises LayoutError when a
    knob has no room, a seam no place, a piece outgrows the page or the proof fails."""
    room_x = None if max_piece_mm is None else max_piece_mm[0] - (knobs.depth_mm if columns > 1 else 0.0)
    room_y = None if max_piece_mm is None else max_piece_mm[1] - (knobs.depth_mm if rows > 1 else 0.0)
    xs = [0.0, *seam_positions(width_mm, columns, [(r.x, r.right) for r in keep_whole], snap_mm, room_x), width_mm]
    ys = [0.0, *seam_positions(height_mm, rows, [(r.y, r.bottom) for r in keep_whole], snap_mm, room_y), height_mm]
    if max_piece_mm is not None and (max(b - a for a, b in itertools.pairwise(xs)) > max_piece_mm[0] + 1e-6
                                     or max(b - a for a, b in itertools.pairwise(ys)) > max_piece_mm[1] + 1e-6):
        raise LayoutError("board sections: with the seams off the spaces a piece outgrows the page")
    edges = _edges(xs, ys)
    settings = knobs.settings(rows, columns)
    shape = knob_shape(settings)
    keep_out = shapely.union_all([box(a.x, a.y, a.right, a.bottom).buffer(knobs.clearance_mm) for a in avoid]) \
        if avoid else None
    if keep_out is not None:
        shapely.prepare(keep_out)  # tested against every knob position of every edge
    # owners: alternate like a jigsaw (a chequer), but never let a piece outgrow max_piece_mm
    reach = {k: {"h": 0, "v": 0} for k in range(rows * columns)}
    size = {k: ((xs[k % columns + 1] - xs[k % columns]), (ys[k // columns + 1] - ys[k // columns]))
            for k in range(rows * columns)}
    chosen: list[Knob] = []
    used: list[float] = []
    for edge in edges:
        r, c = divmod(edge.first, columns)
        if edge.vertical:
            prefer = edge.first if (r + c) % 2 == 0 else edge.second
        else:
            prefer = edge.second if (r + c) % 2 == 0 else edge.first
        axis = "h" if edge.vertical else "v"
        owner = None
        for candidate in (prefer, edge.second if prefer == edge.first else edge.first):
            w, h = size[candidate]
            extent = (w if axis == "h" else h) + knobs.depth_mm * (reach[candidate][axis] + 1)
            limit = None if max_piece_mm is None else (max_piece_mm[0] if axis == "h" else max_piece_mm[1])
            if limit is None or extent <= limit + 1e-6:
                owner = candidate
                break
        if owner is None:
            raise LayoutError(f"board sections: no knob fits between sections {edge.first + 1} and "
                              f"{edge.second + 1} without a piece outgrowing the page")
        reach[owner][axis] += 1
        into_second = owner == edge.first
        alongs = candidate_positions(edge, settings)
        if keep_out is not None and alongs:  # every position's knob tested at once
            clear = knobs_clear_of(shape, edge, alongs, into_second, keep_out)
            alongs = [along for along, ok in zip(alongs, clear, strict=True) if ok]
        options = [(along, owner_offset_mm(edge, along, owner)) for along in alongs]
        if not options:
            raise LayoutError(f"board sections: no room for a knob between sections {edge.first + 1} and "
                              f"{edge.second + 1} (the avoid areas cover the whole edge)")
        pick = spaced_choice(options, used, knobs.spacing_mm)
        if pick is None:  # no offset of its own left: the one farthest from the others; the proof decides
            pick = max(options, key=lambda o: (min(abs(o[1] - u) for u in used), -abs(o[1]), o[1]))
        along, offset = pick
        used.append(offset)
        chosen.append(Knob(edge, along, owner, place_knob_shape(shape, edge, along, into_second), knobs.head_mm))
    pieces: list[shapely.Geometry] = [box(xs[k % columns], ys[k // columns], xs[k % columns + 1], ys[k // columns + 1])
                                      for k in range(rows * columns)]
    for knob in chosen:
        other = knob.edge.second if knob.owner == knob.edge.first else knob.edge.first
        pieces[knob.owner] = shapely.union(pieces[knob.owner], knob.outline_mm, grid_size=GRID_MM)
        pieces[other] = shapely.difference(pieces[other], knob.outline_mm, grid_size=GRID_MM)
    sections = []
    for k, outline in enumerate(pieces):
        r, c = divmod(k, columns)
        if not isinstance(outline, ShapelyPolygon):
            raise LayoutError(f"board sections: section {k + 1} falls apart into pieces (knobs too big)")
        nbrs = {side: (rr * columns + cc) + 1 for side, (rr, cc) in
                zip(SIDES, ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)), strict=True)
                if 0 <= rr < rows and 0 <= cc < columns}
        rect = Rect(xs[c], ys[r], xs[c + 1] - xs[c], ys[r + 1] - ys[r])
        sections.append(BoardSection(k, r, c, rect, outline, nbrs))
    signatures = piece_signatures(rows, columns, chosen)
    if rows * columns == 1:  # one piece: nothing to assemble
        report = fit_solver.FitReport((((0, 0),),), 1, (), 0)
    else:
        report = fit_solver.check_unique_fit(signatures, rows, columns, knobs.tolerance_mm)
    return BoardCut(width_mm, height_mm, rows, columns, tuple(xs[1:-1]), tuple(ys[1:-1]), tuple(sections),
                    tuple(chosen), report)


def printable_piece_mm(papers: Sequence[Paper], style: SheetStyle = COMPACT_STYLE, landscape: bool = True
                       ) -> tuple[float, float]:
    """The largest piece (knobs included) that fits every paper's printable area with room for the hints."""
    areas = [content_area(p.landscape() if landscape else p.portrait(), style) for p in papers]
    return (round(min(a.width for a in areas) - 2 * HINT_ROOM_MM, 3),
            round(min(a.height for a in areas) - 2 * HINT_ROOM_MM, 3))


def plan_cut(width_mm: float, height_mm: float, papers: Sequence[Paper] = (A4, LETTER), knobs: Knobs = Knobs(),
             avoid: Sequence[Rect] = (), style: SheetStyle = COMPACT_STYLE, snap_mm: float | None = None,
             max_sections: int = 30, keep_whole: Sequence[Rect] = ()) -> tuple[BoardCut, bool]:
    """The cut with the fewest sections (then the squarest pieces) that fits ``papers``, landscape or
    portrait pages: (cut, landscape). With ``keep_whole``, only cuts whose seams run through none of those
    spaces; if no such cut fits the pages (a space larger than a page), the seams go to their even places."""
    pages = [printable_piece_mm(papers, style, landscape) for landscape in (True, False)]

    def part_fits(length_mm: float, parts: int, page_mm: float) -> bool:
        # each piece grows by at most one knob per direction when owners are balanced
        return length_mm / parts + (knobs.depth_mm if parts > 1 else 0) <= page_mm

    grids = choose_grids((width_mm, height_mm), pages, part_fits, most_per_side=max_sections,
                         most_pieces=max_sections, page_before_shape=False)
    errors = []
    for rows, columns, page in grids:
        portrait = page == 1
        max_piece = pages[page]
        try:
            cut = cut_board(width_mm, height_mm, rows, columns, knobs, avoid, max_piece, snap_mm, keep_whole)
        except LayoutError as exc:
            errors.append(f"{rows} x {columns}: {exc}")
            continue
        return cut, not portrait
    if keep_whole:  # spaces too big for any page: straight seams at their even places (spaces_cut names them)
        return plan_cut(width_mm, height_mm, papers, knobs, avoid, style, snap_mm, max_sections)
    detail = f" ({errors[0]})" if errors else ""
    raise LayoutError(f"board: a {width_mm:g} x {height_mm:g} mm board cannot be cut into at most {max_sections} "
                      f"sections that fit {', '.join(p.name for p in papers)}{detail}")


# ------------------------------------------------------------------------------------------ drawing


def outline_commands(polygon: ShapelyPolygon, dx: float = 0.0, dy: float = 0.0) -> tuple[PathCommand, ...]:
    """A polygon's rings as closed M/L/Z sub-paths, moved by (dx, dy), to the micrometre."""
    commands: list[PathCommand] = []
    for ring in (polygon.exterior, *polygon.interiors):
        coords = np.round(shapely.get_coordinates(ring) + np.array([dx, dy]), 3).tolist()
        commands.append(("M", coords[0][0], coords[0][1]))
        commands.extend(("L", x, y) for x, y in coords[1:-1])
        commands.append(("Z",))
    return tuple(commands)


def piece_bleed(outline: ShapelyPolygon, bleed_mm: float) -> ShapelyPolygon:
    """The piece grown by the bleed, with narrow gaps (a blank's neck) filled so no white slivers show."""
    grown = shapely.buffer(outline, bleed_mm + 4.0, join_style="round", quad_segs=8)
    return shapely.buffer(grown, -4.0, join_style="round", quad_segs=8)


def section_scene(scene: Scene, section: PieceLike, bleed_mm: float, marks: Sequence[Op] | None = None) -> Scene:
    """The board's art for one piece in piece mm (origin at its bounding box's top-left), clipped to the
    piece plus bleed, the bleed washed out a little (so the piece's shape reads at a glance and a slightly
    missed cut still shows art), the cut line on top. ``marks``: ops in board mm printed inside the piece (its
    number, its neighbours' hints), in a group of their own under the cut line.

    The clip is one path per piece around the whole picture (shared by every piece: a renderer draws it once);
    painting white beyond it instead left a hairline of art where the sheet's own clip cut both."""
    x0, y0, _, _ = section.bounds_mm
    with_bleed = piece_bleed(section.outline_mm, bleed_mm)
    art = Group(scene.items, name=ART_GROUP.format(n=section.number), transform=translate(-x0, -y0),
                clip=outline_commands(with_bleed))  # the clip is in the group's own (board) mm
    ring = shapely.difference(with_bleed, section.outline_mm)
    wash = [Path(outline_commands(p, -x0, -y0), Style(fill="#ffffff", opacity=BLEED_WASH, even_odd=True),
                 name="bleed-wash") for p in getattr(ring, "geoms", [ring]) if p.geom_type == "Polygon"]
    own = [] if marks is None else [Group(tuple(marks), name=f"section-{section.number}-marks",
                                          transform=translate(-x0, -y0))]
    cut = Path(outline_commands(section.outline_mm, -x0, -y0),
               Style(stroke=CUT_LINE, stroke_width_mm=CUT_WIDTH_MM, line_join="round"), name="cut-line")
    return Scene((art, *wash, *own, cut))


def neighbour_marks(section: SectionLike, trim: Rect, bleed_mm: float) -> list[Op]:
    """Each neighbour's number beside the matching side, outside the bleed (``section.neighbours``: side ->
    number)."""
    ops: list[Op] = []
    gap = bleed_mm + 2.2
    cx, cy = trim.center
    for side, number in section.neighbours.items():
        text = f"{ARROWS[side]} {number}"
        if side == "top":
            ops.append(Text(cx, trim.y - gap, text, NEIGHBOUR_FONT, align="center", baseline="bottom",
                            name="neighbour"))
        elif side == "bottom":
            ops.append(Text(cx, trim.bottom + gap, text, NEIGHBOUR_FONT, align="center", baseline="top",
                            name="neighbour"))
        elif side == "right":
            ops.append(Text(trim.right + gap, cy, f"{number} {ARROWS[side]}", NEIGHBOUR_FONT, align="left",
                            baseline="middle", name="neighbour"))
        else:
            ops.append(Text(trim.x - gap, cy, f"{ARROWS[side]} {number}", NEIGHBOUR_FONT, align="right",
                            baseline="middle", name="neighbour"))
    return ops


def assembly_diagram(layout: GridLike, current: SectionLike, x: float, y: float, height_mm: float = 5.4) -> Group:
    """A tiny rows x columns grid with the current section filled: where this piece goes (``layout``: anything
    with ``rows`` and ``sections`` that have ``row`` and ``column``)."""
    ops: list[Op] = []
    ch = height_mm / layout.rows
    cw = ch * 1.5
    for s in layout.sections:
        rect = Rect(x + s.column * cw, y + s.row * ch, cw, ch)
        style = Style(fill="#1a1a1a" if s is current else "#ffffff", stroke="#1a1a1a", stroke_width_mm=0.35 * PT)
        ops.append(RectOp(rect, style, name="diagram-cell"))
    return group(ops, "assembly-diagram")


def section_sheet(paper: Paper, section: SectionLike, layout: GridLike, scene: Scene, title: str, label: str,
                  style: SheetStyle, marks: bool = True) -> Page:
    """One sheet: the piece at 1:1 centred in the printable area, neighbours' numbers beside its sides, its
    number and where it goes in the footer (right of the ruler)."""
    area = content_area(paper, style)
    x0, y0, x1, y1 = section.bounds_mm
    w, h = x1 - x0, y1 - y0
    if w > area.width + 1e-6 or h > area.height + 1e-6:
        raise LayoutError(f"board section {section.number} ({w:.1f} x {h:.1f} mm) does not fit {paper.name} "
                          f"({area.width:.1f} x {area.height:.1f} mm printable)")
    trim = Rect(round(area.x + (area.width - w) / 2, 3), round(area.y + (area.height - h) / 2, 3), w, h)
    footer_y = paper.height_mm - style.edge_mm - 0.6
    number_x = paper.width_mm - style.edge_mm - 2.0
    big = Text(number_x, footer_y, f"{section.number}", Font("DejaVu Sans", 14.0, bold=True), "#1a1a1a",
               align="right", baseline="alphabetic", name="section-number")
    diagram_h = 5.4
    diagram_w = diagram_h / layout.rows * 1.5 * layout.columns
    diagram_x, diagram_y = number_x - 9.0 - diagram_w, footer_y - diagram_h
    ruler_end = style.edge_mm + 2.0 + 103.0 + text_width_mm(RULER_TEXT, style.small_font)
    if diagram_x < ruler_end + 2.0:  # a narrow (portrait) page: the diagram goes above the number
        diagram_x, diagram_y = number_x - diagram_w, footer_y - 5.0 - diagram_h
    diagram = assembly_diagram(layout, section, diagram_x, diagram_y, diagram_h)
    extra: list[Op] = [*neighbour_marks(section, trim, style.bleed_mm), big, diagram]
    return compose_sheet(paper, [Placement(trim, scene, f"section-{section.number}")], title, label, style,
                         extra=extra, marks=marks)


def _as_form(pdf: pikepdf.Pdf, page: pikepdf.Page) -> pikepdf.Object:
    """The page as a form XObject whose BBox is the whole page (the piece with its bleed). Cairo writes one
    compressed content stream per page: the form reuses it as it is (no inflate/deflate)."""
    contents = page.obj.Contents
    if isinstance(contents, pikepdf.Stream):
        filters, parms = contents.get("/Filter"), contents.get("/DecodeParms")
        if isinstance(filters, pikepdf.Name | pikepdf.Array | None) and isinstance(
                parms, pikepdf.Dictionary | pikepdf.Array | None):
            form = pikepdf.Stream(pdf, b"")
            form.write(contents.read_raw_bytes(), filter=filters, decode_parms=parms)
            form.Type = pikepdf.Name.XObject
            form.Subtype = pikepdf.Name.Form
            form.BBox = page.obj.MediaBox
            form.Resources = page.obj.Resources
            return form
    page.obj.TrimBox = page.obj.MediaBox
    return page.as_form_xobject()


def underlay_pieces(sheets_pdf: bytes, pieces_pdf: bytes, sheets: Sequence[Page], bleed_mm: float,
                    art: SharedArt | None = None) -> bytes:
    """Place piece i of ``pieces_pdf`` (pages of the pieces with their bleed, as ``single_item_page`` makes
    them) as a form XObject under sheet i's furniture, at its trim box less the bleed: each piece's art is
    drawn once however many papers its sheets are made for. ``art``: the picture every piece shows a part of,
    left out of ``pieces_pdf`` and placed here under each piece, clipped to it (``SharedArt``)."""
    with pikepdf.open(io.BytesIO(sheets_pdf)) as pdf, pikepdf.open(io.BytesIO(pieces_pdf)) as pieces, \
            contextlib.ExitStack() as stack:
        art_form = None
        if art is not None:
            art_pdf = stack.enter_context(pikepdf.open(io.BytesIO(art.pdf)))
            art_form = pdf.copy_foreign(_as_form(art_pdf, art_pdf.pages[0]))
        for index, (pdf_page, piece, sheet) in enumerate(zip(pdf.pages, pieces.pages, sheets, strict=True)):
            form = pdf.copy_foreign(_as_form(pieces, piece))
            name = pdf_page.add_resource(form, pikepdf.Name.XObject, pikepdf.Name("/BoardPiece"),
                                         replace_existing=False)
            trim = sheet.trim_box_mm
            assert trim is not None
            x_pt = round((trim.x - bleed_mm) * MM_TO_PT, 3)
            y_pt = round((sheet.height_mm - trim.bottom - bleed_mm) * MM_TO_PT, 3)
            under = b""
            if art is not None and art_form is not None:  # (both or neither)
                art_name = pdf_page.add_resource(art_form, pikepdf.Name.XObject, pikepdf.Name("/BoardArt"),
                                                 replace_existing=False)
                under = art.under_piece(index, str(art_name))
            pdf_page.contents_add(pikepdf.Stream(pdf, f"q 1 0 0 1 {x_pt:g} {y_pt:g} cm ".encode() + under
                                                 + f"{name} Do Q\n".encode()), prepend=True)
        out = io.BytesIO()
        # the streams are compressed already: copy them as they are rather than inflate and deflate again
        pdf.save(out, deterministic_id=True, compress_streams=True, stream_decode_level=pikepdf.StreamDecodeLevel.none)
    return out.getvalue()


PIECES_PDF_TITLE = "board sections"
ART_PDF_TITLE = "board art"
"""The titles of the two PDFs ``section_sheet_pdfs`` draws only to merge them into the sheets (the live preview
leaves them out: it shows the sheets)."""

ART_GROUP = "section-{n}-art"
"""The name of the group ``section_scene`` puts the board's art in, first in every piece's scene."""


@dataclass(frozen=True)
class SharedArt:
    """The board picture every jigsaw piece shows a part of, as a PDF of one page (the board's poster, or a page of its
    own around all the pieces' clips), and where each piece's clip and origin lie on it. Cairo drawing the picture
    into every piece's page (as a recording it writes once) replays all of it for every page it is painted on (about
    10 ms a piece on the flagship); written once and placed under each piece by ``underlay_pieces``, it costs one
    drawing of the picture. ``pieces[i]``: (the clip's sub-paths in piece-page points, y up; the translation from
    the art page's points to piece i's page points)."""

    pdf: bytes
    pieces: tuple[tuple[tuple[tuple[tuple[float, float], ...], ...], tuple[float, float]], ...]

    def under_piece(self, index: int, name: str) -> bytes:
        """PDF operators, in piece ``index``'s page space, that paint the art clipped to the piece (nonzero
        winding, as the piece's own clip); the graphics state is left as it was."""
        rings, (dx, dy) = self.pieces[index]
        ops = ["q"]
        for ring in rings:
            ops.append("{:.3f} {:.3f} m".format(*ring[0]))
            ops.extend(f"{x:.3f} {y:.3f} l" for x, y in ring[1:])
            ops.append("h")
        ops.append(f"W n 1 0 0 1 {dx:.3f} {dy:.3f} cm {name} Do Q ")
        return " ".join(ops).encode()


@dataclass(frozen=True)
class PosterArt:
    """The board's poster: its page (``single_item_page`` of the board's picture, ``items``: the trim box is the
    board, the page the board and its bleed) and that page as an RGB PDF. It is the very picture every jigsaw
    piece shows a part of, so ``shared_art`` places its page under the pieces rather than draw the picture a
    second time."""

    pdf: bytes
    items: tuple[Op, ...]
    page: Page

    @property
    def bleed_mm(self) -> float:
        assert self.page.trim_box_mm is not None
        return self.page.trim_box_mm.x


def poster_art(scene: Scene, width_mm: float, height_mm: float, style: SheetStyle, title: str) -> PosterArt:
    """The poster page of ``scene`` (``single_item_page``) and its RGB PDF titled ``title``."""
    page = single_item_page(scene, width_mm, height_mm, style)
    return PosterArt(render_pdf([page], title=title), scene.items, page)


def shared_art(scenes: Sequence[Scene], pages: Sequence[Page], bleed_mm: float, poster: PosterArt | None = None
               ) -> SharedArt | None:
    """The art ``section_scene`` put first in every one of ``scenes`` (the same items in each, moved by a
    translation and clipped to the piece), drawn once (``SharedArt``), for the pieces' pages ``pages`` (as
    ``single_item_page`` places each scene, ``bleed_mm`` from the page's corner); None when the scenes do not
    all share one such art group (then each page draws its own). ``poster``: the board's poster, drawn
    already; when it shows these very items and every piece's clip lies on its page, its page is the art
    (the picture is not drawn again)."""
    arts = [scene.items[0] for scene in scenes if scene.items and isinstance(scene.items[0], Group)]
    if len(arts) < 2 or len(arts) != len(scenes):
        return None
    first = arts[0]
    for n, art in enumerate(arts, 1):
        if not (art.items is first.items and art.clip is not None
                and art.name == ART_GROUP.format(n=n) and art.opacity == 1.0 and not art.layer
                and art.transform is not None and (art.transform.a, art.transform.b, art.transform.c,
                                                   art.transform.d) == (1.0, 0.0, 0.0, 1.0)):
            return None
    if any(command[0] not in "MLZ" for art in arts for command in art.clip or ()):
        return None  # a clip with curves: each page draws its own art
    clips = [[[(c[1], c[2]) for c in ring] for ring in _rings(art.clip or ())] for art in arts]
    xs = [x for rings in clips for ring in rings for x, _ in ring]
    ys = [y for rings in clips for ring in rings for _, y in ring]
    if poster is not None and poster.items is first.items and _on_poster(xs, ys, poster):
        x0 = y0 = -poster.bleed_mm
        width_mm, height_mm = poster.page.width_mm, poster.page.height_mm
        pdf = poster.pdf
    else:
        x0, y0 = min(xs) - 1.0, min(ys) - 1.0
        width_mm, height_mm = max(xs) + 1.0 - x0, max(ys) + 1.0 - y0
        pdf = render_pdf([Page(width_mm, height_mm, Scene((Group(first.items, transform=translate(-x0, -y0)),)))],
                         title=ART_PDF_TITLE)
    placed = []
    for art, rings, page in zip(arts, clips, pages, strict=True):
        assert art.transform is not None
        # the art's own mm -> the piece page's mm: its group's translation, then the page's bleed margin
        ex, ey = art.transform.e + bleed_mm, art.transform.f + bleed_mm
        page_rings = tuple(tuple(((x + ex) * MM_TO_PT, (page.height_mm - (y + ey)) * MM_TO_PT) for x, y in ring)
                           for ring in rings)
        shift = ((x0 + ex) * MM_TO_PT, (page.height_mm - height_mm - y0 - ey) * MM_TO_PT)
        placed.append((page_rings, shift))
    return SharedArt(pdf, tuple(placed))


def _on_poster(xs: Sequence[float], ys: Sequence[float], poster: PosterArt) -> bool:
    """Whether the points (board mm) lie on the poster's page (the board and its bleed), to a micrometre."""
    b, tol = poster.bleed_mm, 1e-3
    return (min(xs) >= -b - tol and min(ys) >= -b - tol and max(xs) <= poster.page.width_mm - b + tol
            and max(ys) <= poster.page.height_mm - b + tol)


def _rings(commands: Sequence[PathCommand]) -> list[list[PathCommand]]:
    """A path of M/L/Z commands (``outline_commands``) as its rings' M and L commands (Z ends a ring)."""
    rings: list[list[PathCommand]] = []
    for command in commands:
        if command[0] == "M":
            rings.append([command])
        elif command[0] == "L":
            rings[-1].append(command)
    return rings


SIDE_WORDS = {"top": N_("{n} above"), "bottom": N_("{n} below"), "left": N_("{n} left"), "right": N_("{n} right")}
"""How a section sheet names the sections it joins (``joins_text``)."""


def joins_text(section: SectionLike, tr: Translator | None = None) -> str:
    _ = (tr or current()).gettext
    return ", ".join(_(SIDE_WORDS[s]).format(n=n) if s in SIDE_WORDS else f"{n} {s}"
                     for s, n in section.neighbours.items())


def cut_svg(cut: BoardCut) -> bytes:
    """Board-sized SVG: every section's closed outline on layer "cut", section numbers on "guides"."""
    cut_style = Style(stroke="#ff0000", stroke_width_mm=0.25 * PT, line_join="round")
    outlines: list[Op] = [Path(outline_commands(s.outline_mm), cut_style, name=f"section-{s.number}")
                          for s in cut.sections]
    guides: list[Op] = [Text(s.rect_mm.center[0], s.rect_mm.center[1], str(s.number),
                             Font("DejaVu Sans", 40.0, bold=True), "#9a9a9a", align="center", baseline="middle",
                             name="section-number") for s in cut.sections]
    return render_svg(Page(cut.width_mm, cut.height_mm, Scene((layer("guides", guides), layer("cut", outlines)))))


def titled_section_sheet(paper: Paper, section: SectionLike, layout: GridLike, scene: Scene, title: str,
                         style: SheetStyle, marks: bool, tr: Translator | None = None) -> Page:
    """``section_sheet`` with the heading and footer label every board's section sheets carry: the board's title,
    the section's number of the total, the paper, its row and column and the sections it joins."""
    _ = (tr or current()).gettext
    heading = _("{title}: board section {n} of {total}").format(title=title, n=section.number,
                                                                 total=len(layout.sections))
    label = _("{paper} · row {row}, column {column} · joins {joins}").format(
        paper=paper.name, row=section.row + 1, column=section.column + 1, joins=joins_text(section, tr))
    return section_sheet(paper, section, layout, scene, heading, label, style, marks)


def section_sheet_pdfs(sections: Sequence[PieceLike], scenes: Sequence[Scene], papers: Sequence[Paper],
                       sheet: Callable[[Paper, PieceLike, Scene], Page], title: Callable[[Paper], str],
                       style: SheetStyle, poster: PosterArt | None = None) -> dict[str, tuple[bytes, tuple[Page, ...]]]:
    """Every paper's section sheets as a PDF, each piece's art drawn ONCE: cairo writes the pieces (art + bleed,
    1:1) into one PDF and each paper's sheet furniture (``sheet(paper, section, empty scene)``: marks, title,
    ruler, margin numbers) into another; ``underlay_pieces`` then places piece i under sheet i's furniture.
    The board picture the pieces share (``section_scene``'s art group) is drawn once for all of them, in a PDF
    of its own (``shared_art``; ``poster``: the board's poster page, when it is drawn already), and placed under
    each piece clipped to it. {paper slug: (pdf, the furniture pages, whose trim boxes say where each piece
    prints)}."""

    def piece_pages(drop: int) -> list[Page]:
        return [single_item_page(Scene(sc.items[drop:]), s.bounds_mm[2] - s.bounds_mm[0],
                                 s.bounds_mm[3] - s.bounds_mm[1], style)
                for s, sc in zip(sections, scenes, strict=True)]

    pieces = piece_pages(0)
    art = shared_art(scenes, pieces, style.bleed_mm, poster)
    if art is not None:  # the pieces without their art, which underlay_pieces places under each
        pieces = piece_pages(1)
    pieces_pdf = render_pdf(pieces, title=PIECES_PDF_TITLE)
    empty = Scene(())
    out: dict[str, tuple[bytes, tuple[Page, ...]]] = {}
    for paper in papers:
        heading = title(paper)
        note_pages(heading, lambda paper=paper: [sheet(paper, s, sc)  # type: ignore[misc]
                                                 for s, sc in zip(sections, scenes, strict=True)])
        furniture = tuple(sheet(paper, s, empty) for s in sections)
        out[paper.slug] = (underlay_pieces(render_pdf(furniture, title=heading), pieces_pdf, furniture,
                                           style.bleed_mm, art), furniture)
    return out


def exploded_page(width_mm: float, height_mm: float, layout: PieceGridLike, scenes: Sequence[Scene],
                  gap_mm: float = 28.0) -> Page:
    """A preview of the pieces drawn apart from each other, each moved outwards from the board's centre
    (``scenes``: each piece's ``section_scene``, whose groups, the art and its marks, are drawn in the piece)."""
    items: list[Op] = [RectOp(Rect(-gap_mm * 1.5, -gap_mm * 1.5, width_mm + 3 * gap_mm, height_mm + 3 * gap_mm),
                              fill("#ffffff"))]
    mid_r, mid_c = (layout.rows - 1) / 2, (layout.columns - 1) / 2
    for s, scene in zip(layout.sections, scenes, strict=True):
        outline = s.outline_mm
        dx, dy = (s.column - mid_c) * gap_mm, (s.row - mid_r) * gap_mm
        x0, y0, _, _ = s.bounds_mm
        shadow = Path(outline_commands(outline, dx + 1.2, dy + 1.6), fill("#b9b9b9"), name="shadow")
        piece = Group(tuple(op for op in scene.items if isinstance(op, Group)), name=f"piece-{s.number}",
                      transform=translate(x0 + dx, y0 + dy), clip=outline_commands(outline, -x0, -y0))
        edge = Path(outline_commands(outline, dx, dy), stroke(CUT_LINE, 0.8 * PT), name="cut-line")
        cx, cy = outline.centroid.coords[0]
        disc = Circle(cx + dx, cy + dy, 9.0, Style(fill="#ffffff", stroke=CUT_LINE, stroke_width_mm=0.6 * PT,
                                                   opacity=0.9), name="piece-number-disc")
        number = Text(cx + dx, cy + dy, str(s.number), Font("DejaVu Sans", 30.0, bold=True), "#1a1a1a",
                      align="center", baseline="middle", name="piece-number")
        items.extend([shadow, piece, edge, disc, number])
    w, h = width_mm + 3 * gap_mm, height_mm + 3 * gap_mm
    return Page(w, h, Scene((Group(tuple(items), transform=translate(1.5 * gap_mm, 1.5 * gap_mm)),)))


def print_board(scene: Scene, width_mm: float, height_mm: float, title: str,
                papers: Sequence[Paper] = (A4, LETTER), avoid: Sequence[Rect] = (), prefix: str = "board",
                knobs: Knobs = Knobs(), style: SheetStyle = COMPACT_STYLE, snap_mm: float | None = None,
                marks: bool = False, keep_whole: Sequence[Rect] = (), tr: Translator | None = None) -> BoardPrint:
    """The poster, the jigsaw section sheets for every paper and the cut SVG (see the module's docstring).

    ``avoid``: rectangles (board mm) no knob may touch; ``snap_mm``: cut lines at multiples of this;
    ``keep_whole``: the play spaces and marked areas (board mm) no seam may run through, so on a square grid
    the seams run along grid lines and on a track between spaces; ``marks``: crop marks at each piece's
    bounding box. ``tr``: the edition's words (sheet headings and the artifacts' descriptions a README lists)."""
    _ = (tr or current()).gettext
    art = poster_art(scene, width_mm, height_mm, style, _("{title}: board").format(title=title))
    artifacts = [Artifact(f"{prefix}-poster.pdf", art.pdf,
                          _("the board as one {width} x {height} mm page with {bleed} mm bleed, "
                            "for a print shop").format(width=f"{width_mm:g}", height=f"{height_mm:g}",
                                                       bleed=f"{style.bleed_mm:g}"), pages=1)]
    sections = print_sections(scene, width_mm, height_mm, title, papers, avoid, prefix, knobs, style, snap_mm, marks,
                              keep_whole, tr, art)
    return BoardPrint((*artifacts, *sections.artifacts), sections.cut, sections.pages, art.page)


@dataclass(frozen=True)
class SectionsPrint:
    """A rectangular board's jigsaw sections as ``print_sections`` made them."""

    artifacts: tuple[Artifact, ...]  # {prefix}-sections-{paper}.pdf for every paper, {prefix}-cut.svg
    cut: BoardCut
    sheets: dict[str, tuple[Page, ...]]  # paper slug -> the sheets' furniture (their trim boxes: where pieces print)
    scenes: tuple[Scene, ...]  # each piece's art (``section_scene``), in the cut's order
    draw: Callable[[], dict[str, tuple[Page, ...]]] = field(repr=False, compare=False)

    @functools.cached_property
    def pages(self) -> dict[str, tuple[Page, ...]]:
        """Paper slug -> section pages as drawn directly (the PDFs hold the same), made when first asked for:
        the kit's files need only ``sheets``."""
        return self.draw()


def print_sections(scene: Scene, width_mm: float, height_mm: float, title: str,
                   papers: Sequence[Paper] = (A4, LETTER), avoid: Sequence[Rect] = (), prefix: str = "board",
                   knobs: Knobs = Knobs(), style: SheetStyle = COMPACT_STYLE, snap_mm: float | None = None,
                   marks: bool = False, keep_whole: Sequence[Rect] = (), tr: Translator | None = None,
                   poster: PosterArt | None = None) -> SectionsPrint:
    """``print_board`` without the poster: the cut, the section sheets for every paper and the cut SVG.
    ``poster``: the board's poster when it is drawn already (``section_sheet_pdfs`` places its page)."""
    tr = tr or current()  # the edition's words now, also for the pages drawn later (``SectionsPrint.pages``)
    _ = tr.gettext
    bleed = style.bleed_mm
    cut, landscape = plan_cut(width_mm, height_mm, papers, knobs, avoid, style, snap_mm, keep_whole=keep_whole)
    scenes = tuple(section_scene(scene, s, bleed) for s in cut.sections)
    total = len(cut.sections)
    oriented = [paper.landscape() if landscape else paper.portrait() for paper in papers]

    def sheet(paper: Paper, s: PieceLike, art: Scene) -> Page:
        return titled_section_sheet(paper, s, cut, art, title, style, marks, tr)

    # each piece's art is drawn once; every paper's sheets place it under their own furniture
    printed = section_sheet_pdfs(cut.sections, scenes, oriented, sheet, lambda paper: _(
        "{title}: board sections ({paper})").format(title=title, paper=paper.name), style, poster)
    artifacts: list[Artifact] = []
    for paper in oriented:
        artifacts.append(Artifact(f"{prefix}-sections-{paper.slug}.pdf", printed[paper.slug][0],
                                  _("the board in {total} jigsaw sections ({rows} x {columns}) at 1:1 on "
                                    "{paper}; they fit together one way only").format(
                                      total=total, rows=cut.rows, columns=cut.columns, paper=paper.name),
                                  pages=total))
    artifacts.append(Artifact(f"{prefix}-cut.svg", cut_svg(cut), _("section outlines in board mm (layer 'cut')")))

    def pages() -> dict[str, tuple[Page, ...]]:
        with printing_in(tr):  # the furniture's own words (the ruler's caption) read the edition in force
            return {paper.slug: tuple(sheet(paper, s, sc) for s, sc in zip(cut.sections, scenes, strict=True))
                    for paper in oriented}

    return SectionsPrint(tuple(artifacts), cut, {slug: sheets for slug, (_pdf, sheets) in printed.items()}, scenes,
                         pages)

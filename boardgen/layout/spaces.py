"""Boards as a graph of spaces that both the art and the rules engine read.

A ``Space`` has an id (stable, used by the engine and in saved games), a label (printed), a kind (what the
rules do there: "start", "event", "water"...), its centre and outline in board mm (origin at the board's
top-left corner, y down), the ids of its neighbours, and free data (row/column, track index, dice address).
A ``BoardGraph`` is the spaces plus the board's size; it checks itself when built (unique ids, symmetric
neighbours, every space on the board).

Constructors for the common boards:

- ``square_grid(cols, rows, cell_mm, diagonal=True)``: chess-like squares "A1".."X24", 8-way (or 4-way)
  neighbours;
- ``track(kinds, width_mm, height_mm, shape="loop" | "serpentine")``: a track of typed spaces round the
  board's edge (a loop, like a Monopoly board) or back and forth in rows (a serpentine);
- ``tile_layout(tiles, tile_mm)``: square tiles at integer (column, row) places (an island of tiles),
  neighbours across shared edges;
- ``field(areas, width_mm, height_mm)`` for any areas given as outlines (neighbours where outlines share an
  edge), and ``numbered_field(cols, rows, cell_mm)`` for a grid of numbered or dice-addressed areas.

``render(graph, styles)`` draws the spaces into a ``Scene`` (per-kind fill, outline, icon and label).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any, Literal

from shapely.geometry import Polygon as ShapelyPolygon
from shapely.strtree import STRtree

from boardgen.cards.icons import draw_icon
from boardgen.errors import LayoutError
from boardgen.render.cairo_backend import text_width_mm
from boardgen.render.scene import (
    Font,
    Group,
    Op,
    Point,
    Polygon,
    Rect,
    RectOp,
    Scene,
    Style,
    Text,
    ink_on,
    polygon_path,
)

Kinds = Sequence[str] | Callable[[int, int], str] | str


@dataclass(frozen=True)
class Space:
    id: str
    label: str
    kind: str
    position_mm: Point  # the centre, board mm
    neighbours: tuple[str, ...]
    data: Mapping[str, Any] = dc_field(default_factory=dict, hash=False, compare=False)
    outline_mm: tuple[Point, ...] = ()  # a closed polygon (first point not repeated), board mm

    @property
    def bounds_mm(self) -> Rect:
        xs = [p[0] for p in self.outline_mm] or [self.position_mm[0]]
        ys = [p[1] for p in self.outline_mm] or [self.position_mm[1]]
        return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


@dataclass(frozen=True)
class BoardGraph:
    spaces: tuple[Space, ...]
    width_mm: float
    height_mm: float

    def __post_init__(self) -> None:
        ids = [s.id for s in self.spaces]
        if len(set(ids)) != len(ids):
            dup = next(i for i in ids if ids.count(i) > 1)
            raise LayoutError(f"board: space id {dup!r} is used twice")
        known = set(ids)
        by_id = {s.id: s for s in self.spaces}
        for s in self.spaces:
            for n in s.neighbours:
                if n not in known:
                    raise LayoutError(f"board: space {s.id!r} names an unknown neighbour {n!r}")
                if s.id not in by_id[n].neighbours:
                    raise LayoutError(f"board: space {s.id!r} has {n!r} as a neighbour but not the other way round")
            x, y = s.position_mm
            if not (-1e-6 <= x <= self.width_mm + 1e-6 and -1e-6 <= y <= self.height_mm + 1e-6):
                raise LayoutError(f"board: space {s.id!r} at ({x:.1f}, {y:.1f}) mm is off the "
                                  f"{self.width_mm:g} x {self.height_mm:g} mm board")

    def __getitem__(self, space_id: str) -> Space:
        return self._index()[space_id]

    def __contains__(self, space_id: object) -> bool:
        return space_id in self._index()

    def __len__(self) -> int:
        return len(self.spaces)

    def _index(self) -> dict[str, Space]:
        cached = self.__dict__.get("_by_id")
        if cached is None:
            cached = {s.id: s for s in self.spaces}
            object.__setattr__(self, "_by_id", cached)
        return cached

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.spaces)

    def neighbours(self, space_id: str) -> tuple[Space, ...]:
        return tuple(self[n] for n in self[space_id].neighbours)

    def of_kind(self, kind: str) -> tuple[Space, ...]:
        return tuple(s for s in self.spaces if s.kind == kind)

    def distances(self, start: str) -> dict[str, int]:
        """Steps from ``start`` to every space it can reach (breadth first over neighbours)."""
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for n in self[here].neighbours:
                if n not in dist:
                    dist[n] = dist[here] + 1
                    queue.append(n)
        return dist

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready description (for exports and the engine's tests)."""
        return {"width_mm": self.width_mm, "height_mm": self.height_mm,
                "spaces": [{"id": s.id, "label": s.label, "kind": s.kind,
                            "position_mm": [round(v, 3) for v in s.position_mm],
                            "neighbours": list(s.neighbours), "data": dict(s.data),
                            "outline_mm": [[round(x, 3), round(y, 3)] for x, y in s.outline_mm]}
                           for s in self.spaces]}


def _kind(kinds: Kinds, i: int, j: int, n: int) -> str:
    if isinstance(kinds, str):
        return kinds
    if callable(kinds):
        return kinds(i, j)
    return kinds[n]


def column_name(index: int) -> str:
    """0 -> "A", 25 -> "Z", 26 -> "AA" (spreadsheet style)."""
    name = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        name = chr(ord("A") + rem) + name
    return name


def _rect_outline(r: Rect) -> tuple[Point, ...]:
    return tuple((round(x, 4), round(y, 4)) for x, y in r.corners())


# ------------------------------------------------------------------------------------------ square grid


def square_grid(cols: int, rows: int, cell_mm: float, diagonal: bool = True, margin_mm: float = 0.0,
                kinds: Kinds = "square", width_mm: float | None = None, height_mm: float | None = None
                ) -> BoardGraph:
    """``cols`` x ``rows`` squares of ``cell_mm``, ids/labels "A1" (column letter, row number from the top),
    8-way neighbours (``diagonal``) or 4-way. The grid is centred on a board of ``width_mm`` x ``height_mm``
    (default: the grid plus ``margin_mm`` all round). ``kinds``: one kind, a list in reading order, or a
    function (col, row) -> kind. ``data``: {"col", "row"} (0-based)."""
    if cols < 1 or rows < 1 or cell_mm <= 0:
        raise LayoutError(f"board: a square grid needs at least 1 x 1 cells of a positive size, got {cols} x {rows}"
                          f" of {cell_mm} mm")
    w = width_mm if width_mm is not None else cols * cell_mm + 2 * margin_mm
    h = height_mm if height_mm is not None else rows * cell_mm + 2 * margin_mm
    x0, y0 = (w - cols * cell_mm) / 2, (h - rows * cell_mm) / 2
    if x0 < -1e-6 or y0 < -1e-6:
        raise LayoutError(f"board: {cols} x {rows} cells of {cell_mm:g} mm do not fit a {w:g} x {h:g} mm board")
    steps = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] if diagonal else \
        [(0, -1), (-1, 0), (1, 0), (0, 1)]
    spaces = []
    for r in range(rows):
        for c in range(cols):
            sid = f"{column_name(c)}{r + 1}"
            nbrs = tuple(f"{column_name(c + dc)}{r + dr + 1}" for dc, dr in steps
                         if 0 <= c + dc < cols and 0 <= r + dr < rows)
            cell = Rect(x0 + c * cell_mm, y0 + r * cell_mm, cell_mm, cell_mm)
            spaces.append(Space(sid, sid, _kind(kinds, c, r, r * cols + c), cell.center, nbrs,
                                {"col": c, "row": r}, _rect_outline(cell)))
    return BoardGraph(tuple(spaces), w, h)


# ------------------------------------------------------------------------------------------ track


def _loop_cells(n: int, area: Rect) -> list[Rect]:
    """``n`` cells clockwise round the edge of ``area`` from its top-left corner: the top and bottom rows
    hold the corners; side counts chosen so the cells are as square as possible."""
    best: tuple[float, int, int, int] | None = None
    for b in range(2, n // 2 + 2):  # cells per side column, corners included
        rest = n - 2 * (b - 2)  # cells in the top and bottom rows together
        if rest < 4:
            break
        top, bottom = (rest + 1) // 2, rest // 2
        cw, ch = area.width / max(top, bottom), area.height / b
        badness = abs(math.log(cw / ch))
        if best is None or badness < best[0] - 1e-9:
            best = (badness, top, bottom, b)
    if best is None:
        raise LayoutError(f"board: a loop track needs at least 4 spaces, got {n}")
    _, top, bottom, b = best
    ch = area.height / b
    cells: list[Rect] = []
    tw = area.width / top
    cells += [Rect(area.x + i * tw, area.y, tw, ch) for i in range(top)]
    cells += [Rect(area.right - tw, area.y + j * ch, tw, ch) for j in range(1, b - 1)]
    bw = area.width / bottom
    cells += [Rect(area.right - (i + 1) * bw, area.bottom - ch, bw, ch) for i in range(bottom)]
    cells += [Rect(area.x, area.bottom - (j + 1) * ch, bw, ch) for j in range(1, b - 1)]
    # side cells take the width of their corner so the ring's inner edge is straight
    return cells


def _serpentine_cells(n: int, area: Rect) -> list[Rect]:
    best: tuple[float, int, int] | None = None
    for cols in range(1, n + 1):
        rows = math.ceil(n / cols)
        side = min(area.width / cols, area.height / rows)
        if best is None or side > best[0] + 1e-9:
            best = (side, cols, rows)
    assert best is not None
    side, cols, rows = best
    x0 = area.x + (area.width - cols * side) / 2
    y0 = area.y + (area.height - rows * side) / 2
    cells = []
    for i in range(n):
        r, c = divmod(i, cols)
        if r % 2:
            c = cols - 1 - c
        cells.append(Rect(x0 + c * side, y0 + r * side, side, side))
    return cells


def track(kinds: Sequence[str], width_mm: float, height_mm: float, shape: Literal["loop", "serpentine"] = "loop",
          margin_mm: float = 10.0, labels: Sequence[str] | None = None, gap_mm: float = 0.0,
          closed: bool | None = None) -> BoardGraph:
    """A track of ``len(kinds)`` typed spaces on a ``width_mm`` x ``height_mm`` board: ``"loop"`` runs
    clockwise round the board's edge from the top-left corner (closed: the last space leads to the first),
    ``"serpentine"`` fills rows left to right, then right to left (open). Ids "T1".."Tn"; labels default to
    the space numbers; ``data``: {"index"} (0-based). ``gap_mm`` shrinks each drawn space (a gutter)."""
    n = len(kinds)
    if n < 2:
        raise LayoutError(f"board: a track needs at least 2 spaces, got {n}")
    area = Rect(margin_mm, margin_mm, width_mm - 2 * margin_mm, height_mm - 2 * margin_mm)
    if area.width <= 0 or area.height <= 0:
        raise LayoutError(f"board: a {margin_mm:g} mm margin leaves no room on a {width_mm:g} x {height_mm:g} mm board")
    cells = _loop_cells(n, area) if shape == "loop" else _serpentine_cells(n, area)
    is_closed = (shape == "loop") if closed is None else closed
    if labels is not None and len(labels) != n:
        raise LayoutError(f"board: {len(labels)} labels for {n} track spaces")
    spaces = []
    for i, (kind, cell) in enumerate(zip(kinds, cells, strict=True)):
        nbrs = []
        if i > 0 or is_closed:
            nbrs.append(f"T{(i - 1) % n + 1}")
        if i < n - 1 or is_closed:
            nbrs.append(f"T{(i + 1) % n + 1}")
        drawn = cell.inset(gap_mm / 2) if gap_mm else cell
        spaces.append(Space(f"T{i + 1}", labels[i] if labels is not None else str(i + 1), kind, cell.center,
                            tuple(dict.fromkeys(nbrs)), {"index": i}, _rect_outline(drawn)))
    return BoardGraph(tuple(spaces), width_mm, height_mm)


# ------------------------------------------------------------------------------------------ tiles, fields


def tile_layout(tiles: Mapping[str, tuple[int, int]] | Sequence[tuple[int, int]], tile_mm: float,
                margin_mm: float = 10.0, kinds: Mapping[str, str] | str = "tile") -> BoardGraph:
    """Square tiles at integer (column, row) places (may be negative); the board is their bounding box plus
    ``margin_mm``. Neighbours share an edge. ``tiles`` as a list gets ids "t1".."tn" in the given order."""
    placed = dict(tiles) if isinstance(tiles, Mapping) else {f"t{i + 1}": p for i, p in enumerate(tiles)}
    if not placed:
        raise LayoutError("board: a tile layout needs at least one tile")
    where: dict[tuple[int, int], str] = {}
    for tid, (c, r) in placed.items():
        if (c, r) in where:
            raise LayoutError(f"board: tiles {where[(c, r)]!r} and {tid!r} are both at ({c}, {r})")
        where[(c, r)] = tid
    c0 = min(c for c, _ in placed.values())
    r0 = min(r for _, r in placed.values())
    cols = max(c for c, _ in placed.values()) - c0 + 1
    rows = max(r for _, r in placed.values()) - r0 + 1
    spaces = []
    for tid, (c, r) in placed.items():
        cell = Rect(margin_mm + (c - c0) * tile_mm, margin_mm + (r - r0) * tile_mm, tile_mm, tile_mm)
        nbrs = tuple(where[p] for p in ((c, r - 1), (c + 1, r), (c, r + 1), (c - 1, r)) if p in where)
        kind = kinds if isinstance(kinds, str) else kinds.get(tid, "tile")
        spaces.append(Space(tid, tid, kind, cell.center, nbrs, {"col": c, "row": r}, _rect_outline(cell)))
    return BoardGraph(tuple(spaces), cols * tile_mm + 2 * margin_mm, rows * tile_mm + 2 * margin_mm)


@dataclass(frozen=True)
class Area:
    id: str
    outline_mm: tuple[Point, ...]
    label: str = ""
    kind: str = "area"
    data: Mapping[str, Any] = dc_field(default_factory=dict, hash=False, compare=False)


def field(areas: Iterable[Area], width_mm: float, height_mm: float, touch_mm: float = 1.0) -> BoardGraph:
    """Areas of any shape; two areas are neighbours when their outlines share an edge at least ``touch_mm``
    long (a corner alone does not count). The space's position is a point inside its area."""
    items = list(areas)
    polys = [ShapelyPolygon(a.outline_mm) for a in items]
    for a, p in zip(items, polys, strict=True):
        if not p.is_valid or p.area <= 0:
            raise LayoutError(f"board: area {a.id!r} has no valid outline")
    tree = STRtree(polys)
    nbrs: list[list[str]] = [[] for _ in items]
    for i, p in enumerate(polys):
        for j in sorted(int(k) for k in tree.query(p.buffer(1e-6))):
            if j != i and p.boundary.intersection(polys[j].buffer(1e-6)).length >= touch_mm:
                nbrs[i].append(items[j].id)
    spaces = []
    for a, p, n in zip(items, polys, nbrs, strict=True):
        c = p.centroid if p.contains(p.centroid) else p.representative_point()
        spaces.append(Space(a.id, a.label or a.id, a.kind, (round(c.x, 4), round(c.y, 4)), tuple(n), a.data,
                            tuple(a.outline_mm)))
    return BoardGraph(tuple(spaces), width_mm, height_mm)


def numbered_field(cols: int, rows: int, cell_mm: float, margin_mm: float = 10.0, kinds: Kinds = "area",
                   address: Literal["number", "dice"] = "number", start: int = 1) -> BoardGraph:
    """A grid of rectangular areas: ``address="number"`` numbers them ``start``.. in reading order (ids "1",
    "2"...); ``"dice"`` addresses each by two dice, row die then column die (ids "3-5": row 3, column 5;
    at most 6 x 6). Neighbours share an edge. ``data``: {"col", "row", "number"} or {"col", "row", "dice"}."""
    if address == "dice" and (cols > 6 or rows > 6):
        raise LayoutError(f"board: a field addressed by two dice has at most 6 x 6 areas, got {cols} x {rows}")
    areas = []
    for r in range(rows):
        for c in range(cols):
            rect = Rect(margin_mm + c * cell_mm, margin_mm + r * cell_mm, cell_mm, cell_mm)
            if address == "dice":
                aid, data = f"{r + 1}-{c + 1}", {"col": c, "row": r, "dice": [r + 1, c + 1]}
            else:
                aid, data = str(start + r * cols + c), {"col": c, "row": r, "number": start + r * cols + c}
            areas.append(Area(aid, _rect_outline(rect), aid, _kind(kinds, c, r, r * cols + c), data))
    return field(areas, cols * cell_mm + 2 * margin_mm, rows * cell_mm + 2 * margin_mm)


# ------------------------------------------------------------------------------------------ drawing


@dataclass(frozen=True)
class SpaceStyle:
    """How spaces of one kind look: fill, edge, an icon in the middle, the label's place and size."""

    fill: str = "#f4f1e8"
    stroke: str = "#1a1a1a"
    stroke_width_mm: float = 0.35
    icon: str = ""
    icon_share: float = 0.45  # icon size as a share of the space's smaller side
    label: Literal["corner", "center", "top", "none"] = "corner"
    label_pt: float = 7.0
    name: str = ""  # printed under the icon (e.g. "Event"); a second cue besides colour


def render(graph: BoardGraph, styles: Mapping[str, SpaceStyle] | None = None,
           background: str | None = "#ffffff", bleed_mm: float = 3.0, default: SpaceStyle = SpaceStyle()) -> Scene:
    """The board's spaces in board mm: background (into the bleed), each space's outline filled and stroked
    in its kind's style, its icon, label and kind name. Ops are named "space:<id>" (groups) for tests."""
    styles = styles or {}
    ops: list[Op] = []
    if background is not None:
        ops.append(RectOp(Rect(-bleed_mm, -bleed_mm, graph.width_mm + 2 * bleed_mm, graph.height_mm + 2 * bleed_mm),
                          Style(fill=background), name="board-background"))
    for s in graph.spaces:
        st = styles.get(s.kind, default)
        items: list[Op] = []
        if s.outline_mm:
            items.append(Polygon(s.outline_mm, Style(fill=st.fill, stroke=st.stroke,
                                                     stroke_width_mm=st.stroke_width_mm, line_join="round"),
                                 name="space-outline"))
        box = s.bounds_mm
        side = min(box.width, box.height) if s.outline_mm else 10.0
        ink = ink_on(st.fill)
        cx, cy = s.position_mm
        if st.icon:
            size = side * st.icon_share
            icon_y = cy - size / 2 - (side * 0.06 if st.name else 0.0)
            items.append(Group(tuple(draw_icon(st.icon, cx - size / 2, icon_y, size)), name=f"icon:{st.icon}"))
        if st.name:
            font = Font(size_pt=max(4.5, min(st.label_pt, side * 0.14 / 0.3528)))
            while text_width_mm(st.name, font) > box.width * 0.9 and font.size_pt > 4.0:
                font = Font(size_pt=round(font.size_pt - 0.25, 2))
            items.append(Text(cx, cy + side * 0.36, st.name, font, ink, align="center", baseline="middle",
                              name="space-kind"))
        if st.label != "none" and s.label:
            font = Font(size_pt=st.label_pt, bold=True)
            if st.label == "corner":
                items.append(Text(box.x + 1.2, box.y + 1.2, s.label, font, ink, baseline="top", name="space-label"))
            elif st.label == "top":
                items.append(Text(cx, box.y + 1.2, s.label, font, ink, align="center", baseline="top",
                                  name="space-label"))
            else:
                items.append(Text(cx, cy, s.label, font, ink, align="center", baseline="middle", name="space-label"))
        ops.append(Group(tuple(items), name=f"space:{s.id}"))
    return Scene(tuple(ops))


def outline_path(space: Space) -> tuple[tuple, ...]:
    return polygon_path(space.outline_mm)


# ------------------------------------------------------------------------------------------ room for the pieces


@dataclass(frozen=True)
class SpaceNeed:
    """A space (or marked area) and the piece footprint it must hold: ``round`` spaces are discs of diameter
    ``width_mm``; a footprint is a ``piece_length_mm`` x ``piece_width_mm`` rectangle (a disc: both its
    diameter and ``piece_round``)."""

    space: str
    width_mm: float
    height_mm: float
    piece: str
    piece_length_mm: float
    piece_width_mm: float
    round: bool = False
    piece_round: bool = False

    @property
    def fits(self) -> bool:
        length, width = max(self.piece_length_mm, self.piece_width_mm), min(self.piece_length_mm, self.piece_width_mm)
        if self.round:
            need = length if self.piece_round else math.hypot(length, width)
            return need <= self.width_mm + 1e-6
        w, h = max(self.width_mm, self.height_mm), min(self.width_mm, self.height_mm)
        return length <= w + 1e-6 and width <= h + 1e-6

    def finding_text(self) -> str:
        shape = f"{self.width_mm:g} mm across" if self.round else f"{self.width_mm:g} x {self.height_mm:g} mm"
        return (f"{self.space} ({shape}) is too small for {self.piece} "
                f"({self.piece_length_mm:g} x {self.piece_width_mm:g} mm)")

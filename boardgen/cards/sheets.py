"""Component sets on paper: grid or shelf packing, duplex backs or fold-over pairs, cut and score lines.

``lay_out(cset, paper, title, mode)`` returns the pages for one kind of part plus, per page, the cut and fold
lines in page mm (for the cut SVG). Double-sided parts either get a back page after each front page (duplex:
mirrored left-right for a long-edge flip, with a registration target) or are printed as fold-over pairs
(front above, back below turned 180 degrees, joined at a fold line) for single-sided printers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shapely.geometry import Polygon, box
from shapely.ops import unary_union

from boardgen.cards.model import Component, ComponentSet, geometry_path
from boardgen.render.cairo_backend import Page
from boardgen.render.imposition import (
    DEFAULT_STYLE,
    Paper,
    Placement,
    SheetStyle,
    compose_sheet,
    pack_grid,
    pack_shelves,
)
from boardgen.render.scene import Group, Path, PathCommand, Rect, Scene, Style, rotate

INK = "#1a1a1a"
FOLD_STYLE = Style(stroke=INK, stroke_width_mm=0.2, dash_mm=(1.0, 1.0))


@dataclass(frozen=True)
class CutSheet:
    """The cut and fold lines of one printed page, in page mm."""

    label: str
    cuts: tuple[tuple[PathCommand, ...], ...]
    folds: tuple[tuple[tuple[float, float], ...], ...]


@dataclass(frozen=True)
class LaidOut:
    kind: str
    title: str
    pages: tuple[Page, ...]
    cut_sheets: tuple[CutSheet, ...]
    front_sheets: int  # sheets of paper (a duplex front and back is one sheet)
    per_sheet: int  # parts on a full sheet


def path_polygon(commands: Sequence[PathCommand]) -> Polygon:
    """The polygon of a cut outline made of M/L/Z commands (first ring outer, the rest holes)."""
    rings: list[list[tuple[float, float]]] = []
    for cmd in commands:
        if cmd[0] == "M":
            rings.append([(cmd[1], cmd[2])])
        elif cmd[0] == "L":
            rings[-1].append((cmd[1], cmd[2]))
    return Polygon(rings[0], rings[1:])


def fold_pair(part: Component) -> Component:
    """Front above, back below turned 180 degrees, joined along a horizontal fold (for single-sided printing).

    Folding the lower half up behind the upper one and turning the part over sideways shows the back upright."""
    assert part.back is not None
    w, h = part.width_mm, part.height_mm
    front_poly = path_polygon(part.outline)
    back_poly = Polygon([(w - x, 2 * h - y) for x, y in front_poly.exterior.coords])
    shared = front_poly.boundary.intersection(back_poly.boundary)
    if shared.length > 1.0:  # the halves share an edge (hexagons): fold along it
        x0, _, x1, _ = shared.bounds
        fold = ((x0, h), (x1, h))
        outline = unary_union([front_poly, back_poly])
    else:  # they touch at a point (discs): join them with a bridge and fold across it
        fold = ((w * 0.3, h), (w * 0.7, h))
        outline = unary_union([front_poly, back_poly, box(w * 0.3, h - 1.5, w * 0.7, h + 1.5)])
    back = Group(part.back.items, transform=rotate(180.0, w / 2, h))
    items = (*part.front.items, back, Path((("M", *fold[0]), ("L", *fold[1])), FOLD_STYLE, "fold-line"))
    return Component(part.kind, part.label, w, 2 * h, Scene(items), geometry_path(outline), None,
                     folds=(*part.folds, fold), marks=part.marks)


def _cut_ops(parts: Sequence[Component], trims: Sequence[Rect]) -> CutSheet:
    cuts: list[tuple[PathCommand, ...]] = []
    folds: list[tuple[tuple[float, float], ...]] = []
    for part, t in zip(parts, trims, strict=True):
        cuts.append(tuple((c[0], *(v + (t.x if k % 2 == 0 else t.y) for k, v in enumerate(c[1:])))
                          for c in part.outline))
        folds.extend(tuple((x + t.x, y + t.y) for x, y in f) for f in part.folds)
    return CutSheet("", tuple(cuts), tuple(folds))


def lay_out(cset: ComponentSet, paper: Paper, title: str, mode: str = "duplex",
            style: SheetStyle = DEFAULT_STYLE) -> LaidOut:
    """Pages for one component set on ``paper`` (``mode``: "duplex" or "fold" for double-sided parts)."""
    parts = list(cset.components)
    double = cset.double_sided and any(p.back is not None for p in parts)
    if double and mode == "fold":
        parts = [fold_pair(p) for p in parts]
        double = False
    gap = style.gap_mm if cset.gap_mm is None else cset.gap_mm
    bleed = min(style.bleed_mm, gap / 2)  # parts packed closer than two bleeds share the space between them
    if cset.uniform and len({(p.width_mm, p.height_mm) for p in parts}) == 1:
        plan, grids = pack_grid(len(parts), parts[0].width_mm, parts[0].height_mm, paper, style, gap_mm=gap,
                                allow_rotate=False)
        sheets: list[list[tuple[int, Rect]]] = []
        start = 0
        for trims in grids:
            sheets.append([(start + i, t) for i, t in enumerate(trims)])
            start += len(trims)
        per_sheet = plan.per_sheet
    else:
        sheets = pack_shelves([(p.width_mm, p.height_mm) for p in parts], paper, style, gap_mm=gap,
                              row_starts=cset.row_starts)
        per_sheet = max(len(s) for s in sheets)
    pages: list[Page] = []
    cut_sheets: list[CutSheet] = []
    n = len(sheets)
    for k, sheet in enumerate(sheets):
        chosen = [parts[i] for i, _ in sheet]
        trims = [t for _, t in sheet]
        fronts = [Placement(t, p.front, f"item:{p.kind}", bleed) for p, t in zip(chosen, trims, strict=True)]
        marks = [p.marks for p in chosen]
        side = " (front)" if double else ""
        label = f"{cset.kind} sheet {k + 1} of {n}{side}"
        pages.append(compose_sheet(paper, fronts, title, label, style, marks=marks, duplex=double))
        cut = _cut_ops(chosen, trims)
        cut_sheets.append(CutSheet(label, cut.cuts, cut.folds))
        if double:
            backs = [Placement(t, p.back if p.back is not None else Scene(), f"item:{p.kind}-back", bleed)
                     for p, t in zip(chosen, trims, strict=True)]
            back_label = f"{cset.kind} sheet {k + 1} of {n} (back: print on the reverse, flip on the long edge)"
            pages.append(compose_sheet(paper, backs, title, back_label, style, marks=marks, back=True))
    return LaidOut(cset.kind, cset.title, tuple(pages), tuple(cut_sheets), n, per_sheet)

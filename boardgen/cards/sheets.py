"""Component sets on paper: grid or shelf packing, duplex backs or fold-over pairs, cut and score lines.

``lay_out(cset, paper, title, mode)`` returns the pages for one kind of part plus, per page, the cut and fold
lines in page mm (for the cut SVG). Double-sided parts either get a back page after each front page (duplex:
mirrored left-right for a long-edge flip, with a registration target) or are printed as fold-over pairs
(front above, back below turned 180 degrees, joined at a fold line) for single-sided printers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from shapely.geometry import Polygon, box
from shapely.ops import unary_union

from boardgen.cards.model import Component, ComponentSet, geometry_path
from boardgen.i18n import N_, current
from boardgen.render.cairo_backend import Page, render_svg
from boardgen.render.imposition import (
    DEFAULT_STYLE,
    Paper,
    Placement,
    PrintCutMarks,
    SheetStyle,
    compose_sheet,
    content_area,
    mirror_placements,
    print_cut_marks,
)
from boardgen.render.scene import (
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
    layer,
    rotate,
    translate,
)

INK = "#1a1a1a"
CUT_GAP_MM = 10.0
"""Space between the sheets stacked in one cut file."""
FOLD_STYLE = Style(stroke=INK, stroke_width_mm=0.2, dash_mm=(1.0, 1.0))

SHEET_KINDS = (N_("mat"), N_("screen"), N_("token"), N_("pawn"), N_("die"), N_("marker"), N_("tile"), N_("misc"),
               N_("building"), N_("chip"), N_("coin"), N_("card"), N_("badge"), N_("aid"), N_("standee"),
               N_("player-cards"), N_("res"), N_("lq"))
"""The kinds of sheet a heading names ("mat sheet 1 of 5"), in the catalogs (a deck's sheets name the deck)."""


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
    registered: bool = True  # in the print-then-cut edition: its fronts carry the registration marks (False: a
    # part too big for the marked sheet, laid out with the ordinary margins, to be cut by hand)


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


def _moved(cmd: PathCommand, dx: float, dy: float) -> PathCommand:
    """A path command moved by (dx, dy): only coordinates move; an arc's radius and angles stay."""
    if cmd[0] in ("A", "AN"):
        return (cmd[0], cmd[1] + dx, cmd[2] + dy, *cmd[3:])
    return (cmd[0], *(v + (dx if k % 2 == 0 else dy) for k, v in enumerate(cmd[1:])))


def _cut_ops(parts: Sequence[Component], trims: Sequence[Rect]) -> CutSheet:
    cuts: list[tuple[PathCommand, ...]] = []
    folds: list[tuple[tuple[float, float], ...]] = []
    for part, t in zip(parts, trims, strict=True):
        cuts.append(tuple(_moved(c, t.x, t.y) for c in part.outline))
        folds.extend(tuple((x + t.x, y + t.y) for x, y in f) for f in part.folds)
    return CutSheet("", tuple(cuts), tuple(folds))


def with_print_cut_marks(page: Page, paper: Paper, marks: PrintCutMarks | None) -> Page:
    """``page`` with the print-then-cut registration marks on top (a front sheet of that edition), or as it is
    when ``marks`` is None."""
    if marks is None:
        return page
    return replace(page, scene=Scene((*page.scene.items, layer("print-cut-marks", [marks.ops(paper)]))))


def grid_sheets(count: int, width_mm: float, height_mm: float, paper: Paper, style: SheetStyle, gap_mm: float,
                stagger: bool = False, area: Rect | None = None) -> tuple[int, list[list[Rect]]]:
    """Same-size parts in rows, as many sheets as needed: (parts per full sheet, trims per sheet).

    Rows start at the top of the content area (a part-filled last sheet keeps its paper below free) and the
    block is centred across. ``stagger``: odd rows shift by half a pitch and rows close up (round parts),
    used only when that fits more. ``area``: pack into this part of the page (default: the content area).
    Raises ValueError if one part does not fit the sheet."""
    area = content_area(paper, style) if area is None else area
    pitch_x = width_mm + gap_mm

    def plan(staggered: bool) -> tuple[list[int], float]:
        cols = math.floor((area.width + gap_mm) / pitch_x + 1e-9)
        if staggered:
            pitch_y = pitch_x * math.sqrt(3) / 2
            odd = math.floor((area.width + gap_mm - pitch_x / 2) / pitch_x + 1e-9)
            rows = math.floor((area.height - height_mm) / pitch_y + 1e-9) + 1 if area.height >= height_mm else 0
        else:
            pitch_y = height_mm + gap_mm
            odd = cols
            rows = math.floor((area.height + gap_mm) / pitch_y + 1e-9)
        return [cols if r % 2 == 0 else odd for r in range(max(rows, 0))] if cols > 0 else [], pitch_y

    per_row, pitch_y = plan(False)
    staggered = False
    if stagger:
        alt_rows, alt_pitch = plan(True)
        if sum(alt_rows) > sum(per_row):
            per_row, pitch_y, staggered = alt_rows, alt_pitch, True
    per_sheet = sum(per_row)
    if per_sheet == 0:
        raise ValueError(f"a {width_mm:g} x {height_mm:g} mm item does not fit the {area.width:.1f} x "
                         f"{area.height:.1f} mm printable area of {paper.name}")
    cols = per_row[0]
    block_w = cols * pitch_x - gap_mm
    if staggered and len(per_row) > 1 and per_row[1] == cols:
        block_w += pitch_x / 2
    x0 = area.x + (area.width - block_w) / 2
    positions = [Rect(x0 + (pitch_x / 2 if staggered and r % 2 else 0.0) + c * pitch_x, area.y + r * pitch_y,
                      width_mm, height_mm) for r, n in enumerate(per_row) for c in range(n)]
    sheets = [positions[:min(per_sheet, count - start)] for start in range(0, count, per_sheet)]
    return per_sheet, sheets


@dataclass
class _Shelf:
    y: float
    height: float
    width: float
    items: list[tuple[int, float, float]]


def first_fit_shelves(sizes: Sequence[tuple[float, float]], paper: Paper, style: SheetStyle, gap_mm: float,
                      row_starts: Sequence[int] = ()) -> list[list[tuple[int, Rect]]]:
    """Parts of different sizes on shelves (rows), each part on the FIRST sheet with room for it: beside the
    parts of that sheet's bottom shelf (which may grow), or on a new shelf below. Parts in ``row_starts``
    always begin a new shelf. Rows are centred across. Returns (part index, trim) per sheet."""
    area = content_area(paper, style)
    sheets: list[list[_Shelf]] = []
    for index, (w, h) in enumerate(sizes):
        if w > area.width + 1e-9 or h > area.height + 1e-9:
            raise ValueError(f"a {w:g} x {h:g} mm item does not fit the {area.width:.1f} x {area.height:.1f} mm "
                             f"printable area of {paper.name}")
        placed = False
        for shelves in sheets:
            if index not in row_starts:
                shelf = shelves[-1]
                if shelf.y + h <= area.bottom + 1e-9 and shelf.width + gap_mm + w <= area.width + 1e-9:
                    shelf.items.append((index, w, h))
                    shelf.width += gap_mm + w
                    shelf.height = max(shelf.height, h)
                    placed = True
            if placed:
                break
            y = shelves[-1].y + shelves[-1].height + gap_mm if shelves else area.y
            if y + h <= area.bottom + 1e-9:
                shelves.append(_Shelf(y, h, w, [(index, w, h)]))
                placed = True
                break
        if not placed:
            sheets.append([_Shelf(area.y, h, w, [(index, w, h)])])
    out: list[list[tuple[int, Rect]]] = []
    for shelves in sheets:
        placed_parts: list[tuple[int, Rect]] = []
        for shelf in shelves:
            x = area.x + (area.width - shelf.width) / 2
            for index, w, h in shelf.items:
                placed_parts.append((index, Rect(x, shelf.y, w, h)))
                x += w + gap_mm
        out.append(sorted(placed_parts))
    return out


def side_bleeds(trims: Sequence[Rect], bleed_mm: float) -> list[Rect]:
    """Per part, its bleed rectangle in part mm: the full bleed on every side that faces no other part within
    two bleeds, half the gap on sides that do (neighbours share the space between them)."""
    out = []
    for i, t in enumerate(trims):
        left = top = right = bottom = bleed_mm
        for j, u in enumerate(trims):
            if i == j:
                continue
            overlap_y = u.y < t.bottom - 1e-6 and t.y < u.bottom - 1e-6
            overlap_x = u.x < t.right - 1e-6 and t.x < u.right - 1e-6
            if overlap_y and -1e-6 <= u.x - t.right < 2 * bleed_mm:
                right = min(right, max(0.0, (u.x - t.right) / 2))
            if overlap_y and -1e-6 <= t.x - u.right < 2 * bleed_mm:
                left = min(left, max(0.0, (t.x - u.right) / 2))
            if overlap_x and -1e-6 <= u.y - t.bottom < 2 * bleed_mm:
                bottom = min(bottom, max(0.0, (u.y - t.bottom) / 2))
            if overlap_x and -1e-6 <= t.y - u.bottom < 2 * bleed_mm:
                top = min(top, max(0.0, (t.y - u.bottom) / 2))
        out.append(Rect(-left, -top, t.width + left + right, t.height + top + bottom))
    return out


def gutter_fold(cset: ComponentSet, paper: Paper, title: str, style: SheetStyle = DEFAULT_STYLE,
                edition: PrintCutMarks | None = None) -> LaidOut:
    """Double-sided parts of one size for single-sided printing: fronts on the left half of the sheet, each
    back at the mirrored place on the right half (upright, like a long-edge duplex back), a fold line down the
    middle. Fold along it (printed sides out), glue the halves, then cut the parts through both layers.
    ``edition``: the print-then-cut marks printed on every sheet (``style`` already leaves room for them)."""
    parts = list(cset.components)
    if len({(p.width_mm, p.height_mm) for p in parts}) != 1:
        raise ValueError("gutter-fold needs parts of one size")
    gap = style.gap_mm if cset.gap_mm is None else cset.gap_mm
    area = content_area(paper, style)
    fold_x = paper.width_mm / 2
    left = Rect(area.x, area.y, fold_x - style.bleed_mm - area.x, area.height)
    w, h = parts[0].width_mm, parts[0].height_mm
    per_sheet, grids = grid_sheets(len(parts), w, h, paper, style, gap, area=left)
    pages: list[Page] = []
    cut_sheets: list[CutSheet] = []
    start = 0
    n = len(grids)
    fold = ((fold_x, area.y - style.marks_extent_mm), (fold_x, area.bottom + style.marks_extent_mm))
    for k, trims in enumerate(grids):
        chosen = parts[start:start + len(trims)]
        start += len(trims)
        clips = side_bleeds(trims, style.bleed_mm) if cset.outer_bleed else [None] * len(trims)
        bleed = min(style.bleed_mm, gap / 2)
        fronts = [Placement(t, p.front, f"item:{p.kind}", bleed, c)
                  for p, t, c in zip(chosen, trims, clips, strict=True)]
        backs = mirror_placements(paper, [Placement(t, p.back if p.back is not None else Scene(),
                                                    f"item:{p.kind}-back", bleed, c)
                                          for p, t, c in zip(chosen, trims, clips, strict=True)])
        fold_line = Path((("M", *fold[0]), ("L", *fold[1])), FOLD_STYLE, "fold-line")
        label = current().gettext("{kind} sheet {k} of {n} (gutter-fold: fold on the dashed line, glue, then "
                                  "cut)").format(kind=cset.label or current().gettext(cset.kind), k=k + 1, n=n)
        page = compose_sheet(paper, [*fronts, *backs], title, label, style, marks=[p.marks for p in chosen] * 2,
                             extra=[fold_line])
        pages.append(with_print_cut_marks(page, paper, edition))
        cut = _cut_ops(chosen, trims)
        cut_sheets.append(CutSheet(label, cut.cuts, (*cut.folds, fold)))
    return LaidOut(cset.kind, cset.title, tuple(pages), tuple(cut_sheets), n, per_sheet)


def lay_out(cset: ComponentSet, paper: Paper, title: str, mode: str = "duplex",
            style: SheetStyle = DEFAULT_STYLE) -> LaidOut:
    """Pages for one component set on ``paper`` (``mode`` for double-sided parts: "duplex", "fold" (each part
    a fold-over pair) or "gutter" (fronts and backs on the two halves of one sheet, see ``gutter_fold``)).

    Inside ``imposition.print_then_cut`` the sheets are that edition's: margins wide enough for the registration
    marks, which every front carries. A part too big for those margins is laid out with the ordinary ones and
    no marks (``LaidOut.registered`` False: cut by hand), so a template that builds also builds that edition.
    Raises ValueError when a part does not fit the sheet at all."""
    edition = print_cut_marks()
    if edition is None:
        return _lay_out(cset, paper, title, mode, style, None)
    try:
        return _lay_out(cset, paper, title, mode, edition.sheet_style(style), edition)
    except ValueError:
        return replace(_lay_out(cset, paper, title, mode, style, None), registered=False)


def _lay_out(cset: ComponentSet, paper: Paper, title: str, mode: str, style: SheetStyle,
             edition: PrintCutMarks | None) -> LaidOut:
    parts = list(cset.components)
    double = cset.double_sided and any(p.back is not None for p in parts)
    if double and mode == "gutter":
        return gutter_fold(cset, paper, title, style, edition)
    if double and mode == "fold":
        parts = [fold_pair(p) for p in parts]
        double = False
    gap = style.gap_mm if cset.gap_mm is None else cset.gap_mm
    bleed = min(style.bleed_mm, gap / 2)  # parts packed closer than two bleeds share the space between them
    if cset.uniform and len({(p.width_mm, p.height_mm) for p in parts}) == 1:
        per_sheet, grids = grid_sheets(len(parts), parts[0].width_mm, parts[0].height_mm, paper, style, gap,
                                       cset.stagger)
        sheets: list[list[tuple[int, Rect]]] = []
        start = 0
        for trims in grids:
            sheets.append([(start + i, t) for i, t in enumerate(trims)])
            start += len(trims)
    else:
        sheets = first_fit_shelves([(p.width_mm, p.height_mm) for p in parts], paper, style, gap,
                                   cset.row_starts)
        per_sheet = max(len(s) for s in sheets)
    pages: list[Page] = []
    cut_sheets: list[CutSheet] = []
    n = len(sheets)
    for k, sheet in enumerate(sheets):
        chosen = [parts[i] for i, _ in sheet]
        trims = [t for _, t in sheet]
        clips = side_bleeds(trims, style.bleed_mm) if cset.outer_bleed else [None] * len(trims)
        fronts = [Placement(t, p.front, f"item:{p.kind}", bleed, c)
                  for p, t, c in zip(chosen, trims, clips, strict=True)]
        marks = [p.marks for p in chosen]
        _ = current().gettext
        side = _(" (front)") if double else ""
        label = _("{kind} sheet {k} of {n}{side}").format(kind=cset.label or _(cset.kind), k=k + 1, n=n, side=side)
        pages.append(with_print_cut_marks(compose_sheet(paper, fronts, title, label, style, marks=marks,
                                                        duplex=double), paper, edition))
        cut = _cut_ops(chosen, trims)
        cut_sheets.append(CutSheet(label, cut.cuts, cut.folds))
        if double:
            backs = [Placement(t, p.back if p.back is not None else Scene(), f"item:{p.kind}-back", bleed, c)
                     for p, t, c in zip(chosen, trims, clips, strict=True)]
            # the backs are mirrored left-right: a flip about the page's upright edge, which is the sheet's
            # long edge when the page is portrait and its short edge when the page is landscape
            edge = _("long") if paper.height_mm >= paper.width_mm else _("short")
            back_label = _("{kind} sheet {k} of {n} (back: print on the reverse, flip on the {edge} "
                           "edge)").format(kind=cset.label or _(cset.kind), k=k + 1, n=n, edge=edge)
            pages.append(compose_sheet(paper, backs, title, back_label, style, marks=marks, back=True))
    return LaidOut(cset.kind, cset.title, tuple(pages), tuple(cut_sheets), n, per_sheet)


def layout_rank(laid: LaidOut) -> tuple[bool, int, int]:
    """How the ways of laying out one set (paper or parts turned) are ranked, lowest first: with registration
    marks before without (print-then-cut), then fewer sheets; in the print-then-cut edition, whose wide margins
    make ties common, then more parts on a full sheet (its first sheets fuller)."""
    return not laid.registered, laid.front_sheets, -laid.per_sheet if print_cut_marks() is not None else 0


def _cost(laid: Sequence[LaidOut]) -> tuple[int, int]:
    """How a way round is ranked: sets left without registration marks first (print-then-cut), then sheets."""
    return sum(1 for lo in laid if not lo.registered), sum(lo.front_sheets for lo in laid)


def one_orientation(lay: Callable[[Paper], Sequence[LaidOut]], paper: Paper) -> list[LaidOut]:
    """A file's part sets, all on ``paper`` turned one way, when any of them is double-sided: ``lay(p)`` lays
    every set out on ``p``; it is tried on the paper portrait and landscape and the way round needing fewer
    sheets wins (portrait on a tie). A duplex printer has one flip setting per file, so a file with backs may
    not mix portrait and landscape pages. A file with no backs keeps what ``lay(paper)`` chose."""
    try:
        natural: list[LaidOut] | None = list(lay(paper))
    except ValueError:  # some part does not fit ``paper`` this way round: the search below turns it
        natural = None
    if natural is not None:
        pages = [pg for lo in natural for pg in lo.pages]
        if not any(pg.side == "back" for pg in pages) or len({pg.height_mm >= pg.width_mm for pg in pages}) == 1:
            return natural
    best: list[LaidOut] | None = None
    for p in (paper.portrait(), paper.landscape()):
        try:
            laid = list(lay(p))
        except ValueError:
            continue
        if len({pg.height_mm >= pg.width_mm for lo in laid for pg in lo.pages}) != 1:
            continue
        if best is None or _cost(laid) < _cost(best):
            best = laid
    if best is None:
        raise ValueError(f"the parts cannot all be laid out on {paper.name} turned one way")
    return best


def cut_svg(sheets: Sequence[CutSheet], paper: Paper, labels: Sequence[str] | None = None,
            sizes: Sequence[tuple[float, float]] | None = None) -> bytes:
    """The cut and fold lines of printed sheets, stacked top to bottom (``CUT_GAP_MM`` apart), one SVG in
    mm: layer "cut" (cut lines, red), "score" (folds, blue), "guides" (sheet edges and ``labels``, default
    each sheet's own label). ``sizes`` gives each sheet's (width, height) when some are turned (landscape
    sheets in a portrait kit); by default every sheet is ``paper``."""
    labels = [s.label for s in sheets] if labels is None else labels
    sizes = [(paper.width_mm, paper.height_mm)] * len(sheets) if sizes is None else list(sizes)
    cut_ops: list[Op] = []
    score_ops: list[Op] = []
    guide_ops: list[Op] = []
    cut_style = Style(stroke="#ff0000", stroke_width_mm=0.1)
    score_style = Style(stroke="#0000ff", stroke_width_mm=0.1)
    uniform = len(set(sizes)) <= 1
    tops = [k * (sizes[0][1] + CUT_GAP_MM) if uniform else sum(hh + CUT_GAP_MM for _w, hh in sizes[:k])
            for k in range(len(sizes))]
    for k, (sheet, label, (w, h), dy) in enumerate(zip(sheets, labels, sizes, tops, strict=True)):
        move = translate(0.0, dy)
        cut_ops.append(Group(tuple(Path(c, cut_style, "cut") for c in sheet.cuts), name=f"sheet-{k + 1}",
                             transform=move))
        score_ops.append(Group(tuple(Path((("M", *f[0]), *(("L", *p) for p in f[1:])), score_style, "score")
                                     for f in sheet.folds), transform=move))
        guide_ops.append(RectOp(Rect(0, dy, w, h), Style(stroke="#999999", stroke_width_mm=0.2)))
        guide_ops.append(Text(4.0, dy + 4.0, label, Font(size_pt=7), "#666666"))
    if uniform:  # as before sizes existed (same bytes)
        total_h = max(1, len(sheets)) * ((sizes[0][1] if sheets else paper.height_mm) + CUT_GAP_MM) - CUT_GAP_MM
    else:
        total_h = tops[-1] + sizes[-1][1]
    width = max([paper.width_mm] if not sheets else [w for w, _h in sizes])
    scene = Scene((layer("guides", guide_ops), layer("cut", cut_ops), layer("score", score_ops)))
    return render_svg(Page(width, total_h, scene))

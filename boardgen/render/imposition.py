"""Putting things on paper: paper sizes, sheets with bleed and crop marks, a scale ruler, grid packing, duplex.

Page coordinates are mm from the paper's top-left corner, y down. An item is drawn in its own coordinates
(origin at its trim's top-left corner) and may paint up to ``bleed_mm`` beyond its trim on every side; the
sheet clips it to that bleed rectangle. Crop marks sit outside the trim, start beyond the bleed and are left
out wherever they would run into another item's bleed, so a grid of items gets marks along its outer edges
for every cut line.

Layout of a sheet (defaults, ``SheetStyle``):

    edge (6 mm, nothing printed) | header: title, registration target, page label | marks band | items |
    marks band | footer: 100 mm ruler "print at 100%" | edge
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace

import numpy as np

from boardgen.i18n import N_, Translator, current
from boardgen.render.cairo_backend import MIN_TEXT_PT, Page, fit_font, text_width_mm
from boardgen.render.scene import (
    HAIRLINE_MM,
    Circle,
    Font,
    Group,
    Op,
    Rect,
    RectOp,
    Scene,
    Style,
    Text,
    group,
    layer,
    line,
    rect_path,
    stroke,
    translate,
)

REGISTRATION = "#000000"
TITLE_FONT = Font(size_pt=8.0, bold=True)
SMALL_FONT = Font(size_pt=6.5)
MARK_WIDTH_MM = 0.3 * 25.4 / 72.0  # 0.3 pt: visible after printing, thin enough to be precise


@dataclass(frozen=True)
class Paper:
    name: str
    width_mm: float
    height_mm: float

    def landscape(self) -> Paper:
        w, h = sorted((self.width_mm, self.height_mm), reverse=True)
        return Paper(self.name, w, h)

    def portrait(self) -> Paper:
        w, h = sorted((self.width_mm, self.height_mm))
        return Paper(self.name, w, h)

    @property
    def slug(self) -> str:
        return self.name.lower()


A4 = Paper("A4", 210.0, 297.0)
LETTER = Paper("Letter", 215.9, 279.4)
PAPERS: dict[str, Paper] = {"a4": A4, "letter": LETTER}


def custom_paper(width_mm: float, height_mm: float, name: str = "custom") -> Paper:
    """Any size, e.g. a 666 x 446 mm poster (660 x 440 trim + 3 mm bleed)."""
    return Paper(name, width_mm, height_mm)


@dataclass(frozen=True)
class SheetStyle:
    bleed_mm: float = 3.0
    edge_mm: float = 6.0  # nothing is printed closer to the paper edge (home printers cannot)
    mark_offset_mm: float = 3.5  # crop marks start this far outside the trim (beyond the bleed)
    mark_length_mm: float = 4.0
    header_mm: float = 5.0  # title line below the edge margin
    footer_mm: float = 6.0  # ruler line above the bottom edge margin
    title_font: Font = TITLE_FONT
    small_font: Font = SMALL_FONT

    @property
    def marks_extent_mm(self) -> float:
        return self.mark_offset_mm + self.mark_length_mm

    @property
    def gap_mm(self) -> float:
        """Space between neighbouring items so each keeps its full bleed."""
        return 2 * self.bleed_mm


DEFAULT_STYLE = SheetStyle()
COMPACT_STYLE = SheetStyle(edge_mm=5.0, mark_offset_mm=3.5, mark_length_mm=2.5, header_mm=3.5, footer_mm=5.5)
"""A 5 mm paper margin and short crop marks: 8 poker cards fit A4 and Letter landscape (card decks, board
sections)."""


def content_area(paper: Paper, style: SheetStyle = DEFAULT_STYLE) -> Rect:
    """Where trims may go so that bleed, crop marks, header and footer all fit on the paper."""
    side = style.edge_mm + style.marks_extent_mm + 0.5
    top = style.edge_mm + style.header_mm + style.marks_extent_mm + 0.5
    bottom = style.edge_mm + style.footer_mm + style.marks_extent_mm + 0.5
    return Rect(side, top, paper.width_mm - 2 * side, paper.height_mm - top - bottom)


# ------------------------------------------------------------------------------------------ furniture


def crop_marks(trims: Sequence[Rect], style: SheetStyle = DEFAULT_STYLE, keep_in: Rect | None = None,
               keep_out: Sequence[Rect] = ()) -> Group:
    """Marks on the extension of every trim edge, outside the bleed, skipping any that would cross an item.

    ``keep_in``: marks are dropped if they would leave this rectangle (the printable area); ``keep_out``:
    further rectangles no mark may cross (other, unmarked items). Marks that coincide (to 1/1000 mm) are
    drawn once. Every mark is tested against every bleed in one array operation."""
    if not trims:
        return group([], "crop-marks")
    bleeds = [t.outset(style.bleed_mm) for t in trims] + list(keep_out)
    left = np.array([b.x for b in bleeds], dtype=np.float64)
    top = np.array([b.y for b in bleeds], dtype=np.float64)
    right = np.array([b.right for b in bleeds], dtype=np.float64)
    bottom = np.array([b.bottom for b in bleeds], dtype=np.float64)
    o, n = style.mark_offset_mm, style.mark_length_mm
    # per trim, per corner (top-left, top-right, bottom-right, bottom-left): a horizontal then a vertical mark
    segments = np.array([((cx + sx * o, cy, cx + sx * (o + n), cy), (cx, cy + sy * o, cx, cy + sy * (o + n)))
                         for t in trims
                         for cx, cy, sx, sy in ((t.x, t.y, -1.0, -1.0), (t.right, t.y, 1.0, -1.0),
                                                (t.right, t.bottom, 1.0, 1.0), (t.x, t.bottom, -1.0, 1.0))],
                        dtype=np.float64).reshape(-1, 4)
    x0, y0, x1, y1 = segments.T
    keys = np.round(np.stack([np.minimum(x0, x1), np.minimum(y0, y1), np.maximum(x0, x1), np.maximum(y0, y1)],
                             axis=1), 3)
    _unique, first = np.unique(keys, axis=0, return_index=True)
    first.sort()  # each distinct mark once, in the order the trims give them
    box_x, box_y = keys[first, 0], keys[first, 1]
    box_right = box_x + np.maximum(keys[first, 2] - box_x, 1e-6)
    box_bottom = box_y + np.maximum(keys[first, 3] - box_y, 1e-6)
    crosses = ((box_x[:, None] < right) & (left < box_right[:, None]) & (box_y[:, None] < bottom)
               & (top < box_bottom[:, None])).any(axis=1)
    keep = ~crosses
    if keep_in is not None:
        tol = 1e-6
        keep &= ((box_x >= keep_in.x - tol) & (box_y >= keep_in.y - tol) & (box_right <= keep_in.right + tol)
                 & (box_bottom <= keep_in.bottom + tol))
    st = stroke(REGISTRATION, MARK_WIDTH_MM)
    ops: list[Op] = [line(a, b, c, d, st, name="crop-mark") for a, b, c, d in segments[first[keep]].tolist()]
    return group(ops, "crop-marks")


def scale_ruler(x: float, y: float, length_mm: float = 100.0, font: Font = DEFAULT_STYLE.small_font) -> Group:
    """A ruler ``length_mm`` long whose baseline is at y (ticks point up), with the 100 % check text to its right.

    Total height about 4 mm above y and 0.5 mm below."""
    st = stroke("#000000", HAIRLINE_MM * 1.2)
    ops: list[Op] = [line(x, y, x + length_mm, y, st, name="ruler")]
    for mm in range(int(length_mm) + 1):
        tick = 2.6 if mm % 10 == 0 else 1.8 if mm % 5 == 0 else 1.0
        ops.append(line(x + mm, y, x + mm, y - tick, st, name="ruler-tick"))
    label_font = Font(font.family, MIN_TEXT_PT)
    for mm in (0, int(length_mm) // 2, int(length_mm)):
        ops.append(Text(x + mm, y - 3.0, f"{mm}", label_font, align="center"))
    inches = length_mm / 25.4
    tr = current()
    caption = tr.gettext("Print at 100% / actual size: this bar must measure {mm} mm ({inches} in).")
    ops.append(Text(x + length_mm + 3.0, y - 0.3, caption.format(mm=tr.number(length_mm), inches=tr.number(inches, 2)),
                    font))
    return group(ops, "scale-ruler")


TITLE_LINE_MM = 2.6
"""Baseline to baseline of a sheet title that takes two lines."""


def title_lines(title: str, font: Font, room_mm: float) -> list[tuple[str, Font]]:
    """A sheet title in ``room_mm``: one line, shrunk no smaller than 6 pt; if it does not fit so, two lines
    broken between words (the second ends in an ellipsis if even two are too short)."""
    one = fit_font(title, font, room_mm)
    if text_width_mm(title, one) <= room_mm + 1e-6:
        return [(title, one)]
    small = Font(font.family, MIN_TEXT_PT, font.bold, font.italic)
    words = title.split(" ")
    first: list[str] = []
    while words and text_width_mm(" ".join([*first, words[0]]), small) <= room_mm:
        first.append(words.pop(0))
    if not first:
        first.append(words.pop(0))
    rest = " ".join(words)
    while rest and text_width_mm(rest, small) > room_mm:
        rest = rest[:-2].rstrip() + "\u2026"
        if len(rest) <= 1:
            break
    return [(" ".join(first), small)] + ([(rest, small)] if rest else [])


def registration_mark(cx: float, cy: float, r: float = 1.8) -> Group:
    """A target (circle and cross) printed at the same place on both sides of a duplex sheet."""
    st = stroke(REGISTRATION, MARK_WIDTH_MM)
    return group([Circle(cx, cy, r * 0.6, st), line(cx - r, cy, cx + r, cy, st), line(cx, cy - r, cx, cy + r, st)],
                 "registration-mark")


def sheet_frame(paper: Paper, title: str, page_label: str = "", style: SheetStyle = DEFAULT_STYLE,
                registration: bool = False, ruler: bool = True) -> Group:
    """Header (title left, page label right, registration target centred) and footer (scale ruler)."""
    ops: list[Op] = []
    baseline = style.edge_mm + 3.0
    label_width = 0.0
    half = paper.width_mm / 2 - style.edge_mm - 2.0 - (4.0 if registration else 1.0)
    if page_label:
        label_font = fit_font(page_label, style.small_font, half)
        ops.append(Text(paper.width_mm - style.edge_mm - 2.0, baseline, page_label, label_font, align="right",
                        name="page-label"))
        label_width = text_width_mm(page_label, label_font)
    title_room = half if registration else paper.width_mm - 2 * style.edge_mm - 4.0 - label_width - 4.0
    lines = title_lines(title, style.title_font, title_room)
    first_baseline = baseline - (1.0 if len(lines) > 1 else 0.0)
    for k, (text, font) in enumerate(lines):
        ops.append(Text(style.edge_mm + 2.0, first_baseline + k * TITLE_LINE_MM, text, font, name="sheet-title"))
    if registration:
        ops.append(registration_mark(paper.width_mm / 2, style.edge_mm + 2.0))
    if ruler:
        ops.append(scale_ruler(style.edge_mm + 2.0, paper.height_mm - style.edge_mm - 1.0))
    return group(ops, "sheet-frame")


# ------------------------------------------------------------------------------------------ sheets


@dataclass(frozen=True)
class Placement:
    """An item on a sheet: its trim rectangle in page mm and its art in item mm (origin at trim top-left)."""

    trim: Rect
    scene: Scene
    name: str = ""
    bleed_mm: float | None = None  # None: the sheet style's bleed; 0 for items that need none
    clip_mm: Rect | None = None  # item mm: a bleed rectangle of its own (e.g. full bleed on outer sides only)


def _place(p: Placement, bleed_mm: float) -> Group:
    local_bleed = p.clip_mm or Rect(-bleed_mm, -bleed_mm, p.trim.width + 2 * bleed_mm, p.trim.height + 2 * bleed_mm)
    return Group(p.scene.items, name=p.name or "item", transform=translate(p.trim.x, p.trim.y),
                 clip=rect_path(local_bleed))


def mirror_placements(paper: Paper, placements: Sequence[Placement]) -> list[Placement]:
    """Back-side positions for a long-edge duplex flip: each trim mirrored left-right on the paper."""
    return [replace(p, trim=Rect(paper.width_mm - p.trim.right, p.trim.y, p.trim.width, p.trim.height),
                    clip_mm=None if p.clip_mm is None else Rect(p.trim.width - p.clip_mm.right, p.clip_mm.y,
                                                                p.clip_mm.width, p.clip_mm.height))
            for p in placements]


DUPLEX_LINE = N_("{file}: print double-sided, flip on the {edge} edge")
"""How a kit README states a double-sided file's flip edge (the print checks read it back)."""
DUPLEX_HEADING = N_("Double-sided printing: the printer's flip edge for each file")


def flip_edge(width_mm: float, height_mm: float) -> str:
    """The duplex flip that brings a back mirrored left-right (as every sheet's backs are laid out) under its
    front: about the page's upright edge, the sheet's long edge when the page is portrait, short when landscape."""
    return "long" if height_mm >= width_mm else "short"


def _page_ranges(numbers: Sequence[int]) -> str:
    """1-based page numbers as "1-3, 7, 10-13"."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else f"{r[0]}" for r in runs)


def duplex_runs(pages: Sequence[Page]) -> tuple[list[tuple[int, int]], list[int]]:
    """(runs of pages to print double-sided, as 1-based (first, last) with each front followed by its back;
    the pages to print single-sided). A printer told to print a run double-sided pairs its pages 1/2, 3/4, ...,
    so a run starts on a front page and every front in it has its back right after it."""
    runs: list[tuple[int, int]] = []
    single: list[int] = []
    i = 0
    while i < len(pages):
        if pages[i].side == "front" and i + 1 < len(pages) and pages[i + 1].side == "back":
            if runs and runs[-1][1] == i:  # the pair goes on from the run before it
                runs[-1] = (runs[-1][0], i + 2)
            else:
                runs.append((i + 1, i + 2))
            i += 2
        else:
            single.append(i + 1)
            i += 1
    return runs, single


def duplex_readme_lines(files: Sequence[tuple[str, Sequence[Page]]], tr: Translator | None = None) -> list[str]:
    """A kit README's lines for its double-sided files, each with the flip edge its pages need (taken from the
    pages themselves, so a landscape file is never told to flip on the long edge) and, when the file also holds
    single-sided pages, which pages to print double-sided and which single-sided (a whole-file duplex print
    would put those back to back). [] when none is double-sided. Raises ValueError for a double-sided file whose
    pages are not all one orientation. ``tr``: the edition's words (``boardgen.i18n``; English by default)."""
    tr = tr or current()
    _ = tr.gettext
    N_("long"), N_("short"), N_("portrait"), N_("landscape")  # the flip edges and page shapes, translated below
    lines = []
    for name, pages in files:
        if not any(p.side == "back" for p in pages):
            continue
        edges = {flip_edge(p.width_mm, p.height_mm) for p in pages}
        if len(edges) != 1:
            raise ValueError(f"{name}: a double-sided file with portrait and landscape pages")
        shape = "portrait" if pages[0].height_mm >= pages[0].width_mm else "landscape"
        runs, single = duplex_runs(pages)
        line = "  " + _(DUPLEX_LINE).format(file=name, edge=_(edges.pop())) + _(" (its pages are {shape})").format(
            shape=_(shape))
        if single:
            double = _(" and ").join(_("pages {first}-{last}").format(first=a, last=b) for a, b in runs)
            line += _(": only {double}").format(double=double)
            if len(runs) > 1:  # one run is one print job; several are not, or the jobs would pair across them
                line += _(", each run as a print job of its own")
            line += (_("; print page {single} single-sided") if len(single) == 1 else
                     _("; print pages {single} single-sided")).format(single=_page_ranges(single))
        lines.append(line)
    return [_(DUPLEX_HEADING), *lines] if lines else []


def compose_sheet(paper: Paper, placements: Sequence[Placement], title: str, page_label: str = "",
                  style: SheetStyle = DEFAULT_STYLE, *, back: bool = False, duplex: bool = False,
                  marks: bool | Sequence[bool] = True, extra: Sequence[Op] = (), cut_layer: Sequence[Op] = ()) -> Page:
    """One sheet: items clipped to their bleed, crop marks, header and footer.

    ``back=True``: ``placements`` are the FRONT positions of the items whose backs these are; they are
    mirrored left-right so that a long-edge duplex print lines the backs up with their fronts. ``duplex``
    (or ``back``) adds the registration target. ``cut_layer``: ops (page mm) put on a layer named "cut".
    ``marks``: crop marks for every item, or one flag per placement (round parts need none).
    The TrimBox is the bounding box of the item trims, the BleedBox that plus bleed.
    """
    if back:
        placements = mirror_placements(paper, placements)
    ops: list[Op] = []
    for p in placements:
        bleed = style.bleed_mm if p.bleed_mm is None else p.bleed_mm
        ops.append(_place(p, bleed))
    ops.extend(extra)
    trims = [p.trim for p in placements]
    printable = Rect(style.edge_mm, style.edge_mm, paper.width_mm - 2 * style.edge_mm,
                     paper.height_mm - 2 * style.edge_mm)
    flags = [marks] * len(trims) if isinstance(marks, bool) else list(marks)
    marked = [t for t, f in zip(trims, flags, strict=True) if f]
    if marked:
        others = [t.outset(style.bleed_mm) for t, f in zip(trims, flags, strict=True) if not f]
        ops.append(layer("crop-marks", [crop_marks(marked, style, keep_in=printable, keep_out=others)]))
    ops.append(sheet_frame(paper, title, page_label, style, registration=back or duplex))
    if cut_layer:
        ops.append(layer("cut", cut_layer))
    trim_box = bounding_rect(trims) if trims else None
    bleed_box = trim_box.outset(style.bleed_mm) if trim_box is not None else None
    return Page(paper.width_mm, paper.height_mm, Scene(tuple(ops)), trim_box_mm=trim_box, bleed_box_mm=bleed_box,
                label=page_label, pieces=tuple((p.name, p.trim) for p in placements),
                side="back" if back else "front" if duplex else "", part_set=title)


def single_item_page(scene: Scene, trim_width_mm: float, trim_height_mm: float, style: SheetStyle = DEFAULT_STYLE,
                     *, marks: bool = False, title: str = "") -> Page:
    """A page that is one item (a poster): MediaBox = BleedBox = trim + bleed when ``marks`` is False;
    with marks the paper grows by the marks band on every side (and the title goes top-left)."""
    b = style.bleed_mm
    margin = b if not marks else style.marks_extent_mm + 2.0
    trim = Rect(margin, margin, trim_width_mm, trim_height_mm)
    paper_w, paper_h = trim_width_mm + 2 * margin, trim_height_mm + 2 * margin
    ops: list[Op] = [_place(Placement(trim, scene, "art"), b)]
    if marks:
        ops.append(layer("crop-marks", [crop_marks([trim], style)]))
        if title:
            ops.append(Text(margin, margin - b - 1.0, title, style.small_font))
    return Page(paper_w, paper_h, Scene(tuple(ops)), trim_box_mm=trim, bleed_box_mm=trim.outset(b))


def bounding_rect(rects: Sequence[Rect]) -> Rect:
    x0 = min(r.x for r in rects)
    y0 = min(r.y for r in rects)
    x1 = max(r.right for r in rects)
    y1 = max(r.bottom for r in rects)
    return Rect(x0, y0, x1 - x0, y1 - y0)


# ------------------------------------------------------------------------------------------ packing


@dataclass(frozen=True)
class GridPlan:
    """How fixed-size items tile a sheet: ``rotated`` means each item is turned 90 degrees."""

    columns: int
    rows: int
    item_width_mm: float  # as placed (after rotation)
    item_height_mm: float
    gap_mm: float
    rotated: bool

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows


def plan_grid(area: Rect, width_mm: float, height_mm: float, gap_mm: float, allow_rotate: bool = True) -> GridPlan:
    """The better of upright and rotated grids of ``width x height`` items in ``area``."""

    def fit(w: float, h: float, rotated: bool) -> GridPlan:
        cols = max(0, math.floor((area.width + gap_mm) / (w + gap_mm) + 1e-9))
        rows = max(0, math.floor((area.height + gap_mm) / (h + gap_mm) + 1e-9))
        return GridPlan(cols, rows, w, h, gap_mm, rotated)

    upright = fit(width_mm, height_mm, False)
    if not allow_rotate or width_mm == height_mm:
        return upright
    turned = fit(height_mm, width_mm, True)
    return turned if turned.per_sheet > upright.per_sheet else upright


def grid_positions(area: Rect, plan: GridPlan, count: int, center: bool = True) -> list[Rect]:
    """Trim rectangles (page mm) for up to ``count`` items of ``plan``, filled row by row, block centred."""
    n = min(count, plan.per_sheet)
    if n <= 0:
        return []
    cols = min(plan.columns, n)
    rows = math.ceil(n / plan.columns)
    block_w = cols * plan.item_width_mm + (cols - 1) * plan.gap_mm
    block_h = rows * plan.item_height_mm + (rows - 1) * plan.gap_mm
    x0 = area.x + ((area.width - block_w) / 2 if center else 0.0)
    y0 = area.y + ((area.height - block_h) / 2 if center else 0.0)
    return [Rect(x0 + (i % plan.columns) * (plan.item_width_mm + plan.gap_mm),
                 y0 + (i // plan.columns) * (plan.item_height_mm + plan.gap_mm),
                 plan.item_width_mm, plan.item_height_mm) for i in range(n)]


def pack_grid(count: int, width_mm: float, height_mm: float, paper: Paper, style: SheetStyle = DEFAULT_STYLE,
              gap_mm: float | None = None, allow_rotate: bool = True) -> tuple[GridPlan, list[list[Rect]]]:
    """Lay ``count`` items of one size on as many sheets as needed: (plan, trims per sheet).

    Raises ValueError if one item does not fit the sheet's content area."""
    area = content_area(paper, style)
    gap = style.gap_mm if gap_mm is None else gap_mm
    plan = plan_grid(area, width_mm, height_mm, gap, allow_rotate)
    if plan.per_sheet == 0:
        raise ValueError(f"a {width_mm:g} x {height_mm:g} mm item does not fit the {area.width:.1f} x "
                         f"{area.height:.1f} mm printable area of {paper.name}")
    sheets: list[list[Rect]] = []
    remaining = count
    while remaining > 0:
        trims = grid_positions(area, plan, remaining)
        sheets.append(trims)
        remaining -= len(trims)
    return plan, sheets


def pack_shelves(sizes: Sequence[tuple[float, float]], paper: Paper, style: SheetStyle = DEFAULT_STYLE,
                 gap_mm: float | None = None, row_starts: Sequence[int] = ()) -> list[list[tuple[int, Rect]]]:
    """Items of different sizes, in the given order, on shelves (rows) across as many sheets as needed.

    ``row_starts``: indices of items that always begin a new row.
    Returns, per sheet, (item index, trim rectangle) pairs; each row is centred across the sheet.
    Raises ValueError if an item does not fit the content area."""
    area = content_area(paper, style)
    gap = style.gap_mm if gap_mm is None else gap_mm
    sheets: list[list[tuple[int, Rect]]] = []
    rows: list[list[tuple[int, float, float]]] = []  # current sheet: rows of (index, w, h)
    y = area.y
    row: list[tuple[int, float, float]] = []
    row_w = row_h = 0.0

    def close_sheet() -> None:
        placed: list[tuple[int, Rect]] = []
        yy = area.y
        for r in rows:
            width = sum(w for _, w, _ in r) + gap * (len(r) - 1)
            height = max(h for _, _, h in r)
            xx = area.x + (area.width - width) / 2
            for index, w, h in r:
                placed.append((index, Rect(xx, yy, w, h)))
                xx += w + gap
            yy += height + gap
        sheets.append(placed)

    for index, (w, h) in enumerate(sizes):
        if w > area.width + 1e-9 or h > area.height + 1e-9:
            raise ValueError(f"a {w:g} x {h:g} mm item does not fit the {area.width:.1f} x {area.height:.1f} mm "
                             f"printable area of {paper.name}")
        if row and (row_w + gap + w > area.width + 1e-9 or index in row_starts):
            rows.append(row)
            y += row_h + gap
            row, row_w, row_h = [], 0.0, 0.0
        if y + max(row_h, h) > area.bottom + 1e-9:
            if rows:  # the open row (with this item) does not fit below them: it starts a new sheet
                close_sheet()
                rows.clear()
            y = area.y
        row.append((index, w, h))
        row_w = w if len(row) == 1 else row_w + gap + w
        row_h = max(row_h, h)
    if row:
        rows.append(row)
    if rows:
        close_sheet()
    return sheets


def trim_outline(trim: Rect, name: str = "trim-line", width_mm: float = HAIRLINE_MM, colour: str = "#7f7f7f") -> RectOp:
    """A thin guide on the trim (useful for scissors where there are no crop marks between items)."""
    return RectOp(trim, Style(stroke=colour, stroke_width_mm=width_mm), name=name)


__all__ = [
    "A4", "COMPACT_STYLE", "DEFAULT_STYLE", "LETTER", "PAPERS", "GridPlan", "Paper", "Placement", "SheetStyle",
    "bounding_rect",
    "compose_sheet", "content_area", "crop_marks", "custom_paper", "grid_positions", "mirror_placements",
    "pack_grid", "pack_shelves", "plan_grid", "registration_mark", "scale_ruler", "sheet_frame", "single_item_page",
    "trim_outline",
]


# ------------------------------------------------------------------------------------------ print then cut


@dataclass(frozen=True)
class PrintCutMarks:
    """Registration marks a print-then-cut machine's optical sensor finds on the printed sheet (the layout of
    Silhouette's "Type 1" marks, which most cutting software can also be set to): a filled square in the
    top-left corner and L-shaped corners top-right and bottom-left, all ``inset_mm`` from the paper's edges.

    The sheet keeps everything else at least ``clear_mm`` inside the marks' band (``band_mm``) so the sensor
    sees only the marks. Enter the same values in the cutting software (length, thickness, inset)."""

    inset_mm: float = 6.0  # home printers cannot print closer to the edge
    square_mm: float = 5.0
    length_mm: float = 20.0
    thickness_mm: float = 0.5
    clear_mm: float = 2.0

    @property
    def band_mm(self) -> float:
        """Distance from the paper edge beyond which sheet furniture and parts may start."""
        return self.inset_mm + self.square_mm + self.clear_mm

    def rects(self, paper: Paper) -> list[Rect]:
        """The marks as filled rectangles in page mm (square, then the two arms of each L)."""
        i, s, n, t = self.inset_mm, self.square_mm, self.length_mm, self.thickness_mm
        w, h = paper.width_mm, paper.height_mm
        return [Rect(i, i, s, s),
                Rect(w - i - n, i, n, t), Rect(w - i - t, i, t, n),  # top right
                Rect(i, h - i - t, n, t), Rect(i, h - i - n, t, n)]  # bottom left

    def ops(self, paper: Paper) -> Group:
        return group([RectOp(r, Style(fill=REGISTRATION), name="print-cut-mark") for r in self.rects(paper)],
                     "print-cut-marks")

    def sheet_style(self, base: SheetStyle = DEFAULT_STYLE) -> SheetStyle:
        """``base`` with its edge margin widened so that header, footer, crop marks and parts stay clear of
        the marks."""
        return replace(base, edge_mm=max(base.edge_mm, self.band_mm))


PRINT_CUT_MARKS = PrintCutMarks()

_PRINT_THEN_CUT: ContextVar[PrintCutMarks | None] = ContextVar("print_then_cut", default=None)


@contextmanager
def print_then_cut(marks: PrintCutMarks = PRINT_CUT_MARKS) -> Iterator[PrintCutMarks]:
    """Within the block, every sheet ``cards.sheets.lay_out`` lays out is the print-then-cut edition's: its
    margins widened to keep ``marks`` clear (``PrintCutMarks.sheet_style``) and the marks printed on every
    front (the side a cutting machine reads). One switch for every game's layout code, however its sheet
    styles are threaded."""
    token = _PRINT_THEN_CUT.set(marks)
    try:
        yield marks
    finally:
        _PRINT_THEN_CUT.reset(token)


def print_cut_marks() -> PrintCutMarks | None:
    """The marks of the print-then-cut edition being laid out (``print_then_cut``), or None."""
    return _PRINT_THEN_CUT.get()

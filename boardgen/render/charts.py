"""Report charts without matplotlib, built as ``Scene`` pages (mm, y down) and drawn by ``cairo_backend`` (PNG at
100 dpi; a page renders to SVG and PDF too): overlaid histograms, bars with intervals, grouped bars, lines,
small multiples of step lines with bands, hex heat maps at board positions, tables of coloured cells, ranked
horizontal bars, and charts side by side.

The layout is computed from measured text (tick labels, titles), so labels never overlap and no layout pass
is needed; ticks are "nice" (1-2-5 steps, integers where the data are integers). The same data give the same
bytes: nothing here reads a clock or depends on what was drawn before.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from boardgen.render.cairo_backend import Page, render_png, text_width_mm
from boardgen.render.scene import (
    PT,
    Circle,
    Font,
    Op,
    Point,
    Polygon,
    Rect,
    RectOp,
    Scene,
    Style,
    Text,
    fill,
    group,
    ink_on,
    line,
    rect_path,
    stroke,
    translate,
)

DPI = 100
"""Pixels per inch of the PNGs."""
MM_PER_IN = 25.4
PX_MM = MM_PER_IN / DPI
"""One pixel of a PNG, in mm."""
INK = "#222222"
MUTED = "#555555"
GRID = "#e4e4e4"
TITLE_FONT = Font(size_pt=11.5)
LABEL_FONT = Font(size_pt=10)
TICK_FONT = Font(size_pt=9)
SMALL_FONT = Font(size_pt=8)
PAD_MM = 8 * PX_MM
GAP_MM = 5 * PX_MM
TICK_MM = 4 * PX_MM
AXIS_WIDTH_MM = 0.8 * PT
COLOUR_BAR_STEPS = 96


# ------------------------------------------------------------------------------------------ numbers


def nice_step(span: float, target: int = 6, integer: bool = False) -> float:
    """The 1-2-5 step (..., 0.5, 1, 2, 5, 10, ...) giving at most about ``target`` intervals over ``span``;
    at least 1 when ``integer``."""
    if span <= 0 or not math.isfinite(span):
        return 1.0
    raw = span / max(1, target)
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1.0, 2.0, 5.0, 10.0) if m * power >= raw * (1 - 1e-9))
    return max(1.0, round(step)) if integer else step


def nice_ticks(low: float, high: float, target: int = 6, integer: bool = False) -> list[float]:
    """Tick values on a 1-2-5 step from ``low`` to ``high`` (both included when they fall on the step)."""
    if high < low:
        low, high = high, low
    step = nice_step(high - low, target, integer)
    first = math.ceil(low / step - 1e-9)
    last = math.floor(high / step + 1e-9)
    return [_clean(k * step) for k in range(first, last + 1)]


def _clean(value: float) -> float:
    """``value`` without the float noise of k * step (0.30000000000000004 -> 0.3)."""
    return float(f"{value:.10g}") + 0.0  # + 0.0: never -0.0


def tick_label(value: float, step: float, percent: bool = False) -> str:
    """``value`` with as many decimals as ``step`` needs; ``percent``: a share (0.25) as "25%"."""
    if percent:
        value, step = value * 100, step * 100
    decimals = next((d for d in range(7) if abs(step * 10 ** d - round(step * 10 ** d)) < 1e-6 * 10 ** d), 6)
    text = f"{_clean(value):.{decimals}f}"
    return text + "%" if percent else text


def labelled_ticks(low: float, high: float, target: int = 6, integer: bool = False,
                   percent: bool = False) -> list[tuple[float, str]]:
    """(value, label) for ``nice_ticks``."""
    ticks = nice_ticks(low, high, target, integer)
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    return [(t, tick_label(t, step, percent)) for t in ticks]


def covering_ticks(high: float, target: int = 6, integer: bool = False,
                   percent: bool = False) -> list[tuple[float, str]]:
    """``labelled_ticks`` from 0 whose last tick is at or above ``high`` (an axis that ends on a tick)."""
    step = nice_step(high, target, integer)
    return labelled_ticks(0.0, math.ceil(high / step - 1e-9) * step, target, integer, percent)


def histogram_counts(values: Sequence[float], edges: Sequence[float]) -> list[int]:
    """How many ``values`` fall in each bin [edges[i], edges[i+1]) (the last bin closed, as numpy's)."""
    counts, _ = np.histogram(np.asarray(values, dtype=np.float64), bins=np.asarray(edges, dtype=np.float64))
    return [int(c) for c in counts]


def integer_bins(low: int, high: int, max_bins: int = 50) -> list[int]:
    """Bin edges for integer data from ``low`` to ``high``: a 1-2-5 width, edges on its multiples, every value
    inside a half-open bin [a, b)."""
    width = int(nice_step(high - low + 1, max_bins, integer=True))
    start = math.floor(low / width) * width
    stop = (math.floor(high / width) + 1) * width
    return list(range(start, stop + 1, width))


# ------------------------------------------------------------------------------------------ colour maps


@dataclass(frozen=True)
class ColourMap:
    """A colour map: anchor colours evenly spaced over 0..1, linearly interpolated in sRGB."""

    name: str
    anchors: tuple[str, ...]

    def reversed(self) -> ColourMap:
        name = self.name[:-2] if self.name.endswith("_r") else self.name + "_r"
        return ColourMap(name, self.anchors[::-1])

    def colours(self, shares: Sequence[float]) -> list[str]:
        """``"#rrggbb"`` for each share in 0..1 (clipped)."""
        table = np.array([[int(c[i:i + 2], 16) for i in (1, 3, 5)] for c in self.anchors], dtype=np.float64)
        t = np.clip(np.asarray(shares, dtype=np.float64), 0.0, 1.0) * (len(self.anchors) - 1)
        where = np.arange(len(self.anchors), dtype=np.float64)
        channels = np.rint(np.stack([np.interp(t, where, table[:, i]) for i in range(3)], axis=-1)).astype(int)
        return [f"#{r:02x}{g:02x}{b:02x}" for r, g, b in channels]

    def __call__(self, share: float) -> str:
        return self.colours([share])[0]


MAGMA = ColourMap("magma", ("#000004", "#0a0822", "#1d1147", "#36106b", "#51127c", "#6a1c81", "#832681", "#9c2e7f",
                            "#b73779", "#d0416f", "#e75263", "#f56b5c", "#fc8961", "#fea772", "#fec488", "#fde2a3",
                            "#fcfdbf"))
MAGMA_R = MAGMA.reversed()
VIRIDIS = ColourMap("viridis", ("#440154", "#48186a", "#472d7b", "#424086", "#3b528b", "#33638d", "#2c728e",
                                "#26828e", "#21918c", "#1fa088", "#28ae80", "#3fbc73", "#5ec962", "#84d44b",
                                "#addc30", "#d8e219", "#fde725"))
COLOUR_MAPS = {m.name: m for m in (MAGMA, MAGMA_R, VIRIDIS, VIRIDIS.reversed())}


# ------------------------------------------------------------------------------------------ drawing blocks


@dataclass(frozen=True)
class Frame:
    """A plot area on the page (mm) and the data ranges it shows; ``y_down``: y grows downwards (board mm)."""

    area: Rect
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    y_down: bool = False

    def x(self, value: float) -> float:
        x0, x1 = self.x_range
        return self.area.x + (value - x0) / (x1 - x0) * self.area.width

    def y(self, value: float) -> float:
        y0, y1 = self.y_range
        share = (value - y0) / (y1 - y0)
        return self.area.y + share * self.area.height if self.y_down else self.area.bottom - share * self.area.height

    def point(self, x: float, y: float) -> Point:
        return (self.x(x), self.y(y))


@dataclass(frozen=True)
class Key:
    """A legend entry: a filled patch (``outline``: its outline only) or a line (``dashed``), in ``colour``."""

    label: str
    colour: str
    kind: Literal["patch", "line"] = "patch"
    opacity: float = 1.0
    dashed: bool = False
    outline: bool = False  # a patch drawn as an outline only


def line_height_mm(font: Font) -> float:
    return font.size_mm * 1.25


def text(x: float, y: float, content: str, font: Font = LABEL_FONT, colour: str = INK,
         align: Literal["left", "center", "right"] = "left",
         baseline: Literal["alphabetic", "middle", "top", "bottom"] = "alphabetic", rotate_deg: float = 0.0,
         name: str = "") -> Text:
    return Text(x, y, content, font, colour, align, baseline, rotate_deg, name)


@dataclass
class Chart:
    """A page being drawn: its size in inches (pixels = inches x ``DPI``) and its operations in painting order."""

    width_in: float
    height_in: float
    ops: list[Op] = field(default_factory=list)

    @property
    def width_mm(self) -> float:
        return self.width_in * MM_PER_IN

    @property
    def height_mm(self) -> float:
        return self.height_in * MM_PER_IN

    def add(self, *ops: Op) -> None:
        self.ops.extend(ops)

    def title(self, lines: Sequence[str], centre_x_mm: float | None = None, font: Font = TITLE_FONT) -> float:
        """Title lines centred at the top; returns the y (mm) just under them."""
        x = self.width_mm / 2 if centre_x_mm is None else centre_x_mm
        y = PAD_MM
        for content in lines:
            y += line_height_mm(font)
            self.add(text(x, y - font.size_mm * 0.25, content, font, align="center", name="title"))
        return y

    def page(self) -> Page:
        return Page(self.width_mm, self.height_mm, Scene(tuple(self.ops)))

    def png(self) -> bytes:
        return chart_png(self.page())


def chart_png(page: Page) -> bytes:
    """The chart as an RGB PNG at ``DPI`` (white background, no metadata: same chart, same bytes)."""
    return render_png(page, dpi=DPI)


def legend_width_mm(keys: Sequence[Key], font: Font = TICK_FONT) -> float:
    swatch = 22 * PX_MM
    return sum(swatch + GAP_MM + text_width_mm(k.label, font) for k in keys) + 2 * GAP_MM * (len(keys) - 1)


def legend_row(keys: Sequence[Key], right_mm: float, y_mm: float, font: Font = TICK_FONT) -> list[Op]:
    """The keys in one row ending at ``right_mm``, centred on ``y_mm``."""
    ops: list[Op] = []
    swatch = 22 * PX_MM
    x = right_mm - legend_width_mm(keys, font)
    half = 5 * PX_MM
    for key in keys:
        if key.kind == "patch":
            box = Rect(x, y_mm - half, swatch, 2 * half)
            style = (stroke(key.colour, 1.8 * PT) if key.outline
                     else Style(fill=key.colour, opacity=key.opacity))
            ops.append(RectOp(box, style, name="legend-swatch"))
        else:
            style = dashed(key.colour) if key.dashed else stroke(key.colour, 1.2 * PT)
            ops.append(line(x, y_mm, x + swatch, y_mm, style, name="legend-swatch"))
        x += swatch + GAP_MM
        ops.append(text(x, y_mm, key.label, font, baseline="middle", name="legend"))
        x += text_width_mm(key.label, font) + 2 * GAP_MM
    return ops


def axes(frame: Frame, x_ticks: Sequence[tuple[float, str]], y_ticks: Sequence[tuple[float, str]],
         x_label: str = "", y_label: str = "", *, grid: bool = True, box: bool = False,
         x_tick_labels: bool = True, tick_font: Font = TICK_FONT) -> tuple[list[Op], list[Op]]:
    """(ops under the data: grid lines; ops over it: axis lines, ticks, tick labels, axis labels)."""
    area = frame.area
    under: list[Op] = []
    over: list[Op] = []
    axis = stroke(INK, AXIS_WIDTH_MM)
    for value, label in y_ticks:
        y = frame.y(value)
        if grid and area.y + 1e-6 < y < area.bottom - 1e-6:
            under.append(line(area.x, y, area.right, y, stroke(GRID, 0.8 * PT), name="grid"))
        over.append(line(area.x - TICK_MM, y, area.x, y, axis, name="y-tick"))
        over.append(text(area.x - TICK_MM - 2 * PX_MM, y, label, tick_font, align="right", baseline="middle",
                         name="y-tick-label"))
    for value, label in x_ticks:
        x = frame.x(value)
        over.append(line(x, area.bottom, x, area.bottom + TICK_MM, axis, name="x-tick"))
        if x_tick_labels:
            for k, part in enumerate(label.split("\n")):
                over.append(text(x, area.bottom + TICK_MM + 3 * PX_MM + k * line_height_mm(tick_font), part,
                                 tick_font, align="center", baseline="top", name="x-tick-label"))
    if box:
        over.append(RectOp(area, axis, name="frame"))
    else:
        over.append(line(area.x, area.y, area.x, area.bottom, axis, name="y-axis"))
        over.append(line(area.x, area.bottom, area.right, area.bottom, axis, name="x-axis"))
    if x_label:
        lines = max((label.count("\n") + 1 for _, label in x_ticks), default=1)
        y = area.bottom + TICK_MM + 3 * PX_MM + lines * line_height_mm(tick_font) + GAP_MM
        over.append(text(area.center[0], y, x_label, LABEL_FONT, align="center", baseline="top", name="x-label"))
    if y_label:
        widest = max((text_width_mm(label, tick_font) for _, label in y_ticks), default=0.0)
        x = area.x - TICK_MM - 2 * PX_MM - widest - GAP_MM - LABEL_FONT.size_mm * 0.25
        over.append(text(x, area.center[1], y_label, LABEL_FONT, align="center", rotate_deg=-90.0, name="y-label"))
    return under, over


def left_margin_mm(y_ticks: Sequence[tuple[float, str]], y_label: str, font: Font = TICK_FONT) -> float:
    """Room left of a plot area for its tick labels and y label."""
    widest = max((text_width_mm(label, font) for _, label in y_ticks), default=0.0)
    return PAD_MM + (line_height_mm(LABEL_FONT) + GAP_MM if y_label else 0.0) + widest + TICK_MM + 2 * PX_MM


def bottom_margin_mm(x_ticks: Sequence[tuple[float, str]], x_label: str, font: Font = TICK_FONT) -> float:
    """Room under a plot area for its tick labels (one or more lines) and x label."""
    lines = max((label.count("\n") + 1 for _, label in x_ticks), default=1)
    return (TICK_MM + 3 * PX_MM + lines * line_height_mm(font) + PAD_MM
            + (GAP_MM + line_height_mm(LABEL_FONT) if x_label else 0.0))


def clipped(frame: Frame, ops: Sequence[Op], name: str = "data") -> Op:
    """``ops`` clipped to the frame's plot area."""
    return group(ops, name, clip=rect_path(frame.area))


def _single(chart: Chart, title: Sequence[str], keys: Sequence[Key], x_ticks: Sequence[tuple[float, str]],
            y_ticks: Sequence[tuple[float, str]], x_label: str, y_label: str, right_mm: float = PAD_MM) -> Rect:
    """The plot area of a one-panel chart: title (and a legend row under it) at the top, axes around it."""
    top = chart.title(title)
    if keys:
        row_mm = line_height_mm(TICK_FONT)
        top += GAP_MM + row_mm
    top += GAP_MM * 2
    left = left_margin_mm(y_ticks, y_label)
    last_label = max((text_width_mm(label, TICK_FONT) for _, label in x_ticks[-1:]), default=0.0)
    right = max(right_mm, last_label / 2 + 2 * PX_MM)
    area = Rect(left, top, chart.width_mm - left - right, chart.height_mm - top - bottom_margin_mm(x_ticks, x_label))
    if keys:
        chart.add(*legend_row(keys, area.right, top - GAP_MM * 2 - line_height_mm(TICK_FONT) / 2))
    return area


def _draw_single(chart: Chart, frame: Frame, data: Sequence[Op], x_ticks: Sequence[tuple[float, str]],
                 y_ticks: Sequence[tuple[float, str]], x_label: str, y_label: str, *, grid: bool = True,
                 box: bool = False) -> None:
    under, over = axes(frame, x_ticks, y_ticks, x_label, y_label, grid=grid, box=box)
    chart.add(*under, clipped(frame, data), *over)


# ------------------------------------------------------------------------------------------ chart kinds


@dataclass(frozen=True)
class Series:
    """One histogram: its values and how it is drawn (translucent step-filled, or a step outline)."""

    label: str
    values: Sequence[float]
    colour: str
    filled: bool = True
    opacity: float = 0.45


def step_outline(frame: Frame, edges: Sequence[float], heights: Sequence[float], base: float = 0.0) -> list[Point]:
    """The points of a step curve over bins (``heights[i]`` from ``edges[i]`` to ``edges[i+1]``), down to
    ``base`` at both ends."""
    points = [frame.point(edges[0], base)]
    for i, h in enumerate(heights):
        points += [frame.point(edges[i], h), frame.point(edges[i + 1], h)]
    points.append(frame.point(edges[-1], base))
    return points


def dashed(colour: str) -> Style:
    """The style of a reference line."""
    return stroke(colour, 1.2 * PT, (4 * PX_MM, 2.5 * PX_MM))


def histogram_chart(series: Sequence[Series], edges: Sequence[float], *, title: str, x_label: str, y_label: str,
                    integer: bool = True, size_in: tuple[float, float] = (7.0, 4.0),
                    reference_x: tuple[float, str] | None = None, reference_colour: str = "#d55e00") -> Chart:
    """Overlaid histograms over the same bins (counted as [a, b)), a legend row above them (a series without a
    label has no entry), and an optional
    dashed vertical reference line (value, legend label). ``integer``: the values are integers, and a bin
    [a, b) is drawn from a - 0.5 to b - 0.5, so a bin one wide stands centred on its value."""
    chart = Chart(*size_in)
    counts = [histogram_counts(s.values, edges) for s in series]
    top = max((c for cs in counts for c in cs), default=0)
    y_max = max(1.0, top * 1.05)  # the tallest bin fills the plot; the ticks stay inside
    y_ticks = labelled_ticks(0.0, y_max, 6, integer=True)
    shift = 0.5 if integer else 0.0
    drawn = [e - shift for e in edges]
    lo, hi = drawn[0], drawn[-1]
    margin = 0.02 * (hi - lo)
    x_ticks = labelled_ticks(lo, hi, 8, integer=integer)
    keys = [Key(s.label, s.colour, "patch", s.opacity if s.filled else 1.0, outline=not s.filled)
            for s in series if s.label]
    if reference_x is not None:
        keys.append(Key(reference_x[1], reference_colour, "line", dashed=True))
    area = _single(chart, [title], keys, x_ticks, y_ticks, x_label, y_label)
    frame = Frame(area, (lo - margin, hi + margin), (0.0, y_max))
    data: list[Op] = []
    for s, c in zip(series, counts, strict=True):
        points = tuple(step_outline(frame, drawn, c))
        style = Style(fill=s.colour, opacity=s.opacity) if s.filled else stroke(s.colour, 1.8 * PT, line_join="miter")
        data.append(Polygon(points, style, closed=s.filled, name="histogram"))
    for s, c in zip(series, counts, strict=True):  # each filled one's outline on top: readable where they overlap
        if s.filled:
            data.append(Polygon(tuple(step_outline(frame, drawn, c))[1:-1], stroke(s.colour, 1.0 * PT,
                                                                             line_join="miter"),
                                closed=False, name="histogram-edge"))
    if reference_x is not None:
        x = frame.x(reference_x[0])
        data.append(line(x, area.y, x, area.bottom, dashed(reference_colour), name="reference"))
    _draw_single(chart, frame, data, x_ticks, y_ticks, x_label, y_label)
    return chart


@dataclass(frozen=True)
class Bar:
    """One bar: its value and the bounds of its interval (absolute values, ``low <= value <= high``)."""

    label: str
    value: float
    low: float
    high: float


def bar_chart(bars: Sequence[Bar], *, title: str, y_label: str, x_label: str = "", colour: str = "#4c72b0",
              reference: tuple[float, str] | None = None, percent: bool = True,
              size_in: tuple[float, float] = (6.0, 4.0), reference_colour: str = "#c44e52") -> Chart:
    """Bars with asymmetric error bars (capped), an optional dashed reference line in the legend row; each bar's
    value is printed under its label."""
    chart = Chart(*size_in)
    highest = max([*(b.high for b in bars), *(b.value for b in bars), reference[0] if reference else 0.0])
    y_top = highest * 1.15 + (0.02 if percent else 0.0) or 1.0
    y_ticks = covering_ticks(min(y_top, 1.0) if percent and highest <= 1.0 else y_top, 6, percent=percent)
    x_ticks = [(float(i), f"{b.label}\n{b.value:.1%}" if percent else f"{b.label}\n{b.value:g}")
               for i, b in enumerate(bars)]
    keys = [Key(reference[1], reference_colour, "line", dashed=True)] if reference else []
    area = _single(chart, [title], keys, x_ticks, y_ticks, x_label, y_label)
    frame = Frame(area, (-0.6, len(bars) - 0.4), (0.0, y_ticks[-1][0]))
    data = bar_ops(frame, [float(i) for i in range(len(bars))], 0.8, [b.value for b in bars], colour,
                   [(b.low, b.high) for b in bars])
    if reference:
        y = frame.y(reference[0])
        data.append(line(area.x, y, area.right, y, dashed(reference_colour), name="reference"))
    _draw_single(chart, frame, data, x_ticks, y_ticks, x_label, y_label)
    return chart


def bar_ops(frame: Frame, centres: Sequence[float], width: float, values: Sequence[float], colour: str,
            intervals: Sequence[tuple[float, float]] = ()) -> list[Op]:
    """Bars ``width`` wide (data units) at ``centres``, then their capped error bars (``intervals``: (low, high)
    of each bar, or none)."""
    data: list[Op] = []
    for x, value in zip(centres, values, strict=True):
        x0, x1 = frame.x(x - width / 2), frame.x(x + width / 2)
        y = frame.y(value)
        data.append(RectOp(Rect(x0, y, x1 - x0, frame.y(0.0) - y), fill(colour), name="bar"))
    cap = 4 * PT
    err = stroke("#333333", 1.1 * PT)
    for x, (low, high) in zip(centres, intervals, strict=True) if intervals else ():
        mid = frame.x(x)
        data.append(line(mid, frame.y(low), mid, frame.y(high), err, name="error-bar"))
        for v in (low, high):
            data.append(line(mid - cap, frame.y(v), mid + cap, frame.y(v), err, name="error-cap"))
    return data


@dataclass(frozen=True)
class BarSeries:
    """One colour of a grouped bar chart: a value for every group."""

    label: str
    values: Sequence[float]
    colour: str


def grouped_bar_chart(groups: Sequence[str], series: Sequence[BarSeries], *, title: str, y_label: str,
                      x_label: str = "", percent: bool = True, size_in: tuple[float, float] = (7.0, 3.4)) -> Chart:
    """A cluster of bars per group (one per series, in series order), the series in the legend row."""
    chart = Chart(*size_in)
    highest = max([0.0, *(v for s in series for v in s.values)])
    y_top = highest * 1.1 or 1.0
    y_ticks = covering_ticks(min(y_top, 1.0) if percent and highest <= 1.0 else y_top, 6, percent=percent)
    x_ticks = [(float(i), g) for i, g in enumerate(groups)]
    keys = [Key(s.label, s.colour) for s in series]
    area = _single(chart, [title], keys, x_ticks, y_ticks, x_label, y_label)
    frame = Frame(area, (-0.6, len(groups) - 0.4), (0.0, y_ticks[-1][0]))
    width = 0.8 / max(1, len(series))
    data: list[Op] = []
    for k, s in enumerate(series):
        centres = [i - 0.4 + width * (k + 0.5) for i in range(len(groups))]
        data += bar_ops(frame, centres, width, s.values, s.colour)
    _draw_single(chart, frame, data, x_ticks, y_ticks, x_label, y_label)
    return chart


@dataclass(frozen=True)
class Line:
    """One line of a line chart; ``steps``: drawn as a step function (each value held until the next x)."""

    label: str
    xs: Sequence[float]
    ys: Sequence[float]
    colour: str
    steps: bool = False


def line_chart(lines: Sequence[Line], *, title: str, x_label: str, y_label: str, percent: bool = False,
               y_range: tuple[float, float] | None = None, integer_x: bool = True,
               size_in: tuple[float, float] = (6.0, 3.2)) -> Chart:
    """Lines over a shared x axis; a legend row when more than one line has a label."""
    chart = Chart(*size_in)
    xs = [x for ln in lines for x in ln.xs] or [0.0, 1.0]
    ys = [y for ln in lines for y in ln.ys] or [0.0, 1.0]
    low, high = y_range if y_range is not None else (min(0.0, min(ys)), max(ys) * 1.05 or 1.0)
    y_ticks = labelled_ticks(low, high, 6, percent=percent)
    x_ticks = labelled_ticks(min(xs), max(xs), 8, integer=integer_x)
    keys = [Key(ln.label, ln.colour, "line") for ln in lines if ln.label] if len(lines) > 1 else []
    area = _single(chart, [title], keys, x_ticks, y_ticks, x_label, y_label)
    frame = Frame(area, (min(xs), max(xs)) if max(xs) > min(xs) else (min(xs) - 1, max(xs) + 1), (low, high))
    data: list[Op] = []
    for ln in lines:
        points: list[Point] = []
        for i, (x, y) in enumerate(zip(ln.xs, ln.ys, strict=True)):
            if ln.steps and i:
                points.append(frame.point(x, ln.ys[i - 1]))
            points.append(frame.point(x, y))
        data.append(Polygon(tuple(points), stroke(ln.colour, 1.6 * PT, line_join="miter"), closed=False,
                            name="line"))
    _draw_single(chart, frame, data, x_ticks, y_ticks, x_label, y_label)
    return chart


def side_by_side(charts: Sequence[Chart], title: str = "") -> Chart:
    """Charts placed left to right on one page under a common title (each keeps its own)."""
    head_mm = PAD_MM + line_height_mm(TITLE_FONT) if title else 0.0
    width_in = sum(c.width_in for c in charts)
    out = Chart(width_in, max((c.height_in for c in charts), default=0.0) + head_mm / MM_PER_IN)
    if title:
        out.title([title])
    x = 0.0
    for c in charts:
        out.add(group(c.ops, "panel", transform=translate(x, head_mm)))
        x += c.width_mm
    return out


@dataclass(frozen=True)
class StepPanel:
    """One small multiple: a mean step line over bins of ``edges`` with a band around it, reference lines and
    an optional annotated dot."""

    title: str
    edges: Sequence[float]
    mean: Sequence[float]
    band_low: Sequence[float]
    band_high: Sequence[float]
    colour: str
    y_max: float
    x_ticks: Sequence[float]
    v_lines: Sequence[tuple[float, str]] = ()  # (x, colour)
    h_lines: Sequence[float] = ()  # dotted
    dot: tuple[float, float, str] | None = None  # (x, y, label)


def step_panels_chart(panels: Sequence[StepPanel], *, title: Sequence[str], x_label: str, y_label: str,
                      columns: int = 3, width_in: float = 10.0, panel_height_in: float = 2.6,
                      dot_colour: str = "#c44e52") -> Chart:
    """Small multiples, ``columns`` a row, sharing the x axis (labels on the bottom row only)."""
    rows = max(1, -(-len(panels) // columns))
    head_mm = PAD_MM + len(title) * line_height_mm(TITLE_FONT) + GAP_MM
    chart = Chart(width_in, (head_mm / MM_PER_IN) + rows * panel_height_in + 0.15)
    chart.title(title, font=Font(size_pt=10))
    y_ticks = [labelled_ticks(0, p.y_max, 6, integer=True) for p in panels]
    left = max((left_margin_mm(t, y_label) for t in y_ticks), default=PAD_MM)
    inner = max((left_margin_mm(t, "") for t in y_ticks), default=PAD_MM) - PAD_MM + 2 * GAP_MM
    cell_w = (chart.width_mm - left - PAD_MM - (columns - 1) * inner) / columns
    x_ticks_any = [(float(t), f"{t:g}") for t in panels[0].x_ticks] if panels else []
    bottom = bottom_margin_mm(x_ticks_any, x_label) - PAD_MM + 2 * PX_MM
    panel_title_mm = line_height_mm(LABEL_FONT) + GAP_MM
    cell_h = (chart.height_mm - head_mm - PAD_MM) / rows
    for index, (panel, ticks) in enumerate(zip(panels, y_ticks, strict=True)):
        row, col = divmod(index, columns)
        x = left + col * (cell_w + inner)
        y = head_mm + row * cell_h + panel_title_mm
        last_row = row == rows - 1 or index + columns >= len(panels)
        area = Rect(x, y, cell_w, cell_h - panel_title_mm - bottom)
        frame = Frame(area, (panel.edges[0], panel.edges[-1]), (0.0, panel.y_max))
        chart.add(text(area.center[0], area.y - GAP_MM, panel.title, LABEL_FONT, align="center",
                       name="panel-title"))
        chart.add(*_panel(frame, panel, ticks, x_label if last_row else "", y_label if col == 0 else "",
                          last_row, dot_colour))
    return chart


def _panel(frame: Frame, panel: StepPanel, y_ticks: Sequence[tuple[float, str]], x_label: str, y_label: str,
           x_tick_labels: bool, dot_colour: str) -> list[Op]:
    area = frame.area
    data: list[Op] = []
    for x, colour in panel.v_lines:
        data.append(line(frame.x(x), area.y, frame.x(x), area.bottom, stroke(colour, 0.8 * PT), name="v-line"))
    for y in panel.h_lines:
        data.append(line(area.x, frame.y(y), area.right, frame.y(y),
                         stroke(MUTED, 0.8 * PT, (1.2 * PX_MM, 2 * PX_MM)), name="h-line"))
    if panel.mean:
        low = step_outline(frame, panel.edges, panel.band_low)[1:-1]
        high = step_outline(frame, panel.edges, panel.band_high)[1:-1]
        data.append(Polygon(tuple(low + high[::-1]), Style(fill=panel.colour, opacity=0.35), name="band"))
        data.append(Polygon(tuple(step_outline(frame, panel.edges, panel.mean)[1:-1]),
                            stroke(INK, 1.6 * PT, line_join="miter"), closed=False, name="mean"))
    if panel.dot is not None:
        dx, dy, label = panel.dot
        cx, cy = frame.point(dx, dy)
        data.append(Circle(cx, cy, 3.2 * PX_MM, fill(dot_colour), name="dot"))
        width = text_width_mm(label, SMALL_FONT)
        height = SMALL_FONT.size_mm + 2 * PX_MM
        # beside the dot on the side away from the mean line's last step, so the label never hides the line
        below_line = bool(panel.mean) and cy > frame.y(panel.mean[-1])
        top = cy + 2 * PX_MM if below_line else cy - 2 * PX_MM - height
        top = min(max(top, area.y + 1 * PX_MM), area.bottom - 1 * PX_MM - height)  # inside the plot area
        box = Rect(cx - 6 * PX_MM - width - 2 * PX_MM, top, width + 4 * PX_MM, height)
        data.append(RectOp(box, Style(fill="#ffffff", opacity=0.8), name="dot-label-box"))
        data.append(text(box.right - 2 * PX_MM, box.center[1], label, SMALL_FONT, dot_colour, align="right",
                         baseline="middle", name="dot-label"))
    x_ticks = [(float(t), f"{t:g}") for t in panel.x_ticks]
    under, over = axes(frame, x_ticks, y_ticks, x_label, y_label, box=True, x_tick_labels=x_tick_labels)
    return [*under, clipped(frame, data), *over]


def hex_heat_map_chart(cells: Sequence[Sequence[Point]], values: Sequence[float], *, title: str, x_label: str,
                       y_label: str, bar_label: str, colour_map: ColourMap, v_max: float | None = None,
                       width_in: float = 11.0, max_plot_height_in: float = 9.0, margin: float = 5.0) -> Chart:
    """Polygons at their own coordinates (y down, equal aspect), coloured by value from 0 to ``v_max``
    (default: the largest value), with a labelled colour bar on the right."""
    xs = [x for cell in cells for x, _ in cell]
    ys = [y for cell in cells for _, y in cell]
    x0, x1, y0, y1 = min(xs) - margin, max(xs) + margin, min(ys) - margin, max(ys) + margin
    top = max(values, default=1.0) if v_max is None else v_max
    top = max(top, 1e-9)
    bar_ticks = labelled_ticks(0.0, top, 5)
    y_ticks = labelled_ticks(y0, y1, 8, integer=True)
    x_ticks = labelled_ticks(x0, x1, 10, integer=True)
    head_mm = PAD_MM + line_height_mm(TITLE_FONT) + 2 * GAP_MM
    left = left_margin_mm(y_ticks, y_label)
    # room for tick labels up to "0.000" whatever the values: heat maps of one board share their geometry
    widest = max([text_width_mm("0.000", TICK_FONT), *(text_width_mm(t, TICK_FONT) for _, t in bar_ticks)])
    bar_strip_mm = GAP_MM * 6 + 5 * PX_MM * 4 + TICK_MM + widest + line_height_mm(LABEL_FONT) + PAD_MM
    bottom = bottom_margin_mm(x_ticks, x_label)
    plot_w = width_in * MM_PER_IN - left - bar_strip_mm
    plot_h = plot_w * (y1 - y0) / (x1 - x0)
    if plot_h > max_plot_height_in * MM_PER_IN:  # a tall board: as high as a page allows, narrower
        plot_h = max_plot_height_in * MM_PER_IN
        plot_w = plot_h * (x1 - x0) / (y1 - y0)
    chart = Chart(width_in, (head_mm + plot_h + bottom) / MM_PER_IN)
    area = Rect(left, head_mm, plot_w, plot_h)
    chart.title([title], centre_x_mm=area.center[0])
    frame = Frame(area, (x0, x1), (y0, y1), y_down=True)
    colours = colour_map.colours([v / top for v in values])
    edge = stroke(MUTED, 0.3 * PT)
    data: list[Op] = [Polygon(tuple(frame.point(x, y) for x, y in cell), Style(fill=c, stroke=edge.stroke,
                                                                               stroke_width_mm=edge.stroke_width_mm),
                              name="cell")
                      for cell, c in zip(cells, colours, strict=True)]
    _draw_single(chart, frame, data, x_ticks, y_ticks, x_label, y_label, grid=False, box=True)
    chart.add(*colour_bar(Rect(area.right + GAP_MM * 6, area.y + 0.15 * plot_h, 5 * PX_MM * 4, 0.7 * plot_h),
                          colour_map, top, bar_ticks, bar_label))
    return chart


def colour_bar(area: Rect, colour_map: ColourMap, v_max: float, ticks: Sequence[tuple[float, str]],
               label: str, v_min: float = 0.0) -> list[Op]:
    """A vertical colour bar (``v_min`` at the bottom, ``v_max`` at the top) with ticks and a label on its
    right."""
    ops: list[Op] = []
    area = Rect(*(round(v / PX_MM) * PX_MM for v in (area.x, area.y, area.width, area.height)))  # whole pixels
    rows = max(1, round(area.height / PX_MM))
    steps = min(rows, COLOUR_BAR_STEPS)
    edges = [area.bottom - round(k * rows / steps) * PX_MM for k in range(steps + 1)]  # on pixel rows: no seams
    colours = colour_map.colours([(k + 0.5) / steps for k in range(steps)])
    for k, c in enumerate(colours):
        ops.append(RectOp(Rect(area.x, edges[k + 1], area.width, edges[k] - edges[k + 1]), fill(c), name="colour-bar"))
    frame = Frame(area, (0.0, 1.0), (v_min, v_max))
    axis = stroke(INK, AXIS_WIDTH_MM)
    ops.append(RectOp(area, axis, name="colour-bar-frame"))
    widest = 0.0
    for value, tick in ticks:
        y = frame.y(value)
        ops.append(line(area.right, y, area.right + TICK_MM, y, axis, name="colour-bar-tick"))
        ops.append(text(area.right + TICK_MM + 2 * PX_MM, y, tick, TICK_FONT, baseline="middle",
                        name="colour-bar-tick-label"))
        widest = max(widest, text_width_mm(tick, TICK_FONT))
    ops.append(text(area.right + TICK_MM + 2 * PX_MM + widest + GAP_MM + LABEL_FONT.size_mm, area.center[1], label,
                    LABEL_FONT, align="center", rotate_deg=-90.0, name="colour-bar-label"))
    return ops


def grid_heat_map_chart(x_labels: Sequence[str], y_labels: Sequence[str], grid: Sequence[Sequence[float]], *,
                        title: str, x_label: str, y_label: str, bar_label: str, colour_map: ColourMap,
                        value_format: str = "{:.3f}", size_in: tuple[float, float] = (6.4, 4.6)) -> Chart:
    """A table of values as coloured cells (``grid[row][column]``, row 0 at the bottom; NaN: an empty cell),
    each cell's value printed in it, the colours spanning the smallest to the largest value."""
    chart = Chart(*size_in)
    values = [v for row in grid for v in row if not math.isnan(v)] or [0.0]
    low, high = min(values), max(values)
    span = high - low or 1.0
    bar_ticks = labelled_ticks(low, low + span, 5)
    x_ticks = [(float(i), label) for i, label in enumerate(x_labels)]
    y_ticks = [(float(j), label) for j, label in enumerate(y_labels)]
    widest = max(text_width_mm(t, TICK_FONT) for _, t in bar_ticks)
    strip_mm = GAP_MM * 4 + 5 * PX_MM * 4 + TICK_MM + widest + GAP_MM + line_height_mm(LABEL_FONT) + PAD_MM
    area = _single(chart, [title], [], x_ticks, y_ticks, x_label, y_label, right_mm=strip_mm)
    frame = Frame(area, (-0.5, len(x_labels) - 0.5), (-0.5, len(y_labels) - 0.5))
    data: list[Op] = []
    for j, row in enumerate(grid):
        for i, value in enumerate(row):
            if math.isnan(value):
                continue
            colour = colour_map((value - low) / span)
            # corners on whole pixels: neighbouring cells meet without an anti-aliased seam
            x0, y0, x1, y1 = (round(v / PX_MM) * PX_MM for v in (*frame.point(i - 0.5, j + 0.5),
                                                                  *frame.point(i + 0.5, j - 0.5)))
            data.append(RectOp(Rect(x0, y0, x1 - x0, y1 - y0), fill(colour), name="cell"))
            data.append(text((x0 + x1) / 2, (y0 + y1) / 2, value_format.format(value), SMALL_FONT, ink_on(colour),
                             align="center", baseline="middle", name="cell-value"))
    under, over = axes(frame, x_ticks, y_ticks, x_label, y_label, grid=False, box=True)
    chart.add(*under, clipped(frame, data), *over)
    bar = Rect(area.right + GAP_MM * 4, area.y, 5 * PX_MM * 4, area.height)
    chart.add(*colour_bar(bar, colour_map, low + span, bar_ticks, bar_label, v_min=low))
    return chart


def ranking_chart(labels: Sequence[str], values: Sequence[float], colours: Sequence[str], *, title: str,
                  x_label: str, width_in: float = 9.0) -> Chart:
    """Horizontal bars, the first at the top, each labelled on the left; as tall as the bars need."""
    row_mm = 0.3 * MM_PER_IN
    head_mm = PAD_MM + line_height_mm(TITLE_FONT) + 2 * GAP_MM
    x_ticks = covering_ticks(max([0.0, *values]) * 1.05 or 1.0, 8)
    bottom = bottom_margin_mm(x_ticks, x_label)
    chart = Chart(width_in, (head_mm + row_mm * len(labels) + bottom) / MM_PER_IN)
    y_ticks = [(float(k), label) for k, label in enumerate(labels)]
    area = _single(chart, [title], [], x_ticks, y_ticks, x_label, "")
    frame = Frame(area, (0.0, x_ticks[-1][0]), (-0.5, len(labels) - 0.5), y_down=True)
    data: list[Op] = []
    for k, (value, colour) in enumerate(zip(values, colours, strict=True)):
        x0, y0 = frame.point(0.0, k - 0.4)
        x1, y1 = frame.point(value, k + 0.4)
        data.append(RectOp(Rect(x0, y0, x1 - x0, y1 - y0), fill(colour), name="bar"))
    _draw_single(chart, frame, data, x_ticks, y_ticks, x_label, "", grid=False)
    return chart


__all__ = [
    "COLOUR_MAPS",
    "DPI",
    "MAGMA",
    "MAGMA_R",
    "VIRIDIS",
    "Bar",
    "BarSeries",
    "Chart",
    "ColourMap",
    "Frame",
    "Key",
    "Line",
    "Series",
    "StepPanel",
    "axes",
    "bar_chart",
    "bar_ops",
    "chart_png",
    "colour_bar",
    "covering_ticks",
    "grid_heat_map_chart",
    "grouped_bar_chart",
    "hex_heat_map_chart",
    "histogram_chart",
    "histogram_counts",
    "integer_bins",
    "labelled_ticks",
    "legend_row",
    "line_chart",
    "nice_step",
    "nice_ticks",
    "ranking_chart",
    "side_by_side",
    "step_panels_chart",
    "tick_label",
]

"""The report charts (boardgen.render.charts): ticks, bins, colour maps, what each chart draws, its pixels and
bytes; the PNG encoder and the pre-parsed cairo declarations; and that the flagship's `simulate` draws its six
plots without matplotlib."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from boardgen.render import cairo_lib
from boardgen.render.charts import (
    MAGMA_R,
    VIRIDIS,
    Bar,
    Chart,
    Series,
    StepPanel,
    bar_chart,
    hex_heat_map_chart,
    histogram_chart,
    histogram_counts,
    integer_bins,
    labelled_ticks,
    nice_step,
    nice_ticks,
    step_panels_chart,
    tick_label,
)
from boardgen.render.png import encode_png
from boardgen.render.scene import Circle, Polygon, RectOp, Text

REPO = Path(__file__).resolve().parents[2]


def texts(chart: Chart, name: str) -> list[str]:
    return [op.text for op in chart.page().scene.walk() if isinstance(op, Text) and op.name == name]


def ops(chart: Chart, name: str, kind: type) -> list:
    return [op for op in chart.page().scene.walk() if isinstance(op, kind) and op.name == name]


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png))


# ------------------------------------------------------------------------------------------ numbers


def test_nice_ticks_step_one_two_five() -> None:
    assert nice_ticks(0, 97, 5, integer=True) == [0, 20, 40, 60, 80]
    assert nice_ticks(0, 0.47) == [0.0, 0.1, 0.2, 0.3, 0.4]
    assert nice_ticks(0, 3, 6, integer=True) == [0, 1, 2, 3]  # integer data: never a step under 1
    assert nice_ticks(18, 442, 8) == [100, 200, 300, 400]  # 424 / 8 = 53 a step: 100
    assert nice_ticks(18, 442, 10) == [50, 100, 150, 200, 250, 300, 350, 400]
    assert nice_ticks(0, 0.012, 6) == [0.0, 0.002, 0.004, 0.006, 0.008, 0.01, 0.012]
    assert [nice_step(s, 5) for s in (1, 7, 13, 30, 0.3)] == [0.2, 2, 5, 10, 0.1]


def test_tick_labels_have_the_decimals_their_step_needs() -> None:
    assert [label for _, label in labelled_ticks(0, 0.3, 6, percent=True)] == ["0%", "5%", "10%", "15%", "20%",
                                                                                  "25%", "30%"]
    assert [label for _, label in labelled_ticks(0, 1.0, 4)] == ["0.0", "0.5", "1.0"]
    assert tick_label(0.025, 0.005) == "0.025"
    assert tick_label(0.0125, 0.0025, percent=True) == "1.25%"
    assert tick_label(300.0, 50.0) == "300"


def test_integer_bins_cover_every_value_with_round_edges() -> None:
    edges = integer_bins(18, 440)
    assert edges[0] == 10 and edges[-1] == 450 and edges[1] - edges[0] == 10
    values = list(range(18, 441))
    assert sum(histogram_counts(values, edges)) == len(values)
    assert integer_bins(5, 5) == [5, 6]
    assert histogram_counts([1, 1, 2, 5, 6], [0, 2, 4, 6]) == [2, 1, 2]  # the last bin closed, as numpy's


def test_colour_maps_end_colours() -> None:
    assert (MAGMA_R(0.0), MAGMA_R(1.0)) == ("#fcfdbf", "#000004")  # light = rare, dark = often
    assert (VIRIDIS(0.0), VIRIDIS(1.0)) == ("#440154", "#fde725")
    assert VIRIDIS(0.5) == "#21918c" and VIRIDIS(-1) == VIRIDIS(0) and VIRIDIS(2) == VIRIDIS(1)
    assert MAGMA_R.reversed().name == "magma"


# ------------------------------------------------------------------------------------------ charts


def test_bar_chart_heights_intervals_and_percent_axis() -> None:
    bars = [Bar("seat 1", 0.20, 0.15, 0.26), Bar("seat 2", 0.10, 0.06, 0.15), Bar("seat 3", 0.0, 0.0, 0.05)]
    chart = bar_chart(bars, title="Win rate by seat", y_label="win rate", reference=(1 / 3, "fair share 33.3%"))
    drawn = ops(chart, "bar", RectOp)
    heights = [op.rect.height for op in drawn]
    assert heights[1] == pytest.approx(heights[0] / 2) and heights[2] == pytest.approx(0.0)
    assert len(ops(chart, "error-cap", Polygon)) == 2 * len(bars)
    assert texts(chart, "y-tick-label") == ["0%", "10%", "20%", "30%", "40%", "50%"]
    assert texts(chart, "x-tick-label") == ["seat 1", "20.0%", "seat 2", "10.0%", "seat 3", "0.0%"]
    assert texts(chart, "legend") == ["fair share 33.3%"] and texts(chart, "title") == ["Win rate by seat"]
    assert pixels(chart.png()).size == (600, 400)
    from boardgen.render.cairo_backend import render_pdf, render_svg

    assert render_pdf([chart.page()]).startswith(b"%PDF") and b"<svg" in render_svg(chart.page())  # vector too


def test_bar_chart_of_shares_never_goes_past_100_percent() -> None:
    chart = bar_chart([Bar("seat 1", 1.0, 0.2, 1.0), Bar("seat 2", 0.0, 0.0, 0.8)], title="t", y_label="y")
    assert texts(chart, "y-tick-label")[-1] == "100%"


def test_histogram_chart_draws_the_counts() -> None:
    edges = [0, 10, 20, 30]
    chart = histogram_chart([Series("a", [1, 2, 3, 15], "#4c72b0"), Series("b", [25], "#c44e52", filled=False)],
                            edges, title="Scores", x_label="score", y_label="players", size_in=(7, 4))
    filled, outline = ops(chart, "histogram", Polygon)
    bottom = filled.points[0][1]
    tops = [bottom - filled.points[1 + 2 * i][1] for i in range(3)]  # bin heights in mm, from the points
    assert tops[1] == pytest.approx(tops[0] / 3) and tops[2] == pytest.approx(0.0)
    assert outline.style.fill is None and not outline.closed
    assert texts(chart, "y-tick-label") == ["0", "1", "2", "3"]  # the axis ends at 3 * 1.05
    assert texts(chart, "legend") == ["a", "b"]
    assert pixels(chart.png()).size == (700, 400)


def panel(mean: list[float], title: str = "Polar (d4, start 2)") -> StepPanel:
    n = len(mean)
    return StepPanel(title, list(range(n + 1)), mean, [m - 1 for m in mean], [m + 1 for m in mean], "#a6cee3",
                     6, list(range(0, n, 2)), [(5.0, "#bbbbbb")], (4, 1), (n - 0.5, 5.0, "5.0 with badges"))


def test_step_panels_share_the_x_axis_and_label_the_outer_panels() -> None:
    panels = [panel([2, 2, 3, 3, 2, 1], f"zone {k}") for k in range(5)]
    chart = step_panels_chart(panels, title=["Index", "second line"], x_label="after turn", y_label="index")
    assert texts(chart, "panel-title") == [f"zone {k}" for k in range(5)]
    assert texts(chart, "x-label") == ["after turn"] * 3  # the bottom of each column
    assert texts(chart, "y-label") == ["index"] * 2  # the left of each row
    assert len(ops(chart, "dot", Circle)) == 5 and texts(chart, "dot-label") == ["5.0 with badges"] * 5
    image = pixels(chart.png())
    assert image.size[0] == 1000 and image.mode == "RGB"


def hexes(n: int) -> list[list[tuple[float, float]]]:
    import math

    return [[(20.0 * k + 10 * math.cos(math.radians(60 * i + 30)), 10 * math.sin(math.radians(60 * i + 30)))
             for i in range(6)] for k in range(n)]


def test_heat_map_colours_cells_by_value_with_equal_aspect() -> None:
    chart = hex_heat_map_chart(hexes(4), [0.0, 0.25, 0.5, 1.0], title="t", x_label="x", y_label="y",
                               bar_label="share of games", colour_map=VIRIDIS)
    cells = ops(chart, "cell", Polygon)
    assert [c.style.fill for c in cells] == VIRIDIS.colours([0.0, 0.25, 0.5, 1.0])
    xs = [x for x, _ in cells[0].points]
    ys = [y for _, y in cells[0].points]
    width = max(xs) - min(xs)
    height = max(ys) - min(ys)
    assert width / height == pytest.approx((2 * 10 * np.cos(np.radians(30))) / 20.0)  # a hex keeps its shape
    assert texts(chart, "colour-bar-label") == ["share of games"]
    assert texts(chart, "colour-bar-tick-label")[0] == "0.0" and texts(chart, "colour-bar-tick-label")[-1] == "1.0"
    assert pixels(chart.png()).size[0] == 1100


def test_same_data_same_bytes_other_data_other_bytes() -> None:
    def draw(values: list[int]) -> bytes:
        return histogram_chart([Series("a", values, "#4c72b0")], [0, 5, 10], title="t", x_label="x",
                               y_label="y").png()

    assert draw([1, 2, 7]) == draw([1, 2, 7])
    assert draw([1, 2, 7]) != draw([1, 7, 7])


# ------------------------------------------------------------------------------------------ plumbing


def test_png_encoder_round_trips() -> None:
    rgb = (np.arange(5 * 7 * 3) % 251).astype(np.uint8).reshape(5, 7, 3)
    data = encode_png(rgb)
    assert np.array_equal(np.asarray(pixels(data)), rgb)
    words = np.zeros((5, 7, 4), dtype=np.uint8)
    words[..., :3] = rgb[..., ::-1]
    assert encode_png(words[:, :, 2::-1]) == data  # a strided view gives the same bytes
    with pytest.raises(ValueError, match="uint8"):
        encode_png(rgb.astype(np.int32))


def test_cairo_declarations_module_is_up_to_date(tmp_path: Path) -> None:
    """``_cairo_ffi.py`` is what ``python -m boardgen.render.cairo_lib`` writes from the declarations now (else
    every process parses them: 30 ms)."""
    fresh = cairo_lib.emit(tmp_path / "_cairo_ffi.py")
    assert cairo_lib.GENERATED.read_text() == fresh
    from boardgen.render import _cairo_ffi

    assert cairo_lib.ffi is _cairo_ffi.ffi


def test_flagship_simulate_draws_six_plots_without_matplotlib(tmp_path: Path) -> None:
    """Nor cairocffi, pikepdf or pycparser (0.25 s of imports between them); and another game's plots neither."""
    script = (
        "import sys\n"
        "from boardgen.cli import cli\n"
        f"cli.main(args=['simulate', '--games', '3', '-q', '-o', {str(tmp_path)!r}], standalone_mode=False)\n"
        "heavy = sorted(m for m in ('matplotlib', 'cairocffi', 'pikepdf', 'pycparser')"
        " if m in sys.modules)\n"
        "print('HEAVY', heavy)\n"
        f"cli.main(args=['simulate', '-t', {str(REPO / 'templates' / 'global-warming.yaml')!r}, '--games', '3', '-q',"
        f" '-o', {str(tmp_path)!r}], standalone_mode=False)\n"
        "print('GENERIC', 'matplotlib' in sys.modules)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "HEAVY []" in done.stdout and "GENERIC False" in done.stdout, done.stdout  # another game's plots too
    report = tmp_path / "global-wellbeing" / "report"
    widths = {p.name: pixels(p.read_bytes()).size[0] for p in sorted(report.glob("*.png"))}
    assert widths == {"heat-contested.png": 1100, "heat-occupied.png": 1100, "index-trajectories.png": 1000,
                      "score-distribution.png": 700, "win-rate-by-bot.png": 600, "win-rate-by-seat.png": 600}


def test_generic_plots_show_the_summary() -> None:
    from types import SimpleNamespace

    from boardgen.play.plots import generic_plots, seat_bars

    summary = {"games": 10, "expected_seat_rate": 0.5,
               "win_rate_by_seat": [{"seat": 1, "rate": 0.7, "ci95": [0.39, 0.89]},
                                    {"seat": 2, "rate": 0.3, "ci95": [0.11, 0.3000001]}]}
    bars = seat_bars(summary)
    assert [(b.label, b.value, b.low, b.high) for b in bars] == [("1", 0.7, 0.39, 0.89), ("2", 0.3, 0.11, 0.3000001)]
    records = [SimpleNamespace(outcome=SimpleNamespace(length=n)) for n in (5, 6, 6, 9)]
    plots = generic_plots("Game", summary, records)
    assert {name: pixels(png).size for name, png in plots.items()} == {"win-rate-by-seat.png": (600, 320),
                                                                       "game-length.png": (600, 320)}


def test_grouped_bars_line_chart_and_side_by_side() -> None:
    from boardgen.render.charts import BarSeries, Line, grouped_bar_chart, line_chart, side_by_side

    grouped = grouped_bar_chart(["timer", "last stone"], [BarSeries("a", [0.1, 0.2], "#e69f00"),
                                                         BarSeries("b", [0.3, 0.0], "#56b4e9")],
                                title="Endings", y_label="share")
    drawn = ops(grouped, "bar", RectOp)
    assert [round(op.rect.height / drawn[2].rect.height, 6) for op in drawn] == [round(1 / 3, 6), round(2 / 3, 6),
                                                                                  1.0, 0.0]
    assert drawn[0].rect.right == pytest.approx(drawn[2].rect.x)  # a's bar then b's, side by side in a group
    assert texts(grouped, "legend") == ["a", "b"]
    steps = line_chart([Line("", [1, 2, 3], [0.2, 0.5, 1.0], "#009e73", steps=True)], title="first drowning",
                       x_label="turn", y_label="games", percent=True, y_range=(0.0, 1.0), size_in=(3.6, 3.0))
    (drawn_line,) = ops(steps, "line", Polygon)
    assert len(drawn_line.points) == 5  # three values, two risers
    assert texts(steps, "y-tick-label")[-1] == "100%"
    both = side_by_side([grouped, steps], "Both")
    assert pixels(both.png()).size[0] == 1060  # 7.0 + 3.6 inches
    assert texts(both, "title") == ["Both", "Endings", "first drowning"]


def test_grid_heat_map_and_ranking() -> None:
    from boardgen.render.charts import grid_heat_map_chart, ranking_chart

    grid = [[0.1, 0.2], [float("nan"), 0.3]]
    chart = grid_heat_map_chart(["3", "4"], ["1", "2"], grid, title="9 variants", x_label="a", y_label="b",
                                bar_label="objective", colour_map=VIRIDIS.reversed())
    cells = ops(chart, "cell", RectOp)
    assert len(cells) == 3 and texts(chart, "cell-value") == ["0.100", "0.200", "0.300"]
    assert [c.style.fill for c in cells] == [VIRIDIS(1.0), VIRIDIS(0.5), VIRIDIS(0.0)]  # low values yellow
    ranking = ranking_chart(["best", "next"], [0.1, 0.2], ["#d55e00", "#0072b2"], title="ranked", x_label="objective")
    first, second = ops(ranking, "bar", RectOp)
    assert first.rect.y < second.rect.y and second.rect.width == pytest.approx(2 * first.rect.width)
    assert texts(ranking, "y-tick-label") == ["best", "next"]

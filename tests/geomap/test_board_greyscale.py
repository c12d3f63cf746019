"""A black-and-white print: every zone and the sea keep apart on a greyscale render of the board, and
the low-ink option saves ink."""

from __future__ import annotations

import dataclasses
import io
import itertools
import statistics

import numpy as np
import pytest
import shapely
from PIL import Image

from boardgen.games.global_wellbeing.board_art import make_art
from boardgen.games.global_wellbeing.kit import art_board
from boardgen.geomap.jigsaw import poster_page
from boardgen.render.cairo_backend import render_png
from boardgen.render.press import srgb_lightness

DPI = 40.0
MIN_DELTA_L = 11.0  # the palette reaches 11.3 on a greyscale (luma) render (Tropical against Mountains)


def _grey_page(art) -> Image.Image:
    return Image.open(io.BytesIO(render_png(poster_page(art_board(art)), dpi=DPI))).convert("L")


def _lightness_by_zone(art, image: Image.Image) -> dict[str, float]:
    """Median L* of each zone's cells (sampled beside the symbol) and of open sea, on the greyscale render."""
    board = art.board
    px = DPI / 25.4
    bleed = 3.0
    size = board.layout.size_mm
    samples: dict[str, list[float]] = {}
    for cell in board.cells:
        cx, cy = cell.center_mm
        for dx in (-0.7, 0.7):
            g = image.getpixel((round((cx + dx * size + bleed) * px), round((cy + bleed) * px)))
            samples.setdefault(cell.zone, []).append(srgb_lightness(g / 255))  # type: ignore[operator]
    sea = shapely.difference(board.frame_mm, shapely.union_all([*art.coast_mm, *(b.polygon for b in art.legend)])
                             .buffer(8.0))
    for k in range(200):
        x = board.frame_mm.bounds[0] + (k * 37.3) % (board.frame_mm.bounds[2] - board.frame_mm.bounds[0])
        y = board.frame_mm.bounds[1] + (k * 23.9) % (board.frame_mm.bounds[3] - board.frame_mm.bounds[1])
        if sea.contains(shapely.Point(x, y)):
            g = image.getpixel((round((x + bleed) * px), round((y + bleed) * px)))
            samples.setdefault("sea", []).append(srgb_lightness(g / 255))  # type: ignore[operator]
    assert len(samples["sea"]) > 20
    return {name: statistics.median(values) for name, values in samples.items()}


@pytest.fixture(scope="module")
def grey_levels(board_art) -> dict[str, float]:
    return _lightness_by_zone(board_art, _grey_page(board_art))


def test_zones_and_sea_stay_apart_in_greyscale(grey_levels, default_config) -> None:
    assert set(grey_levels) == {*default_config.zones, "sea"}
    closest = min(itertools.combinations(grey_levels, 2), key=lambda p: abs(grey_levels[p[0]] - grey_levels[p[1]]))
    gap = abs(grey_levels[closest[0]] - grey_levels[closest[1]])
    assert gap >= MIN_DELTA_L - 0.5, (closest, gap, grey_levels)  # once Temperate/Tropical 1.12:1, Arid ~ sea


def test_low_ink_board_leaves_sea_and_paper_white(board_art, grey_levels) -> None:
    config = board_art.config
    low = config.model_copy(update={"board": config.board.model_copy(update={"low_ink": True})})
    board = dataclasses.replace(board_art.board, config=low)
    art = make_art(board, board_art.sections)
    image = _grey_page(art)
    normal = _grey_page(board_art)
    ink = [1 - float(np.asarray(img, dtype=float).mean()) / 255 for img in (normal, image)]
    assert ink[1] < 0.8 * ink[0], ink  # at least 20% less ink over the whole poster (measured: 26%)
    levels = _lightness_by_zone(art, image)
    assert levels["sea"] > 99.0
    for zone in config.zones:
        assert levels[zone] == pytest.approx(grey_levels[zone], abs=1.0)  # the cells keep their colours

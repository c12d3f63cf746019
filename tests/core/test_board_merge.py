"""render/merge.py: merged paths look the same as the ops they replace."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image
from shapely.geometry import box

from boardgen.geomap.spec import ZONE_SYMBOLS
from boardgen.render.cairo_backend import Page, render_png
from boardgen.render.merge import NotFlatError, flatten, merge_parallel, polygons_path
from boardgen.render.scene import Circle, Group, Scene, Style, fill, scale, translate
from boardgen.render.symbols import zone_symbol


def _pixels(ops) -> np.ndarray:
    page = Page(60.0, 20.0, Scene((*ops,)))
    return np.asarray(Image.open(io.BytesIO(render_png(page, dpi=300))).convert("RGB")).astype(int)


@pytest.mark.parametrize("name", ZONE_SYMBOLS)
def test_merged_symbols_look_like_the_originals(name):
    copies = [zone_symbol(name, 10.0 + 20.0 * i, 10.0, 8.0, "#1a1a1a", detail="#5e9f4a") for i in range(3)]
    merged = merge_parallel(copies, "m")
    assert len(merged) < sum(1 for c in copies for _ in c.items) or len(copies[0].items) == 1
    diff = np.abs(_pixels(copies) - _pixels(merged)).max(axis=2)
    assert (diff > 60).mean() < 0.002  # anti-aliasing only


def test_flatten_scales_strokes_and_refuses_skewed_ones():
    parts = flatten(Group((Circle(0, 0, 1, Style(stroke="#000000", stroke_width_mm=0.1)),), transform=scale(4.0)))
    assert parts[0][0].stroke_width_mm == pytest.approx(0.4)
    xs = [v for cmd in parts[0][1] for v in cmd[1::2]]
    assert max(xs) == pytest.approx(4.0) and min(xs) == pytest.approx(-4.0)
    with pytest.raises(NotFlatError):
        flatten(Group((Circle(0, 0, 1, Style(stroke="#000000")),), transform=translate(1, 1) @ scale(1.0, 2.0)))


def test_polygons_path_fills_overlaps_and_keeps_holes():
    ring = box(0, 0, 10, 10).difference(box(4, 4, 6, 6))
    path = polygons_path([ring, box(8, 0, 14, 10)], fill("#000000"))
    px = _pixels([path])
    per_mm = 300 / 25.4
    assert px[int(5 * per_mm), int(5 * per_mm)].tolist() == [255, 255, 255]  # the hole stays open
    assert px[int(5 * per_mm), int(9 * per_mm)].tolist() == [0, 0, 0]  # the overlap stays filled

"""The Philanthropist's print-then-cut edition: every printed piece has its one closed outline in the cut file
of the sheet that prints it, inside that sheet and clear of the registration marks' band."""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from boardgen.games.philanthropist.kit import component_sets, lay_paper
from boardgen.kit.cut_edition import cut_edition
from boardgen.render.imposition import A4, LETTER, PRINT_CUT_MARKS, Paper
from boardgen.template import load

ROOT = Path(__file__).resolve().parents[3]
SVG = "{http://www.w3.org/2000/svg}"


def _layer(root: ET.Element, name: str) -> ET.Element:
    return next(g for g in root.iter(f"{SVG}g") if g.get("id") == name)


def _pieces(svg: bytes) -> tuple[list[tuple[float, float, float, float]], list[tuple[float, float, float, float]],
                                 float]:
    """(cut outlines as x0, y0, x1, y1 in the SVG's mm, guide rectangles likewise, SVG width)."""
    root = ET.fromstring(svg)
    width = float(root.get("viewBox", "0 0 0 0").split()[2])
    cuts = []
    for p in _layer(root, "cut").iter(f"{SVG}path"):
        m = re.search(r"matrix\(1,0,0,1,([-\d.e]+),([-\d.e]+)\)", p.get("transform", ""))
        dx, dy = (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)
        d = p.get("d", "")
        assert "Z" in d, "every cut outline is closed"
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
        xs, ys = nums[0::2], nums[1::2]
        cuts.append((min(xs) + dx, min(ys) + dy, max(xs) + dx, max(ys) + dy))
    guides = []
    for p in _layer(root, "guides").iter(f"{SVG}path"):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", p.get("d", ""))]
        xs, ys = nums[0::2], nums[1::2]
        guides.append((min(xs), min(ys), max(xs), max(ys)))
    return cuts, guides, width


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_every_piece_is_one_closed_outline_inside_its_sheet(paper: Paper) -> None:
    t = load(ROOT / "templates" / "philanthropist.yaml")[1]
    edition = cut_edition(t.title, functools.partial(lay_paper, t, component_sets(t)), paper)
    svgs = [a for a in edition.artifacts if a.path.endswith(".svg")]
    assert len(svgs) == sum(len(lo.cut_sheets) for lo in edition.kit.laid)
    everything = []
    band = PRINT_CUT_MARKS.band_mm
    for svg in svgs:
        cuts, guides, width = _pieces(svg.data)
        sheet = guides[0]  # the paper's edge
        assert width == pytest.approx(sheet[2], abs=0.1)
        for x0, y0, x1, y1 in cuts:  # on the sheet and clear of the marks (dice tabs and bleed included)
            assert band - 0.01 <= x0 and x1 <= sheet[2] - band + 0.01, (svg.path, x0, x1)
            assert band - 0.01 <= y0 and y1 <= sheet[3] - band + 0.01, (svg.path, y0, y1)
        everything += cuts
    pieces = t.cards.count + t.meeples.total + len(t.players.seats) + sum(t.cubes.supply.values()) + 2 \
        + t.players.max
    assert len(everything) == pieces
    w, h = t.cards.width_mm, t.cards.height_mm
    cards = [c for c in everything if sorted((c[2] - c[0], c[3] - c[1])) == pytest.approx(sorted((w, h)), abs=0.2)]
    assert len(cards) == t.cards.count  # upright or turned: the file's pages are all one way round (duplex)
    assert len({p.width_mm for p in edition.kit.pages}) == 1

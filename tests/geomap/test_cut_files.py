"""Cut files: the whole-board cut layer cuts every section boundary, one closed outline per section,
and one print-then-cut file per component sheet with its registration marks."""

from __future__ import annotations

import io
import json
import re
import subprocess

import pytest
import shapely
from PIL import Image
from shapely.geometry import LineString, Polygon, box, shape

from boardgen.games.global_wellbeing.board_layout import SECTION_PAPERS
from boardgen.games.global_wellbeing.kit import build_components, component_sets
from boardgen.geomap.jigsaw import section_trim
from boardgen.kit.cut_edition import cut_sheet_svgs, front_indices
from boardgen.render.imposition import A4, LETTER, PRINT_CUT_MARKS

_NUMBER = r"-?\d+(?:\.\d+)?(?:e-?\d+)?"


def _layer(svg: str, name: str) -> str:
    start = svg.index(f'<g id="{name}"')
    depth, i = 0, start
    for m in re.finditer(r"<g\b|</g>", svg[start:]):
        depth += 1 if m.group() != "</g>" else -1
        if depth == 0:
            i = start + m.end()
            break
    return svg[start:i]


def _paths(fragment: str) -> list[list[list[tuple[float, float]]]]:
    """Each <path d=...> as its subpaths of points (cairo writes M/L/Z in user units = mm here)."""
    out = []
    for d in re.findall(r'<path[^>]* d="([^"]*)"', fragment):
        assert "C" not in d
        subpaths: list[list[tuple[float, float]]] = []
        for cmd, args in re.findall(r"([MLZ])([^MLZ]*)", d):
            nums = [float(v) for v in re.findall(_NUMBER, args)]
            if cmd == "M":
                subpaths.append([(nums[0], nums[1])])
            elif cmd == "L":
                subpaths[-1].extend(zip(nums[0::2], nums[1::2], strict=True))
            else:
                subpaths[-1].append(subpaths[-1][0])
        out.append([s for s in subpaths if len(s) > 1])
    return out


def _cut_lines(svg: str) -> list[LineString]:
    return [LineString(s) for p in _paths(_layer(svg, "cut")) for s in p]


# ------------------------------------------------------------------------------------------ whole board


def test_board_cut_layer_cuts_every_section_boundary(board_outputs) -> None:
    svg = board_outputs["board-cut.svg"].decode()
    lines = _cut_lines(svg)
    data = json.loads(board_outputs["sections.geojson"])
    outlines = [shape(f["geometry"]) for f in data["features"]]
    w, h = data["board_mm"]
    # every boundary once: the board's edge plus each shared stretch between two sections
    expected = (sum(o.length for o in outlines) + 2 * (w + h)) / 2
    assert sum(line.length for line in lines) == pytest.approx(expected, abs=0.1)
    cuts = shapely.union_all(lines)
    for outline in outlines:
        points = shapely.get_coordinates(outline.exterior)
        distances = shapely.distance(cuts, shapely.points(points))
        assert distances.max() < 0.01, f"outline point {points[distances.argmax()]} is not on a cut"
        # and along the edges, not only at the corners
        mids = (points[:-1] + points[1:]) / 2
        assert shapely.distance(cuts, shapely.points(mids)).max() < 0.01


def test_diagonal_sections_that_touch_are_cut(board_art) -> None:
    """Two cuts once missing: sections 2|6 and 5|7 meet along one hex side of a tab."""
    layout = board_art.sections
    pairs = {(a + 1, b + 1) for a, b in layout.touching_pairs()}
    grid = {(e.first + 1, e.second + 1) for e in layout.edges}
    diagonal = pairs - grid
    assert diagonal, "the default board has sections that meet diagonally"
    lines = shapely.union_all(layout.cut_lines_mm())
    for a, b in diagonal:
        shared = shapely.intersection(layout.sections[a - 1].outline_mm.boundary,
                                      layout.sections[b - 1].outline_mm.boundary)
        assert shared.length > 1.0
        assert shapely.difference(shared, lines.buffer(0.001)).length < 1e-3


# ------------------------------------------------------------------------------------------ one piece each


@pytest.mark.parametrize("paper", SECTION_PAPERS, ids=lambda p: p.slug)
def test_one_closed_outline_per_section(board_outputs, board_art, paper) -> None:
    data = json.loads(board_outputs["sections.geojson"])
    for feature in data["features"]:
        n = feature["properties"]["section"]
        svg = board_outputs[f"cut/board-section-{n}-{paper.slug}.svg"].decode()
        assert re.search(rf'width="{paper.width_mm:g}mm"', svg) and re.search(rf'height="{paper.height_mm:g}mm"', svg)
        (path,) = _paths(_layer(svg, "cut"))
        (ring,) = path  # one closed subpath
        assert ring[0] == ring[-1]
        section = board_art.sections.sections[n - 1]
        trim = section_trim(section, paper)
        x0, y0, _, _ = section.bounds_mm
        drawn = Polygon(ring)
        expected = shapely.affinity.translate(shape(feature["geometry"]), trim.x - x0, trim.y - y0)
        assert drawn.is_valid and shapely.symmetric_difference(drawn, expected).area < 0.5
        assert 'id="guides"' in svg


# ------------------------------------------------------------------------------------------ component sheets


@pytest.fixture(scope="module")
def print_cut_kits(default_ctx):
    config = default_ctx.config
    sets = component_sets(config, default_ctx.board.layout.size_mm)
    return {p.slug: build_components(config, sets, p, PRINT_CUT_MARKS) for p in (A4, LETTER)}


def _pdf_page_png(pdf: bytes, number: int, dpi: int, tmp_path) -> Image.Image:
    src = tmp_path / "sheet.pdf"
    src.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(number), "-l", str(number), "-singlefile", "-gray",
                    "-png", str(src), str(tmp_path / "page")], check=True)
    return Image.open(tmp_path / "page.png").convert("L")


@pytest.mark.parametrize("slug", ["a4", "letter"])
def test_print_then_cut_marks_in_pdf_and_svg(print_cut_kits, slug, tmp_path) -> None:
    kit = print_cut_kits[slug]
    paper = kit.paper
    svgs = cut_sheet_svgs(kit)
    fronts = [lo for lo in kit.laid for _ in lo.cut_sheets]
    assert len(svgs) == len(fronts) >= 10
    marks = PRINT_CUT_MARKS.rects(paper)
    start = 0
    numbers = []
    for lo in kit.laid:
        numbers.extend(start + i + 1 for i in front_indices(lo))
        start += len(lo.pages)
    assert [n for n, _ in svgs] == numbers
    for number, svg_bytes in svgs:
        svg = svg_bytes.decode()
        assert re.search(rf'width="{paper.width_mm:g}mm"', svg) and re.search(rf'height="{paper.height_mm:g}mm"', svg)
        guides = _layer(svg, "guides")
        cut = _layer(svg, "cut")
        assert "print-cut" not in cut and guides.count("<path") >= 1 + len(marks)
        # the marks in the SVG (guides layer) are the marks on the printed page, to 0.01 mm
        drawn = {tuple(round(v, 2) for v in Polygon(s).bounds) for p in _paths(guides) for s in p}
        for r in marks:
            assert (round(r.x, 2), round(r.y, 2), round(r.right, 2), round(r.bottom, 2)) in drawn
        # and they are printed on that page of the PDF: black inside each mark, white 1 mm around it
        if number in numbers[:2]:
            im = _pdf_page_png(kit.pdf, number, 200, tmp_path)
            px = 200 / 25.4
            for r in marks:
                cx, cy = r.center
                assert im.getpixel((int(cx * px), int(cy * px))) < 60, (number, r)
                for x, y in ((r.x - 1, cy), (r.right + 1, cy), (cx, r.y - 1), (cx, r.bottom + 1)):
                    assert im.getpixel((int(x * px), int(y * px))) > 200, (number, r, x, y)
        # every cut is one closed outline, inside the paper and clear of the marks' band
        outlines = _paths(cut)
        assert outlines
        band = PRINT_CUT_MARKS.band_mm
        clear = box(band, band, paper.width_mm - band, paper.height_mm - band)
        for path in outlines:
            for ring in path:
                assert ring[0] == ring[-1]
                assert clear.contains(Polygon(ring)), (number, Polygon(ring).bounds)


@pytest.mark.parametrize("slug", ["a4", "letter"])
def test_marks_band_is_clear_on_the_printed_sheet(print_cut_kits, slug) -> None:
    """Render each front page and check that around the marks (2 mm) only the marks themselves are inked."""
    from boardgen.render.cairo_backend import render_png

    kit = print_cut_kits[slug]
    paper = kit.paper
    dpi = 50.0
    px = dpi / 25.4
    marks = PRINT_CUT_MARKS.rects(paper)
    for lo in kit.laid:
        for i in front_indices(lo)[:1]:
            im = Image.open(io.BytesIO(render_png(lo.pages[i], dpi))).convert("L")
            band = PRINT_CUT_MARKS.band_mm
            w, h = im.size
            edge = int(band * px) - 1
            for x in range(w):
                for y in range(h):
                    if edge <= x < w - edge and edge <= y < h - edge:
                        continue
                    if im.getpixel((x, y)) < 200:
                        xm, ym = x / px, y / px
                        assert any(r.outset(0.6).x <= xm <= r.outset(0.6).right and
                                   r.outset(0.6).y <= ym <= r.outset(0.6).bottom for r in marks), (lo.kind, xm, ym)

"""The board stage's files: page counts and boxes, fonts, cut file, GeoJSON, legend, determinism."""

from __future__ import annotations

import io
import json
import re

import pikepdf
import pytest
import shapely
from shapely.geometry import Polygon, box, shape

from boardgen.build import BuildContext
from boardgen.games.global_wellbeing import GlobalWellbeing
from boardgen.games.global_wellbeing.board_art import board_scene, check_legend_clear
from boardgen.games.global_wellbeing.board_layout import SECTION_PAPERS, max_section_size_mm
from boardgen.games.global_wellbeing.kit import art_board
from boardgen.geomap import jigsaw
from boardgen.kit.stages import board_stage, sections_stage
from boardgen.layout.sections import DEFAULT_MAX_SECTION_MM
from boardgen.render.scene import HAIRLINE_MM, Circle, Group, Path, RectOp
from boardgen.render.scene import Polygon as PolygonOp

STAGES = GlobalWellbeing.stages
PT_PER_MM = 72.0 / 25.4


@pytest.fixture(scope="session")
def ctx(default_ctx: BuildContext) -> BuildContext:
    return default_ctx


@pytest.fixture(scope="session")
def outputs(board_outputs) -> dict[str, bytes]:
    return board_outputs


@pytest.fixture(scope="session")
def art(board_art):
    return board_art


def _boxes_mm(data: bytes) -> list[dict[str, tuple[float, ...]]]:
    pdf = pikepdf.open(io.BytesIO(data))
    pages = []
    for page in pdf.pages:
        boxes = {}
        for name in ("/MediaBox", "/TrimBox", "/BleedBox"):
            values = [float(v) / PT_PER_MM for v in page.obj[name]]
            boxes[name[1:]] = tuple(values)
        pages.append(boxes)
    return pages


def test_stage_is_registered_before_the_kits():
    names = [entry[0] for entry in STAGES]
    # every stage but the kits runs side by side; the kits zip what the others made
    assert names[-1] == "kits"
    assert {"map", "board", "sections", "components", "leaflet", "cut", "validate"} <= set(names)
    assert all("parallel" in entry[2:] for entry in STAGES[:-1])
    specs = {entry[0]: entry[1] for entry in STAGES}
    assert specs["board"] == "boardgen.kit.stages:board_stage"
    assert specs["sections"] == "boardgen.kit.stages:sections_stage"


def test_files_and_page_counts(outputs):
    assert {k for k in outputs if not k.startswith("cut/")} == {
        "board-poster.pdf", "board-poster-rgb.pdf", "board-sections-a4.pdf", "board-sections-letter.pdf",
        "board-cut.svg", "sections.geojson", "preview/board.png", "preview/sections.png"}
    assert sorted(k for k in outputs if k.startswith("cut/")) == sorted(
        f"cut/board-section-{n}-{paper}.svg" for n in range(1, 10) for paper in ("a4", "letter"))
    assert len(pikepdf.open(io.BytesIO(outputs["board-poster.pdf"])).pages) == 1
    assert len(pikepdf.open(io.BytesIO(outputs["board-sections-a4.pdf"])).pages) == 9
    assert len(pikepdf.open(io.BytesIO(outputs["board-sections-letter.pdf"])).pages) == 9
    for name in ("preview/board.png", "preview/sections.png"):
        assert outputs[name][:8] == b"\x89PNG\r\n\x1a\n"


def test_poster_boxes(outputs):
    (page,) = _boxes_mm(outputs["board-poster.pdf"])
    assert page["MediaBox"] == pytest.approx((0, 0, 666, 446), abs=0.1)
    assert page["BleedBox"] == pytest.approx((0, 0, 666, 446), abs=0.1)
    assert page["TrimBox"] == pytest.approx((3, 3, 663, 443), abs=0.1)


@pytest.mark.parametrize("paper", SECTION_PAPERS, ids=lambda p: p.slug)
def test_section_page_boxes(outputs, art, paper):
    pages = _boxes_mm(outputs[f"board-sections-{paper.slug}.pdf"])
    assert len(pages) == 9
    for page, section in zip(pages, art.sections.sections, strict=True):
        assert page["MediaBox"] == pytest.approx((0, 0, paper.width_mm, paper.height_mm), abs=0.1)
        x0, y0, x1, y1 = page["TrimBox"]
        sx0, sy0, sx1, sy1 = section.bounds_mm
        assert x1 - x0 == pytest.approx(sx1 - sx0, abs=0.1)  # 1:1 scale: trim = the section's size
        assert y1 - y0 == pytest.approx(sy1 - sy0, abs=0.1)
        bx0, by0, bx1, by1 = page["BleedBox"]
        assert (x0 - bx0, y0 - by0, bx1 - x1, by1 - y1) == pytest.approx((3, 3, 3, 3), abs=0.1)
        # the bleed and the crop marks (7.5 mm outside the trim) stay on the printable page (6 mm edge)
        assert x0 - 7.5 >= 6 - 1e-6 and paper.width_mm - x1 - 7.5 >= 6 - 1e-6
        assert y0 - 7.5 >= 6 - 1e-6 and paper.height_mm - y1 - 7.5 >= 6 - 1e-6


def test_section_limit_matches_the_papers():
    assert max_section_size_mm() == pytest.approx(DEFAULT_MAX_SECTION_MM, abs=0.05)


def test_fonts_embedded(outputs):
    for name in ("board-poster.pdf", "board-sections-a4.pdf", "board-sections-letter.pdf"):
        pdf = pikepdf.open(io.BytesIO(outputs[name]))
        fonts = 0
        for page in pdf.pages:
            for _, font in page.obj.Resources.get("/Font", {}).items():
                fonts += 1
                descriptor = font.get("/FontDescriptor")
                if descriptor is None:  # Type0: the descriptor sits on the descendant font
                    descriptor = font.DescendantFonts[0].FontDescriptor
                assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), (name, font.BaseFont)
        assert fonts > 0, name


def test_sections_pages_carry_ruler_numbers_and_neighbours(art):
    paper = SECTION_PAPERS[1]
    for section in art.sections.sections:
        page = jigsaw.section_page(art_board(art), section, paper)
        texts = page.scene.texts()
        assert any("Print at 100%" in t and "100 mm" in t for t in texts)
        assert f"board section {section.number} of 9" in " ".join(texts)
        neighbour_texts = [op.text for op in page.scene.walk() if getattr(op, "name", "") == "neighbour"]
        assert sorted(int(re.sub(r"\D", "", t)) for t in neighbour_texts) == sorted(section.neighbours.values())
        assert page.scene.count("cut-line") == 1


def _stroke_widths(items, factor: float = 1.0):
    """Every stroke width in mm on the page, scaled by the transforms of the groups around it."""
    for op in items:
        if isinstance(op, Group):
            t = op.transform
            scale = abs(t.a * t.d - t.b * t.c) ** 0.5 if t is not None else 1.0
            yield from _stroke_widths(op.items, factor * scale)
        elif isinstance(op, Path | PolygonOp | RectOp | Circle) and op.style.stroke is not None:
            yield op.style.stroke_width_mm * factor, getattr(op, "name", "")


def test_no_stroke_thinner_than_a_hairline(art):
    scenes = [board_scene(art), jigsaw.poster_page(art_board(art)).scene,
              jigsaw.section_page(art_board(art), art.sections.sections[0], SECTION_PAPERS[0]).scene]
    widths = [w for scene in scenes for w in _stroke_widths(scene.items)]
    assert widths
    thinnest = min(widths)
    assert thinnest[0] >= HAIRLINE_MM - 1e-9, thinnest


def test_cut_svg_has_cut_layer(outputs, art):
    svg = outputs["board-cut.svg"].decode()
    assert re.search(r'width="660(\.0+)?mm"', svg) and re.search(r'height="440(\.0+)?mm"', svg)
    assert 'id="cut"' in svg and 'id="guides"' in svg
    cut_part = svg[svg.index('id="cut"'):]
    assert cut_part.count("<path") >= 12  # every internal edge, plus the board's edge
    lines = art.sections.cut_lines_mm()
    assert len(lines) >= 12
    total = sum(line.length for line in lines)
    assert total > 2 * 440 + 2 * 660  # four straight cuts, lengthened by steps and knobs


def test_sections_geojson(outputs, ctx):
    data = json.loads(outputs["sections.geojson"])
    assert data["type"] == "FeatureCollection" and len(data["features"]) == 9
    assert data["assemblies"] == 1
    outlines = [shape(f["geometry"]) for f in data["features"]]
    union = shapely.union_all(outlines)
    assert shapely.symmetric_difference(union, box(0, 0, 660, 440)).area < 0.05
    labels = sorted(label for f in data["features"] for label in f["properties"]["cells"])
    assert labels == sorted(ctx.board.labels)
    for f in data["features"]:
        assert len(f["properties"]["knobs"]) == len(f["properties"]["neighbours"])


def test_legend_on_open_sea_on_section_one(ctx, art):
    board = ctx.board
    names = [b.name for b in art.legend]
    assert names == ["bio-productivity table", "zone key", "title"]
    assert check_legend_clear(board, art.legend, art.sections.sections[0].outline_mm) == []
    cells = shapely.union_all([Polygon(board.hex_corners_mm(c)) for c in board.cells])
    for block in art.legend:
        assert block.polygon.intersection(cells).area == 0.0
        assert art.sections.sections[0].outline_mm.contains(block.polygon)


def test_table_has_a_column_per_zone_with_orange_starts(art, ctx):
    scene = board_scene(art)
    config = ctx.config
    heads: list[str] = []
    for op in scene.walk():
        if getattr(op, "name", "") == "table-head":
            heads.append(op.text)
        elif getattr(op, "name", "") == "table-head-more":  # a long name's second line, after a hyphen
            heads[-1] = heads[-1].removesuffix("-") + op.text
    assert heads == list(config.zones)
    dice = [op.text for op in scene.walk() if getattr(op, "name", "") == "table-die-label"]
    assert dice == [f"d{z.die}" for z in config.zones.values()]
    assert scene.count("table-start") == len(config.zones)
    values = sum(z.die - z.minimum_index + 1 for z in config.zones.values())
    assert scene.count("table-cell") + scene.count("table-start") == values
    assert scene.count("key-entry") == len(config.zones)
    texts = scene.texts()
    assert config.title in texts and any("1 cm ≈" in t for t in texts)


def test_every_land_cell_drawn_with_symbol_and_label(art, ctx):
    # cells and symbols are merged into one path per zone (and per symbol part): see render/merge.py
    scene = board_scene(art)
    board = ctx.board
    assert scene.count("cell-label") == len(board.cells)
    for zone_name, zone in ctx.config.zones.items():
        own = [c for c in board.cells if c.zone == zone_name]
        fills = [op for op in scene.walk() if getattr(op, "name", "") == f"cells:{zone_name}"]
        assert len(fills) == 1 and fills[0].style.fill == zone.colour
        starts = [(cmd[1], cmd[2]) for cmd in fills[0].commands if cmd[0] == "M"]
        assert len(starts) == len(own)
        for x, y in (board.hex_corners_mm(c)[0] for c in own):  # each cell's hexagon is in its zone's path
            assert min(abs(x - a) + abs(y - b) for a, b in starts) < 0.002
        parts = [op for op in scene.walk() if getattr(op, "name", "") == f"symbols:{zone_name}"]
        assert parts, zone_name
        for part in parts:  # every part of the symbol once (or a fixed number of times) per cell
            subpaths = sum(1 for cmd in part.commands if cmd[0] == "M")
            assert subpaths > 0 and subpaths % len(own) == 0


def test_rebuild_is_byte_identical(ctx, outputs):
    fresh = _fresh_context(ctx)
    again = {a.path: a.data for stage in (board_stage, sections_stage) for a in stage(fresh)}
    assert again.keys() == outputs.keys()
    for path, data in outputs.items():
        assert again[path] == data, path


def _fresh_context(ctx: BuildContext) -> BuildContext:
    fresh = BuildContext(ctx.config)
    fresh.computed["board"] = ctx.board  # same board, new context: everything else is recomputed
    return fresh


def test_sections_command_prints_the_fit_proof(ctx):
    from click.testing import CliRunner

    from boardgen.cli import cli

    result = CliRunner().invoke(cli, ["sections"])
    assert result.exit_code == 0, result.output
    assert "9 sections (3 rows x 3 columns, auto; landscape A4 and Letter)" in result.output
    assert "1 distinct assembly" in result.output and "0 impostors" in result.output
    assert result.output.count("knob ") == 12


def test_impossible_sections_are_one_line_errors(tmp_path, capsys, ctx):
    import yaml

    from boardgen.cli import main
    from boardgen.games.global_wellbeing.schema import default_template_path

    data = yaml.safe_load(default_template_path().read_text())
    data["sections"]["columns"] = 2  # 330 mm wide sections cannot fit A4 or Letter
    template = tmp_path / "two-columns.yaml"
    template.write_text(yaml.safe_dump(data, allow_unicode=True))
    with pytest.raises(SystemExit) as exit_info:
        main(["build", "--template", str(template), "--out", str(tmp_path / "out"), "-q"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "fit the page" in err[0], err
    assert not (tmp_path / "out").exists()

    data["sections"]["columns"] = 3
    data["sections"]["knob_neck"] = "20mm"  # wider than the head
    template.write_text(yaml.safe_dump(data, allow_unicode=True))
    with pytest.raises(SystemExit) as exit_info:
        main(["build", "--template", str(template), "--out", str(tmp_path / "out"), "-q"])
    assert exit_info.value.code == 2
    assert "sections.knob_neck" in capsys.readouterr().err


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_section_sheets_have_no_hairline_of_art_along_a_bleed_edge(outputs, tmp_path, paper):
    """Each piece paints the one board picture clipped to its outline and bleed. Painting it whole and covering
    the rest with white left a one-pixel line of art down the bleed rectangle's sides, where the sheet's clip cut
    both: no pixel column may be much darker than both its neighbours."""
    import subprocess

    import numpy as np
    from PIL import Image

    pdf = tmp_path / "sections.pdf"
    pdf.write_bytes(outputs[f"board-sections-{paper}.pdf"])
    subprocess.run(["pdftoppm", "-r", "150", "-png", str(pdf), str(tmp_path / "page")], check=True)
    for png in sorted(tmp_path.glob("page-*.png")):
        pixels = np.asarray(Image.open(png).convert("RGB"), dtype=np.int64)
        inked = (pixels.sum(axis=2) < 762).sum(axis=0)  # per column: pixels not paper white
        spikes = [x for x in range(1, len(inked) - 1)
                  if inked[x] > 3 * max(inked[x - 1], inked[x + 1]) + 100]
        assert not spikes, (png.name, spikes[:5])

"""Any board as a poster and as jigsaw sections on A4 and Letter that fit together one way only."""

from __future__ import annotations

import io
import re

import pikepdf
import pytest
from shapely.geometry import box

from boardgen.errors import LayoutError
from boardgen.layout import fit_solver
from boardgen.layout.sections import piece_signatures
from boardgen.layout.spaces import SpaceStyle, render, square_grid
from boardgen.render.board_print import (
    COMPACT_STYLE,
    BoardPrint,
    cut_board,
    plan_cut,
    print_board,
    print_sections,
)
from boardgen.render.imposition import A4, LETTER, content_area, single_item_page
from boardgen.render.scene import Rect, Scene

BOARD_MM = 609.6  # 24 inches
PT_PER_MM = 72.0 / 25.4


def _board_scene():
    grid = square_grid(24, 24, 25.4, kinds=lambda c, r: "dark" if (c + r) % 2 else "light")
    return render(grid, {"dark": SpaceStyle(fill="#b7c9a8"), "light": SpaceStyle(fill="#f4f1e8")})


@pytest.fixture(scope="module")
def printed() -> BoardPrint:
    return print_board(_board_scene(), BOARD_MM, BOARD_MM, "Test Board", prefix="board", snap_mm=25.4)


def test_artifacts_named_and_counted(printed: BoardPrint) -> None:
    paths = [a.path for a in printed.artifacts]
    assert paths == ["board-poster.pdf", "board-sections-a4.pdf", "board-sections-letter.pdf", "board-cut.svg"]
    n = len(printed.cut.sections)
    assert n == printed.cut.rows * printed.cut.columns == 12
    assert [a.pages for a in printed.artifacts[1:3]] == [n, n]
    # cuts run along the grid lines (snap to the 1 inch squares)
    assert all(abs(v / 25.4 - round(v / 25.4)) < 1e-6 for v in printed.cut.cuts_x_mm + printed.cut.cuts_y_mm)


def test_every_section_fits_the_printable_area_of_both_papers(printed: BoardPrint) -> None:
    for slug, pages in printed.pages.items():
        for page in pages:
            paper = A4 if slug == "a4" else LETTER
            oriented = paper.landscape() if page.width_mm > page.height_mm else paper.portrait()
            area = content_area(oriented, COMPACT_STYLE)
            assert page.trim_box_mm is not None and area.contains_rect(page.trim_box_mm, tol=1e-6)
            assert page.scene.count("scale-ruler") == 1


def test_proof_finds_exactly_one_assembly(printed: BoardPrint) -> None:
    cut = printed.cut
    assert len(cut.fit.assemblies) == 1 and not cut.fit.impostors
    # an independent re-check from the printed outlines' knobs
    report = fit_solver.solve(piece_signatures(cut.rows, cut.columns, cut.knobs), cut.rows, cut.columns, 2.5)
    assert len(report.assemblies) == 1
    # the pieces tile the board exactly: no gaps, no overlaps
    total = sum(s.outline_mm.area for s in cut.sections)
    assert total == pytest.approx(BOARD_MM * BOARD_MM, rel=1e-6)
    for i, a in enumerate(cut.sections):
        for b in cut.sections[i + 1:]:
            assert a.outline_mm.intersection(b.outline_mm).area < 1e-3


def test_knobs_alike_would_not_be_unique() -> None:
    """The proof has teeth: the same pieces with every knob moved to the middle of its edge fit many ways."""
    cut = cut_board(400.0, 300.0, 2, 2)
    sigs = piece_signatures(2, 2, cut.knobs)
    centred = [tuple(None if side is None else tuple((0.0, *k[1:]) for k in side) for side in piece)
               for piece in sigs]
    report = fit_solver.solve(centred, 2, 2, 2.5)  # type: ignore[arg-type]
    assert len(report.assemblies) > 1 or report.impostors


def test_page_boxes(printed: BoardPrint) -> None:
    poster = printed.artifacts[0].data
    with pikepdf.open(io.BytesIO(poster)) as pdf:
        page = pdf.pages[0]
        trim = [float(v) for v in page.TrimBox]
        bleed = [float(v) for v in page.BleedBox]
        media = [float(v) for v in page.MediaBox]
        assert trim[2] - trim[0] == pytest.approx(BOARD_MM * PT_PER_MM, abs=0.01)
        assert bleed == media and media[2] - media[0] == pytest.approx((BOARD_MM + 6) * PT_PER_MM, abs=0.01)
    for art, paper in ((printed.artifacts[1], A4), (printed.artifacts[2], LETTER)):
        with pikepdf.open(io.BytesIO(art.data)) as pdf:
            assert len(pdf.pages) == 12
            for page, sheet in zip(pdf.pages, printed.pages[paper.slug], strict=True):
                media = [float(v) for v in page.MediaBox]
                assert sorted((media[2] * 25.4 / 72, media[3] * 25.4 / 72)) == pytest.approx(
                    sorted((paper.width_mm, paper.height_mm)), abs=0.01)
                trim = [float(v) for v in page.TrimBox]
                assert sheet.trim_box_mm is not None
                assert (trim[2] - trim[0]) / PT_PER_MM == pytest.approx(sheet.trim_box_mm.width, abs=0.01)
                assert (trim[3] - trim[1]) / PT_PER_MM == pytest.approx(sheet.trim_box_mm.height, abs=0.01)
                bleed = [float(v) for v in page.BleedBox]
                assert bleed[2] - bleed[0] == pytest.approx(trim[2] - trim[0] + 6 * PT_PER_MM, abs=0.01)


def test_cut_svg_has_one_closed_outline_per_section(printed: BoardPrint) -> None:
    svg = printed.artifacts[3].data.decode()
    cut_layer = svg[svg.index('<g id="cut"'):]
    assert 'id="guides"' in svg
    assert len(re.findall(r"<path", cut_layer)) == 12
    assert cut_layer.count("Z") >= 12


def test_sections_are_deterministic(printed: BoardPrint) -> None:
    again = print_board(_board_scene(), BOARD_MM, BOARD_MM, "Test Board", prefix="board", snap_mm=25.4)
    assert [a.sha256 for a in again.artifacts] == [a.sha256 for a in printed.artifacts]


def test_knobs_keep_out_of_avoided_rectangles() -> None:
    plain = cut_board(400.0, 300.0, 2, 2)
    # forbid the middle 40 mm of every edge: the knobs must move aside
    avoid = [Rect(cx - 20.0, cy - 20.0, 40.0, 40.0) for cx, cy in ((200, 75), (200, 225), (100, 150), (300, 150))]
    moved = cut_board(400.0, 300.0, 2, 2, avoid=avoid)
    zones = [box(r.x, r.y, r.right, r.bottom) for r in avoid]
    assert any(any(k.outline_mm.intersects(z) for z in zones) for k in plain.knobs)
    assert not any(k.outline_mm.intersects(z) for k in moved.knobs for z in zones)
    assert len(moved.fit.assemblies) == 1
    with pytest.raises(LayoutError, match="no room for a knob"):
        cut_board(400.0, 300.0, 2, 2, avoid=[Rect(0, 0, 400, 300)])


def test_plan_cut_picks_fewest_sections_that_fit() -> None:
    cut, _landscape = plan_cut(240.0, 160.0)
    assert cut.rows * cut.columns == 1  # fits one page: no cut at all
    cut, _landscape = plan_cut(660.0, 440.0)
    assert 4 <= cut.rows * cut.columns <= 12


def test_knob_positions_tested_at_once_answer_as_one_at_a_time() -> None:
    """``knobs_clear_of`` (only knobs whose box reaches an avoid area are made, all at once) gives each position
    the answer of placing that one knob and testing it; ``place_knob_shapes`` gives the very coordinates."""
    import numpy as np
    import shapely

    from boardgen.layout.jigsaw import (
        Edge,
        candidate_positions,
        knob_shape,
        knobs_clear_of,
        place_knob_shape,
        place_knob_shapes,
    )
    from boardgen.render.board_print import Knobs

    settings = Knobs().settings(2, 2)
    shape = knob_shape(settings)
    rng = np.random.default_rng(7)
    avoid = [box(x, y, x + w, y + h) for x, y, w, h in zip(rng.uniform(0, 280, 12), rng.uniform(0, 280, 12),
                                                          rng.uniform(2, 30, 12), rng.uniform(2, 30, 12),
                                                          strict=True)]
    blocked = shapely.union_all([a.buffer(1.0) for a in avoid])
    prepared = shapely.union_all([a.buffer(1.0) for a in avoid])
    shapely.prepare(prepared)
    answers = set()
    for edge in (Edge(0, 1, True, 150.0, 0.0, 300.0), Edge(0, 2, False, 137.3, 12.5, 300.0)):
        alongs = candidate_positions(edge, settings)
        for into_second in (True, False):
            one_by_one = [place_knob_shape(shape, edge, a, into_second, snap=False) for a in alongs]
            at_once = place_knob_shapes(shape, edge, alongs, into_second)
            assert all(np.array_equal(shapely.get_coordinates(p), shapely.get_coordinates(q))
                       for p, q in zip(one_by_one, at_once, strict=True))
            clear = knobs_clear_of(shape, edge, alongs, into_second, prepared)
            assert clear == [not p.intersects(blocked) for p in one_by_one]
            answers.update(clear)
    assert answers == {True, False}  # both answers were asked for


def test_board_art_is_written_once_and_each_sheet_looks_as_drawn_directly(printed: BoardPrint, tmp_path) -> None:
    """The board picture is one form XObject in each sections PDF, placed under every piece clipped to it
    (``SharedArt``), and each sheet looks as the same page drawn straight by cairo (rasterised alike)."""
    import subprocess

    import numpy as np
    from PIL import Image

    from boardgen.render.cairo_backend import render_pdf

    art = printed.artifacts[1]
    with pikepdf.open(io.BytesIO(art.data)) as pdf:
        arts = {page.Resources.XObject["/BoardArt"].objgen for page in pdf.pages}
        assert len(arts) == 1
        for page in pdf.pages:
            first = page.obj.Contents[0].read_bytes()
            assert re.search(rb" h W n 1 0 0 1 -?[\d.]+ -?[\d.]+ cm /BoardArt Do Q /BoardPiece Do Q\n$", first)
    sheets = printed.pages["a4"][:3]
    (tmp_path / "shared.pdf").write_bytes(art.data)
    (tmp_path / "direct.pdf").write_bytes(render_pdf(sheets))
    for n in (1, 2, 3):
        for name in ("shared", "direct"):
            subprocess.run(["pdftoppm", "-r", "50", "-gray", "-png", "-f", str(n), "-l", str(n), "-singlefile",
                            str(tmp_path / f"{name}.pdf"), str(tmp_path / f"{name}-{n}")], check=True)
        shared, direct = (np.asarray(Image.open(tmp_path / f"{name}-{n}.png"), dtype=int)
                          for name in ("shared", "direct"))
        assert shared.shape == direct.shape
        assert (np.abs(shared - direct) > 32).mean() < 0.002, n


def _art_form_and_poster_page(sections_pdf: bytes, poster_pdf: bytes) -> tuple[bytes, list, bytes, list]:
    """(raw content, BBox) of the art form in the first sheet of ``sections_pdf`` and of ``poster_pdf``'s page."""
    with pikepdf.open(io.BytesIO(sections_pdf)) as sheets, pikepdf.open(io.BytesIO(poster_pdf)) as poster:
        form = sheets.pages[0].Resources.XObject["/BoardArt"]
        page = poster.pages[0].obj
        return (form.read_raw_bytes(), [float(v) for v in form.BBox], page.Contents.read_raw_bytes(),
                [float(v) for v in page.MediaBox])


def test_the_section_sheets_print_the_posters_page_as_their_art(printed: BoardPrint) -> None:
    """The board's picture is drawn once for the poster and the sheets alike: the art under every piece is the
    poster's own page (its content stream as it is, its page as the box)."""
    from boardgen.render.board_print import poster_art

    form, box_pt, page, media_pt = _art_form_and_poster_page(printed.artifacts[1].data, printed.artifacts[0].data)
    assert form == page and box_pt == media_pt
    # another picture's poster is not taken for this board's art: the sheets draw their own
    plain = render(square_grid(24, 24, 25.4), {"light": SpaceStyle(fill="#ffffff")})
    other = poster_art(plain, BOARD_MM, BOARD_MM, COMPACT_STYLE, "Other")
    sections = print_sections(_board_scene(), BOARD_MM, BOARD_MM, "Test Board", snap_mm=25.4, poster=other)
    form, box_pt, page, _media = _art_form_and_poster_page(sections.artifacts[0].data, other.pdf)
    assert form != page
    assert box_pt[2] - box_pt[0] == pytest.approx((BOARD_MM + 2 * COMPACT_STYLE.bleed_mm + 2.0) * PT_PER_MM, abs=0.01)


def test_a_poster_smaller_than_the_pieces_clips_is_not_taken_for_their_art() -> None:
    """Pieces whose clip leaves the poster's page (a poster of a smaller board) draw the picture themselves."""
    from boardgen.render.board_print import PosterArt, poster_art, shared_art

    scene = _board_scene()
    sections = print_sections(scene, BOARD_MM, BOARD_MM, "Test Board", snap_mm=25.4)
    pages = [single_item_page(Scene(sc.items[1:]), s.bounds_mm[2] - s.bounds_mm[0], s.bounds_mm[3] - s.bounds_mm[1],
                              COMPACT_STYLE) for s, sc in zip(sections.cut.sections, sections.scenes, strict=True)]
    fits = poster_art(scene, BOARD_MM, BOARD_MM, COMPACT_STYLE, "Test Board")
    small = PosterArt(fits.pdf, fits.items, single_item_page(scene, BOARD_MM - 10.0, BOARD_MM, COMPACT_STYLE))
    taken = shared_art(sections.scenes, pages, COMPACT_STYLE.bleed_mm, fits)
    drawn = shared_art(sections.scenes, pages, COMPACT_STYLE.bleed_mm, small)
    assert taken is not None and taken.pdf is fits.pdf
    assert drawn is not None and drawn.pdf is not fits.pdf

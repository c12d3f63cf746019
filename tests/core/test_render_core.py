"""The render core: scene values, the cairo backend (PDF/SVG/PNG), imposition and zone symbols."""

from __future__ import annotations

import hashlib
import io
import struct
import subprocess

import pikepdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgen.geomap.spec import ZONE_SYMBOLS
from boardgen.render.cairo_backend import Page, render_pdf, render_png, render_svg, text_width_mm
from boardgen.render.imposition import (
    A4,
    LETTER,
    Placement,
    compose_sheet,
    content_area,
    custom_paper,
    pack_grid,
    single_item_page,
)
from boardgen.render.scene import (
    Circle,
    Font,
    Group,
    Path,
    Rect,
    RectOp,
    Scene,
    Style,
    Text,
    fill,
    layer,
    mirror_x,
    rotate,
    stroke,
    translate,
)
from boardgen.render.symbols import zone_symbol

PT = 72 / 25.4


def _item() -> Scene:
    return Scene.of(RectOp(Rect(-3, -3, 46, 36), fill("#4fa845")), Text(20, 15, "P1", Font(size_pt=12, bold=True),
                                                                       align="center", baseline="middle"))


def _sheet_pages() -> list[Page]:
    _plan, sheets = pack_grid(30, 40, 30, A4)
    return [compose_sheet(A4, [Placement(t, _item(), "card") for t in trims], "Test sheet", f"{i + 1}/{len(sheets)}")
            for i, trims in enumerate(sheets)]


def _boxes_mm(pdf_bytes: bytes) -> list[dict[str, list[float]]]:
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        return [{k: [float(v) / PT for v in page.obj[k]] for k in ("/MediaBox", "/TrimBox", "/BleedBox")}
                for page in pdf.pages]


def test_poster_boxes_to_a_tenth_of_a_millimetre() -> None:
    page = single_item_page(Scene.of(RectOp(Rect(-3, -3, 666, 446), fill("#a9d8f0"))), 660, 440)
    (boxes,) = _boxes_mm(render_pdf([page]))
    assert boxes["/MediaBox"] == pytest.approx([0, 0, 666, 446], abs=0.1)
    assert boxes["/BleedBox"] == pytest.approx([0, 0, 666, 446], abs=0.1)
    assert boxes["/TrimBox"] == pytest.approx([3, 3, 663, 443], abs=0.1)
    marked = single_item_page(Scene(), 660, 440, marks=True)
    (boxes,) = _boxes_mm(render_pdf([marked]))
    margin = (boxes["/MediaBox"][2] - 660) / 2
    assert margin > 3 + 4  # room for marks beyond the bleed
    assert boxes["/TrimBox"] == pytest.approx([margin, margin, margin + 660, margin + 440], abs=0.1)


def test_sheet_pages_have_paper_size_and_trim_inside_bleed() -> None:
    pages = _sheet_pages()
    for paper in (A4, LETTER):
        page = compose_sheet(paper, [Placement(Rect(20, 30, 40, 30), _item())], "t")
        (boxes,) = _boxes_mm(render_pdf([page]))
        assert boxes["/MediaBox"] == pytest.approx([0, 0, paper.width_mm, paper.height_mm], abs=0.1)
        # y flips: a trim at y=30 of height 30 ends 60 mm from the top
        assert boxes["/TrimBox"] == pytest.approx([20, paper.height_mm - 60, 60, paper.height_mm - 30], abs=0.1)
        assert boxes["/BleedBox"] == pytest.approx([17, paper.height_mm - 63, 63, paper.height_mm - 27], abs=0.1)
    assert len(pages) == 2  # 28 per A4 sheet


def test_rerender_is_byte_identical_and_fonts_are_embedded(tmp_path) -> None:
    first = render_pdf(_sheet_pages(), title="x")
    second = render_pdf(_sheet_pages(), title="x")
    assert hashlib.sha256(first).hexdigest() == hashlib.sha256(second).hexdigest()
    assert render_svg(_sheet_pages()[0]) == render_svg(_sheet_pages()[0])
    path = tmp_path / "s.pdf"
    path.write_bytes(first)
    out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    rows = out.splitlines()[2:]
    assert rows, "expected at least one font"
    for row in rows:
        assert "DejaVuSans" in row
        assert row.split()[-5] == "yes", row  # emb column


def test_pdf_date_is_fixed() -> None:
    with pikepdf.open(io.BytesIO(render_pdf(_sheet_pages()[:1]))) as pdf:
        assert str(pdf.docinfo["/CreationDate"]).startswith("D:20260101")


def test_svg_has_named_layers_in_mm() -> None:
    scene = Scene.of(RectOp(Rect(0, 0, 10, 10), fill("#000000")), layer("cut", [Circle(50, 50, 10, stroke("#ff0000"))]),
                     Text(5, 5, "hello"))
    svg = render_svg(Page(210, 297, scene)).decode()
    assert '<g id="cut"' in svg and '<g id="art"' in svg and '<g id="art-2"' in svg
    assert 'width="210mm"' in svg and 'height="297mm"' in svg
    assert svg.count("<svg") == 1


def test_png_size_follows_dpi() -> None:
    png = render_png(Page(210, 297, Scene()), dpi=50)
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (round(210 / 25.4 * 50), round(297 / 25.4 * 50))


def test_png_holds_exactly_the_pixels_drawn() -> None:
    """Every PNG (previews, charts, the map preview) goes through the shared encoder: it decodes to the very
    pixels cairo drew, at the page's size, with no metadata, the same bytes on every run."""
    import numpy as np
    from PIL import Image

    from boardgen.render import cairo_lib as cairo
    from boardgen.render.cairo_backend import _mm_context, _rgb_array, draw_scene

    art = Scene.of(RectOp(Rect(5, 5, 30, 20), fill("#3366cc")), Circle(40, 20, 12, stroke("#aa0000", 1.5)),
                   Text(10, 35, "Wellbeing"))
    png = render_png(Page(60, 40, art), dpi=72)
    width, height = round(60 / 25.4 * 72), round(40 / 25.4 * 72)
    surface, ctx = cairo.image_context(cairo.FORMAT_RGB24, width, height)
    _mm_context(ctx, 72 / 25.4)
    cairo.lib.cairo_set_source_rgb(ctx, 1.0, 1.0, 1.0)
    cairo.lib.cairo_paint(ctx)
    draw_scene(ctx, art)
    cairo.lib.cairo_surface_flush(surface)
    with Image.open(io.BytesIO(png)) as image:
        assert image.mode == "RGB" and image.size == (width, height) and not image.info
        assert np.array_equal(np.asarray(image), _rgb_array(surface, width, height))
    assert render_png(Page(60, 40, art), dpi=72) == png


def test_crop_marks_stay_outside_every_bleed_and_inside_the_paper() -> None:
    pages = _sheet_pages()
    for page in pages:
        bleeds = [op.transform for op in page.scene.walk() if getattr(op, "name", "") == "card"]
        assert bleeds
        marks = [op for op in page.scene.walk() if getattr(op, "name", "") == "crop-mark"]
        assert marks
        trims = [Rect(g.e, g.f, 40, 30).outset(3) for g in bleeds]
        for m in marks:
            (x0, y0), (x1, y1) = m.points
            assert min(x0, x1) > 0 and max(x0, x1) < 210 and min(y0, y1) > 0 and max(y0, y1) < 297
            seg = Rect(min(x0, x1), min(y0, y1), max(abs(x1 - x0), 1e-6), max(abs(y1 - y0), 1e-6))
            assert not any(seg.intersects(b) for b in trims)


def test_packer_keeps_items_in_the_content_area() -> None:
    for paper in (A4, LETTER, A4.landscape(), custom_paper(300, 200)):
        area = content_area(paper)
        _plan, sheets = pack_grid(50, 25, 25, paper)
        assert sum(len(s) for s in sheets) == 50
        for trims in sheets:
            for t in trims:
                assert area.contains_rect(t)
    with pytest.raises(ValueError, match="does not fit"):
        pack_grid(1, 400, 10, A4)


def test_back_pages_mirror_left_right() -> None:
    trim = Rect(20, 30, 40, 30)
    back = compose_sheet(A4, [Placement(trim, _item(), "card")], "b", back=True)
    (group,) = [op for op in back.scene.walk() if getattr(op, "name", "") == "card"]
    assert group.transform.e == pytest.approx(210 - 60)
    assert back.scene.count("registration-mark") == 1


def test_affine_helpers() -> None:
    assert mirror_x(105).apply(20, 5) == pytest.approx((190, 5))
    assert (translate(10, 0) @ rotate(90)).apply(1, 0) == pytest.approx((10, 1))


def test_text_measurement() -> None:
    assert text_width_mm("MMMM", Font(size_pt=10)) == pytest.approx(4 * text_width_mm("M", Font(size_pt=10)))
    assert text_width_mm("M", Font(size_pt=20)) == pytest.approx(2 * text_width_mm("M", Font(size_pt=10)))


@pytest.mark.parametrize("name", ZONE_SYMBOLS)
def test_every_zone_symbol_draws(name: str) -> None:
    g = zone_symbol(name, 10, 10, 8)
    assert g.items and g.name == f"symbol:{name}"
    png = render_png(Page(20, 20, Scene.of(g)), dpi=100)
    assert len(png) > 200
    with pytest.raises(ValueError, match="unknown zone symbol"):
        zone_symbol("nope", 0, 0, 1)


def test_copies_of_a_part_print_from_one_form_xobject() -> None:
    """A part placed many times is drawn once: every copy on every page paints the same form XObject (cairo's
    repeated resource names are reduced to one, so qpdf reads the page), and each copy still prints its text
    at its size."""
    from pdf_probe import marks

    art = Scene.of(RectOp(Rect(0, 0, 20, 30), fill("#cc3333")), Text(10, 15, "7", Font(size_pt=12), align="center"))
    placements = [Placement(Rect(20 + 25 * i, 40, 20, 30), art, "chip") for i in range(6)]
    data = render_pdf([compose_sheet(A4, placements, "copies"), compose_sheet(A4, placements, "copies")])
    with pikepdf.open(io.BytesIO(data)) as pdf:
        painted = []
        for pdf_page in pdf.pages:
            xobjects = pdf_page.Resources.XObject
            for operands, operator in pikepdf.parse_content_stream(pdf_page):
                if str(operator) == "Do":
                    painted.append(xobjects[operands[0]].objgen)
    assert len(painted) == 12 and len(set(painted)) == 1
    sevens = [m for m in marks(data) if m.kind == "text" and m.size_pt == pytest.approx(12.0)]
    assert len(sevens) == 12


def test_a_recorded_part_rasterises_like_the_part_drawn_in_place() -> None:
    """PNG previews paint recorded parts too: the pixels match drawing each copy in place."""
    import numpy as np
    from PIL import Image

    from boardgen.render import cairo_lib as cairo
    from boardgen.render.cairo_backend import _mm_context, draw_scene, surface_png

    art = Scene.of(RectOp(Rect(0, 0, 20, 30), fill("#3366cc")), Circle(10, 15, 6, stroke("#000000", 0.5)))
    page = compose_sheet(A4, [Placement(Rect(20 + 25 * i, 40, 20, 30), art) for i in range(4)], "copies")
    recorded = np.asarray(Image.open(io.BytesIO(render_png(page, 50))).convert("RGB"), dtype=int)
    surface, ctx = cairo.image_context(cairo.FORMAT_RGB24, recorded.shape[1], recorded.shape[0])
    _mm_context(ctx, 50 / 25.4)
    cairo.lib.cairo_set_source_rgb(ctx, 1.0, 1.0, 1.0)
    cairo.lib.cairo_paint(ctx)
    draw_scene(ctx, page.scene)
    in_place = np.asarray(Image.open(io.BytesIO(surface_png(surface, recorded.shape[1], recorded.shape[0])))
                          .convert("RGB"), dtype=int)
    assert np.abs(recorded - in_place).max() <= 8


def _copies_page(step_mm: float) -> Page:
    """One picture (shapes, a line, small text) behind four clipped copies ``step_mm`` apart, as the exploded
    preview shows the board behind each jigsaw piece."""
    picture = (RectOp(Rect(0, 0, 60, 40), fill("#cfe3f0")), Circle(22, 18, 11, Style(fill="#3366cc")),
               Path((("M", 2.0, 38.0), ("L", 58.0, 3.0)), stroke("#aa0000", 0.6)), Text(8, 34, "F10 Sahel"))
    copies = []
    for i in range(4):
        clip = (("M", 4.0 + 12 * i, 2.0), ("L", 20.0 + 12 * i, 2.0), ("L", 20.0 + 12 * i, 38.0),
                ("L", 4.0 + 12 * i, 38.0), ("Z",))
        copies.append(Group((Group(picture),), transform=translate(step_mm * i, 0.0), clip=clip))
    return Page(4 * step_mm + 70, 45, Scene(tuple(copies)))


def test_a_group_repeated_whole_pixels_apart_is_drawn_once_into_a_png(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a PNG a repeated group whose copies lie whole pixels apart is rasterised once and painted from its
    pixels: the picture the replayed recording gives but for antialiasing rounding; copies off that pixel grid
    are replayed as before."""
    import numpy as np
    from PIL import Image

    from boardgen.render import cairo_backend

    made: list[int] = []
    painted: list[bool] = []
    rastered, paint = cairo_backend._rastered, cairo_backend._paint_rastered
    monkeypatch.setattr(cairo_backend, "_rastered", lambda *a: made.append(1) or rastered(*a))
    monkeypatch.setattr(cairo_backend, "_paint_rastered", lambda p, items: painted.append(paint(p, items))
                        or painted[-1])

    def pixels(png: bytes) -> np.ndarray:
        return np.asarray(Image.open(io.BytesIO(png)), dtype=int)

    dpi = 100.0
    whole = 71 * 25.4 / dpi  # 71 pixels
    for step_mm, from_the_image in ((whole, 4), (whole + 0.13, 1)):
        made.clear()
        painted.clear()
        page = _copies_page(step_mm)
        fast = pixels(render_png(page, dpi=dpi))
        assert len(made) == 1 and painted.count(True) == from_the_image and len(painted) == 4
        with monkeypatch.context() as m:
            m.setattr(cairo_backend, "_paint_rastered", lambda p, items: False)
            replayed = pixels(render_png(page, dpi=dpi))
        difference = np.abs(fast - replayed).max(axis=2)
        if from_the_image == 4:
            assert (difference > 0).mean() < 0.01 and (difference > 24).mean() < 0.001
        else:  # only the first copy (its clip ends 20 mm from the page's left edge) came from the image
            assert not difference[:, round(21 * dpi / 25.4):].any()


def _crop_marks_one_by_one(trims: list[Rect], style, keep_in: Rect | None, keep_out: list[Rect]) -> list:
    """The definition, one mark at a time: each trim corner's two marks, unless a mark crosses a bleed (or a
    keep-out rectangle), leaves ``keep_in``, or repeats one already drawn (to 1/1000 mm)."""
    bleeds = [t.outset(style.bleed_mm) for t in trims] + keep_out
    o, n = style.mark_offset_mm, style.mark_length_mm
    seen: set[tuple[float, ...]] = set()
    kept = []
    for trim in trims:
        for cx, cy in trim.corners():
            sx = -1.0 if cx == trim.x else 1.0
            sy = -1.0 if cy == trim.y else 1.0
            for x0, y0, x1, y1 in ((cx + sx * o, cy, cx + sx * (o + n), cy), (cx, cy + sy * o, cx, cy + sy * (o + n))):
                key = tuple(round(v, 3) for v in (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
                box = Rect(key[0], key[1], max(key[2] - key[0], 1e-6), max(key[3] - key[1], 1e-6))
                if key in seen or any(box.intersects(b) for b in bleeds):
                    continue
                if keep_in is not None and not keep_in.contains_rect(box, tol=1e-6):
                    continue
                seen.add(key)
                kept.append(((x0, y0), (x1, y1)))
    return kept


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12), st.integers(2, 9), st.integers(2, 9)),
                min_size=1, max_size=12),
       st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40), st.integers(1, 20), st.integers(1, 20)),
                max_size=2),
       st.booleans())
def test_crop_marks_are_the_marks_taken_one_by_one(cells, others, bounded) -> None:
    from boardgen.render.imposition import DEFAULT_STYLE, crop_marks

    trims = [Rect(10 + 7.5 * c, 10 + 7.5 * r, 0.7 * w, 0.7 * h) for c, r, w, h in cells]
    keep_out = [Rect(float(x), float(y), float(w), float(h)) for x, y, w, h in others]
    keep_in = Rect(4.0, 4.0, 100.0, 100.0) if bounded else None
    drawn = [op.points for op in crop_marks(trims, DEFAULT_STYLE, keep_in, keep_out).items]
    assert drawn == _crop_marks_one_by_one(trims, DEFAULT_STYLE, keep_in, keep_out)


def test_pdf_and_svg_are_written_without_cairocffi() -> None:
    """PDFs and SVGs go through the pre-parsed binding (render/cairo_lib.py): cairocffi, whose import parses all
    of cairo's declarations and searches for the library with ldconfig and gcc (0.15 s), is never imported."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from boardgen.render.cairo_backend import Page, render_pdf, render_svg\n"
            "from boardgen.render.scene import Rect, RectOp, Scene, fill\n"
            "page = Page(50, 40, Scene((RectOp(Rect(5, 5, 20, 10), fill('#336699')),)))\n"
            "pdf, svg = render_pdf([page]), render_svg(page)\n"
            "print(pdf[:5] == b'%PDF-', svg.startswith(b'<?xml'), 'cairocffi' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True", "False"]


def test_repeated_art_is_art_placed_twice_at_any_depth_but_never_an_empty_group() -> None:
    from boardgen.render.cairo_backend import repeated_art
    from boardgen.render.scene import Group

    art = (RectOp(Rect(0, 0, 5, 5), fill("#123456")),)
    once = (Circle(1, 1, 1, fill("#000000")),)
    nested = Group((Group(art, transform=translate(1, 1)),), name="holder")
    page = Page(50, 50, Scene((Group(art), nested, Group(once), Group(()), Group(()))))
    assert repeated_art([page]) == frozenset({id(art)})

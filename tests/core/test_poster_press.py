"""Print shop: the poster is a CMYK PDF/X-4 file with a FOGRA39 OutputIntent, and its black text and
thin lines use black ink only."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pytest
from PIL import ImageCms

from boardgen.render.cairo_backend import Page, render_pdf
from boardgen.render.press import PROFILE_PATH, CmykConverter, PressError, to_pdfx4
from boardgen.render.scene import Font, Rect, RectOp, Scene, Style, Text

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def poster(board_outputs) -> pikepdf.Pdf:
    return pikepdf.open(io.BytesIO(board_outputs["board-poster.pdf"]))


def _ops(pdf: pikepdf.Pdf):
    """(operator, operands, fill colour, stroke colour, line width, inside text) for every operator."""
    fill, stroke, width, in_text = None, None, 1.0, False
    stack = []
    for operands, op in pikepdf.parse_content_stream(pdf.pages[0]):
        name = str(op)
        if name == "q":
            stack.append((fill, stroke, width))
        elif name == "Q":
            fill, stroke, width = stack.pop()
        elif name == "k":
            fill = tuple(float(v) for v in operands)
        elif name == "K":
            stroke = tuple(float(v) for v in operands)
        elif name == "w":
            width = float(operands[0])
        elif name == "BT":
            in_text = True
        elif name == "ET":
            in_text = False
        yield name, operands, fill, stroke, width, in_text


def test_poster_is_pdfx4_with_a_fogra39_output_intent(poster) -> None:
    assert poster.pdf_version >= "1.6"
    assert str(poster.docinfo["/GTS_PDFXVersion"]) == "PDF/X-4"
    assert poster.docinfo["/Trapped"] == pikepdf.Name("/False")
    xmp = poster.Root.Metadata.read_bytes().decode()
    assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp
    (intent,) = list(poster.Root.OutputIntents)
    assert intent.S == pikepdf.Name.GTS_PDFX
    assert str(intent.OutputConditionIdentifier) == "FOGRA39"
    profile = intent.DestOutputProfile
    assert int(profile.N) == 4
    data = profile.read_bytes()
    assert data == PROFILE_PATH.read_bytes()
    icc = ImageCms.ImageCmsProfile(io.BytesIO(data))
    assert icc.profile.xcolor_space.strip() == "CMYK" and icc.profile.device_class == "prtr"
    page = poster.pages[0]
    for key in ("/TrimBox", "/BleedBox", "/MediaBox"):
        assert key in page.obj


def test_poster_uses_cmyk_only(poster) -> None:
    names = [name for name, *_ in _ops(poster)]
    assert not {"rg", "RG", "g", "G", "cs", "CS", "sc", "scn", "sh"} & set(names)
    assert names.count("k") > 100
    assert "/XObject" not in poster.pages[0].Resources or not any(
        x.get("/Subtype") == pikepdf.Name.Image for x in poster.pages[0].Resources.XObject.values())


def test_poster_label_text_and_thin_lines_are_black_ink_only(poster) -> None:
    texts = [(fill, operands) for name, operands, fill, _s, _w, in_text in _ops(poster)
             if in_text and name in ("Tj", "TJ")]
    assert len(texts) > 200
    dark = [f for f, _ in texts if f is not None and f[3] > 0.8]
    assert len(dark) > 150  # the table, key, title and cell labels
    assert all(f == (0.0, 0.0, 0.0, 1.0) for f in dark), {f for f in dark}
    # no text anywhere in four-colour black (dark K with all three colour inks under it)
    assert not [f for f, _ in texts if f is not None and f[3] > 0.5 and min(f[:3]) >= 0.2]
    thin = [(s, w) for name, _o, _f, s, w, _t in _ops(poster) if name in ("S", "s", "B", "b") and w < 0.75]
    assert thin
    black = [(s, w) for s, w in thin if s is not None and s[3] > 0.9]
    assert black and all(s == (0.0, 0.0, 0.0, 1.0) for s, _ in black)  # the grid and rules: K only
    rich = [(s, w) for s, w in thin if s is not None and s[3] > 0.5 and min(s[:3]) >= 0.2]
    assert not rich, rich[:3]


def test_conversion_is_colour_managed() -> None:
    conv = CmykConverter()
    assert conv.rgb(0, 0, 0) == (0.0, 0.0, 0.0, 1.0)
    assert conv.rgb(0.102, 0.102, 0.102) == (0.0, 0.0, 0.0, 1.0)  # the kit's ink black #1a1a1a
    assert conv.rgb(1, 1, 1) == (0.0, 0.0, 0.0, 0.0)
    c, m, y, k = conv.rgb(0.5, 0.5, 0.5)
    assert (c, m, y) == (0, 0, 0) and 0.4 < k < 0.75  # mid grey in K only, matched in L*
    c, m, y, k = conv.rgb(0.0, 0.0, 1.0)  # sRGB blue is out of gamut: lots of cyan and magenta, no yellow
    assert c > 0.8 and m > 0.6 and y < 0.1
    c, m, y, k = conv.rgb(1.0, 1.0, 0.0)
    assert y > 0.8 and c < 0.15 and m < 0.15


def test_to_pdfx4_refuses_what_it_cannot_convert() -> None:
    page = Page(50, 50, Scene((RectOp(Rect(5, 5, 10, 10), Style(fill="#ff0000")),
                               Text(5, 30, "x", Font(size_pt=8)))), trim_box_mm=Rect(0, 0, 50, 50))
    converted = pikepdf.open(io.BytesIO(to_pdfx4(render_pdf([page]), "t")))
    assert "OutputIntents" in str(converted.Root.keys())
    with pikepdf.open(io.BytesIO(render_pdf([page]))) as pdf:
        pdf.pages[0].Resources.Shading = pikepdf.Dictionary(Sh0=pikepdf.Dictionary(ShadingType=2))
        out = io.BytesIO()
        pdf.save(out)
    with pytest.raises(PressError):
        to_pdfx4(out.getvalue(), "t")


def test_profile_provenance_is_documented() -> None:
    doc = (REPO / "docs" / "print-shop.md").read_text()
    assert "FOGRA39L-boardgen.icc" in doc and "CC0" in doc and "colprof" in doc
    assert PROFILE_PATH.name in doc


def test_the_info_dictionary_and_the_xmp_name_the_same_producer(board_outputs) -> None:
    """PDF/X preflights compare the document information with the XMP metadata."""
    import io
    import re

    import pikepdf

    with pikepdf.open(io.BytesIO(board_outputs["board-poster.pdf"])) as pdf:
        xmp = pdf.Root.Metadata.read_bytes().decode()
        producer = re.search(r"<pdf:Producer>(.*?)</pdf:Producer>", xmp)
        assert producer is not None and str(pdf.docinfo["/Producer"]) == producer.group(1)
        assert str(pdf.docinfo["/Title"]) in xmp

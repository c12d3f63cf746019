"""What ends up on paper: font subsets each with their own tag, no stroke under 0.25 pt in any printed
PDF (the leaflet too), no text a player reads during play under 6 pt (read from the PDFs themselves)."""

from __future__ import annotations

import hashlib
import io
import re

import pikepdf
import pytest
from pdf_probe import marks

HAIRLINE_PT = 0.25
PLAY_TEXT_PT = 6.0


def _pdfs(board_outputs, components_outputs) -> dict[str, bytes]:
    files = {**board_outputs, **components_outputs}
    return {k: v for k, v in files.items() if k.endswith(".pdf")}


def _program(font: pikepdf.Dictionary) -> bytes:
    descriptor = font.get("/FontDescriptor")
    if descriptor is None and "/DescendantFonts" in font:
        descriptor = font.DescendantFonts[0].FontDescriptor
    key = next(k for k in ("/FontFile2", "/FontFile", "/FontFile3") if k in descriptor)
    return hashlib.sha256(descriptor[key].read_bytes()).digest()


def test_every_subset_has_its_own_tag(board_outputs, components_outputs) -> None:
    """Two different subsets never share a name (the leaflet's were once all AAAAAA+); the same subset
    copied into a PDF twice may keep its one name."""
    seen = 0
    for name, data in _pdfs(board_outputs, components_outputs).items():
        with pikepdf.open(io.BytesIO(data)) as pdf:
            programs: dict[str, set[bytes]] = {}
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == pikepdf.Name.Font \
                        and obj.get("/Subtype") != pikepdf.Name.CIDFontType2:
                    base = str(obj.BaseFont)
                    assert re.match(r"/[A-Z]{6}\+", base) and not base.startswith("/AAAAAA+"), (name, base)
                    programs.setdefault(base, set()).add(_program(obj))
                    seen += 1
            shared = {base: len(p) for base, p in programs.items() if len(p) > 1}
            assert not shared, (name, shared)
    assert seen > 20


def test_nothing_printed_thinner_than_a_quarter_point(board_outputs, components_outputs) -> None:
    checked = 0
    for name, data in _pdfs(board_outputs, components_outputs).items():
        strokes = [m for m in marks(data) if m.kind == "stroke"]
        thinnest = min(strokes, key=lambda m: m.size_pt)
        assert thinnest.size_pt >= HAIRLINE_PT - 1e-3, (name, thinnest)
        checked += len(strokes)
    assert checked > 10_000


@pytest.mark.parametrize("name", ["board-poster.pdf", "board-poster-rgb.pdf", "board-sections-a4.pdf",
                                  "board-sections-letter.pdf"])
def test_board_text_is_at_least_6_pt(board_outputs, name) -> None:
    """Everything on the board itself (inside the TrimBox) is read at the table: cell labels, the table's zone
    names and values, the key, the in-piece numbers."""
    data = board_outputs[name]
    texts = [m for m in marks(data) if m.kind == "text" and m.inside_trim]
    assert len(texts) > 150
    smallest = min(texts, key=lambda m: m.size_pt)
    assert smallest.size_pt >= PLAY_TEXT_PT - 0.01, smallest


@pytest.mark.parametrize("name", ["components-a4.pdf", "components-letter.pdf"])
def test_component_text_is_at_least_6_pt(components_outputs, name) -> None:
    """Chips, badges, standees, tokens, markers, the table card and the turn counter (inside the parts' TrimBox:
    sheet titles, page labels and the ruler's numbers outside it are printing aids, not play)."""
    texts = [m for m in marks(components_outputs[name]) if m.kind == "text" and m.inside_trim]
    assert len(texts) > 1000
    small = sorted({(round(m.size_pt, 2), m.text[:30]) for m in texts if m.size_pt < PLAY_TEXT_PT - 0.01})
    assert not small, small[:10]

"""A font's characters read from its cmap alone (``render.font_chars``) are exactly the keys of reportlab's full
reading, for every TrueType font installed; the glyph check of drawn pages reads them so."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfbase.ttfonts import TTFontFile

from boardgen.render.font_chars import font_characters
from boardgen.render.typeset import FALLBACK_FAMILY, font_codepoints, font_file

FONTS = sorted(str(p) for p in Path("/usr/share/fonts").rglob("*") if p.suffix.lower() in (".ttf", ".ttc", ".otf"))


def _reportlab(path: str) -> frozenset[int] | str:
    try:
        return frozenset(TTFontFile(path).charToGlyph)
    except Exception as exc:  # what reportlab refuses
        return type(exc).__name__


@pytest.mark.skipif(not FONTS, reason="no fonts installed")
def test_every_installed_font_gives_reportlabs_characters() -> None:
    read = 0
    for path in FONTS:
        expected = _reportlab(path)
        try:
            found = font_characters(path)
        except Exception:  # refused here: reportlab refuses it too
            assert isinstance(expected, str), path
            continue
        if isinstance(expected, str):  # refused by reportlab: left to it
            assert found is None, path
            continue
        if found is not None:
            assert found == expected, path
            read += 1
    assert read > 0


def test_the_main_and_fallback_fonts_are_read_from_their_cmaps() -> None:
    """DejaVu Sans and the fallback font, which the glyph check reads, are read from their cmaps."""
    for pattern in ("DejaVu Sans", "DejaVu Sans:bold", FALLBACK_FAMILY):
        path = font_file(pattern)
        if not path.endswith(".ttf"):
            pytest.skip(f"{pattern} not installed")
        found = font_characters(path)
        assert found is not None and found == _reportlab(path) == font_codepoints(pattern)
        assert 0x20 in found and 0xA0 in found

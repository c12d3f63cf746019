"""The characters a TrueType font maps to glyphs, read from its cmap table alone: the keys of reportlab's
``TTFontFile(path).charToGlyph``, without reportlab's pass over every character's width and every glyph's
place (about 8 ms a DejaVu face, 55 ms for Droid Sans Fallback; this takes well under 1 ms).

reportlab still reads the font's header tables (``TTFontFile(path, charInfo=0)``), so a font it refuses is
refused here too. The cmap subtable is the one reportlab picks, and its keys are reportlab's: every code of
every segment (also those it maps to glyph 0), with U+00A0 standing for the space (or the other way round). A
subtable format other than 4 or 12, or a table that does not lie wholly inside the file, is left to reportlab's
own reading (``None``).
"""

from __future__ import annotations

import struct

import numpy as np
from reportlab.pdfbase.ttfonts import TTFontFile


def _span(data: bytes, offset: int, size: int) -> bytes | None:
    """``size`` bytes at ``offset``, or None when the file is shorter (where reportlab would fail)."""
    return data[offset:offset + size] if offset >= 0 and offset + size <= len(data) else None


def _ranges(starts: np.ndarray, ends: np.ndarray) -> set[int]:
    out: set[int] = set()
    for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
        out.update(range(start, end + 1))
    return out


def _subtable(font: TTFontFile, data: bytes) -> int | None:
    """The file offset of the cmap subtable reportlab reads, or None when it finds none."""
    cmap = font.seek_table("cmap")
    head = _span(data, cmap, 4)
    if head is None:
        return None
    version, count = struct.unpack(">HH", head)
    if count == 0 and version != 0:  # (reportlab's allowance for a swapped header)
        count = version
    records = _span(data, cmap + 4, 8 * count)
    if records is None:
        return None
    chosen, kind = None, 0
    for platform, encoding, offset in struct.iter_unpack(">HHL", records):
        if platform == 3:
            kind, chosen = 1, offset
        elif platform == 1 and encoding == 0 and kind != 1:
            kind, chosen = 2, offset
        elif (platform == 1 and encoding == 1) or (platform == 0 and encoding != 5):
            kind, chosen = 1, offset
    return None if chosen is None else cmap + chosen


def _format4(data: bytes, at: int) -> set[int] | None:
    header = _span(data, at, 8)
    if header is None:
        return None
    _fmt, length, _lang, seg_x2 = struct.unpack(">HHHH", header)
    segments = int(seg_x2 / 2.0)
    ends_at = at + 14
    starts_at = ends_at + 2 * segments + 2
    ranges_at = starts_at + 4 * segments  # (idDelta between)
    if _span(data, ranges_at, 2 * segments) is None or at + length + 1 > len(data):
        return None  # reportlab would read past the file (a glyph index near the subtable's end)
    ends = np.frombuffer(data, ">u2", segments, ends_at)
    starts = np.frombuffer(data, ">u2", segments, starts_at)
    return _ranges(starts, ends)


def _format12(data: bytes, at: int) -> set[int] | None:
    header = _span(data, at, 16)
    if header is None:
        return None
    groups = struct.unpack(">L", header[12:16])[0]
    table = _span(data, at + 16, 12 * groups)
    if table is None:
        return None
    rows = np.frombuffer(table, ">u4").reshape(groups, 3)
    return _ranges(rows[:, 0].astype(np.int64), rows[:, 1].astype(np.int64))


def font_characters(path: str) -> frozenset[int] | None:
    """The codes ``TTFontFile(path).charToGlyph`` holds, read from the cmap alone; None where only reportlab's
    full reading can say (another subtable format, a table running past the file). Raises what reportlab
    raises for a font it refuses."""
    font = TTFontFile(path, charInfo=0)
    data = bytes(font._ttf_data)
    formats = _span(data, font.seek_table("head") + 50, 4)
    hhea = _span(data, font.seek_table("hhea") + 34, 2)
    if formats is None or hhea is None or "hmtx" not in font.table or "loca" not in font.table:
        return None
    location_format, glyph_format = struct.unpack(">HH", formats)
    if glyph_format != 0 or location_format not in (0, 1):
        return None  # reportlab's reading stops on these: let it say so
    metrics_count = struct.unpack(">H", hhea)[0]
    glyphs = font.numGlyphs
    if (_span(data, font.seek_table("hmtx"), 4 * metrics_count + 2 * max(0, glyphs - metrics_count)) is None
            or _span(data, font.seek_table("loca"), (glyphs + 1) * (2 if location_format == 0 else 4)) is None):
        return None
    at = _subtable(font, data)
    if at is None:
        return None
    fmt = _span(data, at, 2)
    kind = None if fmt is None else struct.unpack(">H", fmt)[0]
    codes = _format4(data, at) if kind == 4 else _format12(data, at) if kind == 12 else None
    if codes is None:
        return None
    if 0x20 in codes:
        codes.add(0xA0)
    elif 0xA0 in codes:
        codes.add(0x20)
    return frozenset(codes)

"""Typesetting shared by every game's leaflet (reportlab): the embedded DejaVu Sans family and the page order
of a folded booklet."""

from __future__ import annotations

import html
import re
import subprocess
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from boardgen.errors import DataError

FONT = "DejaVuSans"
_FACES = {"": "DejaVu Sans", "-Bold": "DejaVu Sans:bold", "-Oblique": "DejaVu Sans:oblique",
          "-BoldOblique": "DejaVu Sans:bold:oblique"}
_FALLBACK_DIR = Path("/usr/share/fonts/truetype/dejavu")


@lru_cache(maxsize=1)
def _fontconfig() -> tuple[Any, Any] | None:
    """(ffi, library) of fontconfig (cairo's own font library, already loaded; declared with cairo's functions,
    pre-parsed), or None if it cannot be found."""
    from boardgen.render import cairo_lib

    library = cairo_lib.fontconfig()
    return None if library is None else (cairo_lib.ffi, library)


def font_file(pattern: str) -> str:
    """The file fontconfig matches to ``pattern`` (what ``fc-match -f %{file} PATTERN`` prints), or ""."""
    fc = _fontconfig()
    if fc is None:  # pragma: no cover - fontconfig is cairo's dependency: only without it
        try:
            return subprocess.run(["fc-match", "-f", "%{file}", pattern], capture_output=True, text=True,
                                  check=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    ffi, lib = fc
    match = _font_match(pattern)
    if match is None:
        return ""
    try:
        file = ffi.new("unsigned char **")
        if lib.FcPatternGetString(match, b"file", 0, file) != lib.FcResultMatch:
            return ""
        return ffi.string(ffi.cast("char *", file[0])).decode()
    finally:
        lib.FcPatternDestroy(match)


def _font_match(pattern: str) -> Any:
    """fontconfig's best match for ``pattern`` (an ``FcPattern *`` the caller destroys), or None."""
    fc = _fontconfig()
    assert fc is not None
    ffi, lib = fc
    query = lib.FcNameParse(pattern.encode())
    if query == ffi.NULL:
        return None
    try:
        lib.FcConfigSubstitute(ffi.NULL, query, lib.FcMatchPattern)
        lib.FcDefaultSubstitute(query)
        result = ffi.new("FcResult *")
        match = lib.FcFontMatch(ffi.NULL, query, result)
    finally:
        lib.FcPatternDestroy(query)
    return None if match == ffi.NULL else match


FALLBACK_FAMILY = "Droid Sans Fallback"
"""The font that prints what the main font has no glyph for: Chinese, Japanese (Debian's fonts-droid-fallback,
TrueType outlines, so reportlab can embed and subset it as it does DejaVu; Noto CJK's CFF outlines it cannot)."""
FALLBACK_FONT = "DroidSansFallback"
_FALLBACK_SUBSET = 1_000_000
"""Subset numbers from here on are the fallback font's (``CheckedTTFont.splitString``)."""


@lru_cache(maxsize=1)
def fallback_file() -> str:
    """The fallback font's file, or "" when it is not installed (fontconfig would match another font)."""
    path = font_file(FALLBACK_FAMILY)
    return path if Path(path).name.startswith("DroidSansFallback") else ""


def font_runs(text: str, covered: Callable[[int], bool], fallback: Callable[[int], bool]) -> list[tuple[str, bool]]:
    """``text`` cut into runs (run, set in the fallback font?): a character the main font lacks and the fallback
    has goes to the fallback; everything else stays in the main font (where a missing glyph is then an error)."""
    runs: list[tuple[str, bool]] = []
    for ch in text:
        code = ord(ch)
        alt = not covered(code) and ch not in " \n\r\t\u00a0" and fallback(code)
        if runs and runs[-1][1] == alt:
            runs[-1] = (runs[-1][0] + ch, alt)
        else:
            runs.append((ch, alt))
    return runs


@lru_cache(maxsize=1)
def fallback_font() -> TTFont | None:
    """The fallback font (``FALLBACK_FAMILY``) read and registered with reportlab, or None when it is not
    installed. Read the first time a text has a character the main font lacks: it is a large file (4 MB, some
    60 ms to read) that most editions never print from."""
    path = fallback_file()
    if not path:
        return None
    font = TTFont(FALLBACK_FONT, path)
    pdfmetrics.registerFont(font)
    return font


def _in_fallback(code: int) -> bool:
    font = fallback_font()
    return font is not None and code in font.face.charToGlyph


WIDTHS_KEPT = 100_000
"""How many measured (text, size) widths a font keeps before it forgets them all (a long-running server)."""


class CheckedTTFont(TTFont):  # type: ignore[misc]
    """A TrueType font that prints what it has no glyph for in the fallback font (``FALLBACK_FAMILY``, embedded
    and subset like it) and refuses a character neither has (reportlab would print glyph 0, an empty box): a
    one-line DataError naming the text instead. Every leaflet's text passes through here.

    It keeps the width of every (text, size) it has measured: a leaflet's fit sets the same words at the same
    size several times (each size tried, each paper), and reportlab measures every word of a paragraph each
    time it wraps it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._widths: dict[tuple[str, float], float] = {}

    @property
    def fallback(self) -> TTFont | None:
        """The fallback font (read on first use: ``fallback_font``)."""
        return fallback_font()

    def _runs(self, text: str) -> list[tuple[str, bool]]:
        cmap = self.face.charToGlyph
        if text.isascii():
            return [(text, False)]
        return font_runs(text, cmap.__contains__, _in_fallback)

    def splitString(self, text: str | bytes, doc: Any, encoding: str = "utf-8") -> Any:  # noqa: N802 - reportlab's
        if isinstance(text, bytes):
            text = text.decode(encoding)
        cmap = self.face.charToGlyph
        runs = self._runs(text)
        missing = [ch for run, alt in runs if not alt for ch in dict.fromkeys(run)
                   if ord(ch) not in cmap and ch not in "\n\r\t"]
        if missing:
            shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing[:5])
            raise DataError(f"the font {self.fontName} has no glyph for {shown} in the text {text[:60]!r}; "
                            "use characters the font has")
        if len(runs) == 1 and not runs[0][1]:
            return super().splitString(text, doc, encoding)
        out: list[tuple[int, bytes]] = []
        for run, alt in runs:
            if alt:
                assert self.fallback is not None
                out += [(_FALLBACK_SUBSET + n, chars) for n, chars in self.fallback.splitString(run, doc, encoding)]
            else:
                out += super().splitString(run, doc, encoding)
        return out

    def getSubsetInternalName(self, subset: int, doc: Any) -> str:  # noqa: N802 - reportlab's
        if subset >= _FALLBACK_SUBSET and self.fallback is not None:
            return str(self.fallback.getSubsetInternalName(subset - _FALLBACK_SUBSET, doc))
        return str(super().getSubsetInternalName(subset, doc))

    def stringWidth(self, text: str | bytes, size: float, encoding: str = "utf8") -> float:  # noqa: N802
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        key = (text, size)
        width = self._widths.get(key)
        if width is None:
            if len(self._widths) >= WIDTHS_KEPT:
                self._widths.clear()
            width = self._widths[key] = self._measured(text, size, encoding)
        return width

    def _measured(self, text: str, size: float, encoding: str) -> float:
        runs = self._runs(text)
        if len(runs) == 1 and not runs[0][1]:
            return float(super().stringWidth(text, size, encoding))
        assert self.fallback is not None
        width = 0.0
        for run, alt in runs:
            width += float(self.fallback.stringWidth(run, size, encoding) if alt
                           else TTFont.stringWidth(self, run, size, encoding))
        return width


@lru_cache(maxsize=1)
def register_fonts() -> str:
    """Register DejaVu Sans (4 faces) with reportlab from fontconfig's files; returns the family name. The
    fallback font is read when a text first needs it (``fallback_font``)."""
    paths: dict[str, str] = {}
    for suffix, pattern in _FACES.items():
        path = font_file(pattern)
        if not path.endswith(".ttf") or "DejaVuSans" not in Path(path).name:
            candidate = _FALLBACK_DIR / f"DejaVuSans{suffix}.ttf"
            path = str(candidate) if candidate.is_file() else ""
        if not path:
            raise DataError(f"font DejaVu Sans{suffix} not found (install fonts-dejavu-core)")
        paths[suffix] = path
    for suffix, path in paths.items():
        pdfmetrics.registerFont(CheckedTTFont(FONT + suffix, path))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT + "-Bold", italic=FONT + "-Oblique",
                                  boldItalic=FONT + "-BoldOblique")
    return FONT


def booklet_order(pages: int) -> list[tuple[int, int]]:
    """(left, right) booklet pages of each printed side, sheet by sheet, outside first; ``pages`` a multiple
    of 4. Four pages: [(4, 1), (2, 3)]; eight: [(8, 1), (2, 7), (6, 3), (4, 5)]."""
    sides = []
    for s in range(pages // 4):
        outer_left, outer_right = pages - 2 * s, 1 + 2 * s
        sides.append((outer_left, outer_right))
        sides.append((outer_right + 1, outer_left - 1))
    return sides


def finished_leaflet(data: bytes) -> bytes:
    """A leaflet PDF as every game ships it: each font subset under a tag of its own (reportlab tags the first
    subset of every font ``AAAAAA+``) and every page's TrimBox and BleedBox set (the whole sheet: a leaflet is
    printed to the paper's size, with no bleed), written with the same bytes on every run."""
    import io

    import pikepdf

    from boardgen.render.pdf_fonts import retag_subsets

    with pikepdf.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            media = page.obj.MediaBox
            if "/TrimBox" not in page.obj:
                page.obj.TrimBox = media
            if "/BleedBox" not in page.obj:
                page.obj.BleedBox = page.obj.TrimBox
        retag_subsets(pdf)
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, compress_streams=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return out.getvalue()


MIN_TEXT_PT = 6.0
"""No printed word is smaller than this (the print checks hold every part to it)."""

_MARKUP = re.compile(r"<[^>]*>")


_LINE_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)


def plain_text(markup: str) -> str:
    """A reportlab paragraph's printed characters: line breaks (``<br/>``) kept as new lines, the other tags
    dropped, character entities (``&amp;``, ``&rarr;``, ``&#8594;``) resolved."""
    return html.unescape(_MARKUP.sub("", _LINE_BREAK.sub("\n", markup)))


def missing_glyphs(text: str, font_name: str) -> list[str]:
    """The characters of ``text`` the registered TrueType font ``font_name`` (with its fallback font, if it has
    one) has no glyph for (in order, once each; spaces and line breaks never count)."""
    font = pdfmetrics.getFont(font_name)
    cmap: dict[int, Any] = getattr(font.face, "charToGlyph", {})
    out: list[str] = []
    for ch in plain_text(text):
        if ch in "\n\r\t" or ord(ch) in cmap or ch in out:
            continue
        fallback = getattr(font, "fallback", None)  # read only when the main font lacks a character
        if fallback is None or ord(ch) not in fallback.face.charToGlyph:
            out.append(ch)
    return out


def check_glyphs(texts: Iterable[str], font_name: str, where: str) -> None:
    """Every character of ``texts`` is in ``font_name``; else a one-line DataError naming the text, the
    characters and ``where`` they print (a missing glyph would print as an empty box)."""
    for text in texts:
        missing = missing_glyphs(text, font_name)
        if missing:
            shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing[:5])
            raise DataError(f"{where}: the font {font_name} has no glyph for {shown} in the text "
                            f"{plain_text(text)[:60]!r}; use characters the font has")


class FitError(DataError):
    """Printed text that does not fit its place even at the smallest size allowed."""


def fitted_column_widths(rows: Sequence[Sequence[str]], widths: Sequence[float], row_fonts: Sequence[str],
                         size_pt: float, padding_pt: float, where: str, *, by_word: bool = False,
                         first_column_font: str | None = None) -> list[float]:
    """``widths`` if every cell's text (row i set in ``row_fonts[i]``, the last font for the rows after; the
    first column in ``first_column_font`` if given) fits its column; else the same total shared out so that
    each column is as wide as its widest cell and the rest is spread in proportion. ``by_word``: cells wrap
    (paragraphs), so only their longest word must fit. A table whose words need more than the total is a
    FitError naming ``where``."""
    fonts = [row_fonts[min(i, len(row_fonts) - 1)] for i in range(len(rows))]

    def width(text: str, font: str) -> float:
        pieces = plain_text(text).split() if by_word else [text]
        return max((pdfmetrics.stringWidth(p, font, size_pt) for p in pieces), default=0.0)

    need = [max(width(str(row[i]), first_column_font if (i == 0 and first_column_font and r) else font)
                for r, (row, font) in enumerate(zip(rows, fonts, strict=True)))
            + padding_pt for i in range(len(widths))]
    if all(n <= w for n, w in zip(need, widths, strict=True)):
        return list(widths)
    total = sum(widths)
    if sum(need) > total:
        raise FitError(f"{where}: the table's words need {sum(need):.0f} pt, its panel is {total:.0f} pt wide "
                       f"at {size_pt:g} pt; use shorter words")
    slack = total - sum(need)
    return [n + slack * w / total for n, w in zip(need, widths, strict=True)]


@lru_cache(maxsize=16)
def font_codepoints(pattern: str) -> frozenset[int]:
    """The characters the font fontconfig matches to ``pattern`` has glyphs for: its charset, which fontconfig
    keeps in its cache (the same characters as the font file's cmap, but for those mapped to the empty glyph 0:
    read in 2 ms where parsing the file took 12 ms, 60 ms for the fallback font). Where fontconfig cannot be
    loaded, the file ``fc-match`` names is read with reportlab. Empty when no font is found (then nothing can
    be checked)."""
    fc = _fontconfig()
    if fc is None:  # pragma: no cover - fontconfig is cairo's dependency: only without it
        return _cmap_codepoints(font_file(pattern))
    ffi, lib = fc
    match = _font_match(pattern)
    if match is None:
        return frozenset()
    try:
        charset = ffi.new("FcCharSet **")
        if lib.FcPatternGetCharSet(match, b"charset", 0, charset) != lib.FcResultMatch:
            return frozenset()
        words = ffi.new("FcChar32[8]")  # a page: 256 characters from its base, one bit each
        following = ffi.new("FcChar32 *")
        bases: list[int] = []
        pages: list[list[int]] = []
        base = lib.FcCharSetFirstPage(charset[0], words, following)
        while base != _FC_CHARSET_DONE:
            bases.append(base)
            pages.append(list(words))
            base = lib.FcCharSetNextPage(charset[0], words, following)
    finally:
        lib.FcPatternDestroy(match)
    if not bases:
        return frozenset()
    bits = (np.array(pages, dtype=np.uint32)[:, :, None] >> np.arange(32, dtype=np.uint32)) & 1  # word, bit
    page, offset = np.nonzero(bits.reshape(len(bases), 256))  # offset = word * 32 + bit
    return frozenset((np.array(bases, dtype=np.int64)[page] + offset).tolist())


def _cmap_codepoints(path: str) -> frozenset[int]:  # pragma: no cover - only without fontconfig's library
    """The characters a TrueType file maps to glyphs, read by reportlab (empty for another kind of file)."""
    from reportlab.pdfbase.ttfonts import TTFontFile

    if not path.lower().endswith((".ttf", ".otf")):
        return frozenset()
    try:
        return frozenset(TTFontFile(path).charToGlyph)
    except Exception:  # a font reportlab cannot parse (CFF outlines, collections): left unchecked
        return frozenset()


_FC_CHARSET_DONE = 0xFFFFFFFF
"""What ``FcCharSetNextPage`` returns after the last page (fontconfig's FC_CHARSET_DONE)."""


def scene_font_pattern(family: str, bold: bool, italic: bool) -> str:
    """The fontconfig pattern cairo's toy font API asks for a scene's ``Font``."""
    return family + (":bold" if bold else "") + (":italic" if italic else "")


def preload_fonts() -> None:
    """Read ahead of use the characters of the four faces a scene's default ``Font`` draws with, which every
    PDF's check reads (``font_codepoints``: fontconfig's first match loads its configuration, about 10 ms). A
    parallel build's worker that forks before the board is made does this while it waits
    (``build._warm_up_worker``). Reportlab's faces (``register_fonts``, 0.05 s) are read by the process whose
    stage sets a leaflet, when it does: a worker that reads them ahead would mostly read them for nothing."""
    from boardgen.render.scene import Font

    for bold in (False, True):
        for italic in (False, True):
            font_codepoints(scene_font_pattern(Font().family, bold, italic))


def check_scene_glyphs(texts: Iterable[tuple[str, str, bool, bool]], where: str) -> None:
    """Every character of each (text, family, bold, italic) is in the font cairo draws it with; else a
    one-line DataError naming the text and ``where`` (cairo would print an empty box)."""
    seen: set[tuple[str, str, bool, bool]] = set()
    for item in texts:
        if item in seen:
            continue
        seen.add(item)
        text, family, bold, italic = item
        codepoints = font_codepoints(scene_font_pattern(family, bold, italic))
        if not codepoints:
            continue
        missing = [ch for ch in dict.fromkeys(text) if ch not in " \n\r\t" and ord(ch) not in codepoints]
        if missing:  # only then read the fallback font's characters
            alt = font_codepoints(FALLBACK_FAMILY) if fallback_file() else frozenset()
            missing = [ch for ch in missing if ord(ch) not in alt]
        if missing:
            shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing[:5])
            raise DataError(f"{where}: the font {family} has no glyph for {shown} in the text {text[:60]!r}; "
                            "use characters the font has")

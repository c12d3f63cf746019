"""Decks of cards from data rows: sizes by name, a card layout with fitted text and inline icons, one back.

A ``Deck`` is a name, rows of data (from a CSV file or a YAML list; a ``quantity`` or ``count`` column says
how many copies of a row to print, default 1), a card size (``"poker"``, ``"bridge"``, ``"mini"``,
``"business"``, ``"tarot"``, ``"square"`` or ``"63x88"`` in mm, ``"2.5x3.5in"``), a ``CardLayout`` that says
which columns go where (title, body text, subtitle, footer, value corner, accent colour) and how the back
looks (deck colour, a pattern, the deck's name).

Body text is wrapped and shrunk until it fits its box, never cut off: if it cannot fit at
``CardLayout.min_body_pt`` (6 pt) the deck raises ``LayoutError`` naming the deck, the card and the row.
``{icon-name}`` inside any text draws an icon from ``boardgen.cards.icons`` in the line (``Pay 2 {coin}``);
a blank line starts a new paragraph.

``deck_components(deck)`` gives a ``ComponentSet`` for ``boardgen.cards.sheets.lay_out``;
``deck_sheets(deck, paper, mode)`` picks the paper orientation that needs the fewest sheets and lays the deck
out ("duplex", "fold" or "gutter"); ``deck_artifacts`` renders PDFs for A4 and Letter.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path as FilePath
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, field_validator, model_validator

from boardgen.cards.icons import ICONS, draw_icon
from boardgen.cards.model import Component, ComponentSet
from boardgen.cards.sheets import LaidOut, cut_svg, lay_out, layout_rank
from boardgen.errors import ConfigError, LayoutError
from boardgen.i18n import Translator, current
from boardgen.io import Artifact
from boardgen.render.cairo_backend import cap_height_mm, render_pdf, text_width_mm
from boardgen.render.imposition import A4, COMPACT_STYLE, LETTER, Paper, SheetStyle, flip_edge
from boardgen.render.scene import (
    Affine,
    Circle,
    Font,
    Group,
    Op,
    Path,
    Rect,
    RectOp,
    Scene,
    Style,
    Text,
    ink_on,
    line,
    mix,
    rect_path,
    rounded_rect_path,
)
from boardgen.schema import Colour, PrintableText, TemplateModel
from boardgen.yaml_reader import short_repr

MM_PER_INCH = 25.4
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),  # 2.5 x 3.5 in
    "bridge": (57.15, 88.9),  # 2.25 x 3.5 in
    "mini": (44.0, 63.5),  # "mini American/Euro" ~ 1.75 x 2.5 in
    "business": (50.8, 88.9),  # 2 x 3.5 in
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}
DECK_STYLE = COMPACT_STYLE
"""Sheets for cards: 5 mm paper margin, short crop marks; 8 poker cards fit A4 and Letter landscape."""
INK = "#1a1a1a"
SAFE_MM = 3.0
"""Nothing but background comes closer than this to the trim (a cut may wander)."""
QUANTITY_KEYS = ("quantity", "count")
_ICON_RE = re.compile(r"\{([a-z0-9][a-z0-9-]*)\}")
_SIZE_RE = re.compile(r"^\s*([0-9.]+)\s*[x×]\s*([0-9.]+)\s*(mm|in)?\s*$")


MIN_CARD_MM = 25.0
MAX_CARD_MM = 180.0
"""A card's sides lie between these (a card fits a sheet of A4 or Letter either way round, with its bleed and
crop marks)."""


def card_size(spec: str | Sequence[float]) -> tuple[float, float]:
    """(width, height) in mm from a name (``"poker"``, ``"poker-landscape"``), ``"63x88"``/``"63x88mm"``,
    ``"2.5x3.5in"`` or a (width, height) pair in mm, each side MIN_CARD_MM to MAX_CARD_MM. ValueError for
    anything else."""
    if not isinstance(spec, str):
        w, h = (float(v) for v in spec)
        if not (MIN_CARD_MM <= w <= MAX_CARD_MM and MIN_CARD_MM <= h <= MAX_CARD_MM):
            raise ValueError(f"a card size of {w:g} x {h:g} mm; expected each side {MIN_CARD_MM:g} to "
                             f"{MAX_CARD_MM:g} mm")
        return (w, h)
    name = spec.strip().lower()
    landscape = name.endswith("-landscape")
    base = name.removesuffix("-landscape")
    if base in CARD_SIZES:
        w, h = CARD_SIZES[base]
        return (h, w) if landscape else (w, h)
    m = _SIZE_RE.match(name)
    if m is None or m.group(1).count(".") > 1 or m.group(2).count(".") > 1 or "." in (m.group(1), m.group(2)):
        raise ValueError(f"unknown card size {spec[:40]!r}: use one of {', '.join(CARD_SIZES)} (optionally "
                         "'-landscape'), 'WxH' in mm or 'WxHin'")
    factor = MM_PER_INCH if m.group(3) == "in" else 1.0
    return card_size((float(m.group(1)) * factor, float(m.group(2)) * factor))


def _card_size_name(value: str) -> str:
    card_size(value)
    return value


CardSize = Annotated[str, AfterValidator(_card_size_name), Field(
    max_length=40, description=f"a card size: {', '.join(CARD_SIZES)} (optionally -landscape), 'WxH' in mm or "
    f"'WxHin', each side {MIN_CARD_MM:g} to {MAX_CARD_MM:g} mm")]
"""A card size as a template writes it, checked on load."""


# ------------------------------------------------------------------------------------------ data rows


Row = Mapping[str, Any]


def load_rows(source: str | FilePath | Sequence[Row], *, base: FilePath | None = None) -> tuple[dict[str, Any], ...]:
    """Rows from a CSV file (header row), a YAML file holding a list of mappings, or a list given inline.

    ``base``: the folder relative file names are read from (the template's folder)."""
    if isinstance(source, str | FilePath):
        from boardgen.datafiles import locate, read_csv, read_yaml_rows

        path = FilePath(source)
        if base is not None:  # a template's deck: inside the template's folder (boardgen.datafiles.locate)
            path = locate(str(source), str(base), "file", (), "card file", folder=base)
        where = str(path)
        if path.suffix.lower() == ".csv":
            rows: list[Any] = [row for _line, row in read_csv(path, where, "file", "card file")[1]]
        else:
            rows = read_yaml_rows(path, where, "file", "card file")
    else:
        rows, where = list(source), "rows"
    out = []
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise ConfigError(where, f"[{i}]", f"a card row must be a mapping of column: value, got "
                              f"{short_repr(row)}")
        out.append({str(k).strip(): v for k, v in row.items() if k is not None})
    return tuple(out)


def row_quantity(row: Row, where: str = "rows", index: int = 0) -> int:
    for key in QUANTITY_KEYS:
        value = row.get(key)
        if value is not None and str(value).strip() != "":
            try:
                n = int(str(value).strip())
            except ValueError:
                raise ConfigError(where, f"[{index}].{key}", f"expected a whole number, got "
                                  f"{short_repr(value, 30)}") from None
            if n < 0 or n > 1000:
                raise ConfigError(where, f"[{index}].{key}", f"expected 0 to 1000 copies, got {n}")
            return n
    return 1


# ------------------------------------------------------------------------------------------ deck


@dataclass(frozen=True)
class CardLayout:
    """Which row columns go where on a card front, and the type sizes (pt). A column that is missing or
    empty leaves its place out. ``accent`` names a column holding a per-card colour (default: the deck's)."""

    title: str = "title"
    body: str = "text"
    subtitle: str = "subtitle"
    footer: str = "footer"
    value: str = "value"
    accent: str = "colour"
    title_pt: float = 10.0
    body_pt: float = 9.0
    small_pt: float = 6.5
    min_body_pt: float = 6.0
    min_title_pt: float = 6.0
    align: Literal["left", "center"] = "center"
    body_valign: Literal["top", "middle"] = "middle"


@dataclass(frozen=True)
class Card:
    """One printed card: its row (after quantity expansion), its copy number and its place in the deck."""

    index: int  # 0-based position in the deck
    row_index: int  # 0-based row it came from
    copy: int  # 1..quantity
    row: Mapping[str, Any]

    def field(self, name: str) -> str:
        value = self.row.get(name)
        return "" if value is None else str(value).strip()


@dataclass(frozen=True)
class Deck:
    name: str
    rows: tuple[Mapping[str, Any], ...]
    size_mm: tuple[float, float] = CARD_SIZES["poker"]
    colour: str = "#2f5d8a"
    pattern: Literal["diagonal", "dots", "grid", "chevron", "plain"] = "diagonal"
    layout: CardLayout = field(default_factory=CardLayout)
    back_text: str | None = None  # default: the deck's name
    gap_mm: float = 0.0  # between cards on a sheet: 0 = neighbours share one cut (outer edges keep full bleed)
    source: str = "rows"  # where the rows came from (for error messages)

    @staticmethod
    def from_rows(name: str, rows: str | FilePath | Sequence[Row], size: str | Sequence[float] = "poker",
                  **kw: Any) -> Deck:
        """A deck from rows (or a CSV/YAML file of them) and a card size by name or in mm."""
        source = str(rows) if isinstance(rows, str | FilePath) else "rows"
        return Deck(name, load_rows(rows), card_size(size), source=source, **kw)

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-") or "deck"

    def cards(self) -> tuple[Card, ...]:
        """Every card to print, rows in order, each repeated ``quantity`` times."""
        out: list[Card] = []
        for r, row in enumerate(self.rows):
            for c in range(row_quantity(row, self.source, r)):
                out.append(Card(len(out), r, c + 1, row))
        return tuple(out)

    def describe(self, card: Card) -> str:
        title = card.field(self.layout.title)
        return f"deck '{self.name}': card {card.index + 1}" + (f" '{title}'" if title else "") + \
            f" (row {card.row_index + 1})"


# ------------------------------------------------------------------------------------------ rich text


@dataclass(frozen=True)
class Piece:
    text: str = ""
    icon: str = ""


def parse_rich(text: str) -> list[list[list[Piece]]]:
    """Paragraphs (split at blank lines or explicit newlines) -> words -> pieces (text runs and icons)."""
    paragraphs = []
    for para in re.split(r"\n", text.strip()):
        words = []
        for word in para.split():
            pieces = []
            pos = 0
            for m in _ICON_RE.finditer(word):
                if m.start() > pos:
                    pieces.append(Piece(text=word[pos:m.start()]))
                pieces.append(Piece(icon=m.group(1)))
                pos = m.end()
            if pos < len(word):
                pieces.append(Piece(text=word[pos:]))
            words.append(pieces)
        paragraphs.append(words)
    return [p for p in paragraphs if p] or [[]]


ICON_EM = 0.92  # icon square side, in ems
ICON_ADVANCE_EM = 1.04  # room an icon takes in the line
LEADING = 1.22  # line pitch, in ems
PARAGRAPH_EM = 0.35  # extra space between paragraphs


def _segments(words: Sequence[Sequence[Piece]]) -> list[Piece]:
    """A line's words as runs: neighbouring text joined (with spaces) into one run, icons apart."""
    out: list[Piece] = []

    def add_text(text: str) -> None:
        if out and not out[-1].icon:
            out[-1] = Piece(text=out[-1].text + text)
        elif text:
            out.append(Piece(text=text))

    for w, word in enumerate(words):
        for k, piece in enumerate(word):
            lead = " " if (w > 0 and k == 0) else ""
            if piece.icon:
                add_text(lead)
                out.append(piece)
            else:
                add_text(lead + piece.text)
    return out


def _run_width(piece: Piece, font: Font) -> float:
    return font.size_mm * ICON_ADVANCE_EM if piece.icon else text_width_mm(piece.text, font)


def line_width(words: Sequence[Sequence[Piece]], font: Font) -> float:
    """The width the line takes when drawn (text runs measured whole, as cairo draws them)."""
    return sum(_run_width(p, font) for p in _segments(words))


@dataclass(frozen=True)
class TextFit:
    """How a text was set: its font, its lines and the room they take (mm)."""

    font: Font
    lines: tuple[tuple[tuple[Piece, ...], ...], ...]  # per line: its words
    paragraph_starts: tuple[int, ...]  # indices of lines that begin a paragraph
    width_mm: float  # the widest line
    height_mm: float

    @property
    def size_pt(self) -> float:
        return self.font.size_pt


def wrap(paragraphs: Sequence[Sequence[Sequence[Piece]]], font: Font, width_mm: float
         ) -> tuple[list[tuple[tuple[Piece, ...], ...]], list[int]] | None:
    """Greedy line breaking; None if a single word is wider than the box."""
    lines: list[tuple[tuple[Piece, ...], ...]] = []
    starts: list[int] = []
    for words in paragraphs:
        starts.append(len(lines))
        current: list[tuple[Piece, ...]] = []
        for word in words:
            candidate = [*current, tuple(word)]
            if line_width(candidate, font) <= width_mm + 1e-9:
                current = candidate
                continue
            if not current or line_width([tuple(word)], font) > width_mm + 1e-9:
                return None
            lines.append(tuple(current))
            current = [tuple(word)]
        lines.append(tuple(current))
    return lines, starts


def text_height_mm(n_lines: int, n_paragraphs: int, font: Font) -> float:
    em = font.size_mm
    return n_lines * LEADING * em + max(0, n_paragraphs - 1) * PARAGRAPH_EM * em


def fit_text(text: str, box: Rect, font: Font, min_size_pt: float, step_pt: float = 0.25) -> TextFit | None:
    """The largest size from ``font.size_pt`` down to ``min_size_pt`` (in ``step_pt`` steps) at which the
    wrapped text fits ``box``; None if it does not fit even at the minimum."""
    paragraphs = parse_rich(text)
    steps = max(0, math.floor((font.size_pt - min_size_pt) / step_pt + 1e-9))
    sizes = [round(font.size_pt - i * step_pt, 3) for i in range(steps + 1)]
    if not sizes or sizes[-1] > min_size_pt + 1e-9:
        sizes.append(min_size_pt)
    for size in sizes:
        f = replace(font, size_pt=size)
        wrapped = wrap(paragraphs, f, box.width)
        if wrapped is None:
            continue
        lines, starts = wrapped
        height = text_height_mm(len(lines), len(starts), f)
        if height <= box.height + 1e-9:
            width = max((line_width(ln, f) for ln in lines), default=0.0)
            return TextFit(f, tuple(lines), tuple(starts), width, height)
    return None


def draw_text(fit: TextFit, box: Rect, colour: str = INK, align: Literal["left", "center", "right"] = "center",
              valign: Literal["top", "middle", "bottom"] = "middle", name: str = "card-body") -> list[Op]:
    """The fitted text's ops inside ``box``: one Text op per text run (named ``name``), icons in line."""
    f = fit.font
    em = f.size_mm
    y = {"middle": box.y + (box.height - fit.height_mm) / 2, "bottom": box.bottom - fit.height_mm}.get(valign, box.y)
    ops: list[Op] = []
    cap = cap_height_mm(f)
    for i, words in enumerate(fit.lines):
        if i in fit.paragraph_starts and i > 0:
            y += PARAGRAPH_EM * em
        baseline = y + (LEADING * em + cap) / 2  # the cap height centred in the line's pitch
        width = line_width(words, f)
        x = {"center": box.x + (box.width - width) / 2, "right": box.right - width}.get(align, box.x)
        for seg in _segments(words):
            if seg.icon:
                side = ICON_EM * em
                icon_x = x + (ICON_ADVANCE_EM - ICON_EM) / 2 * em
                icon_y = baseline - cap / 2 - side / 2
                ops.append(Group(tuple(draw_icon(seg.icon, icon_x, icon_y, side)), name=f"icon:{seg.icon}"))
            else:
                ops.append(Text(round(x, 4), round(baseline, 4), seg.text, f, colour, name=name))
            x += _run_width(seg, f)
        y += LEADING * em
    return ops


def unknown_icons(text: str) -> list[str]:
    return sorted({m.group(1) for m in _ICON_RE.finditer(text)} - set(ICONS))


# ------------------------------------------------------------------------------------------ card faces


@dataclass(frozen=True)
class FrontBoxes:
    """Where things go on a front (card mm, origin at the trim's top-left)."""

    band: Rect  # the title band (accent colour)
    title: Rect
    value: tuple[float, float, float] | None  # the value disc: cx, cy, r
    panel: Rect  # the light panel below the band
    subtitle: Rect
    body: Rect
    footer: Rect


def front_boxes(w: float, h: float, layout: CardLayout, has_value: bool, has_subtitle: bool,
                has_footer: bool) -> FrontBoxes:
    band_h = SAFE_MM + max(7.0, 0.11 * h)
    band = Rect(0.0, 0.0, w, band_h)
    r = (band_h - SAFE_MM) / 2 * 0.92
    value = (SAFE_MM + r, SAFE_MM + (band_h - SAFE_MM) / 2, r) if has_value else None
    left = SAFE_MM + (2 * r + 1.5 if has_value else 0.5)
    right = SAFE_MM + (2 * r + 1.5 if has_value else 0.5)  # symmetric, so the title stays centred
    title = Rect(left, SAFE_MM, w - left - right, band_h - SAFE_MM)
    panel = Rect(SAFE_MM - 0.8, band_h + 1.0, w - 2 * (SAFE_MM - 0.8), h - band_h - 1.0 - (SAFE_MM - 0.8))
    inner = panel.inset(1.6)
    small = layout.small_pt * 25.4 / 72.0
    sub_h = small * 1.5 if has_subtitle else 0.0
    foot_h = small * 1.5 if has_footer else 0.0
    subtitle = Rect(inner.x, inner.y, inner.width, sub_h)
    footer = Rect(inner.x, inner.bottom - foot_h, inner.width, foot_h)
    body = Rect(inner.x, subtitle.bottom + (1.0 if has_subtitle else 0.0), inner.width,
                footer.y - (1.0 if has_footer else 0.0) - subtitle.bottom - (1.0 if has_subtitle else 0.0))
    return FrontBoxes(band, title, value, panel, subtitle, body, footer)


def _one_line(deck: Deck, card: Card, what: str, text: str, box: Rect, font: Font, min_pt: float, colour: str,
              name: str) -> list[Op]:
    """A single line of text (icons allowed) fitted to ``box``'s width (shrunk to ``min_pt``), centred."""
    fit = fit_text(text, Rect(box.x, box.y, box.width, 1e6), font, min_pt)
    if fit is None or len(fit.lines) > 1:
        # not on one line: allow two lines if the box is tall enough, else it does not fit
        fit = fit_text(text, box, font, min_pt)
        if fit is None:
            raise LayoutError(f"{deck.describe(card)}: the {what} {text!r} does not fit {box.width:.1f} x "
                              f"{box.height:.1f} mm even at {min_pt:g} pt")
    return draw_text(fit, box, colour, "center", "middle", name)


def card_front(deck: Deck, card: Card) -> Scene:
    """The card's front (card mm; paints 3 mm of bleed). Raises LayoutError naming the card if a text does
    not fit at the minimum size or names an unknown icon."""
    lay = deck.layout
    w, h = deck.size_mm
    title, body = card.field(lay.title), card.field(lay.body)
    subtitle, footer, value = card.field(lay.subtitle), card.field(lay.footer), card.field(lay.value)
    accent = card.field(lay.accent) or deck.colour
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", accent):
        raise LayoutError(f"{deck.describe(card)}: colour {accent!r} is not '#rrggbb'")
    for text in (title, body, subtitle, footer, value):
        missing = unknown_icons(text)
        if missing:
            raise LayoutError(f"{deck.describe(card)}: unknown icon {{{missing[0]}}} (known: "
                              f"{', '.join(sorted(ICONS))})")
    boxes = front_boxes(w, h, lay, bool(value), bool(subtitle), bool(footer))
    bleed = 3.0
    ink_band = ink_on(accent)
    tint = mix(accent, "#ffffff", 0.88)
    ops: list[Op] = [RectOp(Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed), Style(fill=accent),
                            name="card-background"),
                     Path(rounded_rect_path(boxes.panel, 2.0), Style(fill=tint), name="card-panel")]
    if title:
        ops += _one_line(deck, card, "title", title, boxes.title, Font(size_pt=lay.title_pt, bold=True),
                         lay.min_title_pt, ink_band, "card-title")
    if boxes.value is not None:
        cx, cy, r = boxes.value
        ops.append(Circle(cx, cy, r, Style(fill="#ffffff", stroke=mix(accent, INK, 0.4), stroke_width_mm=0.35),
                          name="card-value-disc"))
        ops += _one_line(deck, card, "value", value, Rect(cx - r * 0.8, cy - r * 0.7, 1.6 * r, 1.4 * r),
                         Font(size_pt=lay.title_pt, bold=True), 4.0, INK, "card-value")
    if subtitle:
        ops += _one_line(deck, card, "subtitle", subtitle, boxes.subtitle,
                         Font(size_pt=lay.small_pt + 0.5, italic=True), 5.0, mix(accent, INK, 0.55), "card-subtitle")
        ops.append(line(boxes.subtitle.x + 4, boxes.subtitle.bottom + 0.5, boxes.subtitle.right - 4,
                        boxes.subtitle.bottom + 0.5, Style(stroke=mix(accent, "#ffffff", 0.4), stroke_width_mm=0.2),
                        name="card-rule"))
    if body:
        fit = fit_text(body, boxes.body, Font(size_pt=lay.body_pt), lay.min_body_pt)
        if fit is None:
            needed = wrap(parse_rich(body), Font(size_pt=lay.min_body_pt), boxes.body.width)
            detail = (f"needs {len(needed[0])} lines at {lay.min_body_pt:g} pt" if needed is not None
                      else "has a word wider than the box")
            raise LayoutError(f"{deck.describe(card)}: body text does not fit its {boxes.body.width:.1f} x "
                              f"{boxes.body.height:.1f} mm box ({detail}); shorten it or use a larger card")
        ops += draw_text(fit, boxes.body, INK, lay.align, lay.body_valign, "card-body")
    if footer:
        ops += _one_line(deck, card, "footer", footer, boxes.footer, Font(size_pt=lay.small_pt), 5.0,
                         mix(accent, INK, 0.6), "card-footer")
    return Scene(tuple(ops))


def _pattern(kind: str, w: float, h: float, colour: str, bleed: float) -> list[Op]:
    ink = mix(colour, ink_on(colour), 0.18)
    st = Style(stroke=ink, stroke_width_mm=1.2)
    ops: list[Op] = []
    x0, y0, x1, y1 = -bleed, -bleed, w + bleed, h + bleed
    if kind == "diagonal":
        step = 5.0
        n = math.ceil((x1 - x0 + y1 - y0) / step)
        for i in range(n + 1):
            d = x0 + i * step - (y1 - y0)
            ops.append(line(d, y1, d + (y1 - y0), y0, st, name="back-pattern"))
    elif kind == "grid":
        step = 6.0
        for i in range(math.ceil((x1 - x0) / step) + 1):
            ops.append(line(x0 + i * step, y0, x0 + i * step, y1, replace(st, stroke_width_mm=0.5), "back-pattern"))
        for j in range(math.ceil((y1 - y0) / step) + 1):
            ops.append(line(x0, y0 + j * step, x1, y0 + j * step, replace(st, stroke_width_mm=0.5), "back-pattern"))
    elif kind == "dots":
        step = 5.0
        for j in range(math.ceil((y1 - y0) / step) + 1):
            for i in range(math.ceil((x1 - x0) / step) + 1):
                ops.append(Circle(x0 + (i + 0.5 * (j % 2)) * step, y0 + j * step, 0.9, Style(fill=ink),
                                  name="back-pattern"))
    elif kind == "chevron":
        step = 6.0
        for j in range(math.ceil((y1 - y0) / step) + 2):
            y = y0 + j * step
            count = math.ceil((x1 - x0) / step * 2) + 2
            pts = [(x0 + i * step / 2, y + (step / 2 if i % 2 else 0.0)) for i in range(count)]
            ops.append(Path((("M", *pts[0]), *(("L", *p) for p in pts[1:])), replace(st, line_join="miter"),
                            name="back-pattern"))
    elif kind != "plain":
        raise ValueError(f"unknown back pattern {kind!r} (diagonal, dots, grid, chevron, plain)")
    return ops


def card_back(deck: Deck) -> Scene:
    """The deck's one back: its colour, a pattern (a second cue besides colour), a frame and its name."""
    w, h = deck.size_mm
    bleed = 3.0
    colour = deck.colour
    ink = ink_on(colour)
    outer = Rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed)
    ops: list[Op] = [RectOp(outer, Style(fill=colour), name="back-background"),
                     Group(tuple(_pattern(deck.pattern, w, h, colour, bleed)), name="back-pattern",
                           clip=rect_path(outer))]
    frame = Rect(SAFE_MM, SAFE_MM, w - 2 * SAFE_MM, h - 2 * SAFE_MM)
    ops.append(Path(rounded_rect_path(frame, 2.5), Style(stroke=ink, stroke_width_mm=0.5), name="back-frame"))
    text = deck.back_text if deck.back_text is not None else deck.name
    if text:
        plate_h = min(18.0, h * 0.22)
        plate = Rect(SAFE_MM + 3.0, h / 2 - plate_h / 2, w - 2 * SAFE_MM - 6.0, plate_h)
        ops.append(Path(rounded_rect_path(plate, 2.0), Style(fill=colour, stroke=ink, stroke_width_mm=0.35),
                        name="back-plate"))
        fit = fit_text(text, plate.inset(1.5), Font(size_pt=14.0, bold=True), 5.0)
        if fit is None:
            raise LayoutError(f"deck '{deck.name}': the back text {text!r} does not fit the card's back")
        ops += draw_text(fit, plate.inset(1.5), ink, "center", "middle", "back-title")
    return Scene(tuple(ops))


# ------------------------------------------------------------------------------------------ components, sheets


def deck_components(deck: Deck, tr: Translator | None = None) -> ComponentSet:
    """Every card as a ``Component`` (front, the deck's back, a rectangular cut outline); ``tr``: the edition's
    words for the sheet heading."""
    w, h = deck.size_mm
    back = card_back(deck)
    outline = rect_path(Rect(0.0, 0.0, w, h))
    parts = tuple(Component("card", f"{deck.name} #{c.index + 1}", w, h, card_front(deck, c), outline, back)
                  for c in deck.cards())
    if not parts:
        raise LayoutError(f"deck '{deck.name}': no cards (every row has quantity 0)")
    title = (tr or current()).gettext("{deck} ({n} cards)").format(deck=deck.name, n=len(parts))
    return ComponentSet(deck.slug, title, parts, double_sided=True,
                        gap_mm=deck.gap_mm, outer_bleed=True, label=deck.name)


def turned(part: Component) -> Component:
    """The part turned a quarter turn clockwise on the sheet (its back a quarter turn the other way, so the
    back still reads upright when the finished card is turned over sideways)."""
    w, h = part.width_mm, part.height_mm
    cw = Affine(0.0, 1.0, -1.0, 0.0, h, 0.0)  # (x, y) -> (h - y, x)
    ccw = Affine(0.0, -1.0, 1.0, 0.0, 0.0, w)  # (x, y) -> (y, w - x)
    outline = rect_path(Rect(0.0, 0.0, h, w))
    back = None if part.back is None else Scene((Group(part.back.items, transform=ccw),))
    return replace(part, width_mm=h, height_mm=w, front=Scene((Group(part.front.items, transform=cw),)),
                   back=back, outline=outline, folds=())


def deck_sheets(deck: Deck, paper: Paper, mode: str = "duplex", style: SheetStyle = DECK_STYLE,
                title: str | None = None, keep_orientation: bool = False, tr: Translator | None = None) -> LaidOut:
    """The deck on ``paper`` in the orientation (paper portrait or landscape, cards upright or turned) that
    needs the fewest sheets; ``mode``: "duplex" (backs on the reverse, flip on the edge the page orientation
    needs), "gutter" (fronts and backs side by side, fold down the middle) or "fold" (each card a fold-over
    pair). ``keep_orientation``: the paper stays as given (only the cards may turn), for a file whose pages
    must all be one way round (``sheets.one_orientation``). ``tr``: the edition's words (the sheet heading)."""
    return cards_sheets(deck_components(deck, tr), paper, mode, style, title, keep_orientation)


def cards_sheets(cset: ComponentSet, paper: Paper, mode: str = "duplex", style: SheetStyle = DECK_STYLE,
                 title: str | None = None, keep_orientation: bool = False) -> LaidOut:
    """A set of same-sized cards on ``paper`` as ``deck_sheets`` lays a deck out (any card faces: a deck drawn
    by ``card_front`` or a layout given as data)."""
    title = title or cset.title
    best: LaidOut | None = None
    for turn in (False, True):
        s = replace(cset, components=tuple(turned(p) for p in cset.components)) if turn else cset
        for p in ((paper,) if keep_orientation else (paper.portrait(), paper.landscape())):
            try:
                laid = lay_out(s, p, title, mode, style)
            except ValueError:
                continue
            if best is None or layout_rank(laid) < layout_rank(best):
                best = laid
    if best is None:
        w, h = cset.components[0].width_mm, cset.components[0].height_mm
        raise LayoutError(f"{cset.title}: a {w:g} x {h:g} mm card does not fit {paper.name} in {mode} mode")
    return best


def deck_artifacts(deck: Deck, prefix: str, papers: Iterable[Paper] = (A4, LETTER), mode: str = "duplex",
                   title: str | None = None, cut_files: bool = False) -> list[Artifact]:
    """Per paper: ``{prefix}-{paper}.pdf`` (e.g. ``cards/events-a4.pdf``) and, with ``cut_files``,
    ``{prefix}-cut-{paper}.svg`` (the cut lines of its front sheets, layer "cut")."""
    out = []
    for paper in papers:
        laid = deck_sheets(deck, paper, mode, title=title)
        edge = flip_edge(laid.pages[0].width_mm, laid.pages[0].height_mm)
        how = {"duplex": f"double-sided, flip on the {edge} edge", "gutter": "fold each sheet down the middle",
               "fold": "fold each card over"}.get(mode, mode)
        out.append(Artifact(f"{prefix}-{paper.slug}.pdf", render_pdf(list(laid.pages), title=laid.title),
                            f"{laid.title} on {laid.front_sheets} {paper.name} sheets ({how})",
                            pages=len(laid.pages)))
        if cut_files:
            sheet_paper = Paper(paper.name, laid.pages[0].width_mm, laid.pages[0].height_mm)
            out.append(Artifact(f"{prefix}-cut-{paper.slug}.svg", cut_svg(laid.cut_sheets, sheet_paper),
                                f"cut lines of the {deck.name} sheets ({paper.name})"))
    return out


# ------------------------------------------------------------------------------------------ template section


class CardLayoutSpec(TemplateModel):
    """A deck's ``layout:`` in a template: which row columns go where, and type sizes (pt)."""

    title: str = "title"
    body: str = "text"
    subtitle: str = "subtitle"
    footer: str = "footer"
    value: str = "value"
    accent: str = "colour"
    title_pt: float = Field(default=10.0, ge=5, le=30)
    body_pt: float = Field(default=9.0, ge=6, le=24)
    align: Literal["left", "center"] = "center"

    def layout(self) -> CardLayout:
        return CardLayout(self.title, self.body, self.subtitle, self.footer, self.value, self.accent,
                          self.title_pt, self.body_pt, align=self.align)


class DeckSpec(TemplateModel):
    """One deck in a template, e.g.::

        decks:
          - name: Business Cards
            file: cards/business.csv      # or rows: [{title: ..., text: ..., quantity: 2}, ...]
            size: poker                    # bridge, mini, business, tarot, square, "63x88", "2.5x3.5in"
            colour: "#234e70"
            pattern: diagonal
            mode: duplex                   # gutter, fold
    """

    name: PrintableText = Field(min_length=1, max_length=60)
    rows: tuple[dict[str, Any], ...] | None = None
    file: str | None = None
    size: str | tuple[float, float] = "poker"
    colour: Colour = "#2f5d8a"
    pattern: Literal["diagonal", "dots", "grid", "chevron", "plain"] = "diagonal"
    back_text: str | None = None
    mode: Literal["duplex", "gutter", "fold"] = "duplex"
    gap_mm: float = Field(default=0.0, ge=0, le=20)
    layout: CardLayoutSpec = Field(default_factory=CardLayoutSpec)

    @field_validator("size")
    @classmethod
    def _size(cls, value: str | tuple[float, float]) -> str | tuple[float, float]:
        card_size(value)
        return value

    @model_validator(mode="after")
    def _one_source(self) -> DeckSpec:
        if (self.rows is None) == (self.file is None):
            raise ValueError("give the deck's cards as rows: [...] or as file: a CSV or YAML file, one of the two")
        return self

    def deck(self, base: FilePath | None = None) -> Deck:
        """The deck, reading ``file`` relative to ``base`` (the template's folder)."""
        rows = load_rows(self.file, base=base) if self.file is not None else load_rows(self.rows or [])
        return Deck(self.name, rows, card_size(self.size), self.colour, self.pattern, self.layout.layout(),
                    self.back_text, self.gap_mm, self.file or "rows")

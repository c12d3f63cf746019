"""The board's picture as a Scene in board millimetres (origin top-left of the trim, y down).

Painted bottom to top: paper outside the world's outline, sea inside it, faint land (islands too small for a
cell stay visible), every land cell as a hexagon in its zone colour, the coastlines drawn faintly over the
fills, the hex grid, each cell's zone symbol (the cue besides colour) and its label, the world's outline,
and the legend blocks (title, zone key, bio-productivity table) placed in open sea on the top-left section.

``board_scene(..., window=...)`` draws only what meets a window (a section plus its bleed), so each section
page carries its own part of the coastlines rather than the whole world.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import shapely
from shapely.geometry import Polygon as ShapelyPolygon
from shapely.geometry import box

from boardgen.errors import LayoutError
from boardgen.games.global_wellbeing.schema import Config
from boardgen.geomap.model import Board, Cell
from boardgen.i18n import DEFAULT_LANGUAGE, N_, current
from boardgen.layout.legend import (
    BlockSpec,
    FreeArea,
    PlacedBlock,
    free_area,
    joined_parts,
    place_blocks,
    place_in_some_order,
)
from boardgen.layout.sections import SectionLayout, hex_polygons
from boardgen.render.cairo_backend import cap_height_mm, fit_font_or_fail, text_width_mm
from boardgen.render.merge import IDENTITY, NotFlatError, flatten_copies, merge_parallel, polygons_path
from boardgen.render.scene import (
    PT,
    Font,
    Group,
    Op,
    Path,
    Polygon,
    Rect,
    RectOp,
    Scene,
    Style,
    Text,
    fill,
    fill_stroke,
    group,
    ink_on,
    stroke,
)
from boardgen.render.symbols import symbol_transform, zone_symbol

OCEAN = "#dceaf3"
"""Sea inside the world's outline: pale enough for the zone colours, distinct from Polar light blue."""
PAPER = "#f7f5ef"
"""The board outside the world's outline."""
LAND_TINT = "#dfe3d6"
COAST = "#38505e"
FRAME = "#7f97a6"
GRID = "#2e2e2e"
INK = "#1a1a1a"
START_ORANGE = "#f7a440"  # the table card's start-value orange (cards/tables.py)
TABLE_UNUSED = "#e6e6e6"  # boxes outside a zone's range, as on the card
PANEL = "#ffffff"

LABEL_FONT = Font("DejaVu Sans Condensed", 6.0, bold=True)
COAST_SIMPLIFY_MM = 0.15  # far below what print shows; keeps the PDF small


@dataclass(frozen=True)
class BoardArt:
    """Everything the board pictures need, resolved once."""

    board: Board
    sections: SectionLayout
    legend: tuple[PlacedBlock, ...]
    coast_mm: tuple[ShapelyPolygon, ...]  # simplified land polygons in board mm (may overlap each other)
    memo: dict = field(default_factory=dict, compare=False, repr=False)  # drawing parts reused across windows

    @property
    def config(self) -> Config:
        return self.board.config


# ------------------------------------------------------------------------------------------ legend


PROJECTION_NAMES = {
    "wintri": N_("Winkel tripel"), "eqearth": N_("Equal Earth"), "robin": N_("Robinson"),
    "natearth": N_("Natural Earth"), "moll": N_("Mollweide"), "eck4": N_("Eckert IV"), "eck6": N_("Eckert VI"),
    "kav7": N_("Kavrayskiy VII"), "wag7": N_("Wagner VII"), "hammer": N_("Hammer"), "aitoff": N_("Aitoff"),
    "eqc": N_("plate carrée"), "merc": N_("Mercator"), "vandg": N_("Van der Grinten"), "times": N_("Times"),
    "patterson": N_("Patterson")}
"""The map projections' names as the board's title panel prints them (marked: a language may write them its
own way)."""


def _projection_name(proj: str) -> str:
    _ = current().gettext
    for token in proj.split():
        if token.startswith("+proj="):
            key = token.split("=", 1)[1]
            return _("{name} projection").format(name=_(PROJECTION_NAMES[key]) if key in PROJECTION_NAMES else key)
    return _("map projection")


def scale_note(board: Board) -> str:
    """e.g. 'Winkel tripel projection · 1 cm ≈ 620 km along the equator'."""
    km_per_cm = board.equator_km_per_mm * 10
    rounded = round(km_per_cm, -1) if km_per_cm >= 100 else round(km_per_cm)
    return current().gettext("{projection} · 1 cm ≈ {km} km along the equator").format(
        projection=_projection_name(board.config.map.projection), km=f"{rounded:,.0f}")


SCALE_STEPS_KM = (100, 200, 250, 500, 1000, 2000, 2500, 5000)
SCALE_BAR_MAX_MM = 60.0
SCALE_BAR_MM = 1.4  # bar thickness
SCALE_BAR_ROOM_MM = 6.2  # bar + its labels, under the scale note


def scale_bar_steps(km_per_mm: float, segments: int = 3) -> tuple[int, float]:
    """(km per segment, mm per segment): the longest round step whose ``segments`` fit SCALE_BAR_MAX_MM."""
    fitting = [k for k in SCALE_STEPS_KM if segments * k / km_per_mm <= SCALE_BAR_MAX_MM]
    step = fitting[-1] if fitting else SCALE_STEPS_KM[0]
    return step, step / km_per_mm


TITLE_FONTS = (Font("DejaVu Sans", 22.0, bold=True), Font("DejaVu Sans", 18.0, bold=True),
               Font("DejaVu Sans", 15.0, bold=True))  # the largest that finds room is used
SUBTITLE_FONTS = (Font("DejaVu Sans", 8.0), Font("DejaVu Sans", 7.0), Font("DejaVu Sans", 6.5))
CAPTION_FONT = Font("DejaVu Sans", 7.5, bold=True)
SMALL_FONT = Font("DejaVu Sans", 6.0)
KEY_FONT = Font("DejaVu Sans", 7.0)
TABLE_NUMBER_FONT = Font("DejaVu Sans", 8.0)
TABLE_START_FONT = Font("DejaVu Sans", 8.0, bold=True)
TABLE_DIE_FONT = Font("DejaVu Sans", 7.5, bold=True)
TABLE_HEAD_FONT = Font("DejaVu Sans Condensed", 6.0)
MIN_PLAY_TEXT_PT = 6.0
"""Nothing a player reads during play is set smaller than this."""
PAD_MM = 2.5
LEGEND_LAND_CLEARANCE_MM = 2.0  # free_area's land clearance: a legend block keeps this far from land cells


@dataclass(frozen=True)
class TableGeometry:
    """The board's bio-productivity table. Rows are tall enough for a zone marker to sit in one box with the
    number (left-aligned, as on the table card) still showing (see notes/table-geometry.md)."""

    column_mm: float = 12.0
    row_mm: float = 9.0
    caption_mm: float = 6.0
    header_mm: float = 11.0  # zone colour box with symbol and name, as on the card
    die_mm: float = 6.0
    note_mm: float = 3.8
    number_inset_mm: float = 1.3  # a value's left edge from its box's left edge

    def size_mm(self, columns: int, rows: int) -> tuple[float, float]:
        width = 2 * PAD_MM + columns * self.column_mm
        height = 2 * PAD_MM + self.caption_mm + self.header_mm + rows * self.row_mm + self.die_mm + self.note_mm
        return (width, height)


TABLE = TableGeometry()


def header_lines(name: str, room_mm: float, font: Font = TABLE_HEAD_FONT) -> tuple[str, ...]:
    """A zone's name for the table header: one line when it fits ``room_mm`` at ``font``, else split in two with
    a hyphen (after a vowel that precedes a consonant where possible, the longest first line that fits)."""
    if text_width_mm(name, font) <= room_mm:
        return (name,)
    fits = [k for k in range(3, len(name) - 2) if text_width_mm(name[:k] + "-", font) <= room_mm
            and text_width_mm(name[k:], font) <= room_mm]
    if not fits:
        return (name,)
    vowels = "aeiouyAEIOUY"
    nice = [k for k in fits if name[k - 1] in vowels and name[k] not in vowels]
    k = max(nice or fits)
    return (name[:k] + "-", name[k:])


def table_geometry(config: Config) -> TableGeometry:
    """``TABLE``, with a taller header when a zone's name needs two lines at ``TABLE_HEAD_FONT``."""
    room = TABLE.column_mm - 1.0
    two = any(len(header_lines(n, room)) > 1 for n in config.zones)
    return replace(TABLE, header_mm=TABLE.header_mm + 2.5) if two else TABLE


def _table_rows(config: Config) -> tuple[int, int]:
    low = min(z.minimum_index for z in config.zones.values())
    high = max(z.die for z in config.zones.values())
    return low, high


def edition_name(config: Config) -> str:
    """The edition as people write it ("my-big-game" -> "My Big Game")."""
    return " ".join(w.capitalize() if not w.isdigit() else w for w in config.edition.split("-"))


def _title_lines(board: Board) -> tuple[str, str, str]:
    _ = current().gettext
    config = board.config
    edition = edition_name(config)
    line = _("{n} land cells on a {width} x {height} cm board").format(
        n=len(board.cells), width=f"{config.board.width_mm / 10:g}", height=f"{config.board.height_mm / 10:g}")
    if edition.lower() not in config.title.lower():
        line = _("{edition} edition · {line}").format(edition=edition, line=line)
    return (config.title, line, scale_note(board))


def _title_size(title: str, edition: str, note: str, big: Font, small: Font) -> tuple[float, float]:
    width = max(text_width_mm(title, big), text_width_mm(edition, small), text_width_mm(note, small),
                SCALE_BAR_MAX_MM + 8.0)
    return (width + 2 * PAD_MM, 2 * PAD_MM + cap_height_mm(big) + 2 * small.size_mm * 1.45 + 2.0
            + SCALE_BAR_ROOM_MM)


COMPACT_TABLE_ROWS_MM = (8.0, 7.0, 6.0)
"""The table's row heights when the full-size table finds no room (the panels scaled down): the text keeps its
size (nothing under MIN_PLAY_TEXT_PT), only the boxes get shorter; 6 mm still holds a matchstick marker."""


def table_shapes_mm(config: Config, compact: bool = False) -> tuple[tuple[float, float], ...]:
    """The bio-productivity table's (width, height) at full size, or ``compact``: scaled down (shorter rows)."""
    low, high = _table_rows(config)
    geometry = table_geometry(config)
    rows_mm = COMPACT_TABLE_ROWS_MM if compact else (geometry.row_mm,)
    return tuple(replace(geometry, row_mm=r).size_mm(len(config.zones), high - low + 1) for r in rows_mm)


def legend_specs(board: Board, section_bounds: tuple[float, float, float, float], compact: bool = False
                 ) -> list[BlockSpec]:
    """The title, zone key and table as blocks for ``place_blocks``; ``compact``: the scaled-down panels (the
    table's rows shorter, the title at its smaller sizes first)."""
    config = board.config
    tables = table_shapes_mm(config, compact)
    names = list(config.zones)
    key_row = 5.2
    key_text = max(text_width_mm(f"{n}  (d{config.zones[n].die})", KEY_FONT) for n in names)
    entry_w = 7.0 + 2.0 + key_text + 3.0
    key_caption = 6.0
    one_column = (2 * PAD_MM + entry_w, 2 * PAD_MM + key_caption + len(names) * key_row)
    rows2 = (len(names) + 1) // 2
    two_columns = (2 * PAD_MM + 2 * entry_w, 2 * PAD_MM + key_caption + rows2 * key_row)
    title, edition, note = _title_lines(board)
    title_shapes = tuple(_title_size(title, edition, note, big, small)
                         for big, small in zip(TITLE_FONTS, SUBTITLE_FONTS, strict=True))
    x0, y0, x1, y1 = section_bounds
    return [
        BlockSpec("bio-productivity table", tables, (x0, y1)),
        BlockSpec("zone key", (two_columns, one_column), (x0, y0)),
        BlockSpec("title", title_shapes, (x0 + (x1 - x0) / 2, y0)),
    ]


LEGEND_FALLBACKS = (
    "the title, key and table at full size in open sea on section 1 (the top-left section)",
    "the same panels scaled down (table rows 8, 7 or 6 mm, the title at 18 or 15 pt; no text under 6 pt)",
    "the table on section 1, the title and key in open sea on the section nearest to it that has room",
    "a strip along the board's left edge kept free of the map (the projection frame fitted into the rest of "
    "the board, cells searched again for hexes.target_cells), the panels in it, full size then scaled down",
)
"""Where the legend panels go, in the order tried; never over a land cell. The central meridian is never moved
(map.projection's lon_0 is the designer's)."""


def legend_tiers(board: Board, section_bounds: tuple[float, float, float, float]) -> list[list[BlockSpec]]:
    """The legend's block specs in the order tried: full size, then scaled down."""
    return [legend_specs(board, section_bounds), legend_specs(board, section_bounds, compact=True)]


def plan_legend(board: Board, sections: SectionLayout, coast: tuple[ShapelyPolygon, ...] | None = None,
                specs: Sequence[Sequence[BlockSpec]] | None = None) -> tuple[PlacedBlock, ...]:
    """Place title, key and table in open sea on the top-left section, full size or else scaled down
    (LayoutError, from the full-size attempt, if there is no room). ``coast``: the board's ``simplified_coast``,
    ``specs``: its ``legend_tiers`` when the caller has them already."""
    first = sections.sections[0]
    tiers = legend_tiers(board, first.bounds_mm) if specs is None else specs
    coast = simplified_coast(board) if coast is None else coast
    cells = list(hex_polygons(board))
    parts = np.array(coast, dtype=object)
    size_mm = (board.config.board.width_mm, board.config.board.height_mm)
    coast_near = coast_near_outline(parts, first.outline_mm)
    # sampled once: every fallback below places blocks on this area (orders, tiers, the table alone)
    area = FreeArea(free_area(first.outline_mm, size_mm, cells, coast_near,
                              land_clearance_mm=LEGEND_LAND_CLEARANCE_MM))
    first_failure: tuple[LayoutError, Sequence[BlockSpec]] | None = None  # explained only if nothing fits
    tables = [BlockSpec(tier[0].name, tuple(shape for t in tiers for shape in t[0].shapes_mm), tier[0].anchor_mm)
              for tier in tiers[:1]]
    if not _places(area, tables):  # every fallback keeps the table on section 1: no table, no legend
        try:
            place_blocks(area, tiers[0], where=LEGEND_WHERE)
        except LayoutError as exc:
            raise _explained(exc, board, first.outline_mm, cells, coast_near, area, tiers[0]) from None
    for tier in tiers:
        # the blocks are placed one by one, each nearest its corner: another order may leave room for all
        try:
            return tuple(place_in_some_order(area, tier, where=LEGEND_WHERE))
        except LayoutError as exc:
            first_failure = first_failure or (exc, tier)
    # the table stays on section 1 (the seed puts it there); the title and key may go to open sea elsewhere:
    # the sections are added nearest first (by the distance between their top-left corners) until both fit
    x0, y0 = first.bounds_mm[:2]
    others = sorted(sections.sections[1:], key=lambda s: (np.hypot(s.bounds_mm[0] - x0, s.bounds_mm[1] - y0),
                                                         s.number))
    areas: list[FreeArea] = []  # each sampled once however many rooms it joins

    def section_area(index: int) -> FreeArea:
        while len(areas) <= index:
            outline = others[len(areas)].outline_mm
            coast_here = coast_near_outline(parts, outline)
            areas.append(FreeArea(free_area(outline, size_mm, cells, coast_here,
                                            land_clearance_mm=LEGEND_LAND_CLEARANCE_MM)))
        return areas[index]

    for tier in tiers:
        try:
            table = place_blocks(area, tier[:1], where=LEGEND_WHERE)[0]
        except LayoutError:
            continue
        room = area.without(table, 4.0)
        for index in range(len(others)):
            room = room.union(section_area(index))
            try:
                return (table, *place_in_some_order(room, tier[1:], where="the board"))
            except LayoutError:
                continue
    assert first_failure is not None
    failure, failed_tier = first_failure
    raise _explained(failure, board, first.outline_mm, cells, coast_near, area, failed_tier)


LEGEND_WHERE = "the top-left section (section 1)"


def coast_near_outline(parts: np.ndarray, outline: ShapelyPolygon) -> shapely.Geometry:
    """The coast a legend block on ``outline`` keeps clear of: the union of the coast's ``parts`` that come within
    2 mm of its bounding box (``free_area`` takes what lies near its area, and that lies inside the box)."""
    x0, y0, x1, y1 = outline.bounds
    near = parts[shapely.intersects(parts, outline.envelope.buffer(2.0))]
    return joined_parts(near, box(x0 - 5.0, y0 - 5.0, x1 + 5.0, y1 + 5.0))


def _explained(exc: LayoutError, board: Board, outline: ShapelyPolygon, cells: list[ShapelyPolygon],
               coast_near: shapely.Geometry, area: shapely.Geometry | FreeArea, specs: Sequence[BlockSpec]
               ) -> LayoutError:
    """``exc`` naming the land cells in the way: those under the blocks up to the first that found no room,
    placed as if the cells were sea."""
    fits = next(k for k in range(len(specs)) if not _places(area, specs[:k + 1]))
    size_mm = (board.config.board.width_mm, board.config.board.height_mm)
    try:
        sea = free_area(outline, size_mm, [], coast_near, land_clearance_mm=LEGEND_LAND_CLEARANCE_MM)
        placed = place_blocks(sea, specs[:fits + 1], where=LEGEND_WHERE)
    except LayoutError:
        return exc
    footprint = shapely.union_all([b.polygon.buffer(LEGEND_LAND_CLEARANCE_MM) for b in placed])
    labels = [c.label for c, hit in zip(board.cells, shapely.intersects(footprint, np.array(cells, dtype=object)),
                                        strict=True) if hit]
    if not labels:
        return exc
    return LayoutError(f"{exc}: land cell{'s' if len(labels) > 1 else ''} {', '.join(labels)} in the way "
                       "(overrides.remove_cells, fewer cells or a bigger board)")


def _places(area: shapely.Geometry | FreeArea, specs: Sequence[BlockSpec]) -> bool:
    try:
        place_blocks(area, specs)
    except LayoutError:
        return False
    return True


def check_legend_clear(board: Board, legend: Sequence[PlacedBlock], section_outline: ShapelyPolygon,
                       outlines: Sequence[ShapelyPolygon] = ()) -> list[str]:
    """Problems with the legend's placement: a block over a land cell, the table off the top-left section
    (``section_outline``), the title or key off it and off every one of ``outlines`` (the other sections)."""
    problems: list[str] = []
    hexes = hex_polygons(board)
    for block in legend:
        hits = shapely.intersects(block.polygon, hexes)
        problems.extend(f"{block.name} covers land cell {cell.label}"
                        for cell, hit in zip(board.cells, hits, strict=True) if hit)
        homes = [section_outline] if block.name == "bio-productivity table" else [section_outline, *outlines]
        if not any(home.contains(block.polygon) for home in homes):
            problems.append(f"{block.name} is not inside the top-left section"
                            + ("" if len(homes) == 1 else " nor inside any other section"))
    return problems


def _panel(block: PlacedBlock) -> RectOp:
    return RectOp(Rect(block.x_mm, block.y_mm, block.width_mm, block.height_mm),
                  fill_stroke(PANEL, "#5a6e7a", 0.5 * PT), name=f"panel:{block.name}")


def title_ops(board: Board, block: PlacedBlock) -> list[Op]:
    title, edition, note = _title_lines(board)
    big, small = TITLE_FONTS[block.shape_index], SUBTITLE_FONTS[block.shape_index]
    x = block.x_mm + PAD_MM
    y = block.y_mm + PAD_MM + cap_height_mm(big)
    line = small.size_mm * 1.45
    ops: list[Op] = [_panel(block),
                     Text(x, y, title, big, INK, name="board-title"),
                     Text(x, y + 1.6 + line, edition, small, "#333333", name="board-edition"),
                     Text(x, y + 1.6 + 2 * line, note, small, "#333333", name="scale-note")]
    ops.extend(scale_bar_ops(board.equator_km_per_mm, x, y + 1.6 + 2 * line + 1.6))
    return ops


def scale_bar_ops(km_per_mm: float, x: float, top: float, segments: int = 3) -> list[Op]:
    """A map scale bar: ``segments`` alternating dark and light boxes, labelled in km below."""
    step_km, step_mm = scale_bar_steps(km_per_mm, segments)
    ops: list[Op] = []
    for i in range(segments):
        colour = INK if i % 2 == 0 else PANEL
        ops.append(RectOp(Rect(round(x + i * step_mm, 3), top, round(step_mm, 3), SCALE_BAR_MM),
                          fill_stroke(colour, INK, 0.4 * PT), name="scale-bar"))
    for i in range(segments + 1):
        number = f"{i * step_km:,}"
        tick_x = x + i * step_mm
        if i == 0:
            label, left = number, tick_x
        elif i == segments:  # the number centred on its tick, the unit after it
            label, left = f"{number} km", tick_x - text_width_mm(number, SMALL_FONT) / 2
        else:
            label, left = number, tick_x - text_width_mm(number, SMALL_FONT) / 2
        ops.append(Text(round(left, 3), top + SCALE_BAR_MM + 2.6, label, SMALL_FONT, "#333333",
                        name="scale-bar-label"))
    return ops


def _hexagon(cx: float, cy: float, r: float) -> tuple[tuple[float, float], ...]:
    import math

    return tuple((cx + r * math.cos(math.radians(30 + 60 * i)), cy + r * math.sin(math.radians(30 + 60 * i)))
                 for i in range(6))


def key_ops(config: Config, block: PlacedBlock) -> list[Op]:
    names = list(config.zones)
    columns = 2 if block.shape_index == 0 else 1
    rows = (len(names) + columns - 1) // columns
    ops: list[Op] = [_panel(block),
                     Text(block.x_mm + PAD_MM, block.y_mm + PAD_MM + 3.4, current().gettext(KEY_CAPTION),
                          _fitted(current().gettext(KEY_CAPTION), CAPTION_FONT, block.width_mm - 2 * PAD_MM,
                                  "the map key's caption"), INK, name="key-caption")]
    entry_w = (block.width_mm - 2 * PAD_MM) / columns
    for i, name in enumerate(names):
        zone = config.zones[name]
        col, row = divmod(i, rows)
        x = block.x_mm + PAD_MM + col * entry_w
        cy = block.y_mm + PAD_MM + 6.0 + row * 5.2 + 2.4
        ops.append(Polygon(_hexagon(x + 3.5, cy, 2.5), fill_stroke(zone.colour, GRID, 0.35 * PT), name="key-swatch"))
        ops.append(zone_symbol(zone.symbol, x + 3.5, cy, 3.0, ink_on(zone.colour), detail=zone.colour))
        ops.append(Text(x + 9.0, cy, f"{name}  (d{zone.die})", KEY_FONT, INK, baseline="middle", name="key-entry"))
    return ops


KEY_CAPTION = N_("Key to the cells")
TABLE_CAPTION = N_("Bio-productivity index")  # the table card's title (cards/tables.py)
TABLE_NOTE = N_("Start values are shaded orange: one marker per zone starts there.")


def legend_words() -> tuple[str, ...]:
    """The edition's words the legend's panels are sized by (their language decides whether the panels find
    room), for the cache keys of what is planned from them."""
    _ = current().gettext
    return (current().language, _("{n} land cells on a {width} x {height} cm board"), _("{edition} edition · {line}"),
            _("{projection} · 1 cm ≈ {km} km along the equator"), _("{name} projection"), _("map projection"),
            *(_(name) for name in PROJECTION_NAMES.values()), _(KEY_CAPTION), _(TABLE_CAPTION), _(TABLE_NOTE))


def _fitted(text: str, font: Font, width_mm: float, where: str) -> Font:
    """``font`` for a legend line in a panel ``width_mm`` wide: shrunk to fit, and a build error naming the line,
    the text and the edition's language when even the smallest size is too wide (never a line out of its
    panel)."""
    language = current().language
    return fit_font_or_fail(text, font, width_mm, where if language == DEFAULT_LANGUAGE else
                            f"{where} (language {language})")


def table_ops(config: Config, block: PlacedBlock) -> list[Op]:
    """The table card's layout: one column per zone (header in the zone's colour with its symbol and name),
    rows from the highest die down to the lowest minimum, values left-aligned, start values orange, the die
    named in a row under each column."""
    low, high = _table_rows(config)
    g = table_geometry(config)
    full_height = g.size_mm(len(config.zones), high - low + 1)[1]
    if abs(block.height_mm - full_height) > 1e-6:  # a scaled-down table: shorter rows, the same text
        g = replace(g, row_mm=round((block.height_mm - full_height) / (high - low + 1) + g.row_mm, 4))
    ops: list[Op] = [_panel(block),
                     Text(block.x_mm + PAD_MM, block.y_mm + PAD_MM + 3.6, current().gettext(TABLE_CAPTION),
                          _fitted(current().gettext(TABLE_CAPTION), CAPTION_FONT, block.width_mm - 2 * PAD_MM,
                                  "the map table's caption"), INK, name="table-caption")]
    top = block.y_mm + PAD_MM + g.caption_mm
    grid_top = top + g.header_mm
    grid_bottom = grid_top + (high - low + 1) * g.row_mm
    rule = Style(stroke=INK, stroke_width_mm=0.5 * PT)
    # one header size for every column: the largest at which the longest zone name fits its column
    head = TABLE_HEAD_FONT
    for i, (name, zone) in enumerate(config.zones.items()):
        x = block.x_mm + PAD_MM + i * g.column_mm
        cx = x + g.column_mm / 2
        ink = ink_on(zone.colour)
        ops.append(RectOp(Rect(x, top, g.column_mm, g.header_mm), fill_stroke(zone.colour, INK, 0.5 * PT),
                          name="table-header"))
        ops.append(zone_symbol(zone.symbol, cx, top + 4.0, 5.0, ink, detail=zone.colour))
        lines = header_lines(name, g.column_mm - 1.0, head)
        first = top + (TABLE.header_mm - 1.3 if g.header_mm == TABLE.header_mm else 9.4)
        for k, text in enumerate(lines):
            ops.append(Text(cx, first + 2.5 * k, text, head, ink, align="center",
                            name="table-head" if k == 0 else "table-head-more"))
        for value in range(high, low - 1, -1):  # top to bottom, as on the card
            y = grid_top + (high - value) * g.row_mm
            cell = Rect(x, y, g.column_mm, g.row_mm)
            if zone.minimum_index <= value <= zone.die:
                start = value == zone.start_index
                ops.append(RectOp(cell, fill_stroke(START_ORANGE if start else PANEL, INK, 0.5 * PT),
                                  name="table-start" if start else "table-cell"))
                ops.append(Text(x + g.number_inset_mm, y + g.row_mm / 2, str(value),
                                TABLE_START_FONT if start else TABLE_NUMBER_FONT, INK, align="left",
                                baseline="middle", name="table-value"))
            else:
                ops.append(RectOp(cell, fill_stroke(TABLE_UNUSED, INK, 0.5 * PT), name="table-blank"))
        die = Rect(x, grid_bottom, g.column_mm, g.die_mm)
        ops.append(RectOp(die, fill_stroke(PANEL, INK, 0.5 * PT), name="table-die"))
        ops.append(Text(cx, die.y + g.die_mm / 2, f"d{zone.die}", TABLE_DIE_FONT, INK, align="center",
                        baseline="middle", name="table-die-label"))
    x0 = block.x_mm + PAD_MM
    ops.append(RectOp(Rect(x0, top, len(config.zones) * g.column_mm, grid_bottom + g.die_mm - top), rule))
    note_y = grid_bottom + g.die_mm + g.note_mm - 0.8
    note = current().gettext(TABLE_NOTE)
    ops.append(Text(x0, note_y, note, _fitted(note, SMALL_FONT, block.width_mm - 2 * PAD_MM, "the map table's note"),
                    "#333333", name="table-note"))
    return ops


# ------------------------------------------------------------------------------------------ map


def _polygon_ops(geometry: shapely.Geometry | Sequence[ShapelyPolygon], style: Style, name: str) -> list[Op]:
    """Polygons (with holes) as even-odd paths."""
    ops: list[Op] = []
    polygons = geometry if isinstance(geometry, list | tuple) else getattr(geometry, "geoms", [geometry])
    for poly in polygons:
        if poly.geom_type != "Polygon" or poly.is_empty:
            continue
        commands: list[tuple] = []
        for ring in (poly.exterior, *poly.interiors):
            coords = np.round(shapely.get_coordinates(ring), 3).tolist()
            commands.append(("M", coords[0][0], coords[0][1]))
            commands.extend(("L", x, y) for x, y in coords[1:-1])
            commands.append(("Z",))
        ops.append(Path(tuple(commands), Style(fill=style.fill, stroke=style.stroke,
                                               stroke_width_mm=style.stroke_width_mm, opacity=style.opacity,
                                               line_join="round", even_odd=True), name=name))
    return ops


def _hex_commands(board: Board, cell: Cell) -> list[tuple]:
    corners = [(round(x, 3), round(y, 3)) for x, y in board.hex_corners_mm(cell)]
    return [("M", *corners[0]), *(("L", x, y) for x, y in corners[1:]), ("Z",)]


def _all_hex_commands(art: BoardArt) -> dict[str, list[tuple]]:
    """``_hex_commands`` of every cell by label, made once per art and shared by the fills, the grid and
    every window."""
    made: dict[str, list[tuple]] | None = art.memo.get("hex_commands")
    if made is None:
        made = art.memo["hex_commands"] = {c.label: _hex_commands(art.board, c) for c in art.board.cells}
    return made


def _cell_fills(art: BoardArt, cells: Sequence[Cell]) -> list[Op]:
    """One path per zone holding all its cells' hexagons (named ``cells:<zone>``)."""
    ops: list[Op] = []
    hex_commands = _all_hex_commands(art)
    for name, zone in art.board.config.zones.items():
        commands = tuple(cmd for c in cells if c.zone == name for cmd in hex_commands[c.label])
        if commands:
            ops.append(Path(commands, fill(zone.colour), name=f"cells:{name}"))
    return ops


def _symbol_place(board: Board, cell: Cell) -> tuple[float, float, float]:
    """(centre x, centre y, size) of the cell's zone symbol, mm."""
    cx, cy = cell.center_mm
    size = board.layout.size_mm
    return cx, cy - 0.50 * size, 0.42 * size


def _cell_symbol(board: Board, cell: Cell) -> Group:
    zone = board.config.zones[cell.zone]
    return zone_symbol(zone.symbol, *_symbol_place(board, cell), ink_on(zone.colour), detail=zone.colour)


def _flat_symbols(board: Board, cells: Sequence[Cell], local: dict[Op, list[tuple]]
                  ) -> list[list[tuple[Style, tuple[tuple, ...]]] | None]:
    """``flatten(_cell_symbol(board, c), local=local)`` of every cell of one zone (None: it cannot be flattened),
    all at once: the symbol is drawn once and moved to each cell with arrays (render/merge.flatten_copies)."""
    if not cells:
        return []
    symbol = _cell_symbol(board, cells[0])
    # each cell's symbol transform as zone_symbol makes it, then as flatten composes it with the identity
    transforms = [IDENTITY @ symbol_transform(*_symbol_place(board, c)) for c in cells]
    try:
        return list(flatten_copies(Group(symbol.items), transforms, local))
    except NotFlatError:
        return [None] * len(cells)


def _cell_symbols(art: BoardArt, cells: Sequence[Cell]) -> list[Op]:
    """Every cell's zone symbol, merged per zone and part (named ``symbols:<zone>``); each cell's symbol is
    flattened once per art and reused by every window."""
    board = art.board
    flat: dict[str, list[tuple[Style, tuple[tuple, ...]]] | None] = art.memo.setdefault("symbols", {})
    local: dict[Op, list[tuple]] = art.memo.setdefault("symbol_commands", {})  # a zone's symbol, drawn once
    ops: list[Op] = []
    for name in board.config.zones:
        own = [c for c in cells if c.zone == name]
        missing = [c for c in own if c.label not in flat]
        flat.update(zip([c.label for c in missing], _flat_symbols(board, missing, local), strict=True))
        maybe_parts = [flat[c.label] for c in own]
        parts = [p for p in maybe_parts if p is not None]
        if len(parts) < len(maybe_parts) or any([st for st, _ in p] != [st for st, _ in parts[0]] for p in parts):
            ops.extend(merge_parallel([_cell_symbol(board, c) for c in own], f"symbols:{name}"))
            continue
        for k, (style, _) in enumerate(parts[0] if parts else []):
            ops.append(Path(tuple(cmd for p in parts for cmd in p[k][1]), style, name=f"symbols:{name}"))
    return ops


def _cell_label(board: Board, cell: Cell) -> list[Op]:
    zone = board.config.zones[cell.zone]
    cx, cy = cell.center_mm
    return [Text(cx, cy + 0.66 * board.layout.size_mm, cell.label, LABEL_FONT, ink_on(zone.colour), align="center",
                 baseline="middle", name="cell-label")]


def simplified_coast(board: Board) -> tuple[ShapelyPolygon, ...]:
    """The land polygons simplified for drawing (they may overlap)."""
    return simplified_land(board.land_mm)


def simplified_land(land_mm: shapely.Geometry) -> tuple[ShapelyPolygon, ...]:
    """``simplified_coast`` of a board whose land (in board mm) is ``land_mm``."""
    parts = shapely.simplify(shapely.get_parts(land_mm), COAST_SIMPLIFY_MM, preserve_topology=False)
    coast = tuple(p for p in parts if p.geom_type == "Polygon" and not p.is_empty and p.is_valid)
    return coast


def make_art(board: Board, sections: SectionLayout, legend: tuple[PlacedBlock, ...] | None = None,
             coast: tuple[ShapelyPolygon, ...] | None = None) -> BoardArt:
    coast = simplified_coast(board) if coast is None else coast
    legend = plan_legend(board, sections, coast) if legend is None else legend
    return BoardArt(board, sections, legend, coast)


def board_scene(art: BoardArt, window: ShapelyPolygon | None = None, bleed_mm: float = 3.0) -> Scene:
    """The board (or the part of it meeting ``window``) in board mm, painted ``bleed_mm`` beyond the trim."""
    board = art.board
    config = board.config
    w, h = config.board.width_mm, config.board.height_mm
    paper = box(-bleed_mm, -bleed_mm, w + bleed_mm, h + bleed_mm)
    region = paper if window is None else shapely.intersection(paper, window)
    shapely.prepare(region)

    def clip(geometry: shapely.Geometry) -> shapely.Geometry:
        return geometry if window is None else shapely.intersection(geometry, region.buffer(0.5))

    frame = board.frame_mm
    ops: list[Op] = []
    bx0, by0, bx1, by1 = region.bounds
    low_ink = config.board.low_ink  # white sea, land and paper: only the cells, lines and text take ink
    ops.append(RectOp(Rect(bx0, by0, bx1 - bx0, by1 - by0), fill("#ffffff" if low_ink else PAPER), name="paper"))
    ops.extend(_polygon_ops(clip(frame), fill("#ffffff" if low_ink else OCEAN), "ocean"))
    coast = np.array(art.coast_mm, dtype=object)
    if window is not None:
        coast = shapely.intersection(coast[shapely.intersects(coast, region)], region.buffer(0.5))
    land = [g for part in coast for g in getattr(part, "geoms", [part]) if g.geom_type == "Polygon"]
    # Few big paths rather than thousands of small ops (render/merge.py): same picture, much faster output.
    ops.append(group([p for p in [polygons_path(land, fill("#ffffff" if low_ink else LAND_TINT), "land")]
                      if p is not None], "land"))
    if window is None:
        cells = list(board.cells)
    else:
        hexes = art.memo.get("hexes")
        if hexes is None:
            hexes = art.memo["hexes"] = hex_polygons(board)
        cells = [c for c, hit in zip(board.cells, shapely.intersects(region, hexes), strict=True) if hit]
    ops.append(group(_cell_fills(art, cells), "cells"))
    coastline = polygons_path(land, Style(stroke=COAST, stroke_width_mm=0.35 * PT, opacity=0.55, line_join="round"),
                              "coast")
    ops.append(group([coastline] if coastline is not None else [], "coastlines"))
    grid = Style(stroke=GRID, stroke_width_mm=0.5 * PT, line_join="round")
    hex_commands = _all_hex_commands(art)
    ops.append(group([Path(tuple(cmd for c in cells for cmd in hex_commands[c.label]), grid, name="hex-grid")]
                     if cells else [], "hex-grid"))
    ops.append(group(_cell_symbols(art, cells) + [op for c in cells for op in _cell_label(board, c)],
                     "cell-marks"))
    ops.append(Polygon(tuple((round(x, 3), round(y, 3)) for x, y in frame.exterior.coords[:-1]),
                       stroke(FRAME, 0.6 * PT), name="frame"))
    legend_ops: list[Op] = []
    for block in art.legend:
        if window is not None and not region.intersects(block.polygon):
            continue
        if block.name == "title":
            legend_ops.extend(title_ops(board, block))
        elif block.name == "zone key":
            legend_ops.extend(key_ops(config, block))
        else:
            legend_ops.extend(table_ops(config, block))
    ops.append(group(legend_ops, "legend"))
    return Scene(tuple(o for o in ops if not (isinstance(o, Group) and not o.items)))

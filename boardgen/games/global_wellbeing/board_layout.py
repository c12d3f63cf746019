"""The flagship board's layout, decided without drawing: the papers its jigsaw sections print on, the sizes a
section may have, where the legend panels go and whether the map needs a panel strip beside it.

Light on imports (no PDF writer): ``GlobalWellbeing.build_board`` and the ``info``/``sections`` commands read it,
and so does every build stage's process, including simulations that never draw.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import shapely

from boardgen.build import BuildContext
from boardgen.cache import cached, entry_path, make_key, peek
from boardgen.errors import ConfigError, LayoutError
from boardgen.games.global_wellbeing.board_art import (
    KEY_FONT,
    LEGEND_LAND_CLEARANCE_MM,
    LEGEND_WHERE,
    TITLE_FONTS,
    coast_near_outline,
    legend_specs,
    legend_tiers,
    legend_words,
    plan_legend,
    simplified_coast,
    simplified_land,
    table_shapes_mm,
)
from boardgen.games.global_wellbeing.schema import Config
from boardgen.geomap.cache import board_key, cached_board, cached_for_board, cached_sections
from boardgen.geomap.model import Board
from boardgen.layout.legend import BlockSpec, PlacedBlock, free_area, place_blocks
from boardgen.layout.sections import SectionLayout, cut_sections, grid_options, hex_polygons, knob_reach_mm
from boardgen.render.cairo_backend import text_width_mm
from boardgen.render.imposition import A4, DEFAULT_STYLE, LETTER, Paper, content_area

SECTION_PAPERS: tuple[Paper, ...] = (A4.landscape(), LETTER.landscape())
"""The papers every section sheet prints on, landscape (a board cut into tall pieces prints them in portrait:
``section_papers``)."""
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                 "twelve")


def count_word(n: int) -> str:
    """A count as the leaflet and the file notes write it: words up to twelve ("nine"), digits beyond."""
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def max_section_size_mm() -> tuple[float, float]:
    """The largest section (knobs included) whose trim fits the content area of every section paper."""
    areas = [content_area(p, DEFAULT_STYLE) for p in SECTION_PAPERS]
    # to the micrometre, so that float noise (251.39999999999998) does not make it differ from the default
    return (round(min(a.width for a in areas), 3), round(min(a.height for a in areas), 3))


def section_page_sizes_mm() -> tuple[tuple[float, float], ...]:
    """The largest section that fits every section paper in landscape, then in portrait: the sizes
    ``cut_sections`` may cut the board to (``sections: auto`` takes the fewest pieces, landscape first)."""
    portrait = [content_area(p.portrait(), DEFAULT_STYLE) for p in SECTION_PAPERS]
    return (max_section_size_mm(),
            (round(min(a.width for a in portrait), 3), round(min(a.height for a in portrait), 3)))


def section_papers(layout: SectionLayout) -> tuple[Paper, ...]:
    """``SECTION_PAPERS`` turned the way the board's sections were cut to fit (landscape unless they are tall)."""
    if layout.page_mm is None or layout.page_mm == section_page_sizes_mm()[0]:
        return SECTION_PAPERS
    return tuple(p.portrait() for p in SECTION_PAPERS)


ART_SOURCES = ("games/global_wellbeing/board_art.py", "games/global_wellbeing/board_layout.py")
"""The files (beyond the board's) that place the legend and the pieces' marks: part of their cache keys."""


def legend_for(board: Board, layout: SectionLayout | None = None, coast: tuple[Any, ...] | None = None
               ) -> tuple[PlacedBlock, ...]:
    """``plan_legend`` of ``board`` on its cut (``layout``, else the cached one), kept in the board cache."""
    layout = cached_sections(board, section_page_sizes_mm()) if layout is None else layout
    specs = legend_tiers(board, layout.sections[0].bounds_mm)
    return cached_for_board(  # type: ignore[no-any-return]
        "legend", board, f"{section_page_sizes_mm()!r} {specs!r} {legend_words()!r}",
        lambda: plan_legend(board, layout, simplified_coast(board) if coast is None else coast, specs),
        ART_SOURCES)


STRIP_EDGE_MM = 6.0 + 4.0
"""A panel strip's room beyond its panels: legend.free_area's edge margin, and a gap before the map's frame."""


def panel_strip_widths_mm(board: Board) -> list[float]:
    """The map-free strips tried on the board's left edge when the legend finds no room in open sea: room for
    the table, then for the table and the key side by side (each with the board's edge margin and a gap)."""
    specs = legend_specs(board, (0.0, 0.0, 0.0, 0.0))
    table_w = max(w for w, _ in specs[0].shapes_mm)
    key_w = min(w for w, _ in specs[1].shapes_mm)
    title_w = min(w for w, _ in specs[2].shapes_mm)
    edge = STRIP_EDGE_MM
    widths = [table_w + edge, table_w + key_w + 4.0 + edge, max(table_w + key_w, title_w) + 8.0 + edge]
    half = board.config.board.width_mm / 2
    return [round(w, 1) for w in widths if w <= half]


def table_has_no_room_on_section_one(config: Config) -> bool:
    """True when the bio-productivity table surely finds no open sea on section 1 of the map as the template fits
    it, whatever cells the hex search then finds, so the legend needs a panel strip (decided before the hex search;
    False means "maybe": the map is built and the legend placed to know). Section 1 is taken at its largest
    (the fewest columns and rows any cut of this board may have, the cut moved its full search away, and a margin
    for knobs and land cells stepped round it); only the coast blocks it (the cells can only block more)."""
    return table_shape_before_the_hex_search(config) is None


def table_shape_before_the_hex_search(config: Config) -> int | None:
    """Which of the table's shapes (full size first, then scaled down) ``table_has_no_room_on_section_one``
    places, None when none has room (0 when no grid fits: the cut names that later). A table scaled down there is
    the sign that the map's cells may leave it no room."""
    return table_room_before_the_hex_search(config)[0]


def table_room_before_the_hex_search(config: Config) -> tuple[int | None, shapely.Geometry | None]:
    """``table_shape_before_the_hex_search`` and the open sea it searched (section 1 at its largest, clear of the
    coast; None when no grid fits)."""
    from boardgen.geomap.build import land_on_board  # only here: reading a cached board needs none of its imports

    width_mm, height_mm = float(config.board.width_mm), float(config.board.height_mm)
    settings = config.sections
    options = grid_options((width_mm, height_mm), settings.knob_depth_mm + 0.5, settings.cut_search_mm,
                           section_page_sizes_mm(), settings.columns, settings.rows)
    if not options:
        return 0, None
    columns, rows = min(c for _, c, _ in options), min(r for r, _, _ in options)
    largest_hex_mm = (width_mm * height_mm / (1.5 * 3**0.5 * config.hexes.target_cells)) ** 0.5
    beyond_mm = settings.cut_search_mm + settings.knob_depth_mm + 2 * largest_hex_mm + 5.0  # + the cut margin
    x1, y1 = min(width_mm, width_mm / columns + beyond_mm), min(height_mm, height_mm / rows + beyond_mm)
    outline = shapely.box(0.0, 0.0, x1, y1)
    _, land_mm, _ = land_on_board(config)
    parts = np.array(simplified_land(land_mm), dtype=object)  # the coast plan_legend keeps clear of, exactly
    coast_near = coast_near_outline(parts, outline)
    area = free_area(outline, (width_mm, height_mm), [], coast_near, cut_margin_mm=0.0,
                     land_clearance_mm=LEGEND_LAND_CLEARANCE_MM)
    try:
        return place_blocks(area, [_corner_table(config)])[0].shape_index, area
    except LayoutError:
        return None, area


def panelled_board(config: Config) -> Board:
    """The board whose legend has room: the template's map when the panels fit without moving it (or when
    board.panel_strip is pinned), else the map fitted beside a reserved panel strip (``LEGEND_FALLBACKS``).
    When the table surely has no room on the template's map (``table_has_no_room_on_section_one``, decided before
    the hex search) that map is never built. The choice is kept in the board cache, so a build's stages, each in
    its own process, make it once. A ConfigError naming a board size that works when nothing does."""
    if config.board.panel_strip_mm is not None:
        return cached_board(config)  # type: ignore[no-any-return]
    width_mm = cached("panel-strip", _panel_strip_key(config), lambda: _panel_strip_mm(config))
    return cached_board(config if width_mm is None else _with_strip(config, width_mm))  # type: ignore[no-any-return]


def _panel_strip_key(config: Config) -> str:
    """The cache key of ``panelled_board``'s choice of panel strip for ``config``."""
    inputs = (f"{section_page_sizes_mm()!r} {table_shapes_mm(config)!r} {table_shapes_mm(config, True)!r} "
              f"{text_width_mm(config.title, TITLE_FONTS[0]):.3f} {text_width_mm(config.title, KEY_FONT):.3f} "
              f"{legend_words()!r}")  # the panels' words in the edition's language
    return make_key("panel-strip", f"{board_key(config)} {inputs}", {}, ART_SOURCES)


def panelled_board_cached(config: Config) -> bool:
    """Whether the board cache holds ``panelled_board(config)``: its choice of panel strip and the map it chose
    (the template's, or the one beside the strip), so reading it back makes nothing."""
    if config.board.panel_strip_mm is None:
        found, width_mm = peek("panel-strip", _panel_strip_key(config))
        if not found:
            return False
        config = config if width_mm is None else _with_strip(config, width_mm)
    return entry_path("board", board_key(config)).is_file()


def _with_strip(config: Config, width_mm: float) -> Config:
    return config.model_copy(update={"board": config.board.model_copy(update={"panel_strip_mm": width_mm})})


def _panel_strip_mm(config: Config) -> float | None:
    """None when the legend has room on the template's map as it is, else the narrowest panel strip that gives it
    room. The strips' widths are measured on the template's map, or, when that map was never built, on the map
    beside the narrowest strip (which holds the table alone: its width does not depend on the map). When the
    template's map is built but its land surely leaves the table no room (``table_has_no_room_beside_the_cells``)
    that map is neither cut nor its legend placed, unless every strip fails (its error is the one reported)."""
    template_error: LayoutError | None = None
    surely_no_room = False
    shape_before_hexes, sea_before_hexes = table_room_before_the_hex_search(config)
    if shape_before_hexes is None:
        narrowest = round(max(w for w, _ in table_shapes_mm(config)) + STRIP_EDGE_MM, 1)
        fits = narrowest <= config.board.width_mm / 2
        measured = cached_board(_with_strip(config, narrowest) if fits else config)
    else:
        measured = cached_board(config)
        coast = simplified_coast(measured)
        # only worth its time when the table was already tight before the hex search (the default's is not)
        surely_no_room = shape_before_hexes > 0 and table_has_no_room_beside_the_cells(measured, coast,
                                                                                         sea_before_hexes)
        if not surely_no_room:
            try:
                legend_for(measured, coast=coast)
                return None
            except LayoutError as exc:
                template_error = exc
    widths = panel_strip_widths_mm(measured)
    strip_error: LayoutError | None = None
    for width_mm in widths:
        try:
            legend_for(cached_board(_with_strip(config, width_mm)))
        except LayoutError as exc:
            strip_error = strip_error or exc
            continue
        return width_mm
    if surely_no_room:  # the template map's own error, as if it had been tried first
        try:
            legend_for(measured, coast=coast)
        except LayoutError as exc:
            template_error = exc
    error = template_error or strip_error
    if error is None:
        error = LayoutError(f"board: no room for the bio-productivity table in open sea on {LEGEND_WHERE}")
    if _SIZING_BOARD:  # a board tried by _board_size_that_fits: no search of its own
        raise error
    _SIZING_BOARD.append(True)
    try:
        key, hint = _board_size_that_fits(config, measured)
    finally:
        _SIZING_BOARD.clear()
    raise ConfigError(config.source, key, f"{str(error).removeprefix('board: ')}, nor scaled down, nor in a "
                      f"panel strip of up to {max(widths, default=0):g} mm "
                      f"(boardgen info lists the fallbacks); expected {hint}") from None


CLEARANCE_SLACK_MM = 0.01
"""How much closer to land ``table_has_no_room_beside_the_cells`` lets the table come than ``plan_legend`` does:
more than the few micrometres by which two buffers of nearly the same land may differ, so its area holds
``plan_legend``'s."""


def table_has_no_room_beside_the_cells(board: Board, coast: tuple[Any, ...] | None = None,
                                       sea_before_hexes: shapely.Geometry | None = None) -> bool:
    """True when the bio-productivity table (full size or scaled down) surely finds no open sea on section 1 of
    any cut ``cut_sections`` may make of ``board``, so ``plan_legend`` would fail on it (every fallback keeps
    the table there); False means "maybe". Section 1 is taken at its largest: the fewest columns and rows of the
    grids the cut may try, its cut lines moved their full search away, reaching past them by a knob or two land
    cells stepped round, with no cut margin; the land cells and coast are kept clear as ``plan_legend`` keeps them
    (a hair less: ``CLEARANCE_SLACK_MM``). Its free area holds ``plan_legend``'s, on the same 1 mm grid, so no
    room here is no room there. It saves cutting a map that only fails, before its panel strip is tried.
    ``coast``: the board's ``simplified_coast`` when the caller has it. ``sea_before_hexes``: the open sea the
    check before the hex search found on this board's map, when the caller has it: when the table has room in it
    beside the cells, the answer is "maybe" without buffering the coast again (that sea keeps the full clearance
    from the coast, so it lies inside the area searched here)."""
    config = board.config
    width_mm, height_mm = float(config.board.width_mm), float(config.board.height_mm)
    settings = config.sections
    options = grid_options((width_mm, height_mm), knob_reach_mm(board), settings.cut_search_mm,
                           section_page_sizes_mm(), settings.columns, settings.rows)[:8]  # _cut_first_that_works'
    if not options:
        return False
    columns, rows = min(c for _, c, _ in options), min(r for r, _, _ in options)
    beyond_mm = settings.cut_search_mm + 0.25 + settings.knob_depth_mm + 2 * board.layout.size_mm + 1.0
    outline = shapely.box(0.0, 0.0, min(width_mm, width_mm / columns + beyond_mm),
                          min(height_mm, height_mm / rows + beyond_mm))
    table = [_corner_table(config)]
    clearance_mm = LEGEND_LAND_CLEARANCE_MM - CLEARANCE_SLACK_MM
    hexes = np.asarray(hex_polygons(board), dtype=object)
    near_cells = hexes[shapely.intersects(hexes, outline.buffer(clearance_mm + 1.0))]
    cells_kept_clear = shapely.union_all(near_cells).buffer(clearance_mm) if len(near_cells) else None
    if sea_before_hexes is not None:
        sea = shapely.intersection(sea_before_hexes, outline)
        if _table_placed(sea if cells_kept_clear is None else shapely.difference(sea, cells_kept_clear), table):
            return False
    parts = np.array(simplified_coast(board) if coast is None else coast, dtype=object)
    coast_near = coast_near_outline(parts, outline)
    area = free_area(outline, (width_mm, height_mm), [], coast_near, cut_margin_mm=0.0,
                     land_clearance_mm=clearance_mm)
    return not _table_placed(area if cells_kept_clear is None else shapely.difference(area, cells_kept_clear),
                             table)


def _corner_table(config: Config) -> BlockSpec:
    """The bio-productivity table as the checks before the cut place it: every shape it may take (full size,
    then scaled down), anchored at the board's top-left corner."""
    return BlockSpec("bio-productivity table", (*table_shapes_mm(config), *table_shapes_mm(config, compact=True)),
                     (0.0, 0.0))


def _table_placed(area: shapely.Geometry, table: list[BlockSpec]) -> bool:
    try:
        place_blocks(area, table)
    except LayoutError:
        return False
    return True


_SIZING_BOARD: list[bool] = []
"""Not empty while ``_board_size_that_fits`` lays out the boards it tries (their failures need no size search)."""
BOARD_STEP_MM = 10
"""The resolution of the board size named when the legend finds no room."""
MAX_BOARD_MM = 3000
"""The largest board side a template may ask for (config.py)."""


def _legend_fits_without_land(config: Config, board: Board) -> bool:
    """Whether the legend could find room on a board of ``config``'s size if it had no land at all (a necessary
    condition, fast: no map is built). The panels' sizes do not depend on the map."""
    empty = dataclasses.replace(board, config=config, cells=())
    try:
        layout = cut_sections(empty, section_page_sizes_mm())
        plan_legend(empty, layout, (), legend_tiers(empty, layout.sections[0].bounds_mm))
    except (LayoutError, ConfigError):
        return False
    return True


def _legend_fits(config: Config) -> bool:
    """Whether the whole solver (the map, its panel strip, the cut, the legend) lays out ``config``."""
    try:
        legend_for(panelled_board(config))
    except (LayoutError, ConfigError):
        return False
    return True


def _board_size_that_fits(config: Config, board: Board) -> tuple[str, str]:
    """(key, text): the smallest taller board (same width), then the smallest wider one (same height), to
    BOARD_STEP_MM, on which the legend solver places every panel. The size is searched with the board's land left
    out (no map needed: doubling the step until the panels fit, then halving back), then checked by laying that
    board out in full, BOARD_STEP_MM larger each time if needed (at most five full layouts each way)."""
    width_mm, height_mm = float(config.board.width_mm), float(config.board.height_mm)

    def resized(key: str, size_mm: float) -> Config:
        width, height = (width_mm, size_mm) if key == "board.height" else (size_mm, height_mm)
        return config.model_copy(update={"board": config.board.model_copy(update={"width_mm": width,
                                                                                  "height_mm": height})})

    found: list[tuple[str, str]] = []
    for key, other in (("board.height", "board.width"), ("board.width", "board.height")):
        start, kept = (height_mm, width_mm) if key == "board.height" else (width_mm, height_mm)
        low, step = start, BOARD_STEP_MM
        while start + step <= MAX_BOARD_MM and not _legend_fits_without_land(resized(key, start + step), board):
            low, step = start + step, step * 2
        high = start + step
        if high > MAX_BOARD_MM:
            continue
        while high - low > BOARD_STEP_MM:  # the panels fit at high, not at low
            middle = low + round((high - low) / 2 / BOARD_STEP_MM) * BOARD_STEP_MM
            low, high = (low, middle) if _legend_fits_without_land(resized(key, middle), board) else (middle, high)
        for size_mm in [high + k * BOARD_STEP_MM for k in range(5)]:
            if size_mm <= MAX_BOARD_MM and _legend_fits(resized(key, size_mm)):
                found.append((key, f"{key}: {size_mm:g}mm (with {other} {kept:g}mm)"))
                break
    if not found:
        return "board", f"a larger board (none up to {MAX_BOARD_MM} mm taller or wider places every panel)"
    return found[0][0], " or ".join(text for _, text in found)


def board_sections(ctx: BuildContext) -> SectionLayout:
    """The board's jigsaw cut, computed once per build (the board stage and validation both read it) and kept in
    the board cache (boardgen/cache.py) beside the board it was cut from."""
    return ctx.value("sections", lambda: cached_sections(ctx.board, section_page_sizes_mm()))  # type: ignore[no-any-return]


def board_legend(ctx: BuildContext) -> tuple[PlacedBlock, ...]:
    """Where the title, zone key and table sit, computed once per build and kept in the board cache: the key
    holds the blocks' sizes as the installed fonts measure them, so a font change places them again."""
    return ctx.value("legend", lambda: legend_for(ctx.board, board_sections(ctx), board_coast(ctx)))  # type: ignore[no-any-return]


def board_coast(ctx: BuildContext) -> tuple[Any, ...]:
    return ctx.value("coast", lambda: simplified_coast(ctx.board))  # type: ignore[no-any-return]

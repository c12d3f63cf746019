"""What `boardgen info` and `boardgen sections` say of the Global Wellbeing board beyond the map's own facts: where
the legend panels go (and in which of the fallbacks), and the jigsaw cut with its one-way-fit proof."""

from __future__ import annotations

from boardgen.errors import ConfigError, LayoutError, blamed_on
from boardgen.games.global_wellbeing.board_art import LEGEND_FALLBACKS, legend_specs
from boardgen.games.global_wellbeing.board_layout import legend_for, panelled_board, section_page_sizes_mm
from boardgen.geomap.cache import cached_sections
from boardgen.plugin import BuildContext


def map_info(ctx: BuildContext) -> tuple[list[str], bool]:
    """The legend's fallbacks in the order they are tried, the jigsaw grid and where the panels went; False when
    the panels find no room."""
    config = ctx.config
    lines = ["legend panels, tried in this order (never over a land cell):"]
    lines += [f"  {i}. {fallback}" for i, fallback in enumerate(LEGEND_FALLBACKS, 1)]
    lines.append("  (the central meridian, map.projection's lon_0, is never moved: where the map is cut is yours)")
    try:
        board = panelled_board(config)
    except (LayoutError, ConfigError) as exc:  # no room for the legend (a ConfigError naming a board that has)
        if isinstance(exc, ConfigError) and not exc.key.startswith("board"):
            raise
        return [*lines, f"legend      no room: {exc}"], False
    with blamed_on(config.source):
        layout = cached_sections(board, section_page_sizes_mm())  # the build's cut, from the board cache
        legend = legend_for(board, layout)
    grid = "auto" if config.sections.columns is None or config.sections.rows is None else "pinned"
    page_w, page_h = layout.page_mm or (0.0, 0.0)
    lines.append(f"sections    {layout.columns} columns x {layout.rows} rows ({grid}), "
                 f"{'portrait' if page_h > page_w else 'landscape'} A4 and Letter")
    strip = board.config.board.panel_strip_mm
    table = next(b for b in legend if b.name == "bio-productivity table")
    full = legend_specs(board, layout.sections[0].bounds_mm)[0].shapes_mm[0][1]
    away = any(not layout.sections[0].outline_mm.contains(b.polygon) for b in legend)
    used = 4 if strip else 3 if away else 2 if abs(table.height_mm - full) > 1e-6 else 1
    where = ", ".join(f"{b.name} {b.width_mm:.0f} x {b.height_mm:.0f} mm at ({b.x_mm:.0f}, {b.y_mm:.0f})"
                      for b in legend)
    lines.append(f"legend      way {used}" + (f" (panel strip {strip:g} mm)" if strip else "") + f": {where}")
    return lines, True


def sections_report(ctx: BuildContext) -> list[str]:
    """The cut lines, each section's size, cells and knobs, and the unique-fit proof."""
    config = ctx.config
    with blamed_on(config.source):
        board = panelled_board(config)  # the map the build cuts (beside a panel strip when the legend needs one)
        layout = cached_sections(board, section_page_sizes_mm())
    xs = ", ".join(f"{x:.2f}" for x in layout.cuts_x_mm)
    ys = ", ".join(f"{y:.2f}" for y in layout.cuts_y_mm)
    grid = "auto" if config.sections.columns is None or config.sections.rows is None else "pinned"
    page_w, page_h = layout.page_mm or (0.0, 0.0)
    lines = [f"{config.title}: {len(layout.sections)} sections ({layout.rows} rows x {layout.columns} columns, "
             f"{grid}; {'portrait' if page_h > page_w else 'landscape'} A4 and Letter); straight cuts "
             f"at x = {xs} mm and y = {ys} mm, stepping round {layout.cut_cost_mm2:.0f} mm² of land cells"]
    for s in layout.sections:
        x0, y0, x1, y1 = s.bounds_mm
        neighbours = ", ".join(f"{side} {n}" for side, n in s.neighbours.items())
        lines.append(f"  section {s.number}: {x1 - x0:6.1f} x {y1 - y0:5.1f} mm with knobs, {len(s.cells):3d} land "
                     f"cells; neighbours: {neighbours}")
    for k in layout.knobs:
        e = k.edge
        other = e.second if k.owner == e.first else e.first
        shape = f"cell {k.cell} moves to {k.owner + 1}" if k.cell else f"tab of {k.owner + 1} into {other + 1}"
        lines.append(f"  knob {e.first + 1}|{e.second + 1}: {shape} at "
                     f"({k.centre_mm[0]:.1f}, {k.centre_mm[1]:.1f}) mm, {k.owner_offset_mm():+.1f} mm from the middle")
    fit = layout.fit
    lines.append(f"fit: {fit.nodes} placements tried, {fit.raw_solutions} solutions = {len(fit.assemblies)} distinct "
                 f"assembly (turning the whole board gives the same one); {len(fit.impostors)} impostors")
    return lines

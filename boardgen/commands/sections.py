"""`boardgen sections`: how the board is cut into jigsaw sections, and the proof that they fit one way only."""

from __future__ import annotations

from pathlib import Path

import click

from boardgen.commands.options import template_option
from boardgen.errors import blamed_on
from boardgen.layout.sections import cut_sections
from boardgen.template import load_map_template as load_template


@click.command("sections")
@template_option
def sections_command(template_path: Path | None) -> None:
    """Print the cut lines, each section's size, cells and knobs, and the unique-fit proof."""
    from boardgen.games.global_wellbeing.board_layout import panelled_board, section_page_sizes_mm

    config = load_template(template_path)
    with blamed_on(config.source):
        board = panelled_board(config)  # the map the build cuts (beside a panel strip when the legend needs one)
        layout = cut_sections(board, section_page_sizes_mm())
    xs = ", ".join(f"{x:.2f}" for x in layout.cuts_x_mm)
    ys = ", ".join(f"{y:.2f}" for y in layout.cuts_y_mm)
    grid = "auto" if config.sections.columns is None or config.sections.rows is None else "pinned"
    page_w, page_h = layout.page_mm or (0.0, 0.0)
    click.echo(f"{config.title}: {len(layout.sections)} sections ({layout.rows} rows x {layout.columns} columns, "
               f"{grid}; {'portrait' if page_h > page_w else 'landscape'} A4 and Letter); straight cuts "
               f"at x = {xs} mm and y = {ys} mm, stepping round {layout.cut_cost_mm2:.0f} mm² of land cells")
    for s in layout.sections:
        x0, y0, x1, y1 = s.bounds_mm
        neighbours = ", ".join(f"{side} {n}" for side, n in s.neighbours.items())
        click.echo(f"  section {s.number}: {x1 - x0:6.1f} x {y1 - y0:5.1f} mm with knobs, {len(s.cells):3d} land "
                   f"cells; neighbours: {neighbours}")
    for k in layout.knobs:
        e = k.edge
        other = e.second if k.owner == e.first else e.first
        shape = f"cell {k.cell} moves to {k.owner + 1}" if k.cell else f"tab of {k.owner + 1} into {other + 1}"
        click.echo(f"  knob {e.first + 1}|{e.second + 1}: {shape} at "
                   f"({k.centre_mm[0]:.1f}, {k.centre_mm[1]:.1f}) mm, {k.owner_offset_mm():+.1f} mm from the middle")
    fit = layout.fit
    click.echo(f"fit: {fit.nodes} placements tried, {fit.raw_solutions} solutions = {len(fit.assemblies)} distinct "
               f"assembly (turning the whole board gives the same one); {len(fit.impostors)} impostors")

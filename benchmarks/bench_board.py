"""Board rendering time: cut + legend, poster PDF, section PDFs (A4 and Letter), cut SVG, previews.

Run: python benchmarks/bench_board.py
"""

from __future__ import annotations

import time

from boardgen.games.global_wellbeing.board_art import make_art
from boardgen.games.global_wellbeing.board_layout import max_section_size_mm
from boardgen.games.global_wellbeing.kit import art_board
from boardgen.games.global_wellbeing.schema import load_template
from boardgen.geomap.build import build_board
from boardgen.geomap.jigsaw import (
    cut_svg,
    piece_marks,
    poster_page,
    section_scenes,
    sections_geojson,
    sections_pdfs,
)
from boardgen.kit.board import SECTIONS_PREVIEW_DPI, SECTIONS_PREVIEW_GAP_MM, board_poster
from boardgen.layout.sections import cut_sections
from boardgen.render.board_print import exploded_page
from boardgen.render.cairo_backend import render_png


def main() -> None:
    config = load_template()
    board = build_board(config)
    timings: list[tuple[str, float]] = []

    def timed(name, func, *args):
        started = time.perf_counter()
        result = func(*args)
        timings.append((name, time.perf_counter() - started))
        return result

    layout = timed("cut sections + fit proof", cut_sections, board, max_section_size_mm())
    art = timed("legend placement + coastlines", make_art, board, layout)
    declared = timed("board picture", art_board, art)
    poster = timed("poster scene", poster_page, declared)
    poster_pdf = timed("poster PDF", board_poster, declared)
    marks = timed("in-piece marks (9 sections)", piece_marks, board, layout, art.coast_mm,
                  [b.polygon for b in art.legend])
    scenes = timed("section scenes (9)", section_scenes, declared, marks)
    timed("sections PDFs (A4 + Letter, the poster as art)", sections_pdfs, declared, scenes, poster_pdf)
    timed("cut SVG", cut_svg, declared)
    timed("sections GeoJSON", sections_geojson, layout, marks)
    timed("preview/board.png", render_png, poster, 40.0)
    timed("preview/sections.png", lambda: render_png(exploded_page(declared.width_mm, declared.height_mm, layout,
                                                                   scenes, SECTIONS_PREVIEW_GAP_MM),
                                                     SECTIONS_PREVIEW_DPI))
    for name, seconds in timings:
        print(f"{name:<38} {seconds:6.2f} s")
    total = sum(s for _, s in timings)
    print(f"{'board rendering total':<38} {total:6.2f} s")
    from boardgen.build import BuildContext
    from boardgen.kit.stages import board_stage

    ctx = BuildContext(config)
    ctx.computed["board"] = board
    started = time.perf_counter()
    board_stage(ctx)
    print(f"{'whole board stage (cached cut)':<38} {time.perf_counter() - started:6.2f} s")
    print(f"fit solver: {layout.fit.nodes} placements tried, {layout.fit.raw_solutions} solutions "
          f"({len(layout.fit.assemblies)} distinct assembly)")


if __name__ == "__main__":
    main()

"""Time each part of the components stage (parts, sheets on A4 and Letter, cut SVG, previews, leaflet, zips).

Run: python benchmarks/bench_components.py [--repeat N] [--synthetic]
--synthetic uses a small hand-made board instead of building the real map (no data files needed).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from boardgen.build import BuildContext
from boardgen.cards.kitfiles import deterministic_zip
from boardgen.games.global_wellbeing.kit import (
    build_components,
    component_sets,
    isolated_cells,
    kit_files,
)
from boardgen.games.global_wellbeing.leaflet import leaflet_pdf
from boardgen.games.global_wellbeing.minimap import leaflet_pictures
from boardgen.games.global_wellbeing.schema import load_template
from boardgen.kit.cut_edition import cut_sheet_svgs
from boardgen.render.cairo_backend import render_png
from boardgen.render.imposition import A4, LETTER, PRINT_CUT_MARKS


def _board(synthetic: bool):
    config = load_template()
    if synthetic:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from test_cards_components import tiny_board

        return config, tiny_board(config)
    from boardgen.geomap.build import build_board

    return config, build_board(config)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--synthetic", action="store_true")
    args = parser.parse_args()
    config, board = _board(args.synthetic)
    times: dict[str, list[float]] = {}

    @contextmanager
    def timer(name: str) -> Iterator[None]:
        start = time.perf_counter()
        yield
        times.setdefault(name, []).append(time.perf_counter() - start)

    for _ in range(args.repeat):
        with timer("parts"):
            sets = component_sets(config, board.layout.size_mm)
        with timer("sheets+pdf A4"):
            kit_a4 = build_components(config, sets, A4)
        with timer("sheets+pdf Letter"):
            kit_letter = build_components(config, sets, LETTER)
        with timer("print-then-cut sheets + one cut svg per sheet (A4 + Letter)"):
            for paper in (A4, LETTER):
                cut_sheet_svgs(build_components(config, sets, paper, PRINT_CUT_MARKS))
        with timer("previews (A4, 40 dpi)"):
            [render_png(p, 40) for p in kit_a4.pages]
        with timer("leaflet pictures (vector map, icons)"):
            pictures, isolated = leaflet_pictures(board), isolated_cells(board)
        with timer("leaflet (A4 + Letter)"):
            leaflet_pdf(config, A4, pictures, isolated), leaflet_pdf(config, LETTER, pictures, isolated)
        with timer("zips"):
            deterministic_zip([("a.pdf", kit_a4.pdf), ("b.pdf", kit_letter.pdf)])
        ctx = BuildContext(config)
        ctx.computed["board"] = board
        with timer("whole components stage"):
            kit_files(ctx)
    pages = len(kit_a4.pages), len(kit_letter.pages)
    print(f"components: {pages[0]} A4 pages, {pages[1]} Letter pages; board hex {board.layout.size_mm:.2f} mm;"
          f" {args.repeat} runs, median (min) seconds")
    for name, values in times.items():
        print(f"  {name:<26} {statistics.median(values):6.3f}  ({min(values):.3f})")


if __name__ == "__main__":
    main()

"""Time the map stage of the default template: each step, the whole map build, and the export.

    python benchmarks/bench_map.py [--repeat 3]

Prints the best of the repeats (the first run also pays for imports and the data files' first read).
"""

from __future__ import annotations

import argparse
import time

from boardgen.export import adjacency_json, cells_csv, cells_geojson
from boardgen.games.global_wellbeing.schema import load_template
from boardgen.geomap.build import build_board
from boardgen.geomap.projection import land, rasters
from boardgen.render.map_preview import map_preview_png


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    config = load_template()
    runs = []
    for _ in range(args.repeat):
        land.load_land.cache_clear()
        rasters.load_koppen.cache_clear()
        rasters.load_elevation.cache_clear()
        started = time.perf_counter()
        board = build_board(config)
        stats = dict(board.stats)
        t = time.perf_counter()
        cells_geojson(board), cells_csv(board), adjacency_json(board)
        stats["export_s"] = time.perf_counter() - t
        t = time.perf_counter()
        map_preview_png(board)
        stats["preview_s"] = time.perf_counter() - t
        stats["map_stage_s"] = time.perf_counter() - started
        runs.append(stats)
    best = min(runs, key=lambda s: s["map_stage_s"])
    print(f"map build of {config.edition}: {len(board.cells)} cells, hex {best['hex_size_mm']:g} mm, "
          f"{best['sizes_tried']} sizes tried, {best['land_pixels']:,} land pixels (best of {args.repeat})")
    for key in ("load_s", "project_s", "sample_s", "lattice_s", "cells_s", "total_s", "export_s", "preview_s",
                "map_stage_s"):
        print(f"  {key[:-2]:<10} {best[key]:6.3f} s")


if __name__ == "__main__":
    main()

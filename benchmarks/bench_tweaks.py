"""Whole-kit build time of tweaked Global Wellbeing templates against the default template, timed in the same run.

Each build starts from an empty board cache (a fresh BOARDGEN_CACHE_DIR) and projects the land afresh, as a
designer's first build after a tweak does; the decoded data files are read once beforehand so every build pays the
same for them. Printed per tweak: wall and CPU seconds (the process and its forked stages: steadier than wall time
on a shared machine), land cells, jigsaw pieces, the CPU ratio to the default build and that ratio divided by the
cells' ratio when there are more cells (the yardstick: no slower than the default plus the extra cells' cost).
Then a cost model: the CPU seconds each extra piece costs (from ``pieces-4x3``: the default map, only more pieces)
and what that predicts for every tweak with more pieces than the default, against what it took.

Every build is made ``--repeat`` times, the tweaks in turn (default, then each tweak, then the default again...),
each in a child forked from a process warmed by one untimed build of the default (so no timed build pays the
first imports, and none inherits what another built); each figure is the least of its repeats, the steadiest
estimate on a machine shared with other work.

Run: python benchmarks/bench_tweaks.py [--only board-A1,pieces-4x3,raster-A1px] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

TWEAKS: dict[str, dict[str, Any]] = {
    "default": {},
    "cells-150": {"hexes": {"target_cells": 150}},
    "cells-600": {"hexes": {"target_cells": 600}},
    "robinson": {"map": {"projection": "+proj=robin"}},
    "eqearth": {"map": {"projection": "+proj=eqearth"}},
    "natearth": {"map": {"projection": "+proj=natearth"}},
    "mollweide": {"map": {"projection": "+proj=moll"}},
    "eckert4": {"map": {"projection": "+proj=eck4"}},
    "pacific": {"map": {"projection": "+proj=wintri +lon_0=150"}},
    "atlantic": {"map": {"projection": "+proj=wintri +lon_0=-30"}},
    "antarctica": {"map": {"antarctica": True, "frame_latitudes": [-90, 90]}},
    "flat": {"hexes": {"orientation": "flat"}},
    "board-50x35": {"board": {"width": "50cm", "height": "35cm"}},
    "board-A1": {"board": {"width": "841mm", "height": "594mm"}},
    "pieces-4x3": {"sections": {"columns": 4, "rows": 3}},
    "raster-A1px": {"map": {"raster": "0.381mm"}},
}
"""``pieces-4x3`` is the default board cut into 4 x 3 pieces (its legend still in open sea): the cost of more
pieces on their own, for the cost model; ``raster-A1px`` samples the default board as finely as A1's 0.5 mm raster
samples A1 (as many pixels: 660 x 440 / 0.381² = 841 x 594 / 0.5²), the cost of a bigger board's pixels on their
own."""


def _cpu_s() -> float:
    """CPU seconds of this process and its finished children (the build's forked stages)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _with_data_files(cache: str, data_cache: Path) -> None:
    """Make ``cache`` the board cache, holding only the decoded data files (no board, cut or legend)."""
    for kind in ("land", "koppen", "elevation"):
        for data in data_cache.glob(f"{kind}-*"):
            (Path(cache) / data.name).write_bytes(data.read_bytes())
    os.environ["BOARDGEN_CACHE_DIR"] = cache


def warm_up(data_cache: Path) -> None:
    """One untimed build of the default in this process: every timed build's child then starts with the imports
    done (fonts, PDF writer, compiled kernels), as a warm process would."""
    from boardgen.build import build
    from boardgen.games.global_wellbeing.schema import template_with

    with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as cache:
        _with_data_files(cache, data_cache)
        build(template_with({}), Path(out))


def build_once(changes: dict[str, Any], data_cache: Path) -> tuple[float, float, int, int, float]:
    """(wall s, CPU s, land cells, pieces, raster pixels in millions) of one whole-kit build from a cold cache, made
    in a child forked from this process: every build starts from the same warm process, and no build leaves
    another the land it projected or garbage to collect."""
    from boardgen.build import build
    from boardgen.games.global_wellbeing.board_layout import panelled_board, section_page_sizes_mm
    from boardgen.games.global_wellbeing.schema import template_with
    from boardgen.geomap import build as map_build
    from boardgen.geomap.cache import cached_sections

    config = template_with(changes)
    map_build._LAND_ON_BOARD.clear()  # the land projected by this process's untimed build: a CLI build has none
    with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as cache:
        _with_data_files(cache, data_cache)
        read, write = os.pipe()
        started, cpu = time.perf_counter(), _cpu_s()
        pid = os.fork()
        if pid == 0:  # the child: the build, then its cell and piece counts sent back
            status = 1
            try:
                os.close(read)
                _, ctx = build(config, Path(out))
                pieces = len(cached_sections(panelled_board(config), section_page_sizes_mm()).sections)  # cached
                os.write(write, f"{len(ctx.board.cells)} {pieces}".encode())
                status = 0
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(status)
        os.close(write)
        _, status = os.waitpid(pid, 0)
        seconds, cpu_s = time.perf_counter() - started, _cpu_s() - cpu
        counts = os.read(read, 64).decode().split()
        os.close(read)
    if status != 0 or len(counts) != 2:
        raise RuntimeError(f"the build of {changes} failed (see above)")
    pixels = config.board.width_mm * config.board.height_mm / config.map.raster_mm**2 / 1e6
    return seconds, cpu_s, int(counts[0]), int(counts[1]), pixels


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated tweak names besides the default")
    parser.add_argument("--repeat", type=int, default=1, help="builds of each tweak; the least time counts")
    args = parser.parse_args(argv)
    only = set(filter(None, args.only.split(",")))
    names = ["default", *(n for n in TWEAKS if n != "default" and (not only or n in only))]
    with tempfile.TemporaryDirectory() as data_cache:
        os.environ["BOARDGEN_CACHE_DIR"] = data_cache
        from boardgen.games.global_wellbeing.schema import template_with
        from boardgen.geomap.build import build_board

        build_board(template_with({}))  # decodes the data files into data_cache once
        for stale in Path(data_cache).glob("board-*"):
            stale.unlink()
        warm_up(Path(data_cache))
        runs: dict[str, list[tuple[float, float, int, int, float]]] = {name: [] for name in names}
        for _ in range(max(1, args.repeat)):
            for name in names:
                runs[name].append(build_once(TWEAKS[name], Path(data_cache)))
        results = {name: (min(r[0] for r in done), min(r[1] for r in done), *done[0][2:])
                   for name, done in runs.items()}
    _, default_cpu, default_cells, default_pieces, default_pixels = results["default"]
    print(f"{'tweak':<14} {'wall s':>7} {'CPU s':>7} {'cells':>6} {'pieces':>6} {'Mpx':>5} {'CPU x default':>14} "
          f"{'x per cell':>11}")
    for name, (seconds, cpu_s, cells, pieces, pixels) in results.items():
        ratio = cpu_s / default_cpu
        print(f"{name:<14} {seconds:7.2f} {cpu_s:7.2f} {cells:6d} {pieces:6d} {pixels:5.2f} {ratio:14.2f} "
              f"{ratio / max(1.0, cells / default_cells):11.2f}")
    per_piece = per_mpx = 0.0
    if "pieces-4x3" in results:
        _, cpu_more, _, pieces_more, _ = results["pieces-4x3"]
        per_piece = (cpu_more - default_cpu) / max(1, pieces_more - default_pieces)
    if "raster-A1px" in results:
        _, cpu_fine, _, _, pixels_fine = results["raster-A1px"]
        per_mpx = (cpu_fine - default_cpu) / max(1e-9, pixels_fine - default_pixels)
    print(f"\ncost model: CPU s = {default_cpu:.2f} (default: {default_pieces} pieces, {default_pixels:.2f} Mpx) "
          f"+ {per_piece:.3f} per extra piece (pieces-4x3) + {per_mpx:.3f} per extra million raster pixels "
          f"(raster-A1px)")
    for name, (_, cpu_s, _, pieces, pixels) in results.items():
        if name in ("default", "pieces-4x3", "raster-A1px") or (pieces <= default_pieces and pixels <= default_pixels):
            continue
        predicted = (default_cpu + per_piece * max(0, pieces - default_pieces)
                     + per_mpx * max(0.0, pixels - default_pixels))
        print(f"  {name}: {pieces} pieces, {pixels:.2f} Mpx: predicted {predicted:.2f} CPU s, took {cpu_s:.2f} "
              f"({cpu_s / predicted:.2f} x the prediction)")


if __name__ == "__main__":
    main()

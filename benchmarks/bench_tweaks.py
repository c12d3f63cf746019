"""Whole-kit build time of tweaked Global Wellbeing templates against the default template, timed in the same run.

Each build starts from an empty board cache (a fresh BOARDGEN_CACHE_DIR) and projects the land afresh, as a
designer's first build after a tweak does; the decoded data files (and the land without Antarctica, derived from
its file alone: ``cache.cached_data``) are made once beforehand, as a designer's earlier builds left them, so every
build pays the same for them. Printed per tweak: wall and CPU seconds (the process and its forked stages: steadier
than wall time on a shared machine), land cells, jigsaw pieces, the CPU ratio to the default build and that ratio
divided by the cells' ratio when there are more cells (the yardstick: no slower than the default plus the extra
cells' cost).
Then a cost model: the CPU seconds each extra piece costs (from ``pieces-4x3``: the default map, only more pieces)
and what that predicts for every tweak with more pieces than the default, against what it took.

Every build is made ``--repeat`` times, the tweaks in turn (default, then each tweak, then the default again...),
each in a child forked from a process warmed by one untimed build of the default (so no timed build pays the
first imports, and none inherits what another built); each figure is the least of its repeats, the steadiest
estimate on a machine shared with other work.

Every build finds the rules kernels compiled, as ``scripts/setup.sh`` leaves them (the cache's ``numba`` folder
is linked into each build's cache; without it, `validate` plays its games through the rules API and every build
pays about a second more, the same for every tweak).

``--since COMMIT`` times whole ``boardgen build`` commands instead (interpreter start and imports included): the
default template's build at COMMIT (a ``git archive`` of it, with its own decoded data files) against this
checkout's builds of the default and of each tweak, interleaved the same way. Each runs as its console script
does (the entry its ``pyproject.toml`` declares for ``boardgen``), from bytecode (``compileall`` first, as an
installed boardgen does). Both checkouts find their own rules
kernels compiled: each one's untimed first build runs with ``BOARDGEN_ENGINE=kernel``, which compiles its kernel
into the same ``numba`` folder (each kernel in a folder named after its sources) if it is not there yet. The speed
rule's "the default build does today" is main's default build on the day the rule was set: ``REFERENCE_DAY``, the
default commit.

Run: python benchmarks/bench_tweaks.py [--only board-A1,pieces-4x3,raster-A1px] [--repeat 3] [--since [COMMIT]]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as timings  # type: ignore[import-not-found]

ROOT = Path(__file__).resolve().parent.parent
REFERENCE_DAY = "87b3079ea420de3032e083cd05ceb9ea2eaf13b0"
"""Main on the day the rule "each tweaked build takes no longer than the default build does today plus the extra
cells' cost" was set (its default template: 300 cells, Winkel tripel, 66 x 44 cm, 3 x 3 sections)."""
DATA_KINDS = ("land", "koppen", "elevation")

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
pieces on their own, for the cost model; ``raster-A1px`` samples the default board with as many pixels as a 0.5 mm
raster puts on A1 (660 x 440 / 0.381² = 841 x 594 / 0.5²), the cost of a bigger board's pixels on their own (A1's
own raster is automatic: 0.656 mm, as many pixels as the default board's, ``geomap.spec.raster_step_mm``)."""


def _cpu_s() -> float:
    """CPU seconds of this process and its finished children (the build's forked stages)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def compiled_kernels() -> Path | None:
    """The folder of the rules kernels compiled by ``scripts/setup.sh`` (this process's cache folder's
    ``numba``), or None with a notice when there is none."""
    from boardgen.cache import cache_dir

    kernels = cache_dir() / "numba"
    if kernels.is_dir():
        return kernels
    print(f"no compiled rules kernels in {kernels}: validation plays through the rules API in every build "
          "(scripts/setup.sh compiles them)", flush=True)
    return None


def _with_data_files(cache: str, data_cache: Path, kernels: Path | None = None) -> None:
    """Make ``cache`` the board cache, holding only the decoded data files (no board, cut or legend) and, linked,
    the compiled kernels."""
    for kind in DATA_KINDS:
        for data in data_cache.glob(f"{kind}-*"):
            (Path(cache) / data.name).write_bytes(data.read_bytes())
    if kernels is not None:
        (Path(cache) / "numba").symlink_to(kernels, target_is_directory=True)
    os.environ["BOARDGEN_CACHE_DIR"] = cache


def warm_up(data_cache: Path, kernels: Path | None) -> None:
    """One untimed build of the default in this process: every timed build's child then starts with the imports
    done (fonts, PDF writer, compiled kernels), as a warm process would."""
    from boardgen.build import build
    from boardgen.games.global_wellbeing.schema import template_with

    with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as cache:
        _with_data_files(cache, data_cache, kernels)
        build(template_with({}), Path(out))


def build_once(changes: dict[str, Any], data_cache: Path, kernels: Path | None
               ) -> tuple[float, float, int, int, float]:
    """(wall s, CPU s, land cells, pieces, raster pixels in millions) of one whole-kit build from a cold cache, made
    in a child forked from this process: every build starts from the same warm process, and no build leaves
    another the land it projected or garbage to collect."""
    from boardgen.build import build
    from boardgen.games.global_wellbeing.board_layout import panelled_board, section_page_sizes_mm
    from boardgen.games.global_wellbeing.schema import template_with
    from boardgen.geomap import build as map_build
    from boardgen.geomap.cache import cached_sections
    from boardgen.geomap.spec import raster_step_mm

    config = template_with(changes)
    map_build._LAND_ON_BOARD.clear()  # the land projected by this process's untimed build: a CLI build has none
    with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as cache:
        _with_data_files(cache, data_cache, kernels)
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
    step_mm = raster_step_mm(config.board, config.map)
    pixels = config.board.width_mm * config.board.height_mm / step_mm**2 / 1e6
    return seconds, cpu_s, int(counts[0]), int(counts[1]), pixels


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated tweak names besides the default")
    parser.add_argument("--repeat", type=int, default=1, help="builds of each tweak; the least time counts")
    parser.add_argument("--since", nargs="?", const=REFERENCE_DAY, default=None, metavar="COMMIT",
                        help="whole CLI builds against the default template's build at COMMIT "
                             f"(default {REFERENCE_DAY[:7]})")
    args = parser.parse_args(argv)
    only = set(filter(None, args.only.split(",")))
    names = ["default", *(n for n in TWEAKS if n != "default" and (not only or n in only))]
    kernels = compiled_kernels()
    if args.since:
        since(args.since, names, max(1, args.repeat), kernels)
        return
    with tempfile.TemporaryDirectory() as data_cache:
        os.environ["BOARDGEN_CACHE_DIR"] = data_cache
        from boardgen.games.global_wellbeing.schema import template_with
        from boardgen.geomap.build import build_board

        build_board(template_with({}))  # decodes the data files into data_cache once
        for stale in Path(data_cache).glob("board-*"):
            stale.unlink()
        warm_up(Path(data_cache), kernels)
        runs: dict[str, list[tuple[float, float, int, int, float]]] = {name: [] for name in names}
        for _ in range(max(1, args.repeat)):
            for name in names:
                runs[name].append(build_once(TWEAKS[name], Path(data_cache), kernels))
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


def _cli(checkout: Path, template: Path | None, out: Path) -> list[str]:
    """``boardgen build`` as the checkout's console script runs it (``_timing.console_command``)."""
    return timings.console_command(checkout, "build", "-o", str(out), *(["-t", str(template)] if template else []))


def _cli_env(checkout: Path, cache: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(checkout), "BOARDGEN_CACHE_DIR": str(cache)}
    for name in ("BOARDGEN_NO_CACHE", "BOARDGEN_SERIAL_STAGES", "BOARDGEN_ENGINE"):
        env.pop(name, None)
    return env


def _cli_cache(data: Path, kernels: Path | None, into: Path) -> Path:
    """A cache holding only ``data``'s decoded data files and, linked, the compiled kernels."""
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir()
    for path in data.iterdir():
        shutil.copyfile(path, into / path.name)
    if kernels is not None:
        (into / "numba").symlink_to(kernels, target_is_directory=True)
    return into


def since(commit: str, names: list[str], repeat: int, kernels: Path | None) -> None:
    """Whole CLI builds: the default template at ``commit`` against this checkout's default and tweaks, both with
    their rules kernels compiled (into ``kernels``, or a temporary folder)."""
    import yaml

    with tempfile.TemporaryDirectory(prefix="bench-tweaks-since-") as folder:
        tmp = Path(folder)
        if kernels is None:
            kernels = tmp / "numba"
            kernels.mkdir()
        reference = timings.extract_commit(ROOT, commit, tmp / "reference")
        templates: dict[str, Path | None] = {"default": None}
        for name in names[1:]:
            tweaked = templates[name] = tmp / f"{name}.yaml"
            tweaked.write_text(yaml.safe_dump({"extends": "global-wellbeing", **TWEAKS[name]}))
        data: dict[Path, Path] = {}
        for checkout in (reference, ROOT):  # both run from bytecode, as an installed boardgen does (an environment
            # with PYTHONDONTWRITEBYTECODE would otherwise compile the extracted checkout's every module each run)
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout / "boardgen")], check=True,
                           env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
                           stdout=subprocess.DEVNULL)
        for checkout in (reference, ROOT):  # untimed: each decodes its data files and has its kernel compiled
            data[checkout] = tmp / f"data-{len(data)}"
            data[checkout].mkdir()
            (data[checkout] / "numba").symlink_to(kernels, target_is_directory=True)
            timings.timed(_cli(checkout, None, tmp / "out"),
                          {**_cli_env(checkout, data[checkout]), "BOARDGEN_ENGINE": "kernel"}, folder)
            shutil.rmtree(tmp / "out")
            for path in data[checkout].iterdir():
                if path.is_symlink():
                    path.unlink()
                elif path.is_dir():
                    shutil.rmtree(path)
                elif not path.name.startswith(tuple(f"{kind}-" for kind in DATA_KINDS)):
                    path.unlink()
        label = f"default at {commit[:7]}"
        runs = [(label, reference, None), *((name, ROOT, templates[name]) for name in names)]
        times: dict[str, list[tuple[float, float]]] = {run[0]: [] for run in runs}
        cells: dict[str, int] = {}
        for _ in range(repeat):
            for name, checkout, template in runs:
                cache = _cli_cache(data[checkout], kernels, tmp / "cache")
                wall_s, cpu_s, done = timings.timed(_cli(checkout, template, tmp / "out"),
                                                    _cli_env(checkout, cache), folder)
                shutil.rmtree(tmp / "out")
                times[name].append((wall_s, cpu_s))
                found = re.search(r"(\d+) land cells", done.stderr + done.stdout)
                cells[name] = int(found[1]) if found else 0
    best = {name: (min(w for w, _ in runs_), min(c for _, c in runs_)) for name, runs_ in times.items()}
    wall_ref, cpu_ref = best[label]
    load = os.getloadavg()
    print(f"whole `boardgen build` commands, cold board cache, least of {repeat} interleaved runs, load average "
          f"{load[0]:.2f}; both checkouts' rules kernels compiled")
    print(f"{'build':<20} {'wall s':>7} {'CPU s':>7} {'cells':>6} {'CPU x default':>14} "
          f"{'CPU x ' + commit[:7]:>14} {'wall x ' + commit[:7]:>15} {'per cell':>9}")
    default_cpu, default_cells = best["default"][1], cells["default"] or 1
    for name, (wall_s, cpu_s) in best.items():  # per cell: "CPU x COMMIT" over the cells' ratio to the default's
        per_cell = cpu_s / cpu_ref / max(1.0, cells[name] / default_cells) if cells[name] else cpu_s / cpu_ref
        print(f"{name:<20} {wall_s:7.2f} {cpu_s:7.2f} {cells[name] or '':>6} {cpu_s / default_cpu:14.2f} "
              f"{cpu_s / cpu_ref:14.2f} {wall_s / wall_ref:15.2f} {per_cell:9.2f}")


if __name__ == "__main__":
    main()

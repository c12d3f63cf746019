"""How the build grows with the number of cells: the flagship at its 300 cells and at ``--cells`` (4,000).

    python benchmarks/bench_cells.py [--repeat 3] [--cells 4000] [--baseline /path/to/main]

``--baseline``: another checkout (e.g. main) timed in turn with this one in the same run, for a before/after.

Prints, each a median of ``--repeat`` runs in subprocesses (wall and CPU, CPU including forked stages):
- the import floor, ``python -c "import boardgen.cli"``, timed in the same run as a reference;
- ``boardgen build`` of the default template, cold cache (a new BOARDGEN_CACHE_DIR; the rules kernel's machine
  code stays in NUMBA_CACHE_DIR, by default where set-up compiled it) and warm;
- the cell-dependent stages (map, validate, board, sections) at 300 cells and at ``--cells``, cold and warm, and from
  them the cost per cell and the fixed cost (a straight line through the two sizes);
- ``boardgen build`` at ``--cells`` (the components stage refuses the 3 mm pieces such small hexes leave,
  so it exits with that error: its time is the time to the refusal);
- ``cells_geojson`` per cell, with shapely's array functions and with the per-cell loop it replaced (the
  bytes are checked equal).

The large template is templates/global-wellbeing.yaml with ``hexes.target_cells`` set and, at 4,000 cells,
cell U30 (an Aleutian islet) removed: on the unedited template it leaves the bio-productivity table no room in
the top-left section's open sea, and the board stage stops there.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as timings  # type: ignore[import-not-found]

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "templates" / "global-wellbeing.yaml"
GOAL_S = 6.0  # the goal: a build at 4,000 cells in at most this many seconds
CELL_STAGES = """
import sys
from pathlib import Path
from boardgen.build import build
from boardgen.games.global_wellbeing.schema import load_template
out, ctx = build(load_template(Path(sys.argv[1])), Path(sys.argv[2]), only={"map", "validate", "board", "sections"})
print(len(ctx.board.cells))
"""


def large_template(folder: Path, cells: int) -> Path:
    text = TEMPLATE.read_text()
    text = re.sub(r"(?m)^(  target_cells:) \d+", rf"\1 {cells}", text)
    if cells == 4000:
        text = re.sub(r"(?m)^(  remove_cells:) \[\]", r"\1 [U30]", text)
    path = folder / f"global-wellbeing-{cells}.yaml"
    path.write_text(text)
    return path


def timed(command: Sequence[str], env: dict[str, str]) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """(wall s, CPU s, the finished process), run outside any checkout (``python -c``/``-m`` put the working
    folder first on sys.path, before PYTHONPATH)."""
    return timings.timed(command, env, cwd=tempfile.gettempdir(), check=False)


Figures = dict[str, tuple[float, float, str]]  # tree label -> (median wall s, median CPU s, last output)


def median_runs(make: Sequence[str], repeat: int, envs: dict[str, dict[str, str]], cache: Path | None,
                warm: bool) -> Figures:
    """Median (wall, CPU) of ``repeat`` runs for each tree, the trees taking turns (so a busy spell hits them
    alike); cold: an empty cache folder each run, warm: one filled first."""
    walls: dict[str, list[float]] = {label: [] for label in envs}
    cpus: dict[str, list[float]] = {label: [] for label in envs}
    outputs = dict.fromkeys(envs, "")
    for i in range(repeat):
        for label, env in envs.items():
            run_env = dict(env)
            if cache is not None:
                folder = cache / label / ("warm" if warm else f"cold-{i}")
                run_env["BOARDGEN_CACHE_DIR"] = str(folder)
                if warm and i == 0:
                    timed(make, run_env)  # fill it
            wall, cpu, done = timed(make, run_env)
            if done.returncode not in (0, 2):
                raise SystemExit(f"{' '.join(make)} failed:\n{done.stderr[-2000:]}")
            walls[label].append(wall)
            cpus[label].append(cpu)
            outputs[label] = (done.stdout + done.stderr).strip()
    return {label: (statistics.median(walls[label]), statistics.median(cpus[label]), outputs[label])
            for label in envs}


def show(what: str, figures: Figures, floor: Figures | None = None, note: str = "") -> None:
    cells = []
    for label, (wall, cpu, _) in figures.items():
        ratio = f" = {wall / floor[label][0]:4.1f}x floor" if floor else ""
        cells.append(f"{label} {wall:6.2f} s wall {cpu:6.2f} s CPU{ratio}")
        print(f"{what:<44} " + " | ".join(cells[-1:]) + (f"  {note}" if note else ""))
        what = ""


def geojson_per_cell(template: Path, repeat: int) -> tuple[int, float, float]:
    """(cells, ms per cell with the array functions, ms per cell with the per-cell loop)."""
    from shapely.geometry import mapping

    from boardgen.export import (
        _json_bytes,
        board_projection,
        cell_lonlat_geometry,
        cell_properties,
        cells_geojson,
    )
    from boardgen.games.global_wellbeing.schema import load_template
    from boardgen.geomap.cache import cached_board

    board = cached_board(load_template(template))

    def per_cell() -> bytes:  # cells_geojson as it was: one projection and one GEOS call per cell and step
        projection = board_projection(board)
        features = [{"type": "Feature", "id": cell.label, "properties": cell_properties(board, cell, projection),
                     "geometry": mapping(cell_lonlat_geometry(board, cell, projection))} for cell in board.cells]
        data = json.loads(cells_geojson(board))
        data["features"] = features
        return _json_bytes(data, indent=None)

    def arrays() -> bytes:
        return cells_geojson(board)

    assert per_cell() == arrays(), "the per-cell loop and the array functions disagree"
    figures = []
    for make in (arrays, per_cell):
        runs = []
        for _ in range(repeat):
            started = time.process_time()
            make()
            runs.append(time.process_time() - started)
        figures.append(1000 * statistics.median(runs) / len(board.cells))
    return len(board.cells), figures[0], figures[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cells", type=int, default=4000)
    parser.add_argument("--baseline", type=Path, default=None,
                        help="another checkout (e.g. main) timed in turn with this one, for a before/after")
    args = parser.parse_args()
    base = {k: v for k, v in os.environ.items() if k not in ("BOARDGEN_NO_CACHE", "BOARDGEN_CACHE_DIR")}
    # cold means the board and data caches: the rules kernel's machine code stays where set-up compiled it (a new
    # BOARDGEN_CACHE_DIR alone would also compile the kernel again, 15-30 s), as bench_speed.py times it
    sys.path.insert(0, str(ROOT))
    from boardgen.games.global_wellbeing.rules.fast import LOADER
    from boardgen.play.kernels import numba_cache_dir

    base.setdefault("NUMBA_CACHE_DIR", str(numba_cache_dir(*LOADER.sources)))
    trees = {"before": args.baseline.resolve()} if args.baseline is not None else {}
    trees["this"] = ROOT
    envs = {label: {**base, "PYTHONPATH": str(tree) + os.pathsep + base.get("PYTHONPATH", "")}
            for label, tree in trees.items()}
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="bench-cells-") as tmp:
        folder = Path(tmp)
        large = large_template(folder, args.cells)
        print(f"{', '.join(f'{k}: {v}' for k, v in trees.items())}; load {os.getloadavg()[0]:.2f} (1 min) on "
              f"{os.cpu_count()} cores; medians of {args.repeat} runs, the trees taking turns")
        floor = median_runs([python, "-c", "import boardgen.cli"], max(3, args.repeat), envs, None, False)
        show("import floor (python -c 'import boardgen.cli')", floor)
        for warm in (False, True):
            show(f"boardgen build, default, {'warm' if warm else 'cold'} cache",
                 median_runs([python, "-m", "boardgen.cli", "build", "-q", "-o", str(folder / "default")],
                             args.repeat, envs, folder / "cache-default", warm), floor)

        stages: dict[tuple[str, bool], Figures] = {}
        counts: dict[str, int] = {}
        for template, size in ((TEMPLATE, "small"), (large, "large")):
            for warm in (False, True):
                figures = median_runs([python, "-c", CELL_STAGES, str(template), str(folder / size)], args.repeat,
                                      envs, folder / f"cache-{size}", warm)
                counts[size] = int(next(iter(figures.values()))[2].split()[-1])
                stages[size, warm] = figures
                show(f"map+validate+board, {counts[size]:4d} cells, {'warm' if warm else 'cold'}", figures)
        small, big = counts["small"], counts["large"]
        for warm in (False, True):
            for label in envs:
                (w0, c0, _), (w1, c1, _) = stages["small", warm][label], stages["large", warm][label]
                slope_wall, slope_cpu = (w1 - w0) / (big - small), (c1 - c0) / (big - small)
                print(f"  {label} per cell ({'warm' if warm else 'cold'}): {1000 * slope_wall:.2f} ms wall "
                      f"{1000 * slope_cpu:.2f} ms CPU over a fixed {w0 - slope_wall * small:.2f} s wall "
                      f"{c0 - slope_cpu * small:.2f} s CPU")

        for warm in (False, True):
            figures = median_runs([python, "-m", "boardgen.cli", "build", "-q", "-t", str(large), "-o",
                                   str(folder / "large-build")], args.repeat, envs, folder / "cache-build", warm)
            out = next(iter(figures.values()))[2]
            status = "built" if "error" not in out else "refused: " + out.splitlines()[-1].split(": ", 2)[-1][:150]
            show(f"boardgen build, {big} cells, {'warm' if warm else 'cold'}", figures,
                 note=f"(goal {GOAL_S:g} s)")
            print(f"  {status}")

        os.environ["BOARDGEN_CACHE_DIR"] = str(folder / "cache-geojson")
        os.environ.pop("BOARDGEN_NO_CACHE", None)
        for template in (TEMPLATE, large):
            n, fast, slow = geojson_per_cell(template, args.repeat)
            print(f"cells_geojson, {n:5d} cells: {fast:.3f} ms a cell with array functions, {slow:.3f} ms with the "
                  f"per-cell loop ({slow / fast:.1f}x)")


if __name__ == "__main__":
    main()

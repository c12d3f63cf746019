"""Time `boardgen build` of a template end to end, next to the import floor timed in the same run.

Prints the floor (``python -c "import boardgen.cli"``), the build's wall and CPU time (median of N runs in a
subprocess, the built-board cache and the rules kernel's numba cache warmed by one untimed run first; CPU
includes the forked stage processes), the ratio of the build's wall time to the floor, and the per-stage times
the build reports.

Run: python benchmarks/bench_build.py [--repeat N] [--template FILE] [--serial] [--source DIR] [--cold-kernel]
--serial sets BOARDGEN_SERIAL_STAGES=1 (every stage in the one process); --source times another boardgen
checkout (e.g. the main branch's worktree, for a before/after pair). The cache is a temporary folder of
its own (BOARDGEN_CACHE_DIR), so the run neither reads nor fills the user's.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as timings  # type: ignore[import-not-found]

ROOT = Path(__file__).resolve().parent.parent
GOAL_WALL_S = 3.0
GOAL_RATIO = 7.0


def _timed(command: list[str], env: dict[str, str], cwd: str) -> tuple[float, float, str]:
    """(wall s, CPU s of the process and everything it waited for, stdout) of one run. ``cwd``: a folder with
    no boardgen in it (``python -m`` puts the working folder first on the path)."""
    wall_s, cpu_s, done = timings.timed(command, env, cwd)
    return wall_s, cpu_s, done.stdout


def _stage_times(stdout: str) -> dict[str, float]:
    """The stage times of the build's summary line: ``done in 2.31 s (map 0.40 s, board 1.10 s, ...)``."""
    match = re.search(r"^done in [0-9.]+ s \((.*)\)$", stdout, re.M)
    if match is None:
        return {}
    return {name: float(seconds) for name, seconds in re.findall(r"([\w-]+) ([0-9.]+) s", match.group(1))}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--template", type=Path, default=None)
    parser.add_argument("--serial", action="store_true", help="run every stage in one process")
    parser.add_argument("--source", type=Path, default=ROOT, help="the boardgen checkout to time")
    parser.add_argument("--cold-kernel", action="store_true",
                        help="do not compile the rules kernel first (validation then plays the reference engine)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        path = os.pathsep.join(p for p in (str(args.source.resolve()), os.environ.get("PYTHONPATH", "")) if p)
        env = {**os.environ, "PYTHONPATH": path, "BOARDGEN_CACHE_DIR": str(Path(tmp) / "cache")}
        env.pop("BOARDGEN_NO_CACHE", None)
        if args.serial:
            env["BOARDGEN_SERIAL_STAGES"] = "1"
        build = [sys.executable, "-m", "boardgen.cli", "build", "-q", "-o", str(Path(tmp) / "out")]
        if args.template is not None:
            build += ["-t", str(args.template)]
        floor_cmd = [sys.executable, "-c", "import boardgen.cli"]
        if args.cold_kernel:
            _timed(build, env, tmp)  # warms the built-board cache (and the OS's file cache)
        else:  # ... and compiles the rules kernel into numba's cache (auto mode then loads it for validation)
            try:
                _timed(build, {**env, "BOARDGEN_ENGINE": "kernel"}, tmp)
            except subprocess.CalledProcessError:  # no numba, or a checkout without the kernel
                _timed(build, env, tmp)
        _timed(floor_cmd, env, tmp)
        floors: list[float] = []
        walls: list[float] = []
        cpus: list[float] = []
        stages: dict[str, list[float]] = {}
        for _ in range(args.repeat):  # interleaved, so a busy moment hits both alike
            floors.append(_timed(floor_cmd, env, tmp)[0])
            wall_s, cpu_s, stdout = _timed(build, env, tmp)
            walls.append(wall_s)
            cpus.append(cpu_s)
            for name, seconds in _stage_times(stdout).items():
                stages.setdefault(name, []).append(seconds)
    floor_s = statistics.median(floors)
    wall_s = statistics.median(walls)
    cpu_s = statistics.median(cpus)
    load = os.getloadavg()
    print(f"boardgen build of {args.source.resolve()}{' (serial stages)' if args.serial else ''}: "
          f"median of {args.repeat} runs, warm cache, "
          f"{os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"  import floor (python -c 'import boardgen.cli')  {floor_s:6.2f} s wall")
    print(f"  build                                          {wall_s:6.2f} s wall  {cpu_s:6.2f} s CPU  "
          f"(runs: {', '.join(f'{w:.2f}' for w in walls)})")
    print(f"  ratio to the floor                             {wall_s / floor_s:6.1f}x  "
          f"(goal: at most {GOAL_RATIO:g}x and {GOAL_WALL_S:g} s wall)")
    for name, values in stages.items():
        print(f"  stage {name:<40} {statistics.median(values):6.2f} s")


if __name__ == "__main__":
    main()

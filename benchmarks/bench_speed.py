#!/usr/bin/env python
"""Every speed figure of the build in one run, each next to its goal, with the floors timed in the same run.

    python benchmarks/bench_speed.py                 # print the table (about 3 minutes on 2 cores)
    python benchmarks/bench_speed.py --write-readme  # also replace the table in README.md

Measures, on the default Global Wellbeing template: the import floor (``boardgen --version``: the command's own
start and end), a whole ``boardgen build`` with the board cache warm, ``boardgen info`` and ``boardgen cells``, the
fixed cost of ``boardgen simulate --games 1`` (plots included), games per second on one core for 6 random, 6 greedy
and 6 planner bots next to a plain pure-Python loop of the same random game (``benchmarks/reference_game.py``),
``--jobs 2`` against ``--jobs 1`` on idle cores and with two busy-loop processes competing for them, and the map,
validate and board stages at 4,000 cells with a cold and a warm cache (``bench_cells.py`` has more). Commands run
in subprocesses (wall time; CPU is the children's user + system time); single-core rates are this process's CPU
time. Medians of several runs.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import BusyCores, console_command, timed  # type: ignore[import-not-found]

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
_BLOCK = re.compile(r"(<!-- bench-speed -->\n)(.*?)(<!-- /bench-speed -->)", re.S)


class Row(NamedTuple):
    what: str
    measured: str
    goal: str
    met: bool | None  # None: a figure with no goal of its own (a floor, a reference)


def run_timed(command: Sequence[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) for one run of ``command``; it must succeed."""
    wall, cpu, _done = timed(command, env)
    return wall, cpu


def median_timed(command: Sequence[str], runs: int, env: dict[str, str] | None = None) -> tuple[float, float]:
    timings = [run_timed(command, env) for _ in range(runs)]
    return statistics.median(t[0] for t in timings), statistics.median(t[1] for t in timings)


def boardgen(*args: str) -> list[str]:
    """``boardgen ARGS`` as the installed console command runs it."""
    return console_command(REPO, *args)


def games_per_cpu_second(play: Callable[[int], object], games: int) -> float:
    started = time.process_time()
    play(games)
    return games / (time.process_time() - started)


def measure(runs: int, games: int, jobs_games: int, skip_large: bool) -> list[Row]:
    rows: list[Row] = []
    env = dict(os.environ)
    work = Path(tempfile.mkdtemp(prefix="bench-speed-"))

    floor_wall, _floor_cpu = median_timed(boardgen("--version"), max(runs, 5))  # the commands' start and end
    rows.append(Row("import floor (`boardgen --version`)", f"{floor_wall:.2f} s wall", "", None))

    out = str(work / "build")
    run_timed(boardgen("build", "-q", "-o", out), env)  # warms the board cache
    wall, cpu = median_timed(boardgen("build", "-q", "-o", out), runs, env)
    rows.append(Row("`boardgen build`, default template, cache warm", f"{wall:.2f} s wall, {cpu:.2f} s CPU",
                    "<= 3 s wall", wall <= 3.0))
    rows.append(Row("the same against the import floor", f"{wall / floor_wall:.1f}x the floor", "<= 7x",
                    wall <= 7 * floor_wall))
    # an edit the validation's games depend on: a new seed each run, so they are played again every time
    # (the board and everything else is read back from the cache as after any other edit)
    template = (Path(__file__).resolve().parent.parent / "templates" / "global-wellbeing.yaml").read_text()
    reseeded = []
    for run in range(runs):
        path = work / f"reseeded-{run}.yaml"
        seed = 10_000 + int.from_bytes(os.urandom(4), "big")  # never a seed an earlier run left in the cache
        path.write_text(re.sub(r"(?m)^seed: \d+", f"seed: {seed}", template))
        reseeded.append(run_timed(boardgen("build", "-q", "-t", str(path), "-o", out), env))
    wall, cpu = statistics.median(r[0] for r in reseeded), statistics.median(r[1] for r in reseeded)
    rows.append(Row("`boardgen build` after an edit the validation depends on (another seed: its 400 games "
                    "played again)", f"{wall:.2f} s wall, {cpu:.2f} s CPU ({wall / floor_wall:.1f}x the floor)",
                    "<= 3 s wall, <= 7x", wall <= 3.0 and wall <= 7 * floor_wall))
    for command in ("info", "cells"):
        wall, _cpu = median_timed(boardgen(command), max(runs, 5), env)
        rows.append(Row(f"`boardgen {command}`, map unchanged", f"{wall:.2f} s wall", "<= 0.6 s", wall <= 0.6))
    wall, cpu = median_timed(boardgen("simulate", "--games", "1", "-q", "-o", str(work / "sim")), max(runs, 5), env)
    rows.append(Row("`boardgen simulate --games 1` (fixed cost, plots included)", f"{wall:.2f} s wall",
                    "<= 0.8 s", wall <= 0.8))

    rows.extend(measure_games(games, jobs_games))

    if not skip_large:
        from bench_cells import CELL_STAGES, large_template  # type: ignore[import-not-found]

        template = large_template(work, 4000)
        from boardgen.games.global_wellbeing.rules.fast import LOADER
        from boardgen.play.kernels import numba_cache_dir

        # cold: a new board and data cache; the rules kernel's machine code stays where set-up compiled it
        cold_env = {**env, "BOARDGEN_CACHE_DIR": str(work / "cache-4000"),
                    "NUMBA_CACHE_DIR": str(numba_cache_dir(*LOADER.sources))}
        command = [sys.executable, "-c", CELL_STAGES, str(template), str(work / "build-4000")]
        cold_wall, cold_cpu = run_timed(command, cold_env)
        warm_wall, warm_cpu = median_timed(command, max(1, runs - 1), cold_env)
        what = ("build at 4,000 cells, the stages that grow with the cells (map, validate, board, sections: the "
                "components stage refuses the 3 mm pieces such hexes leave), ")
        rows.append(Row(what + "board cache warm", f"{warm_wall:.1f} s wall, {warm_cpu:.1f} s CPU", "<= 6 s",
                        warm_wall <= 6.0))
        rows.append(Row(what + "board and data cache cold", f"{cold_wall:.1f} s wall, {cold_cpu:.1f} s CPU",
                        "<= 6 s", cold_wall <= 6.0))
    return rows


def measure_games(games: int, jobs_games: int) -> list[Row]:
    from reference_game import play_reference  # type: ignore[import-not-found]

    from boardgen.games.global_wellbeing.rules.board import RulesBoard
    from boardgen.games.global_wellbeing.rules.report import simulate
    from boardgen.games.global_wellbeing.schema import load_template
    from boardgen.geomap.cache import cached_board
    from boardgen.play.simulate import derive_seed

    config = load_template()
    board = RulesBoard.from_board(cached_board(config))
    rules = config.rules
    rows: list[Row] = []

    def reference(n: int) -> None:
        for i in range(n):
            play_reference(board, rules, derive_seed(7, "reference", i))

    reference_rate = games_per_cpu_second(reference, max(200, games // 10))
    rows.append(Row("plain pure-Python loop of the same random game (reference)",
                    f"{reference_rate:,.0f} games/s", "", None))
    os.environ["BOARDGEN_ENGINE"] = "kernel"  # the compiled game path for every figure below (auto picks it too
    started = time.perf_counter()             # for batches large enough to pay for loading it)
    simulate(board, rules, 20, 6, ["random"], 1)
    rows.append(Row("loading the compiled game kernel (numba, from its disk cache; compiled once per machine)",
                    f"{time.perf_counter() - started:.2f} s", "", None))
    for bot, goal, share in (("random", 8000, 1), ("greedy", 3000, 3), ("planner", 1000, 8)):
        n = max(100, games // share)
        rate = games_per_cpu_second(lambda k, bot=bot: simulate(board, rules, k, 6, [bot], 1), n)
        rows.append(Row(f"games/s, one core, 6 {bot} bots", f"{rate:,.0f} games/s ({rate / reference_rate:.1f}x "
                        "the reference loop)", f">= {goal:,}", rate >= goal))

    def jobs_rate(jobs: int) -> float:
        started = time.perf_counter()
        simulate(board, rules, jobs_games, 6, ["greedy", "planner", "random"], 3, jobs=jobs)
        return jobs_games / (time.perf_counter() - started)

    def pair() -> list[float]:  # one and two jobs, taking turns five times (the median of each)
        runs = [(jobs_rate(1), jobs_rate(2)) for _ in range(5)]
        return [statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)]

    jobs_rate(2)  # the first forked run warms up
    idle = pair()
    with BusyCores():
        busy = pair()
    rows.append(Row("`--jobs 2` against `--jobs 1`, idle cores (the default bot mix)",
                    f"{idle[1] / idle[0]:.2f}x ({idle[0]:,.0f} -> {idle[1]:,.0f} games/s)", ">= 1.8x",
                    idle[1] / idle[0] >= 1.8))
    rows.append(Row("`--jobs 2` against `--jobs 1`, two busy-loop processes running",
                    f"{busy[1] / busy[0]:.2f}x ({busy[0]:,.0f} -> {busy[1]:,.0f} games/s)", ">= 0.95x",
                    busy[1] / busy[0] >= 0.95))
    return rows


def table(rows: list[Row]) -> str:
    lines = ["| what | measured | goal | met |", "| --- | --- | --- | --- |"]
    for row in rows:
        met = "" if row.met is None else ("yes" if row.met else "**no**")
        lines.append(f"| {row.what} | {row.measured} | {row.goal} | {met} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per command (median)")
    parser.add_argument("--games", type=int, default=4000, help="games for the one-core random rate")
    parser.add_argument("--jobs-games", type=int, default=6000, help="games for the --jobs comparison")
    parser.add_argument("--skip-large", action="store_true", help="skip the 4,000-cell build")
    parser.add_argument("--write-readme", action="store_true", help="replace the table in README.md")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    rows = measure(args.runs, args.games, args.jobs_games, args.skip_large)
    text = table(rows)
    machine = f"{os.cpu_count()} cores, load average {load:.2f} at the start, Python {sys.version.split()[0]}"
    print(text + f"\n{machine}")
    if args.write_readme:
        readme = README.read_text(encoding="utf-8")
        block = f"`python benchmarks/bench_speed.py` ({machine}):\n\n{text}"
        new, count = _BLOCK.subn(lambda m: m.group(1) + block + m.group(3), readme)
        if count != 1:
            sys.exit("README.md has no <!-- bench-speed --> block")
        README.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    main()

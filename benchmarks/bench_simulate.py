#!/usr/bin/env python
"""The fixed cost of `boardgen simulate` and what ``--jobs 2`` buys, with the import floor timed in the same run.

    python benchmarks/bench_simulate.py [--repeat 3] [--games 3000] [--bots random] [--fake-ms 0.12]

Prints, on the default Global Wellbeing template with a warm board cache:
- the import floor, ``python -c "import boardgen.cli"`` (wall, median of ``--repeat`` subprocesses);
- ``boardgen simulate --games 1`` (wall, median of ``--repeat`` subprocesses; goal: at most 0.8 s on an idle
  machine) and its parts, timed inside one process per run: the CLI import, the template, the board (cache),
  the game and results.json, the charts module's import and the six plots;
- games per second of ``simulate()`` with ``--jobs 1`` and ``--jobs 2`` (wall, median of alternating runs),
  on the cores as they are and again with two busy-loop processes competing for them, and the ratios (goals:
  at least 1.8x on idle cores, never below 0.95x when busy). The CPU per game (this process and its workers)
  shows how much of a shortfall is overhead of ours rather than the two processes slowing each other down.

- the same two lines for fake games of ``--fake-ms`` ms each (0.12: the speed of the planned numba kernel) that
  return real GameResults through the same pool, so its per-chunk and per-result costs show at that speed.

``uptime`` is printed first: on a machine shared with other work, the wall figures are only as good as it is idle.
The busy loops are started from this process, so they share its scheduling group; with Linux's autogroup
scheduling, work from other sessions takes a per-session share of the cores instead, and then two processes of
ours get no more CPU than one: the ratio is 1 less our overhead, which the CPU-per-game figures show.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as timings  # type: ignore[import-not-found]

ROOT = Path(__file__).resolve().parents[1]
PARTS = r"""
import time
t0 = time.perf_counter()
import boardgen.cli
t1 = time.perf_counter()
from boardgen.plugin import BuildContext
from boardgen.template import load
plugin, config = load(None)
t2 = time.perf_counter()
ctx = BuildContext(config, plugin)
from boardgen.games.global_wellbeing.rules.board import RulesBoard
board = RulesBoard.from_board(ctx.board)
t3 = time.perf_counter()
from boardgen.games.global_wellbeing.rules.report import simulate, summary
from boardgen.play.report import results_bytes
from boardgen.play.simulate import summary_of_columns
sim = simulate(board, config.rules, 1, 6, plugin.default_bots, config.seed)
shared = summary_of_columns(sim.columns, 6, plugin.default_bots, config.seed)
results_bytes({"summary": {**shared, **summary(sim)}})
t4 = time.perf_counter()
from boardgen.games.global_wellbeing.rules import plots
t5 = time.perf_counter()
plots.report_plots(sim, [z.colour for z in config.zones.values()])
t6 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5)
"""
PART_NAMES = ("CLI import", "template", "board (cache)", "1 game + results.json", "charts import",
              "six plots")


def env() -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = str(ROOT) + (os.pathsep + out["PYTHONPATH"] if out.get("PYTHONPATH") else "")
    return out


def wall(argv: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, check=True, env=env(), cwd=ROOT, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def fixed_costs(repeat: int) -> None:
    floor = [wall([sys.executable, "-c", "import boardgen.cli"]) for _ in range(repeat)]
    with tempfile.TemporaryDirectory(prefix="bench-simulate-") as tmp:
        command = [sys.executable, "-m", "boardgen.cli", "simulate", "--games", "1", "-q", "-o", tmp]
        wall(command)  # warms the board cache
        runs = [wall(command) for _ in range(repeat)]
    parts = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", PARTS], check=True, env=env(), cwd=ROOT, capture_output=True,
                             text=True).stdout
        parts.append([float(x) for x in out.split()])
    floor_s, simulate_s = statistics.median(floor), statistics.median(runs)
    print(f"import floor (python -c 'import boardgen.cli'): {floor_s:.3f} s wall")
    print(f"boardgen simulate --games 1: {simulate_s:.3f} s wall ({simulate_s / floor_s:.1f}x the floor; "
          f"goal at most 0.8 s) {'met' if simulate_s <= 0.8 else 'NOT met'}")
    for i, name in enumerate(PART_NAMES):
        print(f"  {name:<24} {statistics.median(p[i] for p in parts):.3f} s")


def rates(board, rules, bots: list[str], games: int, repeat: int) -> dict[int, tuple[float, float]]:  # type: ignore[no-untyped-def]
    """Per jobs: (median games/s wall, median CPU ms per game), jobs 1 and 2 alternating."""
    from boardgen.games.global_wellbeing.rules.report import simulate

    walls: dict[int, list[float]] = {1: [], 2: []}
    cpus: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(repeat):
        for jobs in (1, 2):
            cpu0, child0, started = time.process_time(), timings.children_cpu_s(), time.perf_counter()
            simulate(board, rules, games, 6, bots, 2026, jobs=jobs)
            seconds = time.perf_counter() - started
            walls[jobs].append(games / seconds)
            cpus[jobs].append((time.process_time() - cpu0 + timings.children_cpu_s() - child0) / games * 1e3)
    return {jobs: (statistics.median(walls[jobs]), statistics.median(cpus[jobs])) for jobs in (1, 2)}


_FAKE: dict[str, object] = {}


def _fake_chunk(bounds: tuple[int, int]) -> object:
    """Games as fast as the numba kernel: a fixed loop of about ``--fake-ms`` ms each, then the columns of a real
    game repeated (what a chunk sends back), so only the pool's overheads differ from a real run."""
    loops: int = _FAKE["loops"]  # type: ignore[assignment]
    total = 0
    for _game in range(*bounds):
        for i in range(loops):
            total += i & 7
    return _FAKE["columns"].take([0] * (bounds[1] - bounds[0]))  # type: ignore[attr-defined]


def fake_rates(board, rules, milliseconds: float, games: int, repeat: int) -> dict[int, tuple[float, float]]:  # type: ignore[no-untyped-def]
    """``rates`` for fake games of a given cost through the same pool as ``simulate``."""
    from boardgen.games.global_wellbeing.rules.report import simulate
    from boardgen.play.pool import play_in_order
    from boardgen.play.simulate import CHUNK_GAMES

    _FAKE.update(columns=simulate(board, rules, 1, 6, ("random",), 2026).columns, loops=1000)
    started = time.process_time()
    _fake_chunk((0, 200))
    per_loop = (time.process_time() - started) / (200 * 1000)
    _FAKE["loops"] = max(1, int(milliseconds / 1e3 / per_loop))
    walls: dict[int, list[float]] = {1: [], 2: []}
    cpus: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(repeat):
        for jobs in (1, 2):
            cpu0, child0, started = time.process_time(), timings.children_cpu_s(), time.perf_counter()
            chunks = play_in_order(games, jobs, _fake_chunk, CHUNK_GAMES)
            played = sum(chunk.games for chunk in chunks)  # type: ignore[attr-defined]
            seconds = time.perf_counter() - started
            assert played == games
            walls[jobs].append(games / seconds)
            cpus[jobs].append((time.process_time() - cpu0 + timings.children_cpu_s() - child0) / games * 1e3)
    return {jobs: (statistics.median(walls[jobs]), statistics.median(cpus[jobs])) for jobs in (1, 2)}


def show(label: str, measured: dict[int, tuple[float, float]], goal: float) -> None:
    (one, cpu_one), (two, cpu_two) = measured[1], measured[2]
    ratio = two / one
    print(f"{label}: --jobs 1 {one:,.0f} games/s, --jobs 2 {two:,.0f} games/s: {ratio:.2f}x "
          f"(goal at least {goal:.2f}x) {'met' if ratio >= goal else 'NOT met'}; CPU per game "
          f"{cpu_one:.3f} / {cpu_two:.3f} ms ({cpu_two / cpu_one - 1:+.0%} with two processes)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--games", type=int, default=3000, help="games per games/s measurement")
    parser.add_argument("--bots", default="random", help="comma-separated bots for the games/s lines")
    parser.add_argument("--skip-fixed", action="store_true", help="only the games/s lines")
    parser.add_argument("--fake-ms", type=float, default=0.12,
                        help="also time the pool with fake games of this many ms (the numba kernel's speed); 0: no")
    args = parser.parse_args()
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    if not args.skip_fixed:
        fixed_costs(args.repeat)

    sys.path.insert(0, str(ROOT))
    from boardgen.games.global_wellbeing.rules.board import RulesBoard
    from boardgen.plugin import BuildContext
    from boardgen.template import load

    plugin, config = load(None)
    board = RulesBoard.from_board(BuildContext(config, plugin).board)
    bots = args.bots.split(",")
    print(f"games/s: {args.games} games of 6 x {','.join(bots)}, median of {args.repeat}, wall")
    show("cores as they are", rates(board, config.rules, bots, args.games, args.repeat), 1.8)
    fake_games = int(args.games * 2 / max(args.fake_ms, 1e-3))  # as long a run as the real games
    if args.fake_ms > 0:
        print(f"fake games of {args.fake_ms} ms ({fake_games} a run) through the same pool:")
        show("  cores as they are", fake_rates(board, config.rules, args.fake_ms, fake_games, args.repeat), 1.8)
    with timings.BusyCores(2):
        show("two busy loops running", rates(board, config.rules, bots, args.games, args.repeat), 0.95)
        if args.fake_ms > 0:
            show("  fake games, two busy loops", fake_rates(board, config.rules, args.fake_ms, fake_games,
                                                          args.repeat), 0.95)
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()

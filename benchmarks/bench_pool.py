#!/usr/bin/env python
"""boardgen's process pool (``boardgen.play.pool``) against the standard library's ``ProcessPoolExecutor`` on
the same games: whether the custom pool earns its keep.

    python benchmarks/bench_pool.py [--games 3000] [--fake-games 200000] [--turns 3]

Two workloads, each on one and two jobs with both pools, on the cores as they are and again with two busy-loop
processes competing for them (``_timing.BusyCores``); wall-clock games/s, medians of ``--turns`` alternating runs:
- real games: The Philanthropist's random bots through the rules API (``boardgen.play.simulate.play_columns``'s
  chunk function, columns out);
- kernel-speed games: a fake game of 50 us that returns a kernel's columns, so per-chunk costs show.

The executor gets what a careful caller would give it: forked workers (they inherit the game, as the pool's do),
runs of games in order through ``map``, and chunks of a fixed size (``--chunk``, or the run split in 4 x jobs);
boardgen's pool sizes its chunks from the rate each process measures and plays in this process too.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import BusyCores  # type: ignore[import-not-found]

FAKE_SECONDS = 50e-6
Runner = Callable[[int, int, Callable[[tuple[int, int]], Any], int], list[Any]]


def _fake_chunk(bounds: tuple[int, int]) -> Any:
    from boardgen.play.columns import OutcomeColumns

    n = bounds[1] - bounds[0]
    end = time.perf_counter() + n * FAKE_SECONDS
    while time.perf_counter() < end:
        pass
    return OutcomeColumns(("random",), np.arange(*bounds, dtype=np.int64), np.zeros((n, 4), np.int8),
                          np.ones((n, 4)), np.eye(4, dtype=np.bool_)[np.arange(n) % 4], np.full(n, 30, np.int64))


def boardgen_pool(games: int, jobs: int, play: Callable[[tuple[int, int]], Any], chunk: int) -> list[Any]:
    from boardgen.play.pool import play_in_order
    from boardgen.play.simulate import CHUNK_GAMES

    return play_in_order(games, jobs, play, CHUNK_GAMES)  # its own sizing: ``chunk`` is the executor's


def executor_pool(games: int, jobs: int, play: Callable[[tuple[int, int]], Any], chunk: int) -> list[Any]:
    size = chunk or max(1, -(-games // (4 * jobs)))
    bounds = [(a, min(a + size, games)) for a in range(0, games, size)]
    if jobs <= 1:
        return [play(b) for b in bounds]
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
        return list(pool.map(play, bounds))


def rate(runner: Runner, games: int, jobs: int, play: Callable[[tuple[int, int]], Any], chunk: int) -> float:
    started = time.perf_counter()
    runner(games, jobs, play, chunk)
    return games / (time.perf_counter() - started)


def compare(label: str, games: int, play: Callable[[tuple[int, int]], Any], chunk: int, turns: int) -> None:
    runners: dict[str, Runner] = {"boardgen pool": boardgen_pool, "ProcessPoolExecutor": executor_pool}
    for busy in (False, True):
        with BusyCores() if busy else _Nothing():
            figures: dict[tuple[str, int], list[float]] = {}
            for _ in range(turns):  # alternate, so a change in the machine's load meets every figure
                for name, runner in runners.items():
                    for jobs in (1, 2):
                        figures.setdefault((name, jobs), []).append(rate(runner, games, jobs, play, chunk))
        where = "two busy-loop processes running" if busy else "cores as they are"
        for name in runners:
            one, two = (statistics.median(figures[(name, j)]) for j in (1, 2))
            print(f"{label:<28} {where:<32} {name:<20} 1 job {one:9,.0f}  2 jobs {two:9,.0f} games/s  "
                  f"({two / one:.2f}x)")


class _Nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="real games per run")
    parser.add_argument("--fake-games", type=int, default=200_000, help="kernel-speed games per run")
    parser.add_argument("--chunk", type=int, default=0, help="the executor's chunk (0: the run in 4 x jobs)")
    parser.add_argument("--turns", type=int, default=3, help="alternating runs per figure (median)")
    args = parser.parse_args()
    from boardgen.play import simulate
    from boardgen.plugin import BuildContext, get_game
    from boardgen.template import load

    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")
    plugin = get_game("philanthropist")
    _plugin, config = load(plugin.default_template())
    ctx = BuildContext(config, plugin)
    game = plugin.new_game(ctx, 4)
    simulate._init_worker(lambda: game, plugin.bots(), ("random",), 4, 1, True, None)  # what the chunks read
    compare("Philanthropist, random bots", args.games, simulate._play_chunk, args.chunk, args.turns)
    compare("kernel-speed fake games", args.fake_games, _fake_chunk, args.chunk, args.turns)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()

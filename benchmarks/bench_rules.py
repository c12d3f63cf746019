"""Games per second of the flagship's two encodings of its rules: 6 bots over the template's 20 turns, one core.

Prints, each with its ratio to the plain reference loop timed in the same run:
- the plain pure-Python reference loop of the random-bot game (``benchmarks/reference_game.py``);
- the rules API's state machine (``rules.engine``: one node per decision and die; the path small runs, generic bots
  and OpenSpiel use) with 6 random, 6 greedy and 6 planner bots;
- the compiled kernel (``rules.fast.play_batch``; the same games) with the same bots, alone and with the games
  turned into the ``OutcomeColumns`` ``simulate`` reads;
- the kernel's cold compile and warm load (fresh processes, a throw-away numba cache folder);
- ``simulate`` on one and two processes.
Single-core rates are games per second of this process's CPU time (``time.process_time``), so other work on a
busy machine does not count against them; the compile and load lines are the child processes' CPU time; the
multi-process lines are wall-clock. Uses the real board when the map pipeline can build it, else a 20 x 15
synthetic hex rectangle (300 cells).

    python benchmarks/bench_rules.py [--games 2000] [--synthetic] [--api-only]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from boardgen.games.global_wellbeing.rules import fast
from boardgen.games.global_wellbeing.rules.board import RulesBoard, hex_rectangle
from boardgen.games.global_wellbeing.rules.engine import WellbeingGame, api_bots
from boardgen.games.global_wellbeing.rules.report import simulate
from boardgen.games.global_wellbeing.schema import load_template
from boardgen.play.bots import play_with_bots
from boardgen.play.kernels import engine_setting
from boardgen.play.simulate import derive_seed

sys.path.insert(0, str(Path(__file__).parent))
from reference_game import play_reference

# a fresh process: CPU seconds to import numba and the kernel and play one game (compiling it if not cached)
KERNEL_START = """
import time
from boardgen.games.global_wellbeing.schema import load_template
from boardgen.games.global_wellbeing.rules import fast
from boardgen.games.global_wellbeing.rules.board import hex_rectangle
config = load_template()
board = hex_rectangle(20, 15, config.zones)
started, wall = time.process_time(), time.perf_counter()
fast.play_batch(board, config.rules, [("random",) * 6], [1])
print(time.process_time() - started, time.perf_counter() - wall)
"""


def reference_mops() -> float:
    """Millions of simple Python operations per second (a fixed loop): compare runs on a busy machine."""
    started = time.process_time()
    total = 0
    for i in range(2_000_000):
        total += i & 7
    return 2.0 / (time.process_time() - started)


def kernel_start(cache: str) -> tuple[float, float]:
    """(CPU s, wall s) of a new process's first kernel game with numba's cache in ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", KERNEL_START], env=env, check=True, capture_output=True, text=True)
    cpu, wall = out.stdout.split()
    return float(cpu), float(wall)


def per_second(games: int, started: float) -> float:
    return games / max(time.process_time() - started, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--synthetic", action="store_true", help="use the 300-cell synthetic board")
    parser.add_argument("--api-only", action="store_true", help="skip the multi-process simulation")
    args = parser.parse_args()
    config = load_template()
    rules = config.rules
    board: RulesBoard
    if args.synthetic:
        board, what = hex_rectangle(20, 15, config.zones), "synthetic 20x15"
    else:
        try:
            from boardgen.geomap.build import build_board

            board, what = RulesBoard.from_board(build_board(config)), "real board"
        except ImportError:
            board, what = hex_rectangle(20, 15, config.zones), "synthetic 20x15 (no map pipeline)"
    print(f"board: {what}, {board.n_cells} cells; {rules.variant} variant, {rules.turns} turns, 6 players")
    print(f"reference: {reference_mops():.1f} M simple Python operations/s (this machine, now)")
    seeds = [derive_seed(1, "bench", i) for i in range(args.games * 5)]
    started = time.process_time()
    plain_games = max(1, args.games // 2)
    for seed in seeds[:plain_games]:
        play_reference(board, rules, seed)
    plain = per_second(plain_games, started)
    print(f"plain reference loop, 6 x random   {plain:7.0f} games/s (1.0x)")
    game = WellbeingGame(board, rules, 6)
    factories = api_bots()
    api: dict[str, float] = {}
    for name, games in (("random", args.games // 2), ("greedy", args.games // 8), ("planner", args.games // 20)):
        api_games = max(1, games)
        started = time.process_time()
        for i in range(api_games):
            seed = seeds[i]
            bots = [factories[name](game, s, random.Random(derive_seed(seed, "seat", s))) for s in range(6)]
            play_with_bots(game.new_initial_state(seed), bots, random.Random(seed))
        api[name] = per_second(api_games, started)
        print(f"rules API,            6 x {name:<8} {api[name]:7.0f} games/s ({api[name] / plain:.1f}x)")
    if fast.load_kernel() is None:
        print("kernel: numba is not available")
    else:
        fast.play_batch(board, rules, [("random",) * 6], seeds[:1])  # loaded (compiled if needed) before timing
        for name in ("random", "greedy", "planner"):
            games = args.games * 5 if name == "random" else args.games * 2
            started = time.process_time()
            batch = fast.play_batch(board, rules, [(name,) * 6] * games, seeds[:games])
            alone = per_second(games, started)
            started = time.process_time()
            batch.columns(np.zeros((games, 6), dtype=np.int8), (name,))
            with_columns = games / (games / alone + time.process_time() - started)
            print(f"kernel,               6 x {name:<8} {alone:7.0f} games/s ({alone / plain:.1f}x; "
                  f"{alone / api[name]:.1f}x the API); as columns {with_columns:6.0f} games/s "
                  f"({with_columns / plain:.1f}x)")
        with tempfile.TemporaryDirectory(prefix="boardgen-numba-") as cache:
            cold_cpu, cold_wall = kernel_start(cache)
            warm = sorted(kernel_start(cache) for _ in range(3))[1]
        print(f"kernel cold compile  {cold_cpu:6.2f} s CPU ({cold_wall:.2f} s wall) = {cold_cpu * plain:7.0f} "
              f"plain games")
        print(f"kernel warm load     {warm[0]:6.2f} s CPU ({warm[1]:.2f} s wall) = {warm[0] * plain:7.0f} "
              f"plain games (median of 3; numba import included)")
    if args.api_only:
        return
    for jobs in (1, 2):
        started = time.perf_counter()
        simulate(board, rules, args.games, 6, ["random"], 1, jobs=jobs)
        elapsed = time.perf_counter() - started
        print(f"simulate(random) jobs={jobs}: {args.games} games in {elapsed:6.2f} s wall: "
              f"{args.games / elapsed:7.0f} games/s (with result collection; BOARDGEN_ENGINE="
              f"{engine_setting()})")


if __name__ == "__main__":
    main()

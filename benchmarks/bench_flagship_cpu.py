#!/usr/bin/env python
"""The flagship's `simulate` against its compiled kernel alone in CPU seconds, for a machine other work shares.

``benchmarks/bench_games.py`` compares the games/s the CLI reports with the kernel's own rate in wall-clock time,
which a loaded machine blurs. This times the same two things in CPU seconds of fresh processes, taking turns:

- the CLI's timed part: ``plugin.simulate_report`` for ``--games`` games of random bots on one job (the board,
  loading numba and the kernel, the games, the summary, the plots and the per-game table; not the imports, the
  template or writing the files), the default template;
- the kernel alone: ``rules.fast.play_batch`` for the same games, loaded beforehand (as bench_games.py times it).

    python benchmarks/bench_flagship_cpu.py [--games 30000] [--runs 3] [--baseline ../main]

``--baseline`` names another checkout timed in turn with this one (a before/after in the same conditions).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CLI = """
import sys, time
from boardgen.plugin import BuildContext
from boardgen.template import load
plugin, config = load(None)
ctx = BuildContext(config, plugin)
started = time.process_time()
plugin.simulate_report(ctx, int(sys.argv[1]), 6, ("random",), config.seed, 1, True, None)
print(time.process_time() - started)
"""

KERNEL = """
import sys, time
from boardgen.plugin import BuildContext
from boardgen.template import load
from boardgen.games.global_wellbeing.rules import fast
from boardgen.games.global_wellbeing.rules.board import RulesBoard
from boardgen.play.simulate import derive_seed, lineup
plugin, config = load(None)
ctx = BuildContext(config, plugin)
games = int(sys.argv[1])
board = RulesBoard.from_board(ctx.board)
lineups = [lineup(("random",), 6, i, True) for i in range(games)]
seeds = [derive_seed(config.seed, "game", i) for i in range(games)]
fast.load_kernel()
fast.play_batch(board, config.rules, lineups[:1], seeds[:1])  # loaded before timing
started = time.process_time()
fast.play_batch(board, config.rules, lineups, seeds)
print(time.process_time() - started)
"""


def cpu_s(tree: Path, code: str, games: int) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, "-c", code, str(games)], env=env, cwd=str(tree), check=True,
                          capture_output=True, text=True)
    return float(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="another checkout timed in turn with this one")
    args = parser.parse_args()
    trees = {"baseline": args.baseline.resolve()} if args.baseline else {}
    trees["this"] = REPO
    times: dict[str, dict[str, list[float]]] = {name: {"cli": [], "kernel": []} for name in trees}
    for _ in range(args.runs):
        for name, tree in trees.items():
            for what, code in (("kernel", KERNEL), ("cli", CLI)):
                times[name][what].append(cpu_s(tree, code, args.games))
    print(f"{args.games} games of 6 random bots, CPU seconds (median of {args.runs} fresh processes each), "
          f"load average {os.getloadavg()[0]:.2f}")
    for name, tree in trees.items():
        cli, kernel = statistics.median(times[name]["cli"]), statistics.median(times[name]["kernel"])
        print(f"{name:<8} ({tree}): simulate {cli:6.2f} s = {args.games / cli:7,.0f} games/s; kernel alone "
              f"{kernel:6.2f} s = {args.games / kernel:7,.0f} games/s; simulate at {kernel / cli:.0%} of the kernel "
              f"(goal >= 70%)")


if __name__ == "__main__":
    main()

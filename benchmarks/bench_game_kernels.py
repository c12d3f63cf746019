#!/usr/bin/env python
"""Games per second of the compiled kernels of The Philanthropist, BETTER Life, Global Warming and Resilience Earth
against the rules API, with the plain ``random.choice`` playout through the API timed in the same run as the
reference.

    PYTHONPATH=. python benchmarks/bench_game_kernels.py [--games 10000] [--ref-games 200] [--game philanthropist]

For each game prints (one job, this machine as it is; ``uptime`` first; in-process rates also per CPU second,
which a machine busy with other work distorts less than wall time):
- the reference: a playout picking ``random.choice`` of the legal actions through the rules API (games/s);
- for each bot kind the kernel compiles: the API path (``runner.api_batch``, ``--ref-games`` games) and the
  kernel alone (``kernel_batch``, ``--games`` games), games/s, and the kernel's speed-up;
- ``boardgen simulate --games N --jobs 1 -q`` as the CLI reports it, with the default bots and with random bots,
  and its ratio to the reference (issue goal: random bots at least 20x the reference, default bots at least
  1,000 games/s), beside the same command through the API path alone (``BOARDGEN_ENGINE=reference``);
- the wall time of ``boardgen simulate --games 1`` (goal: at most 1 s on an idle machine).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import timed

REPO = Path(__file__).resolve().parent.parent
GAMES = {
    "philanthropist": ("templates/philanthropist.yaml", ("uniform", "random", "collector", "planner")),
    "better-life": ("templates/better-life.yaml", ("random", "free-rider", "fair-share", "target-seeker",
                                                   "meter-reader")),
    "global-warming": ("templates/global-warming.yaml", ("random", "greedy", "cautious")),
    "resilience-earth": ("templates/resilience-earth.yaml", ("random", "grower", "steward", "keeper", "sabbatical",
                                                             "mixed")),
}


class Clock:
    """Wall and CPU seconds of a block."""

    def __enter__(self) -> Clock:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall, self.cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu

    def rates(self, games: int) -> tuple[float, float]:
        return games / self.wall, games / max(self.cpu, 1e-9)


def playout_rate(name: str, games: int) -> tuple[float, float]:
    """(wall, CPU) games/s of a plain random.choice playout through the rules API (chance by ``sample_chance``)."""
    from boardgen.play.api import CHANCE, SIMULTANEOUS, TERMINAL, sample_chance
    from boardgen.plugin import BuildContext, get_game
    from boardgen.template import load

    plugin = get_game(name)
    _plugin, config = load(REPO / GAMES[name][0])
    ctx = BuildContext(config, plugin)
    game = plugin.new_game(ctx, plugin.player_range(config)[1])
    rng = random.Random(1)
    with Clock() as clock:
        for i in range(games):
            state = game.new_initial_state(i)
            while (player := state.current_player()) != TERMINAL:
                if player == CHANCE:
                    state.apply_action(sample_chance(state, rng))
                elif player == SIMULTANEOUS:
                    state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.info.num_players)])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
    return clock.rates(games)


def path_rates(name: str, bots: tuple[str, ...], games: int, ref_games: int
               ) -> tuple[tuple[float, float], tuple[float, float]]:
    """((wall, CPU) games/s of the API path, the same of the kernel) for ``bots`` (the kernel loaded first)."""
    from boardgen.play.runner import api_batch
    from boardgen.plugin import BuildContext, get_game
    from boardgen.template import load

    plugin = get_game(name)
    _plugin, config = load(REPO / GAMES[name][0])
    ctx = BuildContext(config, plugin)
    players = plugin.player_range(config)[1]
    with Clock() as api:
        api_batch(plugin, ctx, players, bots, 1, 0, ref_games, True)
    os.environ["BOARDGEN_ENGINE"] = "kernel"
    plugin.fast.kernel_batch(ctx, players, bots, 1, 0, 2, True)  # load it
    with Clock() as kernel:
        plugin.fast.kernel_batch(ctx, players, bots, 2, 0, games, True)
    del os.environ["BOARDGEN_ENGINE"]
    return api.rates(ref_games), kernel.rates(games)


def cli_rate(template: str, games: int, bots: str | None, engine: str = "auto") -> tuple[float, float]:
    """(games/s the CLI reports, wall s) of ``boardgen simulate`` with one job (``BOARDGEN_ENGINE=engine``)."""
    command = [sys.executable, "-m", "boardgen.cli", "simulate", "-t", str(REPO / template), "-o",
               str(REPO / "build" / "bench"), "--games", str(games), "--jobs", "1", "-q"]
    if bots:
        command += ["--bots", bots]
    wall, _cpu, done = timed(command, env={**os.environ, "PYTHONPATH": str(REPO), "BOARDGEN_ENGINE": engine},
                             cwd="/")
    found = re.search(r"\(([\d,.]+) games/s", done.stdout + done.stderr)
    return (float(found.group(1).replace(",", "")) if found else float("nan")), wall


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--ref-games", type=int, default=200)
    ap.add_argument("--game", choices=sorted(GAMES), action="append")
    args = ap.parse_args()
    print(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    for name in args.game or sorted(GAMES):
        template, kinds = GAMES[name]
        reference, reference_cpu = playout_rate(name, args.ref_games)
        print(f"{name}: plain random.choice playout through the API {reference:,.0f} games/s "
              f"({reference_cpu:,.0f} per CPU s)")
        for kind in kinds:
            (api, api_cpu), (kernel, kernel_cpu) = path_rates(name, (kind,), args.games, args.ref_games)
            print(f"  {kind:<14} API {api:7,.0f} games/s ({api_cpu:6,.0f} per CPU s)   kernel {kernel:8,.0f} "
                  f"games/s ({kernel_cpu:7,.0f} per CPU s)   x{kernel_cpu / api_cpu:,.0f} per CPU s")
        for label, bots in (("default bots", None), ("random bots", "random")):
            before, _wall = cli_rate(template, args.ref_games, bots, "reference")
            rate, _wall = cli_rate(template, args.games, bots)
            print(f"  simulate --jobs 1, {label}: {rate:,.0f} games/s of {args.games} "
                  f"({rate / reference:.1f}x the plain playout); the API path alone (BOARDGEN_ENGINE=reference, "
                  f"{args.ref_games} games): {before:,.0f} games/s")
        _rate, wall = cli_rate(template, 1, None)
        print(f"  simulate --games 1: {wall:.2f} s wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())

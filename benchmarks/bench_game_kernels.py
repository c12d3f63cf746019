#!/usr/bin/env python
"""Games per second of the compiled kernels of The Philanthropist, BETTER Life, Global Warming and Resilience Earth
against the rules API, with the plain ``random.choice`` playout through the API timed in the same run as the
reference.

    PYTHONPATH=. python benchmarks/bench_game_kernels.py [--games 10000] [--ref-games 200] [--game philanthropist]

For each game prints (one job, this machine as it is; ``uptime`` first):
- the reference: a playout picking ``random.choice`` of the legal actions through the rules API (games/s);
- for each bot kind the kernel compiles: the API path (``GamePlugin.play_batch``, ``--ref-games`` games) and the
  kernel alone (``kernel_batch``, ``--games`` games), games/s, and the kernel's speed-up;
- ``boardgen simulate --games N --jobs 1 -q`` as the CLI reports it, with the default bots and with random bots,
  and its ratio to the reference (issue goal: random bots at least 20x the reference, default bots at least
  1,000 games/s);
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


def playout_rate(name: str, games: int) -> float:
    """Games/s of a plain random.choice playout through the rules API (chance by ``sample_chance``)."""
    from boardgen.play.api import CHANCE, SIMULTANEOUS, TERMINAL, sample_chance
    from boardgen.plugin import BuildContext, get_game
    from boardgen.template import load

    plugin = get_game(name)
    _plugin, config = load(REPO / GAMES[name][0])
    ctx = BuildContext(config, plugin)
    game = plugin.new_game(ctx, plugin.player_range(config)[1])
    rng = random.Random(1)
    started = time.perf_counter()
    for i in range(games):
        state = game.new_initial_state(i)
        while (player := state.current_player()) != TERMINAL:
            if player == CHANCE:
                state.apply_action(sample_chance(state, rng))
            elif player == SIMULTANEOUS:
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.info.num_players)])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return games / (time.perf_counter() - started)


def path_rates(name: str, bots: tuple[str, ...], games: int, ref_games: int) -> tuple[float, float]:
    """(API games/s, kernel games/s) of ``bots`` (the kernel loaded beforehand)."""
    from boardgen.plugin import BuildContext, get_game
    from boardgen.template import load

    plugin = get_game(name)
    _plugin, config = load(REPO / GAMES[name][0])
    ctx = BuildContext(config, plugin)
    players = plugin.player_range(config)[1]
    started = time.perf_counter()
    plugin.play_batch(ctx, players, bots, 1, 0, ref_games, True)
    api = ref_games / (time.perf_counter() - started)
    os.environ["BOARDGEN_ENGINE"] = "kernel"
    plugin.kernel_batch(ctx, players, bots, 1, 0, 2, True)  # load it
    started = time.perf_counter()
    plugin.kernel_batch(ctx, players, bots, 2, 0, games, True)
    kernel = games / (time.perf_counter() - started)
    del os.environ["BOARDGEN_ENGINE"]
    return api, kernel


def cli_rate(template: str, games: int, bots: str | None) -> tuple[float, float]:
    """(games/s the CLI reports, wall s) of ``boardgen simulate`` with one job."""
    command = [sys.executable, "-m", "boardgen.cli", "simulate", "-t", str(REPO / template), "-o",
               str(REPO / "build" / "bench"), "--games", str(games), "--jobs", "1", "-q"]
    if bots:
        command += ["--bots", bots]
    wall, _cpu, done = timed(command, env={**os.environ, "PYTHONPATH": str(REPO)}, cwd="/")
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
        reference = playout_rate(name, args.ref_games)
        print(f"{name}: plain random.choice playout through the API {reference:,.0f} games/s")
        for kind in kinds:
            api, kernel = path_rates(name, (kind,), args.games, args.ref_games)
            print(f"  {kind:<14} API {api:8,.0f} games/s   kernel {kernel:9,.0f} games/s   x{kernel / api:,.0f}")
        for label, bots in (("default bots", None), ("random bots", "random")):
            rate, _wall = cli_rate(template, args.games, bots)
            print(f"  simulate --games {args.games} --jobs 1, {label}: {rate:,.0f} games/s "
                  f"({rate / reference:.1f}x the plain playout)")
        _rate, wall = cli_rate(template, 1, None)
        print(f"  simulate --games 1: {wall:.2f} s wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())

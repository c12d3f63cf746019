"""Games per second of the rules engine: 6 random bots over the template's 20 turns, one core.

Also times the greedy and planner bots, the two-process simulation, and the same games through the rules API
(``rules.api``: one node per decision and die, the path generic bots and OpenSpiel use) next to the fused
engine, with a fixed pure-Python workload as a reference for how fast this machine is right now. Single-core
rates are games per second of this process's CPU time (``time.process_time``), so other work on a busy machine
does not count against them; the multi-process lines are wall-clock.
Uses the real board when the map pipeline can build it, else a 20 x 15 synthetic hex rectangle (300 cells).

    python benchmarks/bench_rules.py [--games 2000] [--synthetic] [--api-only]
"""

from __future__ import annotations

import argparse
import random
import time

from boardgen.config import load_template
from boardgen.games.global_wellbeing.rules.api import WellbeingGame, api_bots
from boardgen.games.global_wellbeing.rules.board import RulesBoard, hex_rectangle
from boardgen.games.global_wellbeing.rules.bots import bot_factory
from boardgen.games.global_wellbeing.rules.engine import derive_seed, play_game
from boardgen.games.global_wellbeing.rules.simulate import simulate
from boardgen.play.bots import play_with_bots


def reference_mops() -> float:
    """Millions of simple Python operations per second (a fixed loop): compare runs on a busy machine."""
    started = time.process_time()
    total = 0
    for i in range(2_000_000):
        total += i & 7
    return 2.0 / (time.process_time() - started)


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
            from boardgen.mapbuild import build_board

            board, what = RulesBoard.from_board(build_board(config)), "real board"
        except ImportError:
            board, what = hex_rectangle(20, 15, config.zones), "synthetic 20x15 (no map pipeline)"
    print(f"board: {what}, {board.n_cells} cells; {rules.variant} variant, {rules.turns} turns, 6 players")
    print(f"reference: {reference_mops():.1f} M simple Python operations/s (this machine, now)")
    badge_values = tuple(z.badge_value for z in board.zones)
    dice = tuple(z.die for z in board.zones)
    game = WellbeingGame(board, rules, 6)
    factories = api_bots()
    for name, games in (("random", args.games), ("greedy", args.games // 4), ("planner", args.games // 10)):
        factory = bot_factory(name, rules.badge_threshold, badge_values, dice)
        started = time.process_time()
        for i in range(games):
            play_game(board, rules, [factory] * 6, derive_seed(1, "bench", i))
        fused = games / (time.process_time() - started)
        api_games = max(1, games // 4)
        started = time.process_time()
        for i in range(api_games):
            seed = derive_seed(1, "bench", i)
            bots = [factories[name](game, s, random.Random(derive_seed(seed, "seat", s))) for s in range(6)]
            play_with_bots(game.new_initial_state(seed), bots, random.Random(seed))
        api = api_games / (time.process_time() - started)
        print(f"6 x {name:<8} fused {games:>6} games: {fused:7.0f} games/s on one core; "
              f"API {api_games:>5} games: {api:6.0f} games/s ({api / fused:.0%} of fused)")
    if args.api_only:
        return
    for jobs in (1, 2):
        started = time.perf_counter()
        simulate(board, rules, args.games, 6, ["random"], 1, jobs=jobs)
        elapsed = time.perf_counter() - started
        print(f"simulate(random) jobs={jobs}: {args.games} games in {elapsed:6.2f} s: "
              f"{args.games / elapsed:7.0f} games/s (with result collection)")


if __name__ == "__main__":
    main()

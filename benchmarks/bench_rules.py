"""Games per second of the rules engine: 6 random bots over the template's 20 turns, one core.

Also times the greedy and planner bots and the two-process simulation. Uses the real board when the map
pipeline can build it, else a 20 x 15 synthetic hex rectangle (300 cells).

    python benchmarks/bench_rules.py [--games 2000] [--synthetic]
"""

from __future__ import annotations

import argparse
import time

from boardgen.config import load_template
from boardgen.games.global_wellbeing.rules.board import RulesBoard, hex_rectangle
from boardgen.games.global_wellbeing.rules.bots import bot_factory
from boardgen.games.global_wellbeing.rules.engine import derive_seed, play_game
from boardgen.games.global_wellbeing.rules.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--synthetic", action="store_true", help="use the 300-cell synthetic board")
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
    badge_values = tuple(z.badge_value for z in board.zones)
    dice = tuple(z.die for z in board.zones)
    for name, games in (("random", args.games), ("greedy", args.games // 4), ("planner", args.games // 10)):
        factory = bot_factory(name, rules.badge_threshold, badge_values, dice)
        started = time.perf_counter()
        for i in range(games):
            play_game(board, rules, [factory] * 6, derive_seed(1, "bench", i))
        elapsed = time.perf_counter() - started
        print(f"6 x {name:<8} {games:>6} games in {elapsed:6.2f} s: {games / elapsed:7.0f} games/s on one core")
    for jobs in (1, 2):
        started = time.perf_counter()
        simulate(board, rules, args.games, 6, ["random"], 1, jobs=jobs)
        elapsed = time.perf_counter() - started
        print(f"simulate(random) jobs={jobs}: {args.games} games in {elapsed:6.2f} s: "
              f"{args.games / elapsed:7.0f} games/s (with result collection)")


if __name__ == "__main__":
    main()

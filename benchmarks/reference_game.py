"""A plain pure-Python Global Wellbeing Game of random bots: the speed reference of benchmarks/bench_rules.py.

This is the game as someone would first write it: lists and loops, each player's cells in a list, the cells a
piece may go to gathered afresh around the player's pieces at every choice (every free cell for a first piece),
no indexed sets, no incremental frontiers. It plays the template's rules (the complex variant's setup, turns of
move / harvest / invest, badges, stewardship and tipping-point rolls, the leader after every turn, final scoring)
with the simulations' seeding (``random.Random(seed)`` for the dice, ``derive_seed(seed, "seat", p)`` for each bot),
but it is not the engine: its lists are in other orders, so its random bots make other choices and its games are
not the engine's games, only games of the same kind (``check`` compares their averages). It is timed, never used.

    python benchmarks/reference_game.py [--games 200]   # plays games and checks them
"""

from __future__ import annotations

import argparse
import random
import statistics

from boardgen.games.global_wellbeing.rules.board import RulesBoard, hex_rectangle
from boardgen.games.global_wellbeing.rules.bots import RandomBot
from boardgen.games.global_wellbeing.rules.engine import play_game
from boardgen.games.global_wellbeing.schema import RulesConfig, load_template
from boardgen.play.simulate import derive_seed


def play_reference(board: RulesBoard, rules: RulesConfig, seed: int, players: int = 6) -> list[int]:
    """One game of ``players`` random bots (the template's ``players.usual``); returns the scores per seat.
    Supports the complex variant with the template's default options (a moved piece lands next to another own
    piece; harvests capped by the bank; pieces limited; badges kept)."""
    n = board.n_cells
    zones = board.zones
    neighbours, zone_of = board.neighbours, board.zone_of
    dice_rng = random.Random(seed)
    bots = [random.Random(derive_seed(seed, "seat", p)) for p in range(players)]
    owner = [-1] * n
    mine: list[list[int]] = [[] for _ in range(players)]  # each player's cells
    count = [[0] * len(zones) for _ in range(players)]  # each player's pieces per zone
    index = [z.start_index for z in zones]
    chips = [rules.starting_chips] * players
    supply = [rules.pieces_per_player] * players
    bank = max(0, rules.bank_chips - players * rules.starting_chips)
    badges = [[False] * len(zones) for _ in range(players)]

    def destinations(p: int) -> list[int]:
        near = sorted({m for c in mine[p] for m in neighbours[c] if owner[m] < 0})
        return near if near else [c for c in range(n) if owner[c] < 0]

    def place(p: int, cell: int) -> None:
        owner[cell] = p
        mine[p].append(cell)
        count[p][zone_of[cell]] += 1

    def lift(p: int, cell: int) -> None:
        owner[cell] = -1
        mine[p].remove(cell)
        count[p][zone_of[cell]] -= 1

    def random_cell(p: int, leaving: int = -1) -> int:
        cells = [c for c in destinations(p) if c != leaving]
        return cells[int(bots[p].random() * len(cells))]

    def update_badges(p: int) -> None:
        for z in range(len(zones)):
            if count[p][z] >= rules.badge_threshold:
                badges[p][z] = True

    def scores() -> list[int]:
        final = [index[z] + zones[z].badge_value * sum(1 for p in range(players) if badges[p][z])
                 for z in range(len(zones))]
        return [sum(count[p][z] * final[z] for z in range(len(zones))) for p in range(players)]

    def leaders() -> list[int]:
        now = scores()
        return [p for p in range(players) if now[p] == max(now)]

    # setup
    for _ in range(rules.setup_rounds):
        for p in range(players):
            if chips[p] > 0 and supply[p] > 0 and -1 in owner:
                place(p, random_cell(p))
                supply[p] -= 1
                chips[p] -= 1
                bank += 1
                update_badges(p)
    history = [leaders()]
    # turns
    for turn in range(1, rules.turns + 1):
        for p in range(players):
            if mine[p]:  # move a random piece next to another own piece, if it can go anywhere else
                src = mine[p][int(bots[p].random() * len(mine[p]))]
                lift(p, src)
                if [c for c in destinations(p) if c != src]:
                    place(p, random_cell(p, src))
                else:
                    place(p, src)
            due = sum(count[p][z] * index[z] for z in range(len(zones))) // rules.harvest_divisor
            due = min(due, bank)
            chips[p] += due
            bank -= due
            for _ in range(rules.investments_per_turn):
                if chips[p] <= 0 or supply[p] <= 0 or -1 not in owner:
                    break
                place(p, random_cell(p))
                chips[p] -= 1
                bank += 1
                supply[p] -= 1
            update_badges(p)
        if turn % rules.stewardship_every == 0:
            for z, zone in enumerate(zones):
                roll = 1 + int(dice_rng.random() * zone.die)
                if roll > index[z]:
                    index[z] = min(zone.die, index[z] + 1)
                elif roll < index[z]:
                    index[z] = max(zone.minimum_index, index[z] - 1)
        if turn % rules.tipping_point_every == 0:
            roll = 1 + int(dice_rng.random() * rules.tipping_point_die)
            if roll != sum(index):
                step = 1 if roll > sum(index) else -1
                for z, zone in enumerate(zones):
                    if zone.minimum_index <= index[z] + step <= zone.die:
                        index[z] += step
        history.append(leaders())
    return scores()


def check(board: RulesBoard, rules: RulesConfig, games: int = 100, players: int = 6) -> dict[str, float]:
    """Play ``games`` plain games and as many engine games of random bots; raise AssertionError unless the
    plain games are sensible (every score and piece count possible) and of the same kind as the engine's (mean
    score within 15%, winners' mean within 15%). Returns the averages."""
    plain = [play_reference(board, rules, derive_seed(1, "check", i), players) for i in range(games)]
    engine = [list(play_game(board, rules, [RandomBot] * players, derive_seed(1, "check", i)).scores)
              for i in range(games)]
    top = max(z.die + z.badge_value * players for z in board.zones)
    for scores in plain:
        assert len(scores) == players
        assert all(0 <= s <= board.n_cells * top for s in scores)
    plain_mean = statistics.fmean(s for game in plain for s in game)
    engine_mean = statistics.fmean(s for game in engine for s in game)
    plain_top = statistics.fmean(max(game) for game in plain)
    engine_top = statistics.fmean(max(game) for game in engine)
    assert abs(plain_mean - engine_mean) <= 0.15 * engine_mean, (plain_mean, engine_mean)
    assert abs(plain_top - engine_top) <= 0.15 * engine_top, (plain_top, engine_top)
    return {"plain_mean": plain_mean, "engine_mean": engine_mean, "plain_top": plain_top, "engine_top": engine_top}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    config = load_template()
    board = hex_rectangle(20, 15, config.zones)
    print({k: round(v, 1) for k, v in check(board, config.rules, args.games).items()})


if __name__ == "__main__":
    main()

"""The flagship's compiled path: batches of whole games played by a numba kernel (``rules.kernel``), the same
games as the rules API's state machine (``rules.engine``) plays for the same seeds, field for field
(tests/games/global_wellbeing/test_global_wellbeing_kernel.py), returned as ``OutcomeColumns``.

``kernel_batch`` is what the plug-in's hook calls: None (the API plays) when a bot has no compiled form
(``mcts``, the generic bots), when a rule value is outside what the kernel handles (``unsupported``), when
``BOARDGEN_ENGINE=reference``, or in auto mode while the games asked for in this process are too few to pay for
loading numba and the kernel (``LOAD_COST_GAMES``), so ``simulate --games 1`` stays quick. The machine code is
cached on disk by ``boardgen.play.kernels``; ``warm_kernel`` compiles it (scripts/setup.sh runs it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from hashlib import sha256
from types import ModuleType
from typing import Any

import numpy as np

from boardgen.games.global_wellbeing.rules.board import RulesBoard
from boardgen.games.global_wellbeing.rules.engine import EVENTS, WellbeingGame, outcome_metrics
from boardgen.games.global_wellbeing.schema import RulesConfig
from boardgen.play.columns import OutcomeColumns
from boardgen.play.kernels import KernelLoader, game_seeds
from boardgen.play.simulate import lineup

KERNEL_BOTS = ("random", "greedy", "planner")  # rules.kernel.BOT_KINDS
# What loading the kernel costs, in API games of 6 random bots on the default board (about 1.7 ms each):
# importing numba and the cached machine code takes about 0.3-0.5 s; compiling it the first time, about 15 s.
# A greedy game costs about 2 such games, a planner game 5.
LOAD_COST_GAMES = 300
COMPILE_COST_GAMES = 20_000
GAME_COST = {"random": 1.0, "greedy": 2.0, "planner": 5.0}
MAX_VALUE = 1 << 40  # rule numbers beyond this could overflow the kernel's int64 arithmetic: the API plays
LOADER = KernelLoader("boardgen.games.global_wellbeing.rules.kernel", LOAD_COST_GAMES, COMPILE_COST_GAMES)


def load_kernel() -> ModuleType | None:
    """The kernel module, its machine code loaded or compiled; None when numba is not installed."""
    kernel = LOADER.load()
    if kernel is not None and kernel.EVENTS != EVENTS:
        raise RuntimeError("rules.kernel.EVENTS is out of step with rules.engine.EVENTS")
    return kernel


def unsupported(board: RulesBoard, rules: RulesConfig, bots: Iterable[str], players: int) -> str:
    """Why the kernel cannot play these games ("" when it can). Checks only the game, not numba."""
    if any(name not in KERNEL_BOTS for name in bots):
        return "a bot the kernel does not have"
    if not 1 <= players <= 6:
        return "players outside 1..6"
    if rules.variant not in ("simple", "complex"):
        return f"variant {rules.variant!r}"
    if rules.end_of_turn_order not in ("stewardship-first", "tipping-first"):
        return f"end_of_turn_order {rules.end_of_turn_order!r}"
    if min(rules.harvest_divisor, rules.stewardship_every, rules.tipping_point_every, rules.tipping_point_die) < 1:
        return "a divisor, period or die below 1 (the API raises)"
    if min(rules.turns, rules.setup_rounds, rules.investments_per_turn) < 0:
        return "a negative number of turns, setup rounds or investments"
    if any(z.die < 1 or z.minimum_index < 0 for z in board.zones):
        return "a die below 1 or a negative minimum index"
    numbers = (rules.starting_chips, rules.pieces_per_player, rules.setup_rounds, rules.turns, rules.bank_chips,
               rules.investments_per_turn, rules.badge_threshold, rules.harvest_divisor, rules.tipping_point_die,
               rules.stewardship_every, rules.tipping_point_every,
               *(v for z in board.zones for v in (z.die, z.minimum_index, z.start_index, z.badge_value)))
    if any(not isinstance(v, int) or abs(v) > MAX_VALUE for v in numbers):
        return "a rule number too large for the kernel"
    return ""


def game_cost(board: RulesBoard, rules: RulesConfig, bots: Sequence[str]) -> float:
    """One game of these bots in API games of 6 random bots over 20 turns on 300 cells (``LOAD_COST_GAMES``)."""
    return (sum(GAME_COST[name] for name in bots) / max(1, len(bots)) * max(rules.turns, 1) / 20
            * max(board.n_cells, 1) / 300)


# -------------------------------------------------------------------------------------- batches


@dataclass(frozen=True)
class Batch:
    """The results of ``len(seeds)`` games as the kernel writes them, row g for game g (numpy int64 unless said)."""

    seeds: tuple[int, ...]
    scores: Any  # (games, players)
    winners: Any  # (games,): bit p set when seat p has the top score
    pieces: Any  # (games, players)
    chips: Any  # (games, players)
    final_index: Any  # (games, zones)
    end_index: Any  # (games, zones)
    badges: Any  # (games, players, zones)
    trajectory: Any  # (games, turns + 1, zones)
    leaders: Any  # (games, turns + 1)
    events: Any  # (games, len(EVENTS))
    ran_out: Any  # (games, players)
    cells: Any  # (games, cells) uint8: bit 0 occupied at the end, bit 1 contested

    def columns(self, lineups: np.ndarray, bot_names: Sequence[str]) -> OutcomeColumns:
        """The games as the columns the API's outcomes make (``WellbeingState.outcome``), ``lineups`` (games,
        players) indexing ``bot_names``."""
        n, players = self.scores.shape
        winners = ((self.winners[:, None] >> np.arange(players)) & 1).astype(np.bool_)
        pieces, chips = self.pieces.sum(axis=1), self.chips.sum(axis=1)
        metrics = outcome_metrics_columns(pieces, chips, self.final_index.sum(axis=1), self.end_index.sum(axis=1),
                                          self.badges.sum(axis=(1, 2)), self.scores.max(axis=1) if n else
                                          np.zeros(0, np.int64), players)
        return OutcomeColumns(
            tuple(bot_names), np.array(self.seeds, dtype=np.int64), lineups.astype(np.int8), self.scores, winners,
            np.full(n, self.trajectory.shape[1] - 1, dtype=np.int64), metrics,
            {name: self.events[:, k] for k, name in enumerate(EVENTS)},
            {"badges": self.badges, "cells": self.cells, "chips": self.chips,
             "end_index": self.end_index, "final_index": self.final_index, "leaders": self.leaders,
             "pieces": self.pieces, "ran_out": self.ran_out, "trajectory": self.trajectory})


def outcome_metrics_columns(pieces: np.ndarray, chips: np.ndarray, final_sum: np.ndarray, end_sum: np.ndarray,
                            badges_held: np.ndarray, winning: np.ndarray, players: int) -> dict[str, np.ndarray]:
    """``api.outcome_metrics`` over columns of per-game sums (the same float operations, so the same bits)."""
    names = tuple(outcome_metrics((0,), (0,), (0,), (0,), 0, (0,)))
    values = {"chips_left": chips / players, "pieces_on_board": pieces / players,
              "final_index_sum": final_sum.astype(np.float64), "end_index_sum": end_sum.astype(np.float64),
              "badges_held": badges_held.astype(np.float64), "winning_score": winning.astype(np.float64)}
    if set(values) != set(names):
        raise RuntimeError("fast.outcome_metrics_columns is out of step with api.outcome_metrics")
    return values


_BOARDS: dict[int, tuple[RulesBoard, tuple[Any, ...]]] = {}


def _board_arrays(board: RulesBoard) -> tuple[Any, ...]:
    """(neighbours padded with -1, neighbour counts, zone_of, dice, minima, start indices, badge values)."""
    import numpy as np

    hit = _BOARDS.get(id(board))
    if hit is not None and hit[0] is board:
        return hit[1]
    n = board.n_cells
    width = max((len(nbrs) for nbrs in board.neighbours), default=0)
    nbr = np.full((n, max(width, 1)), -1, dtype=np.int64)
    for c, nbrs in enumerate(board.neighbours):
        nbr[c, :len(nbrs)] = nbrs
    arrays = (
        nbr,
        np.array([len(nbrs) for nbrs in board.neighbours], dtype=np.int64),
        np.array(board.zone_of, dtype=np.int64),
        np.array([z.die for z in board.zones], dtype=np.int64),
        np.array([z.minimum_index for z in board.zones], dtype=np.int64),
        np.array([z.start_index for z in board.zones], dtype=np.int64),
        np.array([z.badge_value for z in board.zones], dtype=np.int64),
    )
    if len(_BOARDS) >= 8:
        _BOARDS.clear()
    _BOARDS[id(board)] = (board, arrays)
    return arrays


def _params(kernel: ModuleType, rules: RulesConfig, players: int, bot_threshold: int, bot_badges: bool) -> Any:
    import numpy as np

    complex_game = rules.variant == "complex"
    economy = complex_game or rules.simple_harvest
    start_chips = rules.starting_chips if complex_game else 0
    values = {
        "complex": complex_game, "economy": economy, "start_chips": start_chips,
        "supply": rules.pieces_per_player if economy else rules.setup_rounds,
        "bank": max(0, rules.bank_chips - players * start_chips), "threshold": rules.badge_threshold,
        "can_be_lost": rules.badges_can_be_lost, "divisor": rules.harvest_divisor,
        "capped": rules.harvest_capped_by_bank, "pieces_limited": rules.pieces_limited,
        "setup_rounds": rules.setup_rounds, "turns": rules.turns,
        "steward_first": rules.end_of_turn_order == "stewardship-first",
        "stewardship_every": rules.stewardship_every, "tipping_every": rules.tipping_point_every,
        "tipping_die": rules.tipping_point_die, "move_optional": rules.move_optional,
        "move_next": rules.move_next_to_other_pieces, "rotates": rules.first_player_rotates,
        "investments": rules.investments_per_turn, "bot_threshold": bot_threshold, "bot_badges": bot_badges,
    }  # fmt: skip
    return np.array([int(values[name]) for name in kernel.PARAMS], dtype=np.int64)


def seat_seeds(seed: int, players: int) -> list[int]:
    """``[derive_seed(seed, "seat", p) for p in range(players)]`` (the same text hashed, without the generic
    join): the seeds ``play_one`` gives the bots."""
    prefix = f"{seed}:seat:".encode()
    return [int.from_bytes(sha256(prefix + str(p).encode()).digest()[:8], "big") >> 1 for p in range(players)]


def _words(seed: int) -> list[int]:
    """The 32-bit words ``random.seed`` feeds MT19937's ``init_by_array`` (|seed|, least significant first)."""
    n = abs(seed)
    words = []
    while n:
        words.append(n & 0xFFFFFFFF)
        n >>= 32
    return words or [0]


def _seed_keys(kernel: ModuleType, seeds: Sequence[int], players: int) -> tuple[Any, Any]:
    """The ``init_by_array`` keys of every game's generators (lane 0 the dice, lane 1 + p seat p's bot) as
    (keys[game, lane, word], key_lens[game, lane]). Seeds in [0, 2**64), as ``simulate`` makes them, take an
    array path (the words split with numpy); any other int takes the general one."""
    import numpy as np

    n_games, lanes = len(seeds), kernel.MT_LANES
    if n_games and all(0 <= seed < 1 << 64 for seed in seeds):
        values = np.empty((n_games, players + 1), dtype=np.uint64)
        values[:, 0] = np.array(seeds, dtype=np.uint64)
        tails = [b":seat:%d" % p for p in range(players)]  # seat_seeds, for every game in one pass
        values[:, 1:] = np.array([int.from_bytes(sha256(b"%d" % seed + tail).digest()[:8], "big") >> 1
                                  for seed in seeds for tail in tails], dtype=np.uint64).reshape(n_games, players)
        high = values >> np.uint64(32)
        keys = np.zeros((n_games, lanes, 2), dtype=np.int64)
        keys[:, :players + 1, 0] = (values & np.uint64(0xFFFFFFFF)).astype(np.int64)
        keys[:, :players + 1, 1] = high.astype(np.int64)
        key_lens = np.ones((n_games, lanes), dtype=np.int64)
        key_lens[:, :players + 1] = np.where(high > 0, 2, 1)
        return keys, key_lens
    words = [[_words(seed), *map(_words, seat_seeds(seed, players))] for seed in seeds]
    width = max((len(w) for game in words for w in game), default=1)
    if width > kernel.MT_N:
        raise ValueError("a seed too large for the kernel")
    keys = np.zeros((n_games, lanes, width), dtype=np.int64)
    key_lens = np.ones((n_games, lanes), dtype=np.int64)
    for g, game in enumerate(words):
        for r, w in enumerate(game):
            keys[g, r, :len(w)] = w
            key_lens[g, r] = len(w)
    return keys, key_lens


def play_batch(board: RulesBoard, rules: RulesConfig, lineups: Sequence[Sequence[str]], seeds: Sequence[int],
               bot_badge_values: Sequence[int] | None = None, bot_threshold: int | None = None) -> Batch:
    """Play game g with seat p's bot ``lineups[g][p]`` and seed ``seeds[g]``, as
    ``api.play_game(board, rules, [bot_factory(name, bot_threshold, bot_badge_values, dice) ...], seeds[g])``
    does.

    The bots' badge values default to what ``simulate`` gives them (the zones' values in the complex variant,
    none in the simple one) and their threshold to the rules' badge threshold. Raises ValueError when the kernel
    cannot play these games (``unsupported``) and RuntimeError when numba is not available.
    """
    import numpy as np

    kernel = load_kernel()
    if kernel is None:
        raise RuntimeError(LOADER.failed)
    n_games = len(seeds)
    if len(lineups) != n_games:
        raise ValueError("one line-up per seed")
    players = len(lineups[0]) if n_games else 1
    if any(len(names) != players for names in lineups):
        raise ValueError("every game needs the same number of players")
    why = unsupported(board, rules, {name for names in lineups for name in names}, players)
    if why:
        raise ValueError(f"the kernel cannot play these games: {why}")
    if any(type(seed) is not int for seed in seeds):
        raise ValueError("seeds must be ints")
    if bot_badge_values is None:
        bot_badge_values = tuple(z.badge_value for z in board.zones) if rules.variant == "complex" else ()
    bot_badges = len(bot_badge_values) > 0
    bot_badge = np.zeros(len(board.zones), dtype=np.int64)
    if bot_badges:
        bot_badge[:] = bot_badge_values
    threshold = rules.badge_threshold if bot_threshold is None else bot_threshold
    nbr, nbr_n, zone_of, dice, minima, start, badge_value = _board_arrays(board)
    prm = _params(kernel, rules, players, threshold, bot_badges)
    code = {name: i for i, name in enumerate(kernel.BOT_KINDS)}
    kinds = np.array([[code[name] for name in names] for names in lineups], dtype=np.int64).reshape(n_games,
                                                                                                    players)
    keys, key_lens = _seed_keys(kernel, seeds, players)
    n_zones, turns = len(board.zones), rules.turns
    out = Batch(
        seeds=tuple(seeds),
        scores=np.zeros((n_games, players), dtype=np.int64),
        winners=np.zeros(n_games, dtype=np.int64),
        pieces=np.zeros((n_games, players), dtype=np.int64),
        chips=np.zeros((n_games, players), dtype=np.int64),
        final_index=np.zeros((n_games, n_zones), dtype=np.int64),
        end_index=np.zeros((n_games, n_zones), dtype=np.int64),
        badges=np.zeros((n_games, players, n_zones), dtype=np.int64),
        trajectory=np.zeros((n_games, turns + 1, n_zones), dtype=np.int64),
        leaders=np.zeros((n_games, turns + 1), dtype=np.int64),
        events=np.zeros((n_games, len(EVENTS)), dtype=np.int64),
        ran_out=np.zeros((n_games, players), dtype=np.int64),
        cells=np.zeros((n_games, board.n_cells), dtype=np.uint8),
    )
    if n_games:
        state = kernel.new_state(nbr, nbr_n, zone_of, dice, minima, start, badge_value, bot_badge, players)
        kernel.play_games(prm, kinds, keys, key_lens, kernel.MT_BASE, *state, out.scores, out.winners, out.pieces,
                          out.chips, out.final_index, out.end_index, out.badges, out.trajectory, out.leaders,
                          out.events, out.ran_out, out.cells)
        LOADER.mark_compiled()
    return out


def kernel_batch(game: WellbeingGame, bots: Sequence[str], seed: int, start: int, stop: int,
                 rotate: bool) -> OutcomeColumns | None:
    """Games ``start`` to ``stop`` of a simulation seeded ``seed`` (as ``play_one`` seeds them with the plug-in's
    ``game_seeds``), or None when the API path should play them."""
    board, rules, players = game.board, game.rules, game.players
    if stop <= start or unsupported(board, rules, bots, players):
        return None
    if not LOADER.wanted((stop - start) * game_cost(board, rules, bots)) or load_kernel() is None:
        return None
    names = tuple(dict.fromkeys(bots))
    # a game's line-up depends on its index modulo the bots only: those few, looked up per game
    turns = [lineup(bots, players, i, rotate) for i in range(len(bots))]
    which = np.arange(start, stop) % len(bots)
    lineups = [turns[k] for k in which.tolist()]
    codes = np.array([[names.index(b) for b in seats] for seats in turns], dtype=np.int8).reshape(-1, players)
    return play_batch(board, rules, lineups, game_seeds(seed, start, stop)).columns(codes[which], names)


def warm_kernel() -> bool:
    """Compile the kernel into its disk cache now (or load it if it is there), so that auto mode takes it from
    the first large run; scripts/setup.sh calls this. False when numba is not installed."""
    from boardgen.games.global_wellbeing.rules.board import hex_rectangle
    from boardgen.games.global_wellbeing.schema import load_template

    if load_kernel() is None:
        return False
    config = load_template()
    play_batch(hex_rectangle(6, 4, config.zones), config.rules, [("random",) * 2], [1])
    return LOADER.cached()


__all__ = ["KERNEL_BOTS", "LOADER", "Batch", "game_cost", "kernel_batch", "load_kernel", "play_batch",
           "unsupported", "warm_kernel"]

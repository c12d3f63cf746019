"""The flagship's compiled fast path: batches of whole games played by a numba kernel (``rules.kernel``), the
same games as ``engine.play_game`` for the same seeds, bit for bit (tests/games/global_wellbeing/test_fast_engine.py).

``play_batch(board, rules, lineups, seeds)`` plays many games in one call and returns their results as arrays
(``Batch``); ``Batch.results()`` turns them into the engine's ``GameResult``s. ``unsupported(...)`` says why a
game cannot go through the kernel (a bot it does not have, a rule value outside what it handles), and then the
callers use the reference engine: the kernel never plays a different game, it does not play at all.

Which engine plays is chosen by ``BOARDGEN_ENGINE``: ``reference`` (the Python engine, always), ``kernel`` (the
kernel whenever it supports the game and numba imports) or ``auto``/unset: the kernel once enough games have
been asked for in this process to pay for loading it (importing numba and the compiled kernel costs about as
much as a few hundred reference games; see ``LOAD_COST_GAMES``). The compiled kernel is cached on disk (numba's
``cache=True``) in boardgen's cache folder (``BOARDGEN_CACHE_DIR`` or the user cache directory), under
``numba/``, unless ``NUMBA_CACHE_DIR`` is set; the first run compiles it (10-25 s), later runs load it (0.5 s).
"""

from __future__ import annotations

import functools
import gc
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path
from types import ModuleType
from typing import Any

from boardgen.config import RulesConfig
from boardgen.games.global_wellbeing.rules.board import RulesBoard
from boardgen.games.global_wellbeing.rules.engine import EVENTS, GameResult
from boardgen.play.kernels import import_arraymath_without_blas

ENGINE_ENV = "BOARDGEN_ENGINE"
ENGINES = ("auto", "kernel", "reference")
KERNEL_BOTS = ("random", "greedy", "planner")  # rules.kernel.BOT_KINDS
# What loading the kernel costs, in reference games of 6 random bots on the default board (about 1 ms each):
# importing numba and the cached machine code takes about 0.3 s; compiling it the first time, about 15 s
# (benchmarks/bench_rules.py prints both). A greedy game costs the reference engine about 2 such games, a
# planner game 5.
LOAD_COST_GAMES = 300
COMPILE_COST_GAMES = 20_000
GAME_COST = {"random": 1.0, "greedy": 2.0, "planner": 5.0}
MAX_VALUE = 1 << 40  # rule numbers beyond this could overflow the kernel's int64 arithmetic: reference engine
KERNEL_SOURCE = Path(__file__).with_name("kernel.py")

_kernel: ModuleType | None = None
_kernel_failed = ""
_asked_games = 0.0  # reference-game equivalents asked for in this process (auto mode)


def engine_setting() -> str:
    """``BOARDGEN_ENGINE``: auto (unset), kernel or reference."""
    value = os.environ.get(ENGINE_ENV, "").strip().lower() or "auto"
    if value not in ENGINES:
        raise ValueError(f"{ENGINE_ENV}={value!r}: expected one of {', '.join(ENGINES)}")
    return value


def numba_cache_dir() -> Path:
    """Where numba keeps the compiled kernel: ``NUMBA_CACHE_DIR`` if set, else a folder of boardgen's cache named
    after the kernel's source and numba's version (so a changed kernel never meets an old cache entry)."""
    override = os.environ.get("NUMBA_CACHE_DIR")
    if override:
        return Path(override)
    from boardgen.cache import cache_dir

    return cache_dir() / "numba" / _kernel_version()


@functools.cache
def _kernel_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        numba_version = version("numba")
    except PackageNotFoundError:
        numba_version = "none"
    return f"{sha256(KERNEL_SOURCE.read_bytes()).hexdigest()[:16]}-numba{numba_version}"


def _warm_marker() -> Path:
    return numba_cache_dir() / "compiled"


def kernel_cached() -> bool:
    """Whether the compiled kernel is on disk (a run has compiled it into ``numba_cache_dir()`` before)."""
    try:
        return _warm_marker().is_file()
    except OSError:
        return False


def load_kernel() -> ModuleType | None:
    """The kernel module, its machine code loaded or compiled; None when numba is not installed (said once)."""
    global _kernel, _kernel_failed
    if _kernel is not None or _kernel_failed:
        return _kernel
    folder = numba_cache_dir()
    try:
        import numba

        numba.config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]  # read as the kernel is defined
        import_arraymath_without_blas()
        from boardgen.games.global_wellbeing.rules import kernel
    except Exception as error:  # not installed, or a numba that does not take the kernel's options
        _kernel_failed = f"numba is not available ({type(error).__name__}: {error})"
        return None
    if kernel.EVENTS != EVENTS:
        raise RuntimeError("rules.kernel.EVENTS is out of step with rules.engine.EVENTS")
    _kernel = kernel
    return kernel


def _mark_compiled() -> None:
    marker = _warm_marker()
    if marker.is_file():
        return
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text("numba has compiled rules/kernel.py into this folder\n")
    except OSError:
        pass  # a read-only cache: every run compiles, and auto mode keeps to the reference engine for small runs


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
        return "a divisor, period or die below 1 (the reference engine raises)"
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


def use_kernel(board: RulesBoard, rules: RulesConfig, bots: Sequence[str], players: int, games: int,
               planned: int = 0) -> bool:
    """Whether the next ``games`` games (of ``planned`` this process expects to play, if known) go through the
    kernel: never with ``BOARDGEN_ENGINE=reference`` or for games it does not support or without numba; always
    otherwise with ``BOARDGEN_ENGINE=kernel``; in auto mode once the games asked for in this process would cost
    the reference engine more than loading the kernel (``LOAD_COST_GAMES``, or ``COMPILE_COST_GAMES`` while it
    has never been compiled)."""
    global _asked_games
    setting = engine_setting()
    if setting == "reference" or unsupported(board, rules, bots, players):
        return False
    if setting == "auto" and _kernel is None:
        per_game = sum(GAME_COST[name] for name in bots) / len(bots) * max(rules.turns, 1) / 20 * \
            max(board.n_cells, 1) / 300
        _asked_games += games * per_game
        cost = LOAD_COST_GAMES if kernel_cached() else COMPILE_COST_GAMES
        if max(_asked_games, planned * per_game) < cost:
            return False
    if load_kernel() is None:
        if setting == "kernel":
            raise RuntimeError(f"{ENGINE_ENV}=kernel, but {_kernel_failed}")
        return False
    return True


# -------------------------------------------------------------------------------------- batches


@dataclass(frozen=True)
class Batch:
    """The results of ``len(seeds)`` games as arrays, row g for game g (numpy int64 unless said)."""

    seeds: tuple[int, ...]
    bots: tuple[tuple[str, ...], ...]  # per game, per seat
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

    def occupied_counts(self) -> list[int]:
        """Per cell: games in which it was occupied at the end."""
        return [int(v) for v in (self.cells & 1).sum(axis=0, dtype="int64")]

    def contested_counts(self) -> list[int]:
        """Per cell: games in which pieces of two or more players stood on it."""
        return [int(v) for v in (self.cells >> 1).sum(axis=0, dtype="int64")]

    def results(self, cells: bool = True) -> list[GameResult]:
        """The games as ``GameResult``s (``occupied`` and ``contested`` left empty when ``cells`` is False)."""
        with _gc_paused():
            return self._results(cells)

    def _results(self, cells: bool) -> list[GameResult]:
        seats = range(self.scores.shape[1])
        scores, winners, pieces = self.scores.tolist(), self.winners.tolist(), self.pieces.tolist()
        chips, final, end = self.chips.tolist(), self.final_index.tolist(), self.end_index.tolist()
        badges, trajectory, leaders = self.badges.tolist(), self.trajectory.tolist(), self.leaders.tolist()
        events, ran_out = self.events.tolist(), self.ran_out.tolist()
        occupied = (self.cells & 1).tolist() if cells else None
        contested = (self.cells >> 1).tolist() if cells else None
        out = []
        for g, seed in enumerate(self.seeds):
            mask = winners[g]
            out.append(GameResult(
                seed=seed,
                bots=self.bots[g],
                scores=tuple(scores[g]),
                winners=tuple(p for p in seats if mask >> p & 1),
                pieces=tuple(pieces[g]),
                chips=tuple(chips[g]),
                final_index=tuple(final[g]),
                end_index=tuple(end[g]),
                badges=tuple(map(tuple, badges[g])),
                trajectory=tuple(map(tuple, trajectory[g])),
                leaders=tuple(leaders[g]),
                events=tuple(events[g]),
                ran_out=tuple(ran_out[g]),
                occupied=tuple(occupied[g]) if occupied is not None else (),
                contested=tuple(contested[g]) if contested is not None else (),
            ))
        return out


@contextmanager
def _gc_paused() -> Iterator[None]:
    """No cyclic garbage collection inside: building thousands of small tuples and lists would start it again
    and again, each time walking every object made so far (it cost three quarters of the time)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


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
    join): the seeds ``play_game`` gives the bots."""
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
        values = np.array([[seed, *seat_seeds(seed, players)] for seed in seeds], dtype=np.uint64)
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
    ``play_game(board, rules, [bot_factory(name, bot_threshold, bot_badge_values, dice) ...], seeds[g])`` does.

    The bots' badge values default to what ``simulate`` gives them (the zones' values in the complex variant,
    none in the simple one) and their threshold to the rules' badge threshold. Raises ValueError when the kernel
    cannot play these games (``unsupported``) and RuntimeError when numba is not available.
    """
    import numpy as np

    kernel = load_kernel()
    if kernel is None:
        raise RuntimeError(_kernel_failed)
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
        bots=tuple(tuple(names) for names in lineups),
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
        _mark_compiled()
    return out


def warm_kernel() -> bool:
    """Compile the kernel into its disk cache now (or load it if it is there), so that auto mode takes it from
    the first large run; scripts/setup.sh calls this. False when numba is not installed."""
    from boardgen.config import load_template
    from boardgen.games.global_wellbeing.rules.board import hex_rectangle

    if load_kernel() is None:
        return False
    config = load_template()
    play_batch(hex_rectangle(6, 4, config.zones), config.rules, [("random",) * 2], [1])
    return kernel_cached()


__all__ = ["ENGINES", "ENGINE_ENV", "Batch", "engine_setting", "load_kernel", "numba_cache_dir", "play_batch",
           "unsupported", "use_kernel", "warm_kernel"]

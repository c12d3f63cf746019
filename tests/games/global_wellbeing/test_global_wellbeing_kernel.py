"""The flagship's compiled kernel (rules.fast, rules.kernel) plays exactly the games of the rules API's state
machine (rules.api): every result field compared game by game (scores, winners, length, the metrics, every rule
count, and the game's own arrays: pieces, chips, indices, badges, trajectory, leaders, running out, occupied and
contested cells) for the same seeds, on the real board and on synthetic ones, under every rule option the rules
read; 1,000 games per bot kind in the slow tests."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from rules_strategies import ZONES, games

from boardgen.games.global_wellbeing.rules import fast
from boardgen.games.global_wellbeing.rules.board import RulesBoard, hex_rectangle
from boardgen.games.global_wellbeing.rules.bots import BOT_NAMES, bot_factory
from boardgen.games.global_wellbeing.rules.engine import FlagshipBot, WellbeingGame
from boardgen.games.global_wellbeing.rules.report import simulate, summary
from boardgen.games.global_wellbeing.schema import RulesConfig, load_template
from boardgen.geomap.model import Board
from boardgen.play.bots import play_with_bots
from boardgen.play.columns import GameRecord, OutcomeColumns
from boardgen.play.simulate import derive_seed, lineup, summary_of_columns

pytest.importorskip("numba")

MIXED = ("random", "greedy", "planner", "planner", "greedy", "random")


@pytest.fixture(scope="module", autouse=True)
def kernel() -> object:
    loaded = fast.load_kernel()
    assert loaded is not None
    return loaded


def through_api(board: RulesBoard, rules: RulesConfig, lineups: Sequence[Sequence[str]], seeds: Sequence[int],
                badge_values: Sequence[int] | None = None) -> OutcomeColumns:
    """The games through the state machine, seeded as a simulation seeds them (the dice from
    ``random.Random(seed)``, seat s's bot from ``derive_seed(seed, "seat", s)``), with the bots ``simulate``
    gives (or these badge values)."""
    if badge_values is None:
        badge_values = tuple(z.badge_value for z in board.zones) if rules.variant == "complex" else ()
    dice = tuple(z.die for z in board.zones)
    names = tuple(dict.fromkeys(b for seats in lineups for b in seats))
    records = []
    for seats, seed in zip(lineups, seeds, strict=True):
        game = WellbeingGame(board, rules, len(seats))
        bots = []
        for s, name in enumerate(seats):
            rng = random.Random(derive_seed(seed, "seat", s))
            inner = bot_factory(name, rules.badge_threshold, tuple(badge_values), dice)(rng)
            bots.append(FlagshipBot(game, s, rng, name, inner))
        state = play_with_bots(game.new_initial_state(seed), bots, random.Random(seed))
        records.append(GameRecord(seed, tuple(seats), state.outcome()))
    return OutcomeColumns.from_records(records, len(lineups[0]) if lineups else 1, names)


def compiled(board: RulesBoard, rules: RulesConfig, lineups: Sequence[Sequence[str]], seeds: Sequence[int],
             badge_values: Sequence[int] | None = None) -> OutcomeColumns:
    names = tuple(dict.fromkeys(b for seats in lineups for b in seats))
    codes = np.array([[names.index(b) for b in seats] for seats in lineups], dtype=np.int8)
    return fast.play_batch(board, rules, lineups, seeds, badge_values).columns(codes.reshape(len(seeds), -1), names)


def differences(board: RulesBoard, rules: RulesConfig, lineups: Sequence[Sequence[str]], seeds: Sequence[int],
                badge_values: Sequence[int] | None = None) -> list[str]:
    """Where the kernel's games differ from the state machine's (empty: every field of every game agrees)."""
    want = through_api(board, rules, lineups, seeds, badge_values)
    got = compiled(board, rules, lineups, seeds, badge_values)
    assert got.games == len(seeds)
    assert set(got.arrays) == set(want.arrays) or not seeds
    return want.differences(got)


@pytest.fixture(scope="module")
def real_board(default_board: Board) -> RulesBoard:
    return RulesBoard.from_board(default_board)


# ------------------------------------------------------------------------------------ the random streams


@pytest.mark.parametrize("seed", [0, 1, 7, 2**32 - 1, 2**32, 2**63 - 1, derive_seed(2026, "game", 5), -12, 2**200 + 3])
def test_the_kernels_mersenne_twister_is_cpythons(kernel: object, seed: int) -> None:
    words = fast._words(seed)
    r = random.Random(seed)
    assert kernel.mt_randoms(words, 1500).tolist() == [r.random() for _ in range(1500)]  # type: ignore[attr-defined]


def test_seat_seeds_are_derive_seed() -> None:
    for seed in (0, 5, 2**62 + 11, derive_seed(1, "game", 3)):
        assert fast.seat_seeds(seed, 6) == [derive_seed(seed, "seat", p) for p in range(6)]


# ------------------------------------------------------------------------------------ the real board


LINEUPS = {"random": ("random",), "greedy": ("greedy",), "planner": ("planner",), "mixed": MIXED}


@pytest.mark.parametrize(("bots", "games"), [
    *(pytest.param(bots, 50, id=name) for name, bots in LINEUPS.items()),
    *(pytest.param(bots, 1000, id=f"{name}-1000", marks=pytest.mark.slow) for name, bots in LINEUPS.items()),
])
def test_same_games_on_the_real_board(real_board: RulesBoard, bots: tuple[str, ...], games: int) -> None:
    config = load_template()
    rules, players = config.rules, config.players.usual
    lineups = [lineup(bots, players, i, True) for i in range(games)]
    seeds = [derive_seed(2026, "game", i) for i in range(games)]
    assert differences(real_board, rules, lineups, seeds) == []


# ------------------------------------------------------------------------------------ rule options


VARIANTS: dict[str, dict[str, object]] = {
    "simple": {"variant": "simple"},
    "simple with harvest": {"variant": "simple", "simple_harvest": True},
    "move required": {"move_optional": False},
    "move anywhere": {"move_next_to_other_pieces": False},
    "move required anywhere": {"move_optional": False, "move_next_to_other_pieces": False},
    "first player rotates": {"first_player_rotates": True},
    "tipping first": {"end_of_turn_order": "tipping-first", "stewardship_every": 2, "tipping_point_every": 3},
    "badges can be lost": {"badges_can_be_lost": True, "badge_threshold": 4},
    "unlimited pieces, uncapped harvest": {"pieces_limited": False, "harvest_capped_by_bank": False,
                                           "pieces_per_player": 12},
    "three investments, small bank": {"investments_per_turn": 3, "bank_chips": 60, "harvest_divisor": 10},
    "no investments, few chips": {"investments_per_turn": 0, "starting_chips": 3},
    "economy variant": {"investments_per_turn": 3, "harvest_divisor": 45},
    "long game": {"turns": 40, "setup_rounds": 4},
    "no turns": {"turns": 0},
    "no setup": {"setup_rounds": 0, "badge_threshold": 2},
}


@pytest.mark.parametrize("change", list(VARIANTS.values()), ids=list(VARIANTS))
def test_same_games_under_each_rule_option(change: dict[str, object]) -> None:
    board = hex_rectangle(14, 10, ZONES, holes=[(3, 3), (4, 3), (10, 7)])
    rules = load_template().rules.model_copy(update={**change})  # type: ignore[arg-type]
    lineups = [lineup(MIXED, 6, i, True) for i in range(24)]
    seeds = [derive_seed(11, "game", i) for i in range(24)]
    assert differences(board, rules, lineups, seeds) == []


@pytest.mark.parametrize("players", [1, 2, 6])
def test_same_games_when_the_board_runs_out_of_cells(players: int) -> None:
    board = hex_rectangle(6, 5, ZONES)  # 30 cells: six players' setup alone fills it
    rules = load_template().rules
    lineups = [lineup(BOT_NAMES, players, i, True) for i in range(30)]
    seeds = [derive_seed(3, "game", i) for i in range(30)]
    assert differences(board, rules, lineups, seeds) == []
    ran_out = fast.play_batch(board, rules, lineups, seeds).ran_out
    if players == 6:
        assert ((ran_out & 2) != 0).any(axis=1).all()  # every game ran out of cells


def test_same_games_on_a_board_without_cells() -> None:
    board = hex_rectangle(3, 2, ZONES, holes=[(c, r) for c in range(3) for r in range(2)])
    assert board.n_cells == 0
    assert differences(board, load_template().rules, [MIXED[:3]] * 3, [1, 2, 3]) == []


@settings(max_examples=150, deadline=None)
@given(games())
def test_same_games_whatever_the_board_and_rules(case: tuple) -> None:
    board, rules, bots, seed = case
    badge_values = tuple(z.badge_value for z in board.zones)  # what test_rules_properties.py gives the bots
    assert differences(board, rules, [tuple(bots)], [seed], badge_values) == []
    assert differences(board, rules, [tuple(bots)], [seed]) == []


# ------------------------------------------------------------------------------------ batches and simulate


def test_simulate_writes_the_same_results_through_either_path(monkeypatch: pytest.MonkeyPatch) -> None:
    board = hex_rectangle(12, 9, ZONES)
    rules = load_template().rules
    documents = {}
    for engine in ("reference", "kernel"):
        monkeypatch.setenv("BOARDGEN_ENGINE", engine)
        sim = simulate(board, rules, 120, 6, BOT_NAMES, seed=5)
        document = {"shared": summary_of_columns(sim.columns, 6, BOT_NAMES, 5), "own": summary(sim),
                    "cells": sim.cell_counts()}  # the report's numbers: the runner's and the game's own
        documents[engine] = json.dumps(document, sort_keys=True)
    assert documents["kernel"] == documents["reference"]


def test_kernel_batch_is_the_api_batch_games(default_ctx: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plug-in hook: games start..stop with the simulation's rotation, the same as ``api_batch``'s through
    the API; None for bots with no compiled form, for rules it does not handle and with the reference setting."""
    from boardgen.play.runner import api_batch
    from boardgen.plugin import BuildContext

    assert isinstance(default_ctx, BuildContext)
    plugin, ctx = default_ctx.plugin, default_ctx
    monkeypatch.setenv("BOARDGEN_ENGINE", "kernel")
    columns = plugin.fast.kernel_batch(ctx, 6, ("greedy", "planner", "random"), 3, 10, 40, True)
    assert columns is not None and columns.games == 30
    api = OutcomeColumns.from_records(api_batch(plugin, ctx, 6, ("greedy", "planner", "random"), 3, 10, 40, True),
                                      6, columns.bot_names)
    assert api.differences(columns) == []
    assert plugin.fast.kernel_batch(ctx, 6, ("random", "mcts"), 3, 0, 5, True) is None
    monkeypatch.setenv("BOARDGEN_ENGINE", "reference")
    assert plugin.fast.kernel_batch(ctx, 6, ("random",), 3, 0, 5000, True) is None
    monkeypatch.setenv("BOARDGEN_ENGINE", "fastest")
    with pytest.raises(ValueError, match="BOARDGEN_ENGINE"):
        plugin.fast.kernel_batch(ctx, 6, ("random",), 3, 0, 5, True)


def test_unsupported_games_are_refused_not_played_differently() -> None:
    board = hex_rectangle(5, 5, ZONES)
    rules = load_template().rules
    with pytest.raises(ValueError, match="cannot play"):
        fast.play_batch(board, rules, [("random", "mcts")], [1])
    with pytest.raises(ValueError, match="cannot play"):
        fast.play_batch(board, rules.model_copy(update={"stewardship_every": 0}), [("random",)], [1])
    assert fast.unsupported(board, rules, ["random"] * 7, 7)
    assert fast.unsupported(board, rules.model_copy(update={"bank_chips": 2**50}), ["random"], 2)
    assert fast.unsupported(board, rules.model_copy(update={"turns": -1}), ["random"], 2)
    assert not fast.unsupported(board, rules.model_copy(update={"turns": 0, "setup_rounds": 0}), ["random"], 2)


def test_warming_the_kernel_marks_its_cache_compiled(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """scripts/setup.sh's warm-up leaves the kernel's cache marked, so auto mode takes it from the first run."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not fast.LOADER.cached()
    assert fast.warm_kernel() is True
    assert fast.LOADER.cached() and (tmp_path / "compiled").is_file()


@pytest.mark.parametrize("players", [1, 6])
def test_the_array_path_of_the_seed_keys_gives_the_words_random_seed_uses(kernel: object, players: int) -> None:
    seeds = [0, 1, 2**32 - 1, 2**32, 2**63 - 1, 2**64 - 1, derive_seed(2026, "game", 5)]
    keys, key_lens = fast._seed_keys(kernel, seeds, players)  # type: ignore[arg-type]
    for g, seed in enumerate(seeds):
        for lane, value in enumerate([seed, *fast.seat_seeds(seed, players)]):
            words = fast._words(value)
            assert key_lens[g, lane] == len(words)
            assert keys[g, lane, :len(words)].tolist() == words


def test_loading_the_kernel_skips_scipy_yet_leaves_it_importable() -> None:
    """numba's BLAS probe would import scipy.linalg (0.4 s) as the kernel loads; it is answered "absent" only
    for that import: a fresh process loads the kernel without scipy.linalg, and can import it afterwards."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from boardgen.games.global_wellbeing.rules import fast\n"
            "assert fast.load_kernel() is not None\n"
            "fast.warm_kernel()\n"
            "print('scipy.linalg' in sys.modules, 'scipy.linalg.cython_blas' in sys.modules)\n"
            "try:\n    import scipy.linalg.cython_blas\nexcept ImportError:\n    print('no scipy')\n"
            "else:\n    print('importable')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    first, second = done.stdout.split("\n")[:2]
    assert first == "False False"
    assert second in ("importable", "no scipy")

"""Global Warming's compiled kernel plays the very games the rules API plays: the same seeds through
``runner.api_batch`` (engine and Python bots) and through ``kernel_batch`` give equal results, field for field
(scores, winners, length, every metric and event), for each bot kind the kernel plays."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from boardgen.play.columns import OutcomeColumns
from boardgen.play.simulate import derive_seed, lineup, play_one, simulate
from boardgen.plugin import BuildContext, get_game

TEMPLATE = Path(__file__).resolve().parents[3] / "templates" / "global-warming.yaml"


def context(**rules: object) -> BuildContext:
    plugin = get_game("global-warming")
    data = yaml.safe_load(TEMPLATE.read_text())
    data.setdefault("rules", {}).update(rules)
    return BuildContext(plugin.load_config(data, str(TEMPLATE), "test"), plugin)


def compare(ctx: BuildContext, players: int, bots: tuple[str, ...], games: int, seed: int = 11, jobs: int = 1) -> None:
    from boardgen.games.global_warming.rules import fast

    plugin = ctx.plugin
    game = ctx.value(f"game:{players}", lambda: plugin.new_game(ctx, players))
    kernel = fast.play(game, bots, seed, 0, games, True)
    if jobs == 1:
        factories = plugin.bots()
        records = [play_one(game, factories, lineup(bots, players, i, True), derive_seed(seed, "game", i))
                   for i in range(games)]  # the rules API's games, as runner.api_batch seeds them
    else:  # the same games on several processes (results do not depend on jobs)
        records = list(simulate(game, plugin.bots(), games, bots, seed, jobs=jobs).records)
    api = OutcomeColumns.from_records(records, players, kernel.bot_names)
    assert kernel.games == games
    assert kernel.differences(api) == []


@pytest.mark.parametrize("bots", [("random",), ("greedy", "random"), ("cautious", "greedy", "random")])
def test_kernel_plays_the_api_games(bots: tuple[str, ...]) -> None:
    compare(context(), 4, bots, 50)


def test_kernel_plays_the_api_games_of_other_rules() -> None:
    """Two players, the diagonal variant, a longer line of coins, coins mostly suit up, no blank pass."""
    ctx = context(setup="diagonal", line_length=4, value_face_up=0.25, blank_may_pass=False, players=2,
                  sea_margin=2, action_order=[5, 4, 3, 2, 1, 0])
    compare(ctx, 2, ("cautious", "greedy", "random"), 30)


def test_kernel_batch_leaves_bots_it_does_not_play_to_the_api() -> None:
    ctx = context()
    plugin = ctx.plugin
    assert plugin.fast.kernel_batch(ctx, 4, ("search", "random"), 1, 0, 500, True) is None
    batch = plugin.fast.kernel_batch(ctx, 4, ("random",), 1, 100, 400, True)
    assert batch is not None and batch.games == 300


def test_one_game_never_loads_numba() -> None:
    """``simulate --games 1``: the API plays it, and numba is not even imported."""
    script = ("import sys; from boardgen.games.global_warming.rules import fast; "
              "assert fast.kernel_batch(None, ('cautious', 'greedy', 'random'), 1, 0, 1, True) is None; "
              "assert 'numba' not in sys.modules")
    subprocess.run([sys.executable, "-c", script], check=True, env={**os.environ, "BOARDGEN_ENGINE": "auto"})


@pytest.mark.slow
@pytest.mark.parametrize("players,bots", [(4, ("random",)), (3, ("cautious", "greedy", "random"))])
def test_kernel_plays_a_thousand_api_games(players: int, bots: tuple[str, ...]) -> None:
    """1,000 games: four random bots; and three players of the default mix, where cautious, greedy and random
    each have a seat in every game (the API's side on two processes)."""
    compare(context(), players, bots, 1000, seed=2026, jobs=2)

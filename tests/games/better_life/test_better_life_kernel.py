"""BETTER Life's compiled kernel plays the same games as the rules API, field for field, for every bot it
compiles and the template's rule options."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardgen.games.better_life.rules import fast
from boardgen.games.better_life.rules.engine import BetterLifeGame
from boardgen.play.columns import OutcomeColumns
from boardgen.play.runner import api_batch
from boardgen.play.simulate import derive_seed, lineup
from boardgen.plugin import BuildContext, GamePlugin
from boardgen.template import load

pytest.importorskip("numba")
TEMPLATE = Path(__file__).resolve().parents[3] / "templates" / "better-life.yaml"
DEFAULT = ("fair-share", "meter-reader", "target-seeker", "free-rider", "fair-share")
LINEUPS = (("random",), ("free-rider",), ("fair-share",), ("target-seeker",), ("meter-reader",), DEFAULT,
           ("meter-reader", "random", "free-rider"))


@pytest.fixture(scope="module")
def loaded() -> tuple[GamePlugin, BuildContext]:
    plugin, config = load(TEMPLATE)
    return plugin, BuildContext(config, plugin)


def _both(plugin: GamePlugin, ctx: BuildContext, bots: tuple[str, ...], games: int,
          seed: int = 7) -> tuple[OutcomeColumns, OutcomeColumns]:
    game = plugin.new_game(ctx, 5)
    assert isinstance(game, BetterLifeGame)
    api = OutcomeColumns.from_records(api_batch(plugin, ctx, 5, bots, seed, 0, games, True), 5)
    kernel = fast.play_columns(game, [lineup(bots, 5, i, True) for i in range(games)],
                               [derive_seed(seed, "game", i) for i in range(games)])
    return api, kernel


@pytest.mark.parametrize("bots", LINEUPS)
def test_kernel_plays_the_api_games(loaded: tuple[GamePlugin, BuildContext], bots: tuple[str, ...]) -> None:
    plugin, ctx = loaded
    api, kernel = _both(plugin, ctx, bots, 50)
    assert api.differences(kernel) == []
    assert set(kernel.events) == set(api.events) and set(kernel.metrics) == set(api.metrics)


@pytest.mark.parametrize("change", [
    {"event_buy_off": False}, {"hand_limit": 2, "start_hand": 4}, {"market": 7, "die_sides": 4},
    {"ip": {"start": 0, "box": 40, "denominations": {1: 40}, "max_bid": 6}},
    {"meters": {"loss_limit": 2, "policy_goal": 4, "policy_max": 6}},
    {"spaces": {"own_role_ip": 0, "other_role_fee": 3, "ip_space": 2, "plus_one": 3, "fund_fee": 2,
                "empty_fund_payout": 0}},
])
def test_kernel_follows_every_rule_option(loaded: tuple[GamePlugin, BuildContext], change: dict) -> None:
    plugin, ctx = loaded
    data = ctx.config.model_dump()
    data.update(change)
    config = type(ctx.config).model_validate(data)
    changed = BuildContext(config, plugin)
    for bots in (DEFAULT, ("random", "meter-reader")):
        api, kernel = _both(plugin, changed, bots, 20, seed=11)
        assert api.differences(kernel) == [], change


def test_kernel_batch_is_the_api_batch_games(loaded: tuple[GamePlugin, BuildContext],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    plugin, ctx = loaded
    monkeypatch.setenv("BOARDGEN_ENGINE", "kernel")
    columns = plugin.fast.kernel_batch(ctx, 5, DEFAULT, 3, 10, 40, True)
    assert columns is not None and columns.games == 30
    api = OutcomeColumns.from_records(api_batch(plugin, ctx, 5, DEFAULT, 3, 10, 40, True), 5)
    assert api.differences(columns) == []
    assert plugin.fast.kernel_batch(ctx, 5, ("greedy", "fair-share"), 3, 0, 5, True) is None
    monkeypatch.setenv("BOARDGEN_ENGINE", "reference")
    assert plugin.fast.kernel_batch(ctx, 5, DEFAULT, 3, 0, 5000, True) is None


@pytest.mark.slow
@pytest.mark.parametrize("bots", [("random",), ("free-rider",), ("fair-share",), ("target-seeker",),
                                  ("meter-reader",), DEFAULT])
def test_kernel_plays_a_thousand_api_games(loaded: tuple[GamePlugin, BuildContext], bots: tuple[str, ...]) -> None:
    plugin, ctx = loaded
    api, kernel = _both(plugin, ctx, bots, 1000, seed=2026)
    assert api.differences(kernel) == []

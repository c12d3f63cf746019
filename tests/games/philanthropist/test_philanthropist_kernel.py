"""The Philanthropist's compiled kernel plays the same games as the rules API, field for field, for every bot it
compiles, every player count and the template's rule options."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardgen.games.philanthropist.rules import fast
from boardgen.games.philanthropist.rules.engine import PhilanthropistGame
from boardgen.play.columns import OutcomeColumns
from boardgen.play.runner import api_batch
from boardgen.play.simulate import derive_seed, lineup
from boardgen.plugin import BuildContext, GamePlugin
from boardgen.template import load

pytest.importorskip("numba")
TEMPLATE = Path(__file__).resolve().parents[3] / "templates" / "philanthropist.yaml"
LINEUPS = (("uniform",), ("random",), ("collector",), ("planner",), ("collector", "planner"),
           ("planner", "random", "collector", "uniform"))


@pytest.fixture(scope="module")
def loaded() -> tuple[GamePlugin, BuildContext]:
    plugin, config = load(TEMPLATE)
    return plugin, BuildContext(config, plugin)


def _both(plugin: GamePlugin, ctx: BuildContext, players: int, bots: tuple[str, ...], games: int,
          seed: int = 7) -> tuple[OutcomeColumns, OutcomeColumns]:
    game = plugin.new_game(ctx, players)
    assert isinstance(game, PhilanthropistGame)
    api = OutcomeColumns.from_records(api_batch(plugin, ctx, players, bots, seed, 0, games, True), players)
    kernel = fast.play_columns(game, [lineup(bots, players, i, True) for i in range(games)],
                               [derive_seed(seed, "game", i) for i in range(games)])
    return api, kernel


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bots", LINEUPS)
def test_kernel_plays_the_api_games(loaded: tuple[GamePlugin, BuildContext], players: int,
                                    bots: tuple[str, ...]) -> None:
    plugin, ctx = loaded
    api, kernel = _both(plugin, ctx, players, bots, 50 if bots != ("uniform",) else 12)
    assert api.differences(kernel) == []
    assert set(kernel.events) == set(api.events) and set(kernel.metrics) == set(api.metrics)


@pytest.mark.parametrize("change", [
    {"tie_break": "cubes"}, {"tie_break": "shared"}, {"avatars_may_share": False},
    {"stop_on_unpaid_meeple": False}, {"income_when_collecting": True, "move_income": 2},
    {"first_player": "first-seat", "catch_up_cubes": 0, "middle_corner_cubes": 0, "payday_multiplier": 3},
    {"turn_limit": {2: 8, 3: 6, 4: 5}},
])
def test_kernel_follows_every_rule_option(loaded: tuple[GamePlugin, BuildContext], change: dict) -> None:
    plugin, ctx = loaded
    config = ctx.config.model_copy(update={"rules": ctx.config.rules.model_copy(update=change)})
    changed = BuildContext(config, plugin)
    for players in (3, 4):
        api, kernel = _both(plugin, changed, players, ("planner", "random", "collector", "uniform"), 20, seed=11)
        assert api.differences(kernel) == [], change


def test_kernel_batch_is_the_api_batch_games(loaded: tuple[GamePlugin, BuildContext],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The plug-in hook: games start..stop with the simulation's rotation; None for bots with no compiled form
    and, in auto mode, for a handful of games before the kernel is loaded."""
    plugin, ctx = loaded
    monkeypatch.setenv("BOARDGEN_ENGINE", "kernel")
    columns = plugin.fast.kernel_batch(ctx, 4, ("collector", "planner"), 3, 10, 40, True)
    assert columns is not None and columns.games == 30
    api = OutcomeColumns.from_records(api_batch(plugin, ctx, 4, ("collector", "planner"), 3, 10, 40, True), 4)
    assert api.differences(columns) == []
    assert plugin.fast.kernel_batch(ctx, 4, ("greedy", "planner"), 3, 0, 5, True) is None
    monkeypatch.setenv("BOARDGEN_ENGINE", "reference")
    assert plugin.fast.kernel_batch(ctx, 4, ("collector",), 3, 0, 5000, True) is None


@pytest.mark.slow
@pytest.mark.parametrize(("bots", "players"), [(("uniform",), 4), (("random",), 2), (("collector",), 3),
                                               (("planner",), 4), (("collector", "planner"), 4)])
def test_kernel_plays_a_thousand_api_games(loaded: tuple[GamePlugin, BuildContext], bots: tuple[str, ...],
                                           players: int) -> None:
    plugin, ctx = loaded
    api, kernel = _both(plugin, ctx, players, bots, 1000, seed=2026)
    assert api.differences(kernel) == []

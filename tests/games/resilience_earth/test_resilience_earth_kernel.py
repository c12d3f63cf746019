"""Resilience Earth's compiled kernel plays the very games the rules API plays: the same seeds through
``play_one`` (engine and Python bots) and through the kernel give equal results, field for field (scores,
winners, length, every metric and rule count), for the random bot and each of the game's own bots, on a grid
of fields (no map) and on the real field map."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from boardgen.games.resilience_earth.rules import fast
from boardgen.games.resilience_earth.rules.engine import ResilienceGame
from boardgen.games.resilience_earth.schema import ResilienceTemplate
from boardgen.play.columns import OutcomeColumns
from boardgen.play.simulate import derive_seed, lineup, play_one, simulate
from boardgen.plugin import get_game
from boardgen.schema import validate_template

TEMPLATE = Path(__file__).resolve().parents[3] / "templates" / "resilience-earth.yaml"
OWN = ("grower", "steward", "sabbatical", "mixed")


def config(**rules: object) -> ResilienceTemplate:
    data = yaml.safe_load(TEMPLATE.read_text())
    if "players" in rules:
        data["players"]["usual"] = rules.pop("players")
    data["rules"].update(rules)
    return validate_template(ResilienceTemplate, data, str(TEMPLATE))


def compare(game: ResilienceGame, bots: tuple[str, ...], games: int, seed: int = 5, jobs: int = 1) -> None:
    kernel = fast.play(game, bots, seed, 0, games, True)
    factories = get_game("resilience-earth").bots()
    if jobs == 1:
        records = [play_one(game, factories, lineup(bots, game.players, i, True), derive_seed(seed, "game", i))
                   for i in range(games)]
    else:
        records = list(simulate(game, factories, games, bots, seed, jobs=jobs).records)
    api = OutcomeColumns.from_records(records, game.players, kernel.bot_names)
    assert kernel.differences(api) == []


@pytest.mark.parametrize("bots", [("random",), OWN, ("keeper", "random", "grower")])
def test_kernel_plays_the_api_games(bots: tuple[str, ...]) -> None:
    compare(ResilienceGame(fast.grid_facts(), config(), 4), bots, 50)


def test_kernel_plays_the_api_games_of_other_rules() -> None:
    """Three players, a refund, stones out of the game, destroyed buildings returning stones, no sabbatical
    limit, seat extras, both-ways lopsidedness off, a steep tower."""
    cfg = config(dismantle_refund=1, dismantled_stones="out", destroyed_returns_stones=True, sabbatical_limit=0,
                 starting_res_extra=[0, 1, 2], starting_lq_extra=[1], lopsided_both_ways=False, players=3,
                 first_end_round=6, last_end_round=9)
    data = cfg.model_dump()
    data["tower"]["collapse_midpoint"] = 12.0
    data["tower"]["countdown_stacks"] = [3, 2, 2, 1, 1]
    cfg = validate_template(ResilienceTemplate, data, str(TEMPLATE))
    compare(ResilienceGame(fast.grid_facts(), cfg, 3), ("mixed", "random", "steward"), 60)


def test_kernel_batch_leaves_what_it_does_not_play_to_the_api() -> None:
    game = ResilienceGame(fast.grid_facts(), config(), 4)
    assert fast.kernel_batch(game, ("greedy", "grower"), 1, 0, 500, True) is None
    limited = ResilienceGame(fast.grid_facts(), config(builds_per_turn=2), 4)
    assert fast.unsupported(limited, ("grower",)) == "a limit of builds per turn"
    assert fast.kernel_batch(limited, ("grower",), 1, 0, 500, True) is None


def test_one_game_never_loads_numba() -> None:
    """``simulate --games 1``: the API plays it, and numba is not even imported."""
    script = ("import sys; from boardgen.games.resilience_earth.rules import fast; "
              "from boardgen.games.resilience_earth.rules.engine import ResilienceGame; "
              "from boardgen.games.resilience_earth.schema import ResilienceTemplate; "
              "from boardgen.schema import validate_template; import yaml; "
              f"cfg = validate_template(ResilienceTemplate, yaml.safe_load(open({str(TEMPLATE)!r})), 't'); "
              "game = ResilienceGame(fast.grid_facts(), cfg, 4); "
              "assert fast.kernel_batch(game, ('grower', 'steward'), 1, 0, 1, True) is None; "
              "assert 'numba' not in sys.modules")
    subprocess.run([sys.executable, "-c", script], check=True, env={**os.environ, "BOARDGEN_ENGINE": "auto"})


@pytest.mark.slow
@pytest.mark.parametrize("bots", [("random",), OWN, ("keeper", "keeper", "random", "random")])
def test_kernel_plays_a_thousand_api_games_on_the_field_map(bots: tuple[str, ...]) -> None:
    from boardgen.games.resilience_earth.fieldmap import cached_field_facts

    cfg = config()
    compare(ResilienceGame(cached_field_facts(cfg), cfg, 4), bots, 1000, seed=2026, jobs=2)

"""OpenSpiel's own random_sim_test on Global Warming through boardgen's adapter (skipped until the adapter,
``boardgen.play.openspiel``, and pyspiel are installed)."""

from __future__ import annotations

import pytest

from boardgen.games.global_warming.rules.engine import GlobalWarmingGame
from boardgen.games.global_warming.schema import RulesSpec

pyspiel = pytest.importorskip("pyspiel")
adapter = pytest.importorskip("boardgen.play.openspiel")


@pytest.mark.parametrize("players,setup", [(4, "basic"), (3, "diagonal"), (2, "orthogonal")])
def test_random_sim_test_passes(players: int, setup: str) -> None:
    game = adapter.to_pyspiel(GlobalWarmingGame(RulesSpec(setup=setup), players))
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION

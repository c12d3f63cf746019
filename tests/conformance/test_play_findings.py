"""Every game's report shares the ids of the findings every game gets (seat fairness, ties, length, rules the
bots never used), and every game's outcomes name every rule, so a rule no bot used is reported by name."""

from __future__ import annotations

import pytest

from boardgen.play.runner import (
    GAME_LENGTH,
    RULE_NEVER_FIRES,
    SEAT_ADVANTAGE,
    SEAT_SPREAD,
    generic_findings,
    run,
)
from boardgen.plugin import BuildContext, installed_games
from boardgen.template import load

GAMES = sorted(name for name, plugin in installed_games().items() if plugin.has_rules)


def _context(name: str) -> BuildContext:
    plugin = installed_games()[name]
    _plugin, config = load(plugin.default_template())
    return BuildContext(config, plugin)


@pytest.mark.parametrize("name", GAMES)
def test_every_games_report_uses_the_shared_ids_for_seats_ties_length_and_unused_rules(name: str) -> None:
    ctx = _context(name)
    bots = ("random",) if name == "global-warming" else None  # its cautious bot searches: slow
    report = ctx.plugin.validate(ctx, 8, bots=bots)
    ids = {f.rule for f in report.findings}
    assert GAME_LENGTH in ids and ids & {SEAT_ADVANTAGE, SEAT_SPREAD}
    # no game's own copy of a shared finding under another name (the flagship's were these)
    assert not ids & {"rules.seat-advantage", "rules.seat-fairness", "rules.ties", "rules.game-length",
                      "rules.never-fires", "rules.nobody-won"}


def test_a_rule_no_bot_used_is_named() -> None:
    summary = {"games": 10, "bots": ["random", "greedy"], "expected_seat_rate": 0.5, "players": 2,
               "win_rate_by_seat": [{"seat": 1, "rate": 0.5, "ci95": [0.2, 0.8]},
                                    {"seat": 2, "rate": 0.5, "ci95": [0.2, 0.8]}],
               "ties": {"share": 0.0}, "nobody_won": {"games": 0, "share": 0.0},
               "length": {"mean": 5.0, "min": 3, "max": 7},
               "events": {"payday": {"total": 4, "games": 3}, "collapse": {"total": 0, "games": 0}}}
    never = [f for f in generic_findings(summary) if f.rule == RULE_NEVER_FIRES]
    assert [(f.severity, f.where) for f in never] == [("warning", "rule: collapse")]
    assert "10 games" in never[0].message and "random, greedy" in never[0].message


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow)
                                  if n in ("global-warming", "philanthropist") else n
                                  for n in GAMES])  # slow: 40 random games take 6-12 s on a free core
def test_every_outcome_names_every_rule_of_its_game(name: str) -> None:
    ctx = _context(name)
    plugin = ctx.plugin
    players = plugin.player_range(ctx.config)[1]
    random_games = 8 if name == "resilience-earth" else 40  # its games are slow; the others' vary more
    runs = [(("random",), random_games)] + ([(plugin.default_bots, 4)] if name != "global-warming" else [])
    names = [tuple(r.outcome.events) for bots, games in runs
             for r in run(plugin, ctx, games, players, bots, 5, 1, True, None)["records"]]
    every = set().union(*map(set, names))
    assert every and all(set(n) == every for n in names)

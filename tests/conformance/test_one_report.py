"""One report for every game: no plug-in overrides ``validate`` or ``simulate_report`` (a game adds its checks,
numbers, entries, plots and lines through the hooks), and every game's seat-fairness, tie and length findings are
the shared code's, under the shared ids."""

from __future__ import annotations

import re
from typing import Any

import pytest

from boardgen.play import runner
from boardgen.plugin import BuildContext, GamePlugin, installed_games
from boardgen.template import load

GAMES = sorted(name for name, plugin in installed_games().items() if plugin.has_rules)
SHARED_IDS = {runner.SEAT_ADVANTAGE, runner.SEAT_SPREAD, runner.TIES, runner.NOBODY_WON, runner.GAME_LENGTH,
              runner.RULE_NEVER_FIRES}
ABOUT_SEATS_TIES_LENGTH = re.compile(r"seat|^(rules\.)?ties$|self-?play|length|fairness")
"""Ids a game's own copy of the shared checks would have (the flagship's were ``rules.selfplay-seats``,
``rules.selfplay-ties`` and its own ``seat-advantage``, ``ties`` and ``game-length``)."""


@pytest.mark.parametrize("name", sorted(installed_games()))
def test_no_game_overrides_validate_or_simulate_report(name: str) -> None:
    cls = type(installed_games()[name])
    for member in ("validate", "simulate_report"):
        assert getattr(cls, member) is getattr(GamePlugin, member), f"{name} overrides GamePlugin.{member}"


@pytest.mark.parametrize("name", GAMES)
def test_seat_tie_and_length_findings_have_the_shared_ids(name: str) -> None:
    plugin = installed_games()[name]
    _plugin, config = load(plugin.default_template())
    ctx = BuildContext(config, plugin)
    bots = ("random",) if name == "global-warming" else None  # its cautious bot searches: slow
    report = plugin.validate(ctx, 8, bots=bots)
    ids = {f.rule for f in report.findings}
    assert runner.GAME_LENGTH in ids and runner.SEAT_SPREAD in ids
    about = {rule for rule in ids if ABOUT_SEATS_TIES_LENGTH.search(rule)}
    assert about <= SHARED_IDS, f"{name} reports seats, ties or length under its own ids: {about - SHARED_IDS}"
    if plugin.self_play_bot:  # the self-play is judged by the same checks, named by where
        assert any(f.rule == runner.SEAT_SPREAD and "self-play" in f.where for f in report.findings)


def _summary(events: dict[str, Any]) -> dict[str, Any]:
    return {"games": 10, "bots": ["random"], "expected_seat_rate": 0.5, "players": 2,
            "win_rate_by_seat": [{"seat": 1, "rate": 0.5, "ci95": [0.2, 0.8]},
                                 {"seat": 2, "rate": 0.5, "ci95": [0.2, 0.8]}],
            "ties": {"share": 0.0}, "nobody_won": {"games": 0, "share": 0.0},
            "length": {"mean": 5.0, "min": 3, "max": 7}, "events": events}


def test_rule_events_choose_which_unused_events_are_warned_of() -> None:
    summary = _summary({"payday": {"total": 0, "games": 0}, "fallback": {"total": 0, "games": 0}})
    named = runner.generic_findings(summary, rule_events={"payday": "the payday"})
    assert [(f.rule, f.where) for f in named if f.rule == runner.RULE_NEVER_FIRES] == \
        [(runner.RULE_NEVER_FIRES, "rule: the payday")]
    every = runner.generic_findings(summary)
    assert [f.where for f in every if f.rule == runner.RULE_NEVER_FIRES] == ["rule: payday", "rule: fallback"]


def test_a_game_summary_may_not_repeat_the_shared_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    name = next(n for n in GAMES if n != "global-warming")
    plugin = installed_games()[name]
    _plugin, config = load(plugin.default_template())
    ctx = BuildContext(config, plugin)
    monkeypatch.setattr(type(plugin), "game_summary", lambda self, ctx, columns: {"ties": 0})
    with pytest.raises(ValueError, match="repeats the shared summary's keys ties"):
        runner.run(plugin, ctx, 2, None, None, 1, 1, True, None)

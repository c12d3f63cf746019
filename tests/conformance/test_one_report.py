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
ABOUT_SEATS_TIES_LENGTH = re.compile(r"seat|turn.?(position|order)|first.?player|\btie|self-?play|length|"
                                     r"duration|fairness|^(turns|rounds)$|game.?(turns|rounds)", re.I)
"""What a game's own copy of the shared checks would have as its id or its where (the flagship's were
``rules.selfplay-seats``, ``rules.selfplay-ties`` and its own ``seat-advantage``, ``ties`` and ``game-length``; the
Philanthropist's ``turn-position`` and ``tie-break``, BETTER Life's ``game-turns`` at "length"). A game says its
length unit, turn positions and tie-break through the plug-in (``length_unit``, ``length_metrics``,
``turn_position_metric``, ``tie_break``) and the shared findings state them."""


@pytest.mark.parametrize("name", sorted(installed_games()))
def test_no_game_overrides_validate_or_simulate_report(name: str) -> None:
    cls = type(installed_games()[name])
    for member in ("validate", "simulate_report"):
        assert getattr(cls, member) is getattr(GamePlugin, member), f"{name} overrides GamePlugin.{member}"


@pytest.fixture(scope="module", params=GAMES)
def validation(request: pytest.FixtureRequest) -> tuple[GamePlugin, Any]:
    name = request.param
    plugin = installed_games()[name]
    _plugin, config = load(plugin.default_template())
    ctx = BuildContext(config, plugin)
    bots = ("random",) if name == "global-warming" else None  # its cautious bot searches: slow
    return plugin, plugin.validate(ctx, 8, bots=bots)


def _own_about_seats_ties_length(findings: list[Any]) -> set[tuple[str, str]]:
    """The findings outside the shared ids whose id or where is about seats, turn order, ties or length."""
    return {(f.rule, f.where) for f in findings if f.rule not in SHARED_IDS
            and (ABOUT_SEATS_TIES_LENGTH.search(f.rule) or ABOUT_SEATS_TIES_LENGTH.search(f.where))}


def test_seat_tie_and_length_findings_have_the_shared_ids(validation: tuple[GamePlugin, Any]) -> None:
    plugin, report = validation
    ids = {f.rule for f in report.findings}
    assert {runner.GAME_LENGTH, runner.SEAT_SPREAD, runner.TIES} <= ids
    own = _own_about_seats_ties_length(report.findings)
    assert not own, f"{plugin.name} reports seats, ties or length under its own ids: {sorted(own)}"
    if plugin.self_play_bot:  # the self-play is judged by the same checks, named by where
        assert any(f.rule == runner.SEAT_SPREAD and "self-play" in f.where for f in report.findings)


def test_the_shared_findings_state_the_games_own_terms(validation: tuple[GamePlugin, Any]) -> None:
    plugin, report = validation
    by_rule = {f.rule: f for f in report.findings if "self-play" not in f.where}
    length = by_rule[runner.GAME_LENGTH].message
    assert re.match(rf"games last [0-9.]+ {plugin.length_unit} on average" if plugin.length_unit
                    else r"games last [0-9.]+ on average", length), length
    for words in plugin.length_metrics.values():
        assert f" {words} on average" in length
    if plugin.turn_position_metric:
        wheres = {f.where for f in report.findings if f.rule in SHARED_IDS}
        assert "all turn positions" in wheres
    if plugin.tie_break(BuildContext(load(plugin.default_template())[1], plugin)) is not None:
        assert "before the tie-break" in by_rule[runner.TIES].message


def test_a_game_finding_about_seats_ties_or_length_fails_the_check() -> None:
    from boardgen.play.report import Finding

    copies = [Finding("turn-position", "info", "turn position 1", "won 22%"),
              Finding("tie-break", "info", "rules.tie_break", "settled all but 0.3%"),
              Finding("game-turns", "info", "length", "176 player turns a game"),
              Finding("game-rounds", "info", "game", "31 rounds")]
    assert {rule for rule, _where in _own_about_seats_ties_length(copies)} == {f.rule for f in copies}
    kept = [Finding("turn-limit", "info", "rules.turn_limit", "the 55-round limit ended 0% of games"),
            Finding("cube-supply", "info", "cubes.supply", "short in 0% of games")]
    assert not _own_about_seats_ties_length(kept)


def test_turn_positions_and_the_tie_break_in_the_shared_findings() -> None:
    summary = {**_summary({}), "metrics": {"won_turn_position_1": {"mean": 0.8, "min": 0, "max": 1},
                                           "won_turn_position_2": {"mean": 0.2, "min": 0, "max": 1},
                                           "level": {"mean": 0.3, "min": 0, "max": 1},
                                           "turns": {"mean": 40.0, "min": 30, "max": 50}}}
    summary["games"] = 200
    terms = runner.GameTerms("rounds", {"turns": "player turns"}, "won_turn_position_", ("level", "most money"))
    found = {(f.rule, f.where): f for f in runner.generic_findings(summary, terms=terms)}
    first = found[(runner.SEAT_ADVANTAGE, "turn position 1")]
    assert first.severity == "warning" and first.message.startswith("wins 80.0% of 200 games")
    assert "30.0%" in found[(runner.SEAT_SPREAD, "all turn positions")].message
    assert found[(runner.TIES, "scoring")].message.startswith("first place was level in 30.0% of games before the "
                                                             "tie-break (most money)")
    assert found[(runner.GAME_LENGTH, "game")].message == (
        "games last 5.0 rounds on average (3-7); 40.0 player turns on average (30-50)")


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

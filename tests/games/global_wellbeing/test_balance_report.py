"""The balance report: seat advantage and ties measured in the strongest bot's self-play (the shared checks,
``GamePlugin.self_play_bot``), the idle economy said as a warning with its numbers, and the leaflet's economy
variant chosen from simulation."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from boardgen.games.global_wellbeing.leaflet import leaflet_text
from boardgen.games.global_wellbeing.rules.board import RulesBoard
from boardgen.games.global_wellbeing.rules.report import SELF_PLAY_BOT, economy_findings, simulate, summary
from boardgen.games.global_wellbeing.rules.variants import ECONOMY_VARIANT, choose
from boardgen.games.global_wellbeing.schema import load_template
from boardgen.play import runner
from boardgen.play.columns import OutcomeColumns
from boardgen.play.simulate import summary_of_columns
from boardgen.plugin import BuildContext, get_game

REPO = Path(__file__).resolve().parents[3]


def _self_play(winners: list[tuple[int, ...]], players: int = 4) -> dict:
    """The summary of self-play games with these winners (nothing else played)."""
    n = len(winners)
    won = np.zeros((n, players), dtype=np.bool_)
    for i, seats in enumerate(winners):
        won[i, list(seats)] = True
    columns = OutcomeColumns(("planner",), np.arange(n, dtype=np.int64), np.zeros((n, players), np.int8),
                             np.zeros((n, players), np.int64), won, np.full(n, 20, np.int64))
    return summary_of_columns(columns, players, ("planner",), 1)


def _by_rule(findings):
    return {(f.rule, f.where): f for f in findings}


def test_selfplay_seat_advantage_is_a_warning_with_intervals() -> None:
    plugin = get_game("global-wellbeing")
    assert plugin.self_play_bot == SELF_PLAY_BOT
    # seat 1 wins 40% of 400 games, the others 20% each: far from the fair 25%
    winners = [(0,)] * 160 + [(1,)] * 80 + [(2,)] * 80 + [(3,)] * 80
    found = _by_rule(runner.self_play_findings(plugin, _self_play(winners)))
    seat = found[(runner.SEAT_ADVANTAGE, "seat 1 (4 x planner self-play, seats fixed)")]
    assert seat.severity == "warning" and "40.0% of 400 games (95% CI 35.3%-44.9%)" in seat.message
    assert [k for k in found if k[0] == runner.SEAT_ADVANTAGE] == [(runner.SEAT_ADVANTAGE, seat.where)]
    fair = runner.self_play_findings(plugin, _self_play([(s % 4,) for s in range(400)]))
    assert [(f.rule, f.severity) for f in fair] == [(runner.SEAT_SPREAD, "info"), (runner.TIES, "info")]


def test_selfplay_ties_are_a_shared_warning() -> None:
    plugin = get_game("global-wellbeing")
    winners = [(0, 1)] * 128 + [(s % 4,) for s in range(272)]  # 32% ties, as once measured with 3 players
    ties = _by_rule(runner.self_play_findings(plugin, _self_play(winners)))[
        (runner.TIES, "scoring (4 x planner self-play, seats fixed)")]
    assert ties.severity == "warning" and "32.0% of games" in ties.message


@pytest.fixture(scope="module")
def rules_board(default_board) -> RulesBoard:
    return RulesBoard.from_board(default_board)


def _own(sim) -> dict:
    return {"bots": list(sim.bots), "economy": summary(sim)["economy"]}


def test_the_seed_economy_is_a_warning_with_its_numbers(rules_board) -> None:
    config = load_template()
    sim = simulate(rules_board, config.rules, 40, 6, (SELF_PLAY_BOT,), config.seed, rotate=False)
    (finding,) = economy_findings(config, _own(sim))
    assert finding.rule == "rules.economy-idle" and finding.severity == "warning"
    numbers = re.search(r"bought ([\d.]+) pieces a turn .* short of chips on ([\d.]+)% .* with ([\d.]+) chips unspent",
                        finding.message)
    assert numbers is not None
    bought, short, left = (float(x) for x in numbers.groups())
    assert bought > 0.95 and short < 5 and left > 10


def test_the_economy_variant_makes_chips_matter(rules_board) -> None:
    config = load_template()
    rules = config.rules.model_copy(update={**ECONOMY_VARIANT})
    sim = simulate(rules_board, rules, 40, 6, (SELF_PLAY_BOT,), config.seed, rotate=False)
    variant = config.model_copy(update={"rules": rules})
    (finding,) = economy_findings(variant, _own(sim))
    assert finding.rule == "rules.economy" and finding.severity == "info"


def test_variant_choice_rule_and_its_documented_figures() -> None:
    rows = [({}, {"bought_per_turn": 1.0, "chips_short_share": 0.0, "chips_left_mean": 22.0}),
            ({"a": 1}, {"bought_per_turn": 0.9, "chips_short_share": 0.6, "chips_left_mean": 9.0}),
            ({"b": 1}, {"bought_per_turn": 0.3, "chips_short_share": 0.9, "chips_left_mean": 1.0}),
            ({"c": 1}, {"bought_per_turn": 1.0, "chips_short_share": 0.4, "chips_left_mean": 20.0})]
    assert choose(rows) == {"a": 1}
    doc = (REPO / "docs" / "economy-variant.md").read_text()
    chosen = ", ".join(f"{k} {v}" for k, v in ECONOMY_VARIANT.items())
    assert f"Chosen: **{chosen}**" in doc and f"| {chosen} **(chosen)** |" in doc


def test_leaflet_offers_the_variant_and_fills_the_gaps() -> None:
    text = leaflet_text(load_template())
    assert "buy up to 3 pieces a turn and divide harvests by 45, not 30" in text
    assert "teams of two" in text and "one colour, pieces, chips and turn" in text
    assert "After each of your turns and setup pieces, take a zone's badge" in text
    assert "one badge per zone at most" in text


def test_validate_reports_self_play_separately(default_ctx: BuildContext) -> None:
    config = default_ctx.config
    report = default_ctx.plugin.validate(default_ctx, 30)
    wheres = {f.where for f in report.findings if f.rule == runner.SEAT_SPREAD}
    assert wheres == {"all seats", f"all seats ({config.players.usual} x {SELF_PLAY_BOT} self-play, seats fixed)"}
    assert not {f.rule for f in report.findings} & {"rules.selfplay-seats", "rules.selfplay-ties"}
    assert report.simulation is not None and report.simulation["self_play"]["bots"] == [SELF_PLAY_BOT]
    assert len(report.simulation["self_play"]["win_rate_by_seat"]) == config.players.usual
    assert "economy" in report.simulation["self_play"]


def test_played_games_are_read_back_until_the_rules_change(default_ctx: BuildContext, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """validate keeps its games' summary in the cache (``FastPath.validation_inputs``): the same board, rules and
    games give the same report without playing again; another rule, another game count or the cache off play
    again."""
    monkeypatch.setenv("BOARDGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("BOARDGEN_NO_CACHE", raising=False)
    played: list[int] = []
    real = runner.run

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        played.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "run", counted)
    plugin, config = default_ctx.plugin, default_ctx.config

    def validate(games: int, config=config):  # type: ignore[no-untyped-def]
        ctx = BuildContext(config, plugin)
        ctx.computed["board"] = default_ctx.board
        return plugin.validate(ctx, games)

    first = validate(12)
    again = validate(12)
    assert len(played) == 2 and again.json_bytes() == first.json_bytes() and again.text() == first.text()
    validate(13)
    validate(12, config.model_copy(update={"rules": config.rules.model_copy(update={"turns": 9})}))
    assert len(played) == 6
    monkeypatch.setenv("BOARDGEN_NO_CACHE", "1")
    assert validate(12).json_bytes() == first.json_bytes()
    assert len(played) == 8

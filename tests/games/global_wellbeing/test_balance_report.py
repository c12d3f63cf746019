"""The balance report: seat advantage and ties measured in the strongest bot's self-play, the idle
economy said as a warning with its numbers, and the leaflet's economy variant chosen from simulation."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from boardgen.games.global_wellbeing.leaflet import leaflet_text
from boardgen.games.global_wellbeing.rules.board import RulesBoard
from boardgen.games.global_wellbeing.rules.report import Simulation, simulate
from boardgen.games.global_wellbeing.rules.validate import (
    SELF_PLAY_BOT,
    economy_findings,
    selfplay_findings,
    validate,
)
from boardgen.games.global_wellbeing.rules.variants import ECONOMY_VARIANT, choose
from boardgen.games.global_wellbeing.schema import load_template
from boardgen.play.columns import OutcomeColumns

REPO = Path(__file__).resolve().parents[3]


def _sim(winners: list[tuple[int, ...]], players: int = 4) -> Simulation:
    """Self-play games with these winners (nothing else played: scores, chips and counts all 0)."""
    config = load_template()
    n = len(winners)
    won = np.zeros((n, players), dtype=np.bool_)
    for i, seats in enumerate(winners):
        won[i, list(seats)] = True
    columns = OutcomeColumns(("planner",), np.arange(n, dtype=np.int64), np.zeros((n, players), np.int8),
                             np.zeros((n, players), np.int64), won, np.full(n, config.rules.turns, np.int64))
    return Simulation(board=None, rules=config.rules, bots=("planner",), players=players, seed=1,  # type: ignore[arg-type]
                      rotate=False, columns=columns)


def _by_rule(findings):
    return {f.rule: f for f in findings}


def test_selfplay_seat_advantage_is_a_warning_with_intervals() -> None:
    # seat 1 wins 40% of 400 games, the others 20% each: far from the fair 25%
    winners = [(0,)] * 160 + [(1,)] * 80 + [(2,)] * 80 + [(3,)] * 80
    found = _by_rule(selfplay_findings(_sim(winners)))
    seats = found["rules.selfplay-seats"]
    assert seats.severity == "warning" and "seat 1 40.0% (35.3%-44.9%)" in seats.message
    assert "seat 1" in seats.message.split(":")[-1]
    fair = _by_rule(selfplay_findings(_sim([(s % 4,) for s in range(400)])))
    assert fair["rules.selfplay-seats"].severity == "info"


def test_selfplay_ties_are_reported_with_their_interval() -> None:
    winners = [(0, 1)] * 128 + [(s % 4,) for s in range(272)]  # 32% ties, as once measured with 3 players
    ties = _by_rule(selfplay_findings(_sim(winners)))["rules.selfplay-ties"]
    assert ties.severity == "warning" and "32.0% of games" in ties.message and "95% CI" in ties.message


@pytest.fixture(scope="module")
def rules_board(default_board) -> RulesBoard:
    return RulesBoard.from_board(default_board)


def test_the_seed_economy_is_a_warning_with_its_numbers(rules_board) -> None:
    config = load_template()
    sim = simulate(rules_board, config.rules, 40, 6, (SELF_PLAY_BOT,), config.seed, rotate=False)
    (finding,) = economy_findings(sim)
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
    (finding,) = economy_findings(sim)
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


def test_validate_reports_self_play_separately(default_board) -> None:
    config = load_template()
    report = validate(default_board, config, games=30)
    rules = [f.rule for f in report.findings]
    assert "seat-advantage" in rules and "rules.selfplay-seats" in rules and "rules.selfplay-ties" in rules
    seat = next(f for f in report.findings if f.rule == "seat-advantage")
    assert "mixed bots, seats rotated" in seat.where
    assert report.simulation is not None and report.simulation["self_play"]["bot"] == SELF_PLAY_BOT
    assert len(report.simulation["self_play"]["wins_by_seat"]) == config.players.usual


def test_played_games_are_read_back_until_the_rules_change(default_config, default_board, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """validate keeps its games' findings and summary in the cache: the same board, rules and games give the
    same report without playing again; another rule, another game count or the cache off play again."""
    from boardgen.games.global_wellbeing.rules import validate as module

    monkeypatch.setenv("BOARDGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("BOARDGEN_NO_CACHE", raising=False)
    played: list[int] = []
    real = module.played_findings

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        played.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "played_findings", counted)
    first = validate(default_board, default_config, games=12)
    again = validate(default_board, default_config, games=12)
    assert len(played) == 1 and again.json_bytes() == first.json_bytes() and again.text() == first.text()
    validate(default_board, default_config, games=13)
    other_rules = default_config.model_copy(update={"rules": default_config.rules.model_copy(update={"turns": 9})})
    validate(default_board, other_rules, games=12)
    assert len(played) == 3
    monkeypatch.setenv("BOARDGEN_NO_CACHE", "1")
    assert validate(default_board, default_config, games=12).json_bytes() == first.json_bytes()
    assert len(played) == 4

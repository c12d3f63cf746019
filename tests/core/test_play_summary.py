"""The simulation summary computed from columns is the summary computed record by record, byte for byte in
JSON, for every installed game, its default bots and random bots; samples of games name real games."""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from typing import Any

import pytest

from boardgen.play.api import Outcome
from boardgen.play.columns import GameRecord, OutcomeColumns
from boardgen.play.report import wilson_interval
from boardgen.play.runner import run
from boardgen.play.simulate import derive_seed, game_samples, summary_of_columns
from boardgen.plugin import BuildContext, installed_games
from boardgen.template import load

GAMES = sorted(name for name, plugin in installed_games().items() if plugin.has_rules)


def _round(x: float) -> float:
    return round(x, 4)


def _describe(values: Sequence[float]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "median": 0.0, "min": 0.0, "max": 0.0}
    return {"mean": _round(statistics.fmean(values)), "median": _round(statistics.median(values)),
            "min": _round(min(values)), "max": _round(max(values))}


def summary_by_records(records: Sequence[GameRecord], players: int, bots: Sequence[str], seed: int) -> dict[str, Any]:
    """The summary as boardgen computed it before columns: a loop over the games' records (the reference)."""
    n = len(records)
    seat_wins = [0.0] * players
    bot_wins: dict[str, float] = {}
    bot_seats: dict[str, int] = {}
    ties = nobody = 0
    metrics: dict[str, list[float]] = {}
    events: dict[str, int] = {}
    events_games: dict[str, int] = {}
    for record in records:
        out = record.outcome
        winners = out.winners
        if not winners:
            nobody += 1
        elif len(winners) > 1:
            ties += 1
        for name in record.bots:
            bot_seats[name] = bot_seats.get(name, 0) + 1
        for w in winners:
            seat_wins[w] += 1 / len(winners)
            bot_wins[record.bots[w]] = bot_wins.get(record.bots[w], 0.0) + 1 / len(winners)
        for key, value in out.metrics.items():
            metrics.setdefault(key, []).append(float(value))
        for key, count in out.events.items():
            events[key] = events.get(key, 0) + count
            if count:
                events_games[key] = events_games.get(key, 0) + 1
    by_seat = []
    for seat, wins in enumerate(seat_wins):
        low, high = wilson_interval(wins, n)
        by_seat.append({"seat": seat + 1, "wins": _round(wins), "rate": _round(wins / n if n else 0.0),
                        "ci95": [_round(low), _round(high)]})
    by_bot = {name: {"wins": _round(bot_wins.get(name, 0.0)), "seats": bot_seats[name],
                     "rate": _round(bot_wins.get(name, 0.0) / bot_seats[name])} for name in sorted(bot_seats)}
    all_scores = [s for r in records for s in r.outcome.scores]
    win_scores = [max(r.outcome.scores) for r in records if r.outcome.scores]
    return {
        "games": n, "players": players, "bots": list(bots), "seed": seed,
        "expected_seat_rate": _round(1 / players) if players else 0.0,
        "win_rate_by_seat": by_seat, "win_rate_by_bot": by_bot,
        "ties": {"games": ties, "share": _round(ties / n if n else 0.0)},
        "nobody_won": {"games": nobody, "share": _round(nobody / n if n else 0.0)},
        "length": _describe([r.outcome.length for r in records]),
        "score": {**_describe(all_scores), "winning_mean": _describe(win_scores)["mean"]},
        "metrics": {key: _describe(values) for key, values in sorted(metrics.items())},
        "events": {key: {"total": events[key], "games": events_games.get(key, 0)} for key in sorted(events)},
    }


def _context(name: str) -> BuildContext:
    plugin = installed_games()[name]
    _plugin, config = load(plugin.default_template())
    return BuildContext(config, plugin)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("kind", ["default", "random"])
def test_summary_from_columns_is_the_summary_from_records(name: str, kind: str) -> None:
    ctx = _context(name)
    plugin = ctx.plugin
    players = plugin.player_range(ctx.config)[1]
    bots = plugin.default_bots if kind == "default" else ("random",)
    games = 6 if kind == "default" else 40
    seed = 11
    result = run(plugin, ctx, games, players, bots, seed, 1, True, None)
    records = list(result["records"])
    assert [r.seed for r in records] == [derive_seed(seed, "game", i) for i in range(games)]
    expected = summary_by_records(records, players, bots, seed)
    # the shared summary first; after it only the game's own numbers (GamePlugin.game_summary)
    assert list(result["summary"])[:len(expected)] == list(expected)
    shared = {key: value for key, value in result["summary"].items() if key in expected}
    assert json.dumps(shared) == json.dumps(expected)
    assert set(result["summary"]) - set(expected) == set(plugin.game_summary(ctx, result["columns"]))
    # the API's records through columns and back give the same summary too
    again = summary_of_columns(OutcomeColumns.from_records(records, players, tuple(dict.fromkeys(bots))), players,
                               bots, seed)
    assert json.dumps(again) == json.dumps(expected)
    # one batch per game: batches name only the rules that fired in them (and the metrics they had)
    codes = tuple(dict.fromkeys(bots))
    single = OutcomeColumns.concat([OutcomeColumns.from_records([r], players, codes) for r in records])
    assert json.dumps(summary_of_columns(single, players, bots, seed)) == json.dumps(expected)


def test_shared_wins_scores_and_missing_seats_match_the_loop() -> None:
    records = [
        GameRecord(1, ("a", "b", "a"), Outcome((3, 3, 1), (0, 1), 7, {"m": 0.1}, {"e": 0})),
        GameRecord(2, ("b", "a", "b"), Outcome((0, 5, 2), (1,), 8, {"m": 0.2}, {"e": 2})),
        GameRecord(3, ("a", "b", "a"), Outcome((2, 2, 2), (0, 1, 2), 8, {"m": 0.3}, {"e": 0})),
        GameRecord(4, ("b", "a", "b"), Outcome((1, 0, 0), (), 10, {"m": 1 / 3}, {"e": 1})),
    ]
    for bots in (("a", "b"), ("a", "b", "c")):  # "c" never sat: absent from the bots' table, as before
        columns = OutcomeColumns.from_records(records, 3, tuple(dict.fromkeys(bots)))
        assert json.dumps(summary_of_columns(columns, 3, bots, 5)) == json.dumps(
            summary_by_records(records, 3, bots, 5))


def test_samples_name_the_longest_the_shortest_and_a_zero_point_game() -> None:
    records = [GameRecord(10 + i, ("a", "b"), Outcome((i % 3, 1), (1,), length, {}, {}))
               for i, length in enumerate([5, 9, 3, 7, 5, 6])]
    columns = OutcomeColumns.from_records(records, 2, ("a", "b"))
    samples = game_samples(columns, 4, random_games=2)
    why = {s["index"]: s["why"] for s in samples}
    assert "longest" in why[1] and "shortest" in why[2] and "a seat scored 0" in why[0]
    assert sum("random" in w for w in why.values()) == 2
    assert all(s["seed"] == 10 + s["index"] and s["lineup"] == ["a", "b"] for s in samples)
    assert game_samples(columns, 4, random_games=2) == samples  # the same seed picks the same games


@pytest.mark.parametrize("name", GAMES)
def test_sampled_games_replay_to_the_recorded_outcome(name: str) -> None:
    from boardgen.play.replay import replay_game

    ctx = _context(name)
    plugin = ctx.plugin
    players = plugin.player_range(ctx.config)[1]
    bots = ("random",) if name == "global-warming" else plugin.default_bots  # its cautious bot searches: slow
    result = run(plugin, ctx, 5, players, bots, 3, 1, True, None)
    records = list(result["records"])
    for sample in game_samples(result["columns"], 3, random_games=1):
        i = sample["index"]
        replay = replay_game(plugin, ctx, players, bots, 3, i, True)
        assert replay.seed == sample["seed"] and list(replay.lineup) == sample["lineup"]
        got, recorded = replay.outcome, records[i].outcome
        assert (got.scores, got.winners, got.length, dict(got.metrics)) == (
            recorded.scores, recorded.winners, recorded.length, dict(recorded.metrics))
        # columns hold a count for every event of the run: 0 where this game had none
        assert {k: v for k, v in got.events.items() if v} == {k: v for k, v in recorded.events.items() if v}
        assert replay.moves and all(isinstance(m.text, str) for m in replay.moves)
        assert any(m.player >= 0 for m in replay.moves)


class _FakeKernel:
    """Plays batches of at least ``least`` games (through the API, so the games are the same) and counts calls."""

    def __init__(self, game: object, least: int) -> None:
        self.game = game
        self.least = least
        self.calls: list[tuple[int, int]] = []

    def __call__(self, start: int, stop: int) -> OutcomeColumns | None:
        from boardgen.play.bots import GENERIC_BOTS
        from boardgen.play.simulate import lineup, play_one

        self.calls.append((start, stop))
        if stop - start < self.least:
            return None
        records = [play_one(self.game, GENERIC_BOTS, lineup(("greedy", "random"), 2, i, True),  # type: ignore[arg-type]
                            derive_seed(5, "game", i)) for i in range(start, stop)]
        return OutcomeColumns.from_records(records, 2, ("greedy", "random"))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_kernel_is_offered_large_batches_and_any_mix_of_paths_gives_the_same_games(jobs: int) -> None:
    import sys
    from pathlib import Path

    from boardgen.play.bots import GENERIC_BOTS
    from boardgen.play.simulate import play_columns

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tinygame"))
    try:
        from tiny_stones import StonesGame, StonesRules  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    game = StonesGame(StonesRules())
    games = 400

    def run_with(kernel: _FakeKernel | None) -> OutcomeColumns:
        return play_columns(lambda: game, GENERIC_BOTS, 2, games, ("greedy", "random"), 5, jobs, True, None, kernel)

    reference = run_with(None)
    for least in (1, 30, 10_000):  # takes everything, only big batches, nothing
        kernel = _FakeKernel(game, least)
        assert run_with(kernel).differences(reference) == []
        if jobs == 1:  # the whole run is offered first
            assert kernel.calls[0] == (0, games)
        else:  # an eighth of a job's share first, in this process; then batches as large (but the last ones)
            assert kernel.calls[0] == (0, 25)
            if least <= 25:
                sizes = sorted(b - a for a, b in kernel.calls)
                assert sizes[len(sizes) // 2] >= 25


def test_the_flagships_own_samples_replay_through_the_api() -> None:
    from boardgen.play.replay import replay_game

    ctx = _context("global-wellbeing")
    plugin = ctx.plugin
    document, files, _lines = plugin.simulate_report(ctx, 8, 6, plugin.default_bots, 4, 1, True, None)
    assert len(files["games.csv"].decode().splitlines()) == 9 and "games" not in document
    for sample in document["samples"]:
        replay = replay_game(plugin, ctx, 6, plugin.default_bots, 4, sample["index"], True)
        assert list(replay.lineup) == sample["lineup"] and replay.seed == sample["seed"]
        assert list(replay.outcome.scores) == sample["scores"]

"""Simulated games as columns: records in, the same records out, and differences named game by game."""

from __future__ import annotations

from boardgen.play.api import Outcome
from boardgen.play.columns import GameRecord, OutcomeColumns

RECORDS = [
    GameRecord(5, ("greedy", "random"), Outcome((1.0, 2.0), (1,), 3, {"cubes": 1.5}, {"payday": 2})),
    GameRecord(6, ("random", "greedy"), Outcome((2.0, 2.0), (0, 1), 4, {"cubes": 0.5}, {"payday": 0})),
    GameRecord(7, ("greedy", "greedy"), Outcome((0.0, 0.0), (), 9, {"cubes": 0.0}, {"payday": 1})),
]


def test_records_come_back_unchanged() -> None:
    columns = OutcomeColumns.from_records(RECORDS, 2)
    assert columns.games == 3 and columns.players == 2
    assert columns.winners.tolist() == [[False, True], [True, True], [False, False]]
    assert columns.records() == RECORDS


def test_joined_batches_equal_the_whole() -> None:
    whole = OutcomeColumns.from_records(RECORDS, 2, ("greedy", "random"))
    parts = [OutcomeColumns.from_records(RECORDS[:1], 2, ("greedy", "random")),
             OutcomeColumns.from_records(RECORDS[1:], 2, ("greedy", "random"))]
    assert whole.differences(OutcomeColumns.concat(parts)) == []


def test_a_different_field_is_named_with_its_game() -> None:
    changed = [*RECORDS[:2], GameRecord(7, ("greedy", "greedy"), Outcome((0.0, 1.0), (), 9, {"cubes": 0.0},
                                                                          {"payday": 1}))]
    diffs = OutcomeColumns.from_records(RECORDS, 2).differences(OutcomeColumns.from_records(changed, 2))
    assert diffs == ["game 2: scores [0.0, 0.0] against [0.0, 1.0]"]


def test_a_batch_naming_bots_that_did_not_sit_joins_a_run_without_them() -> None:
    kernel = OutcomeColumns.from_records(RECORDS, 2, ("cautious", "greedy", "random"))  # all the kernel knows
    assert kernel.with_bot_names(("greedy", "random")).records() == RECORDS
    try:
        kernel.with_bot_names(("greedy",))
    except ValueError as exc:
        assert "['random'] sat" in str(exc)
    else:
        raise AssertionError("a bot that sat was dropped")

"""boardgen.play.pool: chunks come back whole and in game order whatever the number of processes, a list of tasks
runs whole on this process and its workers, and a worker's exception reaches the caller."""

from __future__ import annotations

import pytest

from boardgen.play import pool


def _squares(bounds: tuple[int, int]) -> list[int]:
    return [i * i for i in range(*bounds)]


def _fails_on_seven(bounds: tuple[int, int]) -> list[int]:
    if bounds[0] <= 7 < bounds[1]:
        raise ValueError("game 7 is broken")
    return list(range(*bounds))


@pytest.mark.parametrize("jobs", [1, 2, 3])
@pytest.mark.parametrize("games", [1, 2, 5, 97])
def test_chunks_cover_every_game_in_order(jobs: int, games: int) -> None:
    seen: list[tuple[int, int]] = []
    chunks = pool.play_in_order(games, jobs, _squares, 10, lambda bounds, out: seen.append(bounds))
    assert [x for chunk in chunks for x in chunk] == [i * i for i in range(games)]
    assert sorted(seen)[0][0] == 0 and sum(b - a for a, b in seen) == games
    assert all(b > a for a, b in seen)


def _pid_and_square(index: int) -> tuple[int, int]:
    import os
    import time

    time.sleep(0.05)
    return os.getpid(), index * index


def _fails_on_three(index: int) -> int:
    if index == 3:
        raise ValueError("task 3 is broken")
    return index


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_tasks_run_once_each_and_this_process_takes_part(jobs: int) -> None:
    import os

    results: dict[int, tuple[int, int]] = {}
    pool.run_tasks(_pid_and_square, 12, jobs, results.__setitem__)
    assert {index: square for index, (_pid, square) in results.items()} == {i: i * i for i in range(12)}
    pids = {pid for pid, _square in results.values()}
    assert os.getpid() in pids and len(pids) <= jobs
    if jobs == 1 or not pool.fork_available():
        assert pids == {os.getpid()}


def _first_is_long(index: int) -> int:
    import os
    import time

    if index == 0:
        time.sleep(1.0)
    return os.getpid()


@pytest.mark.skipif(not pool.fork_available(), reason="tasks run on workers only where processes fork")
def test_this_process_takes_every_task_a_busy_worker_has_not_started() -> None:
    """A worker is handed one task at a time: while it runs the long first task, this process runs all the
    others once its own ``meanwhile`` work is done (an executor queueing tasks ahead to the busy worker in that
    time would keep the next ones from this process)."""
    import os
    import time

    ran_on: dict[int, int] = {}
    pool.run_tasks(_first_is_long, 6, 2, ran_on.__setitem__, lambda: time.sleep(0.3))
    assert ran_on[0] != os.getpid()
    assert all(ran_on[index] == os.getpid() for index in range(1, 6))


_MADE_FIRST: list[str] = []  # what ``before_tasks`` makes here; a worker forked before it sees it empty
_WARMED: list[str] = []  # what ``_warm_up`` did in the process that ran it


def _warm_up(index: int) -> None:
    _WARMED.append(f"warm {index}")


def _what_this_process_has(index: int) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    import os
    import time

    time.sleep(0.2 if index == 0 else 0.0)
    return os.getpid(), tuple(_MADE_FIRST), tuple(_WARMED)


@pytest.mark.skipif(not pool.fork_available(), reason="tasks run on workers only where processes fork")
@pytest.mark.parametrize("early", [False, True])
def test_workers_fork_after_before_tasks_unless_they_warm_up_before_it(early: bool) -> None:
    """Without ``warm_up`` the workers inherit what ``before_tasks()`` made; with it they are forked before it
    runs, the one worker has run ``warm_up(0)`` before its first task, and it does not have what
    ``before_tasks()`` made. Every task runs once either way, and this process never runs ``warm_up``."""
    import os

    _MADE_FIRST.clear()
    _WARMED.clear()
    ran: dict[int, tuple[int, tuple[str, ...], tuple[str, ...]]] = {}
    pool.run_tasks(_what_this_process_has, 4, 2, ran.__setitem__,
                   before_tasks=lambda: _MADE_FIRST.append("board"), warm_up=_warm_up if early else None)
    assert sorted(ran) == [0, 1, 2, 3]
    worker = ran[0]
    assert worker[0] != os.getpid()
    assert worker[1] == (() if early else ("board",))
    assert worker[2] == (("warm 0",) if early else ())
    here = [ran[i] for i in ran if ran[i][0] == os.getpid()]
    assert here and all(made == ("board",) and warmed == () for _pid, made, warmed in here)
    assert _MADE_FIRST == ["board"] and _WARMED == []


def test_before_tasks_runs_once_here_with_one_job() -> None:
    made: list[int] = []
    results: dict[int, int] = {}
    pool.run_tasks(_fails_on_three, 3, 1, results.__setitem__, before_tasks=lambda: made.append(len(results)),
                   warm_up=_warm_up)
    assert made == [0] and results == {0: 0, 1: 1, 2: 2}


@pytest.mark.skipif(not pool.fork_available(), reason="tasks run on workers only where processes fork")
def test_an_error_in_before_tasks_ends_the_warmed_workers_and_reaches_the_caller() -> None:
    def broken() -> None:
        raise ValueError("no board")

    ran: dict[int, object] = {}
    with pytest.raises(ValueError, match="no board"):
        pool.run_tasks(_pid_and_square, 4, 2, ran.__setitem__, before_tasks=broken, warm_up=_warm_up)
    assert ran == {}


def _first_kills_its_worker(index: int) -> int:
    import os
    import time

    if index == 0:
        os._exit(3)
    time.sleep(0.05)
    return index


@pytest.mark.skipif(not pool.fork_available(), reason="tasks run on workers only where processes fork")
def test_a_worker_that_dies_is_a_runtime_error_not_a_hang() -> None:
    with pytest.raises(RuntimeError, match="a worker process died"):
        pool.run_tasks(_first_kills_its_worker, 4, 2, lambda index, result: None)


def test_a_tasks_exception_reaches_the_caller() -> None:
    with pytest.raises(ValueError, match="task 3 is broken"):
        pool.run_tasks(_fails_on_three, 8, 2, lambda index, result: None)


def test_a_workers_exception_reaches_the_caller() -> None:
    with pytest.raises(ValueError, match="game 7 is broken"):
        pool.play_in_order(40, 2, _fails_on_seven, 10)


def test_the_collector_is_frozen_only_while_a_pool_lives() -> None:
    """A long-lived process (`boardgen serve` rebuilding after every save, a sweep) must collect the garbage of
    its earlier builds: what the pool froze for its forked workers is thawed when the pool ends, even on error."""
    import gc

    before = gc.get_freeze_count()
    pool.run_tasks(_pid_and_square, 6, 2, lambda index, result: None)
    assert gc.get_freeze_count() == before
    pool.play_in_order(30, 2, _squares, 10)
    assert gc.get_freeze_count() == before
    with pytest.raises(ValueError):
        pool.run_tasks(_fails_on_three, 8, 2, lambda index, result: None)
    assert gc.get_freeze_count() == before


def test_claims_shrink_towards_the_end() -> None:
    class Counter:
        value = 0

        def get_lock(self):  # type: ignore[no-untyped-def]
            import contextlib

            return contextlib.nullcontext()

    claims = pool._Claims(Counter(), 10_000, 2)
    first = claims.next()
    assert first == (0, pool.FIRST_CHUNK_GAMES)
    claims.played(first, 0.001)  # 0.5 ms a game: CHUNK_SECONDS / 0.0005 games fill CHUNK_SECONDS
    assert claims.next() == (2, 2 + int(pool.CHUNK_SECONDS / 0.0005))
    sizes = []
    while (bounds := claims.next()) is not None:
        sizes.append(bounds[1] - bounds[0])
    assert sizes[-1] == 1 and sizes == sorted(sizes, reverse=True)


def test_a_worker_ends_with_the_process_that_forked_it(tmp_path) -> None:
    """end_with_parent: a forked worker is killed when its parent is, instead of living on (a killed build's
    worker once stayed blocked for ever writing its results into a pipe nobody read)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    code = ("import os, signal, time\n"
            "from boardgen.play.pool import end_with_parent\n"
            "parent = os.getpid()\n"
            "child = os.fork()\n"
            "if child == 0:\n"
            "    end_with_parent(parent)\n"
            "    time.sleep(60)\n"
            "    os._exit(0)\n"
            "print(child, flush=True)\n"
            "time.sleep(0.5)\n"
            "os.kill(parent, signal.SIGKILL)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    child = int(proc.stdout.readline())
    proc.wait(timeout=30)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        os.kill(child, signal.SIGKILL)
        raise AssertionError("the worker outlived its parent")

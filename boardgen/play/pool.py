"""The one way boardgen runs work on several processes: a standard library ``ProcessPoolExecutor``
(``worker_pool``), for the build's parallel stages (``run_tasks``) and for the games `simulate`, `validate` and
`sweep` play (``play_chunks``, ``play_in_order``), or everything on this process.

The caller's ``play((start, stop))`` plays a run of games; runs go to ``jobs`` worker processes and come back in
whatever order they finish; ``play_in_order`` puts them back in game order, so results never depend on ``jobs``.
This process hands out the runs (a few per worker ahead): a run is sized to take about
``CHUNK_SECONDS`` at the rate the finished runs measured, never more than a share of what is left (long runs
while there is plenty to do, little per-run overhead for fast games; short ones at the end, so the workers finish
together) and never less than ``at_least`` games (a compiled kernel decides by a batch's size whether it pays).

Workers are forked where the platform allows, so they inherit what the caller set up before (the board, the
bots, a compiled kernel, a build's context) instead of rebuilding it; elsewhere games are played by spawned
workers that run ``setup`` first, and ``run_tasks`` runs its tasks on this process. (A build that forks its
workers before its map is made, with ``run_tasks``' ``warm_up``, has them read the map back from the disk
cache.) A forked worker ends with the process that forked it (``end_with_parent``). While chunks are collected
the garbage collector leaves the results alone (``gc.freeze``): they are plain values that hold no cycles, and
scanning hundreds of thousands of them again and again costs more than a game.

``benchmarks/bench_pool.py`` measured this against a hand-made pool (this process playing too, claims from a
shared counter) and against the executor with fixed runs: the executor was as fast on real games and faster on
kernel-speed ones, so the standard one stays. ``benchmarks/bench_build_stages.py`` did the same for the build's
stages against the forked workers the build had before (claims from a shared counter, results through pipes, a
"board-only" stage started while the parent prepared the others' values): the flagship's build, medians of 5
on 2 busy cores, 11.26 s wall and 3.82 s CPU against 11.42 s and 3.89 s with a warm board cache, 7.72 s and
4.98 s against 7.72 s and 5.02 s with the board to build, so that machinery went. ``run_tasks``' ``warm_up`` is
another thing: the executor's workers, forked before the map is made, load what needs no map (the validation's
compiled kernel) while this process makes it; the flagship's build with its map to make went from 2.95 to 2.67 s
wall on 2 idle cores, at the same CPU (medians of 4).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")
Bounds = tuple[int, int]

CHUNK_SECONDS = 0.2  # a run's target duration once the rate is known (a round trip costs about a millisecond)
FIRST_CHUNK_GAMES = 2  # the first runs, to measure the rate
MAX_CHUNK_GAMES = 10_000  # bounds the memory of one message (columns: about half a megabyte per 1,000 games)
WAITING_PER_WORKER = 3  # runs handed out ahead, so a worker never waits for this process to be scheduled


def fork_available() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def end_with_parent(parent_pid: int) -> None:
    """In a forked worker: be killed as soon as the process that forked it ends, however it ends. A build or a
    simulation killed from outside must not leave a worker behind, blocked for ever writing results nobody will
    read. Linux only (prctl); elsewhere a worker ends when its work is done."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):  # a libc without prctl: as elsewhere
            ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:  # the parent ended before the signal was asked for
        os._exit(1)


@contextmanager
def results_kept_out_of_gc(cycles: bool = False) -> Iterator[Callable[[], None]]:
    """Yields ``keep()``: call it after storing a chunk's results so later collections skip them. With
    ``cycles`` (games whose objects may hold reference cycles) the young generations are collected first, so
    no garbage is frozen with them."""
    enabled = gc.isenabled()

    def keep() -> None:
        if cycles:
            gc.collect(1)
        gc.freeze()

    try:
        yield keep if enabled else (lambda: None)
    finally:
        if enabled:
            gc.unfreeze()


class _Claims:
    """Hands out runs of games: the counter of the next game to hand out, and the seconds per game measured on
    the last finished run."""

    def __init__(self, counter: Any, games: int, jobs: int, at_least: int = 1) -> None:
        self.counter = counter
        self.games = games
        self.jobs = jobs
        self.at_least = max(1, at_least)
        self.seconds_per_game = 0.0

    def next(self) -> Bounds | None:
        with self.counter.get_lock():
            start = int(self.counter.value)
            if start >= self.games:
                return None
            share = max(1, (self.games - start) // (2 * self.jobs))  # at most half a worker's fair share
            wanted = (int(CHUNK_SECONDS / self.seconds_per_game) if self.seconds_per_game > 0
                      else FIRST_CHUNK_GAMES)
            size = min(max(wanted, self.at_least), max(share, self.at_least), max(MAX_CHUNK_GAMES, self.at_least))
            stop = min(self.games, start + max(1, size))
            self.counter.value = stop
        return start, stop

    def played(self, bounds: Bounds, seconds: float) -> None:
        self.seconds_per_game = max(seconds, 1e-9) / (bounds[1] - bounds[0])


class _LocalCounter:
    """The next game to hand out, in this process (``_Claims`` reads it under ``get_lock``)."""

    def __init__(self) -> None:
        self.value = 0

    def get_lock(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()


def _start_worker(parent_pid: int, setup: tuple[Callable[..., None], tuple[Any, ...]] | None) -> None:
    end_with_parent(parent_pid)
    if setup is not None:
        setup[0](*setup[1])


def _timed(play: Callable[[Bounds], T], bounds: Bounds) -> tuple[Bounds, T, float]:
    started = time.perf_counter()
    out = play(bounds)
    return bounds, out, time.perf_counter() - started


@contextmanager
def worker_pool(jobs: int, setup: tuple[Callable[..., None], tuple[Any, ...]] | None = None
                ) -> Iterator[ProcessPoolExecutor]:
    """``jobs`` worker processes: the one way boardgen runs work side by side (builds, simulations, validation,
    sweeps), a standard ``ProcessPoolExecutor``. Workers are forked where the platform allows, so they inherit
    what the caller set up before the first ``submit``; elsewhere they are spawned and run ``setup = (function,
    args)`` first. Every worker ends with this process (``end_with_parent``). While the pool lives the garbage
    collector leaves this process's objects alone (``gc.freeze``, undone when the pool ends): the forked workers
    then never copy the pages a collection would touch. When the block fails, work not yet started is cancelled
    and the workers are ended at once, not after what they are running."""
    fork = fork_available()
    context: Any = multiprocessing.get_context("fork" if fork else "spawn")
    froze = gc.isenabled()
    if froze:
        gc.freeze()
    try:
        executor = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_start_worker,
                                       initargs=(os.getpid(), None if fork else setup))
        try:
            yield executor
        except BaseException:
            for process in list((getattr(executor, "_processes", None) or {}).values()):  # not after their work
                with contextlib.suppress(OSError, AttributeError):
                    process.terminate()
            executor.shutdown(wait=True, cancel_futures=True)
            raise
        executor.shutdown(wait=True)
    finally:
        if froze:  # a long-lived process (`boardgen serve`, a sweep) collects its old garbage again
            gc.unfreeze()


class _TaskClaims:
    """Which of ``count`` tasks are still unclaimed: the workers claim from the front, this process from the back,
    under one lock (a worker's claim is made on the pool's thread as its last task ends)."""

    def __init__(self, count: int) -> None:
        self.front, self.back, self.to_workers = 0, count, 0
        self.lock = threading.Lock()

    def next_for_a_worker(self) -> int | None:
        with self.lock:
            if self.front >= self.back:
                return None
            self.front += 1
            self.to_workers += 1
            return self.front - 1

    def next_for_this_process(self) -> int | None:
        with self.lock:
            if self.front >= self.back:
                return None
            self.back -= 1
            return self.back

    def stop(self) -> None:
        with self.lock:
            self.back = self.front


def run_tasks(task: Callable[[int], T], count: int, jobs: int, on_result: Callable[[int, T], None],
              meanwhile: Callable[[], None] = lambda: None, before_tasks: Callable[[], None] = lambda: None,
              warm_up: Callable[[int], None] | None = None) -> None:
    """``task(0)`` .. ``task(count - 1)`` on ``jobs`` processes: this one and ``jobs - 1`` workers
    (``worker_pool``). The workers take the tasks in index order (list the longest first): each worker is given
    one task at a time, and the next only when it has finished it (the executor would otherwise queue tasks to a
    busy worker ahead of time, where this process could no longer take them). This process, once
    ``meanwhile()`` is done, takes the tasks from the last one backwards, until none is left, so it takes the
    short ones and what it made needs no sending back. ``on_result(index, result)`` is called in this process as
    each task finishes. ``task`` must be a module-level function; a worker is a forked copy of this process, so
    it finds what the caller set up (a module-level value, say) as it was at the call. An exception from
    ``on_result``, ``meanwhile`` or a task run here (or a worker's task, raised again here) stops the hand-out,
    cancels what has not started and ends the workers; a worker that dies is a RuntimeError. With one job, or
    where processes cannot be forked, every task runs here, in order.

    ``before_tasks()`` runs here before any task is handed out. Without ``warm_up`` the workers are forked after
    it, so they inherit what it made. With ``warm_up`` (a module-level function) they are forked before it, and
    ``warm_up(0)`` .. ``warm_up(workers - 1)`` are their first tasks, one each as a rule (the executor's queue
    does not promise it), while this process runs ``before_tasks()``: work that does not need what it makes is
    then done on cores that would otherwise wait, but the workers must find what it made some other way (a
    build's workers read the board back from the disk cache). ``warm_up``'s errors are its own to handle."""
    if jobs <= 1 or count <= 1 or not fork_available():
        before_tasks()
        meanwhile()
        for index in range(count):
            on_result(index, task(index))
        return
    workers = min(jobs, count) - 1
    claims = _TaskClaims(count)
    finished: queue.SimpleQueue[tuple[int, Future[T]]] = queue.SimpleQueue()
    if warm_up is None:
        before_tasks()
    with worker_pool(workers) as executor:

        def hand_out() -> None:
            """The next task from the front to a free worker (here at the start, then on the pool's thread)."""
            index = claims.next_for_a_worker()
            if index is None:
                return
            try:
                future = executor.submit(task, index)
            except BaseException as exc:  # (a broken or closing pool): the task's result is this error
                failed: Future[T] = Future()
                failed.set_exception(exc)
                ended(index, failed)
                return
            future.add_done_callback(lambda done: ended(index, done))

        def ended(index: int, future: Future[T]) -> None:
            finished.put((index, future))
            if future.cancelled() or future.exception() is not None:
                claims.stop()
            else:
                hand_out()

        received = 0

        def collect(block: bool) -> bool:
            nonlocal received
            try:
                index, future = finished.get(block=block)
            except queue.Empty:
                return False
            received += 1
            try:
                result = future.result()
            except BrokenProcessPool:
                raise RuntimeError("a worker process died (killed, or out of memory)") from None
            on_result(index, result)
            return True

        try:
            if warm_up is not None:
                for index in range(workers):  # the executor forks every worker at the first submit
                    executor.submit(warm_up, index)
                before_tasks()
            for _ in range(workers):
                hand_out()
            meanwhile()
            while (mine := claims.next_for_this_process()) is not None:
                while collect(block=False):
                    pass
                on_result(mine, task(mine))
            while received < claims.to_workers:
                collect(block=True)
        except BaseException:
            claims.stop()
            raise


def play_chunks(games: int, jobs: int, play: Callable[[Bounds], T], on_chunk: Callable[[Bounds, T], None],
                setup: tuple[Callable[..., None], tuple[Any, ...]] | None = None, at_least: int = 1) -> None:
    """Play games ``0 .. games-1`` as chunks ``play((start, stop))`` on ``jobs`` worker processes
    (``worker_pool``); ``on_chunk(bounds, result)`` is called in this process for every chunk, in whatever order
    they finish. ``play`` must be a module-level function. The caller has already set up this process's state;
    ``setup = (function, args)`` does the same in a spawned worker (forked ones inherit it)."""
    claims = _Claims(_LocalCounter(), games, jobs, at_least)
    with worker_pool(jobs, setup) as executor:
        pending: set[Future[tuple[Bounds, T, float]]] = set()

        def hand_out() -> None:
            bounds = claims.next()
            if bounds is not None:
                pending.add(executor.submit(_timed, play, bounds))

        for _ in range(WAITING_PER_WORKER * jobs):
            hand_out()
        while pending:
            done, _waiting = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                pending.discard(future)
                try:
                    bounds, out, seconds = future.result()
                except BrokenProcessPool:
                    raise RuntimeError("a simulation worker died (killed, or out of memory)") from None
                claims.played(bounds, seconds)
                hand_out()
                on_chunk(bounds, out)


def play_in_order(games: int, jobs: int, play: Callable[[Bounds], Any], chunk_games: int,
                  on_chunk: Callable[[Bounds, Any], None] | None = None,
                  setup: tuple[Callable[..., None], tuple[Any, ...]] | None = None, cycles: bool = False,
                  convert: Callable[[Any], Any] | None = None, steady: bool = False) -> list[Any]:
    """Every chunk's ``play((start, stop))`` in game order: on this process alone in chunks of at least
    ``chunk_games`` (more for fast games, about ``CHUNK_SECONDS`` each) when ``jobs`` is 1, else shared with
    workers (``play_chunks``). ``convert``, when given, is applied to each chunk in this process as it arrives
    (a compact form played anywhere, expanded here); ``on_chunk`` sees the (converted) chunk; ``cycles`` as in
    ``results_kept_out_of_gc``. ``steady``: every claim of a worker is ``chunk_games`` long too, except at the end
    (a compiled kernel decides by a batch's size whether loading it pays)."""
    chunks: dict[int, Any] = {}  # by first game
    with results_kept_out_of_gc(cycles) as keep:
        def collect(bounds: Bounds, out: Any) -> None:
            if convert is not None:
                out = convert(out)
            chunks[bounds[0]] = out
            keep()
            if on_chunk is not None:
                on_chunk(bounds, out)

        if jobs <= 1 or games <= 1:
            start = 0
            size = max(1, chunk_games)
            while start < games:  # runs of at least ``chunk_games``, longer for fast games (CHUNK_SECONDS each)
                bounds = (start, min(start + size, games))
                started = time.perf_counter()
                out = play(bounds)
                per_game = max(time.perf_counter() - started, 1e-9) / (bounds[1] - bounds[0])
                collect(bounds, out)
                size = max(1, chunk_games, min(MAX_CHUNK_GAMES, int(CHUNK_SECONDS / per_game)))
                start = bounds[1]
        else:
            play_chunks(games, jobs, play, collect, setup, chunk_games if steady else 1)
    return [chunks[start] for start in sorted(chunks)]


__all__ = ["CHUNK_SECONDS", "fork_available", "play_chunks", "play_in_order", "results_kept_out_of_gc", "run_tasks",
           "worker_pool"]

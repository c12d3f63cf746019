"""Numbered games played on several processes, this one included, for `simulate` and `validate`.

Every process (this one and ``jobs - 1`` workers) claims the next run of games from a shared counter, plays it
and hands it over; the caller puts the chunks back in game order, so results never depend on ``jobs``. A claim
is sized to take about ``CHUNK_SECONDS`` at the rate that process measured so far, and never more than a
share of what is left, so chunks are long while there is plenty to do (little per-chunk overhead for fast games)
and short at the end (the processes finish together). This process plays too instead of waiting on the
others: on two cores ``--jobs 2`` runs two processes, not three, which matters when the cores are busy.

Workers are forked where the platform allows, so they inherit what the caller set up before (the board, the
bots, a compiled kernel) instead of rebuilding it; elsewhere they are spawned and run ``setup`` first.
While chunks are collected the garbage collector leaves the results alone (``gc.freeze``): they are plain
values that hold no cycles, and scanning hundreds of thousands of them again and again costs more than a game.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import multiprocessing
import os
import pickle
import queue as queue_module
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")
Bounds = tuple[int, int]

CHUNK_SECONDS = 0.05  # a claim's target duration once a process knows its rate
FIRST_CHUNK_GAMES = 2  # the first claim of each process, to measure its rate
MAX_CHUNK_GAMES = 2000  # bounds the memory of one message
_WAIT_SECONDS = 0.5  # how often a waiting parent checks that its workers are still alive


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
    """The shared counter of the next unclaimed game, and one process's measured seconds per game."""

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
            share = max(1, (self.games - start) // (2 * self.jobs))  # at most half this process's fair share
            wanted = (int(CHUNK_SECONDS / self.seconds_per_game) if self.seconds_per_game > 0
                      else FIRST_CHUNK_GAMES)
            size = min(max(wanted, self.at_least), max(share, self.at_least), max(MAX_CHUNK_GAMES, self.at_least))
            stop = min(self.games, start + max(1, size))
            self.counter.value = stop
        return start, stop

    def played(self, bounds: Bounds, seconds: float) -> None:
        self.seconds_per_game = max(seconds, 1e-9) / (bounds[1] - bounds[0])


def _worker(play: Callable[[Bounds], Any], setup: tuple[Callable[..., None], tuple[Any, ...]] | None,
            counter: Any, games: int, jobs: int, results: Any, parent_pid: int, at_least: int = 1) -> None:
    end_with_parent(parent_pid)
    try:
        if setup is not None:
            setup[0](*setup[1])
        claims = _Claims(counter, games, jobs, at_least)
        while (bounds := claims.next()) is not None:
            started = time.perf_counter()
            out = play(bounds)
            claims.played(bounds, time.perf_counter() - started)
            results.put((bounds, out))
        results.put(None)
    except KeyboardInterrupt:  # the parent was interrupted too and reports it
        pass
    except BaseException as exc:  # handed to the parent, which raises it
        try:
            pickle.dumps(exc)
            results.put(exc)
        except Exception:  # an exception that cannot travel is sent as its text
            results.put(RuntimeError(f"a simulation worker failed: {type(exc).__name__}: {exc}"))


def play_chunks(games: int, jobs: int, play: Callable[[Bounds], T], on_chunk: Callable[[Bounds, T], None],
                setup: tuple[Callable[..., None], tuple[Any, ...]] | None = None, at_least: int = 1) -> None:
    """Play games ``0 .. games-1`` as chunks ``play((start, stop))``; ``on_chunk(bounds, result)`` is called in
    this process for every chunk, in whatever order they finish. ``play`` must be a module-level function.
    The caller has already set up this process's state; ``setup = (function, args)`` does the same in a
    spawned worker (forked ones inherit it)."""
    context: Any = multiprocessing.get_context("fork" if fork_available() else "spawn")
    counter = context.Value("q", 0)
    results = context.Queue()
    worker_setup = None if context.get_start_method() == "fork" else setup
    workers = [context.Process(target=_worker, args=(play, worker_setup, counter, games, jobs, results, os.getpid(),
                                                     at_least),
                               daemon=True, name=f"boardgen-games-{i + 1}") for i in range(max(0, jobs - 1))]
    running = len(workers)

    def take(message: Any) -> None:
        nonlocal running
        if message is None:
            running -= 1
        elif isinstance(message, BaseException):
            raise message
        else:
            on_chunk(*message)

    try:
        if gc.isenabled():  # the workers inherit this process's objects: their collections leave them alone
            gc.freeze()     # (no copy-on-write of every page a collection would touch)
        for worker in workers:
            worker.start()
        claims = _Claims(counter, games, jobs, at_least)
        while (bounds := claims.next()) is not None:
            started = time.perf_counter()
            out = play(bounds)
            claims.played(bounds, time.perf_counter() - started)
            on_chunk(bounds, out)
            while running:  # what the workers finished meanwhile, without waiting
                try:
                    take(results.get_nowait())
                except queue_module.Empty:
                    break
        while running:
            try:
                take(results.get(timeout=_WAIT_SECONDS))
            except queue_module.Empty:
                dead = [w for w in workers if w.exitcode not in (None, 0)]
                if dead:
                    raise RuntimeError(f"a simulation worker died (exit code {dead[0].exitcode})") from None
        for worker in workers:
            worker.join()
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
                worker.join()
        results.close()


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


__all__ = ["CHUNK_SECONDS", "fork_available", "play_chunks", "play_in_order", "results_kept_out_of_gc"]

#!/usr/bin/env python
"""Balance studies at scale: games per second of `boardgen simulate` for every installed game, next to a plain
``random.choice`` playout of the same game through the rules API timed in the same run, and the speed goals.

    python benchmarks/bench_games.py                  # print the tables (10-20 minutes on 2 cores)
    python benchmarks/bench_games.py --write-readme   # also replace the table in README.md
    python benchmarks/bench_games.py --games 2000 --budget-s 20   # a quicker look

For each game with rules (its default template), in subprocesses on one job (``--jobs 1 -q``):
- ``boardgen simulate`` with the game's default bots and with random bots: the games/s the CLI itself reports,
  10,000 games (30,000 for the flagship), reached through runs of 8 times more games each; a run that would
  take longer than ``--budget-s`` at the rate the last one measured plays fewer games, and the table says how
  many (the figure is honest: it includes the same fixed costs, spread over fewer games). What the CLI's rate
  covers: the wall time of playing the games, summarising them (summary, sample games, the per-game table) and
  drawing the plots. Start-up is outside it: the imports, the template, and loading a compiled kernel from its
  disk cache (importing numba and setting it up, which the CLI prints beside the rate); writing the report
  files too. So that nothing is hidden, the table also gives the whole command's rate for random bots: the
  games over the wall time of the whole ``boardgen simulate`` process, start-up included;
- ``boardgen simulate --games 1``: wall and CPU time of the whole command (medians of ``--runs``), imports
  included (the goal is judged on the wall time; on a loaded machine the CPU time is nearer an idle one's wall);
and in this process:
- a plain playout through the rules API: every seat picks ``random.choice(state.legal_actions())``, chance
  from ``sample_chance``; wall time of at least ``--api-s`` seconds of games (the game object made beforehand);
- for the flagship, its compiled kernel alone (``kernel_batch`` when the plug-in has one, else the kernel of
  ``rules.fast``), random bots, the same number of games as its CLI run, timed just before and just after that
  run (the mean of the two).

The goals (issue "balance studies at scale") are printed with met / not met. Wall-clock figures on a machine
shared with other work are only as good as it is idle: the load average is printed at the start and the end.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import timed  # type: ignore[import-not-found]

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
_BLOCK = re.compile(r"(<!-- bench-games -->\n)(.*?)(<!-- /bench-games -->)", re.S)
_RATE = re.compile(r"\(([\d,.]+) games/s with 1 job\)")
FLAGSHIP = "global-wellbeing"
RANDOM_GOAL_RATIO = 20.0  # each newer game, random bots: CLI rate >= 20x its plain API playout
DEFAULT_GOAL_RATE = 1000.0  # each newer game, its default bots: >= 1,000 games/s
FLAGSHIP_GOAL_SHARE = 0.7  # flagship, random bots: CLI rate >= 70% of its kernel's own rate
ONE_GAME_GOAL_S = 1.0  # simulate --games 1: <= 1 s wall


class Cli(NamedTuple):
    rate: float  # games/s as the CLI reported it
    games: int  # games played (fewer than asked when the budget capped them)
    asked: int
    whole_rate: float  # games over the wall time of the whole command (start-up included)


class GameRow(NamedTuple):
    name: str
    default: Cli
    random: Cli
    api_rate: float
    one_game_s: float
    one_game_cpu_s: float
    kernel_rate: float | None  # the flagship's kernel alone


def boardgen_env() -> dict[str, str]:
    """The environment for the CLI runs: this checkout first on the path, bytecode caching on (an installed
    boardgen has its .pyc files; without them every run compiles its modules again)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def simulate_cli(template: Path, games: int, bots: Sequence[str] | None, out: Path) -> tuple[float, float]:
    """(the games/s ``boardgen simulate`` reports, games over the whole command's wall time) for ``games`` games
    on one job."""
    command = [sys.executable, "-m", "boardgen.cli", "simulate", "-t", str(template), "--games", str(games),
               "--jobs", "1", "-q", "--out", str(out)]
    if bots:
        command += ["--bots", ",".join(bots)]
    wall, _cpu, done = timed(command, boardgen_env(), cwd=str(out))
    match = _RATE.search(done.stdout)
    if match is None:
        raise SystemExit(f"no games/s in the output of {' '.join(command)}:\n{done.stdout}{done.stderr}")
    return float(match.group(1).replace(",", "")), games / wall


def cli_rate(template: Path, games: int, bots: Sequence[str] | None, out: Path, budget_s: float,
             probe_games: int) -> Cli:
    """The CLI's rate for ``games`` games, or for as many as ``budget_s`` allows: runs of 8 times more games
    each (from ``probe_games``) while the next would fit in the budget at the rate the last one measured (a
    short run's rate is low, its fixed costs spread over few games: the ladder finds the real rate)."""
    n = min(games, probe_games)
    rate, whole = simulate_cli(template, n, bots, out)
    while n < games:
        nxt = min(games, n * 8)
        if nxt / rate > budget_s:
            nxt = min(games, max(n + 1, int(rate * budget_s)))
            if nxt <= n * 2:  # not worth another run: the last figure stands
                break
        n = nxt
        rate, whole = simulate_cli(template, n, bots, out)
    return Cli(rate, n, games, whole)


def one_game_s(template: Path, out: Path, runs: int) -> tuple[float, float]:
    """(wall s, CPU s) of ``boardgen simulate --games 1``, medians of ``runs``: on a loaded machine the wall time
    waits for the cores, the CPU time is about what an idle machine's wall time would be."""
    command = [sys.executable, "-m", "boardgen.cli", "simulate", "-t", str(template), "--games", "1", "-q",
               "--out", str(out)]
    timed(command, boardgen_env(), cwd=str(out))  # bytecode and caches written once
    times = [timed(command, boardgen_env(), cwd=str(out))[:2] for _ in range(runs)]
    return statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)


def api_playout_rate(plugin: Any, ctx: Any, players: int, seconds: float, min_games: int = 10) -> float:
    """Games/s (wall) of plain random playouts through the rules API: ``random.choice`` for every seat."""
    from boardgen.play.api import CHANCE, SIMULTANEOUS, TERMINAL, sample_chance
    from boardgen.play.simulate import derive_seed

    game = plugin.new_game(ctx, players)
    rng = random.Random(1)
    games = 0
    started = time.perf_counter()
    while games < min_games or time.perf_counter() - started < seconds:
        state = game.new_initial_state(derive_seed(1, "setup", games))
        while True:
            player = state.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                state.apply_action(sample_chance(state, rng))
            elif player == SIMULTANEOUS:
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(players)])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        state.outcome()
        games += 1
    return games / (time.perf_counter() - started)


def flagship_kernel_rate(plugin: Any, ctx: Any, players: int, games: int) -> float | None:
    """Games/s (wall) of the flagship's kernel alone with random bots, or None without numba."""
    from boardgen.play.simulate import derive_seed, lineup

    bots = ("random",)
    if plugin.fast.kernel_batch(ctx, players, bots, 1, 0, 1, True) is not None:
        started = time.perf_counter()
        plugin.fast.kernel_batch(ctx, players, bots, 1, 0, games, True)
        return games / (time.perf_counter() - started)
    from boardgen.games.global_wellbeing.rules import fast
    from boardgen.games.global_wellbeing.rules.board import RulesBoard

    if fast.load_kernel() is None:
        return None
    board = RulesBoard.from_board(ctx.board)
    lineups = [lineup(bots, players, i, True) for i in range(games)]
    seeds = [derive_seed(1, "game", i) for i in range(games)]
    fast.play_batch(board, ctx.config.rules, lineups[:1], seeds[:1])  # loaded before timing
    started = time.perf_counter()
    fast.play_batch(board, ctx.config.rules, lineups, seeds)
    return games / (time.perf_counter() - started)


def measure(names: Sequence[str], games: int, flagship_games: int, budget_s: float, api_s: float, runs: int,
            probe_games: int) -> list[GameRow]:
    from boardgen.plugin import BuildContext, installed_games
    from boardgen.template import load

    rows = []
    with tempfile.TemporaryDirectory(prefix="boardgen-bench-games-") as folder:
        out = Path(folder)
        for name in names:
            plugin = installed_games()[name]
            template = plugin.default_template()
            _plugin, config = load(template)
            ctx = BuildContext(config, plugin)
            players = plugin.player_range(config)[1]
            n = flagship_games if name == FLAGSHIP else games
            print(f"{name}: simulate --games 1 ...", file=sys.stderr, flush=True)
            one, one_cpu = one_game_s(template, out, runs)
            print(f"{name}: default bots ...", file=sys.stderr, flush=True)
            default = cli_rate(template, n, None, out, budget_s, probe_games)
            kernel_before = flagship_kernel_rate(plugin, ctx, players, n) if name == FLAGSHIP else None
            print(f"{name}: random bots ...", file=sys.stderr, flush=True)
            rand = cli_rate(template, n, ("random",), out, budget_s, probe_games)
            kernel = None
            if name == FLAGSHIP and kernel_before is not None:  # timed just before and just after the CLI run:
                after = flagship_kernel_rate(plugin, ctx, players, n)  # a change in the machine's load meets both
                kernel = (kernel_before + after) / 2 if after is not None else kernel_before
            print(f"{name}: API playout ...", file=sys.stderr, flush=True)
            api = api_playout_rate(plugin, ctx, players, api_s)
            rows.append(GameRow(name, default, rand, api, one, one_cpu, kernel))
    return rows


def _cli_cell(cli: Cli) -> str:
    capped = "" if cli.games == cli.asked else f" ({cli.games:,} of {cli.asked:,} games: budget)"
    return f"{cli.rate:,.0f}{capped}" if cli.rate >= 10 else f"{cli.rate:.2f}{capped}"


def tables(rows: Sequence[GameRow]) -> str:
    lines = ["| game | default bots, CLI games/s | random bots, CLI games/s | plain API playout games/s | "
             "random CLI / API | random, whole command games/s (/ API) | `simulate --games 1` wall |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        kernel = f" (kernel alone {r.kernel_rate:,.0f})" if r.kernel_rate else ""
        lines.append(f"| {r.name} | {_cli_cell(r.default)} | {_cli_cell(r.random)}{kernel} | {r.api_rate:,.0f} | "
                     f"{r.random.rate / r.api_rate:.1f}x | {r.random.whole_rate:,.0f} "
                     f"({r.random.whole_rate / r.api_rate:.1f}x) | {r.one_game_s:.2f} s "
                     f"({r.one_game_cpu_s:.2f} s CPU) |")
    goals = ["| measure | goal | measured | met |", "| --- | --- | --- | --- |"]

    def met(ok: bool) -> str:
        return "met" if ok else "**not met**"

    for r in rows:
        if r.name == FLAGSHIP:
            if r.kernel_rate:
                share = r.random.rate / r.kernel_rate
                goals.append(f"| {r.name}, random bots, CLI against its kernel alone | >= 70% | {share:.0%} "
                             f"({r.random.rate:,.0f} of {r.kernel_rate:,.0f} games/s) | "
                             f"{met(share >= FLAGSHIP_GOAL_SHARE)} |")
            else:
                goals.append(f"| {r.name}, random bots, CLI against its kernel alone | >= 70% | no kernel (numba "
                             f"missing) | **not met** |")
        else:
            ratio = r.random.rate / r.api_rate
            goals.append(f"| {r.name}, random bots, CLI against its plain API playout | >= 20x | {ratio:.1f}x | "
                         f"{met(ratio >= RANDOM_GOAL_RATIO)} |")
            goals.append(f"| {r.name}, default bots, CLI | >= 1,000 games/s | {_cli_cell(r.default)} | "
                         f"{met(r.default.rate >= DEFAULT_GOAL_RATE)} |")
        goals.append(f"| {r.name}, `simulate --games 1` | <= 1 s wall | {r.one_game_s:.2f} s "
                     f"({r.one_game_cpu_s:.2f} s CPU) | {met(r.one_game_s <= ONE_GAME_GOAL_S)} |")
    note = ("The CLI's games/s (what `boardgen simulate` prints) is the games over the time of playing, "
            "summarising and plotting them; start-up (imports, the template, a compiled kernel loaded from its "
            "disk cache, which the CLI prints beside the rate) is outside it, and in the whole command's rate.")
    return "\n".join(lines) + "\n\n" + note + "\n\n" + "\n".join(goals) + "\n"


def main() -> None:
    from boardgen.plugin import installed_games

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per CLI run of a newer game")
    parser.add_argument("--flagship-games", type=int, default=30_000, help="games per CLI run of the flagship")
    parser.add_argument("--budget-s", type=float, default=90.0,
                        help="longest a CLI run may take: slower games play fewer games (the table says so)")
    parser.add_argument("--probe-games", type=int, default=40, help="games of the run that measures the rate")
    parser.add_argument("--api-s", type=float, default=8.0, help="seconds of plain API playouts per game")
    parser.add_argument("--runs", type=int, default=3, help="runs of `simulate --games 1` (median)")
    parser.add_argument("--game", action="append", help="only this game (repeat for more)")
    parser.add_argument("--write-readme", action="store_true", help="replace the table in README.md")
    args = parser.parse_args()
    names = args.game or sorted(n for n, p in installed_games().items() if p.has_rules)
    load_start = os.getloadavg()[0]
    rows = measure(names, args.games, args.flagship_games, args.budget_s, args.api_s, args.runs, args.probe_games)
    load_end = os.getloadavg()[0]
    machine = (f"{os.cpu_count()} cores, load average {load_start:.2f} at the start and {load_end:.2f} at the end, "
               f"Python {sys.version.split()[0]}")
    text = tables(rows)
    print(text + f"\n{machine}")
    if args.write_readme:
        readme = README.read_text(encoding="utf-8")
        block = f"`python benchmarks/bench_games.py` ({machine}):\n\n{text}"
        new, count = _BLOCK.subn(lambda m: m.group(1) + block + m.group(3), readme)
        if count != 1:  # the first time: the block goes after bench_speed.py's table
            anchor = "<!-- /bench-speed -->\n"
            if anchor not in readme:
                sys.exit("README.md has neither a <!-- bench-games --> block nor bench_speed.py's table")
            new = readme.replace(anchor, f"{anchor}\n<!-- bench-games -->\n{block}<!-- /bench-games -->\n", 1)
        README.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    main()

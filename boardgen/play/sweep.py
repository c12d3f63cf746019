"""`boardgen sweep`: play every variant of a template's rules (a grid over ``--vary`` keys, or a random sample of
it) many times, on local processes or a Dask cluster, and rank the variants by an objective over their metrics.

Work is cut into batches (variant, first game, last game). A batch's games use the same seeds as ``boardgen
simulate`` does for that variant (game ``i`` is seeded from the master seed and ``i`` alone, so all variants
meet the same dice: common random numbers make their differences sharper). Each finished batch is written to
``sweep/batches/<plan>/`` before it counts, so ``--resume`` continues an interrupted sweep and loses nothing;
where a batch ran (which process, which machine) never changes its result.
"""

from __future__ import annotations

import ast
import copy
import csv
import functools
import hashlib
import io
import itertools
import json
import math
import operator
import os
import pickle
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from boardgen.errors import BoardgenError, ConfigError

MAX_VARIANTS = 10_000
MAX_VALUES_PER_KEY = 1_000


class SweepError(BoardgenError):
    """A sweep that cannot run as asked (bad --vary, objective, resume of another plan)."""


# ------------------------------------------------------------------------------------------ variants


@dataclass(frozen=True)
class Vary:
    key: str  # dotted template key, e.g. "rules.harvest_divisor"
    values: tuple[Any, ...]


def _scalar(text: str, expression: str) -> Any:
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        raise SweepError(f"--vary {expression!r}: {text!r} is not a value") from None
    if isinstance(value, dict | list) or value is None:
        raise SweepError(f"--vary {expression!r}: {text!r} is not a single value")
    return value


def _number(text: str, expression: str) -> float | int:
    value = _scalar(text, expression)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise SweepError(f"--vary {expression!r}: expected numbers in START:STOP:STEP, got {text!r}")
    return value


def parse_vary(expression: str) -> Vary:
    """``rules.x=1,2,3`` (a list of values) or ``rules.x=20:40:5`` (a range, both ends included)."""
    key, sep, rhs = expression.partition("=")
    key = key.strip()
    if not sep or not key or not rhs.strip():
        raise SweepError(f"--vary {expression!r}: expected KEY=V1,V2,... or KEY=START:STOP:STEP")
    if any(not part.isidentifier() for part in key.split(".")):
        raise SweepError(f"--vary {expression!r}: {key!r} is not a dotted template key such as rules.turns")
    rhs = rhs.strip()
    if ":" in rhs and "," not in rhs:
        parts = rhs.split(":")
        if len(parts) not in (2, 3):
            raise SweepError(f"--vary {expression!r}: expected START:STOP or START:STOP:STEP")
        start, stop = _number(parts[0], expression), _number(parts[1], expression)
        step = _number(parts[2], expression) if len(parts) == 3 else 1
        if step <= 0 or stop < start:
            raise SweepError(f"--vary {expression!r}: expected START <= STOP and a positive STEP")
        count = math.floor((stop - start) / step + 1e-9) + 1
        if count > MAX_VALUES_PER_KEY:
            raise SweepError(f"--vary {expression!r}: {count} values; at most {MAX_VALUES_PER_KEY} per key")
        integral = all(isinstance(v, int) for v in (start, stop, step))
        values: tuple[Any, ...] = tuple((start + i * step) if integral else round(start + i * step, 10)
                                        for i in range(count))
    else:
        values = tuple(_scalar(v.strip(), expression) for v in rhs.split(",") if v.strip())
        if not values:
            raise SweepError(f"--vary {expression!r}: no values")
        if len(values) > MAX_VALUES_PER_KEY:
            raise SweepError(f"--vary {expression!r}: {len(values)} values; at most {MAX_VALUES_PER_KEY} per key")
    if len(set(map(repr, values))) != len(values):
        raise SweepError(f"--vary {expression!r}: a value is listed twice")
    return Vary(key, values)


def variant_grid(varies: Sequence[Vary], sample: int | None, seed: int) -> list[dict[str, Any]]:
    """Every combination in order (the first key varies slowest), or ``sample`` of them drawn without
    replacement by ``seed`` and kept in grid order."""
    keys = [v.key for v in varies]
    if len(set(keys)) != len(keys):
        raise SweepError("--vary: a key is varied twice")
    total = math.prod(len(v.values) for v in varies)
    if sample is None and total > MAX_VARIANTS:
        raise SweepError(f"--vary: {total} combinations; at most {MAX_VARIANTS} (use --sample N)")
    if sample is None or sample >= total:
        return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*(v.values for v in varies))]
    picks = sorted(random.Random(seed).sample(range(total), sample))
    out = []
    for index in picks:
        combo = []
        for v in reversed(varies):
            index, k = divmod(index, len(v.values))
            combo.append(v.values[k])
        out.append(dict(zip(keys, reversed(combo), strict=True)))
    return out


def with_overrides(data: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a template mapping with dotted keys set (missing mappings on the way are created)."""
    out = copy.deepcopy(dict(data))
    for key, value in overrides.items():
        node = out
        parts = key.split(".")
        for part in parts[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                child = {}
                node[part] = child
            node = child
        node[parts[-1]] = value
    return out


def nested(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Dotted keys as nested mappings (for the best variant's template)."""
    return with_overrides({}, overrides)


# ------------------------------------------------------------------------------------------ objective

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
_FUNCTIONS: dict[str, Callable[..., float]] = {"abs": abs, "min": min, "max": max, "sqrt": math.sqrt}


def _dotted_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted_name(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


@dataclass(frozen=True)
class Objective:
    """A small arithmetic expression over metric names (``seat_spread + ties``, ``abs(length - 20)``,
    ``score.mean``); lower is better. Names are checked against the metrics before any game is played."""

    text: str
    tree: ast.Expression = field(repr=False)

    @staticmethod
    def parse(text: str) -> Objective:
        try:
            tree = ast.parse(text, mode="eval")
        except SyntaxError:
            raise SweepError(f"--objective {text!r}: not an expression") from None
        for node in ast.walk(tree):
            allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.USub, ast.UAdd, ast.Constant, ast.Name,
                       ast.Attribute, ast.Load, ast.Call, *_BINARY)
            if not isinstance(node, allowed):
                raise SweepError(f"--objective {text!r}: {type(node).__name__} is not allowed (use + - * / ** "
                                 f"abs min max sqrt, numbers and metric names)")
            if isinstance(node, ast.Call) and (not isinstance(node.func, ast.Name) or node.func.id not in _FUNCTIONS):
                raise SweepError(f"--objective {text!r}: only {', '.join(_FUNCTIONS)} may be called")
            if isinstance(node, ast.Constant) and not isinstance(node.value, int | float):
                raise SweepError(f"--objective {text!r}: {node.value!r} is not a number")
        return Objective(text, tree)

    def names(self) -> set[str]:
        out: set[str] = set()

        def visit(node: ast.AST) -> None:
            name = _dotted_name(node)
            if name is not None:
                out.add(name)
                return
            if isinstance(node, ast.Call):
                for arg in node.args:
                    visit(arg)
                return
            for child in ast.iter_child_nodes(node):
                visit(child)

        visit(self.tree)
        return out

    def check(self, metrics: Mapping[str, float]) -> None:
        missing = sorted(self.names() - set(metrics))
        if missing:
            import difflib

            close = difflib.get_close_matches(missing[0], list(metrics), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise SweepError(f"--objective {self.text!r}: unknown metric {missing[0]!r}{hint} "
                             f"(metrics: {', '.join(sorted(k for k in metrics if '.' not in k))}, ...)")

    def value(self, metrics: Mapping[str, float]) -> float:
        def ev(node: ast.AST) -> float:
            if isinstance(node, ast.Expression):
                return ev(node.body)
            if isinstance(node, ast.Constant):
                assert isinstance(node.value, int | float)  # parse() admits no other constants
                return float(node.value)
            if isinstance(node, ast.UnaryOp):
                return -ev(node.operand) if isinstance(node.op, ast.USub) else ev(node.operand)
            if isinstance(node, ast.BinOp):
                try:
                    return float(_BINARY[type(node.op)](ev(node.left), ev(node.right)))
                except (ZeroDivisionError, OverflowError):
                    return math.inf
            if isinstance(node, ast.Call):
                assert isinstance(node.func, ast.Name)
                try:
                    return float(_FUNCTIONS[node.func.id](*(ev(a) for a in node.args)))
                except (ValueError, OverflowError, TypeError):  # sqrt(-1), min() of nothing
                    return math.nan
            name = _dotted_name(node)
            assert name is not None
            return float(metrics[name])

        return ev(self.tree)


def flatten(summary: Mapping[str, Any], prefix: str = "") -> dict[str, float]:
    """Every number in a summary under its dotted path (lists are skipped)."""
    out: dict[str, float] = {}
    for key, value in summary.items():
        name = f"{prefix}{key}"
        if isinstance(value, bool | int | float):
            out[name] = float(value)
        elif isinstance(value, Mapping):
            out.update(flatten(value, name + "."))
    return out


def standard_metrics(summary: Mapping[str, Any]) -> dict[str, float]:
    """The names every game's sweep offers, from its summary, plus every number of the summary by path."""
    n_seats = len(summary["win_rate_by_seat"])
    expected = 1 / n_seats if n_seats else 0.0
    spread = max((abs(s["rate"] - expected) for s in summary["win_rate_by_seat"]), default=0.0)
    ci_spread = max((max(abs(s["ci95"][0] - expected), abs(s["ci95"][1] - expected))
                     for s in summary["win_rate_by_seat"]), default=0.0)
    metrics = flatten(summary)
    metrics.update({
        "seat_spread": round(spread, 6),
        "seat_spread_ci95": round(ci_spread, 6),  # how far the worst seat's 95% interval reaches from 1/N
        "ties": float(summary["ties"]["share"]),
        "nobody_won": float(summary.get("nobody_won", {}).get("share", 0.0)),
    })
    if "length" in summary and isinstance(summary["length"], Mapping):
        metrics["length"] = float(summary["length"]["mean"])
    for name, value in summary.get("metrics", {}).items():
        if isinstance(value, Mapping) and "mean" in value:
            metrics[name] = float(value["mean"])
    return metrics


# ------------------------------------------------------------------------------------------ running


@dataclass(frozen=True)
class Plan:
    game: str
    template_name: str
    template_sha256: str
    template_data: Mapping[str, Any]
    source: str
    variants: tuple[Mapping[str, Any], ...]
    games: int
    players: int
    bots: tuple[str, ...]
    seed: int
    rotate: bool
    batch_games: int
    players_varied: bool = False  # a --vary key sets players.*: each variant seats its own players.usual

    @functools.cached_property
    def signature_cached(self) -> str:
        return self.signature()

    def signature(self) -> str:
        text = json.dumps({"game": self.game, "template": self.template_sha256, "data": self.template_data,
                           "variants": self.variants, "games": self.games, "players": self.players,
                           "bots": self.bots, "seed": self.seed, "rotate": self.rotate,
                           "batch": self.batch_games, **({"players_varied": True} if self.players_varied else {})},
                          sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    def batches(self) -> list[tuple[int, int, int]]:
        starts = range(0, self.games, self.batch_games)
        return [(v, a, min(a + self.batch_games, self.games)) for v in range(len(self.variants)) for a in starts]

    def seats(self, ctx: Any) -> int:
        """Players in each game of the variant ``ctx`` holds: its own ``players.usual`` when the sweep varies
        the players, else the plan's count."""
        return int(ctx.plugin.player_range(ctx.config)[1]) if self.players_varied else self.players

    def variant_source(self, v: int) -> str:
        changes = ", ".join(f"{k}={val}" for k, val in self.variants[v].items())
        return f"{self.source} (--vary {changes})"


def load_variant(plan: Plan, v: int) -> tuple[Any, Any]:
    """(plugin, config) of variant ``v``: the template with its overrides, validated like any template."""
    from boardgen.plugin import get_game

    plugin = get_game(plan.game, plan.source)
    data = with_overrides(plan.template_data, plan.variants[v])
    config = plugin.load_config(data, plan.variant_source(v), plan.template_sha256)
    return plugin, config


_CONTEXTS: dict[str, Any] = {}  # per worker process: the last few variants' build contexts (boards are costly)


def _context(plan: Plan, v: int) -> Any:
    from boardgen.plugin import BuildContext

    plugin, config = load_variant(plan, v)
    key = f"{plan.signature_cached}:{v}"
    if key not in _CONTEXTS:
        board_key = plugin.fast.board_key(config)
        donor = next((c for c in _CONTEXTS.values() if c.computed.get("__board_key") == board_key), None)
        ctx = BuildContext(config, plugin)
        ctx.computed["__board_key"] = board_key
        if donor is not None:  # the same board under other rules: reuse what it computed from the board alone
            for name in plugin.fast.board_values:
                if name in donor.computed:
                    ctx.computed[name] = donor.computed[name]
        if len(_CONTEXTS) >= 8:
            _CONTEXTS.pop(next(iter(_CONTEXTS)))
        _CONTEXTS[key] = ctx
    return _CONTEXTS[key]


def run_batch(plan: Plan, batch: tuple[int, int, int]) -> tuple[tuple[int, int, int], Any]:
    """Play one batch; returns (batch, the game's batch result). Runs on any worker."""
    from boardgen.play.runner import play_range

    v, start, stop = batch
    ctx = _context(plan, v)
    return batch, play_range(ctx.plugin, ctx, plan.seats(ctx), plan.bots, plan.seed, start, stop, plan.rotate)


def _batch_path(folder: Path, batch: tuple[int, int, int]) -> Path:
    v, start, _stop = batch
    return folder / f"v{v:05d}-{start:08d}.pkl"


_LOCAL: dict[str, Any] = {}  # the plan and the batches to play, inherited by forked workers


def _init_local(plan: Plan, todo: list[tuple[int, int, int]]) -> None:
    _LOCAL.update(plan=plan, todo=todo)


def _play_local(bounds: tuple[int, int]) -> list[tuple[tuple[int, int, int], Any]]:
    plan, todo = _LOCAL["plan"], _LOCAL["todo"]
    return [run_batch(plan, todo[i]) for i in range(*bounds)]


def _run_local(plan: Plan, todo: list[tuple[int, int, int]], jobs: int,
               finished: Callable[[tuple[int, int, int], Any], None]) -> None:
    """The batches on this process and ``jobs - 1`` workers: the pool `simulate` and `validate` use
    (``boardgen.play.pool``), with batches for games."""
    from boardgen.play.pool import play_chunks

    if jobs <= 1 or len(todo) <= 1:
        for batch in todo:
            finished(*run_batch(plan, batch))
        return
    def chunk(_bounds: tuple[int, int], done: list[tuple[tuple[int, int, int], Any]]) -> None:
        for batch, result in done:
            finished(batch, result)

    _init_local(plan, todo)
    try:
        play_chunks(len(todo), jobs, _play_local, chunk, (_init_local, (plan, todo)))
    finally:
        _LOCAL.clear()


def _run_dask(plan: Plan, todo: list[tuple[int, int, int]], scheduler: Any) -> Iterable[tuple[Any, Any]]:
    from distributed import Client, as_completed

    if isinstance(scheduler, Client):
        client = scheduler
    else:
        try:
            client = Client(scheduler, timeout="30s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise SweepError(f"--scheduler {scheduler!r}: cannot reach the Dask scheduler ({exc})") from None
    try:
        plan_future = client.scatter(plan, broadcast=True, hash=False)
        sig = plan.signature()[:12]
        futures = [client.submit(run_batch, plan_future, batch, key=f"boardgen-sweep-{sig}-{v}-{a}", retries=3,
                                 pure=False) for batch in todo for v, a, _b in [batch]]
        for future in as_completed(futures):
            yield future.result()
            future.release()
    finally:
        if client is not scheduler:
            client.close()


RESAMPLES = 200  # bootstrap resamples for the best variant's separation from the runner-up


@dataclass
class SweepResult:
    plan: Plan
    rows: list[dict[str, Any]]  # per variant: index, overrides, metrics, objective (None when not finite)
    best: int | None  # None: no variant has a finite objective
    objective: str
    batches_run: int
    batches_resumed: int
    separation: dict[str, Any] | None = None  # the best against the runner-up (see ``separation``)


def finite(value: Any) -> bool:
    """A number that is neither infinite nor NaN (None, how a table holds a missing objective: False)."""
    return isinstance(value, int | float) and math.isfinite(value)


def _objective_cell(value: float) -> float | None:
    return round(value, 6) if math.isfinite(value) else None


def rank(rows: Sequence[Mapping[str, Any]]) -> list[int]:
    """Variant indexes best first: finite objectives by value (ties by variant), then the rest in order."""
    return sorted(range(len(rows)), key=lambda i: (0, rows[i]["objective"], i) if finite(rows[i]["objective"])
                  else (1, 0.0, i))


def separation(plan: Plan, objective: Objective, best: int, runner_up: int, parts: Mapping[int, Sequence[Any]],
               summarise: Callable[[int, list[Any]], Mapping[str, Any]]) -> dict[str, Any]:
    """Whether the best variant is separated from the runner-up: the 95% interval of the runner-up's objective
    minus the best's, over ``RESAMPLES`` bootstrap resamples of the games (the same games for both: the
    variants met the same dice), and about how many games per variant would give an interval that excludes 0
    (the interval narrows as one over the square root of the games). Needs batches that are columns."""
    from boardgen.play.columns import OutcomeColumns

    out: dict[str, Any] = {"runner_up": runner_up + 1, "resamples": RESAMPLES}
    if not all(isinstance(b, OutcomeColumns) for v in (best, runner_up) for b in parts[v]):
        return {**out, "separated": None, "note": "this game's batches cannot be resampled"}
    games = {v: OutcomeColumns.concat(list(parts[v])) for v in (best, runner_up)}
    n = games[best].games
    rng = np.random.default_rng(plan.seed)
    diffs = []
    for _ in range(RESAMPLES):
        at = rng.integers(0, n, n)
        values = [objective.value(standard_metrics(summarise(v, [games[v].take(at)]))) for v in (best, runner_up)]
        if all(math.isfinite(x) for x in values):
            diffs.append(values[1] - values[0])
    if len(diffs) < RESAMPLES // 2:
        return {**out, "separated": None, "note": "the objective is not finite in most resamples"}
    low, high = (float(x) for x in np.percentile(diffs, [2.5, 97.5]))
    observed = float(objective.value(standard_metrics(summarise(runner_up, list(parts[runner_up]))))
                     - objective.value(standard_metrics(summarise(best, list(parts[best])))))
    half = (high - low) / 2
    needed = math.ceil(n * (half / observed) ** 2) if observed > 0 and half > 0 else None
    return {**out, "difference": round(observed, 6), "ci95": [round(low, 6), round(high, 6)],
            "separated": bool(low > 0), "games_to_separate": needed}


def run_sweep(plan: Plan, out_dir: Path, objective: Objective, jobs: int = 1, scheduler: Any = None,
              resume: bool = False, progress: Callable[[int], None] | None = None) -> SweepResult:
    from boardgen.io import write_atomic

    sig = plan.signature()
    folder = out_dir / "batches" / sig[:16]
    all_batches = plan.batches()
    done: dict[tuple[int, int, int], Any] = {}
    if resume and folder.is_dir():
        for batch in all_batches:
            path = _batch_path(folder, batch)
            if path.is_file():
                try:
                    stored = pickle.loads(path.read_bytes())
                except Exception:
                    continue
                if isinstance(stored, dict) and stored.get("plan") == sig and tuple(stored.get("batch", ())) == batch:
                    done[batch] = stored["result"]
        if progress is not None and done:
            progress(sum(b[2] - b[1] for b in done))
    resumed = len(done)
    todo = [b for b in all_batches if b not in done]

    def finished(batch: Any, result: Any) -> None:
        batch = tuple(batch)
        write_atomic(_batch_path(folder, batch), pickle.dumps({"plan": sig, "batch": batch, "result": result}))
        done[batch] = result
        if progress is not None:
            progress(batch[2] - batch[1])

    if scheduler is not None:
        for batch, result in _run_dask(plan, todo, scheduler):
            finished(batch, result)
    else:
        _run_local(plan, todo, jobs, finished)

    def summarise(v: int, batches: list[Any]) -> Mapping[str, Any]:
        ctx = _context(plan, v)
        return ctx.plugin.fast.batch_summary(ctx, plan.seats(ctx), plan.bots, plan.seed, plan.rotate, batches)  # type: ignore[no-any-return]

    rows = []
    parts: dict[int, list[Any]] = {}
    for v, overrides in enumerate(plan.variants):
        parts[v] = [done[b] for b in all_batches if b[0] == v]
        metrics = standard_metrics(summarise(v, parts[v]))
        if v == 0:
            objective.check(metrics)
        rows.append({"variant": v + 1, "overrides": dict(overrides), "metrics": metrics,
                     "objective": _objective_cell(objective.value(metrics))})
    ranked = rank(rows)
    best = ranked[0] if finite(rows[ranked[0]]["objective"]) else None
    apart = None
    if best is not None and len(ranked) > 1 and finite(rows[ranked[1]]["objective"]):
        apart = separation(plan, objective, best, ranked[1], parts, summarise)
    return SweepResult(plan, rows, best, objective.text, len(todo), resumed, apart)


# ------------------------------------------------------------------------------------------ writing

CSV_METRICS = ("seat_spread", "seat_spread_ci95", "ties", "nobody_won", "length")


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return repr(round(value, 6))
    return str(value)


def objective_text(row: Mapping[str, Any]) -> str:
    """A variant's objective as the table shows it: the number, or why there is none."""
    return _cell(row["objective"]) if finite(row["objective"]) else "not finite"


def sweep_csv(result: SweepResult, extra: Sequence[str] = ()) -> bytes:
    keys = list(result.plan.variants[0]) if result.plan.variants else []
    metric_names = [m for m in (*CSV_METRICS, *extra) if m in result.rows[0]["metrics"]]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["variant", *keys, "objective", *metric_names, "best"])
    for i, row in enumerate(result.rows):
        writer.writerow([row["variant"], *(_cell(row["overrides"][k]) for k in keys), objective_text(row),
                         *(_cell(row["metrics"][m]) for m in metric_names), "yes" if i == result.best else ""])
    return buffer.getvalue().encode()


def _json_number(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None  # JSON has no infinity
    if isinstance(value, Mapping):
        return {k: _json_number(v) for k, v in value.items()}
    return value


def sweep_json(result: SweepResult) -> bytes:
    plan = result.plan
    variants = []
    for row in result.rows:
        entry = _json_number(dict(row))
        if not finite(row["objective"]):
            entry["objective_note"] = "not a finite number for this variant (a division by 0, or undefined)"
        variants.append(entry)
    document = {
        "game": plan.game, "template": plan.template_name, "template_sha256": plan.template_sha256,
        "games_per_variant": plan.games,
        "players": "each variant's players.usual" if plan.players_varied else plan.players,
        "bots": list(plan.bots), "seed": plan.seed,
        "objective": result.objective,
        "best_variant": result.rows[result.best]["variant"] if result.best is not None else None,
        "best_against_runner_up": result.separation,
        "variants": variants,
    }
    return (json.dumps(document, indent=1, sort_keys=False, ensure_ascii=False, allow_nan=False) + "\n").encode()


BEST_SUFFIX = "-best"


def best_edition(edition: str) -> str:
    """The best variant's own edition (its kit must not overwrite the base's): the base's name plus -best,
    shortened to the 64 characters an edition may have."""
    return edition[:64 - len(BEST_SUFFIX)] + BEST_SUFFIX


def best_template(result: SweepResult, extends: str, edition: str | None = None) -> bytes:
    """The best variant as a template: ``extends`` its base (a bundled name, or a path relative to the file),
    its own ``edition``, and only the keys the sweep changed."""
    if result.best is None:
        raise SweepError("no variant has a finite objective: there is no best variant")
    row = result.rows[result.best]
    header = (f"# The best variant of a `boardgen sweep` over {len(result.rows)} variants x {result.plan.games} "
              f"games ({', '.join(result.plan.variants[0])}),\n# by the objective `{result.objective}` = "
              f"{row['objective']:g} (lower is better). Only the changed keys are here.\n")
    body: dict[str, Any] = {"extends": extends}
    if edition is not None:
        body["edition"] = edition
    body.update(nested(row["overrides"]))
    return (header + yaml.safe_dump(body, sort_keys=False, allow_unicode=True)).encode()


def extends_path(template: Path, folder: Path) -> str:
    """How a template in ``folder`` names ``template``: a bundled template by its name (works on any machine),
    any other by its path relative to ``folder`` (the absolute path where there is none, another drive)."""
    from boardgen.yaml_reader import templates_dir

    resolved = template.resolve()
    if resolved.parent == templates_dir().resolve():
        return template.stem
    try:
        return Path(os.path.relpath(resolved, folder.resolve())).as_posix()
    except ValueError:
        return str(resolved)


def sweep_plots(result: SweepResult) -> dict[str, bytes]:
    """The ranking of the variants with a finite objective (best 25) and, for two keys, the heat map of the
    objective over the grid (a variant without a finite objective is a blank cell)."""
    from boardgen.render.charts import VIRIDIS, grid_heat_map_chart, ranking_chart

    keys = list(result.plan.variants[0])
    rows = result.rows
    out = {}
    shown = [i for i in rank(rows) if finite(rows[i]["objective"])]
    left_out = len(rows) - len(shown)
    note = f"; {left_out} not finite, not shown" if left_out else ""
    if len(keys) == 2 and shown:
        xs = list(dict.fromkeys(r["overrides"][keys[0]] for r in rows))
        ys = list(dict.fromkeys(r["overrides"][keys[1]] for r in rows))
        grid = [[math.nan] * len(xs) for _ in ys]
        for r in rows:
            if finite(r["objective"]):
                grid[ys.index(r["overrides"][keys[1]])][xs.index(r["overrides"][keys[0]])] = r["objective"]
        out["sweep-heatmap.png"] = grid_heat_map_chart(
            [str(x) for x in xs], [str(y) for y in ys], grid,
            title=f"{len(rows)} variants x {result.plan.games} games{note}", x_label=keys[0], y_label=keys[1],
            bar_label=f"objective: {result.objective} (lower is better)", colour_map=VIRIDIS.reversed()).png()
    if shown:
        ranked = shown[:25]
        labels = [", ".join(f"{k.split('.')[-1]}={rows[i]['overrides'][k]}" for k in keys) for i in ranked]
        out["sweep-ranking.png"] = ranking_chart(
            labels, [rows[i]["objective"] for i in ranked],
            ["#d55e00" if i == result.best else "#0072b2" for i in ranked],
            title=f"{len(rows)} variants x {result.plan.games} games, ranked by {result.objective}{note}",
            x_label="objective (lower is better)").png()
    return out


SWEEP_MANIFEST = "manifest.json"


def write_sweep(result: SweepResult, out_dir: Path, template: Path, edition: str) -> list[str]:
    """Write the sweep's table, document, plots and best variant into ``out_dir`` as a kit is written: all of
    this run's files or all of the last run's, never a mix (``boardgen.io.write_artifacts``; a manifest lists
    them, so a file the last run wrote and this one does not is gone). The resume batches stay. Returns the
    names written."""
    from boardgen.io import Artifact, write_artifacts

    files: dict[str, bytes] = {"sweep.csv": sweep_csv(result), "sweep.json": sweep_json(result)}
    files.update(sweep_plots(result))
    if result.best is not None:
        files["best.yaml"] = best_template(result, extends_path(template, out_dir), best_edition(edition))
    manifest = {"written_by": "boardgen sweep", "outputs": sorted(files)}
    artifacts = [Artifact(name, data, "") for name, data in files.items()]
    artifacts.append(Artifact(SWEEP_MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode(), ""))
    write_artifacts(out_dir, artifacts)
    return sorted(files)


def probe_metrics(plan: Plan) -> dict[str, float]:
    """The metric names a sweep of this plan offers, from one game of the first variant (not kept)."""
    from boardgen.play.runner import play_range

    ctx = _context(plan, 0)
    batch = play_range(ctx.plugin, ctx, plan.seats(ctx), plan.bots, plan.seed, 0, 1, plan.rotate)
    fast = ctx.plugin.fast
    return standard_metrics(fast.batch_summary(ctx, plan.seats(ctx), plan.bots, plan.seed, plan.rotate, [batch]))


def check_variants(plan: Plan) -> None:
    """Validate every variant like a template before anything is played (one-line error naming the key)."""
    for v in range(len(plan.variants)):
        try:
            load_variant(plan, v)
        except ConfigError:
            raise

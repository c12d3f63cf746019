"""Simulated games' results as columns (numpy arrays), the form a compiled kernel returns a batch of games in.

A batch of ``n`` games of ``players`` seats is a handful of arrays rather than ``n`` record objects: per-seat
scores and winner flags, the length, and one array per metric and per counted event. ``from_records`` turns
records played through the rules API into the same columns, so a kernel's batch and the API's games for the
same seeds can be compared field by field, and ``records`` turns columns back into records for code that still
reads them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from boardgen.play.api import Outcome


@dataclass(frozen=True)
class GameRecord:
    """One game played through the rules API: its seed (``derive_seed(seed, "game", i)``), the bot in each
    seat and how it went."""

    seed: int
    bots: tuple[str, ...]
    outcome: Outcome


@dataclass(frozen=True)
class OutcomeColumns:
    """``n`` games: row ``i`` is game ``i`` of the batch, in game order."""

    bot_names: tuple[str, ...]  # the names ``lineups`` indexes
    seeds: np.ndarray  # (n,) int64: each game's seed (``derive_seed(seed, "game", i)``)
    lineups: np.ndarray  # (n, players) int8: the bot in each seat, an index into ``bot_names``
    scores: np.ndarray  # (n, players) float64, or int64 when the game scores in whole numbers (Python ints)
    winners: np.ndarray  # (n, players) bool: several True is a tie, none is "everybody lost"
    length: np.ndarray  # (n,) int64
    metrics: Mapping[str, np.ndarray] = field(default_factory=dict)  # name -> (n,) float64; NaN: no value
    events: Mapping[str, np.ndarray] = field(default_factory=dict)  # name -> (n,) int64
    arrays: Mapping[str, np.ndarray] = field(default_factory=dict)  # a game's own: name -> (n, ...) (Outcome.arrays)

    @property
    def games(self) -> int:
        return int(self.length.shape[0])

    @property
    def players(self) -> int:
        return int(self.scores.shape[1]) if self.scores.ndim == 2 else 0

    @classmethod
    def from_records(cls, records: Sequence[GameRecord], players: int,
                     bot_names: Sequence[str] | None = None) -> OutcomeColumns:
        names = tuple(bot_names) if bot_names is not None else tuple(sorted({b for r in records for b in r.bots}))
        code = {name: i for i, name in enumerate(names)}
        n = len(records)
        whole = all(type(s) is int for r in records for s in r.outcome.scores)  # the summary prints them as ints
        scores = np.zeros((n, players), dtype=np.int64 if whole and n else np.float64)
        winners = np.zeros((n, players), dtype=np.bool_)
        lineups = np.zeros((n, players), dtype=np.int8)
        metric_names = sorted({k for r in records for k in r.outcome.metrics})
        event_names = sorted({k for r in records for k in r.outcome.events})
        metrics = {k: np.full(n, np.nan, dtype=np.float64) for k in metric_names}  # NaN: the game had no value
        events = {k: np.zeros(n, dtype=np.int64) for k in event_names}
        arrays = {k: np.array([r.outcome.arrays[k] for r in records])
                  for k in sorted(set.intersection(*(set(r.outcome.arrays) for r in records)))} if records else {}
        for i, record in enumerate(records):
            out = record.outcome
            scores[i, :len(out.scores)] = out.scores
            winners[i, list(out.winners)] = True
            lineups[i, :] = [code[b] for b in record.bots]
            for k, v in out.metrics.items():
                metrics[k][i] = float(v)
            for k, c in out.events.items():
                events[k][i] = int(c)
        return cls(names, np.array([r.seed for r in records], dtype=np.int64), lineups, scores, winners,
                   np.array([r.outcome.length for r in records], dtype=np.int64), metrics, events, arrays)

    def with_bot_names(self, names: Sequence[str]) -> OutcomeColumns:
        """The same games with ``lineups`` indexing ``names`` (which must hold every bot that sat)."""
        names = tuple(names)
        if names == self.bot_names:
            return self
        sat = {self.bot_names[j] for j in np.unique(self.lineups).tolist()} if self.lineups.size else set()
        if not sat <= set(names):
            raise ValueError(f"bots {sorted(sat - set(names))} sat but are not among {list(names)}")
        # a kernel may name every bot it knows; those that did not sit get any code
        code = np.array([names.index(b) if b in names else 0 for b in self.bot_names] or [0], dtype=np.int8)
        return replace(self, bot_names=names, lineups=code[self.lineups] if self.lineups.size else self.lineups)

    def take(self, indices: np.ndarray | Sequence[int]) -> OutcomeColumns:
        """The games at ``indices`` (in that order; an index may repeat: a bootstrap resample)."""
        at = np.asarray(indices, dtype=np.int64)
        return OutcomeColumns(self.bot_names, self.seeds[at], self.lineups[at], self.scores[at], self.winners[at],
                              self.length[at], {k: v[at] for k, v in self.metrics.items()},
                              {k: v[at] for k, v in self.events.items()}, {k: v[at] for k, v in self.arrays.items()})

    @classmethod
    def concat(cls, parts: Sequence[OutcomeColumns]) -> OutcomeColumns:
        """The batches one after the other (they must share players; bot names are made the first batch's,
        extended by any bot it did not have; a metric or event a batch lacks is NaN or 0 there; a game's own array
        is kept when every batch has it)."""
        if not parts:
            raise ValueError("no batches to join")
        names = tuple(dict.fromkeys(b for p in parts for b in p.bot_names))
        parts = [p.with_bot_names(names) for p in parts]
        if len(parts) == 1:  # one batch (a kernel's whole run): its arrays as they are, not copied
            return parts[0]
        first = parts[0]
        if any(p.scores.dtype != first.scores.dtype for p in parts):
            parts = [replace(p, scores=p.scores.astype(np.float64)) for p in parts]
        metric_names = sorted({k for p in parts for k in p.metrics})
        event_names = sorted({k for p in parts for k in p.events})

        def column(part: OutcomeColumns, table: Mapping[str, np.ndarray], key: str, fill: float, dtype: type
                   ) -> np.ndarray:
            # a batch in which a rule never fired may not name it: 0 times; a metric it lacks: NaN (no value)
            return table[key] if key in table else np.full(part.games, fill, dtype=dtype)

        return cls(first.bot_names, np.concatenate([p.seeds for p in parts]),
                   np.concatenate([p.lineups for p in parts]), np.concatenate([p.scores for p in parts]),
                   np.concatenate([p.winners for p in parts]), np.concatenate([p.length for p in parts]),
                   {k: np.concatenate([column(p, p.metrics, k, np.nan, np.float64) for p in parts])
                    for k in metric_names},
                   {k: np.concatenate([column(p, p.events, k, 0, np.int64) for p in parts]) for k in event_names},
                   {k: np.concatenate([p.arrays[k] for p in parts]) for k in sorted(first.arrays)
                    if all(k in p.arrays for p in parts)})

    def records(self) -> list[GameRecord]:
        """The games as the API path's records (scores as the column's type, winners in seat order)."""
        out = []
        for i in range(self.games):
            outcome = Outcome(tuple(self.scores[i].tolist()),
                              tuple(int(s) for s in np.flatnonzero(self.winners[i])), int(self.length[i]),
                              {k: float(v[i]) for k, v in self.metrics.items() if not np.isnan(v[i])},
                              {k: int(v[i]) for k, v in self.events.items()})
            out.append(GameRecord(int(self.seeds[i]), tuple(self.bot_names[j] for j in self.lineups[i]), outcome))
        return out

    def games_csv(self) -> bytes:
        """One line per game (index, seed, the bot in each seat, scores and winning seats counted from 1, length),
        the compact per-game table `boardgen simulate` writes beside results.json. Whole-number scores are
        written without a decimal point, others with 12 significant digits."""
        names = self.bot_names
        scores = self.scores
        n, players = self.games, self.players
        if scores.dtype.kind == "f" and scores.size and np.all(np.isfinite(scores)) and np.all(
                scores == np.round(scores)) and np.abs(scores).max() < 2**53:
            scores = scores.astype(np.int64)
        whole = scores.dtype.kind in "iu"
        # a few line-ups and winner sets repeat: each is written once and looked up by a key per game
        base = max(len(names), 1)
        lineup_keys = (self.lineups.astype(np.int64) * base ** np.arange(players, dtype=np.int64)).sum(axis=1) \
            if players else np.zeros(n, np.int64)
        lineup_text = {int(key): " ".join(names[j] for j in self.lineups[i])
                       for key, i in zip(*np.unique(lineup_keys, return_index=True), strict=True)}
        winner_keys = (self.winners.astype(np.int64) << np.arange(players, dtype=np.int64)).sum(axis=1) \
            if players else np.zeros(n, np.int64)
        winner_text = {int(key): " ".join(str(k + 1) for k in range(players) if int(key) >> k & 1)
                       for key in np.unique(winner_keys).tolist()}
        bots = [lineup_text[k] for k in lineup_keys.tolist()]
        first = [winner_text[k] for k in winner_keys.tolist()]
        lines = ["game,seed,bots,scores,winners,length"]
        if whole:
            row = "%d,%d,%s," + " ".join(["%d"] * players) + ",%s,%d"
            lines += [row % (i, seed, b, *points, w, length) for i, (seed, b, points, w, length) in enumerate(zip(
                self.seeds.tolist(), bots, scores.tolist(), first, self.length.tolist(), strict=True))]
        else:
            lines += [f"{i},{seed},{b},{' '.join(format(x, '.12g') for x in points)},{w},{length}"
                      for i, (seed, b, points, w, length) in enumerate(zip(
                          self.seeds.tolist(), bots, scores.tolist(), first, self.length.tolist(), strict=True))]
        return ("\n".join(lines) + "\n").encode()

    def differences(self, other: OutcomeColumns, limit: int = 5) -> list[str]:
        """Where two batches of the same games differ (empty: every field of every game agrees)."""
        found: list[str] = []
        if self.games != other.games or self.players != other.players:
            return [f"{self.games} games of {self.players} seats against {other.games} of {other.players}"]
        own = [tuple(self.bot_names[j] for j in row) for row in self.lineups]
        theirs = [tuple(other.bot_names[j] for j in row) for row in other.lineups]
        columns: list[tuple[str, np.ndarray, np.ndarray]] = [
            ("seed", self.seeds, other.seeds), ("scores", self.scores, other.scores),
            ("winners", self.winners, other.winners), ("length", self.length, other.length)]
        for kind, mine, yours in (("metric", self.metrics, other.metrics), ("event", self.events, other.events),
                                  ("array", self.arrays, other.arrays)):
            if set(mine) != set(yours):
                found.append(f"{kind}s {sorted(mine)} against {sorted(yours)}")
            columns += [(f"{kind} {k}", mine[k], yours[k]) for k in sorted(set(mine) & set(yours))]
        for i in range(self.games):
            if own[i] != theirs[i]:
                found.append(f"game {i}: bots {own[i]} against {theirs[i]}")
            for name, a, b in columns:
                if not np.array_equal(a[i], b[i], equal_nan=a.dtype.kind == "f" and b.dtype.kind == "f"):
                    found.append(f"game {i}: {name} {a[i].tolist()} against {b[i].tolist()}")
            if len(found) >= limit:
                break
        return found[:limit]

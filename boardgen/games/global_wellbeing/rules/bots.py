"""Players for simulated games. Each reads only the public GameState and draws from its own generator.

- ``random``: a random own piece to a random legal cell, every time.
- ``greedy``: the largest immediate gain: the cell in the zone with the highest index now (plus a badge it
  would complete), and it moves its worst-placed piece only when that gains something.
- ``planner``: values a cell by the index its zone is likely to end with (the index now plus the badges
  held or within two pieces of being won, since every badge lifts the zone for everyone in it), picks a
  badge zone to aim for (index x room left), keeps its group together, never moves a piece that holds or
  nearly holds a badge, and takes cells an opponent needs for a badge where it has little at stake itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from boardgen.games.global_wellbeing.rules.state import GameState


class Bot:
    """What a player decides. Bots read the public ``GameState`` and use their own ``rng``; ``rules.engine``
    asks them at its decision nodes (``FlagshipBot``)."""

    name = "bot"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose_move_piece(self, state: GameState, p: int, must: bool) -> int | None:
        """Which own piece to move this turn, or None to stay (only when ``must`` is False)."""
        raise NotImplementedError

    def choose_cell(self, state: GameState, p: int, purpose: str) -> int:
        """A cell from ``state.destinations(p)`` for a piece (purpose: setup, move, invest)."""
        raise NotImplementedError


BotFactory = Callable[[random.Random], Bot]


class RandomBot(Bot):
    name = "random"

    def choose_move_piece(self, state: GameState, p: int, must: bool) -> int | None:
        items = state.piece_items[p]
        return items[int(self.rng.random() * len(items))]

    def choose_cell(self, state: GameState, p: int, purpose: str) -> int:
        cells = state.destinations(p)
        return cells[int(self.rng.random() * len(cells))]


def _best(cells: list[int], value: list[float], rng: random.Random) -> int:
    """The cell with the highest value; ties broken by the bot's generator (cells compared in order)."""
    best_value = max(value)
    tied = [c for c, v in zip(cells, value, strict=True) if v == best_value]
    return tied[int(rng.random() * len(tied))] if len(tied) > 1 else tied[0]


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, rng: random.Random, threshold: int = 8, badge_values: tuple[int, ...] = ()) -> None:
        super().__init__(rng)
        self.threshold = threshold
        self.badge_values = badge_values

    def cell_gain(self, state: GameState, p: int, c: int) -> float:
        z = state.zone_of[c]
        gain = float(state.index[z])
        if self.badge_values and not state.badges[p][z] and state.zone_count[p][z] + 1 == self.threshold:
            gain += self.badge_values[z] * self.threshold
        return gain

    def zone_gains(self, state: GameState, p: int) -> list[float]:
        """``cell_gain`` of a cell in each zone (the gain depends only on the cell's zone)."""
        gains = list(map(float, state.index))
        if self.badge_values:
            held, need = state.badges[p], self.threshold - 1
            for z, count in enumerate(state.zone_count[p]):
                if count == need and not held[z]:
                    gains[z] += self.badge_values[z] * self.threshold
        return gains

    def choose_move_piece(self, state: GameState, p: int, must: bool) -> int | None:
        pieces = state.piece_items[p]
        index, zone_of = state.index, state.zone_of
        worst = min(index[zone_of[c]] for c in pieces)
        dests = state.destinations(p)
        best = max(index[zone_of[c]] for c in dests) if dests else -1
        if best <= worst and not must:
            return None
        candidates = sorted(c for c in pieces if index[zone_of[c]] == worst)
        # keep pieces that hold a badge at exactly the threshold
        safe = [c for c in candidates if state.zone_count[p][zone_of[c]] != self.threshold]
        pool = safe or candidates
        return pool[int(self.rng.random() * len(pool))]

    def choose_cell(self, state: GameState, p: int, purpose: str) -> int:
        cells = state.destinations(p)
        gains, zone_of = self.zone_gains(state, p), state.zone_of
        return _best(cells, [gains[zone_of[c]] for c in cells], self.rng)


class PlannerBot(Bot):
    name = "planner"

    def __init__(self, rng: random.Random, threshold: int = 8, badge_values: tuple[int, ...] = (),
                 dice: tuple[int, ...] = ()) -> None:
        super().__init__(rng)
        self.threshold = threshold
        self.badge_values = badge_values
        self.dice = dice
        self.target = -1

    def _pick_target(self, state: GameState, p: int) -> int:
        """The zone most worth a badge: expected index x room left, skipping badges already held."""
        free_in_zone = [0] * state.n_zones
        for c in state.free_items:
            free_in_zone[state.zone_of[c]] += 1
        best_z, best_v = -1, -1.0
        for z in range(state.n_zones):
            if state.badges[p][z]:
                continue
            need = self.threshold - state.zone_count[p][z]
            if need > free_in_zone[z]:
                continue
            badge = self.badge_values[z] if self.badge_values else 0
            value = (state.index[z] + badge) * min(free_in_zone[z], 3 * self.threshold) / max(need, 1)
            if value > best_v:
                best_z, best_v = z, value
        return best_z

    def _expected_index(self, state: GameState) -> list[float]:
        """Each zone's index now plus the badges likely to be held at the end (held, or within two pieces)."""
        expected = [float(v) for v in state.index]
        if not self.badge_values:
            return expected
        near = self.threshold - 2
        for q in state.players:
            counts, held = state.zone_count[q], state.badges[q]
            for z in range(state.n_zones):
                if held[z] or counts[z] >= near:
                    expected[z] += self.badge_values[z]
        return expected

    def _score(self, state: GameState, p: int, c: int, expected: list[float]) -> float:
        z = state.zone_of[c]
        value = expected[z]
        if z == self.target:
            value += 1.5
        counts = state.zone_count[p]
        if self.badge_values and not state.badges[p][z] and counts[z] + 1 == self.threshold:
            value += self.badge_values[z] * self.threshold
        value += 0.25 * min(state.adj[p][c], 3)  # keep the group together: more cells to grow into
        # take a cell an opponent needs for a badge in a zone where this player has little at stake
        if counts[z] < self.threshold - 2:
            for q in state.players:
                if q != p and state.adj[q][c] and not state.badges[q][z] and \
                        state.zone_count[q][z] >= self.threshold - 2:
                    value += 1.0
                    break
        return value

    def choose_move_piece(self, state: GameState, p: int, must: bool) -> int | None:
        if self.target < 0 or state.badges[p][self.target]:
            self.target = self._pick_target(state, p)
        pieces = state.piece_items[p]
        zone_of, counts = state.zone_of, state.zone_count[p]
        expected = self._expected_index(state)

        def keep_value(c: int) -> float:
            z = zone_of[c]
            v = expected[z]
            if z == self.target:
                v += 1.5
            if counts[z] <= self.threshold and (state.badges[p][z] or counts[z] >= self.threshold - 2):
                v += 100.0  # a piece that holds or nearly holds a badge stays
            return v

        values = [keep_value(c) for c in pieces]
        worst = min(values)
        dests = state.destinations(p)
        best = max(self._score(state, p, c, expected) for c in dests) if dests else -1.0
        if best <= worst + 0.5 and not must:
            return None
        pool = sorted(c for c, v in zip(pieces, values, strict=True) if v == worst)
        return pool[int(self.rng.random() * len(pool))]

    def choose_cell(self, state: GameState, p: int, purpose: str) -> int:
        if self.target < 0 or state.badges[p][self.target]:
            self.target = self._pick_target(state, p)
        cells = state.destinations(p)
        if not state.piece_items[p] and self.target >= 0:
            # first piece: a free cell of the target zone with the most free target-zone neighbours
            zone_of, owner = state.zone_of, state.owner
            scored = [(sum(1 for n in state.neighbours[c] if owner[n] < 0 and zone_of[n] == self.target), c)
                      for c in cells if zone_of[c] == self.target]
            if scored:
                top = max(s for s, _ in scored)
                tied = sorted(c for s, c in scored if s == top)
                return tied[int(self.rng.random() * len(tied))]
        expected = self._expected_index(state)
        return _best(cells, [self._score(state, p, c, expected) for c in cells], self.rng)


BOT_NAMES: tuple[str, ...] = ("random", "greedy", "planner")


def bot_factory(name: str, threshold: int, badge_values: tuple[int, ...], dice: tuple[int, ...]) -> BotFactory:
    """A callable rng -> Bot for the named bot (badge_values empty when the variant has no badges)."""
    if name == "random":
        return RandomBot
    if name == "greedy":
        return lambda rng: GreedyBot(rng, threshold, badge_values)
    if name == "planner":
        return lambda rng: PlannerBot(rng, threshold, badge_values, dice)
    raise ValueError(f"unknown bot {name!r}; expected one of {', '.join(BOT_NAMES)}")


__all__ = ["BOT_NAMES", "Bot", "BotFactory", "GreedyBot", "PlannerBot", "RandomBot", "bot_factory"]

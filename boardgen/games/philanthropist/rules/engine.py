"""The Philanthropist's rules through boardgen's OpenSpiel-shaped API.

Every random thing is a chance node, so a test can force it: where each meeple is set out (one node per meeple,
uniform over the free squares of the least-filled areas, so the spread is random but even), who starts, the
coloured action die, the white die and each business-card draw (uniform over the cards left in the draw pile,
which is the same as drawing from a shuffled pile; when the pile is empty every card goes back in, a reshuffle).

A turn: chance rolls the action die. Move: chance rolls the white die, then the player picks a square at most
that many king steps away (8 directions, any path, meeples and avatars are passed over freely) and whether to
collect the meeple standing there. Payday: chance rolls the white die and the player takes ``payday_multiplier``
times it. Card: chance draws a card and its effect is applied (never below zero cubes).

Player actions: ``square`` (move there, collect nobody) and ``squares**2 + square`` (move there and collect its
meeple). Squares are numbered row by row from the top left, ``row * squares + column``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardgen.games.philanthropist.schema import Card, PhilanthropistTemplate
from boardgen.layout.spaces import column_name
from boardgen.play.api import CHANCE, TERMINAL, Game, GameInfo, Outcome, State

PLACE, FIRST, ACTION, WHITE_MOVE, WHITE_PAY, DRAW, MOVE, END = range(8)
PHASE_NAMES = ("set out meeples", "pick first player", "roll action die", "roll white die (move)",
               "roll white die (payday)", "draw a card", "move", "game over")
EFFECT_KINDS = ("gain", "lose", "lose half", "lose all")


def effect_kind(card: Card) -> str:
    verb, amount = card.effect.split()
    if verb == "gain":
        return "gain"
    return "lose" if amount.isdigit() else f"lose {amount}"


@dataclass(frozen=True)
class Rules:
    """The template's numbers in the shape the engine reads (plain tuples, fast to copy)."""

    squares: int
    costs: tuple[int, ...]  # per meeple kind
    kind_names: tuple[str, ...]
    place_order: tuple[int, ...]  # kinds of the meeples in the order they are set out
    blocks: int
    faces: tuple[str, ...]  # action die faces 1..6
    start_cubes: int
    move_income: int
    income_when_collecting: bool
    payday_multiplier: int
    avatars_may_share: bool
    stop_on_unpaid_meeple: bool
    tie_break: str
    catch_up: int
    middle_corner: int
    turn_limits: tuple[tuple[int, int], ...]
    random_first: bool
    cards: tuple[Card, ...]
    supply: int

    @classmethod
    def from_template(cls, t: PhilanthropistTemplate, cards: tuple[Card, ...]) -> Rules:
        kinds = t.meeples.kinds
        # the dearest first, so each colour is spread over the whole board
        order = sorted(range(len(kinds)), key=lambda k: (-kinds[k].cost, k))
        place = tuple(k for k in order for _ in range(kinds[k].count))
        r = t.rules
        return cls(t.board.squares, tuple(k.cost for k in kinds), tuple(k.name for k in kinds), place,
                   t.meeples.spread_blocks, tuple(t.action_die.faces), r.start_cubes, r.move_income,
                   r.income_when_collecting, r.payday_multiplier, r.avatars_may_share, r.stop_on_unpaid_meeple,
                   r.tie_break, r.catch_up_cubes, r.middle_corner_cubes, tuple(sorted(r.turn_limit.items())),
                   r.first_player == "random",
                   cards, t.cubes.total)

    def turn_limit(self, players: int) -> int:
        return dict(self.turn_limits)[players]


def corners(squares: int, players: int) -> tuple[int, ...]:
    """Start squares of the seats: top left, top right, bottom right, bottom left; two players sit opposite."""
    n = squares
    all_four = (0, n - 1, n * n - 1, n * (n - 1))
    if players == 2:
        return (all_four[0], all_four[2])
    return all_four[:players]


def seat_corner_index(players: int, seat: int) -> int:
    """Which of the template's four seats (colours, corners) plays ``seat``."""
    return (0, 2)[seat] if players == 2 else seat


class PhilanthropistGame(Game):
    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        n = rules.squares
        self.corners = corners(n, players)
        self.block_of = tuple((r * rules.blocks // n) * rules.blocks + (c * rules.blocks // n)
                              for r in range(n) for c in range(n))
        self.no_meeple = frozenset((0, n - 1, n * n - 1, n * (n - 1)))  # every corner is a start square
        self.info = GameInfo(
            short_name="philanthropist", long_name="The Philanthropist", num_players=players,
            num_distinct_actions=2 * n * n, max_chance_outcomes=max(n * n, len(rules.cards), 7),
            max_game_length=len(rules.place_order) + 2 + rules.turn_limit(players) * players * 3,
            min_utility=0.0, max_utility=1.0, utility="general_sum")

    def new_initial_state(self, seed: int | None = None) -> PhilState:
        return PhilState(self)

    def evaluate(self, state: State, player: int) -> float:
        assert isinstance(state, PhilState)
        if state.phase == END:
            return 1000.0 * state.returns()[player] + state.meeples[player]
        value = 10.0 * state.meeples[player] + 0.02 * state.donated[player] + 1.2 * min(state.cubes[player], 8)
        value += 0.1 * max(0, state.cubes[player] - 8)
        near = state.nearest_meeple_steps(player, affordable=True)
        if near is not None:
            value -= 0.35 * near
        return value


def king_steps(n: int, a: int, b: int) -> int:
    return max(abs(a // n - b // n), abs(a % n - b % n))


class PhilState(State):
    game: PhilanthropistGame

    def __init__(self, game: PhilanthropistGame) -> None:
        super().__init__(game)
        r = game.rules
        p = game.info.num_players
        self.rules = r
        self.n = r.squares
        self.meeple_at = [-1] * (self.n * self.n)
        self.block_fill = [0] * (r.blocks * r.blocks)
        self.placed = 0
        self._free_cache: tuple[int, list[int]] | None = None
        self.pos = list(game.corners)
        self.cubes = [r.start_cubes] * p
        self.meeples = [0] * p
        self.donated = [0] * p
        self.by_kind = [[0] * len(r.costs) for _ in range(p)]
        self.left = len(r.place_order)
        self.pile = [c.quantity for c in r.cards]
        self.first = 0
        self.player = 0
        self.turns = [0] * p
        self.rounds = 0
        self.white = 0
        self.phase = PLACE if r.place_order else FIRST
        self.turn_limit = r.turn_limit(p)
        self.limit_hit = False
        self.peak_cubes = sum(self.cubes)
        self.card_net = [[0] * len(EFFECT_KINDS) for _ in range(p)]
        self.events: dict[str, int] = {"move": 0, "payday": 0, "card": 0, "collect": 0, "income": 0,
                                       "reshuffle": 0, "card-floor": 0, "all-helped": 0}
        if self.phase == FIRST and not r.random_first:
            self._start(0)

    # ------------------------------------------------------------------ copying
    def clone(self) -> PhilState:
        c = object.__new__(PhilState)
        c.__dict__.update(self.__dict__)
        c._history = list(self._history)
        c.meeple_at = list(self.meeple_at)
        c.block_fill = list(self.block_fill)
        c.pos = list(self.pos)
        c.cubes = list(self.cubes)
        c.meeples = list(self.meeples)
        c.donated = list(self.donated)
        c.by_kind = [list(x) for x in self.by_kind]
        c.pile = list(self.pile)
        c.turns = list(self.turns)
        c.card_net = [list(x) for x in self.card_net]
        c.events = dict(self.events)
        return c

    # ------------------------------------------------------------------ whose move
    def current_player(self) -> int:
        if self.phase == END:
            return TERMINAL
        if self.phase == MOVE:
            return self.player
        return CHANCE

    def _free_squares(self) -> list[int]:
        """Empty squares (never a start corner) in the areas holding the fewest meeples so far (computed once
        per meeple: the check in ``apply_action`` asks again)."""
        cached = self._free_cache
        if cached is not None and cached[0] == self.placed:
            return cached[1]
        block_of = self.game.block_of
        free = [s for s in range(self.n * self.n) if self.meeple_at[s] < 0 and s not in self.game.no_meeple]
        low = min(self.block_fill[block_of[s]] for s in free)
        result = [s for s in free if self.block_fill[block_of[s]] == low]
        self._free_cache = (self.placed, result)
        return result

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == PLACE:
            free = self._free_squares()
            return [(s, 1.0 / len(free)) for s in free]
        if self.phase == FIRST:
            p = self.game.info.num_players
            return [(s, 1.0 / p) for s in range(p)]
        if self.phase in (ACTION, WHITE_MOVE, WHITE_PAY):
            return [(f, 1.0 / 6) for f in range(1, 7)]
        if self.phase == DRAW:
            total = sum(self.pile)
            return [(i, q / total) for i, q in enumerate(self.pile) if q]
        return []

    def reachable(self, player: int, steps: int) -> list[int]:
        n = self.n
        here = self.pos[player]
        r0, c0 = divmod(here, n)
        others = set() if self.rules.avatars_may_share else {q for s, q in enumerate(self.pos) if s != player}
        out = []
        for r in range(max(0, r0 - steps), min(n, r0 + steps + 1)):
            base = r * n
            for c in range(max(0, c0 - steps), min(n, c0 + steps + 1)):
                sq = base + c
                if sq in others and sq != here:
                    continue
                out.append(sq)
        return out

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.phase == END:
            return []
        if self.phase != MOVE:
            return [a for a, _ in self.chance_outcomes()]
        if player is not None and player != self.player:
            return []
        nn = self.n * self.n
        moves: list[int] = []
        collects: list[int] = []
        cash = self.cubes[self.player]
        for sq in self.reachable(self.player, self.white):
            kind = self.meeple_at[sq]
            if kind >= 0:
                if self.rules.costs[kind] <= cash:
                    collects.append(nn + sq)
                if not self.rules.stop_on_unpaid_meeple:
                    continue
            moves.append(sq)
        return moves + collects

    # ------------------------------------------------------------------ applying
    def _apply_action(self, action: int) -> None:
        r = self.rules
        phase = self.phase
        if phase == PLACE:
            kind = r.place_order[self.placed]
            self.meeple_at[action] = kind
            self.block_fill[self.game.block_of[action]] += 1
            self.placed += 1
            if self.placed == len(r.place_order):
                self.phase = FIRST
                if not r.random_first:
                    self._start(0)
        elif phase == FIRST:
            self._start(action)
        elif phase == ACTION:
            face = r.faces[action - 1]
            self.events[face] += 1
            self.phase = {"move": WHITE_MOVE, "payday": WHITE_PAY, "card": DRAW}[face]
        elif phase == WHITE_MOVE:
            self.white = action
            self.phase = MOVE
        elif phase == WHITE_PAY:
            self._gain(self.player, r.payday_multiplier * action)
            self._end_turn()
        elif phase == DRAW:
            card = r.cards[action]
            self.pile[action] -= 1
            before = self.cubes[self.player]
            after = card.apply(before)
            if card.kind == "lose" and card.delta_nominal < 0 and before + card.delta_nominal < 0:
                self.events["card-floor"] += 1
            self.card_net[self.player][EFFECT_KINDS.index(effect_kind(card))] += after - before
            self.cubes[self.player] = after
            self.peak_cubes = max(self.peak_cubes, sum(self.cubes))
            if not any(self.pile):
                self.pile = [c.quantity for c in r.cards]
                self.events["reshuffle"] += 1
            self._end_turn()
        elif phase == MOVE:
            nn = self.n * self.n
            seat = self.player
            collect = action >= nn
            sq = action - nn if collect else action
            self.pos[seat] = sq
            if collect:
                kind = self.meeple_at[sq]
                cost = r.costs[kind]
                self.cubes[seat] -= cost
                self.meeples[seat] += 1
                self.donated[seat] += cost
                self.by_kind[seat][kind] += 1
                self.meeple_at[sq] = -1
                self.left -= 1
                self.events["collect"] += 1
            if (not collect or r.income_when_collecting) and r.move_income:
                self._gain(seat, r.move_income)
                self.events["income"] += 1
            self._end_turn()
        else:  # pragma: no cover - terminal
            raise RuntimeError("game over")

    def _start(self, first: int) -> None:
        """``first`` plays first; later players get the catch-up cubes."""
        p = self.game.info.num_players
        self.first = self.player = first
        for k in range(p):
            self.cubes[(first + k) % p] = self.rules.start_cubes + k * self.rules.catch_up
        if p == 3:  # seat 2's corner (top right) lies between the other two
            self.cubes[1] += self.rules.middle_corner
        self.peak_cubes = sum(self.cubes)
        self.phase = ACTION

    def _gain(self, seat: int, cubes: int) -> None:
        self.cubes[seat] += cubes
        self.peak_cubes = max(self.peak_cubes, sum(self.cubes))

    def _end_turn(self) -> None:
        p = self.game.info.num_players
        self.turns[self.player] += 1
        if self.left == 0:
            self.events["all-helped"] += 1  # the seed's own end: every meeple helped
            self.phase = END
            return
        self.player = (self.player + 1) % p
        if self.player == self.first:
            self.rounds += 1
            if self.rounds >= self.turn_limit:
                self.limit_hit = True
                self.phase = END
                return
        self.phase = ACTION

    # ------------------------------------------------------------------ results
    def ranking_key(self, seat: int) -> tuple[int, int]:
        tb = self.rules.tie_break
        second = self.donated[seat] if tb == "donated" else self.cubes[seat] if tb == "cubes" else 0
        return (self.meeples[seat], second)

    def winners(self) -> tuple[int, ...]:
        p = self.game.info.num_players
        best = max(self.ranking_key(s) for s in range(p))
        return tuple(s for s in range(p) if self.ranking_key(s) == best)

    def returns(self) -> list[float]:
        p = self.game.info.num_players
        if self.phase != END:
            return [0.0] * p
        w = self.winners()
        return [1.0 / len(w) if s in w else 0.0 for s in range(p)]

    def nearest_meeple_steps(self, seat: int, affordable: bool = False) -> int | None:
        best = None
        here = self.pos[seat]
        cash = self.cubes[seat]
        for sq, kind in enumerate(self.meeple_at):
            if kind < 0 or (affordable and self.rules.costs[kind] > cash):
                continue
            d = king_steps(self.n, here, sq)
            if best is None or d < best:
                best = d
        return best

    def outcome(self) -> Outcome:
        p = self.game.info.num_players
        winners = self.winners()
        scores = tuple(float(m) for m in self.meeples)
        order = [(self.first + k) % p for k in range(p)]
        metrics: dict[str, float] = {
            "rounds": float(max(self.turns)),
            "turns": float(sum(self.turns)),
            "turn_limit_hit": float(self.limit_hit),
            "meeples_left": float(self.left),
            "peak_cubes_held": float(self.peak_cubes),
            "supply_short": float(self.peak_cubes > self.rules.supply),
            "tie_on_meeples": float(sum(1 for s in range(p) if self.meeples[s] == max(self.meeples)) > 1),
            "winner_margin": float(max(self.meeples) - sorted(self.meeples)[-2]) if p > 1 else 0.0,
        }
        for k in range(p):
            metrics[f"won_turn_position_{k + 1}"] = (1.0 / len(winners)) if order[k] in winners else 0.0
        # a card effect "decided" a game when the winner came out of those cards ahead of the runner-up (gained
        # more, or lost less) by at least what the winning margin was worth (one cheapest meeple per meeple ahead,
        # plus one) AND by more cubes than the winner still held at the end: cubes left over were never needed,
        # so an edge the winner could hand back and still win did not decide anything
        ranked = sorted(range(p), key=lambda s: self.ranking_key(s), reverse=True)
        metrics["winner_cubes_left"] = float(self.cubes[ranked[0]])
        for i, name in enumerate(EFFECT_KINDS):
            key = f"decided_by_card_{name.replace(' ', '_')}"
            metrics[key] = 0.0
            if len(winners) == 1 and p > 1:
                w, runner_up = ranked[0], ranked[1]
                need = (int(metrics["winner_margin"]) + 1) * min(self.rules.costs)
                edge = self.card_net[w][i] - self.card_net[runner_up][i]
                metrics[key] = float(edge >= need and edge > self.cubes[w])
        return Outcome(scores, winners, max(self.turns), metrics, dict(self.events))

    def observation(self, player: int) -> dict[str, Any]:
        return {"phase": PHASE_NAMES[self.phase], "to_move": self.player, "round": self.rounds + 1,
                "white_die": self.white, "avatars": list(self.pos), "cubes": list(self.cubes),
                "meeples": list(self.meeples), "meeples_left": self.left,
                "board": "".join("." if k < 0 else str(k) for k in self.meeple_at),
                "cards_in_pile": sum(self.pile)}

    def square_name(self, sq: int) -> str:
        """The square's id on the printed board (the shared grid's "A1" naming)."""
        row, col = divmod(sq, self.n)
        return f"{column_name(col)}{row + 1}"

    def action_to_string(self, player: int, action: int) -> str:
        """The action read at this node; a value no action of this node has is named as such (never a
        look-up error: ``apply_action`` describes illegal actions with this)."""
        nn = self.n * self.n
        if player == CHANCE or self.phase != MOVE:
            if self.phase == PLACE:
                placing = self.rules.kind_names[self.rules.place_order[self.placed]]
                if not 0 <= action < nn:
                    return f"square {action} (the board has squares 0-{nn - 1})"
                return f"set a {placing} meeple on {self.square_name(action)}"
            if self.phase == FIRST:
                return f"seat {action + 1} starts"
            if self.phase == ACTION:
                if not 1 <= action <= len(self.rules.faces):
                    return f"action die {action} (its faces are 1-{len(self.rules.faces)})"
                return f"action die {action}: {self.rules.faces[action - 1]}"
            if self.phase in (WHITE_MOVE, WHITE_PAY):
                if not 1 <= action <= 6:
                    return f"white die {action} (its faces are 1-6)"
                return f"white die {action}"
            if self.phase == DRAW:
                if not 0 <= action < len(self.rules.cards):
                    return f"card row {action} (the deck has rows 0-{len(self.rules.cards) - 1})"
                card = self.rules.cards[action]
                return f"card {card.title!r} ({card.effect})"
            return str(action)
        if not 0 <= action < 2 * nn:
            return f"move {action} (moves are 0-{2 * nn - 1})"
        if action >= nn:
            sq = action - nn
            kind = self.meeple_at[sq]
            if kind < 0:
                return f"move to {self.square_name(sq)} and collect a meeple (no meeple stands there)"
            return f"move to {self.square_name(sq)} and collect the {self.rules.kind_names[kind]} meeple"
        return f"move to {self.square_name(action)}"

"""The Global Wellbeing Game's rules as a state machine through the rules API (``boardgen.play.api``): one node
per decision and per die. It is the rules' reference in Python; the compiled kernel (``rules.kernel``, driven by
``rules.fast``) plays the same games for the same seeds, field for field
(tests/games/global_wellbeing/test_global_wellbeing_kernel.py).

- setup: one node per placement (seat order, ``setup_rounds`` rounds);
- each seat's turn: step (a) pick a piece to move or stay, then its destination; (b) harvest (automatic);
  (c) one node per investment; then badges (automatic);
- the end of a turn: one chance node per zone die for stewardship (zone order), one for the tipping point
  (in the template's ``end_of_turn_order``);
- the end: final index with badges, scores, winners.

The game's own bots (``rules.bots``: random, greedy, planner) answer the questions a decision node asks (which
piece to move, which cell), each from its own generator; ``play_game`` plays one whole game with such bots, the
dice drawn from ``random.Random(seed)`` (as ``FastPath.game_seeds`` seeds the simulated games).

Actions are integers: ``c`` puts a piece on cell ``c`` (setup, move destination, investment), ``n + c``
picks the piece on cell ``c`` to move, ``2n`` stays (``n`` cells). A chance outcome ``k`` is the face ``k + 1``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from operator import mul
from typing import Any

from boardgen.games.global_wellbeing.rules.board import RulesBoard, ZoneRules
from boardgen.games.global_wellbeing.rules.bots import BOT_NAMES, bot_factory
from boardgen.games.global_wellbeing.rules.bots import Bot as RulesBot
from boardgen.games.global_wellbeing.rules.state import GameState
from boardgen.games.global_wellbeing.schema import RulesConfig
from boardgen.play.api import CHANCE, TERMINAL, Game, GameInfo, IllegalActionError, Outcome, State, sample_chance
from boardgen.play.bots import GENERIC_BOTS, Bot, BotFactory
from boardgen.play.simulate import derive_seed

# Every event the rules count: "every rule fires" in validation reads these.
EVENTS: tuple[str, ...] = (
    "setup_first",  # a player's first setup piece (anywhere)
    "setup_adjacent",  # a setup piece next to an own piece
    "setup_anywhere",  # adjacency fallback in setup: no free cell next to own pieces
    "move",  # a piece moved next to own pieces
    "move_anywhere",  # adjacency fallback on a move
    "move_pass",  # a player left all pieces where they were (a piece can never "move" onto its own cell)
    "harvest",  # a harvest that paid at least one chip
    "harvest_zero",  # a harvest below the divisor (rounded down to nothing)
    "harvest_short",  # the bank could not pay the whole harvest (an empty bank pays nothing: not a "harvest")
    "invest",  # a new piece bought next to own pieces
    "invest_anywhere",  # adjacency fallback on an investment
    "no_chips",  # a player with no chips at step (c)
    "out_of_pieces",  # chips in hand but every printed piece is on the board
    "out_of_cells",  # chips and pieces in hand but no free cell left
    "stewardship_up",
    "stewardship_down",
    "stewardship_same",
    "stewardship_blocked",  # the roll asked for a step beyond a bound
    "tipping_up",
    "tipping_down",
    "tipping_same",
    "tipping_blocked",  # a zone already at its bound when the tipping point moved the others
    "badge_won",
    "badge_lost",
    "badge_past_max",  # a final index pushed beyond its die by badges
    "tie",  # the game ended in a tie for first place
)
EV = {name: i for i, name in enumerate(EVENTS)}
_SETUP_FIRST, _SETUP_ADJ, _SETUP_ANY = EV["setup_first"], EV["setup_adjacent"], EV["setup_anywhere"]
_MOVE, _MOVE_ANY, _MOVE_PASS = EV["move"], EV["move_anywhere"], EV["move_pass"]
_HARVEST, _HARVEST_ZERO, _HARVEST_SHORT = EV["harvest"], EV["harvest_zero"], EV["harvest_short"]
_INVEST, _INVEST_ANY, _NO_CHIPS = EV["invest"], EV["invest_anywhere"], EV["no_chips"]
_OUT_PIECES, _OUT_CELLS = EV["out_of_pieces"], EV["out_of_cells"]
_ST_UP, _ST_DOWN, _ST_SAME = EV["stewardship_up"], EV["stewardship_down"], EV["stewardship_same"]
_ST_BLOCKED = EV["stewardship_blocked"]
_TIP_UP, _TIP_DOWN, _TIP_SAME = EV["tipping_up"], EV["tipping_down"], EV["tipping_same"]
_TIP_BLOCKED = EV["tipping_blocked"]


@dataclass(frozen=True)
class GameResult:
    seed: int
    bots: tuple[str, ...]  # per seat
    scores: tuple[int, ...]  # per seat
    winners: tuple[int, ...]  # seats with the top score (more than one: a tie)
    pieces: tuple[int, ...]  # pieces on the board at the end, per seat
    chips: tuple[int, ...]  # chips left at the end (count nothing), per seat
    final_index: tuple[int, ...]  # per zone, after badges
    end_index: tuple[int, ...]  # per zone, before badges
    badges: tuple[tuple[int, ...], ...]  # per seat, per zone: 1 when held at the end
    trajectory: tuple[tuple[int, ...], ...]  # index per zone at the start and after every turn
    leaders: tuple[int, ...]  # after setup and every turn: bit p set when seat p would win if the game ended then
    events: tuple[int, ...]  # counts, in EVENTS order
    ran_out: tuple[int, ...]  # per seat: 1 ran out of pieces, 2 of cells, 3 both, 0 neither
    occupied: tuple[int, ...]  # per cell: 1 when occupied at the end
    contested: tuple[int, ...]  # per cell: 1 when pieces of two or more players stood on it



# ---------------------------------------------------------------------------------------------- the rules' steps

def check_badges(state: GameState, p: int, threshold: int, can_be_lost: bool, events: list[int]) -> None:
    counts, held = state.zone_count[p], state.badges[p]
    for z in range(state.n_zones):
        if not held[z]:
            if counts[z] >= threshold:
                held[z] = True
                events[EV["badge_won"]] += 1
        elif can_be_lost and counts[z] < threshold:
            held[z] = False
            events[EV["badge_lost"]] += 1


def steward_roll(index: list[int], z: int, roll: int, die: int, minimum: int, events: list[int]) -> None:
    """One zone's stewardship roll: above the index +1, below -1, equal no change; bounds hold."""
    value = index[z]
    if roll > value:
        if value < die:
            index[z] = value + 1
            events[_ST_UP] += 1
        else:
            events[_ST_BLOCKED] += 1
    elif roll < value:
        if value > minimum:
            index[z] = value - 1
            events[_ST_DOWN] += 1
        else:
            events[_ST_BLOCKED] += 1
    else:
        events[_ST_SAME] += 1


def tipping_apply(index: list[int], dice: Sequence[int], minima: Sequence[int], roll: int,
                  events: list[int]) -> None:
    """The tipping-point roll against the sum of the indices: above it every zone +1, below -1, bounds hold."""
    total = sum(index)
    if roll == total:
        events[_TIP_SAME] += 1
        return
    step = 1 if roll > total else -1
    events[_TIP_UP if step > 0 else _TIP_DOWN] += 1
    for z in range(len(index)):
        value = index[z] + step
        if minima[z] <= value <= dice[z]:
            index[z] = value
        else:
            events[_TIP_BLOCKED] += 1


def harvest(state: GameState, p: int, divisor: int, capped: bool, events: list[int]) -> None:
    """Step (b): the player's harvest total over the divisor, rounded down, paid from the bank."""
    due = state.harvest_total(p) // divisor
    if due > 0:
        if capped and due > state.bank:
            events[_HARVEST_SHORT] += 1
            due = state.bank
        state.chips[p] += due
        if capped:
            state.bank -= due
        if due > 0:  # an empty bank paid nothing: no harvest took place
            events[_HARVEST] += 1
    else:
        events[_HARVEST_ZERO] += 1


def final_scores(state: GameState, zones: Sequence[ZoneRules], complex_game: bool, events: list[int]
                 ) -> tuple[list[int], tuple[int, ...], tuple[int, ...]]:
    """The end of the game: each zone's final index (badges lift it in the complex game), the scores (pieces
    per zone x final index) and the winners (every seat with the top score; more than one is a tie)."""
    n_players = state.n_players
    final = list(state.index)
    if complex_game:
        for z, zone in enumerate(zones):
            holders = sum(1 for p in range(n_players) if state.badges[p][z])
            final[z] += holders * zone.badge_value
            if final[z] > zone.die:
                events[EV["badge_past_max"]] += 1
    scores = tuple(sum(state.zone_count[p][z] * final[z] for z in range(state.n_zones)) for p in range(n_players))
    best = max(scores)
    winners = tuple(p for p in range(n_players) if scores[p] == best)
    if len(winners) > 1:
        events[EV["tie"]] += 1
    return final, scores, winners


def leaders_mask(state: GameState, badge_values: Sequence[int]) -> int:
    """Bit mask of the seats that would win if the game were scored now (badges held counted)."""
    final = list(state.index)
    for z, value in enumerate(badge_values):
        if value:
            final[z] += value * sum(1 for held in state.badges if held[z])
    scores = [sum(map(mul, counts, final)) for counts in state.zone_count]
    best = max(scores)
    mask = 0
    for p, score in enumerate(scores):
        if score == best:
            mask |= 1 << p
    return mask


def outcome_metrics(pieces: Sequence[int], chips: Sequence[int], final: Sequence[int], end: Sequence[int],
                    badges_held: int, scores: Sequence[int]) -> dict[str, float]:
    """The means the generic report prints for a game (per seat, or sums over the zones)."""
    players = len(pieces)
    return {"chips_left": sum(chips) / players, "pieces_on_board": sum(pieces) / players,
            "final_index_sum": float(sum(final)), "end_index_sum": float(sum(end)),
            "badges_held": float(badges_held), "winning_score": float(max(scores))}


# decision and chance nodes (what ``current_player`` is asked for)
SETUP, PICK, DEST, INVEST, ROLL, DONE = range(6)
NODE_NAMES = ("setup placement", "move: pick a piece or stay", "move: destination", "investment",
              "die roll", "game over")
# where the automatic part of the machine is (between nodes)
_S_SETUP, _S_TURN, _S_SEAT, _S_ECON, _S_INVEST, _S_SEAT_END, _S_ROLLS = range(7)
TIPPING = -1  # in the roll schedule: the tipping-point die (zone dice are their zone numbers)



class WellbeingGame(Game):
    """The game on one board with one template's rules and a number of players."""

    def __init__(self, board: RulesBoard, rules: RulesConfig, players: int) -> None:
        if not 1 <= players <= 6:
            raise ValueError("a game needs 1 to 6 players")
        self.board = board
        self.rules = rules
        self.players = players
        self.n_cells = n = board.n_cells
        self.stay = 2 * n
        self.complex_game = rules.variant == "complex"
        self.economy = self.complex_game or rules.simple_harvest
        self.dice = tuple(z.die for z in board.zones)
        self.minima = tuple(z.minimum_index for z in board.zones)
        self.badge_values = (tuple(z.badge_value for z in board.zones) if self.complex_game
                             else (0,) * len(board.zones))
        steward_turns = rules.turns // rules.stewardship_every
        tipping_turns = rules.turns // rules.tipping_point_every
        decisions = players * (rules.setup_rounds + rules.turns * (2 + max(0, rules.investments_per_turn)))
        self.info = GameInfo(
            short_name="global_wellbeing",
            long_name="The Global Wellbeing Game",
            num_players=players,
            num_distinct_actions=2 * n + 1,
            max_chance_outcomes=max((*self.dice, rules.tipping_point_die)),
            max_game_length=decisions + steward_turns * len(board.zones) + tipping_turns,
            min_utility=0.0,
            max_utility=1.0,
            utility="general_sum",  # winners share 1 (a tie splits it), everybody else 0
        )

    def new_initial_state(self, seed: int | None = None) -> WellbeingState:
        return WellbeingState(self)

    def evaluate(self, state: State, player: int) -> float:
        """The seat's score if the game ended now (badges held counted) minus the best other seat's, plus a
        little for chips (they buy pieces): what a one-ply greedy bot maximises."""
        assert isinstance(state, WellbeingState)
        scores = state.scores if state.is_terminal() else state.scores_now()
        others = max((s for q, s in enumerate(scores) if q != player), default=0)
        return scores[player] - others + 0.5 * state.gs.chips[player]


class WellbeingState(State):
    """One node of a game. ``gs`` is the public ``GameState`` (bots read it directly)."""

    game: WellbeingGame

    def __init__(self, game: WellbeingGame, _empty: bool = False) -> None:
        super().__init__(game)
        if _empty:
            return
        rules = game.rules
        players = game.players
        start_chips = rules.starting_chips if game.complex_game else 0
        supply = rules.pieces_per_player if game.economy else rules.setup_rounds
        bank = max(0, rules.bank_chips - players * start_chips)
        self.gs = GameState(game.board, players, start_chips, supply, bank)
        self.events = [0] * len(EVENTS)
        self.ran_out = [0] * players
        self.trajectory: list[tuple[int, ...]] = []
        self.leaders: list[int] = []
        self.node = SETUP
        self.player = 0
        self.stage = _S_SETUP
        self.round = 0  # setup round
        self.seat = 0  # setup: seat; turns: position k in the turn's seat order
        self.first_seat = 0
        self.invest_left = 0
        self.pending = -1  # the cell of the piece being moved (lifted already when moves go next to others)
        self.rolls: tuple[int, ...] = ()
        self.roll_i = 0
        self.end_index: tuple[int, ...] = ()
        self.final: tuple[int, ...] = ()
        self.scores: tuple[int, ...] = ()
        self.winners: tuple[int, ...] = ()
        self._advance()

    # ------------------------------------------------------------------ the machine
    def _advance(self) -> None:
        """Run the automatic steps until the next decision, die roll or the end."""
        game, rules, gs, events = self.game, self.game.rules, self.gs, self.events
        players = game.players
        while True:
            stage = self.stage
            if stage == _S_SETUP:
                if self.round >= rules.setup_rounds:
                    self.trajectory.append(tuple(gs.index))
                    self.leaders.append(leaders_mask(gs, game.badge_values))
                    self.stage = _S_TURN
                    continue
                p = self.seat
                if game.complex_game and gs.chips[p] <= 0:
                    events[_NO_CHIPS] += 1
                elif gs.supply[p] <= 0:
                    self.ran_out[p] |= 1
                    events[_OUT_PIECES] += 1
                elif not gs.free_items:
                    self.ran_out[p] |= 2
                    events[_OUT_CELLS] += 1
                else:
                    self.node, self.player = SETUP, p
                    return
                self._next_setup_seat()
            elif stage == _S_TURN:
                if gs.turn >= rules.turns:
                    self._finish()
                    return
                gs.turn += 1
                self.first_seat = (gs.turn - 1) % players if rules.first_player_rotates else 0
                self.seat = 0
                self.stage = _S_SEAT
            elif stage == _S_SEAT:
                if self.seat >= players:
                    self._schedule_rolls()
                    self.stage = _S_ROLLS
                    continue
                p = self.player = (self.first_seat + self.seat) % players
                if gs.piece_items[p] and (gs.free_items or rules.move_next_to_other_pieces):
                    self.node = PICK
                    return
                events[_MOVE_PASS] += 1
                self.stage = _S_ECON
            elif stage == _S_ECON:
                if game.economy:
                    harvest(gs, self.player, rules.harvest_divisor, rules.harvest_capped_by_bank, events)
                    self.invest_left = rules.investments_per_turn
                    self.stage = _S_INVEST
                else:
                    self.stage = _S_SEAT_END
            elif stage == _S_INVEST:
                p = self.player
                self.stage = _S_SEAT_END
                if self.invest_left <= 0:
                    continue
                if gs.chips[p] <= 0:
                    events[_NO_CHIPS] += 1
                elif rules.pieces_limited and gs.supply[p] <= 0:
                    self.ran_out[p] |= 1
                    events[_OUT_PIECES] += 1
                elif not gs.free_items:
                    self.ran_out[p] |= 2
                    events[_OUT_CELLS] += 1
                else:
                    self.stage = _S_INVEST
                    self.node = INVEST
                    return
            elif stage == _S_SEAT_END:
                if game.complex_game:
                    check_badges(gs, self.player, rules.badge_threshold, rules.badges_can_be_lost, events)
                self.seat += 1
                self.stage = _S_SEAT
            else:  # _S_ROLLS
                if self.roll_i < len(self.rolls):
                    self.node = ROLL
                    return
                self.trajectory.append(tuple(gs.index))
                self.leaders.append(leaders_mask(gs, game.badge_values))
                self.stage = _S_TURN

    def _next_setup_seat(self) -> None:
        self.seat += 1
        if self.seat >= self.game.players:
            self.seat = 0
            self.round += 1

    def _schedule_rolls(self) -> None:
        rules, turn = self.game.rules, self.gs.turn
        steward = turn % rules.stewardship_every == 0
        tipping = turn % rules.tipping_point_every == 0
        zones = tuple(range(len(self.game.dice))) if steward else ()
        first = rules.end_of_turn_order == "stewardship-first"
        self.rolls = (*(zones if first else ()), *((TIPPING,) if tipping else ()), *(() if first else zones))
        self.roll_i = 0

    def _finish(self) -> None:
        gs = self.gs
        self.end_index = tuple(gs.index)
        final, self.scores, self.winners = final_scores(gs, self.game.board.zones, self.game.complex_game,
                                                        self.events)
        self.final = tuple(final)
        self.node = DONE

    def _roll_die(self) -> int:
        kind = self.rolls[self.roll_i]
        return self.game.rules.tipping_point_die if kind == TIPPING else self.game.dice[kind]

    # ------------------------------------------------------------------ the API
    def current_player(self) -> int:
        node = self.node
        if node == DONE:
            return TERMINAL
        if node == ROLL:
            return CHANCE
        return self.player

    def legal_actions(self, player: int | None = None) -> list[int]:
        node = self.node
        if node == DONE:
            return []
        if node == ROLL:
            return [] if player is not None and player != CHANCE else list(range(self._roll_die()))
        p = self.player
        if player is not None and player != p:
            return []
        gs = self.gs
        if node == PICK:
            n = self.game.n_cells
            actions = sorted(n + c for c in gs.piece_items[p])
            if self.game.rules.move_optional:
                actions.append(self.game.stay)
            return actions
        return sorted(gs.destinations(p))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.node != ROLL:
            return []
        die = self._roll_die()
        return [(k, 1.0 / die) for k in range(die)]

    def is_legal(self, action: int) -> bool:
        node, gs, p = self.node, self.gs, self.player
        if node in (SETUP, INVEST, DEST):
            return 0 <= action < self.game.n_cells and gs.is_legal_destination(p, action)
        if node == PICK:
            if action == self.game.stay:
                return self.game.rules.move_optional
            c = action - self.game.n_cells
            return 0 <= c < self.game.n_cells and gs.owner[c] == p
        if node == ROLL:
            return 0 <= action < self._roll_die()
        return False

    def apply_action(self, action: int) -> None:
        """As ``State.apply_action``, with a direct legality check instead of a list of every legal action."""
        if self.node == DONE:
            raise IllegalActionError("the game is over")
        if not self.is_legal(action):
            raise IllegalActionError(f"action {action} ({self.action_to_string(self.current_player(), action)}) "
                                     f"is not legal at this {NODE_NAMES[self.node]} node")
        self._history.append(action)
        self._apply_action(action)

    def _apply_action(self, action: int) -> None:
        game, gs, events, node = self.game, self.gs, self.events, self.node
        p = self.player
        if node == SETUP:
            first = not gs.piece_items[p]
            adjacent = bool(gs.front_items[p])
            gs.place(p, action)
            events[_SETUP_FIRST if first else (_SETUP_ADJ if adjacent else _SETUP_ANY)] += 1
            gs.supply[p] -= 1
            if game.complex_game:
                gs.chips[p] -= 1
                gs.bank += 1
                check_badges(gs, p, game.rules.badge_threshold, game.rules.badges_can_be_lost, events)
            self._next_setup_seat()
        elif node == PICK:
            if action == game.stay:
                events[_MOVE_PASS] += 1
                self.stage = _S_ECON
            else:
                src = action - game.n_cells
                self.pending = src
                if game.rules.move_next_to_other_pieces:
                    gs.lift(p, src)
                    gs.moving_from = src  # a piece never "moves" onto its own cell
                    if not gs.destinations(p):  # nowhere else to go: it stays, a pass
                        gs.moving_from = -1
                        gs.place(p, src)
                        self.pending = -1
                        events[_MOVE_PASS] += 1
                        self.stage = _S_ECON
                        self._advance()
                        return
                self.node = DEST
                return  # the destination is the same seat's next decision
        elif node == DEST:
            adjacent = bool(gs.front_items[p])
            if not game.rules.move_next_to_other_pieces:
                gs.lift(p, self.pending)
            gs.place(p, action)
            gs.moving_from = -1
            self.pending = -1
            events[_MOVE if adjacent else _MOVE_ANY] += 1
            self.stage = _S_ECON
        elif node == INVEST:
            adjacent = bool(gs.front_items[p])
            gs.place(p, action)
            events[_INVEST if adjacent else _INVEST_ANY] += 1
            gs.chips[p] -= 1
            gs.bank += 1
            if gs.supply[p] > 0:  # (unlimited pieces: proxies once the printed ones are out)
                gs.supply[p] -= 1
            self.invest_left -= 1
            self.stage = _S_INVEST
        elif node == ROLL:
            kind, roll = self.rolls[self.roll_i], action + 1
            if kind == TIPPING:
                tipping_apply(gs.index, game.dice, game.minima, roll, events)
            else:
                steward_roll(gs.index, kind, roll, game.dice[kind], game.minima[kind], events)
            self.roll_i += 1
        self._advance()

    # ------------------------------------------------------------------ results and views
    def scores_now(self) -> tuple[int, ...]:
        """Each seat's score if the game ended now (the final index with the badges held so far); a piece
        lifted to be moved still counts where it stood."""
        gs = self.gs
        final = list(gs.index)
        for z, value in enumerate(self.game.badge_values):
            if value:
                final[z] += value * sum(1 for held in gs.badges if held[z])
        scores = [sum(c * f for c, f in zip(counts, final, strict=True)) for counts in gs.zone_count]
        if self.pending >= 0 and gs.owner[self.pending] != self.player:
            scores[self.player] += final[gs.zone_of[self.pending]]
        return tuple(scores)

    def returns(self) -> list[float]:
        if self.node != DONE:
            return [0.0] * self.game.players
        share = 1.0 / len(self.winners)
        return [share if p in self.winners else 0.0 for p in range(self.game.players)]

    def outcome(self) -> Outcome:
        """Scores, winners and the rule counts, a few means for the generic report, and the game's own arrays
        (``OUTCOME_ARRAYS``) its report reads: the same fields the kernel returns for the same game."""
        if self.node != DONE:
            raise IllegalActionError("the game is not over")
        gs, players = self.gs, self.game.players
        pieces = tuple(len(x) for x in gs.piece_items)
        return Outcome(
            scores=self.scores,
            winners=self.winners,
            length=self.game.rules.turns,
            metrics=outcome_metrics(pieces, gs.chips, self.final, self.end_index, sum(sum(b) for b in gs.badges),
                                    self.scores),
            events=dict(zip(EVENTS, self.events, strict=True)),
            arrays={
                "pieces": pieces,
                "chips": tuple(gs.chips),
                "final_index": self.final,
                "end_index": self.end_index,
                "badges": tuple(tuple(int(b) for b in gs.badges[p]) for p in range(players)),
                "trajectory": tuple(self.trajectory),
                "leaders": tuple(self.leaders),
                "ran_out": tuple(self.ran_out),
                "cells": tuple((1 if o >= 0 else 0) | (2 if h & (h - 1) else 0)
                               for o, h in zip(gs.owner, gs.holders, strict=True)),
            },
        )

    def result(self, seed: int, names: Sequence[str]) -> GameResult:
        """The finished game as one ``GameResult`` record (for scripted games and tests)."""
        if self.node != DONE:
            raise IllegalActionError("the game is not over")
        gs, players = self.gs, self.game.players
        return GameResult(
            seed=seed,
            bots=tuple(names),
            scores=self.scores,
            winners=self.winners,
            pieces=tuple(len(gs.piece_items[p]) for p in range(players)),
            chips=tuple(gs.chips),
            final_index=self.final,
            end_index=self.end_index,
            badges=tuple(tuple(int(b) for b in gs.badges[p]) for p in range(players)),
            trajectory=tuple(self.trajectory),
            leaders=tuple(self.leaders),
            events=tuple(self.events),
            ran_out=tuple(self.ran_out),
            occupied=tuple(1 if o >= 0 else 0 for o in gs.owner),
            contested=tuple(1 if (h & (h - 1)) else 0 for h in gs.holders),
        )

    def observation(self, player: int) -> dict[str, Any]:
        """Everything is public in this game: the same view for every seat."""
        gs, board = self.gs, self.game.board
        labels, names = board.labels, board.zone_names
        view: dict[str, Any] = {
            "turn": gs.turn,
            "node": NODE_NAMES[self.node],
            "to_move": self.current_player(),
            "index": dict(zip(names, gs.index, strict=True)),
            "chips": list(gs.chips),
            "bank": gs.bank,
            "unplayed_pieces": list(gs.supply),
            "badges": [[names[z] for z, held in enumerate(b) if held] for b in gs.badges],
            "pieces": [sorted(labels[c] for c in items) for items in gs.piece_items],
        }
        if self.pending >= 0:
            view["moving_from"] = labels[self.pending]
        if self.node == ROLL:
            kind = self.rolls[self.roll_i]
            view["rolling"] = "tipping point" if kind == TIPPING else f"stewardship {names[kind]}"
        if self.node == DONE:
            view["scores"] = list(self.scores)
            view["winners"] = list(self.winners)
        return view

    def observation_tensor(self, player: int) -> list[float]:
        """A fixed-length numeric view (for OpenSpiel and learning code): per cell the owner one-hot and the
        piece being moved, per zone the index over its die, per seat chips, unplayed pieces and badges, the
        turn, the node kind and the seat to move."""
        game, gs = self.game, self.gs
        n, players, zones = game.n_cells, game.players, len(game.dice)
        out = [0.0] * (n * (players + 1) + zones + players * (2 + zones) + 2 + 6 + players)
        for c, owner in enumerate(gs.owner):
            if owner >= 0:
                out[owner * n + c] = 1.0
        if self.pending >= 0:
            out[players * n + self.pending] = 1.0
        i = n * (players + 1)
        for z in range(zones):
            out[i + z] = gs.index[z] / game.dice[z]
        i += zones
        chips_scale = max(1, game.rules.bank_chips)
        for p in range(players):
            out[i] = gs.chips[p] / chips_scale
            out[i + 1] = gs.supply[p] / max(1, game.rules.pieces_per_player)
            for z in range(zones):
                out[i + 2 + z] = 1.0 if gs.badges[p][z] else 0.0
            i += 2 + zones
        out[i] = gs.turn / max(1, game.rules.turns)
        out[i + 1] = gs.bank / chips_scale
        i += 2
        out[i + self.node] = 1.0
        i += 6
        if 0 <= self.current_player() < players:
            out[i + self.current_player()] = 1.0
        return out

    def action_to_string(self, player: int, action: int) -> str:
        game = self.game
        labels = game.board.labels
        n = game.n_cells
        if player == CHANCE:
            if self.node == ROLL:
                kind = self.rolls[self.roll_i]
                zone = "tipping point" if kind == TIPPING else game.board.zone_names[kind]
                return f"roll {action + 1} ({zone}, d{self._roll_die()})"
            return f"roll {action + 1}"
        if action == game.stay:
            return "stay (move no piece)"
        if n <= action < 2 * n:
            return f"move the piece on {labels[action - n]}"
        if 0 <= action < n:
            verb = {SETUP: "place", DEST: "move it to", INVEST: "invest in"}.get(self.node, "place on")
            return f"{verb} {labels[action]}"
        return f"action {action}"

    def clone(self) -> WellbeingState:
        new = WellbeingState(self.game, _empty=True)
        new._history = self._history[:]
        new.gs = self.gs.copy()
        new.events = self.events[:]
        new.ran_out = self.ran_out[:]
        new.trajectory = self.trajectory[:]
        new.leaders = self.leaders[:]
        for name in ("node", "player", "stage", "round", "seat", "first_seat", "invest_left", "pending", "rolls",
                     "roll_i", "end_index", "final", "scores", "winners"):
            setattr(new, name, getattr(self, name))
        return new


# ---------------------------------------------------------------------------------------------- bots

class FlagshipBot(Bot):
    """A bot of ``rules.bots`` (random, greedy, planner, or any ``rules.bots.Bot``) playing through the API: at a
    pick node it is asked which piece to move (or None to stay), at a setup, destination or investment node which
    cell."""

    def __init__(self, game: Game, seat: int, rng: random.Random, kind: str, inner: RulesBot | None = None) -> None:
        super().__init__(game, seat, rng)
        assert isinstance(game, WellbeingGame)
        rules, board = game.rules, game.board
        if inner is None:
            badge_values = tuple(z.badge_value for z in board.zones) if game.complex_game else ()
            inner = bot_factory(kind, rules.badge_threshold, badge_values, game.dice)(rng)
        self.inner: RulesBot = inner
        self.name = kind
        self._must = not rules.move_optional
        self._offset = game.n_cells
        self._stay = game.stay

    def step(self, state: State) -> int:
        assert isinstance(state, WellbeingState)
        node, gs, p = state.node, state.gs, self.seat
        if node == PICK:
            src = self.inner.choose_move_piece(gs, p, self._must)
            return self._stay if src is None else self._offset + src
        purpose = "setup" if node == SETUP else ("move" if node == DEST else "invest")
        return self.inner.choose_cell(gs, p, purpose)


def _flagship_factory(kind: str) -> BotFactory:
    def make(game: Game, seat: int, rng: random.Random) -> Bot:
        return FlagshipBot(game, seat, rng, kind)

    make.__name__ = f"flagship_{kind}"
    return make


def api_bots() -> Mapping[str, BotFactory]:
    """The bots ``boardgen simulate --bots`` knows for this game: the flagship's own random, greedy and planner
    (same choices as on the fast path), and the generic ones (``mcts``; the generic random and one-ply greedy
    on ``WellbeingGame.evaluate`` as ``random-generic`` and ``greedy-generic``)."""
    bots: dict[str, BotFactory] = {f"{name}-generic": factory for name, factory in GENERIC_BOTS.items()
                                   if name in BOT_NAMES}
    bots.update({name: factory for name, factory in GENERIC_BOTS.items() if name not in BOT_NAMES})
    bots.update({name: _flagship_factory(name) for name in BOT_NAMES})
    return bots


# ---------------------------------------------------------------------------------------------- one game


def play_game(board: RulesBoard, rules: RulesConfig, bots: Sequence[Callable[[random.Random], RulesBot] | RulesBot],
              seed: int, names: Sequence[str] | None = None,
              observer: Callable[[GameState], None] | None = None) -> GameResult:
    """One game through the state machine, ``bots[i]`` (a ``rules.bots.Bot`` or a factory taking its generator,
    seeded ``derive_seed(seed, "seat", i)``) in seat i, the dice from ``random.Random(seed)``: the game a
    simulation seeded ``seed`` plays with these bots. ``observer(state)``, if given, sees the public state after
    every action that leaves no piece lifted, and at the end (tests check invariants with it)."""
    game = WellbeingGame(board, rules, len(bots))
    inner = [b if isinstance(b, RulesBot) else b(random.Random(derive_seed(seed, "seat", seat)))
             for seat, b in enumerate(bots)]
    seats = [FlagshipBot(game, seat, b.rng, b.name, b) for seat, b in enumerate(inner)]
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    while True:
        player = state.current_player()
        if player == TERMINAL:
            break
        state.apply_action(sample_chance(state, rng) if player == CHANCE else seats[player].step(state))
        if observer is not None and state.pending < 0:
            observer(state.gs)
    if observer is not None:  # and the final state, also of a game in which no player ever got to act
        observer(state.gs)
    return state.result(seed, tuple(names) if names is not None else tuple(b.name for b in inner))


__all__ = ["DEST", "DONE", "EV", "EVENTS", "INVEST", "PICK", "ROLL", "SETUP", "TIPPING", "FlagshipBot", "GameResult",
           "WellbeingGame", "WellbeingState", "api_bots", "check_badges", "final_scores", "harvest",
           "leaders_mask", "outcome_metrics", "play_game", "steward_roll", "tipping_apply"]

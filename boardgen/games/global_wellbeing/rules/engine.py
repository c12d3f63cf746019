"""One game of the Global Wellbeing Game, played by bots, every number from the template's rules.

``play_game(board, rules, bots, seed)`` runs the setup phase, the turns (move, harvest, invest), the
stewardship and tipping-point rolls and the final scoring, and returns a ``GameResult``. All dice come
from one ``random.Random(seed)``; the bots get their own generators, so the same seed gives the same game.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import mul

from boardgen.config import RulesConfig
from boardgen.games.global_wellbeing.rules.board import RulesBoard, ZoneRules
from boardgen.games.global_wellbeing.rules.state import GameState

# Every event the engine counts: "every rule fires" in validation reads these.
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


class IllegalActionError(RuntimeError):
    """A bot asked for something the rules do not allow (a bug in the bot)."""


class Bot:
    """What a player decides. Bots read the public ``GameState`` and use their own ``rng``."""

    name = "bot"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose_move_piece(self, state: GameState, p: int, must: bool) -> int | None:
        """Which own piece to move this turn, or None to stay (only when ``must`` is False)."""
        raise NotImplementedError

    def choose_cell(self, state: GameState, p: int, purpose: str) -> int:
        """A cell from ``state.destinations(p)`` for a piece (purpose: setup, move, invest)."""
        raise NotImplementedError


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


def derive_seed(master_seed: int, *parts: object) -> int:
    """A 63-bit seed from the master seed and a path (game index, seat...), independent of process."""
    text = ":".join(str(x) for x in (master_seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def _place(state: GameState, bot: Bot, p: int, purpose: str) -> bool:
    """Ask the bot for a cell and place a piece of p; returns True when it went next to own pieces."""
    adjacent = bool(state.front_items[p])
    c = bot.choose_cell(state, p, purpose)
    if not state.is_legal_destination(p, c):
        raise IllegalActionError(f"{bot.name} put a piece of seat {p} on cell {c} ({purpose})")
    state.place(p, c)
    return adjacent


def _check_badges(state: GameState, p: int, threshold: int, can_be_lost: bool, events: list[int]) -> None:
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


def stewardship(index: list[int], dice: Sequence[int], minima: Sequence[int], rng: random.Random,
                events: list[int]) -> None:
    """Roll each zone's die in zone order (one ``rng.random()`` per die) and apply ``steward_roll``."""
    for z, die in enumerate(dice):
        steward_roll(index, z, 1 + int(rng.random() * die), die, minima[z], events)


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


def tipping_point(index: list[int], dice: Sequence[int], minima: Sequence[int], die: int, rng: random.Random,
                  events: list[int]) -> int:
    """Roll the tipping-point die (one ``rng.random()``) and apply ``tipping_apply``; returns the roll."""
    roll = 1 + int(rng.random() * die)
    tipping_apply(index, dice, minima, roll, events)
    return roll


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


def _leaders(state: GameState, badge_values: Sequence[int]) -> int:
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


def decided_after(result: GameResult) -> int:
    """The turn after which the final winner(s) always led (0: from the end of setup on)."""
    winners = 0
    for w in result.winners:
        winners |= 1 << w
    turn = len(result.leaders) - 1
    while turn > 0 and result.leaders[turn - 1] & winners:
        turn -= 1
    return turn


BotFactory = Callable[[random.Random], Bot]


def play_game(board: RulesBoard, rules: RulesConfig, bots: Sequence[BotFactory | Bot], seed: int,
              names: Sequence[str] | None = None,
              observer: Callable[[GameState], None] | None = None) -> GameResult:
    """Play one game; ``bots[i]`` (a Bot or a factory taking an rng) plays seat i.

    ``observer(state)``, if given, is called after setup, after every player's turn and after every turn's
    end (stewardship, tipping point), e.g. to check invariants in tests.
    """
    n_players = len(bots)
    if not 1 <= n_players <= 6:
        raise ValueError("a game needs 1 to 6 players")
    rng = random.Random(seed)
    players: list[Bot] = []
    for seat, b in enumerate(bots):
        players.append(b if isinstance(b, Bot) else b(random.Random(derive_seed(seed, "seat", seat))))
    complex_game = rules.variant == "complex"
    economy = complex_game or rules.simple_harvest  # chips, harvest and investment are in play
    start_chips = rules.starting_chips if complex_game else 0
    supply = rules.pieces_per_player if economy else rules.setup_rounds
    bank = max(0, rules.bank_chips - n_players * start_chips)
    state = GameState(board, n_players, start_chips, supply, bank)
    events = [0] * len(EVENTS)
    ran_out = [0] * n_players
    dice = tuple(z.die for z in board.zones)
    minima = tuple(z.minimum_index for z in board.zones)
    threshold, can_be_lost = rules.badge_threshold, rules.badges_can_be_lost
    divisor = rules.harvest_divisor
    capped = rules.harvest_capped_by_bank
    pieces_limited = rules.pieces_limited
    chips, supply_left = state.chips, state.supply

    # ---- setup: rounds of one piece each, in seat order
    for _ in range(rules.setup_rounds):
        for p in range(n_players):
            if complex_game and chips[p] <= 0:
                events[_NO_CHIPS] += 1
                continue
            if supply_left[p] <= 0:
                ran_out[p] |= 1
                events[_OUT_PIECES] += 1
                continue
            if not state.free_items:
                ran_out[p] |= 2
                events[_OUT_CELLS] += 1
                continue
            first = not state.piece_items[p]
            adjacent = _place(state, players[p], p, "setup")
            events[_SETUP_FIRST if first else (_SETUP_ADJ if adjacent else _SETUP_ANY)] += 1
            supply_left[p] -= 1
            if complex_game:
                chips[p] -= 1
                state.bank += 1
                _check_badges(state, p, threshold, can_be_lost, events)

    if observer is not None:
        observer(state)

    # ---- turns
    trajectory = [tuple(state.index)]
    badge_values = tuple(z.badge_value for z in board.zones) if complex_game else (0,) * len(board.zones)
    leaders = [_leaders(state, badge_values)]
    index = state.index
    steward_first = rules.end_of_turn_order == "stewardship-first"
    for turn in range(1, rules.turns + 1):
        state.turn = turn
        first_seat = (turn - 1) % n_players if rules.first_player_rotates else 0
        for k in range(n_players):
            p = (first_seat + k) % n_players
            bot = players[p]
            # (a) move one piece
            can_move = state.piece_items[p] and (state.free_items or rules.move_next_to_other_pieces)
            must = not rules.move_optional
            src = bot.choose_move_piece(state, p, must) if can_move else None
            if src is None:
                if can_move and must:
                    raise IllegalActionError(f"{bot.name} passed for seat {p}, but the rules say a piece must move")
                events[_MOVE_PASS] += 1
            else:
                if state.owner[src] != p:
                    raise IllegalActionError(f"{bot.name} moved a piece seat {p} does not own (cell {src})")
                if rules.move_next_to_other_pieces:
                    state.lift(p, src)
                    state.moving_from = src  # the piece must go somewhere else
                    if not state.destinations(p):  # nowhere else to go: the piece stays, a pass
                        state.moving_from = -1
                        state.place(p, src)
                        events[_MOVE_PASS] += 1
                        src = None
                    else:
                        try:
                            adjacent = _place(state, bot, p, "move")
                        finally:
                            state.moving_from = -1
                else:
                    adjacent = bool(state.front_items[p])
                    dst = bot.choose_cell(state, p, "move")
                    if not state.is_legal_destination(p, dst):
                        raise IllegalActionError(f"{bot.name} moved seat {p}'s piece to cell {dst}")
                    state.lift(p, src)
                    state.place(p, dst)
                if src is not None:
                    events[_MOVE if adjacent else _MOVE_ANY] += 1
            if economy:
                # (b) harvest
                harvest(state, p, divisor, capped, events)
                # (c) invest
                for _ in range(rules.investments_per_turn):
                    if chips[p] <= 0:
                        events[_NO_CHIPS] += 1
                        break
                    if pieces_limited and supply_left[p] <= 0:
                        ran_out[p] |= 1
                        events[_OUT_PIECES] += 1
                        break
                    if not state.free_items:
                        ran_out[p] |= 2
                        events[_OUT_CELLS] += 1
                        break
                    adjacent = _place(state, bot, p, "invest")
                    events[_INVEST if adjacent else _INVEST_ANY] += 1
                    chips[p] -= 1
                    state.bank += 1
                    if supply_left[p] > 0:  # (unlimited pieces: proxies once the printed ones are out)
                        supply_left[p] -= 1
            if complex_game:
                _check_badges(state, p, threshold, can_be_lost, events)
            if observer is not None:
                observer(state)
        steward = turn % rules.stewardship_every == 0
        tipping = turn % rules.tipping_point_every == 0
        if steward and steward_first:
            stewardship(index, dice, minima, rng, events)
        if tipping:
            tipping_point(index, dice, minima, rules.tipping_point_die, rng, events)
        if steward and not steward_first:
            stewardship(index, dice, minima, rng, events)
        trajectory.append(tuple(index))
        leaders.append(_leaders(state, badge_values))
        if observer is not None:
            observer(state)

    # ---- scoring
    end_index = tuple(index)
    final, scores, winners = final_scores(state, board.zones, complex_game, events)
    holders_bits = state.holders
    return GameResult(
        seed=seed,
        bots=tuple(names) if names is not None else tuple(b.name for b in players),
        scores=scores,
        winners=winners,
        pieces=tuple(len(state.piece_items[p]) for p in range(n_players)),
        chips=tuple(chips),
        final_index=tuple(final),
        end_index=end_index,
        badges=tuple(tuple(int(b) for b in state.badges[p]) for p in range(n_players)),
        trajectory=tuple(trajectory),
        leaders=tuple(leaders),
        events=tuple(events),
        ran_out=tuple(ran_out),
        occupied=tuple(1 if o >= 0 else 0 for o in state.owner),
        contested=tuple(1 if (h & (h - 1)) else 0 for h in holders_bits),
    )


__all__ = ["EV", "EVENTS", "Bot", "BotFactory", "GameResult", "IllegalActionError", "decided_after", "derive_seed",
           "final_scores", "harvest", "play_game", "steward_roll", "stewardship", "tipping_apply", "tipping_point"]

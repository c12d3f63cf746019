"""Global Warming's rules through the shared OpenSpiel-shaped API (``boardgen.play.api``).

The table is a square of ``5 + 2 * sea_margin`` cells; the island starts as the 5 x 5 block in its middle with
the centre empty. Tiles and coins are numbered ``suit * 6 + rank`` (rank 0 is the null); coin ``c`` names
tile ``c``. Every random thing is a chance node: which tile lands in each setup position (the tiles are
shuffled face down), which coin each player draws for their starting tile, and each coin drawn for the line
together with the face it lands on (outcome ``coin * 2 + face``, face 0 = value showing, 1 = suit showing).

A turn: a SIMULTANEOUS node where every living player sets a die face (0 blank, 1 ace ... 5); equal faces
cancel; the rest act in ``action_order`` (blank, 5, 4, 3, 2, ace). A blank is two decisions (which tile, then
where; or pass when the template allows), a number n is n decisions of one single pawn step each. Then a coin
is drawn to the right of the line (chance; none when the bag is empty), the leftmost coin is turned over and
its tile sinks with any pawn on it. The last pawn standing wins; one tile sinks per turn, so two pawns never
drown together and the game cannot tie.

Players see the island, the pawns, the dice once revealed, the retired coins, and only the up face of each
coin in the line: ``observation(player)`` holds exactly that, and ``resample_for`` deals the hidden faces
anew for a searching bot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from boardgen.games.global_warming.schema import RulesSpec
from boardgen.play.api import CHANCE, SIMULTANEOUS, TERMINAL, Game, GameInfo, IllegalActionError, Outcome, State

SUITS = 4
RANKS = 6
TILES = SUITS * RANKS
FACES = 6  # die faces 0 (blank) .. 5
PASS = 6
PAWN_BASE = 7  # 7 + seat * 4 + direction
DIRS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # up, right, down, left
DIR_NAMES = ("up", "right", "down", "left")
PICK_BASE = PAWN_BASE + 16  # 23 + tile
PLACE_BASE = PICK_BASE + TILES  # 47 + cell
VALUE_UP, SUIT_UP = 0, 1

DEFAULT_SUIT_NAMES = ("Suns", "Moons", "Crowns", "Arms")
DEFAULT_RANK_NAMES = ("null", "ace", "2", "3", "4", "5")

PLACE, PAWNS, LINE, CHOOSE, ACT, DRAW, OVER = "place", "pawns", "line", "choose", "act", "draw", "over"


def suit_of(tile: int) -> int:
    return tile // RANKS


def rank_of(tile: int) -> int:
    return tile % RANKS


def island_shape(setup: str, margin: int) -> list[tuple[int, int]]:
    """The cells (x, y) of the starting island in table coordinates, row by row.

    basic: the 5 x 5 block without its centre. orthogonal / diagonal: the four tiles beside the centre hole
    (edge-adjacent or corner-adjacent) go to the cells just outside the middle of each outer edge."""
    cells = [(x, y) for y in range(5) for x in range(5) if (x, y) != (2, 2)]
    if setup == "orthogonal":
        moved = [(2, 1), (1, 2), (3, 2), (2, 3)]
    elif setup == "diagonal":
        moved = [(1, 1), (3, 1), (1, 3), (3, 3)]
    else:
        moved = []
    outer = [(2, -1), (-1, 2), (5, 2), (2, 5)]  # beyond the top, left, right and bottom edge middles
    for old, new in zip(moved, outer, strict=False):
        cells[cells.index(old)] = new
    return sorted(((x + margin, y + margin) for x, y in cells), key=lambda c: (c[1], c[0]))


class GlobalWarmingGame(Game):
    def __init__(self, rules: RulesSpec, players: int, suit_names: Sequence[str] = DEFAULT_SUIT_NAMES,
                 rank_names: Sequence[str] = DEFAULT_RANK_NAMES) -> None:
        if not 2 <= players <= SUITS:
            raise ValueError(f"Global Warming takes 2 to {SUITS} players, not {players}")
        self.rules = rules
        self.players = players
        self.suit_names = tuple(suit_names)
        self.rank_names = tuple(rank_names)
        self.size = 5 + 2 * rules.sea_margin
        self.shape = island_shape(rules.setup, rules.sea_margin)
        self.inner = {(x + rules.sea_margin, y + rules.sea_margin) for x in (1, 2, 3) for y in (1, 2, 3)}
        self.order_rank = {face: i for i, face in enumerate(rules.action_order)}
        # neighbours of every cell inside the table (for moves and edge contact)
        n = self.size
        self.neighbours: list[list[tuple[int, int]]] = []  # (direction, cell)
        for cell in range(n * n):
            x, y = cell % n, cell // n
            self.neighbours.append([(d, (y + dy) * n + x + dx) for d, (dx, dy) in enumerate(DIRS)
                                    if 0 <= x + dx < n and 0 <= y + dy < n])
        max_turn = 4 + 2 + 5 + 4 + 3 + 1  # dice, a tile move, three pawn quotas, a draw
        self.info = GameInfo(
            short_name="global_warming", long_name="Global Warming", num_players=players,
            num_distinct_actions=PLACE_BASE + n * n, max_chance_outcomes=2 * TILES,
            max_game_length=TILES + players + rules.line_length + TILES * max_turn,
            min_utility=0.0, max_utility=1.0, utility="general_sum", dynamics="simultaneous",
            information="imperfect", chance_mode="explicit_stochastic")

    def new_initial_state(self, seed: int | None = None) -> GWState:
        return GWState(self)

    def tile_name(self, tile: int) -> str:
        rank = self.rank_names[rank_of(tile)]
        return f"{rank} of {self.suit_names[suit_of(tile)]}"

    def cell_name(self, cell: int) -> str:
        m = self.rules.sea_margin
        x, y = cell % self.size - m, cell // self.size - m
        return f"({x},{y})"

    def evaluate(self, state: State, player: int) -> float:
        from boardgen.games.global_warming.rules.bots import evaluate

        assert isinstance(state, GWState)
        return evaluate(state, player)


class GWState(State):
    game: GlobalWarmingGame

    def __init__(self, game: GlobalWarmingGame) -> None:
        super().__init__(game)
        n = game.size
        self.phase = PLACE
        self.cell_tile = [-1] * (n * n)
        self.tile_cell = [-1] * TILES
        self.tile_pawn = [-1] * TILES
        self.pawn_tile = [-1] * game.players
        self.alive = [True] * game.players
        self.unplaced = list(range(TILES))  # tiles still to lay during setup
        self.bag = list(range(TILES))  # coins in the bag (sorted)
        self.line: list[tuple[int, int]] = []  # (coin, face up)
        self.retired: list[int] = []  # coins turned over, in order; their tiles have sunk
        self.moved: set[int] = set()  # tiles that have been moved at least once
        self.turn = 0
        self.revealed: tuple[int, ...] = ()  # the dice of the last reveal (-1: a seat that had no die)
        self.queue: list[tuple[int, int]] = []  # (seat, face) still to act this turn
        self.moves_left = 0
        self.picked = -1  # a blank's chosen tile awaiting its destination
        self.eliminated: list[tuple[int, int]] = []  # (seat, turn)
        self.start_tiles = [-1] * game.players
        self.start_inner = [False] * game.players
        self.events: dict[str, int] = {k: 0 for k in (
            "cancelled-die", "tile-move", "blank-pass", "pawn-move", "rival-pawn-move", "forfeit",
            "drowned", "island-split", "moved-tile-sinks", "bag-empty", "empty-sink")}
        self.choices = 0

    # ------------------------------------------------------------------ nodes
    def current_player(self) -> int:
        phase = self.phase
        if phase in (PLACE, PAWNS, LINE, DRAW):
            return CHANCE
        if phase == CHOOSE:
            return SIMULTANEOUS
        if phase == ACT:
            return self.queue[0][0]
        return TERMINAL

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == PLACE:
            p = 1.0 / len(self.unplaced)
            return [(t, p) for t in self.unplaced]
        if phase == PAWNS:
            free = [t for t in range(TILES) if self.tile_pawn[t] < 0]
            p = 1.0 / len(free)
            return [(t, p) for t in free]
        if phase in (LINE, DRAW):
            v = self.game.rules.value_face_up
            out: list[tuple[int, float]] = []
            for coin in self.bag:
                if v > 0:
                    out.append((coin * 2 + VALUE_UP, v / len(self.bag)))
                if v < 1:
                    out.append((coin * 2 + SUIT_UP, (1 - v) / len(self.bag)))
            return out
        raise IllegalActionError("not a chance node")

    def legal_actions(self, player: int | None = None) -> list[int]:
        phase = self.phase
        if phase in (PLACE, PAWNS, LINE, DRAW):
            return [a for a, _ in self.chance_outcomes()]
        if phase == CHOOSE:
            if player is None or not 0 <= player < self.game.players:
                raise IllegalActionError(f"a simultaneous node needs a seat 0-{self.game.players - 1}, not {player}")
            return list(range(FACES)) if self.alive[player] else [PASS]
        if phase == ACT:
            seat = self.queue[0][0]
            if player is not None and player != seat:
                return []
            return self._act_legal()
        return []

    def _act_legal(self) -> list[int]:
        face = self.queue[0][1]
        if face == 0:
            if self.picked < 0:
                out = [PICK_BASE + t for t in self.movable_tiles()]
                if out and self.game.rules.blank_may_pass:
                    out.insert(0, PASS)
                return out
            return [PLACE_BASE + c for c in self.destinations(self.picked)]
        return self.pawn_moves()

    def pawn_moves(self) -> list[int]:
        out = []
        nb = self.game.neighbours
        for seat, tile in enumerate(self.pawn_tile):
            if tile < 0:
                continue
            for d, cell in nb[self.tile_cell[tile]]:
                t = self.cell_tile[cell]
                if t >= 0 and self.tile_pawn[t] < 0:
                    out.append(PAWN_BASE + seat * 4 + d)
        return out

    def movable_tiles(self) -> list[int]:
        """Tiles a blank may move: on the table, no pawn on it, and with somewhere to go."""
        return [t for t in range(TILES) if self.tile_cell[t] >= 0 and self.tile_pawn[t] < 0
                and self.destinations(t)]

    def destinations(self, tile: int) -> list[int]:
        """Empty cells that share an edge with a tile of the island other than ``tile`` itself."""
        nb = self.game.neighbours
        out = []
        for cell, occupant in enumerate(self.cell_tile):
            if occupant >= 0:
                continue
            for _, other in nb[cell]:
                o = self.cell_tile[other]
                if o >= 0 and o != tile:
                    out.append(cell)
                    break
        return out

    # ------------------------------------------------------------------ applying
    def _apply_action(self, action: int) -> None:
        phase = self.phase
        if phase == PLACE:
            slot = TILES - len(self.unplaced)
            x, y = self.game.shape[slot]
            cell = y * self.game.size + x
            self.unplaced.remove(action)
            self.cell_tile[cell] = action
            self.tile_cell[action] = cell
            if not self.unplaced:
                self.phase = PAWNS
        elif phase == PAWNS:
            seat = self.pawn_tile.index(-1)
            self.pawn_tile[seat] = action
            self.tile_pawn[action] = seat
            self.start_tiles[seat] = action
            cell = self.tile_cell[action]
            self.start_inner[seat] = (cell % self.game.size, cell // self.game.size) in self.game.inner
            if -1 not in self.pawn_tile:
                self.phase = LINE  # the drawn coins go back: the bag is still full
        elif phase == LINE:
            self._draw(action)
            if len(self.line) == self.game.rules.line_length or not self.bag:
                self.phase = CHOOSE
                self.turn = 1
        elif phase == DRAW:
            self._draw(action)
            self._sink()
        elif phase == ACT:
            self._act(action)
        else:
            raise IllegalActionError(f"no action at phase {phase}")

    def _draw(self, action: int) -> None:
        coin, face = divmod(action, 2)
        self.bag.remove(coin)
        self.line.append((coin, face))

    def _apply_actions(self, actions: Sequence[int]) -> None:
        faces = [a if self.alive[s] else -1 for s, a in enumerate(actions)]
        self.revealed = tuple(faces)
        counts: dict[int, int] = {}
        for f in faces:
            if f >= 0:
                counts[f] = counts.get(f, 0) + 1
                self.choices += 1
        order = self.game.order_rank
        acting = [(s, f) for s, f in enumerate(faces) if f >= 0 and counts[f] == 1]
        self.events["cancelled-die"] += sum(c for c in counts.values() if c > 1)
        self.queue = sorted(acting, key=lambda sf: order[sf[1]])
        self._start_actor()

    def _start_actor(self) -> None:
        """Set up the next actor's quota, skipping actors who cannot act; the sink when nobody is left."""
        while self.queue:
            _seat, face = self.queue[0]
            self.moves_left = face
            self.picked = -1
            self.phase = ACT
            if self._act_legal():
                return
            self.events["forfeit"] += 1
            self.queue.pop(0)
        self._end_actions()

    def _act(self, action: int) -> None:
        seat, face = self.queue[0]
        if face == 0:
            if action == PASS:
                self.events["blank-pass"] += 1
                self._next_actor()
            elif self.picked < 0:
                self.picked = action - PICK_BASE
            else:
                tile, cell = self.picked, action - PLACE_BASE
                before = self.components()
                self.cell_tile[self.tile_cell[tile]] = -1
                self.cell_tile[cell] = tile
                self.tile_cell[tile] = cell
                self.moved.add(tile)
                self.events["tile-move"] += 1
                if self.components() > before:
                    self.events["island-split"] += 1
                self._next_actor()
            return
        pawn, d = divmod(action - PAWN_BASE, 4)
        tile = self.pawn_tile[pawn]
        target = -1
        for dd, cell in self.game.neighbours[self.tile_cell[tile]]:
            if dd == d:
                target = self.cell_tile[cell]
        if target < 0 or self.tile_pawn[target] >= 0:
            raise IllegalActionError("pawn move onto water or a pawn")
        self.tile_pawn[tile] = -1
        self.tile_pawn[target] = pawn
        self.pawn_tile[pawn] = target
        self.events["pawn-move"] += 1
        if pawn != seat:
            self.events["rival-pawn-move"] += 1
        self.moves_left -= 1
        if self.moves_left == 0:
            self._next_actor()
        elif not self.pawn_moves():
            self.events["forfeit"] += 1
            self._next_actor()

    def _next_actor(self) -> None:
        self.queue.pop(0)
        self._start_actor()

    def _end_actions(self) -> None:
        self.queue = []
        self.picked = -1
        self.moves_left = 0
        if self.bag:
            self.phase = DRAW
        else:
            self.events["bag-empty"] += 1
            self._sink()

    def _sink(self) -> None:
        coin, _face = self.line.pop(0)
        self.retired.append(coin)
        cell = self.tile_cell[coin]
        if coin in self.moved:
            self.events["moved-tile-sinks"] += 1
        self.cell_tile[cell] = -1
        self.tile_cell[coin] = -1
        seat = self.tile_pawn[coin]
        if seat >= 0:
            self.tile_pawn[coin] = -1
            self.pawn_tile[seat] = -1
            self.alive[seat] = False
            self.eliminated.append((seat, self.turn))
            self.events["drowned"] += 1
        else:
            self.events["empty-sink"] += 1
        if sum(self.alive) <= 1 or not self.line:
            self.phase = OVER
        else:
            self.turn += 1
            self.phase = CHOOSE

    # ------------------------------------------------------------------ views
    def components(self) -> int:
        """How many separate pieces the island is in (edge contact)."""
        seen: set[int] = set()
        count = 0
        nb = self.game.neighbours
        for start in self.tile_cell:
            if start < 0 or start in seen:
                continue
            count += 1
            stack = [start]
            seen.add(start)
            while stack:
                c = stack.pop()
                for _, o in nb[c]:
                    if o not in seen and self.cell_tile[o] >= 0:
                        seen.add(o)
                        stack.append(o)
        return count

    def winner(self) -> int:
        living = [s for s, a in enumerate(self.alive) if a]
        return living[0] if len(living) == 1 else -1

    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0] * self.game.players
        w = self.winner()
        return [1.0 if s == w else 0.0 for s in range(self.game.players)]

    def outcome(self) -> Outcome:
        if self.phase != OVER:
            raise IllegalActionError("the game is not over")
        players = self.game.players
        place = [float(players - 1)] * players
        for k, (seat, _turn) in enumerate(self.eliminated):
            place[seat] = float(k)
        w = self.winner()
        inner = sum(self.start_inner)
        metrics = {
            "turns": float(self.turn),
            "cancel_share": self.events["cancelled-die"] / self.choices if self.choices else 0.0,
            "tile_moves": float(self.events["tile-move"]),
            "pawn_moves": float(self.events["pawn-move"]),
            "rival_pawn_moves": float(self.events["rival-pawn-move"]),
            "empty_sinks": float(self.events["empty-sink"]),
            "first_drowning_turn": float(self.eliminated[0][1]) if self.eliminated else float(self.turn),
            "inner_start_seats": float(inner),
            "inner_start_win": 1.0 if w >= 0 and self.start_inner[w] else 0.0,
            "outer_start_win": 1.0 if w >= 0 and not self.start_inner[w] else 0.0,
        }
        return Outcome(tuple(place), (w,) if w >= 0 else (), self.turn, metrics, dict(self.events))

    def face_text(self, coin: int, face: int) -> str:
        g = self.game
        if face == VALUE_UP:
            return f"value {g.rank_names[rank_of(coin)]}"
        return f"suit {g.suit_names[suit_of(coin)]}"

    def island_tiles(self) -> list[dict[str, Any]]:
        """Every tile on the table with its place, row by row: x and y count from the original island's top-left
        tile (negative or beyond 4 in the sea margin), with the tile's suit and rank and the pawn on it."""
        g = self.game
        n, m = g.size, g.rules.sea_margin
        out = []
        for cell, t in enumerate(self.cell_tile):
            if t < 0:
                continue
            seat = self.tile_pawn[t]
            out.append({"x": cell % n - m, "y": cell // n - m, "tile": g.tile_name(t),
                        "suit": g.suit_names[suit_of(t)], "rank": g.rank_names[rank_of(t)],
                        "moved": t in self.moved, "pawn": seat + 1 if seat >= 0 else None})
        return out

    def island_picture(self) -> str:
        """The table as text, one row per table row from the first to the last row holding a tile: a row of
        sunk tiles stays, as water, so a channel through the island shows."""
        g = self.game
        n = g.size
        rows = []
        for y in range(n):
            row = []
            for x in range(n):
                t = self.cell_tile[y * n + x]
                if t < 0:
                    row.append("  .  ")
                else:
                    mark = str(self.tile_pawn[t] + 1) if self.tile_pawn[t] >= 0 else " "
                    row.append(f"{g.rank_names[rank_of(t)][:1] or 'n'}{g.suit_names[suit_of(t)][:2]}{mark} ")
            rows.append("".join(row).rstrip())
        used = [y for y in range(n) if any(self.cell_tile[y * n + x] >= 0 for x in range(n))]
        return "\n" + "\n".join(rows[used[0]:used[-1] + 1]) if used else ""

    def observation(self, player: int) -> dict[str, Any]:
        g = self.game
        obs: dict[str, Any] = {
            "turn": self.turn,
            "phase": self.phase,
            "island": self.island_tiles(),
            "island_picture": self.island_picture(),
            "pawns": {s + 1: (g.tile_name(t) if t >= 0 else "drowned") for s, t in enumerate(self.pawn_tile)},
            "line": [self.face_text(c, f) for c, f in self.line],  # the up faces only
            "coins_in_bag": len(self.bag),
            "sunk": [g.tile_name(c) for c in self.retired],
            "dice_revealed": list(self.revealed),
        }
        if self.phase == ACT:
            obs["acting"] = {"seat": self.queue[0][0] + 1, "face": self.queue[0][1], "moves_left": self.moves_left,
                             "picked": g.tile_name(self.picked) if self.picked >= 0 else None}
        return obs

    def information_state_string(self, player: int) -> str:
        return f"seat {player + 1}\n" + self.observation_string(player) + f"\nhistory-length {len(self._history)}"

    def action_to_string(self, player: int, action: int) -> str:
        """The action read in the terms of this node: a chance outcome as a tile or coin of this phase, a
        seat's action as a die face, pass, pawn step, tile or cell; a number outside the node's table says
        so instead of failing (the message of an illegal action names it)."""
        g = self.game
        if player == CHANCE:
            if self.phase == PLACE:
                if not 0 <= action < TILES:
                    return f"no tile {action} (tiles are 0-{TILES - 1})"
                return f"lay {g.tile_name(action)} at slot {TILES - len(self.unplaced) + 1}"
            if self.phase == PAWNS:
                if not 0 <= action < TILES:
                    return f"no coin {action} (coins are 0-{TILES - 1})"
                return f"draw coin {g.tile_name(action)} for a pawn"
            if self.phase in (LINE, DRAW):
                if not 0 <= action < 2 * TILES:
                    return f"no coin draw {action} (draws are 0-{2 * TILES - 1}: coin * 2 + face)"
                coin, face = divmod(action, 2)
                return f"draw coin {g.tile_name(coin)}, {'value' if face == VALUE_UP else 'suit'} up"
            return f"chance outcome {action} at no chance node ({self.phase})"
        if not 0 <= action < g.info.num_distinct_actions:
            return f"no action {action} (actions are 0-{g.info.num_distinct_actions - 1})"
        if action < FACES:
            return f"die {g.rank_names[action]}"
        if action == PASS:
            return "pass"
        if action < PICK_BASE:
            pawn, d = divmod(action - PAWN_BASE, 4)
            if pawn >= g.players:
                return f"pawn {pawn + 1} {DIR_NAMES[d]} (no such pawn: {g.players} players)"
            return f"pawn {pawn + 1} {DIR_NAMES[d]}"
        if action < PLACE_BASE:
            return f"take tile {g.tile_name(action - PICK_BASE)}"
        return f"put tile at {g.cell_name(action - PLACE_BASE)}"

    def clone(self) -> GWState:
        c = object.__new__(GWState)
        c.game = self.game
        c._history = list(self._history)
        c.phase = self.phase
        c.cell_tile = list(self.cell_tile)
        c.tile_cell = list(self.tile_cell)
        c.tile_pawn = list(self.tile_pawn)
        c.pawn_tile = list(self.pawn_tile)
        c.alive = list(self.alive)
        c.unplaced = list(self.unplaced)
        c.bag = list(self.bag)
        c.line = list(self.line)
        c.retired = list(self.retired)
        c.moved = set(self.moved)
        c.turn = self.turn
        c.revealed = self.revealed
        c.queue = list(self.queue)
        c.moves_left = self.moves_left
        c.picked = self.picked
        c.eliminated = list(self.eliminated)
        c.start_tiles = list(self.start_tiles)
        c.start_inner = list(self.start_inner)
        c.events = dict(self.events)
        c.choices = self.choices
        return c

    # ------------------------------------------------------------------ hidden information
    def candidates(self, face_coin: tuple[int, int]) -> list[int]:
        """The coins a line coin may be, seen from the table: unretired coins matching its up face."""
        coin, face = face_coin
        unknown = [c for c in range(TILES) if self.tile_cell[c] >= 0]
        if face == VALUE_UP:
            return [c for c in unknown if rank_of(c) == rank_of(coin)]
        return [c for c in unknown if suit_of(c) == suit_of(coin)]

    def resample_for(self, player: int, rng: random.Random) -> GWState:
        """A copy with the line's hidden faces dealt anew, consistent with everything ``player`` has seen."""
        pool = sorted(set(self.bag) | {c for c, _ in self.line})
        for _ in range(50):
            free = set(pool)
            new_line = []
            for coin, face in self.line:
                options = sorted(c for c in free if (rank_of(c) == rank_of(coin) if face == VALUE_UP
                                                     else suit_of(c) == suit_of(coin)))
                if not options:
                    break
                pick = options[int(rng.random() * len(options))]
                free.discard(pick)
                new_line.append((pick, face))
            else:
                c = self.clone()
                c.line = new_line
                c.bag = sorted(free)
                return c
        return self.clone()

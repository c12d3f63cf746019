"""The public state of one game: who stands where, the index table, chips, badges.

Everything here is what players at the table can see; the dice live in the engine, not here. The state is
kept in flat lists indexed by cell or zone, with "indexed sets" (an item list plus a position list, -1 when
absent) for free cells, each player's pieces and each player's frontier (free cells next to one of their
pieces), so placing or lifting a piece costs a few dozen list operations and allocates nothing.
"""

from __future__ import annotations

from operator import mul

from boardgen.games.global_wellbeing.rules.board import RulesBoard


class GameState:
    __slots__ = (
        "adj", "badges", "bank", "board", "chips", "free_items", "free_pos", "front_items", "front_pos", "fronts",
        "holders", "index", "moving_from", "n_players", "n_zones", "neighbours", "owner", "piece_items", "piece_pos",
        "players", "supply", "turn", "zone_count", "zone_of",
    )  # fmt: skip

    def __init__(self, board: RulesBoard, n_players: int, chips: int, supply: int, bank: int) -> None:
        n = board.n_cells
        self.board = board
        self.n_players = n_players
        self.players = tuple(range(n_players))
        self.n_zones = len(board.zones)
        self.neighbours = board.neighbours
        self.zone_of = board.zone_of
        self.owner = [-1] * n
        self.free_items = list(range(n))
        self.free_pos = list(range(n))
        self.front_items: list[list[int]] = [[] for _ in self.players]
        self.front_pos = [[-1] * n for _ in self.players]
        self.fronts = tuple(zip(self.front_pos, self.front_items, strict=True))  # (pos, items) per player
        self.adj = [[0] * n for _ in self.players]
        self.piece_items: list[list[int]] = [[] for _ in self.players]
        self.piece_pos = [[-1] * n for _ in self.players]
        self.zone_count = [[0] * self.n_zones for _ in self.players]
        self.index = [z.start_index for z in board.zones]
        self.chips = [chips] * n_players
        self.supply = [supply] * n_players
        self.bank = bank
        self.badges = [[False] * self.n_zones for _ in self.players]
        self.holders = [0] * n  # bit p set once player p has stood on the cell
        self.turn = 0  # 0 during setup
        self.moving_from = -1  # during a move: the cell the piece was lifted from (not a destination)

    def copy(self) -> GameState:
        """An independent copy (the board and its tuples are shared; every list is copied)."""
        new = GameState.__new__(GameState)
        new.board, new.n_players, new.players, new.n_zones = self.board, self.n_players, self.players, self.n_zones
        new.neighbours, new.zone_of = self.neighbours, self.zone_of
        new.owner = self.owner[:]
        new.free_items, new.free_pos = self.free_items[:], self.free_pos[:]
        new.front_items = [f[:] for f in self.front_items]
        new.front_pos = [f[:] for f in self.front_pos]
        new.fronts = tuple(zip(new.front_pos, new.front_items, strict=True))
        new.adj = [a[:] for a in self.adj]
        new.piece_items = [x[:] for x in self.piece_items]
        new.piece_pos = [x[:] for x in self.piece_pos]
        new.zone_count = [x[:] for x in self.zone_count]
        new.index = self.index[:]
        new.chips, new.supply, new.bank = self.chips[:], self.supply[:], self.bank
        new.badges = [b[:] for b in self.badges]
        new.holders = self.holders[:]
        new.turn = self.turn
        new.moving_from = self.moving_from
        return new

    # ------------------------------------------------------------------ queries (what a player can see)

    def destinations(self, p: int) -> list[int]:
        """Where player p may put a piece now: free cells next to their pieces, or any free cell if none."""
        front = self.front_items[p]
        cells = front if front else self.free_items
        src = self.moving_from
        return cells if src < 0 else [c for c in cells if c != src]

    def is_legal_destination(self, p: int, c: int) -> bool:
        if self.owner[c] >= 0 or c == self.moving_from:
            return False
        return self.front_pos[p][c] >= 0 or not self.front_items[p]

    def pieces_on_board(self, p: int) -> int:
        return len(self.piece_items[p])

    def harvest_total(self, p: int) -> int:
        return sum(map(mul, self.zone_count[p], self.index))

    # ------------------------------------------------------------------ changes (engine only)

    def place(self, p: int, c: int) -> None:
        owner = self.owner
        owner[c] = p
        items, pos = self.free_items, self.free_pos
        i = pos[c]
        last = items.pop()
        if last != c:
            items[i] = last
            pos[last] = i
        pos[c] = -1
        for qpos, qitems in self.fronts:
            i = qpos[c]
            if i >= 0:
                last = qitems.pop()
                if last != c:
                    qitems[i] = last
                    qpos[last] = i
                qpos[c] = -1
        pitems = self.piece_items[p]
        self.piece_pos[p][c] = len(pitems)
        pitems.append(c)
        self.zone_count[p][self.zone_of[c]] += 1
        a = self.adj[p]
        fitems, fpos = self.front_items[p], self.front_pos[p]
        for n in self.neighbours[c]:
            a[n] += 1
            if a[n] == 1 and owner[n] < 0:
                fpos[n] = len(fitems)
                fitems.append(n)
        self.holders[c] |= 1 << p

    def lift(self, p: int, c: int) -> None:
        owner = self.owner
        owner[c] = -1
        self.free_pos[c] = len(self.free_items)
        self.free_items.append(c)
        pitems, ppos = self.piece_items[p], self.piece_pos[p]
        i = ppos[c]
        last = pitems.pop()
        if last != c:
            pitems[i] = last
            ppos[last] = i
        ppos[c] = -1
        self.zone_count[p][self.zone_of[c]] -= 1
        a = self.adj[p]
        fitems, fpos = self.front_items[p], self.front_pos[p]
        for n in self.neighbours[c]:
            a[n] -= 1
            if a[n] == 0:
                i = fpos[n]
                if i >= 0:
                    last = fitems.pop()
                    if last != n:
                        fitems[i] = last
                        fpos[last] = i
                    fpos[n] = -1
        for q in self.players:
            if self.adj[q][c] > 0:
                qitems = self.front_items[q]
                self.front_pos[q][c] = len(qitems)
                qitems.append(c)

    def check_invariants(self) -> None:
        """Slow full consistency check, for tests."""
        n = self.board.n_cells
        assert sorted(self.free_items) == [c for c in range(n) if self.owner[c] < 0]
        for c, i in enumerate(self.free_pos):
            assert (i < 0) == (self.owner[c] >= 0) and (i < 0 or self.free_items[i] == c)
        for p in self.players:
            assert sorted(self.piece_items[p]) == [c for c in range(n) if self.owner[c] == p]
            for c in range(n):
                expect = sum(1 for m in self.neighbours[c] if self.owner[m] == p)
                assert self.adj[p][c] == expect, (p, c)
            want_front = sorted(c for c in range(n) if self.owner[c] < 0 and self.adj[p][c] > 0)
            assert sorted(self.front_items[p]) == want_front
            for i, c in enumerate(self.front_items[p]):
                assert self.front_pos[p][c] == i
            counts = [0] * self.n_zones
            for c in self.piece_items[p]:
                counts[self.zone_of[c]] += 1
            assert counts == self.zone_count[p]
            assert self.chips[p] >= 0 and self.supply[p] >= 0
        assert self.bank >= 0
        for z, zone in enumerate(self.board.zones):
            assert zone.minimum_index <= self.index[z] <= zone.die


__all__ = ["GameState"]

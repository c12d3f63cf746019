"""Proof that the jigsaw sections fit together one way only.

Each piece is described by its four sides in clockwise order (top, right, bottom, left as cut); a side is
``None`` on the board's border (a straight edge) or a tuple of knobs. A knob is ``(offset_mm, kind)`` or
``(offset_mm, kind, size_mm)``: ``offset_mm`` measured from the middle of the side along the piece's own
clockwise walk, ``kind`` +1 for a tab (sticks out) and -1 for a blank (a hole), ``size_mm`` the head's
diameter (a tab only fits a blank of its own size). Walking clockwise round a piece is unchanged by rotating it,
so a side's description travels with the piece whatever its rotation.

Two sides mate when their knobs pair up: the same number of knobs, each tab facing a blank at the mirrored
offset (the neighbour walks the shared edge the other way), within a tolerance. ``solve`` tries every
placement of every piece in every rotation (backtracking over the slots in reading order) and returns every
assembly in which all internal sides mate and only straight sides face the border. By default the side
lengths are ignored and quarter turns are allowed, so the check holds even for pieces of equal size.
Rotating a whole assembly gives the same assembly, so solutions are counted up to turning the whole board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boardgen.errors import LayoutError

Knob = tuple[float, ...]  # (offset_mm along the clockwise walk, +1 tab / -1 blank[, head size_mm])
Side = tuple[Knob, ...] | None  # None: a straight border side
Piece = tuple[Side, Side, Side, Side]  # top, right, bottom, left (clockwise)
Placement = tuple[int, int]  # (piece index, quarter turns clockwise)
Assembly = tuple[Placement, ...]  # one placement per slot, slots in reading order

TOP, RIGHT, BOTTOM, LEFT = range(4)


def side_after_turns(piece: Piece, direction: int, turns: int) -> Side:
    """The side facing ``direction`` once the piece is turned ``turns`` quarter turns clockwise."""
    return piece[(direction - turns) % 4]


def sides_mate(a: Side, b: Side, tolerance_mm: float) -> bool:
    """True when side ``a`` of one piece and side ``b`` of its neighbour interlock."""
    if a is None or b is None or len(a) != len(b):
        return False
    remaining = list(b)
    for knob in a:
        offset_mm, kind = knob[0], knob[1]
        size_mm = knob[2] if len(knob) > 2 else None
        match = next((k for k in remaining if k[1] == -kind and abs(k[0] + offset_mm) <= tolerance_mm
                      and (size_mm is None or len(k) < 3 or abs(k[2] - size_mm) <= tolerance_mm)), None)
        if match is None:
            return False
        remaining.remove(match)
    return True


@dataclass(frozen=True)
class FitReport:
    """What the solver found."""

    assemblies: tuple[Assembly, ...]  # one per distinct assembly (up to turning the whole board)
    raw_solutions: int  # every solution counted, including turned copies of the same assembly
    impostors: tuple[tuple[int, int, int], ...]  # (slot, piece, turns): a wrong piece that fits a slot locally
    nodes: int  # placements tried

    @property
    def unique(self) -> bool:
        return len(self.assemblies) == 1 and not self.impostors


def _slot_turn(rows: int, columns: int, slot: int, turns: int) -> int:
    """Where slot ``slot`` goes when the whole grid is turned ``turns`` quarter turns clockwise (square grids
    for odd turns)."""
    r, c = divmod(slot, columns)
    for _ in range(turns % 4):
        r, c = c, rows - 1 - r
        rows, columns = columns, rows
    return r * columns + c


def _canonical(assembly: Assembly, rows: int, columns: int) -> Assembly:
    """The smallest of an assembly's copies turned as a whole (180 degrees, and 90 when the grid is square)."""
    turns_allowed = (0, 1, 2, 3) if rows == columns else (0, 2)
    variants = []
    for t in turns_allowed:
        turned: list[Placement] = [(0, 0)] * len(assembly)
        for slot, (piece, turns) in enumerate(assembly):
            turned[_slot_turn(rows, columns, slot, t)] = (piece, (turns + t) % 4)
        variants.append(tuple(turned))
    return min(variants)


def _fits(pieces: Sequence[Piece], rows: int, columns: int, slot: int, piece: int, turns: int,
          placed: dict[int, Placement], tolerance_mm: float) -> bool:
    r, c = divmod(slot, columns)
    p = pieces[piece]
    for direction, (dr, dc) in ((TOP, (-1, 0)), (RIGHT, (0, 1)), (BOTTOM, (1, 0)), (LEFT, (0, -1))):
        side = side_after_turns(p, direction, turns)
        nr, nc = r + dr, c + dc
        if not (0 <= nr < rows and 0 <= nc < columns):
            if side is not None:
                return False
            continue
        if side is None:
            return False
        neighbour = placed.get(nr * columns + nc)
        if neighbour is not None:
            other = side_after_turns(pieces[neighbour[0]], (direction + 2) % 4, neighbour[1])
            if not sides_mate(side, other, tolerance_mm):
                return False
    return True


def solve(pieces: Sequence[Piece], rows: int, columns: int, tolerance_mm: float,
          lengths_mm: Sequence[tuple[float, float]] | None = None, limit: int = 1000) -> FitReport:
    """Every way to assemble ``pieces`` into a ``rows`` x ``columns`` grid.

    ``lengths_mm`` (width, height per piece, as cut) makes the solver also require that a turned piece's
    size matches the slot's size within 1 mm; ``None`` ignores sizes (the stronger check).
    """
    if len(pieces) != rows * columns:
        raise ValueError(f"{len(pieces)} pieces for a {rows} x {columns} grid")
    turns_allowed = (0, 1, 2, 3)
    solutions: list[Assembly] = []
    placed: dict[int, Placement] = {}
    used = [False] * len(pieces)
    nodes = 0

    def size_ok(piece: int, turns: int, slot: int) -> bool:
        if lengths_mm is None:
            return True
        w, h = lengths_mm[piece] if turns % 2 == 0 else lengths_mm[piece][::-1]
        sw, sh = lengths_mm[slot]
        return abs(w - sw) <= 1.0 and abs(h - sh) <= 1.0

    def place(slot: int) -> None:
        nonlocal nodes
        if len(solutions) >= limit:
            return
        if slot == len(pieces):
            solutions.append(tuple(placed[s] for s in range(len(pieces))))
            return
        for piece in range(len(pieces)):
            if used[piece]:
                continue
            for turns in turns_allowed:
                nodes += 1
                if not size_ok(piece, turns, slot) or not _fits(pieces, rows, columns, slot, piece, turns, placed,
                                                                tolerance_mm):
                    continue
                used[piece] = True
                placed[slot] = (piece, turns)
                place(slot + 1)
                del placed[slot]
                used[piece] = False

    place(0)
    distinct = sorted({_canonical(a, rows, columns) for a in solutions})

    # Local check: with every true neighbour in place, no other piece (in any turn) fits a slot.
    truth = {s: (s, 0) for s in range(len(pieces))}
    impostors = []
    for slot in range(len(pieces)):
        others = {s: p for s, p in truth.items() if s != slot}
        for piece in range(len(pieces)):
            for turns in turns_allowed:
                if (piece, turns) == (slot, 0):
                    continue
                if size_ok(piece, turns, slot) and _fits(pieces, rows, columns, slot, piece, turns, others,
                                                         tolerance_mm):
                    impostors.append((slot, piece, turns))
    return FitReport(tuple(distinct), len(solutions), tuple(impostors), nodes)


def check_unique_fit(pieces: Sequence[Piece], rows: int, columns: int, tolerance_mm: float,
                     lengths_mm: Sequence[tuple[float, float]] | None = None) -> FitReport:
    """``solve`` and raise LayoutError unless the as-cut assembly is the only one."""
    report = solve(pieces, rows, columns, tolerance_mm, lengths_mm)
    identity = _canonical(tuple((s, 0) for s in range(len(pieces))), rows, columns)
    if not report.assemblies or (report.assemblies[0] != identity and identity not in report.assemblies):
        raise LayoutError("board sections: the pieces as cut do not fit together (knob signatures disagree)")
    if len(report.assemblies) > 1:
        raise LayoutError(f"board sections: the pieces fit together in {len(report.assemblies)} different ways; "
                          "knobs must make the assembly unique (change sections.knob_spacing or the knobs)")
    if report.impostors:
        slot, piece, turns = report.impostors[0]
        raise LayoutError(f"board sections: piece {piece + 1} turned {turns * 90} degrees also fits the place of "
                          f"piece {slot + 1}; knobs must tell the pieces apart")
    return report

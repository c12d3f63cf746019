"""The compact board the rules engine plays on: cells as integers, neighbours as index tuples.

The engine never sees shapely geometry or hex maths; a ``RulesBoard`` is built once from a
``boardgen.geomap.model.Board`` (or by hand in tests) and is cheap to pickle to worker processes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from boardgen.games.global_wellbeing.schema import Config, RulesConfig
from boardgen.geomap.hexgrid import column_letters
from boardgen.geomap.spec import ZoneConfig


@dataclass(frozen=True)
class ZoneRules:
    """The per-zone numbers of the bio-productivity table."""

    name: str
    die: int
    minimum_index: int
    start_index: int
    badge_value: int

    @classmethod
    def from_config(cls, name: str, zone: ZoneConfig) -> ZoneRules:
        return cls(name, zone.die, zone.minimum_index, zone.start_index, zone.badge_value)


@dataclass(frozen=True)
class RulesBoard:
    """Cells 0..n-1 with their labels, zone index and neighbour indices (sorted, symmetric)."""

    labels: tuple[str, ...]
    zone_of: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    zones: tuple[ZoneRules, ...]
    corners_mm: tuple[tuple[tuple[float, float], ...], ...] | None = None  # for heat maps; optional

    def __post_init__(self) -> None:
        n = len(self.labels)
        if len(self.zone_of) != n or len(self.neighbours) != n:
            raise ValueError("labels, zone_of and neighbours must have one entry per cell")
        for i, nbrs in enumerate(self.neighbours):
            for j in nbrs:
                if not 0 <= j < n or j == i or i not in self.neighbours[j]:
                    raise ValueError(f"neighbour lists must be symmetric cell indices (cell {self.labels[i]})")
        for z in self.zone_of:
            if not 0 <= z < len(self.zones):
                raise ValueError(f"zone index {z} out of range")

    @property
    def n_cells(self) -> int:
        return len(self.labels)

    @property
    def zone_names(self) -> tuple[str, ...]:
        return tuple(z.name for z in self.zones)

    def zone_cell_counts(self) -> list[int]:
        counts = [0] * len(self.zones)
        for z in self.zone_of:
            counts[z] += 1
        return counts

    def index_of(self, label: str) -> int:
        return self.labels.index(label)

    @classmethod
    def from_board(cls, board: object) -> RulesBoard:
        """From a ``boardgen.geomap.model.Board`` (cells sorted by row, column; neighbours by label)."""
        cells = board.cells  # type: ignore[attr-defined]
        config: Config = board.config  # type: ignore[attr-defined]
        layout = board.layout  # type: ignore[attr-defined]
        zone_names = tuple(config.zones)
        position = {c.label: i for i, c in enumerate(cells)}
        neighbours = []
        for c in cells:
            nbrs = {position[label] for label in c.neighbours if label in position}
            neighbours.append(tuple(sorted(nbrs)))
        # make the lists symmetric even if the board's own lists are not
        sym = [set(n) for n in neighbours]
        for i, row in enumerate(neighbours):
            for j in row:
                sym[j].add(i)
        corners = tuple(tuple((float(x), float(y)) for x, y in layout.corners(c.hex)) for c in cells)
        return cls(
            labels=tuple(c.label for c in cells),
            zone_of=tuple(zone_names.index(c.zone) for c in cells),
            neighbours=tuple(tuple(sorted(s)) for s in sym),
            zones=tuple(ZoneRules.from_config(name, config.zones[name]) for name in zone_names),
            corners_mm=corners,
        )

    @classmethod
    def from_lists(cls, labels: Sequence[str], zones: Sequence[str], edges: Sequence[tuple[str, str]],
                   zone_config: Mapping[str, ZoneConfig]) -> RulesBoard:
        """A hand-made board: ``zones[i]`` is the zone name of ``labels[i]``; ``edges`` pairs of labels."""
        zone_names = tuple(zone_config)
        position = {label: i for i, label in enumerate(labels)}
        sym: list[set[int]] = [set() for _ in labels]
        for a, b in edges:
            sym[position[a]].add(position[b])
            sym[position[b]].add(position[a])
        return cls(
            labels=tuple(labels),
            zone_of=tuple(zone_names.index(z) for z in zones),
            neighbours=tuple(tuple(sorted(s)) for s in sym),
            zones=tuple(ZoneRules.from_config(name, zone_config[name]) for name in zone_names),
        )


def components(board: RulesBoard) -> list[list[int]]:
    """Connected components of the adjacency graph, largest first, each sorted (cells by index)."""
    seen = [False] * board.n_cells
    found: list[list[int]] = []
    for start in range(board.n_cells):
        if seen[start]:
            continue
        seen[start] = True
        stack, comp = [start], []
        while stack:
            c = stack.pop()
            comp.append(c)
            for n in board.neighbours[c]:
                if not seen[n]:
                    seen[n] = True
                    stack.append(n)
        found.append(sorted(comp))
    found.sort(key=lambda comp: (-len(comp), comp[0]))
    return found


def hex_rectangle(columns: int, rows: int, zone_config: Mapping[str, ZoneConfig],
                  holes: Sequence[tuple[int, int]] = ()) -> RulesBoard:
    """A synthetic board: a rectangle of pointy hexes (odd rows shifted right), zones in vertical bands.

    For tests and benchmarks when no real map is at hand; ``holes`` are (column, row) pairs left out.
    """
    zone_names = tuple(zone_config)
    skip = set(holes)
    cells = [(col, row) for row in range(rows) for col in range(columns) if (col, row) not in skip]
    position = {cr: i for i, cr in enumerate(cells)}
    labels, zones, neighbours = [], [], []
    for col, row in cells:
        labels.append(f"{column_letters(col)}{row + 1}")
        zones.append(min(len(zone_names) - 1, col * len(zone_names) // columns))
        if row % 2:  # odd rows sit half a hex to the right
            around = [(col - 1, row), (col + 1, row), (col, row - 1), (col + 1, row - 1), (col, row + 1),
                      (col + 1, row + 1)]
        else:
            around = [(col - 1, row), (col + 1, row), (col - 1, row - 1), (col, row - 1), (col - 1, row + 1),
                      (col, row + 1)]
        neighbours.append(tuple(sorted(position[cr] for cr in around if cr in position)))
    return RulesBoard(
        labels=tuple(labels),
        zone_of=tuple(zones),
        neighbours=tuple(neighbours),
        zones=tuple(ZoneRules.from_config(name, zone_config[name]) for name in zone_names),
    )


__all__ = ["RulesBoard", "RulesConfig", "ZoneRules", "components", "hex_rectangle"]

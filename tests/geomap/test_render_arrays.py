"""The board art's array paths draw exactly what their per-item forms draw: the zone symbols moved to every
cell at once (render/merge.flatten_copies) and Python's round(v, 3) over arrays (render/merge.round_3)."""

from __future__ import annotations

import struct

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgen.games.global_wellbeing import board_art
from boardgen.geomap.model import Board
from boardgen.render.merge import IDENTITY, flatten, flatten_copies, round_3
from boardgen.render.scene import Affine, Group, Style, translate
from boardgen.render.symbols import symbol_names, zone_symbol


def _bits(parts: list[tuple[Style, tuple[tuple, ...]]]) -> list[tuple[Style, list[tuple]]]:
    """The parts with every float as its 8 bytes (so -0.0 and 0.0 differ)."""
    return [(style, [tuple(struct.pack("<d", v) if isinstance(v, float) else v for v in cmd) for cmd in cmds])
            for style, cmds in parts]


def test_cell_symbols_match_the_per_cell_path(default_board: Board) -> None:
    local: dict = {}
    for zone in default_board.config.zones:
        own = [c for c in default_board.cells if c.zone == zone]
        fast = board_art._flat_symbols(default_board, own, {})
        slow = [flatten(board_art._cell_symbol(default_board, c), local=local) for c in own]
        assert [_bits(p) for p in fast] == [_bits(p) for p in slow]  # type: ignore[arg-type]


def test_every_symbol_moved_anywhere_matches_flatten() -> None:
    rng = np.random.default_rng(11)
    places = [(float(x), float(y)) for x, y in rng.uniform(-700, 700, (60, 2))] + [(0.0, 0.0), (-0.0, -0.0)]
    for name in symbol_names():
        for size in (2.5, 3.7, 11.0):
            symbols = [zone_symbol(name, x, y, size, "#2a6f4e", detail="#ffffff") for x, y in places]
            transforms = [IDENTITY @ s.transform for s in symbols if s.transform is not None]
            fast = flatten_copies(Group(symbols[0].items), transforms)
            assert [_bits(p) for p in fast] == [_bits(flatten(s)) for s in symbols], name


def test_copies_with_their_own_scale_fall_back_to_flatten() -> None:
    symbol = zone_symbol(symbol_names()[0], 0.0, 0.0, 1.0)
    transforms = [translate(3.0, 4.0), Affine(a=2.0, d=2.0, e=1.0, f=1.0)]
    assert flatten_copies(Group(symbol.items), transforms) == [flatten(Group(symbol.items), t) for t in transforms]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e7, max_value=1e7), min_size=1))
def test_round_3_is_pythons_round(values: list[float]) -> None:
    halves = [k / 1000 + 0.0005 for k in range(-3000, 3000, 7)]  # near-halves, where rint(v * 1000) can slip
    values = values + halves + [-v for v in halves] + [-0.0, 0.0, -0.0004, 2.675, 1e12, -1e12]
    got = round_3(np.array(values)).tolist()
    assert [struct.pack("<d", v) for v in got] == [struct.pack("<d", round(v, 3)) for v in values]

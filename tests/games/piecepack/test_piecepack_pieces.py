"""The printable piecepack: 24 tiles, 24 two-sided coins, 4 pawns, 4 dice; what each side shows; sheets."""

from __future__ import annotations

import pytest

from boardgen.cards.sheets import lay_out
from boardgen.games.global_warming.schema import PiecepackSpec
from boardgen.games.piecepack.drawing import check_symbols, piecepack_sets, symbol_geometry
from boardgen.render.cairo_backend import render_pdf
from boardgen.render.imposition import A4, LETTER
from boardgen.render.scene import Group, Path, Scene, Text

SPEC = PiecepackSpec()


def _walk(items: tuple) -> list:
    out = []
    for op in items:
        out.append(op)
        if isinstance(op, Group):
            out.extend(_walk(op.items))
    return out


def _sets() -> dict:
    return {s.kind: s for s in piecepack_sets(SPEC)}


def test_inventory_is_the_standard_piecepack() -> None:
    assert [(s.kind, len(s.components)) for s in piecepack_sets(SPEC)] == [("tile", 24), ("coin", 24), ("pawn", 4),
                                                                            ("die", 4)]
    sets = _sets()
    assert {k: len(s.components) for k, s in sets.items()} == {"tile": 24, "coin": 24, "pawn": 4, "die": 4}


def test_standard_sizes_in_inches() -> None:
    sets = _sets()
    tile, coin = sets["tile"].components[0], sets["coin"].components[0]
    assert tile.width_mm == tile.height_mm == pytest.approx(50.8)
    assert coin.width_mm == pytest.approx(19.05)
    die = sets["die"].components[0]
    faces = [op for op in _walk(die.front.items) if isinstance(op, Path) and op.name == "die-face"]
    assert len(faces) == 6
    for face in faces:
        xs = [c[1] for c in face.commands if c[0] in "ML"]
        assert max(xs) - min(xs) == pytest.approx(15.875, abs=0.01)  # 5/8 in


def test_suit_symbols_are_valid_shapes_in_a_unit_box() -> None:
    assert check_symbols() == []
    areas = {name: symbol_geometry(name).area for name in ("sun", "moon", "crown", "arms")}
    assert all(0.1 < a < 0.6 for a in areas.values()), areas


def test_every_tile_back_is_the_same_and_shows_the_grid() -> None:
    backs = {repr(t.back) for t in _sets()["tile"].components}
    assert len(backs) == 1  # face-down tiles cannot be told apart
    back = _sets()["tile"].components[0].back
    assert isinstance(back, Scene)
    assert sum(1 for op in _walk(back.items) if isinstance(op, Path) and op.name == "grid") == 3


def test_tile_faces_show_rank_in_suit_colour_and_a_suit_mark() -> None:
    for i, tile in enumerate(_sets()["tile"].components):
        suit, rank = divmod(i, 6)
        ops = _walk(tile.front.items)
        texts = [op for op in ops if isinstance(op, Text)]
        assert [t.text for t in texts] == ([SPEC.ranks[rank]] if SPEC.ranks[rank] else [])
        assert all(t.colour == SPEC.suits[suit].colour for t in texts)
        marks = [op for op in ops if isinstance(op, Path) and op.name == "directional-mark"]
        assert len(marks) == 1 and marks[0].style.fill == SPEC.suits[suit].colour


def test_coin_value_sides_never_tell_the_suit() -> None:
    coins = _sets()["coin"].components
    for rank in range(6):
        sides = {repr(coins[suit * 6 + rank].front) for suit in range(4)}
        assert len(sides) == 1  # the same rank looks the same in every suit
    for i, coin in enumerate(coins):
        suit = i // 6
        colours = {op.style.fill for op in _walk(coin.back.items) if isinstance(op, Path) and op.style.fill}
        assert SPEC.suits[suit].colour in colours
        texts = [op for op in _walk(coin.back.items) if isinstance(op, Text)]
        assert texts == []  # the suit side shows no value


def test_each_die_has_null_ace_and_two_to_five_once() -> None:
    for die in _sets()["die"].components:
        faces = sorted(op.name for op in _walk(die.front.items)
                       if isinstance(op, Group) and op.name.startswith("face-"))
        assert faces == sorted(f"face-{n}" for n in SPEC.rank_names)
        assert len(die.folds) == 5 + 7  # 5 folds between faces, 7 tabs


def test_pawns_are_fold_over_standees_in_suit_colours() -> None:
    for suit, pawn in enumerate(_sets()["pawn"].components):
        assert len(pawn.folds) == 3
        fills = {op.style.fill for op in _walk(pawn.front.items) if isinstance(op, Path)}
        assert SPEC.suits[suit].colour in fills


@pytest.mark.parametrize("paper", [A4, LETTER])
def test_sheets_on_a4_and_letter_duplex_and_fold(paper) -> None:
    sets = _sets()
    tiles = lay_out(sets["tile"], paper, "t", "duplex")
    assert tiles.per_sheet == 12 and len(tiles.pages) == 4  # 2 fronts + 2 backs
    coins = lay_out(sets["coin"], paper, "c", "duplex")
    assert coins.front_sheets == 1 and len(coins.pages) == 2
    folded = lay_out(sets["tile"], paper, "t", "fold")
    assert all(c.folds for c in folded.cut_sheets)
    assert len(folded.pages) == folded.front_sheets  # single-sided


def test_piecepack_pages_render_the_same_bytes_twice() -> None:
    pages = lay_out(_sets()["coin"], A4, "coins", "duplex").pages
    assert render_pdf(pages, "x") == render_pdf(pages, "x")


def test_inverted_suited_sides_put_the_symbol_on_the_suit_colour() -> None:
    spec = PiecepackSpec(invert_suited=True)
    sets = {s.kind: s for s in piecepack_sets(spec)}
    tile = sets["tile"].components[6 + 2]  # the 2 of Moons
    ground = next(op for op in _walk(tile.front.items) if isinstance(op, Path) and op.name == "ground")
    assert ground.style.fill == spec.suits[1].colour
    assert all(t.colour == spec.background for t in _walk(tile.front.items) if isinstance(t, Text))
    assert repr(sets["tile"].components[0].back) == repr(_sets()["tile"].components[0].back)  # backs unchanged

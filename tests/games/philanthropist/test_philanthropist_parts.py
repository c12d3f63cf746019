"""The Philanthropist's small parts: the avatar chips' marks stay apart and inside the chip's inner ring."""

from __future__ import annotations

from pathlib import Path

import pytest
from shapely.geometry import box

from boardgen.cards.shapes import player_shape
from boardgen.games.philanthropist import parts
from boardgen.render.cairo_backend import cap_height_mm, text_width_mm
from boardgen.render.scene import Text
from boardgen.template import load

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("seat", range(4))
def test_avatar_name_and_dollar_never_touch_and_stay_inside(seat: int) -> None:
    t = load(ROOT / "templates" / "philanthropist.yaml")[1]
    s = t.players.seats[seat]
    d = t.kit.avatar_chip_mm
    chip = parts.avatar_chip(t, seat)
    texts = {op.text: op for op in chip.front.items if isinstance(op, Text)}
    name, dollar = texts[s.name.upper()], texts["$"]
    assert name.font.size_pt >= 6.0
    ring = player_shape(s.shape, d / 2, d / 2, d).buffer(-d * 0.08)

    def extent(op: Text, height: float) -> object:
        w = text_width_mm(op.text, op.font)
        return box(op.x - w / 2, op.y - height / 2, op.x + w / 2, op.y + height / 2)

    name_box = extent(name, cap_height_mm(name.font))
    dollar_box = extent(dollar, cap_height_mm(dollar.font) * parts.DOLLAR_HEIGHT)
    assert ring.contains(name_box) and ring.contains(dollar_box)
    assert name_box.distance(dollar_box) >= 0.5  # type: ignore[attr-defined]


def test_player_aid_type_is_readable_and_inside_the_card() -> None:
    t = load(ROOT / "templates" / "philanthropist.yaml")[1]
    aid = parts.player_aid(t)
    texts = [op for op in aid.front.items if isinstance(op, Text)]
    assert len(texts) >= 10
    assert min(op.font.size_pt for op in texts) >= 7.5
    for op in texts:
        w = text_width_mm(op.text, op.font)
        left = op.x - w / 2 if op.align == "center" else op.x
        assert left >= 0.0 and left + w <= aid.width_mm, op.text
        assert 0.0 <= op.y <= aid.height_mm - 1.0, op.text
    words = " ".join(op.text for op in texts)
    for phrase in ("MOVE", "PAYDAY", "CARD", "black: 1", "red: 5", "Most meeples wins."):
        assert phrase in words


def test_meeple_and_cube_token_words_are_at_least_6_pt() -> None:
    """The small words on meeples and cube tokens (colour, cost, "cubes") were 4.5-6 pt: too small to read."""
    t = load(ROOT / "templates" / "philanthropist.yaml")[1]
    for i in range(len(t.meeples.kinds)):
        standee = parts.meeple_standee(t, i)
        sizes = [op.font.size_pt for op in standee.front.walk() if isinstance(op, Text)]
        assert len(sizes) >= 6 and min(sizes) >= 6.0
    for value in t.cubes.supply:
        token = parts.cube_token(t, value)
        sizes = [op.font.size_pt for op in token.front.items if isinstance(op, Text)]
        assert min(sizes) >= 6.0


def test_card_badges_say_what_happens_to_the_cubes() -> None:
    """Bankruptcy's badge said "0", which reads as "nothing happens"; the badges of the two proportional cards
    now multiply."""
    from boardgen.games.philanthropist.schema import load_cards

    t = load(ROOT / "templates" / "philanthropist.yaml")[1]
    badges = {c.effect: parts.effect_value(c) for c in load_cards(t)}
    assert badges["lose all"] == "×0" and badges["lose half"] == "×½"
    assert badges["gain 6"] == "+6" and badges["lose 3"] == "-3"


def test_board_cost_key_pips_stay_clear_of_the_grid() -> None:
    """The five pips of the red meeple's cost ran to within 0.6 mm of the grid's edge in the 19 mm frame."""
    from boardgen.games.philanthropist.board import _cost_key
    from boardgen.render.scene import Circle

    t = load(ROOT / "templates" / "philanthropist.yaml")[1]
    band = t.board.border_mm
    ops = _cost_key(t, 0.0, 0.0, 500.0, band, "#ffffff")
    dots = [op for op in ops if isinstance(op, Circle)]
    assert len(dots) == sum(k.cost for k in t.meeples.kinds)
    assert all(d.cy - d.r >= 1.5 and d.cy + d.r <= band - 1.5 for d in dots)

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

ROOT = Path(__file__).resolve().parents[1]


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

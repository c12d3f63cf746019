"""Fixes from the fresh-eyes review of the BETTER Life kit: cut files, leaflet fonts, printed texts."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from boardgen.cards.sheets import lay_out
from boardgen.games.better_life.cards import Decks, load_decks
from boardgen.games.better_life.kit import ip_tokens
from boardgen.games.better_life.model import BetterLifeTemplate
from boardgen.render.imposition import A4
from boardgen.template import load

TEMPLATE = Path(__file__).resolve().parents[1] / "templates" / "better-life.yaml"


@pytest.fixture(scope="module")
def loaded() -> tuple[BetterLifeTemplate, Decks]:
    _plugin, config = load(TEMPLATE)
    return config, load_decks(config.decks, config.source)


def test_token_cut_lines_are_circles_of_the_token_size(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    """A placed part's arc keeps its radius: the cut file held pie wedges up to 190 mm across before."""
    config, _decks = loaded
    laid = lay_out(ip_tokens(config), A4, "tokens", "duplex")
    arcs = [c for sheet in laid.cut_sheets for path in sheet.cuts for c in path if c[0] in ("A", "AN")]
    assert len(arcs) == sum(config.ip.denominations.values())
    r = config.kit.token_mm / 2
    for _a, cx, cy, radius, a0, a1 in arcs:
        assert radius == pytest.approx(r)
        assert (a0, a1) == (0.0, pytest.approx(2 * math.pi))
        assert r <= cx <= A4.width_mm - r and r <= cy <= A4.height_mm - r
    for sheet in laid.cut_sheets:  # each circle starts on its own rim
        for path in sheet.cuts:
            (_m, x, y), (_a, cx, cy, radius, *_rest) = path[0], path[1]
            assert math.hypot(x - cx, y - cy) == pytest.approx(radius)

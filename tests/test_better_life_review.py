"""Fixes from the fresh-eyes review of the BETTER Life kit: cut files, leaflet fonts, printed texts."""

from __future__ import annotations

import io
import math
from collections import Counter
from pathlib import Path

import pikepdf
import pytest

from boardgen.cards.sheets import lay_out
from boardgen.games.better_life.board import KIND_ICONS, board_scene, track_board
from boardgen.games.better_life.cards import Decks, load_decks
from boardgen.games.better_life.kit import ip_tokens
from boardgen.games.better_life.leaflet import leaflet_pdf
from boardgen.games.better_life.model import BetterLifeTemplate
from boardgen.render.imposition import A4, LETTER, Paper
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


def _fonts(res: pikepdf.Dictionary, out: list[pikepdf.Dictionary]) -> None:
    for font in (res.get("/Font") or {}).values():
        out.append(font)
    for xobj in (res.get("/XObject") or {}).values():
        if "/Resources" in xobj:
            _fonts(xobj.Resources, out)


def _embedded(font: pikepdf.Dictionary) -> bool:
    descs = [font.get("/FontDescriptor")] + [d.get("/FontDescriptor") for d in font.get("/DescendantFonts", [])]
    return any(d is not None and any(k in d for k in ("/FontFile", "/FontFile2", "/FontFile3")) for d in descs)


@pytest.mark.parametrize("paper", [A4, LETTER])
def test_leaflet_embeds_every_font(loaded: tuple[BetterLifeTemplate, Decks], paper: Paper) -> None:
    """reportlab's default Helvetica was listed, unembedded, in every panel: a print shop's preflight fails."""
    config, decks = loaded
    data, sides = leaflet_pdf(config, decks, paper, track_board(config))
    fonts: list[pikepdf.Dictionary] = []
    pdf = pikepdf.open(io.BytesIO(data))
    for page in pdf.pages:
        _fonts(page.Resources, fonts)
    assert sides == 2 and fonts
    names = {str(f.BaseFont) for f in fonts}
    assert not any("Helvetica" in n for n in names), names
    assert all(_embedded(f) for f in fonts)


def test_fund_and_payout_spaces_look_different(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    """Both Fund spaces drew the same jar; now an arrow points into it (pay) or out of it (payout)."""
    config, _decks = loaded
    assert KIND_ICONS["fund"] != KIND_ICONS["payout"]
    scene, _avoid = board_scene(config, track_board(config))
    names = Counter(op.name for op in scene.walk())
    assert names["icon-fund-in"] == config.track.spaces.count("fund") == 2
    assert names["icon-fund-out"] == config.track.spaces.count("payout") == 1

"""The piecepack's one-page leaflet: what a piecepack holds and how to make it from the kit's files (the
piecepack has no rules of its own; a piecepack game's leaflet has its rules)."""

from __future__ import annotations

from typing import Any

from boardgen.games.piecepack.drawing import symbol_path
from boardgen.render.cairo_backend import render_pdf
from boardgen.render.imposition import Paper, Placement, compose_sheet, content_area
from boardgen.render.scene import Font, Op, Rect, Scene, Text

INK = "#1a1a1a"


def leaflet_lines(config: Any) -> list[str]:
    spec = config.piecepack
    suits = ", ".join(s.name for s in spec.suits)
    ranks = ", ".join(spec.rank_names)
    return [
        f"A piecepack is a set of pieces for many games: {len(spec.suits)} suits ({suits}), each with",
        f"{len(spec.ranks)} tiles, {len(spec.ranks)} coins, a pawn and a die. The ranks are {ranks}.",
        f"Tiles are {spec.tile_size_mm:g} mm squares: a face with the suit and rank, a back with a 2 x 2 grid.",
        f"Coins are {spec.coin_diameter_mm:g} mm discs: a value side and a suit side.",
        "",
        "To make it: print components-<paper>.pdf at 100% (measure the 100 mm bar), the tiles and coins",
        "double-sided as the README says, the pawns and dice single-sided. Cut, fold and glue as each sheet's",
        "title says. No double-sided printer? Print components-fold-<paper>.pdf instead.",
        "",
        "Games to play with it are listed at piecepack.org; Global Warming is one (game: global-warming).",
    ]


def leaflet_pdf(config: Any, paper: Paper) -> tuple[bytes, int]:
    """(pdf bytes, pages): one page."""
    area = content_area(paper)
    ops: list[Op] = [Text(0.0, 8.0, f"{config.title}: what it holds and how to make it", Font(size_pt=14, bold=True),
                          INK)]
    for i, line in enumerate(leaflet_lines(config)):
        ops.append(Text(0.0, 20.0 + i * 5.0, line, Font(size_pt=9), INK))
    y = 20.0 + len(leaflet_lines(config)) * 5.0 + 10.0
    for i, suit in enumerate(config.piecepack.suits):
        ops.append(symbol_path(suit.symbol, 6 + i * 35, y, 8, suit.colour))
        ops.append(Text(12 + i * 35, y + 1.5, suit.name, Font(size_pt=9), INK))
    page = compose_sheet(paper, [Placement(Rect(area.x, area.y, area.width, y + 10), Scene(tuple(ops)),
                                           "leaflet", 0.0)], f"{config.title}: leaflet", "what it holds",
                         marks=False)
    return render_pdf([page], title=f"{config.title}: leaflet ({paper.name})"), 1

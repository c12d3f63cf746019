"""The piecepack's one-page leaflet: what a piecepack holds and how to make it from the kit's files (the
piecepack has no rules of its own; a piecepack game's leaflet has its rules)."""

from __future__ import annotations

from typing import Any

from boardgen.games.piecepack.drawing import symbol_path
from boardgen.i18n import current
from boardgen.render.cairo_backend import fit_font_or_fail, render_pdf
from boardgen.render.imposition import Paper, Placement, compose_sheet, content_area
from boardgen.render.scene import Font, Op, Rect, Scene, Text

INK = "#1a1a1a"


def leaflet_lines(config: Any) -> list[str]:
    """The leaflet's lines in the edition's words (each paragraph one message; its line breaks are the
    translator's, kept as ``\\n``)."""
    tr = current()
    _ = tr.gettext
    spec = config.piecepack
    suits = ", ".join(s.name for s in spec.suits)
    ranks = ", ".join(spec.rank_names)
    # TRANSLATORS: the leaflet's paragraphs print line by line: keep the line breaks (\n) where a line fills the
    # page's width (a line too wide for the page is a build error).
    paragraphs = [
        _("A piecepack is a set of pieces for many games: {suits} suits ({names}), each with\n"
          "{ranks} tiles, {ranks} coins, a pawn and a die. The ranks are {rank_names}.").format(
            suits=len(spec.suits), names=suits, ranks=len(spec.ranks), rank_names=ranks),
        _("Tiles are {size} mm squares: a face with the suit and rank, a back with a 2 x 2 grid.").format(
            size=tr.number(spec.tile_size_mm)),
        _("Coins are {size} mm discs: a value side and a suit side.").format(size=tr.number(spec.coin_diameter_mm)),
        "",
        # TRANSLATORS: {paper} is the word for the paper size in a file name (components-<paper>.pdf).
        _("To make it: print components-<{paper}>.pdf at 100% (measure the 100 mm bar), the tiles and coins\n"
          "double-sided as the README says, the pawns and dice single-sided. Cut, fold and glue as each sheet's\n"
          "title says. No double-sided printer? Print components-fold-<{paper}>.pdf instead.").format(
            paper=_("paper")),
        "",
        _("Games to play with it are listed at piecepack.org; Global Warming is one (game: global-warming)."),
    ]
    return [line for paragraph in paragraphs for line in paragraph.split("\n")]


def leaflet_pdf(config: Any, paper: Paper) -> tuple[bytes, int]:
    """(pdf bytes, pages): one page; a line too wide for the page is a LayoutError naming it and the language."""
    _ = current().gettext
    area = content_area(paper)
    where = f"{config.source}: leaflet (language {current().language})"
    title = _("{title}: what it holds and how to make it").format(title=config.title)
    ops: list[Op] = [Text(0.0, 8.0, title, fit_font_or_fail(title, Font(size_pt=14, bold=True), area.width, where),
                          INK)]
    lines = leaflet_lines(config)
    for i, line in enumerate(lines):
        ops.append(Text(0.0, 20.0 + i * 5.0, line, fit_font_or_fail(line, Font(size_pt=9), area.width, where), INK))
    y = 20.0 + len(lines) * 5.0 + 10.0
    for i, suit in enumerate(config.piecepack.suits):
        ops.append(symbol_path(suit.symbol, 6 + i * 35, y, 8, suit.colour))
        ops.append(Text(12 + i * 35, y + 1.5, suit.name, Font(size_pt=9), INK))
    page = compose_sheet(paper, [Placement(Rect(area.x, area.y, area.width, y + 10), Scene(tuple(ops)),
                                           "leaflet", 0.0)], _("{title}: leaflet").format(title=config.title),
                         _("what it holds"), marks=False)
    return render_pdf([page], title=_("{title}: leaflet ({paper})").format(title=config.title, paper=paper.name)), 1

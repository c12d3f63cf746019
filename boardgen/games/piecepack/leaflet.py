"""The piecepack's one-page leaflet: what a piecepack holds and how to make it from the kit's files (the
piecepack has no rules of its own; a piecepack game's leaflet has its rules). Its words, every number from the
template; set by the shared typesetter (``boardgen.kit.leaflet``), the suit symbols drawn as on the pieces."""

from __future__ import annotations

from typing import Any

from boardgen.games.piecepack.drawing import symbol_path
from boardgen.i18n import current
from boardgen.kit.leaflet import COLUMNS, Block, Cell, Leaflet, Table, pdf_picture
from boardgen.kit.leaflet import leaflet_pdf as typeset
from boardgen.render.cairo_backend import Page, render_pdf
from boardgen.render.imposition import Paper
from boardgen.render.scene import Scene

SYMBOL_MM = 7.0


def suit_symbols(config: Any) -> bytes:
    """One page per suit: its symbol in its colour, ``SYMBOL_MM`` square."""
    c = SYMBOL_MM / 2
    return render_pdf([Page(SYMBOL_MM, SYMBOL_MM, Scene((symbol_path(s.symbol, c, c, SYMBOL_MM * 0.9, s.colour),)),
                            label=s.name) for s in config.piecepack.suits], title="suit symbols")


def leaflet(config: Any) -> Leaflet:
    """The leaflet's words in the edition's language."""
    tr = current()
    _ = tr.gettext
    spec = config.piecepack
    symbols = suit_symbols(config)
    suits: list[tuple[Cell, ...]] = [("", _("Suit"))]
    suits += [(pdf_picture(symbols, i, 1.0, size_pt=SYMBOL_MM * 72 / 25.4), s.name)
              for i, s in enumerate(spec.suits)]
    holds = Block(_("What it holds"), (
        _("A piecepack is a set of pieces for many games: {suits} suits ({names}), each with {ranks} tiles, "
          "{ranks} coins, a pawn and a die. The ranks are {rank_names}.").format(
            suits=len(spec.suits), names=", ".join(s.name for s in spec.suits), ranks=len(spec.ranks),
            rank_names=", ".join(spec.rank_names)),
        _("Tiles are {size} mm squares: a face with the suit and rank, a back with a 2 x 2 grid.").format(
            size=tr.number(spec.tile_size_mm)),
        _("Coins are {size} mm discs: a value side and a suit side.").format(size=tr.number(spec.coin_diameter_mm)),
    ), table=Table(tuple(suits), (1.0, 4.0), centre_first_column=True))
    make = Block(_("To make it"), (
        # TRANSLATORS: {paper} is the word for the paper size in a file name (components-<paper>.pdf).
        _("Print components-<{paper}>.pdf at 100% (measure the 100 mm bar), the tiles and coins double-sided as "
          "the README says, the pawns and dice single-sided. Cut, fold and glue as each sheet's title says. No "
          "double-sided printer? Print components-fold-<{paper}>.pdf instead.").format(paper=_("paper")).replace(
              "<", "&lt;").replace(">", "&gt;"),
    ))
    games = Block(_("Games to play"), (
        _("Games to play with it are listed at piecepack.org; Global Warming is one (game: global-warming)."),))
    return Leaflet(config.title, (holds, make, games), config.source, fold=COLUMNS, sheets=(1,),
                   subject=config.edition, document=_("{title}: leaflet").format(title=config.title))


def leaflet_pdf(config: Any, paper: Paper) -> tuple[bytes, int]:
    """(pdf bytes, pages): one page; words that do not fit it are a FitError naming the template."""
    return typeset(leaflet(config), paper)

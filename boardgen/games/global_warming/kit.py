"""Global Warming's kit: the piecepack (``boardgen.games.piecepack``) and a table sheet with the island plans
and the line of coins, in one components file, through the shared kit assembler (``boardgen.kit.assembler``),
with this game's leaflet, its parts (the coin bag, not printed) and rules.txt.
"""

from __future__ import annotations

from typing import Any

from boardgen.cards.model import Component
from boardgen.cards.sheets import LaidOut
from boardgen.games.piecepack.drawing import piecepack_sets, symbol_path
from boardgen.games.piecepack.kit import (
    FOLD_HOW,
    FOLD_HOW_TO,
    HOW_TO,
    TOOLS,
    fold_lay,
    lay_piecepack,
    papers,
    piecepack_parts,
)
from boardgen.i18n import N_, current
from boardgen.io import Artifact
from boardgen.kit.assembler import KitSpec, assemble_kit
from boardgen.kit.parts import KitParts, Part
from boardgen.kit.shape import COMPONENTS
from boardgen.plugin import BuildContext
from boardgen.render.cairo_backend import Page, fit_font_or_fail
from boardgen.render.imposition import (
    Paper,
    Placement,
    compose_sheet,
    content_area,
)
from boardgen.render.scene import Circle, Font, Op, Path, Rect, RectOp, Scene, Style, Text, rect_path

INK = "#1a1a1a"
COIN_BAG = "coin bag"
TABLE_HOW = N_("Print single-sided on plain paper or card; lay it beside the island (nothing to cut).")
PLAN_TITLES = {"basic": N_("Basic island"), "orthogonal": N_("Variant: edge neighbours out"),
               "diagonal": N_("Variant: corner neighbours out")}


def table_piece(config: Any, paper: Paper) -> Component:
    page = table_sheet(config, paper)
    return Component("mat", "table sheet", page.width_mm, page.height_mm, page.scene,
                     rect_path(Rect(0.0, 0.0, page.width_mm, page.height_mm)))


def kit_parts(ctx: BuildContext) -> KitParts:
    """Global Warming's box, declared once (``boardgen.kit.parts``): the piecepack (its coins drawn from the
    bag), the table sheet and the coin bag (not printed)."""
    config = ctx.config
    declared = piecepack_parts(config.piecepack, bag=COIN_BAG)
    sheet = table_piece(config, papers(config)[0])
    declared.append(Part("table sheet", "mat", 1, sheet.width_mm, sheet.height_mm, pieces=(sheet,), file=COMPONENTS,
                         sheet_kind="mat"))
    declared.append(Part(COIN_BAG, "bag", 1, 120.0, 160.0, printed=False, colour="#7a5c3a"))
    return KitParts(config.game, config.title, tuple(declared),
                    (TOOLS, N_("for the coin bag, any cup or opaque bag the coins can be drawn from unseen")))


def engine_part_counts(ctx: BuildContext) -> dict[str, int]:
    """The engine's numbers: its tiles and coins (one per suit and rank) and the coins in its bag."""
    from boardgen.games.global_warming.rules.engine import RANKS, SUITS, TILES

    spec = ctx.config.piecepack
    counts = {f"{kind} of {s.name}": RANKS for s in spec.suits[:SUITS] for kind in ("tile", "coin")}
    counts[COIN_BAG] = 1 if len(spec.suits) * len(spec.ranks) == TILES else 0
    return counts


def table_laid(config: Any, paper: Paper) -> LaidOut:
    """The table sheet as the components file's last page (single-sided, nothing to cut)."""
    page = table_sheet(config, paper)
    title = current().gettext("Table sheet: the island plans and the line of coins")
    return LaidOut("mat", title, (page,), (), 1, 1, registered=False)


def kit_stage(ctx: BuildContext) -> list[Artifact]:
    from boardgen.games.global_warming.leaflet import leaflet_content
    from boardgen.kit.leaflet import leaflet_pdf

    config = ctx.config
    sets = piecepack_sets(config.piecepack)
    words = leaflet_content(config)  # one leaflet for every paper: its trials reuse the pictures' sizes

    def pieces(paper: Paper) -> list[LaidOut]:
        return lay_piecepack(config, sets, paper, config.print.backs)

    spec = KitSpec(
        config.title, kit_parts(ctx), lambda paper: [*pieces(paper), table_laid(config, paper)],
        lambda paper, _kit: leaflet_pdf(words, paper),
        N_("the rules, one sheet printed on both sides (flip on the long edge)."), {**HOW_TO, "mat": TABLE_HOW},
        cut_lay=pieces, cut_contents=N_("the piecepack"), fold_lay=fold_lay(config), fold_how=FOLD_HOW,
        fold_how_to=FOLD_HOW_TO,
        papers=papers(config), box_extra=((1, N_("rules leaflet"), N_("one sheet")),),
        data_files=(Artifact("rules.txt", words.document_text().encode(), "the leaflet's words as plain text."),))
    return assemble_kit(ctx, spec)


# ------------------------------------------------------------------------------------------ the table sheet


def _fitted(text: str, font: Font, width_mm: float, config: Any) -> Font:
    """``font`` for ``text`` on the table sheet, shrunk to fit ``width_mm`` (a translation runs longer); a line
    too wide even at the smallest size is a LayoutError naming the text and the edition's language."""
    where = f"{config.source}: table sheet (language {current().language})"
    return fit_font_or_fail(text, font, width_mm, where)


def _island_plan(config: Any, setup: str, x: float, y: float, cell: float, width_mm: float) -> list[Op]:
    from boardgen.games.global_warming.rules.engine import island_shape

    ops: list[Op] = []
    cells = island_shape(setup, 1)
    moved = {(3, 0), (0, 3), (6, 3), (3, 6)}
    for cx, cy in cells:
        fill = "#c9bb8f" if setup != "basic" and (cx, cy) in moved else config.piecepack.tile_back
        ops.append(RectOp(Rect(x + cx * cell, y + cy * cell, cell * 0.92, cell * 0.92),
                          Style(fill=fill, stroke=config.piecepack.grid_colour, stroke_width_mm=0.3)))
    ops.append(RectOp(Rect(x + 3 * cell, y + 3 * cell, cell * 0.92, cell * 0.92),
                      Style(stroke="#6b8fb3", stroke_width_mm=0.3, dash_mm=(0.8, 0.8))))
    title = current().gettext(PLAN_TITLES[setup])
    font = _fitted(title, Font(size_pt=8, bold=True), width_mm, config)
    ops.append(Text(x + 3.5 * cell, y - 1.5, title, font, INK, align="center"))
    return ops


def table_sheet(config: Any, paper: Paper) -> Page:
    """The island plans of the three setups and a full-size mat for the line of coins."""
    page_area = content_area(paper)
    area = Rect(0.0, 0.0, page_area.width, page_area.height)  # the sheet's art in its own coordinates
    _ = current().gettext
    ops: list[Op] = []
    cell = min(8.0, area.width / 3 / 7.6)
    for k, setup in enumerate(("basic", "orthogonal", "diagonal")):
        ops.extend(_island_plan(config, setup, area.x + k * area.width / 3 + (area.width / 3 - 7 * cell) / 2,
                                area.y + 10, cell, area.width / 3))
    y = area.y + 10 + 7.5 * cell + 8
    # TRANSLATORS: each line of these two sentences prints as its own line across the sheet: keep the line
    # breaks (\n) where the words fill about a page's width.
    lines = _("Lay the 24 tiles grid side up in the shape of the plan, then turn each one over where it lies.\n"
              "Dashed: the empty middle. In the variants, the four darker tiles are the ones moved out from beside\n"
              "the middle to the middle of each outer edge before the tiles are turned up.").split("\n")
    for i, text in enumerate(lines):
        ops.append(Text(area.x, y + i * 4.2, text, _fitted(text, Font(size_pt=8), area.width, config), INK))
    y += len(lines) * 4.2 + 10
    d = config.piecepack.coin_diameter_mm
    n = config.rules.line_length
    gap = 14.0
    mat_w = n * d + (n + 1) * gap + 30
    x0 = area.x + (area.width - mat_w) / 2
    ops.append(RectOp(Rect(x0, y, mat_w, d + 22), Style(fill="#eef4f8", stroke="#6b8fb3", stroke_width_mm=0.4)))
    heading = _("The line of coins: the tiles that sink next")
    ops.append(Text(x0 + 4, y + 5.5, heading, _fitted(heading, Font(size_pt=8, bold=True), mat_w - 8, config), INK))
    labels = [_("sinks this turn")] + [current().ngettext("sinks in {n} turn", "sinks in {n} turns", k).format(n=k)
                                       for k in range(1, n)]
    for i in range(n):
        cx = x0 + gap + d / 2 + i * (d + gap)
        ops.append(Circle(cx, y + 9 + d / 2, d / 2, Style(stroke="#6b8fb3", stroke_width_mm=0.4,
                                                          dash_mm=(1.0, 0.8))))
        ops.append(Text(cx, y + 13 + d, labels[i], _fitted(labels[i], Font(size_pt=6.5), d + gap, config), INK,
                        align="center"))
    ax = x0 + gap + n * (d + gap)
    ops.append(Path((("M", ax - 6, y + 9 + d / 2), ("L", ax + 10, y + 9 + d / 2)),
                    Style(stroke=INK, stroke_width_mm=0.5), "arrow"))
    ops.append(Path((("M", ax + 10, y + 9 + d / 2), ("L", ax + 6, y + 7 + d / 2), ("L", ax + 6, y + 11 + d / 2),
                     ("Z",)), Style(fill=INK), "arrow"))
    joins = _("new coins join here")
    ops.append(Text(ax + 2, y + 13 + d, joins, _fitted(joins, Font(size_pt=6.5), 2 * gap, config), INK,
                    align="center"))
    y += d + 32
    order_heading = _("Die faces act in this order (equal faces cancel):")
    ops.append(Text(area.x, y, order_heading, _fitted(order_heading, Font(size_pt=8, bold=True), area.width, config),
                    INK))
    names = config.piecepack.rank_names
    order = "  >  ".join(names[f] for f in config.rules.action_order)
    ops.append(Text(area.x, y + 5, order, Font(size_pt=9), INK))
    spec = config.piecepack
    for i, suit in enumerate(spec.suits):
        ops.append(symbol_path(suit.symbol, area.x + 6 + i * 30, y + 18, 8, suit.colour))
        ops.append(Text(area.x + 12 + i * 30, y + 19.5, suit.name, Font(size_pt=8), INK))
    return compose_sheet(paper, [Placement(Rect(page_area.x, page_area.y, area.width, y + 24), Scene(tuple(ops)),
                                           "table-sheet", 0.0)],
                         _("{title}: table sheet").format(title=config.title), _("island plans and the line of coins"),
                         marks=False)

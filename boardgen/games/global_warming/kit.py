"""Build stages: the printable piecepack (shared by ``game: piecepack`` and Global Warming) and Global
Warming's own kit (a table sheet with the island plans and the coin line, the leaflet, the inventory, zips).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from boardgen.cards.kitfiles import PaperKit, deterministic_zip
from boardgen.cards.model import Component, ComponentSet
from boardgen.cards.piecepack import DIE_RANK, piecepack_sets, symbol_path
from boardgen.cards.sheets import LaidOut, lay_out
from boardgen.errors import LayoutError
from boardgen.io import Artifact
from boardgen.kit.cut_edition import cut_edition, is_cut_file
from boardgen.kit.parts import KitParts, Part, inventory_csv, page_spans, parts_from_sets
from boardgen.plugin import BuildContext
from boardgen.render.cairo_backend import Page, render_pdf, render_png
from boardgen.render.imposition import (
    PAPERS,
    Paper,
    Placement,
    compose_sheet,
    content_area,
    duplex_readme_lines,
    flip_edge,
)
from boardgen.render.scene import Circle, Font, Op, Path, Rect, RectOp, Scene, Style, Text, rect_path

PREVIEW_DPI = 40
INK = "#1a1a1a"

HOW_TO = {
    "tile": "DOUBLE-SIDED: each front page is followed by its back (flip on the long edge); print on card, cut "
            "on the crop marks",
    "coin": "DOUBLE-SIDED: value sides, then suit sides on the back (flip on the long edge); cut on the dark "
            "circle. Coins are small: if your printer does not line up front and back within 1 mm, use the "
            "fold-over file",
    "pawn": "single-sided on thin card; cut the strips, fold on the dashed lines, glue the faces back to back, "
            "bend the coloured feet out opposite ways",
    "die": "single-sided on thin card; cut on the solid line, crease the dashed lines, glue the grey tabs inside",
}


@dataclass(frozen=True)
class PiecepackKit:
    papers: dict[str, PaperKit]
    fold: dict[str, PaperKit]


def lay_piecepack(config: Any, sets: Sequence[ComponentSet], paper: Paper, mode: str) -> list[LaidOut]:
    """Every piecepack part on ``paper``, double-sided parts as ``mode`` (duplex or fold) asks."""
    laid: list[LaidOut] = []
    for s in sets:
        if mode == "fold" and s.double_sided:
            s = replace(s, stagger=False)  # a folded pair is two coins tall: staggered rows would overlap
        try:
            laid.append(lay_out(s, paper, f"{config.title}: {s.title}", mode))
        except ValueError as exc:
            raise LayoutError(f"{config.source}: piecepack: cannot lay out the {s.kind}s on {paper.name}: "
                              f"{exc}") from None
    return laid


def _lay(config: Any, sets: Sequence[ComponentSet], paper: Paper, mode: str) -> PaperKit:
    laid = lay_piecepack(config, sets, paper, mode)
    pages = tuple(p for lo in laid for p in lo.pages)
    title = f"{config.title}: piecepack ({paper.name}{', fold-over' if mode == 'fold' else ''})"
    return PaperKit(paper, tuple(laid), pages, render_pdf(pages, title=title))


def piecepack_kit(ctx: BuildContext) -> PiecepackKit:
    def make() -> PiecepackKit:
        config = ctx.config
        sets = piecepack_sets(config.piecepack)
        papers = {slug: _lay(config, sets, PAPERS[slug], config.print.backs) for slug in config.papers}
        fold = {}
        if config.print.also_fold and config.print.backs == "duplex":
            fold = {slug: _lay(config, sets, PAPERS[slug], "fold") for slug in config.papers}
        return PiecepackKit(papers, fold)

    kit: PiecepackKit = ctx.value("piecepack_kit", make)
    return kit


COIN_BAG = "coin bag"


def kit_parts(ctx: BuildContext) -> KitParts:
    """The piecepack's parts, declared once (``boardgen.kit.parts``): tiles and coins by suit, pawns, dice; for
    Global Warming also its table sheet and the bag the coins are drawn from (not printed)."""
    config = ctx.config
    spec = config.piecepack
    game = getattr(config, "game", "piecepack")
    plays = game != "piecepack"

    def name(c: Component) -> str:  # "tile 3 of Suns" -> "tile of Suns": the six ranks of a suit make one part
        return re.sub(r"^(tile|coin) \S+ of ", r"\1 of ", c.label)

    declared = []
    for p in parts_from_sets(piecepack_sets(spec), "piecepack-{paper}.pdf", name=name):
        if p.kind == "die":
            p = replace(p, width_mm=spec.die_size_mm, height_mm=spec.die_size_mm, depth_mm=spec.die_size_mm,
                        faces=tuple(spec.rank_names[DIE_RANK[n]] for n in range(1, 7)), colour="#ffffff")
        if p.kind == "coin" and plays:
            p = replace(p, bag=COIN_BAG)
        declared.append(p)
    notes: tuple[str, ...] = ("scissors or a craft knife and ruler, glue for the pawns and dice",)
    if plays:
        page = table_sheet(config, PAPERS[config.papers[0]])
        sheet = Component("mat", "table sheet", page.width_mm, page.height_mm, page.scene,
                          rect_path(Rect(0.0, 0.0, page.width_mm, page.height_mm)))
        declared.append(Part("table sheet", "mat", 1, page.width_mm, page.height_mm, pieces=(sheet,),
                             file="table-sheet-{paper}.pdf"))
        declared.append(Part(COIN_BAG, "bag", 1, 120.0, 160.0, printed=False, colour="#7a5c3a"))
        notes += ("a cup or bag to draw the coins from",)
    return KitParts(game, config.title, tuple(declared), notes)


def engine_part_counts(ctx: BuildContext) -> dict[str, int]:
    """The engine's numbers: its tiles and coins (one per suit and rank) and the coins in its bag."""
    from boardgen.games.global_warming.engine import RANKS, SUITS, TILES

    spec = ctx.config.piecepack
    counts = {f"{kind} of {s.name}": RANKS for s in spec.suits[:SUITS] for kind in ("tile", "coin")}
    if getattr(ctx.config, "game", "piecepack") != "piecepack":
        counts[COIN_BAG] = 1 if len(spec.suits) * len(spec.ranks) == TILES else 0
    return counts


PIECEPACK_KINDS = ("tile", "coin", "pawn", "die")


def inventory_text(declared: KitParts) -> str:
    """The README's summary of the declared parts: the piecepack by kind, then anything else in the box."""
    lines = ["In the box", ""]
    for kind in PIECEPACK_KINDS:
        parts = declared.of_kind(kind)
        if parts:
            lines.append(f"  {sum(p.count for p in parts):>2} x {kind:<5} {parts[0].described}, "
                         f"{len(parts)} suits")
    lines += [f"  {p.count:>2} x {p.name} ({p.described})" for p in declared.parts if p.kind not in PIECEPACK_KINDS]
    total = sum(p.count for p in declared.parts if p.kind in PIECEPACK_KINDS)
    lines += ["", f"  {total} pieces in the piecepack; inventory.csv lists every part and its pages"]
    return "\n".join(lines) + "\n"


def piecepack_stage(ctx: BuildContext) -> list[Artifact]:
    config = ctx.config
    kit = piecepack_kit(ctx)
    out: list[Artifact] = []
    for slug, pk in kit.papers.items():
        out.append(Artifact(f"piecepack-{slug}.pdf", pk.pdf, f"the piecepack on {pk.paper.name} "
                            f"({config.print.backs} backs)", len(pk.pages)))
        edition = cut_edition(config.title, functools.partial(lay_piecepack, config, piecepack_sets(config.piecepack),
                                                              mode=config.print.backs), pk.paper)
        ctx.keep(f"cut-readme:{slug}", (edition.readme, edition.duplex))
        out.extend(edition.artifacts)
        summary = ", ".join(f"{lo.kind} {len(lo.pages)}" for lo in pk.laid)
        ctx.progress(f"piecepack ({pk.paper.name}): {len(pk.pages)} pages ({summary})")
    for slug, pk in kit.fold.items():
        out.append(Artifact(f"piecepack-fold-{slug}.pdf", pk.pdf, f"the piecepack on {pk.paper.name}, fold-over "
                            "backs for single-sided printers", len(pk.pages)))
    first = next(iter(kit.papers.values()))
    for i, page in enumerate(first.pages, start=1):
        out.append(Artifact(f"preview/piecepack-{first.paper.slug}-{i:02d}.png", render_png(page, PREVIEW_DPI),
                            f"preview of piecepack page {i}"))
    spans = page_spans({f"piecepack-{slug}.pdf": pk.laid for slug, pk in kit.papers.items()})
    out.append(Artifact("inventory.csv", inventory_csv(kit_parts(ctx), spans),
                        "every part: its count, size, sides and pages"))
    if getattr(config, "game", "") == "piecepack":
        out.extend(_zips(ctx, kit, out, leaflets={}, extra_pages={}))
    return out


# ------------------------------------------------------------------------------------------ the table sheet


def _island_plan(config: Any, setup: str, x: float, y: float, cell: float) -> list[Op]:
    from .engine import island_shape

    ops: list[Op] = []
    cells = island_shape(setup, 1)
    moved = {(3, 0), (0, 3), (6, 3), (3, 6)}
    for cx, cy in cells:
        fill = "#c9bb8f" if setup != "basic" and (cx, cy) in moved else config.piecepack.tile_back
        ops.append(RectOp(Rect(x + cx * cell, y + cy * cell, cell * 0.92, cell * 0.92),
                          Style(fill=fill, stroke=config.piecepack.grid_colour, stroke_width_mm=0.3)))
    ops.append(RectOp(Rect(x + 3 * cell, y + 3 * cell, cell * 0.92, cell * 0.92),
                      Style(stroke="#6b8fb3", stroke_width_mm=0.3, dash_mm=(0.8, 0.8))))
    titles = {"basic": "Basic island", "orthogonal": "Variant: edge neighbours out",
              "diagonal": "Variant: corner neighbours out"}
    ops.append(Text(x + 3.5 * cell, y - 1.5, titles[setup], Font(size_pt=8, bold=True), INK, align="center"))
    return ops


def table_sheet(config: Any, paper: Paper) -> Page:
    """The island plans of the three setups and a full-size mat for the line of coins."""
    page_area = content_area(paper)
    area = Rect(0.0, 0.0, page_area.width, page_area.height)  # the sheet's art in its own coordinates
    ops: list[Op] = []
    cell = min(8.0, area.width / 3 / 7.6)
    for k, setup in enumerate(("basic", "orthogonal", "diagonal")):
        ops.extend(_island_plan(config, setup, area.x + k * area.width / 3 + (area.width / 3 - 7 * cell) / 2,
                                area.y + 10, cell))
    y = area.y + 10 + 7.5 * cell + 8
    lines = [
        "Lay the 24 tiles grid side up in the shape of the plan, then turn each one over where it lies.",
        "Dashed: the empty middle. In the variants, the four darker tiles are the ones moved out from beside",
        "the middle to the middle of each outer edge before the tiles are turned up.",
    ]
    for i, text in enumerate(lines):
        ops.append(Text(area.x, y + i * 4.2, text, Font(size_pt=8), INK))
    y += len(lines) * 4.2 + 10
    d = config.piecepack.coin_diameter_mm
    n = config.rules.line_length
    gap = 14.0
    mat_w = n * d + (n + 1) * gap + 30
    x0 = area.x + (area.width - mat_w) / 2
    ops.append(RectOp(Rect(x0, y, mat_w, d + 22), Style(fill="#eef4f8", stroke="#6b8fb3", stroke_width_mm=0.4)))
    ops.append(Text(x0 + 4, y + 5.5, "The line of coins: the tiles that sink next", Font(size_pt=8, bold=True),
                    INK))
    labels = ["sinks this turn"] + [f"sinks in {k} turn{'s' if k > 1 else ''}" for k in range(1, n)]
    for i in range(n):
        cx = x0 + gap + d / 2 + i * (d + gap)
        ops.append(Circle(cx, y + 9 + d / 2, d / 2, Style(stroke="#6b8fb3", stroke_width_mm=0.4,
                                                          dash_mm=(1.0, 0.8))))
        ops.append(Text(cx, y + 13 + d, labels[i], Font(size_pt=6.5), INK, align="center"))
    ax = x0 + gap + n * (d + gap)
    ops.append(Path((("M", ax - 6, y + 9 + d / 2), ("L", ax + 10, y + 9 + d / 2)),
                    Style(stroke=INK, stroke_width_mm=0.5), "arrow"))
    ops.append(Path((("M", ax + 10, y + 9 + d / 2), ("L", ax + 6, y + 7 + d / 2), ("L", ax + 6, y + 11 + d / 2),
                     ("Z",)), Style(fill=INK), "arrow"))
    ops.append(Text(ax + 2, y + 13 + d, "new coins join here", Font(size_pt=6.5), INK, align="center"))
    y += d + 32
    ops.append(Text(area.x, y, "Die faces act in this order (equal faces cancel):", Font(size_pt=8, bold=True),
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
                         f"{config.title}: table sheet", "island plans and the line of coins", marks=False)


# ------------------------------------------------------------------------------------------ the game stage


def game_stage(ctx: BuildContext) -> list[Artifact]:
    from .leaflet import leaflet_pdf, leaflet_text

    config = ctx.config
    kit = piecepack_kit(ctx)
    out: list[Artifact] = []
    leaflets: dict[str, tuple[bytes, int]] = {}
    sheets: dict[str, bytes] = {}
    for slug in config.papers:
        paper = PAPERS[slug]
        data, pages = leaflet_pdf(config, paper)
        leaflets[slug] = (data, pages)
        out.append(Artifact(f"leaflet-{slug}.pdf", data, f"rules leaflet ({paper.name})", pages))
        page = table_sheet(config, paper)
        sheets[slug] = render_pdf([page], title=f"{config.title}: table sheet ({paper.name})")
        out.append(Artifact(f"table-sheet-{slug}.pdf", sheets[slug], f"island plans and coin line ({paper.name})", 1))
        if slug == config.papers[0]:
            out.append(Artifact(f"preview/table-sheet-{slug}.png", render_png(page, PREVIEW_DPI),
                                "preview of the table sheet"))
    out.append(Artifact("rules.txt", leaflet_text(config).encode(), "the leaflet's words as plain text"))
    out.extend(_zips(ctx, kit, ctx.artifacts + out, leaflets, sheets))
    return out


def readme(config: Any, kit: PiecepackKit, slug: str, names: Sequence[str], declared: KitParts,
           cut: tuple[Sequence[str], Sequence[str]] = ((), ())) -> str:
    """The kit README; ``cut``: the print-then-cut edition's lines (``CutEdition.readme`` and ``.duplex``)."""
    pk = kit.papers[slug]
    cut_readme, cut_duplex = cut
    lines = [f"{config.title}: print-and-play kit ({pk.paper.name})", "",
             "Print at 100% / actual size: the 100 mm bar on each sheet must measure 100 mm.", "", "Files:"]
    lines += [f"  {n}" for n in sorted(names) if not n.startswith("cut/")]
    lines += cut_readme
    lines += ["", f"How to print the piecepack (piecepack-{slug}.pdf):"]
    start = 1
    plural = {"tile": "tiles", "coin": "coins", "pawn": "pawns", "die": "dice"}
    for lo in pk.laid:
        end = start + len(lo.pages) - 1
        where = f"page {start}" if end == start else f"pages {start}-{end}"
        lines.append(f"  {where}: {plural[lo.kind]}. {HOW_TO[lo.kind]}")
        start = end + 1
    lines += ["", *duplex_readme_lines([(f"piecepack-{slug}.pdf", pk.pages)]), *cut_duplex]
    if slug in kit.fold:
        lines += ["", f"piecepack-fold-{slug}.pdf: the same pieces for single-sided printers. Each tile and coin is "
                  "printed with its back below it; cut around the pair, fold on the dashed line, glue."]
    if any(n.startswith("leaflet") for n in names):
        edge = flip_edge(pk.paper.portrait().width_mm, pk.paper.portrait().height_mm)  # the leaflet's pages
        lines += ["", f"leaflet-{slug}.pdf: the rules, one sheet printed on both sides (flip on the {edge} edge). "
                  f"table-sheet-{slug}.pdf: the island plans and a mat for the line of coins."]
    lines += ["", inventory_text(declared)]
    return "\n".join(lines) + "\n"


def _zips(ctx: BuildContext, kit: PiecepackKit, artifacts: Sequence[Artifact], leaflets: dict[str, tuple[bytes, int]],
          extra_pages: dict[str, bytes]) -> list[Artifact]:
    config = ctx.config
    by_path = {a.path: a.data for a in artifacts}
    declared = kit_parts(ctx)
    out = []
    for slug, pk in kit.papers.items():
        files = [(f"piecepack-{slug}.pdf", pk.pdf), ("inventory.csv", by_path["inventory.csv"]),
                 *((path, data) for path, data in by_path.items() if is_cut_file(slug, path))]
        if slug in kit.fold:
            files.append((f"piecepack-fold-{slug}.pdf", kit.fold[slug].pdf))
        if slug in leaflets:
            files.append((f"leaflet-{slug}.pdf", leaflets[slug][0]))
        if slug in extra_pages:
            files.append((f"table-sheet-{slug}.pdf", extra_pages[slug]))
        if "rules.txt" in by_path:
            files.append(("rules.txt", by_path["rules.txt"]))
        files.append(("README.txt", readme(config, kit, slug, [n for n, _ in files], declared,
                                           ctx.computed.get(f"cut-readme:{slug}", ((), ()))).encode()))
        out.append(Artifact(f"kit-{slug}.zip", deterministic_zip(files), f"print-and-play kit on {pk.paper.name}"))
    return out

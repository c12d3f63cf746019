"""A data-only game's build stages: the board (print-shop poster in CMYK PDF/X-4 and RGB, jigsaw sections on A4
and Letter whose seams keep every space whole, the sections' cut file) and the components (every deck, token,
die and standee on A4 and Letter, the print-then-cut edition, the leaflet from Markdown, inventory.csv and the
two kit zips with their README), all through the shared machinery the five games use.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from boardgen import __version__
from boardgen.cards.deck import cards_sheets
from boardgen.cards.kitfiles import PaperKit, deterministic_zip
from boardgen.cards.model import ComponentSet
from boardgen.cards.sheets import LaidOut, lay_out, one_orientation
from boardgen.errors import LayoutError
from boardgen.games.custom.model import CustomTemplate
from boardgen.games.custom.parts import (
    GameData,
    board_graph,
    deck_set,
    load_data,
    small_parts_set,
    token_set,
)
from boardgen.io import Artifact
from boardgen.kit.cut_edition import CutEdition, cut_edition
from boardgen.kit.cut_edition import pdf_name as cut_pdf_name
from boardgen.kit.parts import (
    KitParts,
    Part,
    board_part,
    board_piece,
    deck_part,
    inventory_csv,
    page_spans,
    parts_from_sets,
)
from boardgen.plugin import BuildContext
from boardgen.render.board_print import BoardPrint, print_board
from boardgen.render.cairo_backend import Page, render_pdf, render_png
from boardgen.render.imposition import A4, LETTER, Paper, duplex_readme_lines
from boardgen.render.press import to_pdfx4

PREVIEW_DPI = 40
COMPONENTS = "components-{paper}.pdf"


def data(ctx: BuildContext) -> GameData:
    return ctx.value("data", lambda: load_data(ctx.config))  # type: ignore[no-any-return]


def deck_sets(ctx: BuildContext) -> list[tuple[str, ComponentSet]]:
    t: CustomTemplate = ctx.config
    d = data(ctx)
    return ctx.value("deck_sets", lambda: [(deck.name, deck_set(deck_id, deck, d.rows[deck_id], d.pictures))
                                           for deck_id, deck in t.decks.items()])  # type: ignore[no-any-return]


def other_sets(ctx: BuildContext) -> list[ComponentSet]:
    """Tokens with backs, then the single-sided parts: tokens without, dice and standees (the sets that exist)."""
    t: CustomTemplate = ctx.config
    d = data(ctx)

    def make() -> list[ComponentSet]:
        sets = [token_set(t, d.pictures, True), small_parts_set(t, d.pictures)]
        return [s for s in sets if s is not None]

    return ctx.value("other_sets", make)  # type: ignore[no-any-return]


# ------------------------------------------------------------------------------------------ board


def printed(ctx: BuildContext) -> BoardPrint:
    t: CustomTemplate = ctx.config
    b = t.board
    assert b is not None

    def make() -> BoardPrint:
        graph = board_graph(t)
        keep = [s.bounds_mm for s in graph.spaces] if graph is not None else []
        return print_board(ctx.board, b.width_mm, b.height_mm, t.title, prefix="board", keep_whole=keep, avoid=keep)

    return ctx.value("printed_board", make)  # type: ignore[no-any-return]


def board_stage(ctx: BuildContext) -> list[Artifact]:
    """board-poster.pdf (CMYK PDF/X-4), board-poster-rgb.pdf, board-sections-{a4,letter}.pdf, board-cut.svg."""
    t: CustomTemplate = ctx.config
    if t.board is None:
        return []
    board = printed(ctx)
    out: list[Artifact] = []
    for a in board.artifacts:
        if a.path == "board-poster.pdf":
            out.append(Artifact("board-poster.pdf", to_pdfx4(a.data, f"{t.title}: board (PDF/X-4, CMYK FOGRA39)"),
                                f"{a.description} (CMYK PDF/X-4, FOGRA39)", a.pages))
            out.append(Artifact("board-poster-rgb.pdf", a.data, f"{a.description} (RGB, for screens and RGB printers)",
                                a.pages))
        else:
            out.append(a)
    w, h = t.board.width_mm, t.board.height_mm
    out.append(Artifact("preview/board.png", render_png(Page(w, h, ctx.board), 20), "preview of the board"))
    ctx.progress(f"board: {w:g} x {h:g} mm, {len(t.board.spaces)} spaces; {board.cut.rows} x {board.cut.columns} "
                 "jigsaw sections")
    return out


# ------------------------------------------------------------------------------------------ components


def lay_paper(ctx: BuildContext, paper: Paper) -> list[LaidOut]:
    """Every deck and the other parts on ``paper``, all pages one way round (the file is double-sided)."""
    t: CustomTemplate = ctx.config
    decks = deck_sets(ctx)
    sets = other_sets(ctx)

    def lay(pp: Paper) -> list[LaidOut]:
        laid: list[LaidOut] = []
        for name, cset in decks:
            title = f"{t.title}: {name} ({len(cset.components)} cards, fronts then backs)"
            laid.append(cards_sheets(cset, pp, "duplex", title=title, keep_orientation=pp is not paper))
        for s in sets:
            try:
                laid.append(lay_out(s, pp, s.title, "duplex"))
            except ValueError as exc:
                raise LayoutError(f"{t.source}: cannot lay out {s.title} on {pp.name}: {exc}") from None
        return laid

    return one_orientation(lay, paper)


def build_paper(ctx: BuildContext, paper: Paper) -> PaperKit:
    laid = lay_paper(ctx, paper)
    pages = tuple(p for lo in laid for p in lo.pages)
    title = f"{ctx.config.title}: components ({paper.name})"
    return PaperKit(paper, tuple(laid), pages, render_pdf(pages, title=title))


def kit_parts(ctx: BuildContext) -> KitParts:
    """Every part in the box as the template lists it: the board, each deck, each kind of token, die and
    standee, and what the template says to bring."""
    t: CustomTemplate = ctx.config
    declared: list[Part] = []
    if t.board is not None:
        declared.append(board_part("board", board_piece(ctx.board, t.board.width_mm, t.board.height_mm)))
    for name, cset in deck_sets(ctx):
        declared.append(deck_part(name, cset, COMPONENTS, cset.kind))
    sets = other_sets(ctx)
    declared += parts_from_sets(sets, COMPONENTS, skip=lambda c: c.kind == "die")
    dice = [(c, s.kind) for s in sets for c in s.components if c.kind == "die"]
    for spec in t.dice:
        pieces = [(c, kind) for c, kind in dice if c.label.startswith(f"{spec.name} #")]
        faces = tuple(f.text or f"[{f.image}]" for f in spec.face_list())
        edge = spec.size_mm / math.sqrt(3) if spec.sides == 6 else spec.size_mm  # a cube: its edge
        declared.append(Part(spec.name, "die", len(pieces), edge, edge, edge,
                             pieces=tuple(c for c, _ in pieces), sides=spec.sides, faces=faces, colour=spec.colour,
                             file=COMPONENTS, sheet_kind=",".join(dict.fromkeys(k for _, k in pieces))))
    return KitParts(t.game, t.title, tuple(declared), tuple(t.notes))


def engine_part_counts(ctx: BuildContext) -> dict[str, int]:
    """The template's own numbers (a data-only game has no engine): each deck's cards from its rows'
    quantities, each token, die and standee kind's count."""
    from boardgen.cards.deck import row_quantity

    t: CustomTemplate = ctx.config
    d = data(ctx)
    counts = {deck.name: sum(row_quantity(r) for r in d.rows[deck_id]) for deck_id, deck in t.decks.items()}
    counts.update({s.name: s.count for s in t.tokens})
    counts.update({s.name: s.count for s in t.dice})
    counts.update({s.name: s.count for s in t.standees})
    if t.board is not None:
        counts["board"] = 1
    return counts


_PRINT = {
    "parts": "single-sided on card",
}


def readme_text(ctx: BuildContext, kit: PaperKit, cut: CutEdition, parts: KitParts, leaflet_pages: int) -> str:
    t: CustomTemplate = ctx.config
    slug = kit.paper.slug
    lines = [f"{t.title}: print-and-play kit ({kit.paper.name})",
             f"edition {t.edition}, made by boardgen {__version__} from a data-only template (no rules engine: "
             f"boardgen printed the parts; the rules are the leaflet's), template sha256 {t.template_sha256[:16]}",
             "",
             "PRINT EVERYTHING AT 100% / ACTUAL SIZE - never 'fit to page'. Every page has a 100 mm bar: measure it.",
             "", "Files:",
             f"  leaflet-{slug}.pdf  the rules (1 page): print it single-sided." if leaflet_pages == 1 else
             f"  leaflet-{slug}.pdf  the rules ({leaflet_pages} pages): print single-sided, or double-sided "
             "flipping on the long edge."]
    if t.board is not None:
        sections = len(printed(ctx).cut.sections)
        lines += [f"  board-sections-{slug}.pdf  the board in {sections} jigsaw sections, one per page, single-sided: "
                  "cut each out on its line; the numbers beside each edge and the small diagram say which piece "
                  "joins where (one way only).",
                  "  board-poster.pdf  the whole board on one sheet for a print shop (CMYK PDF/X-4, 3 mm bleed);",
                  "      board-poster-rgb.pdf is the same page in RGB for a home or office printer.",
                  "  board-cut.svg  the sections' outlines on the whole board, for cutting a printed poster by "
                  "machine."]
    lines += [f"  components-{slug}.pdf  every other part, page by page below.", *cut.readme,
              "  inventory.csv  what the box holds.", "", f"components-{slug}.pdf, page by page:"]
    for lo, first, last in kit.page_ranges():
        pages = f"page {first}" if first == last else f"pages {first}-{last}"
        if lo.kind.startswith("deck-") or lo.kind == "tokens-2":
            how = "DOUBLE-SIDED on card: each front page is followed by its backs (the edge to flip on is below)"
        else:
            how = _PRINT.get(lo.kind, "single-sided")
        lines.append(f"  {pages:<12} {lo.title}. Print {how}.")
    duplex = duplex_readme_lines([(f"components-{slug}.pdf", kit.pages), (cut_pdf_name(slug), cut.kit.pages)])
    lines += ["", *duplex] if duplex else []
    lines += ["", "Cutting: cards and square tokens on their crop marks (the cards touch: one cut between two);",
              "round and hexagonal tokens, dice and standees on their solid outlines."]
    if t.dice or t.standees:
        lines.append("Dice and standees: crease the dashed lines and fold; glue the grey tabs of each die inside.")
    bring = ["scissors or a craft knife and a metal ruler", *(["glue for the dice"] if t.dice else []), *t.notes]
    lines += ["", "You also need: " + "; ".join(bring) + "."]
    lines += ["", "In the box:"] + [f"  {p.count:>3} x {p.name} ({p.described})" for p in parts.parts]
    return "\n".join(lines) + "\n"


def components_stage(ctx: BuildContext) -> list[Artifact]:
    from boardgen.games.custom.leaflet import leaflet_pdf

    t: CustomTemplate = ctx.config
    artifacts: list[Artifact] = []
    kits: dict[str, PaperKit] = {}
    for paper in (A4, LETTER):
        kit = build_paper(ctx, paper)
        kits[paper.slug] = kit
        artifacts.append(Artifact(f"components-{paper.slug}.pdf", kit.pdf, f"every part but the board on {paper.name}",
                                  len(kit.pages)))
        ctx.progress(f"components ({paper.name}): {len(kit.pages)} pages; "
                     + ", ".join(f"{lo.kind} {len(lo.pages)}" for lo in kit.laid))
    cuts = {paper.slug: cut_edition(t.title, functools.partial(lay_paper, ctx), paper) for paper in (A4, LETTER)}
    for edition in cuts.values():
        artifacts.extend(edition.artifacts)
    for i, page in enumerate(kits["a4"].pages, start=1):
        artifacts.append(Artifact(f"preview/components-a4-{i:02d}.png", render_png(page, PREVIEW_DPI),
                                  f"preview of components-a4.pdf page {i}"))
    declared = kit_parts(ctx)
    spans = page_spans({f"components-{slug}.pdf": kit.laid for slug, kit in kits.items()})
    inventory = inventory_csv(declared, spans)
    artifacts.append(Artifact("inventory.csv", inventory, "every part: its count, size, sides and pages"))
    leaflets: dict[str, tuple[bytes, int]] = {}
    for paper in (A4, LETTER):
        pdf, pages = leaflet_pdf(t, data(ctx).leaflet, paper, declared)
        leaflets[paper.slug] = (pdf, pages)
        artifacts.append(Artifact(f"leaflet-{paper.slug}.pdf", pdf, f"rules leaflet ({paper.name})", pages))
    own = {a.path: a for a in ctx.artifacts}
    for paper in (A4, LETTER):
        slug = paper.slug
        files = [(f"components-{slug}.pdf", kits[slug].pdf), (f"leaflet-{slug}.pdf", leaflets[slug][0]),
                 *((a.path, a.data) for a in cuts[slug].artifacts), ("inventory.csv", inventory),
                 ("README.txt", readme_text(ctx, kits[slug], cuts[slug], declared, leaflets[slug][1]).encode())]
        for name in ("board-poster.pdf", "board-poster-rgb.pdf", f"board-sections-{slug}.pdf", "board-cut.svg"):
            if name in own:
                files.append((name, own[name].data))
        artifacts.append(Artifact(f"kit-{slug}.zip", deterministic_zip(files),
                                  f"print-and-play kit on {paper.name} with README"))
    return artifacts


def all_sets(ctx: BuildContext) -> Sequence[ComponentSet]:
    """Every printed set but the board (for exports)."""
    return [cset for _name, cset in deck_sets(ctx)] + other_sets(ctx)

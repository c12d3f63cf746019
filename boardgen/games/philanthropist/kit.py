"""The Philanthropist's build stages: the board (poster, tiles on A4 and Letter, preview) and the components
(every part on A4 and Letter, the print-then-cut edition, previews, the leaflet, inventory.csv and the two kit zips)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import replace

from boardgen import __version__
from boardgen.cards.deck import deck_components, deck_sheets
from boardgen.cards.kitfiles import PaperKit, deterministic_zip
from boardgen.cards.model import ComponentSet
from boardgen.cards.sheets import LaidOut, lay_out, one_orientation
from boardgen.errors import LayoutError
from boardgen.games.philanthropist import parts
from boardgen.games.philanthropist.board import printed_board
from boardgen.games.philanthropist.engine import Rules
from boardgen.games.philanthropist.leaflet import choices, leaflet_pdf
from boardgen.games.philanthropist.model import PhilanthropistTemplate, load_cards
from boardgen.games.philanthropist.parts import ACTION_WORDS
from boardgen.io import Artifact
from boardgen.kit.cut_edition import CutEdition, cut_edition
from boardgen.kit.cut_edition import pdf_name as cut_pdf_name
from boardgen.kit.parts import (
    KitParts,
    board_part,
    board_piece,
    deck_part,
    inventory_csv,
    page_spans,
    parts_from_sets,
)
from boardgen.plugin import BuildContext
from boardgen.render.board_print import BoardPrint
from boardgen.render.cairo_backend import Page, render_pdf, render_png
from boardgen.render.imposition import A4, LETTER, Paper, duplex_readme_lines

PREVIEW_DPI = 40


def printed(ctx: BuildContext) -> BoardPrint:
    return ctx.value("printed_board", lambda: printed_board(ctx.config, ctx.board))


def board_stage(ctx: BuildContext) -> list[Artifact]:
    t: PhilanthropistTemplate = ctx.config
    size = t.board.size_mm
    board = printed(ctx)
    out = list(board.artifacts)
    out.append(Artifact("preview/board.png", render_png(Page(size, size, ctx.board), 20), "preview of the board"))
    for i, page in enumerate(board.pages["a4"], start=1):
        out.append(Artifact(f"preview/board-section-a4-{i:02d}.png", render_png(page, 20),
                            f"preview of board-sections-a4.pdf page {i}"))
    ctx.progress(f"board: {t.board.squares} x {t.board.squares} squares of {t.board.square_mm:.1f} mm; "
                 f"{board.cut.rows} x {board.cut.columns} jigsaw sections, one assembly "
                 f"({len(board.cut.fit.assemblies)} found)")
    return out


def component_sets(t: PhilanthropistTemplate) -> list[ComponentSet]:
    """The parts besides the business cards (which the shared deck lays out itself)."""
    small = parts.dice(t)
    chips = parts.avatars(t).components
    aids = parts.player_aids(t).components
    half = (len(aids) + 1) // 2
    mixed = ComponentSet("die", "Dice, avatar chips and player aids: cut out on the solid lines; dice: crease the "
                         "dashed lines and glue the grey tabs inside",
                         (*small.components, *chips, *aids[:half]), uniform=False,
                         row_starts=(0, len(small.components), len(small.components) + len(chips)))
    tokens = parts.cube_tokens(t)
    counters = ComponentSet("token", tokens.title + "; player aids", (*tokens.components, *aids[half:]),
                            uniform=False, gap_mm=0.0, row_starts=(0, len(tokens.components)))
    return [parts.meeples(t), mixed, counters]


def kit_parts(ctx: BuildContext) -> KitParts:
    """Every part of The Philanthropist's box, declared once (``boardgen.kit.parts``): the board, the business
    cards, the meeple standees, avatar chips, cube tokens, the two paper dice and the player aids."""
    t: PhilanthropistTemplate = ctx.config
    size = t.board.size_mm
    deck = deck_components(parts.business_deck(t, load_cards(t)))
    declared = [board_part("board", board_piece(ctx.board, size, size)),
                deck_part("business card", deck, "components-{paper}.pdf", "business-cards")]
    for p in parts_from_sets(component_sets(t), "components-{paper}.pdf"):
        if p.kind == "die":
            action = p.name == "action die"
            faces = tuple(ACTION_WORDS[f] for f in t.action_die.faces) if action else ()
            edge = t.action_die.size_mm
            p = replace(p, width_mm=edge, height_mm=edge, depth_mm=edge, sides=6, faces=faces,
                        colour=t.action_die.colour if action else "#ffffff")
        declared.append(p)
    return KitParts(t.game, t.title, tuple(declared),
                    ("scissors, a craft knife and metal ruler, glue; real dice and cubes (or coins) can replace "
                     "the paper ones",))


def engine_part_counts(ctx: BuildContext) -> dict[str, int]:
    """The engine's numbers: the meeples it sets out per kind (plus the template's spares), its business cards
    and its two dice."""
    t: PhilanthropistTemplate = ctx.config
    rules = Rules.from_template(t, load_cards(t))
    counts = {f"{name} meeple": sum(1 for k in rules.place_order if k == i) + t.kit.spare_meeples
              for i, name in enumerate(rules.kind_names)}
    counts["business card"] = sum(c.quantity for c in rules.cards)
    counts["action die"] = 1 if len(rules.faces) == 6 else 0
    return counts


def inventory_spans(kits: dict[str, PaperKit]) -> dict[tuple[str, str], str]:
    return page_spans({f"components-{slug}.pdf": kit.laid for slug, kit in kits.items()})


def lay_paper(t: PhilanthropistTemplate, sets: Sequence[ComponentSet], paper: Paper) -> list[LaidOut]:
    """The business cards and every other part on ``paper``, all pages turned one way (the file is duplex)."""
    deck = parts.business_deck(t, load_cards(t))

    def lay(pp: Paper) -> list[LaidOut]:
        title = f"{t.title}: {deck.name} ({t.cards.count} cards, fronts then backs)"
        laid: list[LaidOut] = [deck_sheets(deck, pp, "duplex", title=title, keep_orientation=pp is not paper)]
        for s in sets:
            try:
                laid.append(lay_out(s, pp, f"{t.title}: {s.title}", "duplex"))
            except ValueError as exc:
                raise LayoutError(f"{t.source}: components: cannot lay out the {s.kind} parts on {pp.name}: "
                                  f"{exc}") from None
        return laid

    return one_orientation(lay, paper)


def build_paper(t: PhilanthropistTemplate, sets: Sequence[ComponentSet], paper: Paper) -> PaperKit:
    laid = lay_paper(t, sets, paper)
    pages = tuple(p for lo in laid for p in lo.pages)
    return PaperKit(paper, tuple(laid), pages, render_pdf(pages, title=f"{t.title}: components ({paper.name})"))


def card_flip_edge(kit: PaperKit) -> str:
    """The duplex flip that lines the card backs up with their fronts: the backs are mirrored left-right, so a
    portrait sheet flips on its long edge and a landscape sheet on its short edge."""
    page = next(lo.pages[0] for lo in kit.laid if lo.kind == "business-cards")
    return "long" if page.height_mm >= page.width_mm else "short"


_PRINT = {
    "business-cards": "DOUBLE-SIDED, ideally on card: each front page is followed by its backs; print "
                      "double-sided flipping on the {edge} edge. The cards touch: cut on the crop marks",
    "standee": "single-sided on thin card",
    "die": "single-sided on card",
    "token": "single-sided on card",
}


def readme_text(t: PhilanthropistTemplate, kit: PaperKit, rows: Sequence[tuple[str, int, str]],
                sections: int, cut: CutEdition) -> str:
    slug = kit.paper.slug
    lines = [f"{t.title}: print-and-play kit ({kit.paper.name})",
             f"edition {t.edition}, made by boardgen {__version__}, template sha256 {t.template_sha256[:16]}", "",
             "PRINT EVERYTHING AT 100% / ACTUAL SIZE - never 'fit to page'. Every page has a 100 mm bar: measure it.",
             "", "Files:",
             f"  leaflet-{slug}.pdf  the rules: one sheet, print both sides flipping on the short edge, fold in half.",
             f"  board-sections-{slug}.pdf  the board in {sections} jigsaw sections: cut each out on its line; "
             "the numbers beside each edge and the small diagram say which piece joins where (one way only).",
             "  board-poster.pdf  the whole board on one 24-inch sheet, for a print shop (3 mm bleed).",
             "  board-cut.svg  the sections' outlines laid out on the whole 24-inch board (609.6 mm): for cutting a "
             "printed poster into the jigsaw with a machine; the A4/Letter section pages carry their own cut line.",
             f"  components-{slug}.pdf  every playing part, page by page below.",
             *cut.readme,
             "  inventory.csv  what the box holds.", "", f"components-{slug}.pdf, page by page:"]
    start = 1
    for lo in kit.laid:
        end = start + len(lo.pages) - 1
        pages = f"page {start}" if start == end else f"pages {start}-{end}"
        how = _PRINT.get(lo.kind, "single-sided").format(edge=card_flip_edge(kit))
        lines.append(f"  {pages:<12} {lo.title}. Print {how}.")
        start = end + 1
    duplex = duplex_readme_lines([(f"components-{slug}.pdf", kit.pages), (cut_pdf_name(slug), cut.kit.pages)])
    lines += ["", *duplex] if duplex else []
    lines += ["", "You also need: scissors (a craft knife and metal ruler for the straight cuts), glue. Real dice",
              "and real cubes (or coins) can replace the paper ones.", "", "Choices this edition makes where the "
              "original rules are silent (template keys):"]
    lines += [f"  {key}: {text}" for key, text in choices(t)]
    lines += ["", "In the box:"] + [f"  {count:>3} x {name} ({size})" for name, count, size in rows]
    return "\n".join(lines) + "\n"


def components_stage(ctx: BuildContext) -> list[Artifact]:
    t: PhilanthropistTemplate = ctx.config
    sets = component_sets(t)
    cards = load_cards(t)
    artifacts: list[Artifact] = []
    kits: dict[str, PaperKit] = {}
    for paper in (A4, LETTER):
        kit = build_paper(t, sets, paper)
        kits[paper.slug] = kit
        artifacts.append(Artifact(f"components-{paper.slug}.pdf", kit.pdf, f"every playing part on {paper.name}",
                                  len(kit.pages)))
        ctx.progress(f"components ({paper.name}): {len(kit.pages)} pages; "
                     + ", ".join(f"{lo.kind} {len(lo.pages)}" for lo in kit.laid))
    cuts = {paper.slug: cut_edition(t.title, functools.partial(lay_paper, t, sets), paper) for paper in (A4, LETTER)}
    for edition in cuts.values():
        artifacts.extend(edition.artifacts)
    for i, page in enumerate(kits["a4"].pages, start=1):
        artifacts.append(Artifact(f"preview/components-a4-{i:02d}.png", render_png(page, PREVIEW_DPI),
                                  f"preview of components-a4.pdf page {i}"))
    sections = len(printed(ctx).cut.sections)
    declared = kit_parts(ctx)
    inventory = inventory_csv(declared, inventory_spans(kits))
    rows = [(p.name, p.count, p.described) for p in declared.parts]
    rows.append(("rules leaflet", 1, "one sheet folded in half"))
    artifacts.append(Artifact("inventory.csv", inventory, "every part: its count, size, sides and pages"))
    leaflets: dict[str, bytes] = {}
    for paper in (A4, LETTER):
        data, sides = leaflet_pdf(t, cards, paper, rows,
                                  card_flip=card_flip_edge(kits[paper.slug]))
        leaflets[paper.slug] = data
        artifacts.append(Artifact(f"leaflet-{paper.slug}.pdf", data, f"rules leaflet ({paper.name})", sides))
    own = {a.path: a for a in ctx.artifacts}
    for paper in (A4, LETTER):
        slug = paper.slug
        files = [(f"components-{slug}.pdf", kits[slug].pdf), (f"leaflet-{slug}.pdf", leaflets[slug]),
                 *((a.path, a.data) for a in cuts[slug].artifacts), ("inventory.csv", inventory),
                 ("README.txt", readme_text(t, kits[slug], rows, sections, cuts[slug]).encode())]
        for name in ("board-poster.pdf", f"board-sections-{slug}.pdf", "board-cut.svg"):
            if name in own:
                files.append((name, own[name].data))
        artifacts.append(Artifact(f"kit-{slug}.zip", deterministic_zip(files),
                                  f"print-and-play kit on {paper.name} with README"))
    return artifacts

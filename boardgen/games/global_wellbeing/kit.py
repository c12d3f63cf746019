"""The components build stages: every printed part and the rules leaflet, on A4 and US Letter, plus the kits.

Four stages, so the first three can run beside each other (and beside the board and validation):
``components_stage`` writes components-{a4,letter}.pdf, preview/components-a4-NN.png (one per A4 sheet) and
inventory.csv;
``cut_stage`` cut/components-{a4,letter}.pdf (the print-then-cut edition) with one
cut/components-{a4,letter}-page-NN.svg per front page; ``leaflet_stage`` leaflet-{a4,letter}.pdf; and
``kits_stage``, after them all, kit-{a4,letter}.zip with everything a print-and-play player needs (the board
PDFs too, when the board stage made them) and a README.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from boardgen import __version__
from boardgen.build import BuildContext
from boardgen.cards.dice import dice
from boardgen.cards.kitfiles import PaperKit, deterministic_zip
from boardgen.cards.model import ComponentSet
from boardgen.cards.shapes import piece_size_mm
from boardgen.cards.sheets import LaidOut, lay_out
from boardgen.errors import LayoutError
from boardgen.games.global_wellbeing.rules.variants import player_counts
from boardgen.games.global_wellbeing.schema import Config
from boardgen.games.global_wellbeing.tables import reference_cards, turn_grid
from boardgen.games.global_wellbeing.tokens import badges, chips, markers, player_pieces
from boardgen.geomap.model import Board
from boardgen.io import Artifact
from boardgen.kit.cut_edition import cut_edition, is_cut_file
from boardgen.kit.parts import KitParts, board_part, board_piece, inventory_csv, page_spans, parts_from_sets
from boardgen.kit.readme import kit_readme
from boardgen.render.cairo_backend import render_pdf, render_png
from boardgen.render.imposition import (
    A4,
    DUPLEX_HEADING,
    LETTER,
    Paper,
    PrintCutMarks,
    duplex_readme_lines,
    print_then_cut,
)

PREVIEW_DPI = 40


def component_sets(config: Config, hex_size_mm: float) -> list[ComponentSet]:
    """Every kind of printed part, in the order the sheets are printed. The paper dice share the cards'
    sheets (they fill the room below the table card and the turn counter)."""
    size = piece_size_mm(config.components.piece_size_mm, hex_size_mm, config.source)
    _cols, _rows, box_w, box_h = turn_grid(config)
    zone_markers = markers(config, (box_w, box_h)).components
    cards = reference_cards(config, zone_markers[:-1], zone_markers[-1])
    if config.components.dice:
        nets = sorted(dice(config.components.dice_size_mm).components,
                      key=lambda d: -d.height_mm * d.width_mm)  # biggest first
        cards = replace(cards, title="Bio-productivity index table, markers, turn counter and paper dice",
                        components=(*cards.components, *nets),
                        row_starts=(*cards.row_starts, len(cards.components)))
    return [cards, chips(config), badges(config), *player_pieces(config, size)]


def build_components(config: Config, sets: Sequence[ComponentSet], paper: Paper,
                     print_cut: PrintCutMarks | None = None) -> PaperKit:
    """Every part's sheets on ``paper``. ``print_cut``: the print-then-cut edition: margins widened to keep the
    marks clear, and the marks on every front sheet (the side a cutting machine reads)."""
    if print_cut is not None:
        with print_then_cut(print_cut):
            laid = tuple(lay_components(config, sets, paper))
    else:
        laid = tuple(lay_components(config, sets, paper))
    pages = tuple(p for lo in laid for p in lo.pages)
    edition = "" if print_cut is None else ", print then cut"
    pdf = render_pdf(pages, title=f"{config.title}: components ({paper.name}{edition})")
    return PaperKit(paper, laid, pages, pdf)


def lay_components(config: Config, sets: Sequence[ComponentSet], paper: Paper) -> list[LaidOut]:
    """Every part's sheets on ``paper`` (inside ``imposition.print_then_cut``: the print-then-cut edition's)."""
    laid: list[LaidOut] = []
    for s in sets:
        try:
            laid.append(lay_out(s, paper, f"{config.title}: {s.title}", config.components.double_sided))
        except ValueError as exc:  # a part bigger than the sheet: say which and where, in one line
            raise LayoutError(f"{config.source}: components: cannot lay out the {s.kind} parts on {paper.name}: "
                              f"{exc}") from None
    return laid


_HOW_TO = {
    "card": "single-sided, ideally on card (160-250 g/m2); cut the cards on the crop marks, the markers and "
            "dice on their dark lines; dice: crease the dashed lines, glue the grey tabs inside",
    "marker": "single-sided on card; cut out the discs on their dark line",
    "chip": "DOUBLE-SIDED (flip on the long edge): fronts and backs alternate; cut out on the dark line",
    "badge": "DOUBLE-SIDED (flip on the long edge): fronts and backs alternate; cut out on the dark line",
    "token": "single-sided on card; cut each piece out on its dark line",
    "standee": "single-sided on thin card; the strips touch: cut along the dark lines with long straight cuts, "
               "fold on the dashed lines, glue the two faces back to back and bend the end tabs out opposite "
               "ways as feet",
    "die": "single-sided on thin card; cut on the solid line, crease the dashed lines, glue the grey tabs inside",
}


@dataclass(frozen=True)
class KitSummary:
    """What the README says of one paper's component sheets: the paper, its page count and, per part kind in
    print order, (kind, title, cut sheets, first page, last page). Small, so a stage in another process can
    hand it to the kits stage."""

    paper: Paper
    pages: int
    parts: tuple[tuple[str, str, int, int, int], ...]
    duplex: tuple[str, ...] = ()  # the README's flip-edge lines (``imposition.duplex_readme_lines``)

    @staticmethod
    def of(kit: PaperKit) -> KitSummary:
        duplex = duplex_readme_lines([(f"components-{kit.paper.slug}.pdf", kit.pages)])
        return KitSummary(kit.paper, len(kit.pages), tuple((lo.kind, lo.title, len(lo.cut_sheets), start, end)
                                                           for lo, start, end in kit.page_ranges()), tuple(duplex))


def readme_text(config: Config, kit: KitSummary, leaflet_pages: int, extra: Sequence[Artifact],
                cut_readme: Sequence[str] = (), cut_duplex: Sequence[str] = (), parts: KitParts | None = None) -> str:
    """The kit README through the shared writer (``boardgen.kit.readme``); ``cut_readme`` and ``cut_duplex``: the
    print-then-cut edition's lines (``CutEdition.readme`` and ``.duplex``); ``parts``: the declared parts (what
    else to bring, what is in the box)."""
    paper = kit.paper.slug
    fold = config.components.double_sided == "fold"
    booklet = ("the sheet in half with the title page on the outside." if leaflet_pages <= 2 else
               "each sheet in half and nest them in order (sheet 1 outside), title page on top.")
    files = [Artifact(f"leaflet-{paper}.pdf", b"", f"the rules, a booklet of {2 * leaflet_pages} pages. Print "
                      f"double-sided, flipping on the short edge, then fold {booklet}", leaflet_pages),
             Artifact(f"components-{paper}.pdf", b"", "every playing part, page by page below.", kit.pages),
             *extra, Artifact("inventory.csv", b"", "every part in the box: count, size, sides, the pages that "
                              "print it.")]
    guide = [f"components-{paper}.pdf, page by page:"]
    for kind, title, cut_sheets, start, end in kit.parts:
        pages = f"page {start}" if start == end else f"pages {start}-{end}"
        how = _HOW_TO.get(kind, "")
        if kind == "chip" and config.components.chip_shape == "square":
            how = ("DOUBLE-SIDED (flip on the long edge): fronts and backs alternate; the chips touch, so cut "
                   "the sheet into strips and the strips into squares with long straight cuts from crop mark to "
                   "crop mark (a craft knife and metal ruler, or a guillotine)")
        if fold and kind in ("chip", "badge"):
            how = "single-sided; cut out each pair, fold on the dashed line and glue front to back"
        sheets = f"{cut_sheets} sheet" + ("" if cut_sheets == 1 else "s")
        guide.append(f"  {pages:<14} {title} ({sheets}). {how}.")
    kinds = {part[0] for part in kit.parts}
    if {"token", "standee"} <= kinds:
        guide += ["", "Player pieces come twice, as flat tokens and as standees: print the kind you like."]
    guide += ["The simpler game (see the leaflet) needs no chips and no badges."]
    guides = [guide, ["For a cutting machine:", *cut_readme]] if cut_readme else [guide]
    duplex = [*kit.duplex, *cut_duplex]
    if duplex and not kit.duplex:
        duplex.insert(0, DUPLEX_HEADING)
    notes = ["Double-sided pages carry a cross-hair at the top centre: it sits in the same spot on both sides when",
             "the printer lines the back up with the front.", "", *rules_notes(config)]
    sections = sum(1 for a in extra if a.path.startswith("cut/board-section-"))
    declared = parts if parts is not None else KitParts(config.game, config.title, ())
    return kit_readme(config.title, kit.paper.name, slug=paper, files=files, guides=guides, duplex=duplex,
                      header=(f"edition {config.edition}, made by boardgen {__version__}, template sha256 "
                              f"{config.template_sha256[:16]}",),
                      board_sections=sections, parts=declared, notes=notes,
                      box_extra=((1, "rules leaflet", f"leaflet-{paper}.pdf"),))


def rules_notes(config: Config) -> list[str]:
    """Designer notes that belong in the README, not in the players' leaflet."""
    r = config.rules
    notes = ["Notes on the rules (for whoever prints the game):"]
    notes.append(f"  Stewardship: the original rules ask for climate rolls both after every turn and after every "
                 f"fifth turn; this edition rolls every {r.stewardship_every} turns (template key "
                 "rules.stewardship_every). The leaflet offers 'every turn' as a variant.")
    if r.investments_per_turn:
        pieces = "1 new piece" if r.investments_per_turn == 1 else f"{r.investments_per_turn} new pieces"
        notes.append(f"  Investing: at most {pieces} a turn (rules.investments_per_turn). Late in the game "
                     "harvests pay more than that, so chips pile up and the bank can run dry; the leaflet says "
                     "so, says that unspent chips score nothing, and says what happens when the bank is empty.")
    even, _other = player_counts(config)
    counts = ", ".join(map(str, even[:-1])) + (" or " if len(even) > 1 else "") + str(even[-1]) if even else "?"
    notes.append(f"  Players: the leaflet recommends {counts} players with teams otherwise, as the original "
                 f"does; the rules and the simulator work for any count from {config.players.min} to "
                 f"{config.players.max}.")
    notes.append("  Zone markers are small strips sized to one box of the board's index table (and the card's), "
                 "so they sit beside the value; one spare per zone is printed.")
    return notes


def _pages(n: int) -> str:
    return f"{n} page" if n == 1 else f"{n} pages"


def isolated_cells(board: Board) -> list[str]:
    """Labels of land cells cut off from the largest connected group of cells (the leaflet has a note on them)."""
    neighbours = {c.label: c.neighbours for c in board.cells}
    groups: list[list[str]] = []
    seen: set[str] = set()
    for label in sorted(neighbours):
        if label in seen:
            continue
        group, todo = [], [label]
        seen.add(label)
        while todo:
            here = todo.pop()
            group.append(here)
            for other in neighbours[here]:
                if other in neighbours and other not in seen:
                    seen.add(other)
                    todo.append(other)
        groups.append(group)
    groups.sort(key=lambda g: (-len(g), min(g)))
    return sorted(label for g in groups[1:] for label in g)


_BOARD_FILES = {slug: ("board-poster.pdf", "board-poster-rgb.pdf", f"board-sections-{slug}.pdf", "board-cut.svg")
                for slug in ("a4", "letter")}
"""The board files each paper's kit holds, in the order its README lists them (then the section cut files)."""


def _board_files(slug: str, path: str) -> bool:
    return path in _BOARD_FILES[slug] or (path.startswith("cut/board-section-") and path.endswith(f"-{slug}.svg"))


def _board_file_rank(slug: str, artifact: Artifact) -> int:
    """The kit's order of the board files, whichever stage made them first: as in _BOARD_FILES, then the section
    cut files (a stable sort keeps those in section order)."""
    files = _BOARD_FILES[slug]
    return files.index(artifact.path) if artifact.path in files else len(files)


def _component_sets(ctx: BuildContext) -> list[ComponentSet]:
    return ctx.value("component-sets",  # type: ignore[no-any-return]
                     lambda: component_sets(ctx.config, ctx.board.layout.size_mm))


def kit_parts(ctx: BuildContext) -> KitParts:
    """Every part of the flagship's box, declared once (``boardgen.kit.parts``): the map board, the index
    table card, zone markers, turn counter and marker, the paper dice, chips, zone badges and each player's
    tokens and standees."""
    from boardgen.games.global_wellbeing.board_stage import board_picture, build_board_art

    config: Config = ctx.config
    b = config.board
    art = ctx.value("board-art", lambda: build_board_art(ctx))
    declared = [board_part("board", board_piece(board_picture(art), b.width_mm, b.height_mm))]
    edge = config.components.dice_size_mm / 2
    for p in parts_from_sets(_component_sets(ctx), "components-{paper}.pdf"):
        if p.kind == "die":
            p = replace(p, width_mm=edge, height_mm=edge, depth_mm=edge)
        declared.append(p)
    return KitParts(config.game, config.title, tuple(declared),
                    ("scissors (a craft knife and metal ruler for straight cuts), glue",
                     "matchsticks or coins if you lose a marker; real dice (d4 d6 d8 d10 d12 d20) can replace the "
                     "paper ones"))


def engine_part_counts(ctx: BuildContext) -> dict[str, int]:
    """The rules' numbers: the bank's chips, each seat's pieces (as tokens and again as standees), the badges
    (one per zone for each seat) and a die for every zone's die size."""
    config: Config = ctx.config
    r = config.rules
    counts = {"chip": r.bank_chips}
    for seat in range(1, config.players.max + 1):
        counts[f"P{seat} token"] = r.pieces_per_player
        counts[f"P{seat} standee"] = r.pieces_per_player
    for zone in config.zone_names:
        counts[f"{zone} badge"] = config.players.max
    for sides in sorted({z.die for z in config.zones.values()}):
        counts[f"d{sides}"] = 1
    return counts


def _report(ctx: BuildContext, stage: str, timings: dict[str, float]) -> None:
    ctx.progress(f"{stage} timings: " + ", ".join(f"{k} {v:.2f} s" for k, v in timings.items()))


def components_stage(ctx: BuildContext) -> list[Artifact]:
    """components-{a4,letter}.pdf, the A4 previews and inventory.csv, from the parts declared once with the pages
    that print them (the kits stage reads what the README needs from
    ``ctx.computed["kit-summary:<paper>"]``)."""
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    sets = _component_sets(ctx)
    timings["parts"] = time.perf_counter() - t0
    artifacts: list[Artifact] = []
    kits: dict[str, PaperKit] = {}
    for paper in (A4, LETTER):
        t = time.perf_counter()
        kit = build_components(ctx.config, sets, paper)
        kits[paper.slug] = kit
        ctx.keep(f"kit-summary:{paper.slug}", KitSummary.of(kit))
        timings[f"components-{paper.slug}"] = time.perf_counter() - t
        artifacts.append(Artifact(f"components-{paper.slug}.pdf", kit.pdf,
                                  f"every playing part on {paper.name}", len(kit.pages)))
        summary = ", ".join(f"{lo.kind} {len(lo.cut_sheets)}" for lo in kit.laid)
        ctx.progress(f"components ({paper.name}): {len(kit.pages)} pages; sheets per part: {summary}")
    t = time.perf_counter()
    for i, page in enumerate(kits["a4"].pages, start=1):
        artifacts.append(Artifact(f"preview/components-a4-{i:02d}.png", render_png(page, PREVIEW_DPI),
                                  f"preview of components-a4.pdf page {i}"))
    timings["previews"] = time.perf_counter() - t
    t = time.perf_counter()
    spans = page_spans({f"components-{slug}.pdf": kit.laid for slug, kit in kits.items()})
    artifacts.append(Artifact("inventory.csv", inventory_csv(kit_parts(ctx), spans),
                              "every part: its count, size, sides and pages"))
    timings["inventory"] = time.perf_counter() - t
    _report(ctx, "components", timings)
    return artifacts


def cut_stage(ctx: BuildContext) -> list[Artifact]:
    """The print-then-cut edition: cut/components-{a4,letter}.pdf and one SVG per front page."""
    config: Config = ctx.config
    sets = _component_sets(ctx)
    artifacts: list[Artifact] = []
    for paper in (A4, LETTER):
        edition = cut_edition(config.title, functools.partial(lay_components, config, sets), paper)
        ctx.keep(f"cut-readme:{paper.slug}", (edition.readme, edition.duplex))
        artifacts.extend(edition.artifacts)
    return artifacts


def leaflet_stage(ctx: BuildContext) -> list[Artifact]:
    """leaflet-{a4,letter}.pdf."""
    from boardgen.games.global_wellbeing.board_layout import board_sections
    from boardgen.games.global_wellbeing.leaflet import leaflet_pdf  # reportlab: only this stage sets text
    from boardgen.games.global_wellbeing.minimap import leaflet_pictures

    pictures = leaflet_pictures(ctx.board)
    isolated = isolated_cells(ctx.board)
    sections = len(board_sections(ctx).sections)
    artifacts: list[Artifact] = []
    for paper in (A4, LETTER):
        data, pages = leaflet_pdf(ctx.config, paper, pictures, isolated, sections)
        artifacts.append(Artifact(f"leaflet-{paper.slug}.pdf", data, f"rules leaflet ({paper.name})", pages))
    return artifacts


def kits_stage(ctx: BuildContext) -> list[Artifact]:
    """kit-{a4,letter}.zip: the components, leaflet, board and cut files of one paper with a README (after the
    stages that make them)."""
    inventory = ctx.artifact("inventory.csv").data
    artifacts: list[Artifact] = []
    for paper in (A4, LETTER):
        slug = paper.slug
        extra = sorted((a for a in ctx.artifacts if _board_files(slug, a.path)),
                       key=functools.partial(_board_file_rank, slug))
        leaflet = ctx.artifact(f"leaflet-{slug}.pdf")
        cut_readme, cut_duplex = ctx.computed.get(f"cut-readme:{slug}", ((), ()))  # none when the cut stage is
        # left out of the build
        readme = readme_text(ctx.config, ctx.computed[f"kit-summary:{slug}"], leaflet.pages or 0, extra, cut_readme,
                             cut_duplex, kit_parts(ctx))
        zipped = [(f"components-{slug}.pdf", ctx.artifact(f"components-{slug}.pdf").data), ("inventory.csv", inventory),
                  (leaflet.path, leaflet.data), *((a.path, a.data) for a in extra),
                  *((a.path, a.data) for a in ctx.artifacts if is_cut_file(slug, a.path)),
                  ("README.txt", readme.encode("utf-8"))]
        artifacts.append(Artifact(f"kit-{slug}.zip", deterministic_zip(zipped),
                                  f"print-and-play kit on {paper.name} with README"))
    return artifacts


def kit_files(ctx: BuildContext) -> list[Artifact]:
    """Every file of the four stages above, run one after another in this process (for tests and benchmarks;
    the kits pack the board files already in ``ctx.artifacts``, which is left as it was)."""
    run = replace(ctx, artifacts=list(ctx.artifacts))
    made: list[Artifact] = []
    for stage in (components_stage, leaflet_stage, cut_stage, kits_stage):
        produced = stage(run)
        run.artifacts.extend(produced)
        made.extend(produced)
    return made

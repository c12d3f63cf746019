"""The flagship's kit, declared for the shared assembler (``boardgen.kit.assembler``, in the stages of
``boardgen.kit.stages``): its parts (the index table card, markers, turn counter and paper dice, chips, badges,
tokens and standees), how they are laid out on a paper, its leaflet and its words for the README. The four
stages: ``components_stage`` (components-{a4,letter}.pdf, the A4 previews, inventory.csv), ``cut_stage`` (the
print-then-cut edition), ``leaflet_stage`` (leaflet-{a4,letter}.pdf), the three side by side (and beside the
board and validation), then ``kits_stage`` (kit-{a4,letter}.zip with the README).

Its board, declared for the shared board files (``boardgen.kit.board``): a geographic map cut along its land
cells (``boardgen.geomap.jigsaw.MapBoard``) with the flagship's art (``board_art``: zones, table, chips legend)
and its section plan (``board_layout``), which the shared stages ``boardgen.kit.stages:board_stage`` (the posters)
and ``sections_stage`` (the jigsaw sections and their cut files) print side by side.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import replace

from boardgen import __version__
from boardgen.build import BuildContext
from boardgen.cards.dice import dice, folded_size_mm
from boardgen.cards.kitfiles import PaperKit
from boardgen.cards.model import ComponentSet
from boardgen.cards.shapes import piece_size_mm
from boardgen.cards.sheets import LaidOut, lay_out
from boardgen.errors import LayoutError
from boardgen.games.global_wellbeing.board_art import BoardArt, board_scene, check_legend_clear, make_art
from boardgen.games.global_wellbeing.board_layout import (
    ART_SOURCES,
    board_coast,
    board_legend,
    board_sections,
    section_page_sizes_mm,
    section_papers,
)
from boardgen.games.global_wellbeing.rules.variants import player_counts
from boardgen.games.global_wellbeing.schema import Config
from boardgen.games.global_wellbeing.tables import reference_cards, turn_grid
from boardgen.games.global_wellbeing.tokens import badges, chips, markers, player_pieces
from boardgen.geomap.cache import cached_for_board
from boardgen.geomap.jigsaw import MapBoard, piece_marks
from boardgen.geomap.model import Board
from boardgen.i18n import N_, current
from boardgen.io import Artifact
from boardgen.kit.assembler import KitSpec
from boardgen.kit.board import BoardDeclaration
from boardgen.kit.parts import KitParts, board_part, board_piece, parts_from_sets
from boardgen.kit.stages import PaperLeaflet, components_files, cut_files, kit_stage_files, leaflet_files, zip_files
from boardgen.layout.section_marks import SectionMark
from boardgen.render.cairo_backend import render_pdf
from boardgen.render.imposition import DEFAULT_STYLE, Paper, PrintCutMarks, print_then_cut
from boardgen.render.scene import Scene


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
        title = current().gettext("Bio-productivity index table, markers, turn counter and paper dice")
        cards = replace(cards, title=title,
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
    "card": N_("single-sided, ideally on card (160-250 g/m2); cut the cards on the crop marks, the markers and "
               "dice on their dark lines; dice: crease the dashed lines, glue the grey tabs inside."),
    "marker": N_("single-sided on card; cut out the discs on their dark line."),
    "chip": N_("DOUBLE-SIDED (flip on the long edge): fronts and backs alternate; cut out on the dark line."),
    "badge": N_("DOUBLE-SIDED (flip on the long edge): fronts and backs alternate; cut out on the dark line."),
    "token": N_("single-sided on card; cut each piece out on its dark line."),
    "standee": N_("single-sided on thin card; the strips touch: cut along the dark lines with long straight cuts, "
                  "fold on the dashed lines, glue the two faces back to back and bend the end tabs out opposite "
                  "ways as feet."),
    "die": N_("single-sided on thin card; cut on the solid line, crease the dashed lines, glue the grey tabs "
              "inside."),
}
"""How to print and cut each kind of sheet (the README's page guide looks each up in the edition's catalog)."""
_SQUARE_CHIPS = N_("DOUBLE-SIDED (flip on the long edge): fronts and backs alternate; the chips touch, so cut the "
                   "sheet into strips and the strips into squares with long straight cuts from crop mark to crop "
                   "mark (a craft knife and metal ruler, or a guillotine).")
_FOLDED = N_("single-sided; cut out each pair, fold on the dashed line and glue front to back.")


def how_to(config: Config) -> dict[str, str]:
    """How to print and cut each kind of sheet, for the README (square chips touch; fold-over chips and badges
    are printed single-sided)."""
    words = dict(_HOW_TO)
    if config.components.chip_shape == "square":
        words["chip"] = _SQUARE_CHIPS
    if config.components.double_sided == "fold":
        words["chip"] = words["badge"] = _FOLDED
    return words


def leaflet_how(pages: int) -> str:
    """The README's words on a leaflet of ``pages`` sheet sides."""
    _ = current().gettext
    if pages <= 2:
        words = _("the rules, a booklet of {n} pages. Print double-sided, flipping on the short edge, then fold "
                  "the sheet in half with the title page on the outside.")
    else:
        words = _("the rules, a booklet of {n} pages. Print double-sided, flipping on the short edge, then fold "
                  "each sheet in half and nest them in order (sheet 1 outside), title page on top.")
    return words.format(n=2 * pages)


def rules_notes(config: Config) -> list[str]:
    """Designer notes that belong in the README, not in the players' leaflet."""
    tr = current()
    _ = tr.gettext
    r = config.rules
    notes = [_("Notes on the rules (for whoever prints the game):")]
    notes.append("  " + _("Stewardship: the original rules ask for climate rolls both after every turn and after "
                          "every fifth turn; this edition rolls every {n} turns (template key "
                          "rules.stewardship_every). The leaflet offers 'every turn' as a variant.").format(
        n=r.stewardship_every))
    if r.investments_per_turn:
        notes.append("  " + tr.ngettext(
            "Investing: at most {n} new piece a turn (rules.investments_per_turn). Late in the game harvests pay "
            "more than that, so chips pile up and the bank can run dry; the leaflet says so, says that unspent "
            "chips score nothing, and says what happens when the bank is empty.",
            "Investing: at most {n} new pieces a turn (rules.investments_per_turn). Late in the game harvests pay "
            "more than that, so chips pile up and the bank can run dry; the leaflet says so, says that unspent "
            "chips score nothing, and says what happens when the bank is empty.",
            r.investments_per_turn).format(n=r.investments_per_turn))
    even, _other = player_counts(config)
    counts = "?"
    if even:
        counts = _("{some} or {last}").format(some=", ".join(map(str, even[:-1])), last=even[-1]) \
            if len(even) > 1 else str(even[-1])
    notes.append("  " + _("Players: the leaflet recommends {counts} players with teams otherwise, as the original "
                          "does; the rules and the simulator work for any count from {low} to {high}.").format(
        counts=counts, low=config.players.min, high=config.players.max))
    notes.append("  " + _("Zone markers are small strips sized to one box of the board's index table (and the "
                          "card's), so they sit beside the value; one spare per zone is printed."))
    return notes


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


def _component_sets(ctx: BuildContext) -> list[ComponentSet]:
    return ctx.value("component-sets",  # type: ignore[no-any-return]
                     lambda: component_sets(ctx.config, ctx.board.layout.size_mm))


def kit_parts(ctx: BuildContext, board_drawn: bool = True) -> KitParts:
    """Every part of the flagship's box, declared once (``boardgen.kit.parts``): the map board, the index
    table card, zone markers, turn counter and marker, the paper dice, chips, zone badges and each player's
    tokens and standees. ``board_drawn=False``: the board's piece without its picture (a blank of its size),
    for the stages that list the parts (their inventory and README read names, counts and sizes): in a parallel
    build the process that runs them then does not draw the map a second time."""
    config: Config = ctx.config
    b = config.board
    picture = board_picture(_art(ctx)) if board_drawn else Scene(())
    declared = [board_part("board", board_piece(picture, b.width_mm, b.height_mm))]
    for p in parts_from_sets(_component_sets(ctx), "components-{paper}.pdf"):
        if p.kind == "die" and p.sides:
            w, h, d = folded_size_mm(p.sides, config.components.dice_size_mm)
            p = replace(p, width_mm=w, height_mm=h, depth_mm=d)
        declared.append(p)
    return KitParts(config.game, config.title, tuple(declared),
                    (N_("scissors (a craft knife and metal ruler for straight cuts), glue"),
                     N_("matchsticks or coins if you lose a marker; real dice (d4 d6 d8 d10 d12 d20) can replace "
                        "the paper ones")))


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


def kit_spec(ctx: BuildContext, parts: bool = True) -> KitSpec:
    """The flagship's kit as the shared assembler takes it (``boardgen.kit.assembler.KitSpec``): its parts, how
    they are laid out on a paper, its leaflet and its words. Its parts are listed, not drawn: the board's piece
    is a blank (``kit_parts``'s ``board_drawn``; the exports draw every part from ``kit_parts`` itself).
    ``parts=False``: the declared parts left empty, for the cut and leaflet stages, which never read them."""
    config: Config = ctx.config
    forms = config.components.piece_forms
    _ = current().gettext
    pieces = (N_("Player pieces come twice, as flat tokens and as standees: print the kind you like."),) \
        if {"tokens", "standees"} <= set(forms) else ()
    declared = kit_parts(ctx, board_drawn=False) if parts else KitParts(config.game, config.title, ())
    return KitSpec(
        config.title, declared, functools.partial(_lay, ctx), PaperLeaflet(functools.partial(_leaflet, ctx)),
        leaflet_how, how_to(config),
        cut_contents=N_("the parts"),
        header=(_("edition {edition}, made by boardgen {version}, template sha256 {sha}").format(
            edition=config.edition, version=__version__, sha=config.template_sha256[:16]),),
        # TRANSLATORS: two README lines: keep the line break (\n).
        notes=(*_("Double-sided pages carry a cross-hair at the top centre: it sits in the same spot on both "
                  "sides when\nthe printer lines the back up with the front.").split("\n"), "",
               *rules_notes(config)),
        components_what=N_("every playing part, page by page below."),
        guide_notes=(*pieces, N_("The simpler game (see the leaflet) needs no chips and no badges.")))


def _lay(ctx: BuildContext, paper: Paper) -> list[LaidOut]:
    return lay_components(ctx.config, _component_sets(ctx), paper)


def _leaflet(ctx: BuildContext, paper: Paper) -> tuple[bytes, int]:
    """The rules leaflet on ``paper`` (reportlab, the minimap pictures and the section count: only the stage
    that sets the leaflet reads them)."""
    from boardgen.games.global_wellbeing.leaflet import leaflet_pdf
    from boardgen.games.global_wellbeing.minimap import leaflet_pictures

    pictures = ctx.value("leaflet-pictures", lambda: leaflet_pictures(ctx.board))
    data, pages = leaflet_pdf(ctx.config, paper, pictures, isolated_cells(ctx.board), len(board_sections(ctx).sections))
    return data, pages


def _spec(ctx: BuildContext, parts: bool = True) -> KitSpec:
    return ctx.value(f"kit-spec:{parts}", lambda: kit_spec(ctx, parts))  # type: ignore[no-any-return]


# ------------------------------------------------------------------------------------------ the board


def build_board_art(ctx: BuildContext) -> BoardArt:
    """The board's art resolved once: the map, its jigsaw cut and the legend's place (checked clear of the
    pieces' knobs)."""
    layout = board_sections(ctx)
    art = make_art(ctx.board, layout, board_legend(ctx), board_coast(ctx))
    problems = check_legend_clear(ctx.board, art.legend, layout.sections[0].outline_mm,
                                  [s.outline_mm for s in layout.sections])
    if problems:
        raise LayoutError("board legend: " + "; ".join(problems))
    return art


def _art(ctx: BuildContext) -> BoardArt:
    return ctx.value("board-art", lambda: build_board_art(ctx))  # type: ignore[no-any-return]


def board_picture(art: BoardArt, bleed_mm: float = DEFAULT_STYLE.bleed_mm) -> Scene:
    """The whole board in board mm, painted ``bleed_mm`` beyond its trim: the poster's art, and (the very same
    items, so a PDF holds them once) the art behind every jigsaw piece."""
    key = ("board-picture", bleed_mm)
    picture: Scene | None = art.memo.get(key)
    if picture is None:
        picture = art.memo[key] = board_scene(art, bleed_mm=bleed_mm)
    return picture


def board_marks(art: BoardArt) -> tuple[SectionMark, ...]:
    """The pieces' marks in open sea, clear of the legend (``geomap.jigsaw.piece_marks``), kept in the board
    cache (they depend on the board, its cut and the legend)."""
    return cached_for_board("section-marks", art.board, f"{section_page_sizes_mm()!r} {art.legend!r}",
                            lambda: piece_marks(art.board, art.sections, art.coast_mm,
                                                [b.polygon for b in art.legend]), ART_SOURCES)


def map_board(ctx: BuildContext) -> MapBoard:
    """The flagship's board as the shared board files take it (``art_board`` of this build's art)."""
    return art_board(_art(ctx))


def art_board(art: BoardArt) -> MapBoard:
    """The board of ``art`` as the shared board files take it: its picture, its cut, the papers its sections
    print on and their marks."""
    b = art.config.board
    return MapBoard(art.config.title, b.width_mm, b.height_mm, board_picture(art), art.sections,
                    section_papers(art.sections), functools.partial(board_marks, art))


def board_declaration(ctx: BuildContext) -> BoardDeclaration:
    """The flagship's board as the kit prints it (``GamePlugin.board_print``): the map cut along its land cells."""
    return BoardDeclaration(map_board(ctx), about=f"{len(ctx.board.cells)} land cells")


# ------------------------------------------------------------------------------------------ stages


def components_stage(ctx: BuildContext) -> list[Artifact]:
    """components-{a4,letter}.pdf, the A4 previews and inventory.csv (``boardgen.kit.stages``)."""
    return components_files(ctx, _spec(ctx))


def cut_stage(ctx: BuildContext) -> list[Artifact]:
    """The print-then-cut edition: cut/components-{a4,letter}.pdf and one SVG per front page."""
    return cut_files(ctx, _spec(ctx, parts=False))


def leaflet_stage(ctx: BuildContext) -> list[Artifact]:
    """leaflet-{a4,letter}.pdf."""
    return leaflet_files(ctx, _spec(ctx, parts=False))


def kits_stage(ctx: BuildContext) -> list[Artifact]:
    """kit-{a4,letter}.zip with the README, after the stages that make their files."""
    return zip_files(ctx, _spec(ctx))


def kit_files(ctx: BuildContext) -> list[Artifact]:
    """Every file of the four stages above, run one after another in this process (for tests and benchmarks;
    the kits pack the board files already in ``ctx.artifacts``, which is left as it was)."""
    return kit_stage_files(ctx, _spec(ctx))

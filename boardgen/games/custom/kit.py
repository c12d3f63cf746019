"""A data-only game's kit: its board, declared for the shared board stages (``boardgen.kit.board``: print-shop
poster in CMYK PDF/X-4 and RGB, jigsaw sections on A4 and Letter whose seams keep every space whole, the cut
files), and the components (declared for the shared assembler, ``boardgen.kit.assembler``: every deck, token,
die and standee on A4 and Letter, the print-then-cut edition, the leaflet from Markdown, inventory.csv and the
two kit zips with their README).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from boardgen import __version__
from boardgen.cards.deck import cards_sheets
from boardgen.cards.dice import folded_size_mm
from boardgen.cards.model import ComponentSet
from boardgen.cards.sheets import LaidOut, lay_out, one_orientation
from boardgen.errors import LayoutError
from boardgen.games.custom.parts import (
    GameData,
    board_graph,
    deck_set,
    load_data,
    small_parts_set,
    token_set,
)
from boardgen.games.custom.schema import CustomTemplate
from boardgen.i18n import N_, current
from boardgen.io import Artifact
from boardgen.kit.assembler import KitSpec, assemble_kit
from boardgen.kit.board import BoardDeclaration, GridBoard
from boardgen.kit.parts import (
    KitParts,
    Part,
    board_part,
    board_piece,
    deck_part,
    parts_from_sets,
)
from boardgen.plugin import BuildContext
from boardgen.render.imposition import Paper

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


def board_declaration(ctx: BuildContext) -> BoardDeclaration | None:
    """The template's board as the kit prints it (None: it has none): seams and knobs keep clear of every
    space."""
    t: CustomTemplate = ctx.config
    b = t.board
    if b is None:
        return None
    graph = board_graph(t)
    keep = tuple(s.bounds_mm for s in graph.spaces) if graph is not None else ()
    return BoardDeclaration(GridBoard(t.title, b.width_mm, b.height_mm, ctx.board, keep_whole=keep, avoid=keep),
                            about=f"{len(b.spaces)} spaces")


# ------------------------------------------------------------------------------------------ components


def lay_paper(ctx: BuildContext, paper: Paper) -> list[LaidOut]:
    """Every deck and the other parts on ``paper``, all pages one way round (the file is double-sided)."""
    t: CustomTemplate = ctx.config
    decks = deck_sets(ctx)
    sets = other_sets(ctx)

    def lay(pp: Paper) -> list[LaidOut]:
        laid: list[LaidOut] = []
        for name, cset in decks:
            n = len(cset.components)
            title = current().ngettext("{title}: {deck} ({n} card, fronts then backs)",
                                       "{title}: {deck} ({n} cards, fronts then backs)", n).format(
                title=t.title, deck=name, n=n)
            laid.append(cards_sheets(cset, pp, "duplex", title=title, keep_orientation=pp is not paper))
        for s in sets:
            try:
                laid.append(lay_out(s, pp, s.title, "duplex"))
            except ValueError as exc:
                raise LayoutError(f"{t.source}: cannot lay out {s.title} on {pp.name}: {exc}") from None
        return laid

    return one_orientation(lay, paper)


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
        w, h, d = folded_size_mm(spec.sides, spec.size_mm)
        declared.append(Part(spec.name, "die", len(pieces), w, h, d,
                             pieces=tuple(c for c, _ in pieces), sides=spec.sides, faces=faces, colour=spec.colour,
                             file=COMPONENTS, sheet_kind=",".join(dict.fromkeys(k for _, k in pieces))))
    tools = N_("scissors or a craft knife and a metal ruler, glue for the dice") if t.dice else \
        N_("scissors or a craft knife and a metal ruler")
    return KitParts(t.game, t.title, tuple(declared), (tools, *t.notes))


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


def leaflet_how(pages: int) -> str:
    return (N_("the rules: print it single-sided.") if pages == 1 else
            N_("the rules: print single-sided, or double-sided flipping on the long edge."))


def components_stage(ctx: BuildContext) -> list[Artifact]:
    """Every deck, token, die and standee through the shared assembler (``boardgen.kit.assembler``): components,
    the print-then-cut edition, previews, the leaflet from Markdown, inventory.csv and the kit zips."""
    return assemble_kit(ctx, kit_spec(ctx))


def kit_spec(ctx: BuildContext) -> KitSpec:
    """The template's kit as the shared assembler takes it: its parts, how they are laid out, its leaflet from
    Markdown and the README's words."""
    from boardgen.games.custom.leaflet import leaflet_pdf

    t: CustomTemplate = ctx.config
    declared = kit_parts(ctx)
    markdown = data(ctx).leaflet
    _ = current().gettext
    # TRANSLATORS: two README lines: keep the line break (\n).
    notes = _("Cutting: cards and square tokens on their crop marks (the cards touch: one cut between two);\n"
              "round and hexagonal tokens, dice and standees on their solid outlines.").split("\n")
    if t.dice or t.standees:
        notes.append(_("Dice and standees: crease the dashed lines and fold; glue the grey tabs of each die inside."))
    return KitSpec(
        t.title, declared, functools.partial(lay_paper, ctx),
        lambda paper, _kit: leaflet_pdf(t, markdown, paper, declared), leaflet_how,
        cut_contents=N_("the parts"), components_what=N_("every other part, page by page below."),
        header=(_("edition {edition}, made by boardgen {version} from a data-only template (no rules engine: "
                  "boardgen printed the parts; the rules are the leaflet's), template sha256 {sha}").format(
            edition=t.edition, version=__version__, sha=t.template_sha256[:16]),),
        notes=tuple(notes), box_extra=((1, N_("rules leaflet"), N_("leaflet-{paper}.pdf")),))


def all_sets(ctx: BuildContext) -> Sequence[ComponentSet]:
    """Every printed set but the board (for exports)."""
    return [cset for _name, cset in deck_sets(ctx)] + other_sets(ctx)

"""The printable piecepack's kit, shared by ``game: piecepack`` and every piecepack game (Global Warming): its
sheets on a paper (duplex or fold-over backs), its declared parts and the README's words for its sheets. The
piecepack's own kit (``kit_stage``) is these through the shared assembler (``boardgen.kit.assembler``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from boardgen.cards.model import Component, ComponentSet
from boardgen.cards.sheets import LaidOut, lay_out
from boardgen.errors import LayoutError
from boardgen.games.piecepack.drawing import DIE_RANK, piecepack_sets
from boardgen.i18n import N_
from boardgen.io import Artifact
from boardgen.kit.assembler import KitSpec, assemble_kit
from boardgen.kit.parts import KitParts, Part, parts_from_sets
from boardgen.kit.shape import COMPONENTS
from boardgen.plugin import BuildContext
from boardgen.render.imposition import PAPERS, Paper

HOW_TO = {
    "tile": N_("DOUBLE-SIDED on card (160-250 g/m2): each front page is followed by its back (flip edge below); "
               "cut on the crop marks."),
    "coin": N_("DOUBLE-SIDED on card: value sides, then suit sides on the back (flip edge below); cut on the dark "
               "circle. Coins are small: if your printer does not line up front and back within 1 mm, print the "
               "fold-over file's coins instead."),
    "pawn": N_("Single-sided on thin card; cut the strips, fold on the dashed lines, glue the faces back to back, "
               "bend the coloured feet out opposite ways."),
    "die": N_("Single-sided on thin card; cut on the solid line, crease the dashed lines, glue the grey tabs "
              "inside."),
}
"""How to print and cut each kind of sheet (the README's page guide looks each up in the edition's catalog)."""
FOLD_HOW = N_("the same pieces for printers without double-sided printing: each tile and coin is printed with its "
              "back below it; cut around the pair, fold on the dashed line, glue.")
FOLD_HOW_TO = {
    "tile": N_("Single-sided on card (160-250 g/m2); cut around each front-and-back pair, fold it on the dashed "
               "line and glue the halves back to back."),
    "coin": N_("Single-sided on thin card; cut around each pair, fold it on the dashed line and glue."),
    "pawn": HOW_TO["pawn"],
    "die": HOW_TO["die"],
}
TOOLS = N_("scissors or a craft knife and ruler, glue for the pawns and dice")


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


def piecepack_parts(spec: Any, bag: str = "") -> list[Part]:
    """The piecepack's parts: tiles and coins by suit, pawns, dice (``bag``: the bag the coins are drawn from)."""

    def name(c: Component) -> str:  # "tile 3 of Suns" -> "tile of Suns": the six ranks of a suit make one part
        return re.sub(r"^(tile|coin) \S+ of ", r"\1 of ", c.label)

    declared = []
    for p in parts_from_sets(piecepack_sets(spec), COMPONENTS, name=name):
        if p.kind == "die":
            p = replace(p, width_mm=spec.die_size_mm, height_mm=spec.die_size_mm, depth_mm=spec.die_size_mm,
                        faces=tuple(spec.rank_names[DIE_RANK[n]] for n in range(1, 7)), colour="#ffffff")
        if p.kind == "coin" and bag:
            p = replace(p, bag=bag)
        declared.append(p)
    return declared


def kit_parts(ctx: BuildContext) -> KitParts:
    """The piecepack's parts, declared once (``boardgen.kit.parts``)."""
    config = ctx.config
    return KitParts("piecepack", config.title, tuple(piecepack_parts(config.piecepack)), (TOOLS,))


def engine_part_counts(ctx: BuildContext) -> dict[str, int]:
    """The piecepack has no engine: its numbers are its spec's (one tile and coin per suit and rank)."""
    spec = ctx.config.piecepack
    return {f"{kind} of {s.name}": len(spec.ranks) for s in spec.suits for kind in ("tile", "coin")}


def fold_lay(config: Any) -> Any:
    """The fold-over edition's lay-out function, when the template asks for one beside duplex backs."""
    if not (config.print.also_fold and config.print.backs == "duplex"):
        return None
    sets = piecepack_sets(config.piecepack)
    return lambda paper: lay_piecepack(config, sets, paper, "fold")


def papers(config: Any) -> tuple[Paper, ...]:
    return tuple(PAPERS[slug] for slug in config.papers)


def kit_stage(ctx: BuildContext) -> list[Artifact]:
    """The piecepack alone: its sheets, fold-over sheets, cut edition, inventory and kit zips (the leaflet is
    a page of how to print it)."""
    from boardgen.games.piecepack.leaflet import leaflet_pdf

    config = ctx.config
    sets = piecepack_sets(config.piecepack)
    spec = KitSpec(
        config.title, kit_parts(ctx), lambda paper: lay_piecepack(config, sets, paper, config.print.backs),
        lambda paper, _kit: leaflet_pdf(config, paper),
        N_("what the piecepack holds and how to make it, one page."), HOW_TO,
        fold_lay=fold_lay(config), fold_how=FOLD_HOW, fold_how_to=FOLD_HOW_TO, papers=papers(config),
        box_extra=((1, N_("leaflet"), N_("one page")),))
    return assemble_kit(ctx, spec)

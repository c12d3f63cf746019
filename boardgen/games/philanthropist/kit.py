"""The Philanthropist's kit, declared for the shared assembler: its parts and how they are laid out on a paper,
its leaflet and its README words; ``components_stage`` writes every part on A4 and Letter, the print-then-cut
edition, previews, the leaflet, inventory.csv and the two kit zips (``boardgen.kit.assembler``). Its board is
declared in ``board`` and printed by the shared board stages (``boardgen.kit.stages``)."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import replace

from boardgen import __version__
from boardgen.cards.deck import deck_components, deck_sheets
from boardgen.cards.kitfiles import PaperKit
from boardgen.cards.model import ComponentSet
from boardgen.cards.sheets import LaidOut, lay_out, one_orientation
from boardgen.errors import LayoutError
from boardgen.games.philanthropist import parts
from boardgen.games.philanthropist.leaflet import choices, leaflet_pdf
from boardgen.games.philanthropist.parts import ACTION_WORDS
from boardgen.games.philanthropist.rules.engine import Rules
from boardgen.games.philanthropist.schema import PhilanthropistTemplate, load_cards
from boardgen.i18n import N_, current
from boardgen.io import Artifact
from boardgen.kit.assembler import KitSpec, assemble_kit, paper_kit
from boardgen.kit.parts import (
    KitParts,
    board_part,
    board_piece,
    deck_part,
    parts_from_sets,
)
from boardgen.plugin import BuildContext
from boardgen.render.imposition import Paper


def component_sets(t: PhilanthropistTemplate) -> list[ComponentSet]:
    """The parts besides the business cards (which the shared deck lays out itself)."""
    small = parts.dice(t)
    chips = parts.avatars(t).components
    aids = parts.player_aids(t).components
    half = (len(aids) + 1) // 2
    _ = current().gettext
    mixed = ComponentSet("die", _("Dice, avatar chips and player aids: cut out on the solid lines; dice: crease the "
                                  "dashed lines and glue the grey tabs inside"),
                         (*small.components, *chips, *aids[:half]), uniform=False,
                         row_starts=(0, len(small.components), len(small.components) + len(chips)))
    tokens = parts.cube_tokens(t)
    counters = ComponentSet("token", _("{tokens}; player aids").format(tokens=tokens.title),
                            (*tokens.components, *aids[half:]),
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
                    (N_("scissors, a craft knife and metal ruler, glue; real dice and cubes (or coins) can replace "
                        "the paper ones"),))


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


def lay_paper(t: PhilanthropistTemplate, sets: Sequence[ComponentSet], paper: Paper) -> list[LaidOut]:
    """The business cards and every other part on ``paper``, all pages turned one way (the file is duplex)."""
    deck = parts.business_deck(t, load_cards(t))

    def lay(pp: Paper) -> list[LaidOut]:
        title = current().ngettext("{title}: {deck} ({n} card, fronts then backs)",
                                   "{title}: {deck} ({n} cards, fronts then backs)", t.cards.count).format(
            title=t.title, deck=deck.name, n=t.cards.count)
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
    return paper_kit(t.title, lay_paper(t, sets, paper), paper)


def card_flip_edge(kit: PaperKit) -> str:
    """The duplex flip that lines the card backs up with their fronts: the backs are mirrored left-right, so a
    portrait sheet flips on its long edge and a landscape sheet on its short edge."""
    page = next(lo.pages[0] for lo in kit.laid if lo.kind == "business-cards")
    return "long" if page.height_mm >= page.width_mm else "short"


_PART_NAMES = (
    (re.compile(r"(?P<kind>.+) meeple"), N_("{kind} meeple")),
    (re.compile(r"(?P<name>.+) avatar"), N_("{name} avatar")),
    (re.compile(r"(?P<value>\d+)-cube token"), N_("{value}-cube token")),
)
_FIXED_PART_NAMES = {name: name for name in (N_("board"), N_("business card"), N_("action die"), N_("white die"),
                                             N_("player aid"))}
LEAFLET_PART = (1, N_("rules leaflet"), N_("one sheet folded in half"))


def printed_part_name(name: str) -> str:
    """A declared part's name (the engine's word, e.g. "red meeple") as the edition's leaflet prints it."""
    _ = current().gettext
    if name in _FIXED_PART_NAMES:
        return _(name)
    for pattern, words in _PART_NAMES:
        found = pattern.fullmatch(name)
        if found:
            return _(words).format(**found.groupdict())
    return name


_PRINT = {
    "business-cards": N_("DOUBLE-SIDED on card (160-250 g/m2): each front page is followed by its backs (flip "
                         "edge below). The cards touch: cut on the crop marks with long straight cuts."),
    "standee": N_("Print single-sided on thin card."),
    "die": N_("Print single-sided on card (160-250 g/m2)."),
    "token": N_("Print single-sided on card (160-250 g/m2)."),
}
"""How to print and cut each kind of sheet (the README's page guide looks each up in the edition's catalog)."""


def components_stage(ctx: BuildContext) -> list[Artifact]:
    t: PhilanthropistTemplate = ctx.config
    sets = component_sets(t)
    cards = load_cards(t)
    declared = kit_parts(ctx)
    _ = current().gettext
    rows = [(printed_part_name(p.name), p.count, p.described) for p in declared.parts]
    rows.append((_(LEAFLET_PART[1]), 1, _(LEAFLET_PART[2])))

    def leaflet(paper: Paper, kit: PaperKit) -> tuple[bytes, int]:
        return leaflet_pdf(t, cards, paper, rows, card_flip=card_flip_edge(kit))

    spec = KitSpec(
        t.title, declared, functools.partial(lay_paper, t, sets), leaflet,
        N_("the rules: one sheet, print double-sided flipping on the short edge, fold in half."), _PRINT,
        header=(_("edition {edition}, made by boardgen {version}, template sha256 {sha}").format(
            edition=t.edition, version=__version__, sha=t.template_sha256[:16]),),
        notes=(N_("Choices this edition makes where the original rules are silent (template keys):"),
               *(f"  {key}: {text}" for key, text in choices(t))),
        box_extra=(LEAFLET_PART,))
    return assemble_kit(ctx, spec)

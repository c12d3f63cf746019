"""One kit assembler for every game: a game declares its kit (``KitSpec``: its parts, the function that lays
them out on a paper, its leaflet, its words for the README) and ``assemble_kit`` makes the rest the same way
for every game, in the kit's shape (``boardgen.kit.shape``):

  components-{paper}.pdf         every printed part, laid out by ``KitSpec.lay``
  components-fold-{paper}.pdf    when ``KitSpec.fold_lay`` is given (fold-over backs)
  cut/components-{paper}.pdf     the print-then-cut edition and one SVG per marked sheet (``kit.cut_edition``)
  leaflet-{paper}.pdf            from ``KitSpec.leaflet``
  inventory.csv                  from ``KitSpec.parts`` with the pages that print each part
  kit-{paper}.zip                the paper's files, the board's files the board stage made, README.txt
  preview/components-{paper}-NN.png  of the first paper

The README comes from ``kit.readme`` with the game's words. Every word is looked up in the edition's catalog when
it is printed (``KitSpec.gettext``, by default ``boardgen.i18n.current()``): a game marks its constants with
``N_`` and the assembler translates them whole, placeholders filled after.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from boardgen.cards.kitfiles import PaperKit, deterministic_zip
from boardgen.cards.sheets import LaidOut
from boardgen.i18n import N_
from boardgen.io import Artifact
from boardgen.kit.cut_edition import CutEdition, cut_edition
from boardgen.kit.cut_edition import pdf_name as cut_pdf_name
from boardgen.kit.parts import KitParts, inventory_csv, page_spans
from boardgen.kit.readme import Gettext, edition_words, kit_readme, page_guide
from boardgen.kit.shape import INVENTORY, board_files_for, components_name, fold_name, leaflet_name, zip_name
from boardgen.plugin import BuildContext
from boardgen.render.cairo_backend import render_pdf, render_png
from boardgen.render.imposition import A4, LETTER, Paper, duplex_readme_lines


@dataclass(frozen=True)
class KitSpec:
    """What a game says of its kit; everything else is the assembler's."""

    title: str
    parts: KitParts  # what the inventory and README list (names, counts, sizes): a game may leave a costly piece
    # undrawn here (the flagship's board); what draws parts (the exports) reads ``GamePlugin.kit_parts``
    lay: Callable[[Paper], Sequence[LaidOut]]  # every printed part on a paper, in print order
    leaflet: Callable[[Paper, PaperKit], tuple[bytes, int]]  # the leaflet PDF on a paper (given the laid-out
    # components, e.g. for their flip edge) and its page count
    leaflet_how: str | Callable[[int], str]  # the README's words after the leaflet's name: what it is and how to
    # print and fold it (or a function of its page count that says so)
    how_to: Mapping[str, str] = field(default_factory=dict)  # sheet kind -> how to print and cut those sheets
    cut_lay: Callable[[Paper], Sequence[LaidOut]] | None = None  # the cut edition's parts (default: ``lay``)
    cut_contents: str = N_("every playing part")
    fold_lay: Callable[[Paper], Sequence[LaidOut]] | None = None  # components-fold-{paper}.pdf
    fold_how: str = ""
    fold_how_to: Mapping[str, str] = field(default_factory=dict)  # sheet kind -> words for the fold-over file
    papers: tuple[Paper, ...] = (A4, LETTER)
    header: tuple[str, ...] = ()  # README lines under the title (edition, version), in the edition's language
    notes: tuple[str, ...] = ()  # README lines after what else to bring (variants, choices the edition makes)
    box_extra: tuple[tuple[int, str, str], ...] = ((1, N_("rules leaflet"), N_("leaflet-{paper}.pdf")),)
    data_files: tuple[Artifact, ...] = ()  # written beside the kit and put in every zip (rules.txt)
    gettext: Gettext = edition_words  # the edition's words (a game may pass its translator's gettext)
    preview_dpi: float = 40.0
    components_what: str = N_("every printed part, page by page below.")
    guide_notes: tuple[str, ...] = ()  # README lines after the components file's page guide (a blank line before)

    def leaflet_words(self, pages: int) -> str:
        """The README's words on the leaflet of ``pages`` pages (``leaflet_how``)."""
        return self.leaflet_how if isinstance(self.leaflet_how, str) else self.leaflet_how(pages)


@dataclass(frozen=True)
class PaperEdition:
    """One paper's laid-out files."""

    components: PaperKit
    cut: CutEdition
    leaflet: tuple[bytes, int]
    fold: PaperKit | None


PDF_TITLES = {"components": N_("{title}: components ({paper})"),
              "components, fold-over": N_("{title}: components, fold-over ({paper})")}
"""The components files' PDF titles, in the edition's words."""


def paper_kit(title: str, laid: Sequence[LaidOut], paper: Paper, what: str = "components") -> PaperKit:
    pages = tuple(p for lo in laid for p in lo.pages)
    heading = (edition_words(PDF_TITLES[what]).format(title=title, paper=paper.name) if what in PDF_TITLES
               else f"{title}: {what} ({paper.name})")
    return PaperKit(paper, tuple(laid), pages, render_pdf(pages, title=heading))


def lay_editions(spec: KitSpec) -> dict[str, PaperEdition]:
    out = {}
    for paper in spec.papers:
        kit = paper_kit(spec.title, spec.lay(paper), paper)
        cut = cut_edition(spec.title, spec.cut_lay or spec.lay, paper, contents=spec.gettext(spec.cut_contents))
        fold = paper_kit(spec.title, spec.fold_lay(paper), paper, "components, fold-over") if spec.fold_lay else None
        out[paper.slug] = PaperEdition(kit, cut, spec.leaflet(paper, kit), fold)
    return out


def assemble_kit(ctx: BuildContext, spec: KitSpec) -> list[Artifact]:
    """Every file of the kit but the board's (which the board stage made: they are put in the zips)."""
    def _(message: str) -> str:  # an empty string stays empty (gettext("") is the catalog's header)
        return spec.gettext(message) if message else message

    editions = lay_editions(spec)
    out: list[Artifact] = []
    per_paper: dict[str, list[Artifact]] = {}
    for slug, ed in editions.items():
        name = ed.components.paper.name
        mine = [Artifact(components_name(slug), ed.components.pdf,
                         _(spec.components_what), len(ed.components.pages))]
        if ed.fold is not None:
            mine.append(Artifact(fold_name(slug), ed.fold.pdf, _(spec.fold_how), len(ed.fold.pages)))
        data, pages = ed.leaflet
        mine.append(Artifact(leaflet_name(slug), data, _(spec.leaflet_words(pages)), pages))
        mine.extend(ed.cut.artifacts)
        per_paper[slug] = mine
        out.extend(mine)
        ctx.progress(f"kit ({name}): components {len(ed.components.pages)} pages ("
                     + ", ".join(f"{lo.kind} {len(lo.pages)}" for lo in ed.components.laid)
                     + f"), leaflet {pages} pages")
    first = editions[spec.papers[0].slug].components
    for i, page in enumerate(first.pages, start=1):
        out.append(Artifact(f"preview/components-{first.paper.slug}-{i:02d}.png", render_png(page, spec.preview_dpi),
                            f"preview of {components_name(first.paper.slug)} page {i}"))
    spans = page_spans({components_name(slug): ed.components.laid for slug, ed in editions.items()})
    inventory = Artifact(INVENTORY, inventory_csv(spec.parts, spans, [p.slug for p in spec.papers]),
                         _("every part, printed or not: its count, size, sides and the pages that print it."))
    out.append(inventory)
    out.extend(spec.data_files)
    for slug, ed in editions.items():
        out.append(paper_zip(ctx, spec, ed.components.paper, [*per_paper[slug], inventory, *spec.data_files],
                             _guides(spec, ed, slug), _duplex(ed, slug)))
    return out


def paper_zip(ctx: BuildContext, spec: KitSpec, paper: Paper, files: Sequence[Artifact],
              guides: Sequence[Sequence[str]], duplex: Sequence[str]) -> Artifact:
    """kit-{paper}.zip: ``files`` (the paper's kit files), the board's files the board stage made and the README
    with the page ``guides`` and flip-edge lines ``duplex``."""
    _ = spec.gettext
    slug = paper.slug
    board = [a for a in ctx.artifacts if a.path.startswith(("board-", "cut/board-"))]
    files = [*files, *(a for a in board if board_files_for(slug, a.path))]
    extra = tuple((n, _(name), _(what).format(paper=slug)) for n, name, what in spec.box_extra)
    readme = kit_readme(spec.title, paper.name, slug=slug, header=spec.header,
                        files=_listed(files), guides=guides, duplex=duplex,
                        board_sections=_sections(board, slug), parts=spec.parts,
                        notes=tuple(_(n) if n else n for n in spec.notes), box_extra=extra, _=_)
    members = [(a.path, a.data) for a in files] + [("README.txt", readme.encode("utf-8"))]
    return Artifact(zip_name(slug), deterministic_zip(members),
                    _("print-and-play kit on {paper} with README").format(paper=paper.name))


def _listed(files: Sequence[Artifact]) -> list[Artifact]:
    """The files in the order the README lists them: what to print first, the board, then the cut edition."""
    def rank(a: Artifact) -> tuple[int, str]:
        order = ("leaflet-", "components-", "board-poster.pdf", "board-poster-rgb", "board-sections", "board-cut",
                 "cut/", "inventory")
        return next((i for i, p in enumerate(order) if a.path.startswith(p)), len(order)), a.path
    return sorted(files, key=rank)


def _guides(spec: KitSpec, ed: PaperEdition, slug: str) -> list[list[str]]:
    guides = [page_guide(components_name(slug), ed.components, spec.how_to, spec.gettext)
              + guide_notes(spec)]
    if ed.fold is not None:
        guides.append(page_guide(fold_name(slug), ed.fold, spec.fold_how_to, spec.gettext))
    guides.append([spec.gettext("For a cutting machine:"), *ed.cut.readme])
    return guides


def guide_notes(spec: KitSpec) -> list[str]:
    """The lines after the components file's page guide: a blank line and ``KitSpec.guide_notes``."""
    return ["", *(spec.gettext(n) for n in spec.guide_notes)] if spec.guide_notes else []


def _duplex(ed: PaperEdition, slug: str) -> list[str]:
    files = [(components_name(slug), ed.components.pages), (cut_pdf_name(slug), ed.cut.kit.pages)]
    return duplex_readme_lines(files)


def _sections(board: Sequence[Artifact], slug: str) -> int:
    return sum(1 for a in board if a.path.startswith("cut/board-section-") and a.path.endswith(f"-{slug}.svg"))


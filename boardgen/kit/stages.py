"""The kit assembler (``boardgen.kit.assembler``) cut into build stages that can run side by side, for a game
whose kit is big enough to gain from it: ``components_files`` (components and fold-over files, previews,
inventory.csv), ``cut_files`` (the print-then-cut edition), ``leaflet_files`` (the leaflet, when it needs only
its paper: ``PaperLeaflet``) and, after them all, ``zip_files`` (each paper's kit zip and README). They make
the same files from the same ``KitSpec`` as ``assemble_kit`` does in one stage; what the zip stage needs from
the others (the README's page guides and flip-edge lines) travels as small kept values (``BuildContext.keep``),
so the stages may run in forked workers.

A game lists the four in its ``stages`` (the first three "parallel") with a function that makes its
``KitSpec`` from the context, e.g. ``functools.partial(components_files, spec=my_spec)`` or a wrapper.

The board's two stages serve every game with a printed board, named as they are in its ``stages``
(``boardgen.kit.stages:board_stage`` and ``boardgen.kit.stages:sections_stage``): they write the board files
(``boardgen.kit.board``) from what the game's plug-in declares (``GamePlugin.board_print``), and nothing for a
template whose board is not printed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from boardgen.cards.kitfiles import PaperKit
from boardgen.io import Artifact
from boardgen.kit.assembler import KitSpec, guide_notes, paper_kit, paper_zip
from boardgen.kit.board import BoardDeclaration, board_poster, board_poster_files, board_section_files
from boardgen.kit.cut_edition import cut_edition, is_cut_file
from boardgen.kit.parts import inventory_csv, page_spans
from boardgen.kit.readme import page_guide
from boardgen.kit.shape import INVENTORY, components_name, fold_name, leaflet_name
from boardgen.plugin import BuildContext
from boardgen.render.board_print import PosterArt
from boardgen.render.cairo_backend import render_png
from boardgen.render.imposition import Paper, duplex_readme_lines


@dataclass(frozen=True)
class PaperLeaflet:
    """A leaflet that needs only its paper, not the laid-out components: usable as ``KitSpec.leaflet`` (the
    components are not read) and set by ``leaflet_files`` in a stage of its own."""

    make: Callable[[Paper], tuple[bytes, int]]

    def __call__(self, paper: Paper, kit: PaperKit | None = None) -> tuple[bytes, int]:
        return self.make(paper)


@dataclass(frozen=True)
class ComponentsReadme:
    """What the zip stage needs of one paper's components stage: the page guides (components, then the
    fold-over file) and the components file's flip-edge lines (without the heading)."""

    guides: tuple[tuple[str, ...], ...]
    duplex: tuple[str, ...]


def declared_board(ctx: BuildContext) -> BoardDeclaration | None:
    """The game's printed board as its plug-in declares it (``GamePlugin.board_print``), once per context."""
    return ctx.value("board-declaration", lambda: ctx.plugin.board_print(ctx))  # type: ignore[no-any-return]


def _poster(ctx: BuildContext, declared: BoardDeclaration) -> PosterArt:
    """The board's RGB poster, drawn once per process: the board stage writes it, the sections stage prints the
    pieces' art from it (in a parallel build, when the same process runs both)."""
    return ctx.value("board-poster", lambda: board_poster(declared.board))  # type: ignore[no-any-return]


def board_stage(ctx: BuildContext) -> list[Artifact]:
    """board-poster.pdf (CMYK PDF/X-4), board-poster-rgb.pdf, preview/board.png and the board's declared data
    files, for any game that declares a printed board."""
    declared = declared_board(ctx)
    if declared is None:
        return []
    board = declared.board
    ctx.progress(f"board: {board.width_mm:g} x {board.height_mm:g} mm" + (f", {declared.about}" if declared.about
                                                                           else ""))
    return [*board_poster_files(board, _poster(ctx, declared)), *(Artifact(d.path, d.make(), d.what)
                                                                  for d in declared.data)]


def sections_stage(ctx: BuildContext) -> list[Artifact]:
    """board-sections-{paper}.pdf, board-cut.svg, cut/board-section-N-{paper}.svg and preview/sections.png (a
    map's also sections.geojson), for any game that declares a printed board."""
    declared = declared_board(ctx)
    if declared is None:
        return []
    made = board_section_files(declared.board, _poster(ctx, declared))
    pieces = sum(1 for a in made if a.path.startswith("cut/board-section-")) // max(1, len(declared.board.papers))
    ctx.progress(f"board: {pieces} jigsaw sections on {', '.join(p.name for p in declared.board.papers)}")
    return made


def _key(what: str, slug: str) -> str:
    return f"kit-{what}:{slug}"


def components_files(ctx: BuildContext, spec: KitSpec) -> list[Artifact]:
    """components-{paper}.pdf (and components-fold-{paper}.pdf), the first paper's previews and inventory.csv;
    the leaflet too when it reads the laid-out components (not a ``PaperLeaflet``)."""
    _ = spec.gettext
    out: list[Artifact] = []
    laid = {}
    for paper in spec.papers:
        slug = paper.slug
        kit = paper_kit(spec.title, spec.lay(paper), paper)
        laid[components_name(slug)] = kit.laid
        out.append(Artifact(components_name(slug), kit.pdf, _(spec.components_what), len(kit.pages)))
        guides = [tuple(page_guide(components_name(slug), kit, spec.how_to, spec.gettext) + guide_notes(spec))]
        if spec.fold_lay is not None:
            fold = paper_kit(spec.title, spec.fold_lay(paper), paper, "components, fold-over")
            out.append(Artifact(fold_name(slug), fold.pdf, _(spec.fold_how), len(fold.pages)))
            guides.append(tuple(page_guide(fold_name(slug), fold, spec.fold_how_to, spec.gettext)))
        duplex = tuple(duplex_readme_lines([(components_name(slug), kit.pages)])[1:])
        ctx.keep(_key("components", slug), ComponentsReadme(tuple(guides), duplex))
        if not isinstance(spec.leaflet, PaperLeaflet):
            out.append(_leaflet(spec, paper, spec.leaflet(paper, kit)))
        ctx.progress(f"kit ({paper.name}): components {len(kit.pages)} pages ("
                     + ", ".join(f"{lo.kind} {len(lo.pages)}" for lo in kit.laid) + ")")
        if paper == spec.papers[0]:
            out += [Artifact(f"preview/components-{slug}-{i:02d}.png", render_png(page, spec.preview_dpi),
                             f"preview of {components_name(slug)} page {i}") for i, page in enumerate(kit.pages, 1)]
    out.append(Artifact(INVENTORY, inventory_csv(spec.parts, page_spans(laid), [p.slug for p in spec.papers]),
                        _("every part, printed or not: its count, size, sides and the pages that print it.")))
    out.extend(spec.data_files)
    return out


def cut_files(ctx: BuildContext, spec: KitSpec) -> list[Artifact]:
    """cut/components-{paper}.pdf and one SVG per marked front sheet, for every paper."""
    out: list[Artifact] = []
    for paper in spec.papers:
        cut = cut_edition(spec.title, spec.cut_lay or spec.lay, paper, contents=spec.cut_contents)
        ctx.keep(_key("cut", paper.slug), (cut.readme, cut.duplex))
        out.extend(cut.artifacts)
    return out


def leaflet_files(ctx: BuildContext, spec: KitSpec) -> list[Artifact]:
    """leaflet-{paper}.pdf for every paper, when the leaflet needs only its paper (else ``components_files``
    makes it)."""
    if not isinstance(spec.leaflet, PaperLeaflet):
        return []
    return [_leaflet(spec, paper, spec.leaflet.make(paper)) for paper in spec.papers]


def _leaflet(spec: KitSpec, paper: Paper, made: tuple[bytes, int]) -> Artifact:
    data, pages = made
    return Artifact(leaflet_name(paper.slug), data, spec.gettext(spec.leaflet_words(pages)), pages)


def zip_files(ctx: BuildContext, spec: KitSpec) -> list[Artifact]:
    """kit-{paper}.zip with its README, from what the stages before made (the cut edition's lines are left out
    when the build ran without its stage)."""
    inventory = ctx.artifact(INVENTORY)
    data = [a for a in ctx.artifacts if any(a.path == d.path for d in spec.data_files)]
    out: list[Artifact] = []
    for paper in spec.papers:
        slug = paper.slug
        made: Sequence[Artifact] = [a for a in ctx.artifacts if a.path in (
            components_name(slug), fold_name(slug), leaflet_name(slug)) or is_cut_file(slug, a.path)]
        readme: ComponentsReadme = ctx.computed[_key("components", slug)]
        cut_readme, cut_duplex = ctx.computed.get(_key("cut", slug), ((), ()))
        guides = [list(g) for g in readme.guides]
        if cut_readme:
            guides.append([spec.gettext("For a cutting machine:"), *cut_readme])
        out.append(paper_zip(ctx, spec, paper, [*made, inventory, *data], guides,
                             _with_heading([*readme.duplex, *cut_duplex])))
    return out


def _with_heading(lines: Sequence[str]) -> list[str]:
    from boardgen.i18n import current
    from boardgen.render.imposition import DUPLEX_HEADING

    return [current().gettext(DUPLEX_HEADING), *lines] if lines else []


def kit_stage_files(ctx: BuildContext, spec: KitSpec) -> list[Artifact]:
    """The four stages one after another in this context (for tests and benchmarks): the same files as a
    build, the zips packing the board files already in ``ctx.artifacts``, which is left as it was."""
    from dataclasses import replace

    run = replace(ctx, artifacts=list(ctx.artifacts))
    made: list[Artifact] = []
    for stage in (components_files, leaflet_files, cut_files, zip_files):
        produced = stage(run, spec)
        run.artifacts.extend(produced)
        made.extend(produced)
    return made

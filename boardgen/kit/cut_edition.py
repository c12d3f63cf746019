"""The print-then-cut edition of a kit, the same for every game: ``cut/components-{paper}.pdf`` (every part's
sheets laid out again with margins wide enough for a cutting machine's registration marks, which are printed on
every front sheet) and ``cut/components-{paper}-page-NN.svg``, one per front page, the size of that sheet, in its
own mm: layer "guides" (the marks as printed and the paper's edge, not to be cut), "cut" (one closed outline
per part) and "score" (folds).

A game hands ``cut_edition`` the function that lays its parts out on a paper (the one its components file is
made with); laying out inside ``imposition.print_then_cut`` makes those sheets the edition's. The kit README
states the files and the cutting software's settings with ``readme_lines``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from boardgen.cards.kitfiles import PaperKit, front_page_number
from boardgen.cards.sheets import LaidOut
from boardgen.i18n import Translator, current
from boardgen.io import Artifact
from boardgen.render.cairo_backend import Page, render_pdf, render_svg
from boardgen.render.imposition import PRINT_CUT_MARKS, Paper, PrintCutMarks, duplex_readme_lines, print_then_cut
from boardgen.render.scene import Op, Path, Rect, RectOp, Scene, Style, layer

CUT_STYLE = Style(stroke="#ff0000", stroke_width_mm=0.1)
SCORE_STYLE = Style(stroke="#0000ff", stroke_width_mm=0.1)


def pdf_name(slug: str) -> str:
    return f"cut/components-{slug}.pdf"


def svg_name(slug: str, page: int) -> str:
    return f"cut/components-{slug}-page-{page:02d}.svg"


def is_cut_file(slug: str, path: str) -> bool:
    """Whether ``path`` is a file of the print-then-cut edition on the paper ``slug``."""
    return path == pdf_name(slug) or path.startswith(f"cut/components-{slug}-page-")


def front_indices(lo: LaidOut) -> list[int]:
    """Indices into ``lo.pages`` of the front of each cut sheet (duplex sets alternate front and back)."""
    step = 2 if len(lo.pages) == 2 * len(lo.cut_sheets) else 1
    return [k * step for k in range(len(lo.cut_sheets))]


def cut_sheet_svgs(kit: PaperKit, marks: PrintCutMarks = PRINT_CUT_MARKS) -> list[tuple[int, bytes]]:
    """One SVG per printed front sheet, the size of that sheet (portrait or landscape), in the sheet's own mm:
    layer "guides" (the print-then-cut marks as printed and the paper's edge: not to be cut), "cut" (one closed
    outline per part) and "score" (folds). [(page number in the PDF, svg bytes)]."""
    out: list[tuple[int, bytes]] = []
    for lo in kit.laid:
        if not lo.registered:
            continue
        for i, sheet in zip(front_indices(lo), lo.cut_sheets, strict=True):
            w, h = lo.pages[i].width_mm, lo.pages[i].height_mm
            guides: list[Op] = [RectOp(Rect(0, 0, w, h), Style(stroke="#999999", stroke_width_mm=0.2),
                                       name="paper-edge"), marks.ops(Paper(kit.paper.name, w, h))]
            cuts = [Path(c, CUT_STYLE, "cut") for c in sheet.cuts]
            folds = [Path((("M", *f[0]), *(("L", *p) for p in f[1:])), SCORE_STYLE, "score") for f in sheet.folds]
            layers = [layer("guides", guides), layer("cut", cuts)]
            if folds:
                layers.append(layer("score", folds))
            svg = render_svg(Page(w, h, Scene(tuple(layers))), exact_layers=("cut", "score"))
            out.append((front_page_number(kit, sheet), svg))
    return out


@dataclass(frozen=True)
class CutEdition:
    """One paper's print-then-cut files and the kit README's lines for them."""

    paper: Paper
    kit: PaperKit
    artifacts: tuple[Artifact, ...]
    readme: tuple[str, ...]  # the files and the cutting software's settings
    duplex: tuple[str, ...]  # the PDF's flip-edge line, for the README's double-sided list (none if no backs)


def cut_edition(title: str, lay: Callable[[Paper], Sequence[LaidOut]], paper: Paper,
                marks: PrintCutMarks = PRINT_CUT_MARKS, contents: str = "", tr: Translator | None = None) -> CutEdition:
    """The print-then-cut edition of the parts ``lay(paper)`` lays out (the same function that makes the kit's
    components file): the PDF and one SVG per front sheet. ``contents``: what the README says it holds."""
    tr = tr or current()
    _ = tr.gettext
    contents = contents or _("the parts")
    with print_then_cut(marks):
        laid = tuple(lay(paper))
    pages = tuple(p for lo in laid for p in lo.pages)
    pdf = render_pdf(pages, title=_("{title}: components ({paper}, print then cut)").format(title=title,
                                                                                          paper=paper.name))
    kit = PaperKit(paper, laid, pages, pdf)
    slug = paper.slug
    artifacts = [Artifact(pdf_name(slug), pdf, f"every playing part on {paper.name} with print-then-cut "
                          "registration marks (print this for a cutting machine)", len(pages))]
    for number, svg in cut_sheet_svgs(kit, marks):
        artifacts.append(Artifact(svg_name(slug, number), svg,
                                  f"cut and score lines of page {number} of {pdf_name(slug)}"))
    duplex = duplex_readme_lines([(pdf_name(slug), pages)], tr)[1:]
    by_hand = ["      " + _("{pages}: {title} (too big for the marked sheet: no marks, no SVG; cut by hand)").format(
        pages=_pages(first, last, tr), title=lo.title) for lo, first, last in kit.page_ranges() if not lo.registered]
    readme = readme_lines(slug, marks, len(pages), contents, tr) + by_hand
    return CutEdition(paper, kit, tuple(artifacts), tuple(readme), tuple(duplex))


def _pages(first: int, last: int, tr: Translator) -> str:
    return (tr.gettext("page {n}").format(n=first) if first == last
            else tr.gettext("pages {first}-{last}").format(first=first, last=last))


def readme_lines(slug: str, marks: PrintCutMarks = PRINT_CUT_MARKS, pages: int = 0,
                 contents: str = "", tr: Translator | None = None) -> list[str]:
    """The kit README's lines for the edition's files and the marks to set in the cutting software (its flip
    edge, when its sheets have backs, is ``CutEdition.duplex``), in ``tr``'s language."""
    tr = tr or current()
    _ = tr.gettext
    contents = contents or _("the parts")
    count = "" if not pages else tr.ngettext("({n} page) ", "({n} pages) ", pages).format(n=pages)
    return [
        _("  {file}  {count}{contents} laid out for a cutting machine (Silhouette-style").format(
            file=pdf_name(slug), count=count, contents=contents),
        _("      print-then-cut marks in three corners of every front page: Type 1, length "
          "{length} mm, thickness {thickness} mm, inset {inset} mm).").format(
              length=tr.number(marks.length_mm), thickness=tr.number(marks.thickness_mm),
              inset=tr.number(marks.inset_mm)),
        _("  cut/components-{slug}-page-NN.svg  one per marked front page of {file}, paper-sized:").format(
            slug=slug, file=pdf_name(slug)),
        _("      layer 'cut' (red, one closed outline per part), 'score' (blue folds), 'guides' (marks; do not cut)."),
        _("      A Cricut does not read these marks: upload the SVG's 'cut' layer to Design Space, let it add its own"),
        _("      print-then-cut frame and print from there (its printable area is smaller than the page)."),
    ]

"""The kit README, written the same way for every game: what each file is, how to print each page run of the
components file (paper, sides, how to cut), the flip edge every double-sided file needs, how to cut and join
the board's sections, what else to bring (the declared unprinted parts and tools: ``KitParts``), and what is
in the box. A game gives only its words: per sheet kind how to print and cut (``how_to``), notes.

Every sentence goes through ``gettext`` whole (placeholders filled after), so a game's catalog can translate
it (``boardgen.i18n``); the default is the words of the edition being built (``boardgen.i18n.current()``), which
in English leaves the code's words as they are. A game's own words (``how_to``, notes) are marked with ``N_`` where
they are written and looked up here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from boardgen.cards.kitfiles import PaperKit
from boardgen.i18n import N_, current
from boardgen.io import Artifact
from boardgen.kit.parts import KitParts, Part
from boardgen.kit.shape import BOARD_CUT, BOARD_SECTIONS, INVENTORY, components_name, fold_name, leaflet_name

Gettext = Callable[[str], str]


def edition_words(message: str) -> str:
    """``message`` in the language of the edition being built (English: as it is)."""
    return current().gettext(message) if message else message


def pages_text(first: int, last: int, _: Gettext = edition_words) -> str:
    return _("page {first}").format(first=first) if first == last else \
        _("pages {first}-{last}").format(first=first, last=last)


def count_text(pages: int, _: Gettext = edition_words) -> str:
    return _("(1 page)") if pages == 1 else _("({pages} pages)").format(pages=pages)


DOUBLE_SIDED_HOW = N_("Double-sided on card (160-250 g/m2): each front page is followed by its back (flip edge "
                      "below); cut on the crop marks or the dark outline.")
SINGLE_SIDED_HOW = N_("Single-sided on card (160-250 g/m2); cut on the crop marks or the dark outline.")


def sheet_how(kind: str, double_sided: bool, how_to: Mapping[str, str], _: Gettext = edition_words) -> str:
    """How to print and cut one run of sheets: the game's words for the kind, else the standard ones."""
    if kind in how_to:
        return _(how_to[kind])
    return _(DOUBLE_SIDED_HOW) if double_sided else _(SINGLE_SIDED_HOW)


def page_guide(file: str, kit: PaperKit, how_to: Mapping[str, str], _: Gettext = edition_words) -> list[str]:
    """'<file>, page by page:' and one line per run of sheets: its pages, its title and how to print it."""
    lines = [_("{file}, page by page:").format(file=file)]
    for lo, first, last in kit.page_ranges():
        two = any(p.side == "back" for p in lo.pages)
        how = sheet_how(lo.kind, two, how_to, _)
        how = how[:1].upper() + how[1:]  # a sentence of its own after the title
        lines.append(f"  {pages_text(first, last, _):<14} {lo.title}. {how}")
    return lines


def file_lines(files: Sequence[Artifact], _: Gettext = edition_words) -> list[str]:
    """One line per file: its name, its pages and what it is (the cut edition's SVGs and the board's section
    SVGs said once each, as a pattern)."""
    lines: list[str] = []
    sections = [a for a in files if a.path.startswith("cut/board-section-")]
    for a in files:
        if a.path.startswith(("cut/board-section-", "cut/components-")):
            continue
        count = f"{count_text(a.pages, _)} " if a.pages else ""
        lines.append(f"  {a.path}  {count}{a.description}")
    if sections:
        slug = sections[0].path.rsplit("-", 1)[1].removesuffix(".svg")
        lines.append("  " + _("cut/board-section-N-{paper}.svg  one per board section: the section's closed "
                              "outline (layer 'cut') where page N of {sections} prints it, for a cutting "
                              "machine.").format(paper=slug, sections=BOARD_SECTIONS.format(paper=slug)))
    return lines


def board_lines(slug: str, sections: int, _: Gettext = edition_words) -> list[str]:
    """How to make the board: from the print shop's poster, or from the section sheets cut and joined."""
    name = BOARD_SECTIONS.format(paper=slug)
    return [
        _("The board, two ways:"),
        "  " + _("a) Send board-poster.pdf (CMYK PDF/X-4) to a print shop, or board-poster-rgb.pdf to a printer "
                 "that takes RGB; trim the 3 mm bleed."),
        "  " + _("b) Print {file} single-sided at 100% on card ({sections} sheets). Cut each section out on its "
                 "dark outline (a craft knife and metal ruler for the straight cuts, scissors round the "
                 "curves).").format(file=name, sections=sections),
        "     " + _("Lay the sections out as the small grid in each sheet's footer shows (the dark square is "
                    "that sheet's place); the number beside each edge is the section that joins there."),
        "     " + _("The sections fit together one way only. Tape them together on the back, or glue them onto "
                    "a large card."),
        "     " + _("{cut} holds every section's outline on the whole board, for cutting a printed poster into "
                    "the same sections with a machine.").format(cut=BOARD_CUT),
    ]


def _unprinted_line(part: Part, _: Gettext) -> str:
    return "  " + _("{count} x {name} ({size} mm, not printed)").format(count=part.count, name=part.name,
                                                                        size=part.size_text)


def bring_lines(kit: KitParts, _: Gettext = edition_words) -> list[str]:
    """'What else to bring:' the declared unprinted parts (``KitParts.unprinted``), then the tools and stand-ins
    (``KitParts.notes``), one per line."""
    lines = [_("What else to bring:")]
    lines += [_unprinted_line(p, _) for p in kit.unprinted]
    lines += [f"  {_(note)}" for note in kit.notes]
    return lines


def box_lines(kit: KitParts, extra: Sequence[tuple[int, str, str]] = (), _: Gettext = edition_words) -> list[str]:
    """'In the box:' one line per declared part, then ``extra`` (count, name, what it is)."""
    lines = [_("In the box:")]
    lines += [f"  {p.count:>3} x {p.name} ({p.described})" for p in kit.parts]
    lines += [f"  {count:>3} x {name} ({what})" for count, name, what in extra]
    lines += ["", _("{inventory} lists every part with its size, sides and the pages that print it.").format(
        inventory=INVENTORY)]
    return lines


def leaflet_line(slug: str, pages: int, how: str, _: Gettext = edition_words) -> str:
    return f"  {leaflet_name(slug)}  {count_text(pages, _)} {_(how)}"


def kit_readme(title: str, paper_name: str, *, header: Sequence[str] = (), files: Sequence[Artifact],
               guides: Sequence[Sequence[str]], duplex: Sequence[str], board_sections: int = 0, slug: str,
               parts: KitParts, notes: Sequence[str] = (), box_extra: Sequence[tuple[int, str, str]] = (),
               _: Gettext = edition_words) -> str:
    """The whole README: title, header lines, 100% warning, files, page guides, the board, the flip edges,
    what else to bring, notes, and the box's contents."""
    lines = [_("{title}: print-and-play kit ({paper})").format(title=title, paper=paper_name), *header, "",
             _("PRINT EVERYTHING AT 100% / ACTUAL SIZE, never 'fit to page'. Every sheet has a 100 mm bar: "
               "measure it."), "", _("Files:"), *file_lines(files, _)]
    for guide in guides:
        lines += ["", *guide]
    if board_sections:
        lines += ["", *board_lines(slug, board_sections, _)]
    if duplex:
        lines += ["", *duplex]
    lines += ["", *bring_lines(parts, _)]
    if notes:
        lines += ["", *notes]
    lines += ["", *box_lines(parts, box_extra, _)]
    return "\n".join(lines) + "\n"


__all__ = [
    "board_lines",
    "box_lines",
    "bring_lines",
    "components_name",
    "file_lines",
    "fold_name",
    "kit_readme",
    "leaflet_line",
    "page_guide",
    "sheet_how",
]

"""A kit README's double-sided printing lines: the flip edge from the pages, and which pages to print
double-sided when a file also holds single-sided pages (a whole-file duplex print would put those back to back)."""

from __future__ import annotations

from boardgen.render.cairo_backend import Page
from boardgen.render.imposition import duplex_readme_lines, duplex_runs


def page(side: str, landscape: bool = False) -> Page:
    return Page(297, 210, (), side=side) if landscape else Page(210, 297, (), side=side)


def test_runs_start_on_a_front_with_its_back_after_it() -> None:
    sides = ["", "", "", "front", "back", "front", "back", "", "front", "back", "back", "front"]
    assert duplex_runs([page(s) for s in sides]) == ([(4, 7), (9, 10)], [1, 2, 3, 8, 11, 12])


def test_a_file_of_only_pairs_is_printed_whole() -> None:
    lines = duplex_readme_lines([("cards-a4.pdf", [page("front", True), page("back", True)] * 3)])
    assert lines[1] == "  cards-a4.pdf: print double-sided, flip on the short edge (its pages are landscape)"


def test_a_mixed_file_names_its_double_and_single_sided_pages() -> None:
    pages = [page(""), page("front"), page("back"), page("front"), page("back"), page("")]
    (line,) = duplex_readme_lines([("components-a4.pdf", pages), ("leaflet-a4.pdf", [page("")])])[1:]
    assert line.endswith("(its pages are portrait): only pages 2-5; print pages 1, 6 single-sided")


def test_several_runs_are_separate_print_jobs_and_one_single_page_is_singular() -> None:
    pages = [page("front"), page("back"), page(""), page("front"), page("back")]
    (line,) = duplex_readme_lines([("components-a4.pdf", pages)])[1:]
    assert line.endswith(": only pages 1-2 and pages 4-5, each run as a print job of its own; print page 3 "
                         "single-sided")
    (line,) = duplex_readme_lines([("components-a4.pdf", pages[:3])])[1:]
    assert line.endswith(": only pages 1-2; print page 3 single-sided")

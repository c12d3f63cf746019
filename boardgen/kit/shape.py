"""The kit's shape: the file names every game's kit folder and kit zips use, whatever the game.

  board-poster.pdf, board-poster-rgb.pdf      a game with a board: CMYK PDF/X-4 for a print shop, and RGB
  board-sections-{paper}.pdf, board-cut.svg   the board's jigsaw sections at 1:1, the sections' outlines
  cut/board-section-N-{paper}.svg             one per section sheet
  components-{paper}.pdf                      every printed part (cards included), page by page
  components-fold-{paper}.pdf                 optional: the double-sided parts as fold-over pairs
  cut/components-{paper}.pdf                  the print-then-cut edition, with one SVG per marked sheet
  cut/components-{paper}-page-NN.svg
  leaflet-{paper}.pdf                         the rules
  inventory.csv                               every part, printed or not
  kit-{paper}.zip                             the paper's files and README.txt

A game may add data files of its own (``*.json``, ``*.csv``, ``*.geojson``, ``*.txt``) beside them, and every
kit has ``manifest.json`` and ``preview/*.png``. ``shape_problems`` names what a built kit folder lacks or holds
beyond the shape; ``shape_findings`` says it as ``boardgen validate --kit`` findings.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from boardgen.play.report import Finding

COMPONENTS = "components-{paper}.pdf"
COMPONENTS_FOLD = "components-fold-{paper}.pdf"
LEAFLET = "leaflet-{paper}.pdf"
INVENTORY = "inventory.csv"
KIT_ZIP = "kit-{paper}.zip"
README = "README.txt"
BOARD_POSTER = "board-poster.pdf"
BOARD_POSTER_RGB = "board-poster-rgb.pdf"
BOARD_SECTIONS = "board-sections-{paper}.pdf"
BOARD_CUT = "board-cut.svg"
DATA_SUFFIXES = (".json", ".csv", ".geojson", ".txt")


def components_name(slug: str) -> str:
    return COMPONENTS.format(paper=slug)


def fold_name(slug: str) -> str:
    return COMPONENTS_FOLD.format(paper=slug)


def leaflet_name(slug: str) -> str:
    return LEAFLET.format(paper=slug)


def zip_name(slug: str) -> str:
    return KIT_ZIP.format(paper=slug)


def board_files_for(slug: str, path: str) -> bool:
    """Whether ``path`` is one of the board's files a ``slug`` paper's kit zip holds."""
    return (path in (BOARD_POSTER, BOARD_POSTER_RGB, BOARD_CUT, BOARD_SECTIONS.format(paper=slug))
            or re.fullmatch(rf"cut/board-section-\d+-{re.escape(slug)}\.svg", path) is not None)


def paper_files(slug: str, board: bool) -> list[str]:
    """The names a ``slug`` paper's kit must hold (section cut files apart: one per section)."""
    names = [components_name(slug), f"cut/components-{slug}.pdf", leaflet_name(slug), INVENTORY]
    if board:
        names += [BOARD_POSTER, BOARD_POSTER_RGB, BOARD_SECTIONS.format(paper=slug), BOARD_CUT]
    return names


def _patterns(slug: str, board: bool) -> list[str]:
    s = re.escape(slug)
    pats = [rf"cut/components-{s}-page-\d\d\.svg", re.escape(fold_name(slug))]
    if board:
        pats.append(rf"cut/board-section-\d+-{s}\.svg")
    return pats


def zip_problems(members: Iterable[str], slug: str, board: bool) -> list[str]:
    """What a paper's kit zip lacks or holds beyond the shape (README.txt and data files allowed)."""
    have = set(members)
    problems = [f"kit-{slug}.zip: no {n}" for n in [*paper_files(slug, board), README] if n not in have]
    if not any(re.fullmatch(rf"cut/components-{re.escape(slug)}-page-\d\d\.svg", n) for n in have):
        problems.append(f"kit-{slug}.zip: no cut/components-{slug}-page-NN.svg")
    if board and not any(re.fullmatch(rf"cut/board-section-\d+-{re.escape(slug)}\.svg", n) for n in have):
        problems.append(f"kit-{slug}.zip: no cut/board-section-N-{slug}.svg")
    allowed = {*paper_files(slug, board), README}
    pats = _patterns(slug, board)
    for n in sorted(have - allowed):
        if not any(re.fullmatch(p, n) for p in pats) and not (n.endswith(DATA_SUFFIXES) and "/" not in n):
            problems.append(f"kit-{slug}.zip: {n} is not a name of the kit's shape")
    return problems


def shape_problems(paths: Iterable[str], papers: Sequence[str], board: bool) -> list[str]:
    """What a built kit folder (its files' paths relative to the folder) lacks or holds beyond the shape."""
    have = {p for p in paths if not p.startswith("preview/") and p != "manifest.json"}
    problems: list[str] = []
    allowed: set[str] = set()
    pats: list[str] = []
    for slug in papers:
        names = [*paper_files(slug, board), zip_name(slug)]
        allowed.update(names)
        pats += _patterns(slug, board)
        problems += [f"no {n}" for n in names if n not in have]
        if not any(re.fullmatch(rf"cut/components-{re.escape(slug)}-page-\d\d\.svg", n) for n in have):
            problems.append(f"no cut/components-{slug}-page-NN.svg")
        if board and not any(re.fullmatch(rf"cut/board-section-\d+-{re.escape(slug)}\.svg", n) for n in have):
            problems.append(f"no cut/board-section-N-{slug}.svg")
    for n in sorted(have - allowed):
        if not any(re.fullmatch(p, n) for p in pats) and not (n.endswith(DATA_SUFFIXES) and "/" not in n):
            problems.append(f"{n} is not a name of the kit's shape")
    return problems


def folder_problems(folder: Path) -> list[str]:
    """What a built kit folder lacks or holds beyond the shape, its zips included: the papers are those of its
    ``kit-*.zip`` files (A4 and Letter when there is none), the board is there when ``inventory.csv`` lists one."""
    from boardgen.kit.parts import read_inventory

    papers = sorted(p.stem.removeprefix("kit-") for p in folder.glob("kit-*.zip")) or ["a4", "letter"]
    inventory = folder / INVENTORY
    board = inventory.is_file() and any(r["kind"] == "board" for r in read_inventory(inventory.read_bytes()))
    paths = [p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()]
    problems = shape_problems([p for p in paths if not p.startswith("report/")], papers, board)
    for slug in papers:
        path = folder / zip_name(slug)
        if path.is_file():
            with zipfile.ZipFile(path) as zf:
                problems += zip_problems(zf.namelist(), slug, board)
    return problems


def shape_findings(folder: Path) -> list[Finding]:
    """``folder_problems`` as ``boardgen validate --kit`` findings (rule "kit-shape", errors)."""
    return [Finding("kit-shape", "error", folder.name, problem) for problem in folder_problems(folder)]

"""The Philanthropist's leaflet as printed: readable type (its words nothing under 8 pt, the shared sheet decor
nothing under 6 pt) and how to make the kit."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path

import pikepdf
import pytest

from boardgen.games.philanthropist.leaflet import MIN_PT, leaflet_pdf
from boardgen.games.philanthropist.schema import load_cards
from boardgen.kit.leaflet import HALF_FOLD
from boardgen.render.imposition import A4, LETTER, Paper
from boardgen.render.pdf_probe import marks
from boardgen.render.typeset import MIN_TEXT_PT
from boardgen.template import load

ROOT = Path(__file__).resolve().parents[3]


def text_sizes(pdf: bytes) -> tuple[list[float], list[float]]:
    """The printed sizes of every text run: (in the panels' text frames, in the sheet decor above and below)."""
    words: list[float] = []
    decor: list[float] = []
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        height_pt = float(doc.pages[0].mediabox[3])
    for mark in marks(pdf):
        if mark.kind != "text" or mark.bounds is None:
            continue
        y = mark.bounds[1]
        inside = HALF_FOLD.bottom_mm * 72 / 25.4 <= y <= height_pt - HALF_FOLD.top_mm * 72 / 25.4
        (words if inside else decor).append(mark.size_pt)
    return words, decor


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_no_type_under_8_pt_and_the_kit_is_explained(paper: Paper, tmp_path: Path) -> None:
    t = load(ROOT / "templates" / "philanthropist.yaml")[1]
    data, sides = leaflet_pdf(t, load_cards(t), paper, [("board", 1, ""), ("white die", 1, "22 mm")])
    assert sides == 2
    words, decor = text_sizes(data)
    assert words and min(words) >= MIN_PT == 8.0
    assert decor and min(decor) >= MIN_TEXT_PT
    path = tmp_path / "leaflet.pdf"
    path.write_bytes(data)
    text = " ".join(subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())
    for words in ("Making the kit", "the pieces fit together one way only", "glue them back to back",
                  "glue the grey tabs inside", "board-poster.pdf", "add up the costs of your meeples"):
        assert words in text


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_card_duplex_instructions_match_the_sheet_orientation(paper: Paper) -> None:
    """The backs are mirrored left-right, so a landscape card sheet flips on the SHORT edge and a portrait one
    on the long edge (the kit once said "long edge" of landscape sheets, which put every back 28 mm off its
    front). The components file has backs, so all its pages are one way round."""
    from boardgen.games.philanthropist.kit import build_paper, card_flip_edge, component_sets
    from boardgen.render.imposition import duplex_readme_lines

    t = load(ROOT / "templates" / "philanthropist.yaml")[1]
    kit = build_paper(t, component_sets(t), paper)
    cards = next(lo for lo in kit.laid if lo.kind == "business-cards")
    front, back = cards.pages[0], cards.pages[1]
    edge = "short" if front.width_mm > front.height_mm else "long"
    assert len({p.width_mm > p.height_mm for p in kit.pages}) == 1
    assert card_flip_edge(kit) == edge
    assert f"flip on the {edge} edge" in " ".join(back.scene.texts())
    assert f"flip on the {edge} edge" in " ".join(duplex_readme_lines([("components.pdf", kit.pages)]))
    data, _ = leaflet_pdf(t, load_cards(t), paper, [], card_flip=card_flip_edge(kit))
    with pikepdf.open(io.BytesIO(data)) as doc:
        assert len(doc.pages) == 2

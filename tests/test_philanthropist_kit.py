"""The Philanthropist's printed parts: counts, what each part shows, the board, the leaflet and the inventory."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from boardgen.games.philanthropist import parts
from boardgen.games.philanthropist.board import board_scene, tile_pages, tile_plan
from boardgen.games.philanthropist.kit import build_paper, component_sets, inventory_rows
from boardgen.games.philanthropist.leaflet import choices, leaflet_pdf
from boardgen.games.philanthropist.model import load_cards
from boardgen.render.imposition import A4, LETTER
from boardgen.template import load

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "templates" / "philanthropist.yaml"


@pytest.fixture(scope="module")
def t():  # type: ignore[no-untyped-def]
    return load(TEMPLATE)[1]


def test_component_counts(t) -> None:  # type: ignore[no-untyped-def]
    sets = {s.kind: s for s in component_sets(t)}
    assert len(sets["card"].components) == 30 and all(c.back is not None for c in sets["card"].components)
    assert len(sets["standee"].components) == 51
    small = [c.label for c in sets["die"].components]
    assert small[:2] == ["action die", "white die"] and sum("avatar" in x for x in small) == 4
    counters = [c.label for c in sets["token"].components]
    assert sum("1-cube token" in x for x in counters) == 55 and sum("5-cube token" in x for x in counters) == 33
    assert sum("player aid" in x for x in small + counters) == 4


def test_each_meeple_shows_its_cost_as_number_and_pips(t) -> None:  # type: ignore[no-untyped-def]
    for i, kind in enumerate(t.meeples.kinds):
        part = parts.meeple_standee(t, i)
        texts = part.front.texts()
        assert texts.count(str(kind.cost)) == 2  # both faces
        assert part.front.count("pip") == 2 * kind.cost
        assert any(kind.name.upper() in x for x in texts)
        assert len(part.folds) == 3


def test_action_die_faces_follow_the_template(t) -> None:  # type: ignore[no-untyped-def]
    action = parts.d6(t, True)
    texts = action.front.texts()
    assert texts.count("MOVE") == 4 and texts.count("PAYDAY") == 1 and texts.count("CARD") == 1
    assert sorted(x for x in texts if x.isdigit()) == ["1", "2", "3", "4", "5", "6"]
    white = parts.d6(t, False)
    assert white.front.count("pip") == 21
    assert action.front.count("die-face") == 6 and action.outline == white.outline


def test_card_fronts_carry_their_rows(t) -> None:  # type: ignore[no-untyped-def]
    for card in load_cards(t):
        front = parts.card_front(t, card)
        body = " ".join(op.text for op in front.walk() if getattr(op, "name", "") == "card-text")
        assert body == card.text
        assert parts.effect_banner(card) in front.texts()
    assert "$" in parts.card_back(t).texts()


def test_board(t) -> None:  # type: ignore[no-untyped-def]
    scene = board_scene(t)
    assert scene.count("square-name") == 256 and scene.count("start") == 4 and scene.count("die-key") == 6
    assert "THE PHILANTHROPIST" in scene.texts()
    for paper in (A4, LETTER):
        _sheet, cols, rows = tile_plan(t.board.size_mm, paper)
        assert cols * rows == 12
        pages = tile_pages(t, scene, paper)
        assert len(pages) == 12
        for page in pages:  # every tile fits its paper with its notes
            assert page.trim_box_mm is not None
            assert page.trim_box_mm.x > 6 and page.trim_box_mm.right < page.width_mm - 6


def test_sheets_and_inventory(t) -> None:  # type: ignore[no-untyped-def]
    kit = build_paper(t, component_sets(t), A4)
    assert len(kit.pages) == 12
    rows = inventory_rows(t, kit.laid)
    counts = {name: count for name, count, _size, _where in rows}
    assert sum(v for k, v in counts.items() if "meeple standee" in k) == 51
    assert counts["business card"] == 30 and counts["avatar chip"] == 4
    assert counts["1-cube token"] == 55 and counts["5-cube token"] == 33


def _pdftext(data: bytes, tmp_path: Path) -> str:
    path = tmp_path / "leaflet.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True,
                          timeout=60).stdout


@pytest.mark.parametrize("paper", [A4, LETTER])
def test_leaflet_is_one_folded_sheet_with_the_templates_numbers(t, paper, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data, sides = leaflet_pdf(t, load_cards(t), paper, [("board", 1, "")])
    assert sides == 2
    assert data == leaflet_pdf(t, load_cards(t), paper, [("board", 1, "")])[0]  # deterministic
    text = " ".join(_pdftext(data, tmp_path).split())
    for phrase in ("take 2 times the number", "pays you 1 cube", "51 meeples", "starts with 3 cubes",
                   "100 rounds for 2 players", "Two avatars may stand on the same square"):
        assert phrase in text, phrase
    assert len(choices(t)) == 7

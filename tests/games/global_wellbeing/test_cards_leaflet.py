"""The rules leaflet: folding order, type size, vector pictures, wording that follows the template."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from boardgen.games.global_wellbeing.leaflet import MIN_BODY_PT, leaflet_layout, leaflet_text
from boardgen.render.imposition import A4, LETTER
from boardgen.render.typeset import booklet_order
from tests.games.global_wellbeing.test_cards_components import make_config, tiny_board

PT = 72 / 25.4


def test_booklet_order_puts_the_cover_on_the_outside_right() -> None:
    assert booklet_order(4) == [(4, 1), (2, 3)]
    assert booklet_order(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    for pages in (4, 8, 12):
        sides = booklet_order(pages)
        assert sorted(p for side in sides for p in side) == list(range(1, pages + 1))
        assert all(left % 2 == 0 for left, _ in sides)  # even pages on the left, as in any bound book


def _half_text(path: Path, page: int, right: bool, paper_w_mm: float, paper_h_mm: float) -> str:
    w, h = paper_w_mm * PT, paper_h_mm * PT
    x = int(w / 2) if right else 0
    return subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-r", "72", "-x", str(x), "-y", "0",
                           "-W", str(int(w / 2)), "-H", str(int(h)), str(path), "-"],
                          capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_folded_leaflet_reads_in_order(paper, tmp_path: Path) -> None:
    config = make_config()
    data, layout = leaflet_layout(config, paper)
    assert layout.sheet_sides == 2 and layout.panels <= 4  # one sheet, folded once
    assert layout.body_pt >= MIN_BODY_PT >= 8.5
    path = tmp_path / "leaflet.pdf"
    path.write_bytes(data)
    sheet = paper.landscape()
    cover = _half_text(path, 1, True, sheet.width_mm, sheet.height_mm)
    back = _half_text(path, 1, False, sheet.width_mm, sheet.height_mm)
    inside_left = _half_text(path, 2, False, sheet.width_mm, sheet.height_mm)
    assert config.title in cover and "Players:" in cover  # the cover is the outside right panel
    assert config.title not in back and "scoring" in back  # the back cover ends the rules
    assert "Setting up" in inside_left and "Setting up" not in cover  # page 2 opens the sheet
    images = subprocess.run(["pdfimages", "-list", str(path)], capture_output=True, text=True, check=True).stdout
    assert len(images.splitlines()) <= 2  # header only: no raster pictures


def test_leaflet_with_the_vector_map_and_zone_icons(tmp_path: Path) -> None:
    from boardgen.games.global_wellbeing.minimap import leaflet_pictures

    config = make_config()
    pictures = leaflet_pictures(tiny_board(config))
    assert pictures.keys[0] == "map" and len(pictures.keys) == 1 + len(config.zones)
    data, layout = leaflet_layout(config, A4, pictures)
    assert layout.sheet_sides == 2
    path = tmp_path / "leaflet.pdf"
    path.write_bytes(data)
    images = subprocess.run(["pdfimages", "-list", str(path)], capture_output=True, text=True, check=True).stdout
    assert len(images.splitlines()) <= 2
    assert data == leaflet_layout(config, A4, pictures)[0]  # byte-identical


def test_leaflet_words_follow_the_rules_and_hold_no_design_notes() -> None:
    text = " ".join(leaflet_text(make_config(), ["AI25", "AJ24"]).split())
    assert "template" not in text.lower() and "stewardship_every" not in text
    assert "one new piece a turn" in text and "Chips score nothing at the end" in text
    assert "so invest it" not in text
    assert "2, 3 or 6" in text and "4 or 5 people" in text
    assert "each badge adds +2" in text and "Polar +2" not in text  # one value, said once
    assert "banker" in text and "first player" in text
    assert "Cells AI25 and AJ24 are islands" in text
    assert "A turn at a glance" in text and "Use either one" in text
    two = " ".join(leaflet_text(make_config(rules={"investments_per_turn": 2})).split())
    assert "2 new pieces a turn" in two
    badges = make_config(zones={**{n: {"colour": z.colour, "symbol": z.symbol, "die": z.die,
                                          "minimum_index": z.minimum_index, "start_index": z.start_index,
                                          "badge_value": 3 if n == "Polar" else 2}
                                   for n, z in make_config().zones.items()}})
    assert "Polar +3" in leaflet_text(badges)


def test_text_too_long_for_one_sheet_takes_nested_sheets(monkeypatch, tmp_path: Path) -> None:
    import boardgen.games.global_wellbeing.leaflet as leaflet

    monkeypatch.setattr(leaflet, "BODY_SIZES_PT", (12.0,))
    config = make_config()
    data, layout = leaflet.leaflet_layout(config, A4)
    assert layout.panels > 4
    assert layout.sheet_sides == 2 * -(-layout.panels // 4)  # two sides per sheet, 4 pages per sheet
    path = tmp_path / "long.pdf"
    path.write_bytes(data)
    sheet = A4.landscape()
    assert config.title in _half_text(path, 1, True, sheet.width_mm, sheet.height_mm)  # still the outside cover


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_the_default_games_leaflet_is_one_folded_sheet(paper, default_board) -> None:
    """The real rules, map and island notes fit one sheet on both papers (a longer text once took two)."""
    from boardgen.games.global_wellbeing.kit import isolated_cells
    from boardgen.games.global_wellbeing.minimap import leaflet_pictures

    _, layout = leaflet_layout(default_board.config, paper, leaflet_pictures(default_board),
                               isolated_cells(default_board))
    assert layout.sheet_sides == 2 and layout.panels <= 4
    assert layout.body_pt >= MIN_BODY_PT

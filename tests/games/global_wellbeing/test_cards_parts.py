"""Parts that fit their places: markers in the index table's boxes, the turn marker in a turn box, chips that
do not look like tokens, tokens that stand out, paper well used (chip shapes, dice beside the cards)."""

from __future__ import annotations

import pytest

from boardgen.cards.dice import D8_SECOND_COLOUR, DIE_COLOURS, die_component
from boardgen.cards.sheets import first_fit_shelves, grid_sheets, lay_out
from boardgen.errors import ConfigError
from boardgen.games.global_wellbeing.board_art import TABLE, TABLE_START_FONT
from boardgen.games.global_wellbeing.kit import build_components, component_sets
from boardgen.games.global_wellbeing.tables import climate_table_card, turn_grid
from boardgen.games.global_wellbeing.tokens import CHIP_SILVER, chips, marker_size_mm, markers, token_component
from boardgen.render.cairo_backend import text_width_mm
from boardgen.render.imposition import A4, DEFAULT_STYLE, LETTER, content_area
from boardgen.render.scene import Font
from tests.games.global_wellbeing.test_cards_components import HEX_MM, make_config


def test_zone_markers_sit_in_one_board_table_box_beside_the_number() -> None:
    w, h = marker_size_mm()
    number_end = getattr(TABLE, "number_inset_mm", 1.3) + text_width_mm("12", Font(size_pt=TABLE_START_FONT.size_pt,
                                                                                     bold=True))
    assert h < TABLE.row_mm  # within one row: the marker shows one value
    assert number_end + w < TABLE.column_mm  # beside the widest number, not over it
    card = climate_table_card(make_config())
    cells = [op for op in card.front.walk() if getattr(op, "name", "") in ("table-cell", "table-start")]
    assert all(op.rect.height >= h + 1.0 and op.rect.width >= number_end + w + 1.0 for op in cells)
    config = make_config()
    parts = markers(config).components
    assert sum(p.kind == "marker" for p in parts) == 2 * len(config.zones)  # one set and a spare
    assert all(p.outline for p in parts)  # every marker has a cut line


@pytest.mark.parametrize("turns", [20, 60])
def test_turn_marker_fits_a_turn_box(turns: int) -> None:
    config = make_config(rules={"turns": turns})
    _cols, _rows, box_w, box_h = turn_grid(config)
    turn = markers(config, (box_w, box_h)).components[-1]
    assert turn.kind == "turn-marker"
    assert turn.width_mm <= 0.5 * min(box_w, box_h) + 1e-6


@pytest.mark.parametrize("shape", ["square", "round"])
def test_chip_shapes_fill_two_sheets_not_three(shape: str) -> None:
    config = make_config(components={"chip_shape": shape})
    for paper in (A4, LETTER):
        laid = lay_out(chips(config), paper, "t")
        assert laid.front_sheets == 2, (shape, paper.name, laid.per_sheet)
        assert sum(p.scene.count("chip") for p in laid.pages) == config.rules.bank_chips
    part = chips(config).components[0]
    kinds = {cmd[0] for cmd in part.outline}
    assert (kinds == {"M", "L", "Z"} and len(part.outline) == 5) if shape == "square" else len(part.outline) > 20


def test_bad_chip_shape_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"components\.chip_shape"):
        make_config(components={"chip_shape": "hexagonal"})


def test_chips_are_silver_and_tokens_have_a_white_ring_and_dark_edge() -> None:
    config = make_config()
    assert CHIP_SILVER not in config.components.player_colours
    chip = chips(config).components[0]
    assert any(getattr(op.style, "fill", None) == CHIP_SILVER for op in chip.front.walk() if hasattr(op, "style"))
    for player in range(1, config.players.max + 1):
        token = token_component(config, player, 1, 13.0)
        ring = [op for op in token.front.walk() if getattr(op, "name", "") == "token-ring"]
        edge = [op for op in token.front.walk() if getattr(op, "name", "") == "cut-line"]
        assert ring and ring[0].style.stroke == "#ffffff" and ring[0].style.stroke_width_mm >= 0.8
        assert edge and edge[0].style.stroke == "#1a1a1a" and edge[0].style.stroke_width_mm >= 0.4


def test_d8_is_two_tone() -> None:
    fills = [op.style.fill for op in die_component(8, make_config().components.dice_size_mm).front.walk()
             if getattr(op, "name", "") == "die-face"]
    assert fills.count(DIE_COLOURS[8]) == 4 and fills.count(D8_SECOND_COLOUR) == 4


def test_grid_sheets_start_at_the_top_and_stagger_round_parts() -> None:
    area = content_area(A4, DEFAULT_STYLE)
    per_sheet, sheets = grid_sheets(10, 22.0, 22.0, A4, DEFAULT_STYLE, 2.0)
    assert min(t.y for t in sheets[0]) == pytest.approx(area.y)  # a short last sheet is top-aligned
    staggered, _ = grid_sheets(200, 22.0, 22.0, A4, DEFAULT_STYLE, 2.0, stagger=True)
    assert staggered > per_sheet
    _, many = grid_sheets(200, 22.0, 22.0, A4, DEFAULT_STYLE, 2.0, stagger=True)
    for sheet in many:
        for i, a in enumerate(sheet):
            for b in sheet[i + 1:]:  # discs never closer than the gap
                d = ((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5
                assert d >= 24.0 - 1e-6


def test_first_fit_puts_small_parts_on_earlier_sheets() -> None:
    sizes = [(180.0, 150.0), (180.0, 160.0), (60.0, 60.0), (60.0, 90.0)]
    sheets = first_fit_shelves(sizes, A4, DEFAULT_STYLE, 6.0, row_starts=(1, 2))
    assert len(sheets) == 2
    assert {i for i, _ in sheets[0]} == {0, 2, 3}


def test_dice_share_the_card_sheets() -> None:
    config = make_config()
    kit = build_components(config, component_sets(config, HEX_MM), A4)
    kinds = [lo.kind for lo in kit.laid]
    assert "die" not in kinds
    card = kit.laid[kinds.index("card")]
    assert len(card.cut_sheets) == 3  # table, counter and six nets on three sheets (was two + two)
    assert len(kit.pages) == 13

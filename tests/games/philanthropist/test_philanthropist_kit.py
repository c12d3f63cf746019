"""The Philanthropist's printed parts: counts, what each part shows, the board, the leaflet and the inventory."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from boardgen.cards.deck import card_back, card_front
from boardgen.games.philanthropist import parts
from boardgen.games.philanthropist.board import board_declaration, board_scene
from boardgen.games.philanthropist.kit import build_paper, component_sets, kit_parts
from boardgen.games.philanthropist.leaflet import choices, leaflet_pdf
from boardgen.games.philanthropist.schema import load_cards
from boardgen.kit.board import GridBoard, board_section_files
from boardgen.plugin import BuildContext
from boardgen.render.imposition import A4, LETTER
from boardgen.template import load

ROOT = Path(__file__).resolve().parents[3]
TEMPLATE = ROOT / "templates" / "philanthropist.yaml"


@pytest.fixture(scope="module")
def t():  # type: ignore[no-untyped-def]
    return load(TEMPLATE)[1]


def test_component_counts(t) -> None:  # type: ignore[no-untyped-def]
    sets = {s.kind: s for s in component_sets(t)}
    assert len(parts.business_deck(t, load_cards(t)).cards()) == 30
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
    cards = load_cards(t)
    deck = parts.business_deck(t, cards)
    printed = deck.cards()
    for card in cards:
        one = next(c for c in printed if c.row["title"] == card.title)
        front = card_front(deck, one)
        body = " ".join(op.text for op in front.walk() if getattr(op, "name", "") == "card-body")
        assert body.split() == card.text.split()
        assert parts.effect_banner(card) in front.texts() and parts.effect_value(card) in front.texts()
    assert "$" in card_back(deck).texts()
    assert deck.size_mm == pytest.approx((50.8, 76.2))


def test_board(t) -> None:  # type: ignore[no-untyped-def]
    scene = board_scene(t)
    assert scene.count("square-name") == 256 and scene.count("start") == 4 and scene.count("die-key") == 6
    assert "THE PHILANTHROPIST" in scene.texts()
    declared = board_declaration(t, scene)
    board = declared.board
    assert isinstance(board, GridBoard) and board.width_mm == board.height_mm == pytest.approx(609.6)
    assert len(board.keep_whole) == 256 and len(board.avoid) == 4  # every square whole; no knob on a start square
    made = {a.path for a in board_section_files(board)}
    assert made == {"board-sections-a4.pdf", "board-sections-letter.pdf", "board-cut.svg", "preview/sections.png",
                    *(f"cut/board-section-{n}-{paper}.svg" for n in range(1, 13) for paper in ("a4", "letter"))}


def test_sheets_and_inventory(t) -> None:  # type: ignore[no-untyped-def]
    kit = build_paper(t, component_sets(t), A4)
    assert [lo.kind for lo in kit.laid] == ["business-cards", "standee", "die", "token"]
    assert len(kit.pages) == 10  # 3 card sheets (fronts and backs), 2 standee sheets, 2 sheets of small parts
    counts = {p.name: p.count for p in kit_parts(BuildContext(t)).parts}
    assert sum(v for k, v in counts.items() if k.endswith(" meeple")) == 51
    assert counts["business card"] == 30 and sum(v for k, v in counts.items() if k.endswith(" avatar")) == 4
    assert counts["1-cube token"] == 55 and counts["5-cube token"] == 33


def _pdftext(data: bytes, tmp_path: Path) -> str:
    path = tmp_path / "leaflet.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-raw", str(path), "-"], capture_output=True, text=True, check=True,
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
    path = tmp_path / "leaflet.pdf"
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True, timeout=60).stdout
    rows = [line.split() for line in fonts.splitlines()[2:] if line.strip()]
    assert rows and all(r[-5] == "yes" for r in rows), fonts  # every font embedded


def test_engine_moves_are_the_printed_grids_king_steps(t) -> None:  # type: ignore[no-untyped-def]
    """The engine's reach with a die of d is every space of the shared board graph at most d steps away."""
    from boardgen.games.philanthropist.board import board_graph
    from boardgen.games.philanthropist.rules.engine import PhilanthropistGame, Rules

    graph = board_graph(t)
    assert len(graph.spaces) == 256 and len(graph.of_kind("start")) == 4
    state = PhilanthropistGame(Rules.from_template(t, load_cards(t)), 4).new_initial_state()
    for square in (0, 17, 120, 255):
        sid = state.square_name(square)
        dist = graph.distances(sid)
        for die in (1, 3, 6):
            state.pos[0] = square
            reach = {state.square_name(x) for x in state.reachable(0, die)}
            assert reach == {k for k, v in dist.items() if v <= die}, (sid, die)
    space = graph["C3"]
    assert space.bounds_mm.x == pytest.approx(t.board.border_mm + 2 * t.board.square_mm)

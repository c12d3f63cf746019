"""The BETTER Life kit: the board graph is the template's track, the printed decks are the engine's rows, the
inventory matches the template, the leaflet states the template's numbers on one folded sheet, and the bytes
repeat."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pikepdf
import pytest

from boardgen.games.better_life.board import board_scene, track_board
from boardgen.games.better_life.cards import Decks, load_decks
from boardgen.games.better_life.kit import decks_for_print, inventory, ip_tokens, voting_screen
from boardgen.games.better_life.leaflet import leaflet_content, leaflet_pdf, space_rows
from boardgen.games.better_life.schema import BetterLifeTemplate
from boardgen.render.imposition import A4, LETTER
from boardgen.template import load

TEMPLATE = Path(__file__).resolve().parents[3] / "templates" / "better-life.yaml"


@pytest.fixture(scope="module")
def loaded() -> tuple[BetterLifeTemplate, Decks]:
    _plugin, config = load(TEMPLATE)
    return config, load_decks(config.decks, config.source)


def test_board_graph_is_the_track(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    config, _decks = loaded
    board = track_board(config)
    assert board.kinds == ("start", *config.track.spaces)
    spaces = board.graph.spaces
    start, end = spaces[0], spaces[-1]
    assert start.label == "Start" and end.kind == "end-of-year"
    # a loop: End of Year sits right below Start, one space apart
    assert abs(start.position_mm[0] - end.position_mm[0]) < 1e-6
    assert abs(end.position_mm[1] - start.position_mm[1] - config.kit.space_mm) < 1e-6
    assert board.width_mm == 9 * config.kit.space_mm + 24
    scene, avoid = board_scene(config, board)
    texts = scene.texts()
    for name in ("Policy of the year", "Event pile", "Biodiversity Fund", "Communal IP pool", "IP reserve"):
        assert name in texts
    assert [t for t in texts if t in {str(y) for y in range(2020, 2031, 2)}] == [str(y) for y in range(2020, 2031, 2)]
    assert "all lose" in texts and avoid


def test_printed_decks_are_the_engine_rows(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    config, decks = loaded
    printed = {d.name: d for d in decks_for_print(config, decks)}
    assert len(printed["Action cards"].cards()) == len(decks.action_copies()) == 21
    assert len(printed["Role cards"].cards()) == 5
    assert len(printed["Event cards"].cards()) == len(decks.event_copies()) == 26
    assert len(printed["Policy cards"].cards()) == len(decks.policies) == 8
    assert len(printed["Policy Target cards"].cards()) == len(decks.target_copies()) == 10
    titles = {c.field("title") for c in printed["Action cards"].cards()}
    assert titles == {c.title for c in decks.regular_actions}
    risk = next(c for c in printed["Action cards"].cards() if c.field("title") == "Risk Plan")
    assert risk.field("subtitle") == "Play when you draw an event"
    wildfire = next(c for c in printed["Event cards"].cards() if c.field("title") == "Wildfire Summer")
    assert "pay 3 IP" in wildfire.field("text")  # the price at body size, not in the footer


def test_inventory_matches_template(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    config, decks = loaded
    rows = {part: count for part, count, _note in inventory(config, decks, track_board(config))}
    assert rows["IP tokens of 1"] == 60 and rows["IP tokens of 5"] == 20
    tokens = ip_tokens(config)
    assert len(tokens.components) == 80
    assert sum(int(t.label.split()[0]) for t in tokens.components) == config.ip.box
    assert rows["role mats"] == rows["voting screens"] == rows["pawns"] == 5
    assert rows["action cards"] == 21 and rows["event cards"] == 26


def test_voting_screen_folds_in_three(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    config, _decks = loaded
    screen = voting_screen(config, 2)
    assert screen.height_mm == config.kit.screen_height_mm and len(screen.folds) == 2
    assert "NGO" in screen.front.texts()


def test_leaflet_states_the_template_numbers(loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    config, decks = loaded
    board = track_board(config)
    text = leaflet_content(config, decks, board).text()
    assert "1st 4 IP, 2nd 3 IP, 3rd 3 IP, 4th 2 IP, 5th 2 IP" in text
    assert "reaches 5" in text and "reached 10" in text and "3 successful votes and 1 semi-successful one" in text
    assert "at least 36 IP" in text and "160 IP" in text
    changed = config.model_copy(update={"finish_ip": (5, 4, 3, 2, 1), "hand_limit": 3})
    text2 = leaflet_content(changed, decks, board).text()
    assert "1st 5 IP, 2nd 4 IP" in text2 and "hold 3 action cards" in text2
    kinds = [r[0] for r in space_rows(config)]
    assert kinds[0] == "Role space" and kinds[-1] == "End of Year"


@pytest.mark.parametrize("paper", [A4, LETTER])
def test_leaflet_is_one_folded_sheet_and_repeats(loaded: tuple[BetterLifeTemplate, Decks], paper: Any) -> None:
    config, decks = loaded
    board = track_board(config)
    data, sides = leaflet_pdf(config, decks, paper, board)
    assert sides == 2
    import io

    pdf = pikepdf.open(io.BytesIO(data))
    w, h = (float(x) for x in pdf.pages[0].mediabox[2:])
    assert w > h  # landscape sheet
    assert abs(w / 72 * 25.4 - paper.landscape().width_mm) < 0.5
    assert leaflet_pdf(config, decks, paper, board)[0] == data


def test_leaflet_says_any_number_of_ip_and_what_an_empty_reserve_does(
        loaded: tuple[BetterLifeTemplate, Decks]) -> None:
    """The vote takes any number of one's IP (the seed), unless the template caps a bid; the reserve running
    dry (it does in about one default game in eight) is a rule the players read, not an engine secret."""
    config, decks = loaded
    board = track_board(config)
    text = " ".join(leaflet_content(config, decks, board).text().split())
    assert "takes any number of their IP" in text
    assert "When the reserve is empty, nothing is taken from it" in text
    assert "paid only as far as it goes" in text
    assert "once you have read it out" in text
    capped = config.model_copy(update={"ip": config.ip.model_copy(update={"max_bid": 12})})
    text2 = " ".join(leaflet_content(capped, decks, board).text().split())
    assert "takes up to 12 of their IP" in text2

"""Hypothesis strategies shared by the flagship's rules tests: a random hex board, rule options and bots."""

from __future__ import annotations

from hypothesis import strategies as st

from boardgen.games.global_wellbeing.rules.board import hex_rectangle
from boardgen.games.global_wellbeing.rules.bots import BOT_NAMES
from boardgen.games.global_wellbeing.schema import RulesConfig, load_template

ZONES = load_template().zones


@st.composite
def games(draw: st.DrawFn) -> tuple:
    columns = draw(st.integers(3, 9))
    rows = draw(st.integers(2, 7))
    holes = draw(st.lists(st.tuples(st.integers(0, columns - 1), st.integers(0, rows - 1)), max_size=6))
    board = hex_rectangle(columns, rows, ZONES, holes=holes)
    players = draw(st.integers(1, 6))
    rules = RulesConfig().model_copy(
        update={
            "variant": draw(st.sampled_from(["simple", "complex"])),
            "turns": draw(st.integers(1, 12)),
            "setup_rounds": draw(st.integers(1, 10)),
            "starting_chips": draw(st.integers(0, 12)),
            "pieces_per_player": draw(st.integers(10, 20)),
            "stewardship_every": draw(st.integers(1, 5)),
            "tipping_point_every": draw(st.integers(1, 10)),
            "badge_threshold": draw(st.integers(2, 8)),
            "badges_can_be_lost": draw(st.booleans()),
            "bank_chips": draw(st.integers(0, 80)),
            "harvest_capped_by_bank": draw(st.booleans()),
            "investments_per_turn": draw(st.integers(0, 3)),
            "move_optional": draw(st.booleans()),
            "move_next_to_other_pieces": draw(st.booleans()),
            "pieces_limited": draw(st.booleans()),
            "simple_harvest": draw(st.booleans()),
            "first_player_rotates": draw(st.booleans()),
            "end_of_turn_order": draw(st.sampled_from(["stewardship-first", "tipping-first"])),
            "harvest_divisor": draw(st.integers(1, 30)),
        }
    )
    bots = [draw(st.sampled_from(BOT_NAMES)) for _ in range(players)]
    seed = draw(st.integers(0, 2**32))
    return board, rules, bots, seed

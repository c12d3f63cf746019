"""Rule variants offered in the leaflet, chosen from simulated games.

The seed's economy (one investment a turn, 30 pieces, harvest = index sum ÷ 30) leaves the harvest's size
without effect: a competent player can always afford the one piece a turn and ends with chips to spare.
``scripts/economy_variants.py`` plays planner self-play games for each candidate below and picks, by the rule
in ``choose``, the change that makes chips scarce enough to matter while the map still fills up; it writes the
figures to docs/economy-variant.md. ``ECONOMY_VARIANT`` is its choice, printed in the leaflet's variants.
``boardgen sweep`` over investments x harvest divisor x stewardship (24 variants x 2,000 games, the command and
objective in the README's sweep section, the table in docs/sweeps/) picks the same variant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardgen.games.global_wellbeing.schema import Config

CANDIDATES: tuple[dict[str, int], ...] = (
    {},  # the seed's rules, for comparison
    {"investments_per_turn": 2},
    {"investments_per_turn": 3},
    {"harvest_divisor": 45},
    {"harvest_divisor": 60},
    {"investments_per_turn": 2, "harvest_divisor": 40},
    {"investments_per_turn": 2, "harvest_divisor": 45},
    {"investments_per_turn": 2, "harvest_divisor": 60},
    {"investments_per_turn": 3, "harvest_divisor": 45},
    {"investments_per_turn": 3, "harvest_divisor": 60},
)
"""Changes that need no extra printed parts (same pieces, chips and badges)."""

MIN_BOUGHT_PER_TURN = 0.8  # the map must still fill up: at least this many pieces bought per player-turn
MAX_CHIPS_LEFT = 10.0  # chips left unspent at the end, mean per player, at most this

ECONOMY_VARIANT: Mapping[str, int] = {"investments_per_turn": 3, "harvest_divisor": 45}
"""The choice of ``scripts/economy_variants.py`` on the default board (see docs/economy-variant.md)."""


def choose(rows: Sequence[tuple[Mapping[str, int], Mapping[str, float]]]) -> Mapping[str, int]:
    """Among the changed rules (not the seed's own), those whose players still buy ``MIN_BOUGHT_PER_TURN``
    pieces a turn and end with at most ``MAX_CHIPS_LEFT`` chips; of these the one where a lack of chips stops a
    purchase most often (the harvest matters most), fewest changes first on a tie."""
    ok = [(change, f) for change, f in rows if change and f["bought_per_turn"] >= MIN_BOUGHT_PER_TURN
          and f["chips_left_mean"] <= MAX_CHIPS_LEFT]
    if not ok:
        return {}
    return max(ok, key=lambda row: (round(row[1]["chips_short_share"], 3), -len(row[0])))[0]


def describe(change: Mapping[str, int], base_divisor: int) -> str:
    """The change in players' words (for the leaflet)."""
    parts = []
    if "investments_per_turn" in change:
        parts.append(f"buy up to {change['investments_per_turn']} pieces a turn")
    if "harvest_divisor" in change:
        parts.append(f"divide harvests by {change['harvest_divisor']}, not {base_divisor}")
    return " and ".join(parts)


def player_counts(config: Config) -> tuple[list[int], list[int]]:
    """(counts that share the game out evenly: the divisors of ``players.usual`` in range, the other counts).

    With 6: 2, 3 or 6 players, and 4 or 5 people play in teams, as the original rules suggest."""
    r = config.players
    even = [n for n in range(r.min, r.max + 1) if r.usual % n == 0]
    other = [n for n in range(r.min, r.max + 1) if n not in even]
    return even, other

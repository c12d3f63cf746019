"""The Philanthropist's own checks for `boardgen validate`: the deck, the cube supply, the turn limit and card
effects that decided games. The first player's edge and the tie-break are the shared seat and tie checks' (the
plug-in names its turn-position metrics and its tie-break)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardgen.games.philanthropist.schema import PhilanthropistTemplate, deck_stats, load_cards
from boardgen.play.report import Finding, Severity
from boardgen.plugin import BuildContext

TURN_LIMIT_WARNING = 0.01  # the limit should be a safety net, not the usual end
SUPPLY_WARNING = 0.01  # the printed cube supply runs short in at most 1% of games


def board_findings(ctx: BuildContext) -> list[Finding]:
    t: PhilanthropistTemplate = ctx.config
    cards = ctx.value("cards", lambda: load_cards(t))
    out: list[Finding] = []
    for holding in (0, 5, 10):
        mean, sd = deck_stats(cards, holding)
        out.append(Finding("deck-value", "info", "business cards",
                           f"holding {holding} cubes, a card changes them by {mean:+.2f} on average "
                           f"(standard deviation {sd:.2f})"))
    mean0, _ = deck_stats(cards, 5)
    if mean0 <= 0:
        out.append(Finding("deck-value", "warning", "business cards", "the deck costs a player with 5 cubes on "
                           "average, so the card face of the action die is a penalty"))
    sq = t.board.square_mm
    out.append(Finding("square-size", "info", "board", f"{t.board.squares} x {t.board.squares} squares of "
                       f"{sq:.1f} mm hold a {t.kit.avatar_chip_mm:g} mm avatar chip and a "
                       f"{t.meeples.standee_width_mm:g} mm meeple standee"))
    out.append(Finding("cube-supply", "info", "cubes", f"the printed supply holds {t.cubes.total} cubes; the "
                       f"meeples on the board cost {t.board_cost} in all"))
    return out


def _share(summary: Mapping[str, Any], key: str) -> float:
    return float(summary["metrics"].get(key, {}).get("mean", 0.0))


def rule_findings(ctx: BuildContext, summary: Mapping[str, Any]) -> list[Finding]:
    t: PhilanthropistTemplate = ctx.config
    n = summary["games"]
    out: list[Finding] = []
    limit = _share(summary, "turn_limit_hit")
    severity: Severity = "warning" if limit > TURN_LIMIT_WARNING else "info"
    out.append(Finding("turn-limit", severity, "rules.turn_limit",
                       f"the {t.rules.turn_limit[summary['players']]}-round limit for {summary['players']} players "
                       f"ended {limit:.1%} of {n} games"))
    short = _share(summary, "supply_short")
    peak = summary["metrics"].get("peak_cubes_held", {})
    severity = "warning" if short > SUPPLY_WARNING else "info"
    out.append(Finding("cube-supply", severity, "cubes.supply",
                       f"players held more than the {t.cubes.total} printed cubes in {short:.1%} of games "
                       f"(peak held: mean {peak.get('mean', 0):.1f}, max {peak.get('max', 0):g})"))
    for name in ("gain", "lose", "lose_half", "lose_all"):
        share = _share(summary, f"decided_by_card_{name}")
        out.append(Finding("card-decided", "info", f"cards: {name.replace('_', ' ')}",
                           f"decided {share:.1%} of games (the winner came out of these cards ahead of the "
                           "runner-up, gaining more or losing less, by more cubes than the winning margin was worth "
                           "and than the winner had left at the end)"))
    left = summary["metrics"].get("winner_cubes_left", {})
    if left:
        out.append(Finding("cube-slack", "info", "rules",
                           f"winners ended holding {left.get('mean', 0):.1f} cubes on average (max "
                           f"{left.get('max', 0):g})"
                           + ("; that is more than the dearest meeple costs, so cubes seldom hold a winner back and "
                              "the race is mostly won by the moves" if left.get("mean", 0) >= max(t.meeples.kinds,
                              key=lambda k: k.cost).cost else "; cubes are tight")))
    return out

"""The Global Wellbeing Game's own part of the shared report (``boardgen.play.runner``: `boardgen simulate`,
`boardgen validate`, the build's validation and a sweep's metrics). The shared runner plays the games (the
compiled kernel through ``FastPath.kernel_batch`` where it plays them, the rules API's state machine else) and
computes what every game's report has: seat and bot win rates, ties, length, scores, rules that never fired, and
the self-play of the strongest bot (``GamePlugin.self_play_bot``). This module adds, through the plug-in's hooks:

- ``game_summary``: the game's numbers from the games' columns (the shared fields plus the game's per-game
  arrays: pieces, chips, indices per zone, badges, the index after every turn, the leaders, running out, the
  cells occupied and contested) and ``results_extras`` (the rules played, each cell's shares);
- ``board_findings``: checks of the map (cell count, zone sizes, connectivity, sections, the legend in open sea);
- ``rule_findings`` and ``rule_events``: checks of the played games (which rules came into play, badges, the
  tipping die, lead settled, running out, the economy in self-play);
- ``summary_lines``: what `boardgen simulate` prints beyond the shared lines.

``simulate`` plays games on a rules board outside a build (benchmarks, scripts, tests) through the same runner.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardgen.errors import LayoutError
from boardgen.games.global_wellbeing.rules.board import RulesBoard, components
from boardgen.games.global_wellbeing.rules.bots import BOT_NAMES
from boardgen.games.global_wellbeing.schema import Config, RulesConfig
from boardgen.geomap.spec import CELL_COUNT_TOLERANCE, cell_count_band
from boardgen.play.columns import OutcomeColumns
from boardgen.play.report import Finding, Severity
from boardgen.play.simulate import seat_wins
from boardgen.plugin import BuildContext

SELF_PLAY_BOT = "planner"  # the strongest bot: seat advantage and ties are measured in its self-play too
IDLE_ECONOMY_CHIPS = 10.0  # self-play players end with this many unspent chips or more on average: a warning
EARLY_DECISION_SHARE = 0.5  # more games than this won by whoever led after setup: a warning


@dataclass
class Simulation:
    """A simulation's games as columns, with the board and rules they were played under."""

    board: RulesBoard
    rules: RulesConfig
    players: int
    columns: OutcomeColumns
    bots: tuple[str, ...] = ()
    seed: int = 0
    rotate: bool = True

    @property
    def games(self) -> int:
        return self.columns.games

    def array(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        """The game's own per-game array ``name`` ((games, *shape); empty when no game was played)."""
        values = self.columns.arrays.get(name)
        return values if values is not None else np.zeros((self.games, *shape), dtype=np.int64)

    def trajectories(self) -> np.ndarray:
        """Every game's index per zone at the start and after every turn: (games, turns + 1, zones) int64."""
        return self.array("trajectory", (self.rules.turns + 1, len(self.board.zones)))

    def cell_counts(self) -> tuple[list[int], list[int]]:
        """Per cell: games in which it was occupied at the end, and games in which pieces of two or more players
        stood on it."""
        cells = self.array("cells", (self.board.n_cells,))
        occupied = np.count_nonzero(cells & 1, axis=0) if self.games else np.zeros(self.board.n_cells, np.int64)
        contested = np.count_nonzero(cells & 2, axis=0) if self.games else np.zeros(self.board.n_cells, np.int64)
        return occupied.tolist(), contested.tolist()


def simulate(board: RulesBoard, rules: RulesConfig, games: int, players: int, bots: Sequence[str], seed: int,
             jobs: int = 1, rotate: bool = True, progress: Callable[[int], None] | None = None) -> Simulation:
    """Play ``games`` games on ``board`` through the shared runner (``boardgen.play.simulate.play_columns``): the
    kernel where it plays them, the rules API else, seeded as the plug-in seeds them (``FastPath.game_seeds``)."""
    from boardgen.games.global_wellbeing import plugin
    from boardgen.games.global_wellbeing.rules import fast
    from boardgen.games.global_wellbeing.rules.engine import WellbeingGame, api_bots
    from boardgen.play.simulate import play_columns

    bots = tuple(bots)
    check_bots(bots)
    game = WellbeingGame(board, rules, players)

    def kernel(start: int, stop: int) -> OutcomeColumns | None:
        return fast.kernel_batch(game, bots, seed, start, stop, rotate)

    columns = play_columns(lambda: game, api_bots(), players, games, bots, seed, jobs, rotate, progress, kernel,
                           plugin.fast.game_seeds)
    return Simulation(board, rules, players, columns, bots, seed, rotate)


def check_bots(bots: Sequence[str]) -> None:
    for name in bots:
        if name not in BOT_NAMES:
            raise ValueError(f"unknown bot {name!r}; expected one of {', '.join(BOT_NAMES)}")


def simulation(ctx: BuildContext, columns: OutcomeColumns) -> Simulation:
    """The games of ``columns`` (played on ``ctx``'s board) as a ``Simulation``."""
    board = ctx.value("rules_board", lambda: RulesBoard.from_board(ctx.board))
    return Simulation(board, ctx.config.rules, columns.players, columns, tuple(columns.bot_names))


# -------------------------------------------------------------------------------------- statistics


def wins_by_seat(sim: Simulation) -> list[float]:
    """Wins per seat; a tie for first shares the win (1/k each)."""
    return seat_wins(sim.columns, sim.players)[0]


def wins_by_bot(sim: Simulation) -> dict[str, tuple[float, int]]:
    """Per bot name (sorted): (shared wins, seats played)."""
    return seat_wins(sim.columns, sim.players)[1]

def decided_after(winners: np.ndarray, leaders: np.ndarray) -> np.ndarray:
    """Per game, the turn after which the final winner(s) always led (0: from the end of setup on): ``winners``
    (games, players) bool, ``leaders`` (games, turns + 1) seat bit masks of who led after setup and every turn."""
    n, length = leaders.shape
    turns = length - 1
    mask = (winners.astype(np.int64) << np.arange(winners.shape[1], dtype=np.int64)).sum(axis=1) if n else \
        np.zeros(0, np.int64)
    led = (leaders[:, :turns] & mask[:, None]) != 0  # (games, turns): a winner led after setup / turn t
    trailing = np.cumprod(led[:, ::-1], axis=1).sum(axis=1)  # the run of such turns up to the last but one
    return turns - trailing


def _round(x: float) -> float:
    return round(float(x), 6)


def _percentile(sorted_values: np.ndarray, q: float) -> float:
    """The ``q`` quantile of integers in order, interpolated between the two nearest (as Python numbers)."""
    if not sorted_values.size:
        return 0.0
    k = (sorted_values.size - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    low, high = int(sorted_values[lo]), int(sorted_values[hi])
    return low + (high - low) * (k - lo)


def badge_games_by_zone(sim: Simulation) -> list[int]:
    """Per zone: games in which at least one player held that zone's badge at the end."""
    badges = sim.array("badges", (sim.players, len(sim.board.zones)))
    return [int(v) for v in (badges != 0).any(axis=1).sum(axis=0)]


def economy_figures(sim: Simulation) -> dict[str, float]:
    """How much the chips matter: pieces bought per player-turn, turns on which a lack of chips stopped a
    purchase, and chips left unspent at the end (mean, min, max over players)."""
    n, players, turns = sim.games, sim.players, sim.rules.turns
    player_turns = max(1, n * players * turns)
    events = sim.columns.events
    bought = sum(int(events[k].sum()) for k in ("invest", "invest_anywhere") if k in events)
    short = int(events["no_chips"].sum()) if "no_chips" in events else 0
    chips = sim.array("chips", (players,)).ravel().tolist() or [0]
    return {"bought_per_turn": bought / player_turns, "chips_short_share": short / player_turns,
            "chips_left_mean": sum(chips) / len(chips), "chips_left_min": float(min(chips)),
            "chips_left_max": float(max(chips))}


def summary(sim: Simulation) -> dict[str, Any]:
    """The game's own numbers of a simulation (rounded, sorted: the same games give the same bytes); the shared
    summary (seats, bots, ties, length, scores, metrics, events) is the runner's."""
    n = sim.games
    c = sim.columns
    zones = sim.board.zone_names
    n_zones = len(zones)
    trajectory_mean = []
    if n:  # integer sums (exact), divided as Python divides them
        trajectory_mean = [[_round(x) for x in row] for row in (sim.trajectories().sum(axis=0) / n).tolist()]
    ran_out = sim.array("ran_out", (sim.players,))
    ran_pieces = int(np.count_nonzero((ran_out & 1).any(axis=1))) if n else 0
    ran_cells = int(np.count_nonzero((ran_out & 2).any(axis=1))) if n else 0
    badges = badge_games_by_zone(sim)
    leaders = sim.array("leaders", (sim.rules.turns + 1,))
    decided = np.sort(decided_after(c.winners, leaders))
    final_sums = sim.array("final_index", (n_zones,)).sum(axis=0).tolist()
    end_sums = sim.array("end_index", (n_zones,)).sum(axis=0).tolist()
    scores = np.sort(c.scores.ravel()).astype(np.int64)
    return {
        "score_percentiles": {"p10": _round(_percentile(scores, 0.1)), "p90": _round(_percentile(scores, 0.9))},
        "lead_settled_after_turn": {  # the turn after which the eventual winner always led (0: after setup)
            "mean": _round(int(decided.sum()) / n) if n else 0.0,
            "median": _round(_percentile(decided, 0.5)),
            "from_setup_share": _round(int(np.count_nonzero(decided == 0)) / n if n else 0.0),
        },
        "turns": sim.rules.turns,
        "years": [sim.rules.start_year, sim.rules.start_year + sim.rules.turns * sim.rules.years_per_turn],
        "ran_out": {"pieces_games": ran_pieces, "cells_games": ran_cells,
                    "pieces_share": _round(ran_pieces / n if n else 0.0),
                    "cells_share": _round(ran_cells / n if n else 0.0)},
        "zones": {
            name: {
                "final_index_mean": _round(final_sums[z] / n) if n else 0.0,
                "end_index_mean": _round(end_sums[z] / n) if n else 0.0,
                "badge_games": badges[z],
                "badge_share": _round(badges[z] / n if n else 0.0),
            }
            for z, name in enumerate(zones)
        },
        "economy": {k: _round(v) for k, v in economy_figures(sim).items()},
        "index_trajectory_mean": trajectory_mean,
    }


def game_summary(ctx: BuildContext, columns: OutcomeColumns) -> dict[str, Any]:
    """``GamePlugin.game_summary``: the game's own numbers of the games of ``columns``."""
    return summary(simulation(ctx, columns))


def results_extras(ctx: BuildContext, columns: OutcomeColumns) -> dict[str, Any]:
    """``GamePlugin.results_extras``: the rules played and, per cell, how often it was occupied at the end and
    how often contested."""
    sim = simulation(ctx, columns)
    n = max(sim.games, 1)
    occupied, contested = sim.cell_counts()
    return {
        "rules": {k: getattr(sim.rules, k) for k in sorted(vars(sim.rules))},
        "cells": [
            {"label": label, "occupied_share": _round(occupied[c] / n), "contested_share": _round(contested[c] / n)}
            for c, label in enumerate(sim.board.labels)
        ],
    }


def summary_lines(summary_: Mapping[str, Any]) -> list[str]:
    """``GamePlugin.summary_lines``: the lead and the final indices."""
    score = summary_["score"]
    settled = summary_["lead_settled_after_turn"]
    finals = "  ".join(f"{name} {v['final_index_mean']:.1f}" for name, v in summary_["zones"].items())
    return [f"scores             mean {score['mean']:.0f}, median {score['median']:.0f}, "
            f"winner mean {score['winning_mean']:.0f}",
            f"lead settled       after turn {settled['mean']:.1f} on average (median {settled['median']:g}); "
            f"leader after setup won {settled['from_setup_share']:.0%} of games",
            f"final index (mean) {finals}"]


def report_plots(ctx: BuildContext, records: Any) -> dict[str, bytes]:
    """``GamePlugin.report_plots``: the game's plots (``rules.plots``) of the games of ``records`` (a
    ``RecordView`` over their columns, or records played through the rules API)."""
    from boardgen.games.global_wellbeing.rules.plots import report_plots as plots
    from boardgen.play.simulate import bot_codes

    columns = getattr(records, "columns", None)
    if columns is None:
        records = list(records)
        names = bot_codes([b for r in records for b in r.bots])
        columns = OutcomeColumns.from_records(records, len(records[0].bots) if records else 0, names)
    return plots(simulation(ctx, columns), [z.colour for z in ctx.config.zones.values()])


# -------------------------------------------------------------------------------------- the map


SectionsOf = Callable[[], Any]  # the board's jigsaw cut (raises LayoutError when there is none)
LegendOf = Callable[[Any], Any]  # the legend placed on a cut


def _cut(board: Any) -> SectionsOf:
    from boardgen.games.global_wellbeing.board_layout import section_page_sizes_mm
    from boardgen.layout.sections import cut_sections

    return lambda: cut_sections(board, section_page_sizes_mm())


def _legend(board: Any) -> LegendOf:
    from boardgen.games.global_wellbeing.board_art import plan_legend

    return lambda sections: plan_legend(board, sections)


def map_findings(board: Any, rules_board: RulesBoard, config: Config, sections_of: SectionsOf | None = None,
                 legend_of: LegendOf | None = None) -> list[Finding]:
    """Checks of the board alone: ``board`` is a boardgen.geomap.model.Board (or anything with .cells)."""
    found: list[Finding] = []
    rules = config.rules
    n = rules_board.n_cells
    lo, hi = cell_count_band(config.hexes)
    if lo <= n <= hi:
        found.append(Finding("map.cell-count", "info", "board", f"{n} land cells, within [{lo}, {hi}]"))
    else:
        found.append(Finding("map.cell-count", "error", "board",
                             f"{n} land cells, outside the template's hexes.cell_count_range [{lo}, {hi}]"
                             + ("" if config.hexes.cell_count_range is not None else
                                f" (auto: hexes.target_cells {config.hexes.target_cells} +- "
                                f"{CELL_COUNT_TOLERANCE:.0%})")))
    counts = rules_board.zone_cell_counts()
    minimum = config.classification.minimum_cells
    for z, zone in enumerate(rules_board.zones):
        if counts[z] < minimum:
            found.append(Finding("map.zone-minimum", "error", f"zone {zone.name}",
                                 f"{counts[z]} cells, fewer than classification.minimum_cells ({minimum})"))
        if rules.variant == "complex" and counts[z] < rules.badge_threshold:
            found.append(Finding("map.zone-badge", "error", f"zone {zone.name}",
                                 f"{counts[z]} cells: nobody can hold {rules.badge_threshold} pieces there, so its "
                                 "philanthropy badge can never be won"))
    sizes = ", ".join(f"{zone.name} {counts[z]}" for z, zone in enumerate(rules_board.zones))
    found.append(Finding("map.zone-sizes", "info", "board", f"cells per zone: {sizes}"))
    comps = components(rules_board)
    isolated = [rules_board.labels[c[0]] for c in comps if len(c) == 1]
    found.append(Finding("map.components", "info", "board",
                         f"{len(comps)} connected groups of cells; sizes {', '.join(str(len(c)) for c in comps)}"))
    if isolated:
        found.append(Finding("map.isolated-cells", "warning", "cells " + ", ".join(isolated),
                             f"{len(isolated)} cells have no neighbour: a piece gets there only by the "
                             "anywhere-free fallback and never spreads from there"))
    small = [c for c in comps[1:] if len(c) > 1]
    for comp in small:
        labels = [rules_board.labels[c] for c in comp]
        found.append(Finding("map.small-group", "info", "cells " + ", ".join(labels),
                             f"a group of {len(comp)} cells cut off from the main landmass"))
    most_players = config.players.max
    setup = most_players * rules.setup_rounds
    if setup > n:
        found.append(Finding("setup.fits", "error", "board",
                             f"{most_players} players x {rules.setup_rounds} setup pieces = {setup} > {n} cells"))
    else:
        found.append(Finding("setup.fits", "info", "board",
                             f"{most_players} players x {rules.setup_rounds} setup pieces = {setup} of {n} cells "
                             f"({setup / n:.0%})"))
    usual = config.players.usual
    printed = usual * rules.pieces_per_player
    if printed > n:
        found.append(Finding("setup.pieces", "info", "board",
                             f"{usual} x {rules.pieces_per_player} printed pieces ({printed}) exceed the "
                             f"{n} cells: the board can fill up before the pieces run out"))
    if rules.variant == "complex" and rules.bank_chips < usual * rules.starting_chips:
        found.append(Finding("setup.bank", "error", "template rules.bank_chips",
                             f"{rules.bank_chips} chips cannot pay {usual} x {rules.starting_chips} "
                             "starting chips"))
    found.extend(_section_findings(board, sections_of or _cut(board), legend_of or _legend(board)))
    return found


def _section_findings(board: Any, sections_of: SectionsOf, legend_of: LegendOf) -> list[Finding]:
    """Every section holds land and the table covers no land (the same cut the board stage prints)."""
    try:
        made = sections_of()
    except LayoutError as exc:  # the build would stop here too
        return [Finding("map.sections", "error", "board", f"the board cannot be cut into sections: {exc}")]
    sections = made.sections
    found: list[Finding] = []
    bare = []
    for section in sections:
        if not section.cells:
            area = section.outline_mm.intersection(board.land_mm).area
            bare.append(f"{section.number} ({area:.0f} mm2 of land)" if area else f"{section.number} (open ocean)")
    if bare:
        found.append(Finding("map.section-land", "warning", "sections " + ", ".join(bare),
                             "a board section without a single land cell: playable, but a piece of pure ocean"))
    else:
        found.append(Finding("map.section-land", "info", "board",
                             f"every one of {len(sections)} sections holds land cells"))
    found.extend(_legend_findings(board, made, legend_of))
    return found


def _legend_findings(board: Any, sections: Any, legend_of: LegendOf) -> list[Finding]:
    """The title, zone key and bio-productivity table sit in open sea (when the board art can place them)."""
    from boardgen.games.global_wellbeing.board_art import check_legend_clear

    try:
        legend = legend_of(sections)
        problems = check_legend_clear(board, legend, sections.sections[0].outline_mm,
                                      [s.outline_mm for s in sections.sections])
    except LayoutError as exc:  # the build would stop here too
        return [Finding("map.table-land", "error", "section 1", f"no room for the table and key: {exc}")]
    if problems:
        return [Finding("map.table-land", "error", "section 1", problem) for problem in problems]
    names = ", ".join(block.name for block in legend)
    found = [Finding("map.table-land", "info", "section 1", f"{names}: in open sea, no land cell under them")]
    land = getattr(board, "land_mm", None)
    if land is not None:
        coast = [block.name for block in legend if block.polygon.intersection(land).area > 1.0]
        if coast:
            found.append(Finding("map.table-coast", "info", "section 1",
                                 f"{', '.join(coast)} cover a little coastline (no cell)"))
    return found


def board_findings(ctx: BuildContext) -> list[Finding]:
    """``GamePlugin.board_findings``: the map's checks on the build's board, with the very cut and legend the
    board stage prints."""
    from boardgen.games.global_wellbeing.board_layout import board_legend, board_sections

    rules_board = ctx.value("rules_board", lambda: RulesBoard.from_board(ctx.board))
    return map_findings(ctx.board, rules_board, ctx.config, lambda: board_sections(ctx),
                        lambda _sections: board_legend(ctx))


# ------------------------------------------------------------------------------------------ the rules

# events whose absence in simulated games means a rule never came into play
_CORE_EVENTS: tuple[tuple[str, str, bool], ...] = (
    # event, rule it shows, needs the chips economy
    ("setup_adjacent", "setup pieces next to own pieces", False),
    ("move", "moving a piece", False),
    ("harvest", "harvest paying chips", True),
    ("invest", "investing a chip in a new piece", True),
    ("stewardship_up", "stewardship raising an index", False),
    ("stewardship_down", "stewardship lowering an index", False),
    ("tipping_up", "the tipping point raising every index", False),
    ("tipping_down", "the tipping point lowering every index", False),
)
_SIDE_EVENTS: tuple[tuple[str, str], ...] = (
    ("setup_anywhere", "the anywhere-free fallback in setup"),
    ("move_anywhere", "the anywhere-free fallback when moving"),
    ("invest_anywhere", "the anywhere-free fallback when investing"),
    ("harvest_zero", "a harvest rounded down to nothing"),
    ("harvest_short", "the bank running short of chips"),
    ("stewardship_blocked", "a stewardship step stopped by a bound"),
    ("tipping_blocked", "a tipping-point step stopped by a bound"),
    ("badge_lost", "a badge lost again"),
    ("badge_past_max", "a badge lifting a final index past its die"),
)


def rule_events(config: Config) -> dict[str, str]:
    """``GamePlugin.rule_events``: the events that show a rule came into play, in words, for this template's
    rules (the economy's only with an economy, the badges' only in the complex variant): the shared
    ``rule-never-fires`` check warns of any that never happened. The side rules are noted, not required."""
    rules = config.rules
    complex_game = rules.variant == "complex"
    economy = complex_game or rules.simple_harvest
    core = [(event, what) for event, what, needs_economy in _CORE_EVENTS if economy or not needs_economy]
    if complex_game:
        core.append(("badge_won", "a philanthropy badge won"))
    return dict(core)


def rule_findings(ctx: BuildContext, stats: Mapping[str, Any]) -> list[Finding]:
    """``GamePlugin.rule_findings``: checks of the played games from their summary (``stats``: the shared
    summary with ``summary``'s numbers, the self-play's under ``self_play``)."""
    config: Config = ctx.config
    rules = config.rules
    n = stats["games"]
    if n == 0:
        return []
    board = ctx.value("rules_board", lambda: RulesBoard.from_board(ctx.board))
    events: Mapping[str, Mapping[str, int]] = stats["events"]
    complex_game = rules.variant == "complex"
    found = [Finding("rules.simulated", "info", "rules",
                     f"{n} games of {stats['players']} players ({', '.join(stats['bots'])} bots, seats rotated), "
                     f"{rules.variant} variant, seed {stats['seed']}")]
    for event, what in rule_events(config).items():
        if events[event]["games"]:
            found.append(Finding("rules.fires", "info", f"rule: {what}",
                                 f"in {_pct(events[event]['games'] / n)} of games ({_times(events[event]['total'])})"))
    for event, what in _SIDE_EVENTS:
        if event == "badge_lost" and not (complex_game and rules.badges_can_be_lost):
            continue
        if event == "badge_past_max" and not complex_game:
            continue
        games = events[event]["games"]
        found.append(Finding("rules.side-rule", "info", f"rule: {what}",
                             f"in {_pct(games / n)} of games ({_times(events[event]['total'])})" if games
                             else f"never happened in {n} games"))
    found.extend(_schedule_findings(config))
    found.extend(_tipping_findings(board, config, n, events))
    found.extend(_stewardship_findings(board))
    if complex_game:
        counts = board.zone_cell_counts()
        for z, zone in enumerate(board.zones):
            share = stats["zones"][zone.name]["badge_share"]
            if counts[z] < rules.badge_threshold:
                continue  # already an error of the map
            if share == 0:
                found.append(Finding("rules.badge-reachable", "warning", f"zone {zone.name}",
                                     f"no badge won in {n} games ({counts[z]} cells, threshold "
                                     f"{rules.badge_threshold})"))
            else:
                found.append(Finding("rules.badge-reachable", "info", f"zone {zone.name}",
                                     f"a badge was held at the end of {share:.0%} of games"))
    metrics = stats["metrics"]
    found.append(Finding("rules.end-state", "info", "rules",
                         f"after {rules.setup_rounds} setup rounds and {rules.turns} turns ({rules.start_year}-"
                         f"{rules.start_year + rules.turns * rules.years_per_turn}): "
                         f"{metrics['pieces_on_board']['mean']:.1f} pieces per player on the board at the end, "
                         f"{metrics['chips_left']['mean']:.1f} chips left unspent (they score nothing)"))
    settled = stats["lead_settled_after_turn"]
    settled_text = (f"the eventual winner was in the lead for good after turn {settled['mean']:.1f} on average "
                    f"(median {settled['median']:g} of {rules.turns}); in {_pct(settled['from_setup_share'])} of "
                    "games the player leading after setup won")
    if settled["from_setup_share"] > EARLY_DECISION_SHARE:
        found.append(Finding("rules.lead-settled", "warning", "rules",
                             settled_text + ": the turns after setup change too little"))
    else:
        found.append(Finding("rules.lead-settled", "info", "rules", settled_text))
    ran_out = stats["ran_out"]
    for key, what in (("pieces", "runs out of printed pieces"), ("cells", "finds no free cell for a new piece")):
        share = ran_out[f"{key}_share"]
        severity: Severity = "warning" if share > 0.5 else "info"
        found.append(Finding(f"rules.out-of-{key}", severity, "rules",
                             f"in {_pct(share)} of games at least one player {what}"
                             + (f" (pieces_per_player {rules.pieces_per_player})" if key == "pieces" else "")))
    own = stats.get("self_play")
    if own is not None and own["games"]:
        found.extend(economy_findings(config, own))
    return found


def _pct(share: float) -> str:
    """A share as a percentage that does not round a rare event down to 0%."""
    if 0 < share < 0.01:
        return "<1%"
    return f"{share:.0%}"


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


def _schedule_findings(config: Config) -> list[Finding]:
    """A rule whose period is longer than the game can never happen (the shared check then warns it never did)."""
    rules = config.rules
    found = []
    for what, every in (("the tipping point", rules.tipping_point_every), ("stewardship", rules.stewardship_every)):
        if rules.turns < every:
            found.append(Finding("rules.schedule", "info", "template rules.turns",
                                 f"the game has {rules.turns} turns and {what} comes every {every}: it never happens"))
    return found


def _tipping_findings(board: RulesBoard, config: Config, games: int, events: Mapping[str, Mapping[str, int]]
                      ) -> list[Finding]:
    """The tipping die against the index sum: can it go up at all, and how often does it?"""
    rules = config.rules
    zones = board.zones
    die = rules.tipping_point_die
    start = sum(z.start_index for z in zones)
    floor = sum(z.minimum_index for z in zones)
    ceiling = sum(z.die for z in zones)
    where = "template rules.tipping_point_die"
    found: list[Finding] = []
    if floor >= die:
        found.append(Finding("rules.tipping-never-up", "warning", where,
                             f"the indices never sum to less than {floor}, so a d{die} can never exceed the sum: "
                             "the tipping point can only lower the indices"))
    elif start >= die:
        games = max(games, 1)
        up, down = events["tipping_up"]["games"] / games, events["tipping_down"]["games"] / games
        found.append(Finding("rules.tipping-start", "warning", where,
                             f"the start indices sum to {start} >= {die}: a d{die} tipping point cannot raise them "
                             f"until stewardship has brought the sum below {die}; it rose in {_pct(up)} of games "
                             f"and fell in {_pct(down)}"))
    if ceiling < 1:
        found.append(Finding("rules.tipping-never-down", "warning", where, "the tipping point can never lower"))
    return found


def _stewardship_findings(board: RulesBoard) -> list[Finding]:
    """Note when the bounds can never stop a stewardship step (a roll above the index means index < die)."""
    if all(z.minimum_index <= 1 for z in board.zones):
        return [Finding("rules.stewardship-bounds", "info", "zones",
                        "with every minimum at 1, a stewardship roll can never push an index past a bound: "
                        "only the tipping point meets the bounds")]
    return []


def economy_findings(config: Config, own: Mapping[str, Any]) -> list[Finding]:
    """Whether the chips matter, in the strongest bot's self-play (``own``: its summary)."""
    rules = config.rules
    if rules.variant != "complex" and not rules.simple_harvest:
        return []
    f = own["economy"]
    text = (f"{own['bots'][0]} players bought {f['bought_per_turn']:.2f} pieces a turn (limit "
            f"{rules.investments_per_turn}), were short of chips on {f['chips_short_share']:.1%} of turns and ended "
            f"with {f['chips_left_mean']:.1f} chips unspent on average ({f['chips_left_min']:.0f}-"
            f"{f['chips_left_max']:.0f})")
    if f["chips_left_mean"] >= IDLE_ECONOMY_CHIPS and f["chips_short_share"] < 0.05:
        return [Finding("rules.economy-idle", "warning", "template rules.investments_per_turn",
                        text + ": the harvest's size never changes what a player can do; the leaflet's variants "
                        "offer a rule that makes it matter (docs/economy-variant.md)")]
    return [Finding("rules.economy", "info", "rules", text)]


__all__ = ["SELF_PLAY_BOT", "Simulation", "badge_games_by_zone", "board_findings", "check_bots", "decided_after",
           "economy_figures", "economy_findings", "game_summary", "map_findings", "report_plots", "results_extras",
           "rule_events", "rule_findings", "simulate", "simulation", "summary", "summary_lines", "wins_by_bot",
           "wins_by_seat"]

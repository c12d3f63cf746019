"""`boardgen validate`: is the generated board a playable, fair game under the template's rules?

Checks of the map itself (cell count, zone sizes, connectivity, sections) and of the rules as they play out
in simulated games (every rule fires, badges are reachable, seat advantage, game length, running out of
pieces or cells). Each finding has a rule id, a severity (error, warning, info), where it applies and a
message; any error makes the command exit with code 1 so it can gate a build in CI.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from boardgen.errors import LayoutError
from boardgen.games.global_wellbeing.rules.board import RulesBoard, components
from boardgen.games.global_wellbeing.rules.report import Simulation, simulate, summary, ties, wins_by_seat
from boardgen.games.global_wellbeing.schema import Config
from boardgen.geomap.spec import CELL_COUNT_TOLERANCE, cell_count_band
from boardgen.play.report import SEVERITIES, Finding, Report, Severity, wilson_interval

DEFAULT_BOTS: tuple[str, ...] = ("greedy", "planner", "random")
TIE_WARNING_SHARE = 0.2  # more ties for first than this: a warning
SELF_PLAY_BOT = "planner"  # the strongest bot: seat advantage and ties are measured in its self-play
IDLE_ECONOMY_CHIPS = 10.0  # self-play players end with this many unspent chips or more on average: a warning
EARLY_DECISION_SHARE = 0.5  # more games than this won by whoever led after setup: a warning


# ------------------------------------------------------------------------------------------ the map


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


def rules_findings(sim: Simulation, config: Config) -> list[Finding]:
    found: list[Finding] = []
    rules = config.rules
    n = sim.games
    if n == 0:
        return [Finding("rules.simulated", "info", "rules", "no games simulated (--games 0)")]
    stats = summary(sim)
    events: dict[str, dict[str, int]] = stats["events"]
    complex_game = rules.variant == "complex"
    economy = complex_game or rules.simple_harvest
    found.append(Finding("rules.simulated", "info", "rules",
                         f"{n} games of {sim.players} players ({', '.join(sim.bots)} bots, seats rotated), "
                         f"{rules.variant} variant, seed {sim.seed}"))
    core = list(_CORE_EVENTS)
    if complex_game:
        core.append(("badge_won", "a philanthropy badge won", False))
    for event, what, needs_economy in core:
        if needs_economy and not economy:
            continue
        games = events[event]["games"]
        if games == 0:
            found.append(Finding("rule-never-fires", "warning", f"rule: {what}",
                                 f"never happened in {n} simulated games" + _why_never(event, sim, config)))
        else:
            found.append(Finding("rules.fires", "info", f"rule: {what}",
                                 f"in {_pct(games / n)} of games ({_times(events[event]['count'])})"))
    for event, what in _SIDE_EVENTS:
        if event == "badge_lost" and not (complex_game and rules.badges_can_be_lost):
            continue
        if event == "badge_past_max" and not complex_game:
            continue
        games = events[event]["games"]
        found.append(Finding("rules.side-rule", "info", f"rule: {what}",
                             f"in {_pct(games / n)} of games ({_times(events[event]['count'])})" if games
                             else f"never happened in {n} games"))
    found.extend(_tipping_findings(sim, config, events))
    found.extend(_stewardship_findings(sim))
    if complex_game:
        zones = stats["zones"]  # type: ignore[index]
        counts = sim.board.zone_cell_counts()
        for z, zone in enumerate(sim.board.zones):
            share = zones[zone.name]["badge_share"]  # type: ignore[index]
            if counts[z] < rules.badge_threshold:
                continue  # already an error of the map
            if share == 0:
                found.append(Finding("rules.badge-reachable", "warning", f"zone {zone.name}",
                                     f"no badge won in {n} games ({counts[z]} cells, threshold "
                                     f"{rules.badge_threshold})"))
            else:
                found.append(Finding("rules.badge-reachable", "info", f"zone {zone.name}",
                                     f"a badge was held at the end of {share:.0%} of games"))
    found.extend(_seat_findings(sim))  # mixed strengths, seats rotated (self-play: selfplay_findings)
    found.append(Finding("game-length", "info", "rules",
                         f"{rules.turns} turns after {rules.setup_rounds} setup rounds "
                         f"({rules.start_year}-{rules.start_year + rules.turns * rules.years_per_turn}); "
                         f"{stats['pieces_on_board_mean']:.1f} pieces per player on the board at the end, "
                         f"{stats['chips_left_mean']:.1f} chips left unspent (they score nothing)"))
    settled: dict[str, float] = stats["lead_settled_after_turn"]  # type: ignore[assignment]
    settled_text = (f"the eventual winner was in the lead for good after turn {settled['mean']:.1f} on average "
                    f"(median {settled['median']:g} of {rules.turns}); in {_pct(settled['from_setup_share'])} of "
                    "games the player leading after setup won")
    if settled["from_setup_share"] > EARLY_DECISION_SHARE:
        found.append(Finding("rules.lead-settled", "warning", "rules",
                             settled_text + ": the turns after setup change too little"))
    else:
        found.append(Finding("rules.lead-settled", "info", "rules", settled_text))
    ran_out: dict[str, float] = stats["ran_out"]  # type: ignore[assignment]
    for key, what in (("pieces", "runs out of printed pieces"), ("cells", "finds no free cell for a new piece")):
        share = ran_out[f"{key}_share"]
        severity: Severity = "warning" if share > 0.5 else "info"
        found.append(Finding(f"rules.out-of-{key}", severity, "rules",
                             f"in {_pct(share)} of games at least one player {what}"
                             + (f" (pieces_per_player {rules.pieces_per_player})" if key == "pieces" else "")))
    ties: dict[str, float] = stats["ties"]  # type: ignore[assignment]
    tie_text = f"{ties['share']:.1%} of games end in a tie for first place"
    if ties["share"] > TIE_WARNING_SHARE:
        found.append(Finding("ties", "warning", "rules",
                             tie_text + ": the rules may need a tie-breaker (e.g. most chips left, or most badges)"))
    else:
        found.append(Finding("ties", "info", "rules", tie_text))
    return found


def _pct(share: float) -> str:
    """A share as a percentage that does not round a rare event down to 0%."""
    if 0 < share < 0.01:
        return "<1%"
    return f"{share:.0%}"


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


def _why_never(event: str, sim: Simulation, config: Config) -> str:
    rules = config.rules
    if event.startswith("tipping") and rules.turns < rules.tipping_point_every:
        return f" (the game has {rules.turns} turns, the tipping point comes every {rules.tipping_point_every})"
    if event.startswith("stewardship") and rules.turns < rules.stewardship_every:
        return f" (the game has {rules.turns} turns, stewardship comes every {rules.stewardship_every})"
    return ""


def _tipping_findings(sim: Simulation, config: Config, events: dict[str, dict[str, int]]) -> list[Finding]:
    """The tipping die against the index sum: can it go up at all, and how often does it?"""
    rules = config.rules
    zones = sim.board.zones
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
        games = max(sim.games, 1)
        up, down = events["tipping_up"]["games"] / games, events["tipping_down"]["games"] / games
        found.append(Finding("rules.tipping-start", "warning", where,
                             f"the start indices sum to {start} >= {die}: a d{die} tipping point cannot raise them "
                             f"until stewardship has brought the sum below {die}; it rose in {_pct(up)} of games "
                             f"and fell in {_pct(down)}"))
    if ceiling < 1:
        found.append(Finding("rules.tipping-never-down", "warning", where, "the tipping point can never lower"))
    return found


def _stewardship_findings(sim: Simulation) -> list[Finding]:
    """Note when the bounds can never stop a stewardship step (a roll above the index means index < die)."""
    if all(z.minimum_index <= 1 for z in sim.board.zones):
        return [Finding("rules.stewardship-bounds", "info", "zones",
                        "with every minimum at 1, a stewardship roll can never push an index past a bound: "
                        "only the tipping point meets the bounds")]
    return []


def _seat_findings(sim: Simulation) -> list[Finding]:
    n = sim.games
    wins = wins_by_seat(sim)
    first, last = wins[0], wins[-1]
    ci_first = wilson_interval(first, n)
    ci_last = wilson_interval(last, n)
    where = f"seat 1 vs seat {sim.players} (mixed bots, seats rotated)"
    text = (f"seat 1 wins {first / n:.1%} (95% CI {ci_first[0]:.1%}-{ci_first[1]:.1%}), seat {sim.players} "
            f"{last / n:.1%} ({ci_last[0]:.1%}-{ci_last[1]:.1%}); a fair share is {1 / sim.players:.1%}")
    found = []
    if ci_first[0] > ci_last[1] or ci_last[0] > ci_first[1]:
        found.append(Finding("seat-advantage", "warning", where, text + ": the intervals do not overlap"))
    else:
        found.append(Finding("seat-advantage", "info", where, text))
    fair = 1 / sim.players
    outside = []
    for s, w in enumerate(wins):
        lo, hi = wilson_interval(w, n)
        if not lo <= fair <= hi:
            outside.append(f"seat {s + 1} {w / n:.1%}")
    if outside:
        found.append(Finding("seat-spread", "info", "seats",
                             "win rate's 95% interval excludes the fair share: " + ", ".join(outside)))
    return found


def _bonferroni_z(tests: int) -> float:
    """z for a two-sided 95% family-wise interval over ``tests`` intervals."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(1 - 0.05 / (2 * max(1, tests)))


def selfplay_findings(sim: Simulation) -> list[Finding]:
    """Seat advantage and ties when every seat is the strongest bot (no weak bot to hide behind, no rotation
    to average seats out). Win shares split ties; each seat's 95% interval is reported, and a warning is given
    when a seat's family-wise (Bonferroni) interval leaves out the fair share."""
    n, players = sim.games, sim.players
    if n == 0:
        return []
    found: list[Finding] = []
    fair = 1 / players
    wins = wins_by_seat(sim)
    z = _bonferroni_z(players)
    parts, off = [], []
    for s, w in enumerate(wins):
        lo, hi = wilson_interval(w, n)
        parts.append(f"seat {s + 1} {w / n:.1%} ({lo:.1%}-{hi:.1%})")
        flo, fhi = wilson_interval(w, n, z)
        if not flo <= fair <= fhi:
            off.append(f"seat {s + 1}")
    where = f"{players} x {sim.bots[0]} self-play"
    text = (f"{n} games, seats fixed: " + ", ".join(parts) + f"; a fair share is {fair:.1%}")
    if off:
        found.append(Finding("rules.selfplay-seats", "warning", where,
                             text + f": {', '.join(off)} outside the fair share even allowing for {players} seats "
                             "tested at once"))
    else:
        found.append(Finding("rules.selfplay-seats", "info", where, text))
    tied = ties(sim)
    lo, hi = wilson_interval(tied, n)
    tie_text = f"{tied / n:.1%} of games end in a tie for first place (95% CI {lo:.1%}-{hi:.1%})"
    if tied / n > TIE_WARNING_SHARE:
        found.append(Finding("rules.selfplay-ties", "warning", where,
                             tie_text + ": the rules need a tie-breaker (e.g. most chips left, or most badges)"))
    else:
        found.append(Finding("rules.selfplay-ties", "info", where, tie_text))
    found.extend(economy_findings(sim))
    return found


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


def economy_findings(sim: Simulation) -> list[Finding]:
    rules = sim.rules
    if rules.variant != "complex" and not rules.simple_harvest:
        return []
    f = economy_figures(sim)
    text = (f"{sim.bots[0]} players bought {f['bought_per_turn']:.2f} pieces a turn (limit "
            f"{rules.investments_per_turn}), were short of chips on {f['chips_short_share']:.1%} of turns and ended "
            f"with {f['chips_left_mean']:.1f} chips unspent on average ({f['chips_left_min']:.0f}-"
            f"{f['chips_left_max']:.0f})")
    if f["chips_left_mean"] >= IDLE_ECONOMY_CHIPS and f["chips_short_share"] < 0.05:
        return [Finding("rules.economy-idle", "warning", "template rules.investments_per_turn",
                        text + ": the harvest's size never changes what a player can do; the leaflet's variants "
                        "offer a rule that makes it matter (docs/economy-variant.md)")]
    return [Finding("rules.economy", "info", "rules", text)]


# ------------------------------------------------------------------------------------------ entry points


PLAY_SOURCES = ("games/global_wellbeing/rules/*.py", "play/*.py")
"""The files (beyond the board's) that make the played games' findings and summary: part of their cache key."""


def played_findings(rules_board: RulesBoard, config: Config, games: int, players: int, bots: Sequence[str],
                    seed: int, jobs: int = 1, progress: Callable[[int], None] | None = None
                    ) -> tuple[list[Finding], dict[str, Any] | None]:
    """The rules and self-play findings and the summary of ``games`` games with ``bots`` and as many of planner
    self-play (no games: none)."""
    if games <= 0:
        return [], None
    sim = simulate(rules_board, config.rules, games, players, bots, seed, jobs=jobs, progress=progress)
    played = rules_findings(sim, config)
    sim_summary = summary(sim)
    own = simulate(rules_board, config.rules, games, players, (SELF_PLAY_BOT,), seed, jobs=jobs, rotate=False)
    played.extend(selfplay_findings(own))
    sim_summary["self_play"] = {"bot": SELF_PLAY_BOT, "games": own.games,
                                "wins_by_seat": [round(w / max(1, own.games), 4) for w in wins_by_seat(own)],
                                "ties_share": round(ties(own) / max(1, own.games), 4),
                                "economy": {k: round(v, 4) for k, v in economy_figures(own).items()}}
    return played, sim_summary


def validate(board: Any, config: Config, games: int | None = None, jobs: int = 1, seed: int | None = None,
             bots: Sequence[str] = DEFAULT_BOTS, players: int | None = None,
             progress: Callable[[int], None] | None = None, sections_of: SectionsOf | None = None,
             legend_of: LegendOf | None = None) -> Report:
    """The map checks and the checks of simulated games. The games' findings and summary are kept in the cache
    (boardgen/cache.py), keyed by the board's inputs, the rules, the games asked for and the code that plays
    and judges them: a build after an edit that changes none of those reads them instead of playing again."""
    from boardgen.cache import cached, make_key
    from boardgen.geomap.cache import board_key

    rules_board = RulesBoard.from_board(board)
    games = config.simulate.validate_games if games is None else games
    players = players or config.players.usual
    seed = config.seed if seed is None else seed
    inputs = f"{board_key(board.config)} {config.rules!r} {config.players!r} games {games} players {players} " \
             f"bots {tuple(bots)!r} seed {seed}"
    played, sim_summary = cached(
        "validation", make_key("validation", inputs, {}, PLAY_SOURCES),
        lambda: played_findings(rules_board, config, games, players, bots, seed, jobs, progress))
    findings = [*map_findings(board, rules_board, config, sections_of, legend_of), *played]
    order = {s: i for i, s in enumerate(SEVERITIES)}
    findings = sorted(findings, key=lambda f: order[f.severity])  # stable: checks keep their order within a level
    return Report(config.edition, findings, sim_summary)


def validate_stage(ctx: Any) -> list[Any]:
    """Build stage: report/validation.json and report/validation.txt from the template's validate_games."""
    from boardgen.io import Artifact

    def sections_of() -> Any:
        from boardgen.games.global_wellbeing.board_layout import board_sections  # the drawing modules: after the games

        return board_sections(ctx)

    def legend_of(_sections: Any) -> Any:
        from boardgen.games.global_wellbeing.board_layout import board_legend

        return board_legend(ctx)

    # the very cut and legend the board stage printed, from the build's context
    report = validate(ctx.board, ctx.config, sections_of=sections_of, legend_of=legend_of)
    counts = report.counts()
    progress = getattr(ctx, "progress", None)
    if progress is not None:
        progress(f"validation: {counts['error']} errors, {counts['warning']} warnings "
                 f"({ctx.config.simulate.validate_games} games; see report/validation.txt)")
    return [
        Artifact("report/validation.json", report.json_bytes(),
                 f"map and rules checks from {ctx.config.simulate.validate_games} simulated games"),
        Artifact("report/validation.txt", report.text().encode(), "the validation findings as text"),
    ]


__all__ = ["DEFAULT_BOTS", "PLAY_SOURCES", "SELF_PLAY_BOT", "Finding", "Report", "economy_figures",
           "economy_findings", "map_findings", "played_findings", "rules_findings", "selfplay_findings", "validate",
           "validate_stage"]

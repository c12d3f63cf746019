"""The generic `simulate` and `validate` every game gets (no game overrides them): games played by the game's
compiled kernel where it has one (the plug-in's ``fast``: ``FastPath.kernel_batch``) and through the rules API
else, a summary computed from their columns with the game's own numbers after it (``game_summary``), the checks
every game shares (seat advantage, ties, no winner, length, rules never used, under one set of finding ids, also
over the self-play of the game's ``self_play_bot``), the game's own findings, entries, plots and lines (its
hooks), the per-game table and a few sample games to replay. A validation's played games are kept in the cache
when the game's fast path says what they depend on (``FastPath.validation_inputs``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from boardgen.play.columns import GameRecord, OutcomeColumns
from boardgen.play.report import Finding, Report
from boardgen.play.simulate import Kernel, RecordView, game_samples, play_columns, summary_of_columns

if TYPE_CHECKING:
    from boardgen.plugin import BuildContext, GamePlugin

# The finding ids every game's report shares (a game's own validate uses the same ones)
SEAT_ADVANTAGE, SEAT_SPREAD, TIES, NOBODY_WON, GAME_LENGTH, RULE_NEVER_FIRES = (
    "seat-advantage", "seat-spread", "ties", "nobody-won", "game-length", "rule-never-fires")
GAMES_TABLE = "games.csv"  # the per-game table `boardgen simulate` writes beside results.json
SEAT_SPREAD_WARNING = 0.05  # a seat's win rate this far from 1/N, with an interval that excludes 1/N: warning
TIE_WARNING_SHARE = 0.2


def _check_players(plugin: GamePlugin, ctx: BuildContext, players: int) -> None:
    from boardgen.errors import ConfigError

    low, _usual, high = plugin.player_range(ctx.config)
    if not low <= players <= high:
        raise ConfigError(ctx.config.source, "players", f"{players} players asked for; {plugin.title} is for "
                          f"{low} to {high}")


def kernel_of(plugin: GamePlugin, ctx: BuildContext, players: int, bots: Sequence[str], seed: int,
              rotate: bool) -> Kernel:
    """A function of (start, stop): those games by the plug-in's compiled kernel (``FastPath.kernel_batch``),
    or None when it does not play them."""
    bots = tuple(bots)

    def kernel(start: int, stop: int) -> OutcomeColumns | None:
        return plugin.fast.kernel_batch(ctx, players, bots, seed, start, stop, rotate)

    return kernel


def play(plugin: GamePlugin, ctx: BuildContext, games: int, players: int, bots: Sequence[str], seed: int,
         jobs: int, rotate: bool, progress: Callable[[int], None] | None) -> OutcomeColumns:
    """The games of a simulation as columns: the game's kernel plays them where it can, the rules API else."""
    return play_columns(lambda: ctx.value(f"game:{players}", lambda: plugin.new_game(ctx, players)), plugin.bots(),
                        players, games, bots, seed, jobs, rotate, progress,
                        kernel_of(plugin, ctx, players, bots, seed, rotate), plugin.fast.game_seeds)


def run(plugin: GamePlugin, ctx: BuildContext, games: int, players: int | None, bots: Sequence[str] | None,
        seed: int | None, jobs: int, rotate: bool, progress: Callable[[int], None] | None) -> dict[str, Any]:
    """``summary`` (the summary of the games), ``columns`` (the games) and ``records`` (the games as records,
    made when first read)."""
    players = players or plugin.player_range(ctx.config)[1]
    _check_players(plugin, ctx, players)
    bots = tuple(bots or plugin.default_bots)
    seed = ctx.config.seed if seed is None else seed
    columns = play(plugin, ctx, games, players, bots, seed, jobs, rotate, progress)
    return {"summary": summarise(plugin, ctx, columns, players, bots, seed), "columns": columns,
            "records": RecordView(columns), "seed": seed, "bots": bots, "players": players}


def summarise(plugin: GamePlugin, ctx: BuildContext, columns: OutcomeColumns, players: int, bots: Sequence[str],
              seed: int) -> dict[str, Any]:
    """The summary every game's report shares (``summary_of_columns``: seats, bots, ties, length, scores, metrics,
    events) with the game's own numbers (``GamePlugin.game_summary``) added after it."""
    summ = summary_of_columns(columns, players, bots, seed)
    own = plugin.game_summary(ctx, columns)
    clash = sorted(set(own) & set(summ))
    if clash:
        raise ValueError(f"{plugin.name}: game_summary repeats the shared summary's keys {', '.join(clash)}")
    summ.update(own)
    return summ


def _where(where: str, context: str) -> str:
    return f"{where} ({context})" if context else where


@dataclass(frozen=True)
class GameTerms:
    """What the shared findings say in a game's own terms (from its plug-in: ``length_unit``, ``length_metrics``,
    ``turn_position_metric``, ``tie_break``); the default says nothing beyond the shared numbers."""

    length_unit: str = ""
    length_metrics: Mapping[str, str] = field(default_factory=dict)
    turn_position_metric: str = ""
    tie_break: tuple[str, str] | None = None


def terms_of(plugin: GamePlugin, ctx: BuildContext) -> GameTerms:
    return GameTerms(plugin.length_unit, dict(plugin.length_metrics), plugin.turn_position_metric,
                     plugin.tie_break(ctx))


def _balance(rows: Sequence[Mapping[str, Any]], label: str, expected: float, games: str, context: str,
             spread_where: str, spread_of: str) -> list[Finding]:
    """A warning for each row (a seat, a turn position) whose share of the wins is off an even share with an
    interval that excludes it, and the largest distance from it."""
    out: list[Finding] = []
    spread = 0.0
    for row in rows:
        low, high = row["ci95"]
        spread = max(spread, abs(row["rate"] - expected))
        if abs(row["rate"] - expected) > SEAT_SPREAD_WARNING and not low <= expected <= high:
            out.append(Finding(SEAT_ADVANTAGE, "warning", _where(f"{label} {row['seat']}", context),
                               f"wins {row['rate']:.1%} of {games} (95% CI {low:.1%}-{high:.1%}); an even share is "
                               f"{expected:.1%}"))
    out.append(Finding(SEAT_SPREAD, "info", _where(spread_where, context),
                       f"largest distance of {spread_of} from {expected:.1%}: {spread:.1%}"))
    return out


def seat_findings(summ: dict[str, Any], context: str = "") -> list[Finding]:
    """Each seat's win rate against an even share, over every game (``context``: which games, after the where)."""
    n = summ["games"]
    return _balance(summ["win_rate_by_seat"], "seat", summ["expected_seat_rate"], f"{n} games", context,
                    "all seats", "a seat's win rate")


def turn_position_rows(summ: Mapping[str, Any], prefix: str) -> list[dict[str, Any]]:
    """The win share of whoever moved k-th in each round (k from 1), with 95% intervals, from the per-game
    metrics ``<prefix>1`` .. ``<prefix>N`` (``GamePlugin.turn_position_metric``)."""
    from boardgen.play.report import wilson_interval

    n = summ["games"]
    rows = []
    for k in range(1, summ["players"] + 1):
        rate = float(summ["metrics"].get(f"{prefix}{k}", {}).get("mean", 0.0))
        low, high = wilson_interval(rate * n, n)
        rows.append({"seat": k, "rate": rate, "ci95": [low, high]})
    return rows


def turn_position_findings(summ: dict[str, Any], prefix: str, context: str = "") -> list[Finding]:
    """The seat checks over turn positions: for a game whose first player is not seat 1 (drawn at random, say),
    where the seats cannot show the first player's edge."""
    n = summ["games"]
    return _balance(turn_position_rows(summ, prefix), "turn position", 1 / summ["players"], f"{n} games", context,
                    "all turn positions", "a turn position's win rate")


def seat_findings_over_won_games(summ: dict[str, Any], context: str = "") -> list[Finding]:
    """Seat balance among the games someone won (``GamePlugin.everyone_can_lose``: in a game everyone can lose,
    the plain win rate of every seat sits below 1/N by the team-loss share, which says nothing about the seats)."""
    from boardgen.play.report import wilson_interval

    won = summ["games"] - summ["nobody_won"]["games"]
    if won <= 0:
        return []
    rows = []
    for seat in summ["win_rate_by_seat"]:
        low, high = wilson_interval(seat["wins"], won)
        rows.append({"seat": seat["seat"], "rate": seat["wins"] / won, "ci95": [low, high]})
    return _balance(rows, "seat", 1 / summ["players"], f"the {won} games someone won", context, "all seats",
                    "a seat's share of the won games")


def tie_findings(summ: dict[str, Any], context: str = "", tie_break: tuple[str, str] | None = None
                 ) -> list[Finding]:
    """How many games end in a tie for first place (a warning above ``TIE_WARNING_SHARE``), and for a game with a
    tie-break (``GamePlugin.tie_break``: its per-game metric of a level first place, the rule in words) how many
    level games it settled."""
    if not summ["games"]:
        return []
    ties = summ["ties"]["share"]
    text = f"{ties:.1%} of games end in a tie for first place"
    if tie_break is not None:
        metric, words = tie_break
        level = float(summ["metrics"].get(metric, {}).get("mean", 0.0))
        text = (f"first place was level in {level:.1%} of games before the tie-break ({words}); after it "
                f"{ties:.1%} of games end in a tie for first place, a shared win")
    return [Finding(TIES, "warning" if ties > TIE_WARNING_SHARE else "info", _where("scoring", context), text)]


def length_finding(summ: Mapping[str, Any], unit: str = "", metrics: Mapping[str, str] | None = None) -> Finding:
    """How long games last, in the game's own unit (``GamePlugin.length_unit``), with its other per-game
    lengths (``GamePlugin.length_metrics``: metric -> unit)."""
    length = summ["length"]
    what = f" {unit}" if unit else ""
    text = f"games last {length['mean']:.1f}{what} on average ({length['min']:g}-{length['max']:g})"
    for metric, words in (metrics or {}).items():
        value = summ["metrics"].get(metric)
        if value is not None:
            text += f"; {value['mean']:.1f} {words} on average ({value['min']:g}-{value['max']:g})"
    return Finding(GAME_LENGTH, "info", "game", text)


def generic_findings(summ: dict[str, Any], seats: bool = True, rule_events: Mapping[str, str] | None = None,
                     terms: GameTerms | None = None) -> list[Finding]:
    """The checks every game shares (``seats``: with the seat checks over every game; ``rule_events``: the
    counted events that are rules, with their words, ``GamePlugin.rule_events``; None: every counted event;
    ``terms``: what the game calls its length, turn positions and tie-break)."""
    n = summ["games"]
    if n == 0:
        return []
    terms = terms or GameTerms()
    out = seat_findings(summ) if seats else []
    if terms.turn_position_metric:
        out.extend(turn_position_findings(summ, terms.turn_position_metric))
    out.extend(tie_findings(summ, tie_break=terms.tie_break))
    nobody = summ["nobody_won"]
    if nobody["games"]:
        out.append(Finding(NOBODY_WON, "info", "end of game",
                           f"everybody lost in {nobody['share']:.1%} of games ({nobody['games']} of {n})"))
    out.append(length_finding(summ, terms.length_unit, terms.length_metrics))
    bots = ", ".join(dict.fromkeys(summ.get("bots", ())))
    events = summ["events"]
    named = {key: key for key in events} if rule_events is None else rule_events
    for event, words in named.items():
        if events.get(event, {"total": 0})["total"] == 0:
            out.append(Finding(RULE_NEVER_FIRES, "warning", f"rule: {words}",
                               f"never happened in {n} games ({bots} bots): the report cannot judge it"))
    return out


def self_play_findings(plugin: GamePlugin, summ: dict[str, Any], terms: GameTerms | None = None) -> list[Finding]:
    """Seat fairness and ties in the self-play of ``plugin.self_play_bot`` (``summ``: those games' summary): the
    same checks, under the same ids, as over the validation's line-up."""
    if not summ["games"]:
        return []
    terms = terms or GameTerms()
    context = f"{summ['players']} x {plugin.self_play_bot} self-play, seats fixed"
    seats = seat_findings_over_won_games(summ, context) if plugin.everyone_can_lose else seat_findings(summ, context)
    if terms.turn_position_metric:
        seats += turn_position_findings(summ, terms.turn_position_metric, context)
    return [*seats, *tie_findings(summ, context, terms.tie_break)]


def generic_simulate_report(plugin: GamePlugin, ctx: BuildContext, games: int, players: int, bots: Sequence[str],
                            seed: int, jobs: int, rotate: bool, progress: Callable[[int], None] | None
                            ) -> tuple[dict[str, Any], dict[str, bytes], list[str]]:
    result = run(plugin, ctx, games, players, bots, seed, jobs, rotate, progress)
    summ = result["summary"]
    extras = plugin.results_extras(ctx, result["columns"])
    document = {"game": plugin.name, "edition": ctx.config.edition, "template_sha256": ctx.config.template_sha256,
                "summary": summ}
    clash = sorted(set(extras) & {*document, "samples"})
    if clash:
        raise ValueError(f"{plugin.name}: results_extras repeats results.json's keys {', '.join(clash)}")
    document.update(extras)
    document["samples"] = game_samples(result["columns"], result["seed"])
    plots = plugin.report_plots(ctx, summ, result["records"])
    plots[GAMES_TABLE] = result["columns"].games_csv()
    seats = "  ".join(f"{s['seat']}: {s['rate']:.1%}" for s in summ["win_rate_by_seat"])
    by_bot = "  ".join(f"{name}: {v['rate']:.1%}" for name, v in summ["win_rate_by_bot"].items())
    length = summ["length"]
    lines = [f"win rate by seat   {seats}", f"win rate by bot    {by_bot}",
             f"ties {summ['ties']['share']:.1%}, nobody won {summ['nobody_won']['share']:.1%}, "
             f"length mean {length['mean']:.1f} (min {length['min']:g}, max {length['max']:g})"]
    for key, value in summ["metrics"].items():
        lines.append(f"{key:<18} mean {value['mean']:g} (min {value['min']:g}, max {value['max']:g})")
    lines.extend(plugin.summary_lines(ctx, summ))
    return document, plots, lines


VALIDATION_SOURCES = ("play/*.py",)
"""The core's files (beyond ``boardgen.cache.SOURCE_GLOBS``) that play and summarise a validation's games: part of
the key of its cached summary, with the game package's own files."""


def _played_key(plugin: GamePlugin, inputs: str, games: int, players: int, bots: Sequence[str], seed: int) -> str:
    """The cache key of a validation's played games: the game's own inputs (``FastPath.validation_inputs``), the
    games asked for, the game package's source and the core's that plays them."""
    import sys
    from pathlib import Path

    from boardgen.cache import make_key, source_fingerprint

    module = sys.modules[type(plugin).__module__]
    package = source_fingerprint(Path(module.__file__ or "").resolve().parent, ("**/*.py",))
    return make_key("validation", f"game {plugin.name} package {package} {inputs} games {games} players {players} "
                    f"bots {tuple(bots)!r} seed {seed} self-play {plugin.self_play_bot!r}", {},
                    VALIDATION_SOURCES)


def played_summary(plugin: GamePlugin, ctx: BuildContext, games: int, jobs: int, seed: int | None,
                   bots: Sequence[str] | None, players: int | None, progress: Callable[[int], None] | None
                   ) -> dict[str, Any]:
    """The summary of a validation's ``games`` games (seats rotated) and, for a game with a ``self_play_bot``, the
    summary of as many games of that bot in every seat (seats fixed) under ``self_play``. Read from the cache when
    the game's fast path says what the games depend on (``FastPath.validation_inputs``)."""
    from boardgen.cache import cached

    def played() -> dict[str, Any]:
        summ = run(plugin, ctx, games, players, bots, seed, jobs, True, progress)["summary"]
        if plugin.self_play_bot:
            summ["self_play"] = run(plugin, ctx, games, players, (plugin.self_play_bot,), seed, jobs, False,
                                    None)["summary"]
        return summ

    inputs = plugin.fast.validation_inputs(ctx)
    if inputs is None:
        return played()
    asked = (players or plugin.player_range(ctx.config)[1], tuple(bots or plugin.default_bots),
             ctx.config.seed if seed is None else seed)
    return cached("validation", _played_key(plugin, inputs, games, *asked), played)


def generic_validate(plugin: GamePlugin, ctx: BuildContext, games: int | None, jobs: int, seed: int | None,
                     bots: Sequence[str] | None, players: int | None,
                     progress: Callable[[int], None] | None) -> Report:
    from boardgen.plugin import template_bots

    findings = list(plugin.board_findings(ctx))
    findings += [Finding("space-size", "error", need.space, need.finding_text())
                 for need in plugin.space_needs(ctx) if not need.fits]
    games = plugin.validate_games(ctx.config) if games is None else games
    bots = bots or template_bots(plugin, ctx.config) or None  # else run seats the plug-in's default_bots
    summ = None
    if games > 0:
        summ = played_summary(plugin, ctx, games, jobs, seed, bots, players, progress)
        terms = terms_of(plugin, ctx)
        findings.extend(generic_findings(summ, seats=not plugin.everyone_can_lose,
                                         rule_events=plugin.rule_events(ctx), terms=terms))
        if "self_play" in summ:
            findings.extend(self_play_findings(plugin, summ["self_play"], terms))
        findings.extend(plugin.rule_findings(ctx, summ))
        if plugin.everyone_can_lose:  # listed after the game's own findings, as they always were
            findings.extend(seat_findings_over_won_games(summ))
    return Report(ctx.config.edition, findings, summ).sorted()


VALIDATE_STAGE = "boardgen.play.runner:validate_stage"
"""The validation's build stage, as a game's ``stages`` name it."""


def prepare_validation(ctx: BuildContext) -> None:
    """What ``validate_stage`` can do before the board exists: load the game's compiled kernel if the
    validation's games will go through it (``FastPath.preload``). They are counted from the template alone, one
    API game each: its games and, for a game with a ``self_play_bot``, as many again (``played_summary``). A
    validation of short games on a small board may then load a kernel it does not use, on a core that was
    waiting anyway."""
    plugin = ctx.plugin
    games = plugin.validate_games(ctx.config)
    if games > 0:
        plugin.fast.preload(games * (2 if plugin.self_play_bot else 1))


def validate_stage(ctx: BuildContext) -> list[Any]:
    """Build stage for any game: report/validation.json and .txt from the game's default number of games."""
    from boardgen.io import Artifact

    report = ctx.plugin.validate(ctx)
    counts = report.counts()
    ctx.progress(f"validation: {counts['error']} errors, {counts['warning']} warnings (see report/validation.txt)")
    return [Artifact("report/validation.json", report.json_bytes(), "board and rules checks from simulated games"),
            Artifact("report/validation.txt", report.text().encode(), "the validation findings as text")]



def play_range(plugin: GamePlugin, ctx: BuildContext, players: int, bots: Sequence[str], seed: int, start: int,
               stop: int, rotate: bool) -> Any:
    """Games ``start .. stop`` in this process (a sweep's batch): the kernel's columns when ``kernel_batch`` plays
    them, else ``api_batch``'s records (the rules API's), made columns here."""
    from boardgen.play.simulate import bot_codes

    bots = tuple(bots)
    columns = plugin.fast.kernel_batch(ctx, players, bots, seed, start, stop, rotate)
    if columns is not None:
        return columns.with_bot_names(bot_codes(bots))
    return OutcomeColumns.from_records(api_batch(plugin, ctx, players, bots, seed, start, stop, rotate), players,
                                       bot_codes(bots))


def api_batch(plugin: GamePlugin, ctx: BuildContext, players: int, bots: Sequence[str], seed: int, start: int,
              stop: int, rotate: bool) -> list[GameRecord]:
    """Games ``start`` to ``stop`` of a simulation (seeded as ``boardgen simulate`` seeds them), played through
    the rules API (a sweep offers them to the kernel first: ``play_range``)."""
    from boardgen.play.simulate import derive_seed, lineup, play_one

    game = ctx.value(f"game:{players}", lambda: plugin.new_game(ctx, players))
    factories = plugin.bots()
    return [play_one(game, factories, lineup(bots, players, i, rotate), derive_seed(seed, "game", i),
                     plugin.fast.game_seeds) for i in range(start, stop)]


def columns_of_batches(players: int, bots: Sequence[str], batches: Sequence[Any]) -> OutcomeColumns:
    """The games played in ``batches`` (in game order) as one set of columns: columns, or lists of records (a
    sweep resumed from batches an older boardgen wrote)."""
    from boardgen.play.simulate import bot_codes, empty_columns

    parts = [b if isinstance(b, OutcomeColumns) else OutcomeColumns.from_records(list(b), players, bot_codes(bots))
             for b in batches]
    return OutcomeColumns.concat(parts) if parts else empty_columns(players, bots)


def summary_of_batches(players: int, bots: Sequence[str], seed: int, batches: Sequence[Any]) -> dict[str, Any]:
    """The shared summary of games played in ``batches`` (``columns_of_batches``)."""
    return summary_of_columns(columns_of_batches(players, bots, batches), players, bots, seed)

"""Games as plug-ins: the contract a game package fulfils, and the registry that finds games by entry point.

A game is a :class:`GamePlugin` object exposed under the entry-point group ``boardgen.games`` (see
pyproject.toml; a designer's own package registers theirs the same way). The core reads templates, runs the
game's build stages, simulates and validates through this object alone and never imports a game by name.
``docs/writing-a-game.md`` walks through writing one.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from boardgen.errors import ConfigError

if TYPE_CHECKING:
    from boardgen.export import GeoBoard
    from boardgen.geomap.model import MapSpec
    from boardgen.io import Artifact
    from boardgen.kit.board import BoardDeclaration
    from boardgen.kit.parts import KitParts
    from boardgen.layout.spaces import SpaceNeed
    from boardgen.play.api import Game
    from boardgen.play.bots import BotFactory
    from boardgen.play.columns import OutcomeColumns
    from boardgen.play.report import Finding, Report

ENTRY_POINT_GROUP = "boardgen.games"

Progress = Callable[[str], None]


@dataclass
class BuildContext:
    """Everything one build (or one simulate/validate run) shares: the template's config, the game, and values
    computed once on first use (the board, its sections, ...) under ``computed``. Stages read it and return
    artifacts; nothing here touches the disk."""

    config: Any
    game: GamePlugin | None = None  # None: the game the config names
    progress: Progress = lambda message: None
    artifacts: list[Artifact] = field(default_factory=list)
    timings_s: dict[str, float] = field(default_factory=dict)
    computed: dict[str, Any] = field(default_factory=dict)
    kept: set[str] = field(default_factory=set)  # keys of ``computed`` that later stages read (see ``keep``)

    def __post_init__(self) -> None:
        if self.game is None:
            source = getattr(self.config, "source", "")
            self.game = get_game(getattr(self.config, "game", None) or default_game(source), source)

    @property
    def plugin(self) -> GamePlugin:
        assert self.game is not None
        return self.game

    @property
    def board(self) -> Any:
        """The game's board, built once (for a geographic game: the classified hex map)."""
        return self.value("board", lambda: self.plugin.build_board(self))

    def value(self, key: str, make: Callable[[], Any]) -> Any:
        """``make()`` the first time ``key`` is asked for, the same object after that."""
        if key not in self.computed:
            self.computed[key] = make()
        return self.computed[key]

    def keep(self, key: str, value: Any) -> None:
        """Store ``value`` for later stages to read from ``computed``; a stage that ran in a worker process
        sends what it kept back to the build (keep small values: they are pickled)."""
        self.computed[key] = value
        self.kept.add(key)

    def artifact(self, path: str) -> Artifact:
        for a in self.artifacts:
            if a.path == path:
                return a
        raise KeyError(path)


StageSpec = tuple[str, ...]
"""(name, "module:function"[, "parallel"]): the function takes a BuildContext and returns artifacts. Consecutive
"parallel" stages run side by side on the machine's cores (the build's process and worker processes of
``boardgen.play.pool``, forked from it once it has made ``ctx.board``; listed longest first, each free process takes
the next) and all finish before the next stage starts: each may read only what the stages before the group made
and the board, and computes what else it reads (``ctx.value(...)``) itself. Artifacts keep their stage's place, and
``BOARDGEN_SERIAL_STAGES=1`` (or ``boardgen build --jobs 1``) runs everything in one process with the same
outputs."""


class FastPath:
    """Optional, and nothing a game needs to be played, printed or checked: how a game runs faster than its rules
    API and its plain stage list allow. A plug-in sets ``fast`` to an instance of a subclass; every default here
    is the plain path (the rules API plays every game, every stage computes what it reads).

    - the compiled rules kernel: ``kernel_batch`` (the same games as the API plays, field for field, for the same
      seeds), ``warmer`` (compiles it into its disk cache at set-up), ``game_seeds`` (how a game's seeds are
      split when the kernel draws them its own way), ``batch_summary`` (a sweep's summary from the kernel's
      columns) and ``preload`` (loads it ahead of a build's validation);
    - sweeps: ``board_key`` and ``board_values`` (variants with the same board share what was computed from it);
    - validate: ``validation_inputs`` (what its games depend on: their summary is then cached).
    """

    warmer: str = ""  # "module:function" compiling the game's rules kernel into its disk cache (set-up runs it)
    board_values: tuple[str, ...] = ("board",)  # ctx.computed entries that depend only on board_key(config)

    def kernel_batch(self, ctx: BuildContext, players: int, bots: Sequence[str], seed: int, start: int, stop: int,
                     rotate: bool) -> OutcomeColumns | None:
        """Games ``start`` to ``stop`` played by the game's compiled kernel: the same games, field for field, as
        ``boardgen.play.runner.api_batch`` plays through the rules API for the same seeds (a test per game
        compares them). None when the game has no kernel, or its kernel does not play these bots or rule values:
        the API path plays. Scores are int64 when the API's scores are Python ints (the summary prints them the
        same way)."""
        return None

    def game_seeds(self, bots: Sequence[str], game_seed: int) -> tuple[int, int]:
        """(the initial state's seed, the chance generator's seed) of the game a simulation with these bots
        seeded ``game_seed`` (``play_one`` seeds it so; ``boardgen.play.replay`` plays it again). Default:
        ``boardgen.play.simulate.default_game_seeds``."""
        from boardgen.play.simulate import default_game_seeds

        return default_game_seeds(bots, game_seed)

    def batch_summary(self, ctx: BuildContext, players: int, bots: Sequence[str], seed: int, rotate: bool,
                      batches: Sequence[Any]) -> dict[str, Any]:
        """The summary of a simulation whose games were played in ``batches`` (in game order): the same summary
        as ``boardgen simulate``'s (the shared one with the game's ``game_summary``)."""
        from boardgen.play.runner import columns_of_batches, summarise

        return summarise(ctx.plugin, ctx, columns_of_batches(players, bots, batches), players, bots, seed)

    def preload(self, games: float) -> None:
        """Load the game's compiled kernel ahead of ``games`` games (``KernelLoader.preload``): a parallel build's
        worker calls it while the board is being made, before it runs the validation. Default: the ``LOADER`` of
        the module ``warmer`` names, when there is one."""
        if not self.warmer:
            return
        loader = getattr(importlib.import_module(self.warmer.split(":")[0]), "LOADER", None)
        if loader is not None:
            loader.preload(games)

    def validation_inputs(self, ctx: BuildContext) -> str | None:
        """What a validation's played games depend on beyond the games asked for and the code (the board's and
        the rules' inputs, as text), so their summary is kept in the cache (``boardgen.cache``) and a rebuild
        that changes none of it reads them instead of playing again; None: never cached. Default: None."""
        return None

    def board_key(self, config: Any) -> str:
        """What the board depends on: variants with the same key share a built board in a sweep worker."""
        return repr(config)


class CompiledKernel(FastPath):
    """The usual fast path: a module of the game's package with ``kernel_batch(game, bots, seed, start, stop,
    rotate)`` (the game as ``new_game`` makes it) and ``warm_kernel()``. A plug-in says
    ``fast = CompiledKernel("mygame.fast")``."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.warmer = f"{module}:warm_kernel"

    def kernel_batch(self, ctx: BuildContext, players: int, bots: Sequence[str], seed: int, start: int, stop: int,
                     rotate: bool) -> OutcomeColumns | None:
        """The compiled kernel's games: the same as the rules API's for the same seeds, or None when a bot has no
        compiled form, or too few games are asked for to pay for loading it."""
        plugin = ctx.plugin
        game = ctx.value(f"game:{players}", lambda: plugin.new_game(ctx, players))
        return importlib.import_module(self.module).kernel_batch(  # type: ignore[no-any-return]
            game, bots, seed, start, stop, rotate)


class GeoMap:
    """Optional: for a game whose board is the geographic hex map (``boardgen.geomap``). A plug-in sets ``geo`` to
    an instance of a subclass; ``boardgen info``, ``cells`` and ``sections`` then work for its templates."""

    board_from_cache = False
    """True when the game's ``build_board`` hands back the map through the board cache (``boardgen.geomap.cache``)
    whole, nothing made on top of it uncached: a process that did not make it then only reads it back. A parallel
    build may then fork its workers while it makes the map (``boardgen.build``), and ``board_modules`` and
    ``board_cached`` say what that needs."""
    board_modules: tuple[str, ...] = ()
    """The modules that reading the map back from the board cache imports: a parallel build imports them before it
    forks the workers that will read it, so that each does not import them again."""

    def map_spec(self, config: Any) -> MapSpec | None:
        """What the game's geographic map is built from, read from its template (None: this template's board is
        not a map). ``info``, ``cells`` and ``sections`` read the map through it."""
        return None

    def board_cached(self, config: Any) -> bool:
        """Whether the board cache holds everything ``build_board`` reads for ``config`` (a rebuild after an edit
        that left the map as it was): a parallel build then reads it before forking its workers, rather than
        forking them while it makes the map (``boardgen.build``). Default: False."""
        return False

    def geo_board(self, ctx: BuildContext) -> GeoBoard | None:
        """The game's board as a geographic map with its areas (``boardgen cells`` exports it as GeoJSON, CSV,
        GeoPackage, FlatGeobuf), or None when the board is not a map. Default: None."""
        return None

    def map_info(self, ctx: BuildContext) -> tuple[list[str], bool]:
        """Lines ``boardgen info`` prints below the map's own facts (how the game's board is cut, where its
        legend goes, its areas), and whether they are all right (False: ``info`` exits 1). Default: the areas
        of ``geo_board``, counted."""
        geo = self.geo_board(ctx)
        layers = geo.layers if geo is not None else ()
        return [f"{layer.name:<11} {len(layer.properties)} areas on the map" for layer in layers], True

    def sections_report(self, ctx: BuildContext) -> list[str]:
        """What ``boardgen sections`` prints: how the board is cut into pieces. Default: each area of the map's
        ``sections`` layer (``geo_board``) with its cells and neighbours."""
        plugin = ctx.plugin
        geo = self.geo_board(ctx)
        if geo is None:
            raise ConfigError(getattr(ctx.config, "source", "<template>"), "game",
                              f"{plugin.name!r} has no geographic hex map for this command")
        lines: list[str] = []
        for layer in geo.layers:
            if layer.name != "sections":
                continue
            lines.append(f"{plugin.title}: {len(layer.properties)} areas in the map's {layer.name} layer")
            for props, outline in zip(layer.properties, layer.geometries_mm, strict=True):
                name = next((f"{k} {v}" for k, v in props.items() if k not in ("cells", "neighbours")), "area")
                neighbours = props.get("neighbours", ())
                shown = ", ".join(f"{k} {v}" for k, v in neighbours.items()) if isinstance(neighbours, Mapping) \
                    else ", ".join(str(n) for n in neighbours)
                x0, y0, x1, y1 = outline.bounds
                lines.append(f"  {name}: {x1 - x0:6.1f} x {y1 - y0:5.1f} mm, {len(props.get('cells', ())):3d} land "
                             f"cells; neighbours: {shown or 'none'}")
        return lines


class GamePlugin:
    """One game. Subclass it in the game's package and expose an instance as an entry point.

    A plug-in is mostly data. Required: ``name``, ``title``, ``summary``, ``stages``, ``template_file`` and
    ``model_path`` (or the methods they feed: ``default_template``, ``template_model``, ``load_config``),
    ``new_game``, ``player_range``, and ``kit_parts`` for a game that builds a kit. The rest have working
    defaults: the board (``build_board``, ``board_graph``), the bots, the findings hooks, the hooks of play in
    the browser. Two optional objects hold what a game author need not know: ``fast`` (a :class:`FastPath`: the
    compiled kernel, sweep and build speed-ups) and ``geo`` (a :class:`GeoMap`: a board that is the geographic
    hex map). ``docs/writing-a-game.md`` says which is which.
    """

    name: str = ""  # as templates write it: ``game: my-game``
    title: str = ""
    summary: str = ""  # one line for `boardgen games`
    stages: Sequence[StageSpec] = ()
    default_bots: tuple[str, ...] = ("greedy", "random")
    has_rules: bool = True  # False: a set of parts with no game of its own; nothing to simulate
    default_game: bool = False  # True: a template without a ``game:`` key is this game's (at most one game says so)
    everyone_can_lose: bool = False  # True: seat fairness is judged over the games someone won (validate)
    self_play_bot: str = ""
    """A bot (the game's strongest) whose self-play ``validate`` also plays: as many games with it in every seat,
    seats fixed, judged by the same seat and tie checks (no weaker bot to hide a seat's advantage behind, no
    rotation to average it out). Default: none."""
    length_unit: str = ""
    """What ``Outcome.length`` counts ("rounds", "turns"): the shared ``game-length`` finding says it. Default:
    no unit."""
    length_metrics: ClassVar[Mapping[str, str]] = {}
    """Other lengths the game counts per game among its metrics, {metric: unit in words} (e.g.
    ``{"turns": "player turns"}``): the shared ``game-length`` finding states them too. Default: none."""
    turn_position_metric: str = ""
    """For a game whose first player is not seat 1 (drawn at random, say): the prefix of its per-game metrics
    ``<prefix>1`` .. ``<prefix>N``, the share of the game's win that went to whoever moved k-th in each round. The
    shared seat checks (``seat-advantage``, ``seat-spread``) then judge the turn positions too. Default: none."""
    libraries: ClassVar[Mapping[str, str]] = {}
    """Libraries beyond the core's whose versions shape this game's outputs, as the kit's manifest lists them:
    {name: "module:attribute" holding the version}, e.g. ``{"pyproj": "pyproj:__version__"}``."""
    fast: FastPath = FastPath()  # optional speed-ups (the compiled kernel, sweeps, builds); default: none
    geo: GeoMap | None = None  # optional: the board is the geographic hex map (info, cells, sections)

    template_bots_key: str = "simulate.bots"
    """Dotted key of the template's list of bot names: checked on load against ``bots()``, and the bots that sit
    in ``validate`` (the build's validation games) unless told otherwise. Default: the common key ``simulate.bots``."""
    slow_bots: ClassVar[Mapping[str, str]] = {}  # bots refused in that list, with why (e.g. seconds a game)

    template_file: str = ""  # the default template's file name in boardgen's templates folder
    model_path: str = ""  # "module:Class" of the game's pydantic template model (a boardgen.schema.GameTemplate)

    # -- template
    def default_template(self) -> Path:
        """The template ``boardgen new`` copies (default: ``template_file`` in boardgen's templates folder)."""
        if not self.template_file:
            raise NotImplementedError(f"{self.name} names no default template")
        from boardgen.yaml_reader import templates_dir

        return templates_dir() / self.template_file

    def template_model(self) -> type | None:
        """The pydantic model of the template (for `boardgen schema` and ``load_config``), or None."""
        if not self.model_path:
            return None
        module_name, class_name = self.model_path.split(":")
        return getattr(importlib.import_module(module_name), class_name)  # type: ignore[no-any-return]

    def load_config(self, data: dict[str, Any], source: str, template_sha256: str) -> Any:
        """The template validated by ``template_model`` (one-line errors naming the key); games with checks
        across files (card rows) extend this."""
        from boardgen.schema import validate_template

        model = self.template_model()
        if model is None:
            raise NotImplementedError(f"{self.name} has no template model")
        return validate_template(model, data, source, template_sha256)

    def json_schema(self) -> dict[str, Any]:
        from boardgen.schema import json_schema

        model = self.template_model()
        if model is None:
            raise ConfigError(self.name, "", "this game publishes no JSON Schema")
        return json_schema(model, f"boardgen template: {self.title}")

    def data_files(self, config: Any) -> Mapping[str, Path]:
        """Source data files the build read (their sha256 go into the manifest)."""
        return {}

    def build_board(self, ctx: BuildContext) -> Any:
        """The game's board as its stages and engine read it (computed once per context)."""
        raise NotImplementedError(f"{self.name} has no board")

    def board_graph(self, ctx: BuildContext) -> Any:
        """The board as a ``boardgen.layout.spaces.BoardGraph`` (board mm, as the poster's trim box places it), or
        None for a game with no fixed board. The live preview shows each space's data, and play in the browser
        puts actions that name a space on it. Default: the board itself, or its ``graph``, when that is one."""
        from boardgen.layout.spaces import BoardGraph

        board = ctx.board
        for candidate in (board, getattr(board, "graph", None)):
            if isinstance(candidate, BoardGraph):
                return candidate
        return None

    # -- the kit's parts, declared once (boardgen.kit.parts)
    def kit_parts(self, ctx: BuildContext) -> KitParts:
        """Every part in the box: what the inventory lists and the Tabletop Simulator and print-on-demand
        exports draw. Each game declares its own in a small function of its package."""
        raise NotImplementedError(f"{self.name} declares no kit parts")

    def engine_part_counts(self, ctx: BuildContext) -> dict[str, int]:
        """{part name: how many the rules engine plays with}, read from the engine's own state or rule values;
        a conformance test holds ``kit_parts`` and the inventory to these numbers. Default: none."""
        return {}

    # -- the printed board, declared once (boardgen.kit.board; written by the shared stages in boardgen.kit.stages)
    def board_print(self, ctx: BuildContext) -> BoardDeclaration | None:
        """What the kit prints of the board: a ``GridBoard`` (a rectangular picture and the spaces its seams keep
        whole) or a ``MapBoard`` (a geographic map cut along its cells), with the data files that come with it.
        The stages ``boardgen.kit.stages:board_stage`` (posters, preview, data files) and ``sections_stage``
        (jigsaw sheets, cut files) write every board file from it, the same way for every game; a game with a
        board lists both in its ``stages``. Default: None, no printed board."""
        return None

    # -- rules
    def player_range(self, config: Any) -> tuple[int, int, int]:
        """(fewest, usual, most) players: the template's ``players: {min, usual, max}``."""
        players = getattr(config, "players", None)
        if players is None:
            raise NotImplementedError(f"{self.name}: the template has no players section")
        return players.min, players.usual, players.max

    def new_game(self, ctx: BuildContext, players: int) -> Game:
        raise NotImplementedError

    def bots(self) -> Mapping[str, BotFactory]:
        from boardgen.play.bots import GENERIC_BOTS

        return GENERIC_BOTS

    def chance_is_public(self, state: Any, action: int) -> bool:
        """Whether every seat sees this chance outcome as it happens (a die roll on the table: yes; a card drawn
        into a hand: no). Play in the browser shows only public outcomes in its log. Default: all of them in a
        game of perfect information, none in any other game (which should say which are public)."""
        return bool(state.game.info.information == "perfect")

    def action_space(self, state: Any, player: int, action: int) -> str | None:
        """The id of the board space ``action`` is played on, for play in the browser; None: found from the
        action's text (its last word that names a space), which serves games whose actions name their space."""
        return None

    def table_graph(self, state: Any, player: int) -> Any:
        """For a game whose board is laid out during play (tiles placed as the game goes): the table as it stands
        in ``state`` as a ``BoardGraph`` of what every seat sees, which play in the browser draws in place of a
        printed board. Default: None (the game is played on its printed board, ``board_graph``)."""
        return None

    def board_marks(self, ctx: BuildContext, observation: Mapping[str, Any]) -> list[tuple[str, str]]:
        """What stands on the board in ``observation`` (one seat's view), as (space id or label, short text) pairs:
        play in the browser draws them on the board's spaces ("P2": seat 2's piece). Default: none."""
        return []

    def validate_games(self, config: Any) -> int:
        """The template's ``simulate.validate_games``; 0 for a template without a ``simulate`` section."""
        simulate = getattr(config, "simulate", None)
        return int(simulate.validate_games) if simulate is not None else 0

    # -- reports (defaults: the generic ones in boardgen.play)
    def board_findings(self, ctx: BuildContext) -> list[Finding]:
        """Checks of the built board and components that need no simulated game."""
        return []

    def space_needs(self, ctx: BuildContext) -> Sequence[SpaceNeed]:
        """Each kind of board space (or marked area) with the largest piece that stands on it, for the check
        that spaces hold their pieces (``boardgen validate`` reports any that does not). Default: none."""
        return ()

    def rule_findings(self, ctx: BuildContext, summary: Mapping[str, Any]) -> list[Finding]:
        """Checks of the simulated games, from their summary (with ``game_summary``'s numbers, and the self-play's
        summary under ``self_play``); the seat, tie, length and rule-never-fires checks are the core's (a game
        states its own terms for them through ``length_unit``, ``length_metrics``, ``turn_position_metric`` and
        ``tie_break``)."""
        return []

    def rule_events(self, ctx: BuildContext) -> Mapping[str, str] | None:
        """The counted events (``Outcome.events``) that are rules a validation should see happen, with what each
        is in words: the core's ``rule-never-fires`` check warns of those that never did. Default: None (every
        counted event, by its name)."""
        return None

    def tie_break(self, ctx: BuildContext) -> tuple[str, str] | None:
        """For a game with a tie-break: (its per-game metric that is 1 when first place was level before the
        tie-break, the tie-break in words); the shared ``ties`` finding then says how many ties it settled.
        Default: None (the shared finding states the ties that end the game)."""
        return None

    def game_summary(self, ctx: BuildContext, columns: OutcomeColumns) -> dict[str, Any]:
        """The game's own numbers of a simulation, from its games' columns (the kernel's or the rules API's, with
        the game's ``Outcome.arrays``): added after the shared summary's keys (which they may not repeat) in
        results.json, validation.json and a sweep's metrics. Default: none."""
        return {}

    def results_extras(self, ctx: BuildContext, columns: OutcomeColumns) -> dict[str, Any]:
        """More entries of `boardgen simulate`'s results.json, after the summary (e.g. per-space shares, the rules
        played). Default: none."""
        return {}

    def summary_lines(self, ctx: BuildContext, summary: Mapping[str, Any]) -> list[str]:
        """More lines `boardgen simulate` prints after the shared ones. Default: none."""
        return []

    def report_plots(self, ctx: BuildContext, summary: Mapping[str, Any], records: Sequence[Any]) -> dict[str, bytes]:
        """PNG plots for `boardgen simulate` (name -> bytes). Default: the generic seat and length plots."""
        from boardgen.play.plots import generic_plots

        return generic_plots(self.title, summary, records)

    def simulate_report(self, ctx: BuildContext, games: int, players: int, bots: Sequence[str], seed: int,
                        jobs: int, rotate: bool, progress: Callable[[int], None] | None
                        ) -> tuple[dict[str, Any], dict[str, bytes], list[str]]:
        """(results.json document, plots, summary lines) for `boardgen simulate`, for every game: a game adds its
        own numbers, entries, plots and lines through ``game_summary``, ``results_extras``, ``report_plots`` and
        ``summary_lines``, never by overriding this."""
        from boardgen.play.runner import generic_simulate_report

        return generic_simulate_report(self, ctx, games, players, bots, seed, jobs, rotate, progress)

    def validate(self, ctx: BuildContext, games: int | None = None, jobs: int = 1, seed: int | None = None,
                 bots: Sequence[str] | None = None, players: int | None = None,
                 progress: Callable[[int], None] | None = None) -> Report:
        """Board and rules checks from ``validate_games`` simulated games (``boardgen validate`` and the build's
        report), for every game: the line-up is ``bots``, else the template's list (``template_bots_key``), else
        ``default_bots``; a game adds its own checks through the hooks above, never by overriding this."""
        from boardgen.play.runner import generic_validate

        return generic_validate(self, ctx, games, jobs, seed, bots, players, progress)


def template_bots(plugin: GamePlugin, config: Any) -> tuple[str, ...]:
    """The bot names the template lists under ``plugin.template_bots_key`` (empty: none, or no such key)."""
    if not plugin.template_bots_key:
        return ()
    names: Any = config
    for part in plugin.template_bots_key.split("."):
        names = getattr(names, part, None)
    return tuple(names or ())


def check_template_bots(plugin: GamePlugin, config: Any) -> None:
    """The bot names a template lists (``plugin.template_bots_key``) are bots of the game and none of its
    ``slow_bots``: one line at load time, not an error when the first game starts."""
    if not plugin.template_bots_key:
        return
    names = template_bots(plugin, config)
    known = sorted(plugin.bots())
    source = getattr(config, "source", "<template>")
    for i, name in enumerate(names):
        key = f"{plugin.template_bots_key}[{i}]"
        if name not in known:
            close = difflib.get_close_matches(str(name), known, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise ConfigError(source, key, f"unknown bot {name!r}; {hint}expected one of {', '.join(known)}")
        if name in plugin.slow_bots:
            raise ConfigError(source, key, f"the {name!r} bot is too slow for the template's validation games "
                              f"({plugin.slow_bots[name]}); expected one of "
                              f"{', '.join(b for b in known if b not in plugin.slow_bots)} (play it on a few games "
                              f"with `boardgen simulate --bots {name} --games 5`)")


def _load(entry: Any) -> GamePlugin:
    plugin = entry.load()
    if isinstance(plugin, type):
        plugin = plugin()
    if not isinstance(plugin, GamePlugin):
        raise TypeError(f"entry point {entry.name} ({entry.value}) is not a boardgen GamePlugin")
    return plugin


@cache
def installed_games() -> dict[str, GamePlugin]:
    """Every game registered under ``boardgen.games``, by name (broken plug-ins are skipped and listed by
    :func:`broken_games`)."""
    games: dict[str, GamePlugin] = {}
    for entry in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        try:
            plugin = _load(entry)
        except Exception as exc:
            _BROKEN[entry.name] = f"{type(exc).__name__}: {exc}"
            continue
        games[plugin.name or entry.name] = plugin
    return games


_BROKEN: dict[str, str] = {}


def broken_games() -> dict[str, str]:
    installed_games()
    return dict(_BROKEN)


def default_game(source: str = "<template>") -> str:
    """The game a template without a ``game:`` key is read as: the installed game whose plug-in says
    ``default_game`` (older templates predate the key), else a one-line error asking for the key."""
    claimed = sorted(name for name, plugin in installed_games().items() if plugin.default_game)
    if len(claimed) != 1:
        raise ConfigError(source, "game", f"expected a game name (installed: {', '.join(installed_games()) or 'none'})")
    return claimed[0]


def get_game(name: str, source: str = "<template>") -> GamePlugin:
    games = installed_games()
    if name in games:
        return games[name]
    close = difflib.get_close_matches(name, list(games), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    if name in _BROKEN:
        raise ConfigError(source, "game", f"game {name!r} is installed but failed to load ({_BROKEN[name]})")
    raise ConfigError(source, "game", f"unknown game {name!r}{hint} (installed: {', '.join(games) or 'none'})")


def warm_kernels(progress: Callable[[str], None] = print) -> None:
    """Compile every installed game's rules kernel into its disk cache (``FastPath.warmer``), so simulate, validate
    and sweep play on it from their first large run; scripts/setup.sh runs this once."""
    import time

    for name, plugin in installed_games().items():
        if plugin.fast.warmer:
            start = time.perf_counter()
            ready = load_stage(plugin.fast.warmer)()  # type: ignore[call-arg]
            progress(f"{name}: rules kernel {'ready' if ready else 'not compiled (numba missing)'} "
                     f"in {time.perf_counter() - start:.1f} s")


def load_stage(spec: str) -> Callable[[BuildContext], list[Artifact]]:
    module_name, func_name = spec.split(":")
    return getattr(importlib.import_module(module_name), func_name)

"""The Global Wellbeing Game (seed 000): a world hex map from Natural Earth, Köppen–Geiger and elevation data,
six climate zones with dice-driven bio-productivity, nine jigsaw sections, chips, pieces, badges, dice, a leaflet,
and an engine with bots. This module is the game's plug-in object; its parts live beside it:

- ``board_art``, ``board_layout``: the board's art (zones, table, chips legend) and its section plan; ``kit``
  declares the board for the shared board files (``boardgen.kit.board``: the poster, stage ``board``, and the
  jigsaw sections and their cut files, stage ``sections``); the map and its jigsaw cut come from
  ``boardgen.geomap``/``boardgen.export``, shared with every geographic game;
- ``map_report``: what ``boardgen info`` and ``boardgen sections`` say of the board beyond the map;
- ``kit``, ``tables``, ``minimap``: the components, the index table and turn counter, the leaflet's pictures;
- ``leaflet``: the rules leaflet in the game's own words, with the template's numbers;
- ``rules``: the rules twice, checked against each other game by game: the OpenSpiel-shaped state machine
  (``rules.engine``, the reference) and the compiled kernel (``rules.kernel``, played by ``rules.fast``); the bots,
  and the game's part of the shared simulation and validation report (``rules.report``, ``rules.plots``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from boardgen.plugin import BuildContext, FastPath, GamePlugin, GeoMap

if TYPE_CHECKING:
    from boardgen.kit.board import BoardDeclaration


class GlobalWellbeingFast(FastPath):
    """The compiled kernel (``rules.fast``), the seeds its games share with the rules API, what a validation's
    games depend on (their summary is cached), and the board a sweep's variants share."""

    warmer = "boardgen.games.global_wellbeing.rules.fast:warm_kernel"
    board_values = ("board", "rules_board")

    def game_seeds(self, bots: Sequence[str], game_seed: int) -> tuple[int, int]:
        from boardgen.games.global_wellbeing.rules.bots import BOT_NAMES

        if all(name in BOT_NAMES for name in bots):  # the game's own bots: the dice from the seed itself
            return game_seed, game_seed  # (as the kernel draws them; the state ignores its setup seed)
        return super().game_seeds(bots, game_seed)

    def board_key(self, config: Any) -> str:
        from boardgen.games.global_wellbeing.schema import RulesConfig

        # the map, zones and sections do not depend on the rules; the rules board copies zones (dice, minima); the
        # source and the template's sha256 are private attributes, in no repr
        return repr(config.model_copy(update={"rules": RulesConfig()}))

    def kernel_batch(self, ctx: BuildContext, players: int, bots: Sequence[str], seed: int, start: int, stop: int,
                     rotate: bool) -> Any:
        """The compiled kernel's games (``rules.fast``): the same as the API's for the same seeds, or None when
        a bot has no compiled form or too few games are asked for to pay for loading it."""
        from boardgen.games.global_wellbeing.rules.fast import kernel_batch

        game = ctx.value(f"game:{players}", lambda: ctx.plugin.new_game(ctx, players))
        return kernel_batch(game, bots, seed, start, stop, rotate)

    def validation_inputs(self, ctx: BuildContext) -> str:
        from boardgen.geomap.cache import board_key

        # the map (its cache key: the map's template keys and data files), the zones the rules board copies and
        # the rules: an edit of anything else (texts, print sizes) reads the validation's games from the cache
        config = ctx.config
        return f"board {board_key(ctx.board.config)} zones {config.zones!r} rules {config.rules!r}"


class GlobalWellbeingMap(GeoMap):
    """The board is the geographic hex map, cut into jigsaw sections."""

    board_from_cache = True  # panelled_board: the panel strip's choice and the map, both from the board cache
    board_modules = ("boardgen.games.global_wellbeing.board_layout", "boardgen.geomap.cache")

    def board_cached(self, config: Any) -> bool:
        from boardgen.games.global_wellbeing.board_layout import panelled_board_cached

        return panelled_board_cached(config)

    def map_spec(self, config: Any) -> Any:
        from boardgen.geomap.model import MapSpec

        return MapSpec.of(config)  # the template's board, map, hexes, classification, zones and overrides

    def map_info(self, ctx: BuildContext) -> tuple[list[str], bool]:
        from boardgen.games.global_wellbeing.map_report import map_info

        return map_info(ctx)

    def sections_report(self, ctx: BuildContext) -> list[str]:
        from boardgen.games.global_wellbeing.map_report import sections_report

        return sections_report(ctx)

    def geo_board(self, ctx: BuildContext) -> Any:
        """The hex map and its jigsaw sections."""
        from boardgen.export import GeoBoard, GeoLayer
        from boardgen.games.global_wellbeing.board_layout import board_sections

        layout = board_sections(ctx)
        props = tuple({"section": s.number, "row": s.row + 1, "column": s.column + 1, "cell_count": len(s.cells),
                       "cells": list(s.cells), "neighbours": dict(s.neighbours),
                       "area_mm2": round(s.outline_mm.area, 1)} for s in layout.sections)
        return GeoBoard(ctx.board, (GeoLayer("sections", props, tuple(s.outline_mm for s in layout.sections)),))


class GlobalWellbeing(GamePlugin):
    name = "global-wellbeing"
    title = "The Global Wellbeing Game"
    summary = "world hex map from real climate data, six zones, dice-driven bio-productivity (seed 000)"
    # every stage but the kits reads only the board (and what is computed from it, read from the board cache
    # when it is warm), so they run side by side: a worker takes them from the first, this process from the last
    # (``build._run_group``). Validate comes first: its games need none of the drawing modules the others import.
    # The board's poster follows its sections, so that the worker that draws the poster for the sections' art
    # usually writes the poster files too (``kit.stages``: 0.1 s of CPU saved; should this process reach the
    # board first, it draws the poster again, as before). This process takes the stages from the end (CPU
    # seconds on this machine, flagship / A1 board: sections 0.60 / 0.80, leaflet 0.34, components 0.30, cut
    # 0.32, board 0.22 / 0.26 after the sections, map 0.12). The kits zip what the others made.
    stages = (
        ("validate", "boardgen.play.runner:validate_stage", "parallel"),
        ("sections", "boardgen.kit.stages:sections_stage", "parallel"),
        ("board", "boardgen.kit.stages:board_stage", "parallel"),
        ("leaflet", "boardgen.games.global_wellbeing.kit:leaflet_stage", "parallel"),
        ("components", "boardgen.games.global_wellbeing.kit:components_stage", "parallel"),
        ("cut", "boardgen.games.global_wellbeing.kit:cut_stage", "parallel"),
        ("map", "boardgen.export:map_stage", "parallel"),
        ("kits", "boardgen.games.global_wellbeing.kit:kits_stage"),
    )
    default_bots = ("greedy", "planner", "random")
    self_play_bot = "planner"  # the strongest: validate also plays it in every seat
    length_unit = "turns"
    fast = GlobalWellbeingFast()  # optional speed-ups
    geo = GlobalWellbeingMap()  # optional: its board is the geographic hex map
    default_game = True  # the first game: its templates predate the ``game:`` key
    libraries: ClassVar[Mapping[str, str]] = {"pyproj": "pyproj:__version__", "proj": "pyproj:proj_version_str"}

    def default_template(self) -> Path:
        from boardgen.games.global_wellbeing.schema import default_template_path

        return default_template_path()

    def template_model(self) -> type | None:
        from boardgen.games.global_wellbeing.schema import Config

        return Config

    def json_schema(self) -> dict[str, Any]:
        from boardgen.games.global_wellbeing.schema import flagship_json_schema

        return flagship_json_schema()

    def load_config(self, data: dict[str, Any], source: str, template_sha256: str) -> Any:
        from boardgen.games.global_wellbeing.schema import config_from_mapping

        return config_from_mapping(data, source, template_sha256)

    def data_files(self, config: Any) -> Mapping[str, Path]:
        from boardgen.geomap.spec import resolve_data_path

        return {key: resolve_data_path(config, getattr(config.map, key), f"map.{key}")
                for key in ("land_data", "koppen_data", "elevation_data")}


    def build_board(self, ctx: BuildContext) -> Any:
        from boardgen.games.global_wellbeing.board_layout import panelled_board

        # the template's map, or (when the legend panels find no room in open sea) the map beside a panel strip
        return panelled_board(ctx.config)


    # -- play in the browser (boardgen serve)
    def board_graph(self, ctx: BuildContext) -> Any:
        return ctx.value("board_graph", lambda: ctx.board.spaces_graph())

    def board_marks(self, ctx: BuildContext, observation: Mapping[str, Any]) -> list[tuple[str, str]]:
        return [(str(label), f"P{seat + 1}") for seat, labels in enumerate(observation.get("pieces", ()))
                for label in labels]

    def new_game(self, ctx: BuildContext, players: int) -> Any:
        from boardgen.games.global_wellbeing.rules.board import RulesBoard
        from boardgen.games.global_wellbeing.rules.engine import WellbeingGame

        board = ctx.value("rules_board", lambda: RulesBoard.from_board(ctx.board))
        return WellbeingGame(board, ctx.config.rules, players)

    def bots(self) -> Mapping[str, Any]:
        from boardgen.games.global_wellbeing.rules.engine import api_bots

        return api_bots()

    # -- the report: the shared one (boardgen.play.runner) with the game's own numbers, checks and plots
    def game_summary(self, ctx: BuildContext, columns: Any) -> dict[str, Any]:
        from boardgen.games.global_wellbeing.rules.report import game_summary

        return game_summary(ctx, columns)

    def results_extras(self, ctx: BuildContext, columns: Any) -> dict[str, Any]:
        from boardgen.games.global_wellbeing.rules.report import results_extras

        return results_extras(ctx, columns)

    def summary_lines(self, ctx: BuildContext, summary: Mapping[str, Any]) -> list[str]:
        from boardgen.games.global_wellbeing.rules.report import summary_lines

        return summary_lines(summary)

    def report_plots(self, ctx: BuildContext, summary: Mapping[str, Any], records: Sequence[Any]) -> dict[str, bytes]:
        from boardgen.games.global_wellbeing.rules.report import report_plots

        return report_plots(ctx, records)

    def board_findings(self, ctx: BuildContext) -> list[Any]:
        from boardgen.games.global_wellbeing.rules.report import board_findings

        return board_findings(ctx)

    def rule_events(self, ctx: BuildContext) -> Mapping[str, str]:
        from boardgen.games.global_wellbeing.rules.report import rule_events

        return rule_events(ctx.config)

    def rule_findings(self, ctx: BuildContext, summary: Mapping[str, Any]) -> list[Any]:
        from boardgen.games.global_wellbeing.rules.report import rule_findings

        return rule_findings(ctx, summary)

    def kit_parts(self, ctx: BuildContext) -> Any:
        from boardgen.games.global_wellbeing.kit import kit_parts

        return kit_parts(ctx)

    def engine_part_counts(self, ctx: BuildContext) -> dict[str, int]:
        from boardgen.games.global_wellbeing.kit import engine_part_counts

        return engine_part_counts(ctx)

    def board_print(self, ctx: BuildContext) -> BoardDeclaration:
        from boardgen.games.global_wellbeing.kit import board_declaration

        return board_declaration(ctx)



plugin = GlobalWellbeing()

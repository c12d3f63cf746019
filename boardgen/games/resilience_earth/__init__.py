"""Resilience Earth (seed 004): two to four players settle the real Earth for resources (RES) and life quality
(LQ) while every town and industry adds a stone to the Climate Tower; whoever topples it loses and only LQ
counts for the rest. This module is the plug-in object; its parts live beside it:

- ``schema``: the template model (every number of the game);
- ``fieldmap``: the 36 dice-addressed fields grouped from the geographic map's hex cells (``boardgen.geomap``);
- ``engine``: the rules (OpenSpiel-shaped, every roll, draw and collapse a chance node), ``bots`` its bots;
- ``board``, ``kit``, ``leaflet``: the printed board, the components and the rules leaflet;
- ``report``: the game's findings (collapse share, endings, LQ spread) for ``simulate`` and ``validate``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from boardgen.plugin import BuildContext, CompiledKernel, GamePlugin, GeoMap

if TYPE_CHECKING:
    from boardgen.kit.board import BoardDeclaration


class ResilienceEarthMap(GeoMap):
    """The board is the core's geographic hex map, grown into numbered fields."""

    def map_spec(self, config: Any) -> Any:
        from boardgen.games.resilience_earth.fieldmap import map_spec

        return map_spec(config)

    def map_info(self, ctx: BuildContext) -> tuple[list[str], bool]:
        fm = ctx.board
        sizes = sorted(len(f.cells) for f in fm.fields)
        levels = [sum(1 for f in fm.fields if f.level == level) for level in (1, 2, 3)]
        links = {kind: sum(1 for *_, k in fm.links if k == kind) for kind in ("strait", "sea")}
        regions = len({f.region for f in fm.fields})
        return [f"fields      {len(fm.fields)} in {regions} regions, {sizes[0]}-{sizes[-1]} cells each; levels 1/2/3: "
                f"{levels[0]}/{levels[1]}/{levels[2]}; {links['strait']} strait and {links['sea']} sea links",
                f"tower       at ({fm.tower_mm[0]:.0f}, {fm.tower_mm[1]:.0f}) mm"], True

    def geo_board(self, ctx: BuildContext) -> Any:
        """The core's hex map the fields are grown on, and the fields (the dice-addressed areas) as its
        sections layer: the printed board's jigsaw cut is a plain grid of paper pieces, not a map layer."""
        from boardgen.export import GeoBoard, GeoLayer

        fm = ctx.board
        props = tuple({"field": f.number, "region": f.region, "cell_count": len(f.cells), "cells": list(f.cells),
                       "neighbours": list(f.neighbours), "climate": dict(f.climate), "high_ground": f.high_ground,
                       "points": f.points, "level": f.level, "land_connected": f.land_connected}
                      for f in fm.fields)
        return GeoBoard(fm.board, (GeoLayer("sections", props, tuple(fm.outlines[f.number] for f in fm.fields)),))


class ResilienceEarth(GamePlugin):
    name = "resilience-earth"
    fast = CompiledKernel("boardgen.games.resilience_earth.rules.fast")  # optional: the rules API plays without it
    geo = ResilienceEarthMap()  # optional: its board is the geographic hex map
    title = "Resilience Earth"
    summary = "settle 36 dice-addressed fields of the real Earth; a Climate Tower that may fall (seed 004)"
    stages = (
        ("board", "boardgen.kit.stages:board_stage"),
        ("sections", "boardgen.kit.stages:sections_stage"),
        ("components", "boardgen.games.resilience_earth.kit:components_stage"),
        ("validate", "boardgen.play.runner:validate_stage"),
    )
    default_bots = ("grower", "steward", "sabbatical", "mixed")
    length_unit = "rounds"
    template_file = "resilience-earth.yaml"
    model_path = "boardgen.games.resilience_earth.schema:ResilienceTemplate"
    libraries: ClassVar[Mapping[str, str]] = {"pyproj": "pyproj:__version__", "proj": "pyproj:proj_version_str"}

    def data_files(self, config: Any) -> Mapping[str, Path]:
        from boardgen.yaml_reader import data_dir

        return {name: data_dir() / name for name in ("land-50m.json", "koppen-5m.png", "elevation-5m.png")}

    def build_board(self, ctx: BuildContext) -> Any:
        from boardgen.games.resilience_earth.fieldmap import build_field_map

        return build_field_map(ctx.config)

    def new_game(self, ctx: BuildContext, players: int) -> Any:
        from boardgen.games.resilience_earth.fieldmap import cached_field_facts
        from boardgen.games.resilience_earth.rules.engine import FieldFacts, ResilienceGame

        def facts_of_map() -> FieldFacts:  # a build has the map already; simulate reads the cache
            if "board" in ctx.computed:
                return FieldFacts.from_field_map(ctx.computed["board"])
            return cached_field_facts(ctx.config)  # type: ignore[no-any-return]

        facts = ctx.value("field_facts", facts_of_map)
        return ResilienceGame(facts, ctx.config, players)

    def bots(self) -> Mapping[str, Any]:
        from boardgen.games.resilience_earth.rules.bots import all_bots

        return all_bots()

    def board_print(self, ctx: BuildContext) -> BoardDeclaration:
        from boardgen.games.resilience_earth.board import board_declaration

        return board_declaration(ctx)

    # -- play in the browser (boardgen serve)
    def board_graph(self, ctx: BuildContext) -> Any:
        from boardgen.games.resilience_earth.spaces import fields_graph

        return ctx.value("board_graph", lambda: fields_graph(ctx.board))

    def board_marks(self, ctx: BuildContext, observation: Mapping[str, Any]) -> list[tuple[str, str]]:
        # a settlement, town or industry on a field, by its owner's seat (fields are spaces named by number)
        return [(str(field), f"P{int(owner) + 1}") for field, (owner, _kind) in
                dict(observation.get("buildings", {})).items()]

    def board_findings(self, ctx: BuildContext) -> list[Any]:
        from boardgen.games.resilience_earth.rules.report import board_findings

        return board_findings(ctx)

    def space_needs(self, ctx: BuildContext) -> Sequence[Any]:
        from boardgen.games.resilience_earth.board import space_needs

        return space_needs(ctx)

    def rule_findings(self, ctx: BuildContext, summary: Mapping[str, Any]) -> list[Any]:
        from boardgen.games.resilience_earth.rules.report import rule_findings

        return rule_findings(ctx, summary)

    def report_plots(self, ctx: BuildContext, summary: Mapping[str, Any], records: Sequence[Any]) -> dict[str, bytes]:
        from boardgen.games.resilience_earth.rules.report import plots

        return plots(self.title, summary, records)

    def kit_parts(self, ctx: BuildContext) -> Any:
        from boardgen.games.resilience_earth.kit import kit_parts

        return kit_parts(ctx)

    def engine_part_counts(self, ctx: BuildContext) -> dict[str, int]:
        from boardgen.games.resilience_earth.kit import engine_part_counts

        return engine_part_counts(ctx)


plugin = ResilienceEarth()

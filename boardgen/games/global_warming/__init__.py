"""Global Warming (seed 003), a sinking-island game for the piecepack, as a boardgen plug-in.

- ``schema``: the template as a pydantic model (its pieces: ``boardgen.games.piecepack.schema``);
- ``engine``: the rules through the OpenSpiel-shaped API (simultaneous secret dice, hidden coin faces,
  chance nodes for the island, the starting coins and every coin drawn for the line);
- ``bots``: the game's own bots (cautious, search) and the evaluation the generic greedy bot uses;
- ``report``: findings and metrics for `boardgen validate` / `simulate`;
- ``kit`` and ``leaflet``: this game's kit, its pieces from the piecepack package (``boardgen.games.piecepack``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardgen.plugin import BuildContext, CompiledKernel, GamePlugin


class GlobalWarming(GamePlugin):
    name = "global-warming"
    fast = CompiledKernel("boardgen.games.global_warming.rules.fast")  # optional: the rules API plays without it
    title = "Global Warming"
    summary = "piecepack sinking island: secret dice, half-seen coins, last survivor wins (seed 003)"
    stages = (
        ("kit", "boardgen.games.global_warming.kit:kit_stage"),
        ("validate", "boardgen.play.runner:validate_stage"),
    )
    default_bots = ("cautious", "greedy", "random")
    length_unit = "turns"  # one turn: every living player sets a die, then one tile sinks
    template_file = "global-warming.yaml"
    model_path = "boardgen.games.global_warming.schema:GlobalWarmingTemplate"

    def build_board(self, ctx: BuildContext) -> Any:
        from boardgen.games.global_warming.rules.engine import island_shape

        return island_shape(ctx.config.rules.setup, ctx.config.rules.sea_margin)

    # -- play in the browser (boardgen serve)
    def table_graph(self, state: Any, player: int) -> Any:
        from boardgen.games.global_warming.table import table_graph

        return table_graph(state)

    def action_space(self, state: Any, player: int, action: int) -> str | None:
        from boardgen.games.global_warming.table import action_cell

        return action_cell(state, action)

    def board_marks(self, ctx: BuildContext, observation: Mapping[str, Any]) -> list[tuple[str, str]]:
        # pawns stand on tiles, named as the table's spaces are labelled
        return [(str(tile), f"P{seat}") for seat, tile in dict(observation.get("pawns", {})).items()
                if tile != "drowned"]

    def chance_is_public(self, state: Any, action: int) -> bool:
        return True  # tiles laid and coins drawn are all face up; the secret dice are a simultaneous node

    def new_game(self, ctx: BuildContext, players: int) -> Any:
        from boardgen.games.global_warming.rules.engine import GlobalWarmingGame

        pp = ctx.config.piecepack
        game = GlobalWarmingGame(ctx.config.rules, players, [s.name for s in pp.suits], pp.rank_names)
        game.bot_spec = ctx.config.bots  # type: ignore[attr-defined]
        return game

    def bots(self) -> Mapping[str, Any]:
        from boardgen.games.global_warming.rules.bots import game_bots

        return game_bots()

    def board_findings(self, ctx: BuildContext) -> list[Any]:
        from boardgen.games.global_warming.rules.report import board_findings

        return board_findings(ctx)

    def rule_findings(self, ctx: BuildContext, summary: Mapping[str, Any]) -> list[Any]:
        from boardgen.games.global_warming.rules.report import rule_findings

        return rule_findings(ctx, summary)

    def report_plots(self, ctx: BuildContext, summary: Mapping[str, Any], records: Sequence[Any]) -> dict[str, bytes]:
        from boardgen.games.global_warming.rules.report import report_plots

        return report_plots(ctx, summary, records)

    def kit_parts(self, ctx: BuildContext) -> Any:
        from boardgen.games.global_warming.kit import kit_parts

        return kit_parts(ctx)

    def engine_part_counts(self, ctx: BuildContext) -> dict[str, int]:
        from boardgen.games.global_warming.kit import engine_part_counts

        return engine_part_counts(ctx)


plugin = GlobalWarming()

"""The Philanthropist (seed 001): business people turned philanthropists race across a 24-inch square grid to
help the deserving poor (meeples), paying cubes earned by moving, paydays and business cards.

This module is the game's plug-in object; its parts live beside it:

- ``model``: the template (pydantic) and the business-card rows (CSV) with their effects;
- ``engine``: the rules through the OpenSpiel-shaped API (every die, card draw and setup choice a chance node);
- ``bots``: the random, collector and planner bots; ``kernel`` and ``fast``: the same rules and bots compiled
  (numba), which ``kernel_batch`` plays big batches with; ``findings``: the game's checks and metrics for validate;
- ``board``: the board Scene and how the kit prints it (``board_print``, for the shared board stages);
  ``parts``: meeples, avatars, cube tokens, dice, cards and the player aid; ``leaflet``: the rules in our own
  words; ``kit``: the kit's declarations and its components stage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from boardgen.plugin import BuildContext, CompiledKernel, GamePlugin

if TYPE_CHECKING:
    from boardgen.kit.board import BoardDeclaration


class Philanthropist(GamePlugin):
    name = "philanthropist"
    fast = CompiledKernel("boardgen.games.philanthropist.rules.fast")  # optional: the rules API plays without it
    title = "The Philanthropist"
    summary = "race across a 24-inch square grid to help meeples with cubes from business (seed 001)"
    stages = (
        ("board", "boardgen.kit.stages:board_stage"),
        ("sections", "boardgen.kit.stages:sections_stage"),
        ("components", "boardgen.games.philanthropist.kit:components_stage"),
        ("validate", "boardgen.play.runner:validate_stage"),
    )
    default_bots = ("collector", "planner")
    template_bots_key = "simulate.bots"  # the bots that sit in validate
    length_unit = "rounds"
    turn_position_metric = "won_turn_position_"  # the first player is drawn at random: seat 1 need not start
    slow_bots: ClassVar[dict[str, str]] = {"mcts": "its playouts run whole games: about 65 s a game, 5 h for 300 games"}

    template_file = "philanthropist.yaml"
    model_path = "boardgen.games.philanthropist.schema:PhilanthropistTemplate"

    def load_config(self, data: dict[str, Any], source: str, template_sha256: str) -> Any:
        from boardgen.games.philanthropist.schema import load_cards

        config = super().load_config(data, source, template_sha256)
        load_cards(config)  # a bad card file is a template error, found before anything is built
        return config

    def data_files(self, config: Any) -> Mapping[str, Path]:
        from boardgen.games.philanthropist.schema import cards_path

        return {"cards.file": cards_path(config)}

    def build_board(self, ctx: BuildContext) -> Any:
        from boardgen.games.philanthropist.board import board_scene

        return board_scene(ctx.config)

    def space_needs(self, ctx: BuildContext) -> Sequence[Any]:
        from boardgen.layout.spaces import SpaceNeed

        t = ctx.config
        sq, m = t.board.square_mm, t.meeples
        return [SpaceNeed("grid square", sq, sq, "a meeple standee, feet folded out", m.standee_width_mm,
                          2 * m.base_depth_mm),
                SpaceNeed("grid square", sq, sq, "an avatar chip", t.kit.avatar_chip_mm, t.kit.avatar_chip_mm,
                          piece_round=True)]

    # -- play in the browser (boardgen serve)
    def board_print(self, ctx: BuildContext) -> BoardDeclaration:
        from boardgen.games.philanthropist.board import board_declaration

        return board_declaration(ctx.config, ctx.board)

    def board_graph(self, ctx: BuildContext) -> Any:
        from boardgen.games.philanthropist.board import board_graph

        return ctx.value("board_graph", lambda: board_graph(ctx.config))

    def board_marks(self, ctx: BuildContext, observation: Mapping[str, Any]) -> list[tuple[str, str]]:
        graph = self.board_graph(ctx)
        ids = [s.id for s in graph.spaces]  # reading order, as the engine numbers its squares
        marks = [(ids[k], "•") for k, ch in enumerate(str(observation.get("board", ""))[:len(ids)]) if ch != "."]
        marks += [(ids[pos], f"P{seat + 1}") for seat, pos in enumerate(observation.get("avatars", ()))
                  if 0 <= pos < len(ids)]
        return marks

    def new_game(self, ctx: BuildContext, players: int) -> Any:
        from boardgen.games.philanthropist.rules.engine import PhilanthropistGame, Rules
        from boardgen.games.philanthropist.schema import load_cards

        cards = ctx.value("cards", lambda: load_cards(ctx.config))
        return PhilanthropistGame(Rules.from_template(ctx.config, cards), players)

    def bots(self) -> Mapping[str, Any]:
        from boardgen.games.philanthropist.rules.bots import philanthropist_bots

        return philanthropist_bots()

    def board_findings(self, ctx: BuildContext) -> list[Any]:
        from boardgen.games.philanthropist.rules.report import board_findings

        return board_findings(ctx)

    def rule_findings(self, ctx: BuildContext, summary: Mapping[str, Any]) -> list[Any]:
        from boardgen.games.philanthropist.rules.report import rule_findings

        return rule_findings(ctx, summary)

    def tie_break(self, ctx: BuildContext) -> tuple[str, str] | None:
        words = {"donated": "most cubes donated wins", "cubes": "most cubes left wins"}.get(ctx.config.rules.tie_break)
        return ("tie_on_meeples", f"equal meeples: {words}") if words else None  # "shared": no tie-break

    def kit_parts(self, ctx: BuildContext) -> Any:
        from boardgen.games.philanthropist.kit import kit_parts

        return kit_parts(ctx)

    def engine_part_counts(self, ctx: BuildContext) -> dict[str, int]:
        from boardgen.games.philanthropist.kit import engine_part_counts

        return engine_part_counts(ctx)


plugin = Philanthropist()

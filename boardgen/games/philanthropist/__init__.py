"""The Philanthropist (seed 001): business people turned philanthropists race across a 24-inch square grid to
help the deserving poor (meeples), paying cubes earned by moving, paydays and business cards.

This module is the game's plug-in object; its parts live beside it:

- ``model``: the template (pydantic) and the business-card rows (CSV) with their effects;
- ``engine``: the rules through the OpenSpiel-shaped API (every die, card draw and setup choice a chance node);
- ``bots``: the collector and planner bots; ``findings``: the game's checks and metrics for validate;
- ``board``: the board Scene, poster and jigsaw sections; ``parts``: meeples, avatars, cube tokens, dice,
  cards and the player aid; ``leaflet``: the rules in our own words; ``kit``: the build stages and zips.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from boardgen.plugin import BuildContext, GamePlugin


class Philanthropist(GamePlugin):
    name = "philanthropist"
    title = "The Philanthropist"
    summary = "race across a 24-inch square grid to help meeples with cubes from business (seed 001)"
    stages = (
        ("board", "boardgen.games.philanthropist.kit:board_stage"),
        ("components", "boardgen.games.philanthropist.kit:components_stage"),
        ("validate", "boardgen.play.runner:validate_stage"),
    )
    default_bots = ("collector", "planner")
    template_bots_key = "simulate.bots"
    slow_bots: ClassVar[dict[str, str]] = {"mcts": "its playouts run whole games: about 65 s a game, 5 h for 300 games"}

    template_file = "philanthropist.yaml"
    model_path = "boardgen.games.philanthropist.model:PhilanthropistTemplate"

    def load_config(self, data: dict[str, Any], source: str, template_sha256: str) -> Any:
        from boardgen.games.philanthropist.model import load_cards

        config = super().load_config(data, source, template_sha256)
        load_cards(config)  # a bad card file is a template error, found before anything is built
        return config

    def data_files(self, config: Any) -> Mapping[str, Path]:
        from boardgen.games.philanthropist.model import cards_path

        return {"cards.file": cards_path(config)}

    def build_board(self, ctx: BuildContext) -> Any:
        from boardgen.games.philanthropist.board import board_scene

        return board_scene(ctx.config)

    def player_range(self, config: Any) -> tuple[int, int, int]:
        p = config.players
        return p.min, p.usual, p.max

    def validate_games(self, config: Any) -> int:
        return int(config.simulate.validate_games)

    def new_game(self, ctx: BuildContext, players: int) -> Any:
        from boardgen.games.philanthropist.engine import PhilanthropistGame, Rules
        from boardgen.games.philanthropist.model import load_cards

        cards = ctx.value("cards", lambda: load_cards(ctx.config))
        return PhilanthropistGame(Rules.from_template(ctx.config, cards), players)

    def bots(self) -> Mapping[str, Any]:
        from boardgen.games.philanthropist.bots import philanthropist_bots

        return philanthropist_bots()

    def validate(self, ctx: BuildContext, games: int | None = None, jobs: int = 1, seed: int | None = None,
                 bots: Sequence[str] | None = None, players: int | None = None,
                 progress: Callable[[int], None] | None = None) -> Any:
        """The generic validate, seating the template's ``simulate.bots`` unless told otherwise."""
        from boardgen.play.runner import generic_validate

        return generic_validate(self, ctx, games, jobs, seed, bots or tuple(ctx.config.simulate.bots), players,
                                progress)

    def board_findings(self, ctx: BuildContext) -> list[Any]:
        from boardgen.games.philanthropist.findings import board_findings

        return board_findings(ctx)

    def rule_findings(self, ctx: BuildContext, summary: Mapping[str, Any]) -> list[Any]:
        from boardgen.games.philanthropist.findings import rule_findings

        return rule_findings(ctx, summary)


plugin = Philanthropist()

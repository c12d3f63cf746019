"""The template of Global Warming (``game: global-warming``) as a pydantic model (its pieces: the piecepack
package's ``PiecepackSpec``). Every number the kit prints, the leaflet states or the engine plays by is a key here."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, model_validator

from boardgen.games.piecepack.schema import (  # noqa: F401 - the template's parts
    PRINT_MOVES,
    PiecepackSpec,
    PrintSpec,
    Suit,
    SuitSymbol,
)
from boardgen.schema import GameTemplate, Papers, TemplateModel, players_model, simulate_model

Setup = Literal["basic", "orthogonal", "diagonal"]


class RulesSpec(TemplateModel):
    setup: Setup = Field("basic", description="basic; orthogonal or diagonal: the variants that move the four "
                         "tiles beside the centre hole to the middle of the outer edges")
    line_length: int = Field(3, ge=1, le=6, description="coins in the line of tiles to sink")
    value_face_up: float = Field(0.5, ge=0.0, le=1.0, description="chance a drawn coin lands value side up")
    sea_margin: int = Field(3, ge=1, le=8, description="rows of table beyond the original island where a "
                            "moved tile may go")
    blank_may_pass: bool = Field(True, description="the blank face lets its player move a tile, or not")
    action_order: tuple[Annotated[int, Field(ge=0, le=5)], ...] = Field((0, 5, 4, 3, 2, 1), min_length=6, max_length=6,
                                          description="die faces in the order they act (0 is the blank)")

    @model_validator(mode="after")
    def _check(self) -> RulesSpec:
        if sorted(self.action_order) != [0, 1, 2, 3, 4, 5]:
            raise ValueError("action_order must list each die face 0-5 once")
        return self


class BotsSpec(TemplateModel):
    danger_weights: tuple[Annotated[float, Field(ge=0.0, le=100.0)], ...] = Field(
                                              (1.0, 0.45, 0.2), min_length=1, max_length=6,
                                              description="how much the greedy bot fears the 1st, 2nd, 3rd coin")
    temperature: float = Field(0.35, gt=0.0, le=10.0, description="how freely the greedy bot mixes die faces "
                               "(a bot that always picks its best face is easy to cancel)")
    late_bonus: float = Field(1.5, ge=0.0, le=5.0, description="extra score the bot gives a die face for "
                              "acting later in the order (later actors can undo earlier ones)")
    mobility: float = Field(0.08, ge=0.0, le=1.0, description="value of each free tile beside the bot's pawn")
    trapped: float = Field(0.3, ge=0.0, le=5.0, description="penalty for a pawn with no free tile beside it")
    rival_weight: float = Field(0.6, ge=0.0, le=5.0, description="value of a rival's danger to the bot")
    mcts_playouts: int = Field(48, ge=4, le=5000)


class GlobalWarmingPlayers(players_model("GlobalWarmingPlayers", 2, 4, (2, 4, 4))):  # type: ignore[misc]
    """At most one player per suit."""


class GlobalWarmingSimulate(simulate_model("GlobalWarmingSimulate", 300, games=2000)):  # type: ignore[misc]
    """``games``: the games behind the documented figures (docs/global-warming.md)."""


class GlobalWarmingTemplate(GameTemplate):
    players: GlobalWarmingPlayers = Field(
        default_factory=lambda: GlobalWarmingPlayers.model_validate({}))
    simulate: GlobalWarmingSimulate = Field(
        default_factory=lambda: GlobalWarmingSimulate.model_validate({}))
    papers: Papers = ("a4", "letter")
    rules: RulesSpec = Field(default_factory=lambda: RulesSpec.model_validate({}))
    bots: BotsSpec = Field(default_factory=lambda: BotsSpec.model_validate({}))
    piecepack: PiecepackSpec = Field(default_factory=lambda: PiecepackSpec.model_validate({}))
    print: PrintSpec = Field(default_factory=lambda: PrintSpec.model_validate({}))

    moved_keys: ClassVar[dict[str, str]] = {
        "rules.min_players": "players.min", "rules.players": "players.usual", "rules.max_players": "players.max",
        "rules.validate_games": "simulate.validate_games", "rules.report_games": "simulate.games", **PRINT_MOVES}

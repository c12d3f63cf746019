"""Tiny Stones: the smallest whole boardgen game, defined only inside tests/ (docs/writing-a-game.md walks
through it). A pile of stones; on your turn take 1 to ``max_take``; who takes the last stone wins. A die decides
who starts (a chance node), so the game has chance, choices, an end and a printable board."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field

from boardgen.io import Artifact
from boardgen.play.api import CHANCE, TERMINAL, Game, GameInfo, Outcome, State
from boardgen.plugin import BuildContext, GamePlugin
from boardgen.render.cairo_backend import Page, render_pdf
from boardgen.render.imposition import A4
from boardgen.render.scene import Circle, Font, Scene, Style, Text
from boardgen.schema import GameTemplate, Length, TemplateModel, validate_template


class StonesRules(TemplateModel):
    stones: int = Field(15, ge=1, le=99)
    max_take: int = Field(3, ge=1, le=9)


class StonesTemplate(GameTemplate):
    rules: StonesRules = StonesRules()
    stone_diameter_mm: Length = 12.0


class StonesGame(Game):
    def __init__(self, rules: StonesRules) -> None:
        self.rules = rules
        self.info = GameInfo("tiny_stones", "Tiny Stones", num_players=2, num_distinct_actions=rules.max_take + 1,
                             max_chance_outcomes=2, max_game_length=rules.stones + 1, min_utility=-1.0,
                             max_utility=1.0, utility="zero_sum")

    def new_initial_state(self, seed: int | None = None) -> StonesState:
        return StonesState(self)

    def evaluate(self, state: State, player: int) -> float:
        assert isinstance(state, StonesState)
        if state.is_terminal():
            return state.returns()[player]
        # leaving a multiple of (max_take + 1) to the opponent wins
        return 1.0 if state.pile % (self.rules.max_take + 1) == 0 and state.to_move != player else 0.0


class StonesState(State):
    def __init__(self, game: StonesGame) -> None:
        super().__init__(game)
        self.pile = game.rules.stones
        self.to_move = CHANCE  # the die decides who starts
        self.winner = -1
        self.turns = 0

    def current_player(self) -> int:
        return TERMINAL if self.winner >= 0 else self.to_move

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.to_move == CHANCE:
            return [0, 1]
        if self.is_terminal():
            return []
        max_take = self.game.rules.max_take  # type: ignore[attr-defined]
        return list(range(1, min(max_take, self.pile) + 1))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)]

    def _apply_action(self, action: int) -> None:
        if self.to_move == CHANCE:
            self.to_move = action
            return
        self.pile -= action
        self.turns += 1
        if self.pile == 0:
            self.winner = self.to_move
        self.to_move = 1 - self.to_move

    def returns(self) -> list[float]:
        if self.winner < 0:
            return [0.0, 0.0]
        return [1.0 if p == self.winner else -1.0 for p in range(2)]

    def outcome(self) -> Outcome:
        return Outcome(scores=tuple(max(r, 0.0) for r in self.returns()), winners=(self.winner,),
                       length=self.turns, metrics={"turns": self.turns}, events={"took_last": 1})

    def observation(self, player: int) -> dict[str, Any]:
        return {"pile": self.pile, "to_move": self.to_move}

    def action_to_string(self, player: int, action: int) -> str:
        return f"seat {action + 1} starts" if player == CHANCE else f"take {action}"

    def clone(self) -> StonesState:
        other = StonesState.__new__(StonesState)
        other.__dict__.update(self.__dict__)
        other._history = list(self._history)
        return other


def board_stage(ctx: BuildContext) -> list[Artifact]:
    """One A4 page with the pile drawn as circles to take from."""
    config: StonesTemplate = ctx.config
    d = config.stone_diameter_mm
    ops: list[Any] = [Text(20, 25, config.title, Font(size_pt=18))]
    for i in range(config.rules.stones):
        x, y = 25 + (i % 10) * (d + 4), 45 + (i // 10) * (d + 4)
        ops.append(Circle(x, y, d / 2, Style(fill="#888888", stroke="#000000", stroke_width_mm=0.3)))
    page = Page(A4.width_mm, A4.height_mm, Scene(tuple(ops)), label="board")
    return [Artifact("board.pdf", render_pdf([page], title=config.title), "the pile", pages=1)]


class TinyStones(GamePlugin):
    name = "tiny-stones"
    title = "Tiny Stones"
    summary = "take 1-3 stones, last stone wins (a test game)"
    stages = (("board", "tiny_stones:board_stage"), ("validate", "boardgen.play.runner:validate_stage"))
    default_bots = ("greedy", "random")

    def default_template(self) -> Path:
        return Path(__file__).with_name("tiny-stones.yaml")

    def template_model(self) -> type:
        return StonesTemplate

    def load_config(self, data: dict[str, Any], source: str, template_sha256: str) -> StonesTemplate:
        return validate_template(StonesTemplate, data, source, template_sha256)

    def player_range(self, config: Any) -> tuple[int, int, int]:
        return 2, 2, 2

    def new_game(self, ctx: BuildContext, players: int) -> StonesGame:
        return StonesGame(ctx.config.rules)

    def validate_games(self, config: Any) -> int:
        return 50


plugin = TinyStones()

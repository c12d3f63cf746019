"""The rules API every boardgen game implements, shaped like OpenSpiel's ``pyspiel.Game`` / ``pyspiel.State``.

A game is a small :class:`Game` (static facts, ``new_initial_state``) and a :class:`State` that moves from node to
node. A node belongs to one player (``current_player() >= 0``), to chance (``CHANCE``: every die roll, card draw
and shuffle, so a test can force any outcome through ``chance_outcomes`` / ``apply_action``), to all players at
once (``SIMULTANEOUS``: sealed bids, secret die faces; ``apply_actions`` takes one action per player), or is
``TERMINAL``. Actions are small integers in ``range(info.num_distinct_actions)``; ``action_to_string`` reads them.

Only this module's names are used by generic bots, ``boardgen simulate``/``validate`` and the OpenSpiel adapter
(``boardgen.play.openspiel``), so any game written against it gets all of them.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

# The same numbers OpenSpiel uses (pyspiel.PlayerId).
CHANCE = -1
SIMULTANEOUS = -2
INVALID = -3
TERMINAL = -4


class IllegalActionError(RuntimeError):
    """An action that is not legal at this node (a bug in the bot or the caller, never in the player's hands)."""


@dataclass(frozen=True)
class GameInfo:
    """What OpenSpiel calls the game type and game info: facts that hold for every state of the game."""

    short_name: str  # e.g. "my_game" (a valid Python identifier, as pyspiel wants)
    long_name: str
    num_players: int
    num_distinct_actions: int
    max_chance_outcomes: int
    max_game_length: int  # an upper bound on the number of actions in one game (chance included)
    min_utility: float
    max_utility: float
    utility: Literal["zero_sum", "constant_sum", "general_sum", "identical"] = "general_sum"
    dynamics: Literal["sequential", "simultaneous"] = "sequential"
    information: Literal["perfect", "imperfect"] = "perfect"
    chance_mode: Literal["deterministic", "explicit_stochastic"] = "explicit_stochastic"


@dataclass(frozen=True)
class Outcome:
    """How one finished game went, in the terms ``boardgen simulate`` reports for every game."""

    scores: tuple[float, ...]  # the game's own score per seat (victory points, meeples, ...)
    winners: tuple[int, ...]  # seats that won (several: a tie; none: everybody lost)
    length: int  # rounds or turns, in the game's own unit (GameInfo says which through the plugin)
    metrics: Mapping[str, float] = field(default_factory=dict)  # the game's own numbers, averaged over games
    events: Mapping[str, int] = field(default_factory=dict)  # how often each rule fired (for "every rule fires")
    # a game's own per-game values with a shape (per zone, per cell, per turn...), for its own report: stacked
    # into ``OutcomeColumns.arrays`` (each the same shape in every game), not summarised by the generic report
    arrays: Mapping[str, Any] = field(default_factory=dict)


class State(ABC):
    """One node of a game. Subclasses keep their own fields; the methods below are the whole contract."""

    game: Game

    # -------------------------------------------------------------------- whose move
    @abstractmethod
    def current_player(self) -> int:
        """A seat (0-based), CHANCE, SIMULTANEOUS or TERMINAL."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_simultaneous_node(self) -> bool:
        return self.current_player() == SIMULTANEOUS

    # -------------------------------------------------------------------- moves
    @abstractmethod
    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted legal actions of ``player`` (default: the player to move). At a chance node, the outcomes.
        At a simultaneous node each player has a list (a player with nothing to decide has ``[pass]``)."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) pairs at a chance node; probabilities sum to 1."""

    @abstractmethod
    def _apply_action(self, action: int) -> None:
        """Apply a checked action at a chance or player node."""

    def _apply_actions(self, actions: Sequence[int]) -> None:
        """Apply one checked action per player at a simultaneous node."""
        raise NotImplementedError(f"{type(self).__name__} has no simultaneous nodes")

    def apply_action(self, action: int) -> None:
        player = self.current_player()
        if player == SIMULTANEOUS:
            raise IllegalActionError("a simultaneous node takes apply_actions([one action per player])")
        if player == TERMINAL:
            raise IllegalActionError("the game is over")
        if action not in self.legal_actions():
            raise IllegalActionError(f"action {action} ({self._describe(player, action)}) is not legal "
                                     f"for {'chance' if player == CHANCE else f'seat {player}'}")
        self._history.append(action)
        self._apply_action(action)

    def apply_actions(self, actions: Sequence[int]) -> None:
        if self.current_player() != SIMULTANEOUS:
            raise IllegalActionError("apply_actions is for simultaneous nodes")
        if len(actions) != self.game.info.num_players:
            raise IllegalActionError(f"expected {self.game.info.num_players} actions, got {len(actions)}")
        for seat, action in enumerate(actions):
            if action not in self.legal_actions(seat):
                raise IllegalActionError(f"action {action} ({self._describe(seat, action)}) is not legal "
                                         f"for seat {seat}")
        self._history.extend(actions)
        self._apply_actions(actions)

    def _describe(self, player: int, action: int) -> str:
        """``action_to_string`` for an illegal action's message: a game whose reading of an out-of-range value
        fails (a table look-up) still gets ``IllegalActionError``, not the look-up's error."""
        try:
            return self.action_to_string(player, action)
        except (IndexError, KeyError, ValueError, TypeError):
            return "no such action here"

    # -------------------------------------------------------------------- results and views
    @abstractmethod
    def returns(self) -> list[float]:
        """Utility per seat; meaningful at the end (OpenSpiel also allows intermediate values)."""

    @abstractmethod
    def outcome(self) -> Outcome:
        """The finished game in report terms (scores, winners, length, metrics). Only at a terminal node."""

    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` may see: public state plus their own hidden parts, nothing of anybody else's."""

    def observation_string(self, player: int) -> str:
        obs = self.observation(player)
        return "\n".join(f"{key}: {value}" for key, value in obs.items())

    def information_state_string(self, player: int) -> str:
        """The player's view plus what they did (perfect recall), as OpenSpiel's info-state string."""
        return self.observation_string(player)

    @abstractmethod
    def action_to_string(self, player: int, action: int) -> str:
        """A readable action: "roll 4", "move meeple to C7", "bid 3 IP"."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (bots search on copies)."""

    def history(self) -> list[int]:
        return list(self._history)

    def __str__(self) -> str:  # OpenSpiel prints states; ours show the public view
        return self.observation_string(INVALID) if self.is_terminal() else self.observation_string(0)

    # subclasses set this in __init__ (``State.__init__`` does) and copy it in clone()
    _history: list[int]

    def __init__(self, game: Game) -> None:
        self.game = game
        self._history = []


class Game(ABC):
    """Static facts of a game with a given template and player count, and the factory of initial states."""

    info: GameInfo

    @abstractmethod
    def new_initial_state(self, seed: int | None = None) -> State:
        """The state before anything happened. Randomness that is not a chance node (none, ideally) uses
        ``seed``; dice, draws and shuffles are chance nodes the caller resolves."""

    def num_players(self) -> int:
        return self.info.num_players

    def evaluate(self, state: State, player: int) -> float:
        """A heuristic value of ``state`` for ``player`` (higher is better); greedy bots maximise it after
        one action. The default is the player's current return."""
        return state.returns()[player]


def sample_chance(state: State, rng: random.Random) -> int:
    """One chance outcome drawn by its probability (the one sampler every runner uses, so seeds agree)."""
    outcomes = state.chance_outcomes()
    r = rng.random()
    acc = 0.0
    for action, probability in outcomes:
        acc += probability
        if r < acc:
            return action
    return outcomes[-1][0]


__all__ = [
    "CHANCE",
    "INVALID",
    "SIMULTANEOUS",
    "TERMINAL",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "Outcome",
    "State",
    "sample_chance",
]

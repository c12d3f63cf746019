"""Any boardgen game as an OpenSpiel game (``pip install boardgen[openspiel]``).

``to_pyspiel(game)`` wraps a :class:`boardgen.play.api.Game` in a ``pyspiel.Game`` written the way OpenSpiel's
own Python games are (``open_spiel/python/games/kuhn_poker.py``, ``iterated_prisoners_dilemma.py``), so every
OpenSpiel tool takes it: ``pyspiel.random_sim_test``, the MCTS bot, CFR on small games, RL environments.
``register_games()`` registers every installed boardgen game under ``boardgen_<name>`` so that
``pyspiel.load_game("boardgen_my_game", {"players": 4, "template": "my.yaml"})`` builds it from a
template (the template's usual player count and the game's bundled template when left out).

The mapping: chance nodes, simultaneous nodes (``apply_actions``), terminal nodes and player ids are
OpenSpiel's own numbers; ``GameInfo.dynamics`` gives SEQUENTIAL or SIMULTANEOUS, ``information`` PERFECT_ or
IMPERFECT_INFORMATION, ``chance_mode`` DETERMINISTIC or EXPLICIT_STOCHASTIC, ``utility`` the utility kind.
Rewards come at the end (``RewardModel.TERMINAL``): OpenSpiel sees zero returns until the game is over. The
observer gives each player's observation string (``information_state_string`` for perfect recall) and, when
the game's State offers ``observation_tensor(player)`` / ``information_state_tensor(player)`` (fixed-length
lists of numbers), the tensor too.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel

from boardgen.play.api import TERMINAL, Game, GameInfo, State

_DYNAMICS = {"sequential": pyspiel.GameType.Dynamics.SEQUENTIAL,
             "simultaneous": pyspiel.GameType.Dynamics.SIMULTANEOUS}
_INFORMATION = {"perfect": pyspiel.GameType.Information.PERFECT_INFORMATION,
                "imperfect": pyspiel.GameType.Information.IMPERFECT_INFORMATION}
_CHANCE = {"deterministic": pyspiel.GameType.ChanceMode.DETERMINISTIC,
           "explicit_stochastic": pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC}
_UTILITY = {"zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
            "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
            "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
            "identical": pyspiel.GameType.Utility.IDENTICAL}


def _utility(info: GameInfo) -> tuple[Any, float | None]:
    """OpenSpiel's utility kind and utility sum (a constant sum the GameInfo does not state is general sum)."""
    if info.utility == "zero_sum":
        return _UTILITY["zero_sum"], 0.0
    if info.utility == "constant_sum":
        total = getattr(info, "utility_sum", None)
        if total is not None:
            return _UTILITY["constant_sum"], float(total)
        return _UTILITY["general_sum"], None
    return _UTILITY[info.utility], None


def _has(state: State, method: str) -> bool:
    return callable(getattr(state, method, None))


def game_type(info: GameInfo, short_name: str | None = None, sample: State | None = None,
              parameters: Mapping[str, Any] | None = None, players: tuple[int, int] | None = None
              ) -> pyspiel.GameType:
    """The ``pyspiel.GameType`` of a boardgen game (``sample``: a state, to see which tensors it offers)."""
    low, high = players or (info.num_players, info.num_players)
    return pyspiel.GameType(
        short_name=short_name or f"boardgen_{info.short_name}",
        long_name=info.long_name,
        dynamics=_DYNAMICS[info.dynamics],
        chance_mode=_CHANCE[info.chance_mode],
        information=_INFORMATION[info.information],
        utility=_utility(info)[0],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=sample is not None and _has(sample, "information_state_tensor"),
        provides_observation_string=True,
        provides_observation_tensor=sample is not None and _has(sample, "observation_tensor"),
        provides_factored_observation_string=False,
        parameter_specification=dict(parameters or {}),
    )


def game_info(info: GameInfo) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=info.num_distinct_actions,
        max_chance_outcomes=info.max_chance_outcomes if info.chance_mode != "deterministic" else 0,
        num_players=info.num_players,
        min_utility=float(info.min_utility),
        max_utility=float(info.max_utility),
        utility_sum=_utility(info)[1],
        max_game_length=info.max_game_length,
    )


class _Box:
    """Holds a boardgen State inside the pyspiel state. OpenSpiel clones a Python state by deep-copying its
    attributes; the box answers with the game's own ``clone()``, which shares the board and the rules."""

    __slots__ = ("game", "seed", "state")

    def __init__(self, game: Game, seed: int, state: State | None) -> None:
        self.game, self.seed, self.state = game, seed, state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.game, self.seed, None if self.state is None else self.state.clone())


class BoardgenGame(pyspiel.Game):  # type: ignore[misc]
    """A boardgen Game seen by OpenSpiel."""

    def __init__(self, game: Game, short_name: str | None = None, params: Mapping[str, Any] | None = None,
                 seed: int = 0) -> None:
        self.game = game
        self.seed = seed
        sample = game.new_initial_state(seed)
        self._type = game_type(game.info, short_name, sample, parameters=params)
        super().__init__(self._type, game_info(game.info), dict(params or {}))

    def new_initial_state(self, *args: Any) -> BoardgenState:
        return BoardgenState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BoardgenObserver:
        return BoardgenObserver(self, iig_obs_type, params)


class BoardgenState(pyspiel.State):  # type: ignore[misc]
    """A boardgen State seen by OpenSpiel (the boardgen state is ``.inner``)."""

    def __init__(self, game: BoardgenGame, inner: State | None = None) -> None:
        super().__init__(game)
        self._box = _Box(game.game, game.seed, inner)  # the only attribute: OpenSpiel deep-copies them all

    @property
    def inner(self) -> State:
        box = self._box
        if box.state is None:  # made on first use: OpenSpiel's Clone makes a new state, then replaces it
            box.state = box.game.new_initial_state(box.seed)
        return box.state

    def current_player(self) -> int:
        return self.inner.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.inner.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.inner.apply_action(int(action))

    def _apply_actions(self, actions: list[int]) -> None:
        self.inner.apply_actions([int(a) for a in actions])

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_to_string(player, int(action))

    def is_terminal(self) -> bool:
        return self.inner.current_player() == TERMINAL

    def returns(self) -> list[float]:
        inner = self.inner
        if inner.current_player() != TERMINAL:
            return [0.0] * self._box.game.info.num_players
        return [float(r) for r in inner.returns()]

    def __str__(self) -> str:
        return str(self.inner)


class BoardgenObserver:
    """OpenSpiel's PyObserver protocol (``open_spiel/python/observation.py``): ``tensor``, ``dict``,
    ``set_from(state, player)``, ``string_from(state, player)``."""

    def __init__(self, game: BoardgenGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self._tensor_method = "information_state_tensor" if self.perfect_recall else "observation_tensor"
        sample = game.game.new_initial_state(game.seed)
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, np.ndarray] = {}
        if _has(sample, self._tensor_method):
            size = len(getattr(sample, self._tensor_method)(0))
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: BoardgenState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = getattr(state.inner, self._tensor_method)(player)

    def string_from(self, state: BoardgenState, player: int) -> str:
        inner = state.inner
        if self.perfect_recall:
            return inner.information_state_string(player)
        return inner.observation_string(player)


def to_pyspiel(game: Game, short_name: str | None = None, seed: int = 0) -> BoardgenGame:
    """``game`` as a ``pyspiel.Game`` (not registered; pass it to any OpenSpiel function)."""
    return BoardgenGame(game, short_name, seed=seed)


def register(short_name: str, make: Callable[[Mapping[str, Any]], Game], parameters: Mapping[str, Any],
             info: GameInfo, players: tuple[int, int]) -> None:
    """Register a family of boardgen games under ``short_name``: ``make(params)`` builds the boardgen Game for
    ``pyspiel.load_game(short_name, params)``; ``info`` (of one member) gives the registered game type."""
    registered = game_type(info, short_name, parameters=parameters, players=players)

    def init(self: BoardgenGame, params: Mapping[str, Any] | None = None) -> None:
        values = {**parameters, **dict(params or {})}
        BoardgenGame.__init__(self, make(values), short_name, params=values)

    # OpenSpiel keeps the factory in a C++ registry past the interpreter's end; a class (unlike a closure)
    # is still referenced by its own __mro__ then, so it is never freed without the GIL (a crash at exit)
    factory = type(f"BoardgenGame_{short_name}", (BoardgenGame,), {"__init__": init})
    pyspiel.register_game(registered, factory)


def register_games(names: list[str] | None = None) -> dict[str, str]:
    """Register every installed boardgen game (or those named) as ``boardgen_<name>`` (dashes become
    underscores), with the parameters ``players`` (0: the template's usual number) and ``template`` (a path;
    "": the game's bundled template). Each game is built once from its bundled template to read its facts
    (for a geographic game that builds the map); that game is reused when ``load_game`` asks for the defaults.
    Returns game name -> OpenSpiel name; games already registered are left as they are."""
    from boardgen.plugin import BuildContext, installed_games
    from boardgen.template import load, read_template

    done: dict[str, str] = {}
    known = set(pyspiel.registered_names())
    for name, plugin in installed_games().items():
        if names is not None and name not in names:
            continue
        if not getattr(plugin, "has_rules", True):
            continue
        short = "boardgen_" + name.replace("-", "_")
        done[name] = short
        if short in known:
            continue
        config = plugin.load_config(*read_template(plugin.default_template()))
        low, usual, high = plugin.player_range(config)
        ctx = BuildContext(config, plugin)
        default = plugin.new_game(ctx, usual)

        def make(params: Mapping[str, Any], plugin: Any = plugin, ctx: Any = ctx, default: Game = default,
                 usual: int = usual) -> Game:
            template = str(params.get("template") or "")
            players = int(params.get("players") or 0)
            if not template:
                if players in (0, usual):
                    return default
                return plugin.new_game(ctx, players)  # type: ignore[no-any-return]
            found, cfg = load(template)
            return found.new_game(BuildContext(cfg, found), players or found.player_range(cfg)[1])

        register(short, make, {"players": 0, "template": ""}, default.info, (low, high))
    return done


def play_mcts_game(game: pyspiel.Game, seat: int = 0, simulations: int = 20, seed: int = 0,
                   uct_c: float = 2.0) -> tuple[list[float], int]:
    """One game with OpenSpiel's MCTS bot (random rollouts) at ``seat`` and uniform random players elsewhere;
    chance sampled by its probabilities. A simultaneous-move game is played through
    ``pyspiel.convert_to_turn_based`` (OpenSpiel's MCTS is for sequential games). Returns (returns, actions)."""
    from open_spiel.python.algorithms import mcts

    if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    np_rng = np.random.RandomState(seed)
    rng = random.Random(seed)
    bot = mcts.MCTSBot(game, uct_c, simulations, mcts.RandomRolloutEvaluator(1, np_rng), random_state=np_rng,
                       solve=False)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            r, acc = rng.random(), 0.0
            action = outcomes[-1][0]
            for a, p in outcomes:
                acc += p
                if r < acc:
                    action = a
                    break
        elif player == seat:
            action = bot.step(state)
        else:
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
        state.apply_action(action)
        steps += 1
    return list(state.returns()), steps


__all__ = ["BoardgenGame", "BoardgenObserver", "BoardgenState", "game_info", "game_type", "play_mcts_game",
           "register", "register_games", "to_pyspiel"]

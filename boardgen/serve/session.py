"""Games played in the browser through the rules API (boardgen.play.api), and replays of finished games.

A ``PlaySession`` holds one game: which seats are people and which are bots, the state, and the log of every
action applied (chance outcomes included), so the same seed and log replay to the same outcome in the engine
alone. Bots and chance are seeded exactly as ``boardgen simulate`` seeds a game (``play_one``, and
``FastPath.game_seeds``, the plug-in's ``fast``): a session with bots in every seat plays the simulated game of that
seed, so a simulation's sample games (results.json) are replayed from their seed and line-up.

What a person's browser is sent is ``view(seat)``: the game's ``observation(seat)`` and nothing else of the state,
the legal actions of that seat only, and a log in which a chance outcome the game does not call public
(``GamePlugin.chance_is_public``) reads "chance: (hidden)". At a simultaneous node each human seat chooses in
turn; the choices are applied together once all are in, and only then do the action strings appear in the log.
The full log (every hidden draw and bid) is given out only when the game is over.
"""

from __future__ import annotations

import copy
import random
import re
import secrets
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardgen.play.api import CHANCE, SIMULTANEOUS, TERMINAL, Game, IllegalActionError, State, sample_chance
from boardgen.play.bots import Bot, BotFactory
from boardgen.play.simulate import derive_seed, lineup
from boardgen.plugin import GamePlugin

HUMAN = "human"
MAX_STEPS_PER_REQUEST = 200_000  # bots and chance between two human decisions (a game is far shorter)
LOG_FORMAT = "boardgen-game-log"


class SessionError(ValueError):
    """A request a session cannot honour (an illegal action, a seat that is not to move): answered with a 4xx."""


def jsonable(value: Any, depth: int = 0) -> Any:
    """Observation values as JSON (tuples as lists, keys as strings, sets sorted, other objects as text)."""
    if depth > 20:
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v, depth + 1) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((jsonable(v, depth + 1) for v in value), key=str)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    return str(value)


_TOKEN = re.compile(r"[A-Za-z0-9_-]+")


def action_space(state: State, player: int, action: int, text: str, spaces: Mapping[str, str],
                 plugin: GamePlugin) -> str | None:
    """The board space ``action`` belongs to: the game's own declaration (``GamePlugin.action_space``) if it
    makes one, else the last word of its text that is a space's id or label ("move to E4" -> "E4")."""
    declared = plugin.action_space(state, player, action)
    if declared is not None:
        return declared if declared in spaces.values() else None
    for token in reversed(_TOKEN.findall(text)):
        if token in spaces:
            return spaces[token]
    return None


def marks(plugin: GamePlugin, ctx: Any, observation: Mapping[str, Any], spaces: Mapping[str, str]
          ) -> list[list[str]]:
    """What the game says stands on which space in this view (``GamePlugin.board_marks``), known spaces only."""
    if ctx is None or not spaces:
        return []
    try:
        return [[spaces[space], text] for space, text in plugin.board_marks(ctx, observation) if space in spaces][:2000]
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return []


def table(plugin: GamePlugin, state: State, seat: int) -> tuple[dict[str, Any] | None, dict[str, str]]:
    """The table a game lays out during play (``GamePlugin.table_graph``) as JSON, and its space names (labels
    and ids -> ids); (None, {}) for a game played on its printed board."""
    try:
        graph = plugin.table_graph(state, seat)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        graph = None
    if graph is None:
        return None, {}
    names = {s.label: s.id for s in graph.spaces if s.label}
    names.update({s.id: s.id for s in graph.spaces})
    return graph.as_dict(), names


@dataclass
class Step:
    """One node of the game as it was played: who moved (a seat, CHANCE or SIMULTANEOUS) and the action(s)."""

    player: int
    actions: tuple[int, ...]
    texts: tuple[str, ...]
    public: bool = True  # False: a chance outcome the game keeps hidden

    def as_log(self) -> list[Any]:
        return [self.player, list(self.actions)]


@dataclass
class _Snapshot:
    steps: int
    state: State
    rng_state: Any
    bots: list[Bot | None]
    pending: dict[int, int]


@dataclass
class PlaySession:
    """One open game. ``seats[i]`` is "human" or a bot's name."""

    plugin: GamePlugin
    game: Game
    seats: tuple[str, ...]
    seed: int  # the game's seed, as ``play_one`` gets it
    spaces: Mapping[str, str] = field(default_factory=dict)  # space id or label -> space id
    ctx: Any = None  # the build context the game was made from (for GamePlugin.board_marks)
    id: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    state: State = field(init=False)
    steps: list[Step] = field(default_factory=list)
    pending: dict[int, int] = field(default_factory=dict)  # human choices made at the current simultaneous node
    touched: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_seat: int = 0
    simulation_bots: tuple[str, ...] = ()  # the bots of the simulation this game is from (for game_seeds)
    _undo: list[_Snapshot] = field(default_factory=list)

    def __post_init__(self) -> None:
        factories: Mapping[str, BotFactory] = self.plugin.bots()
        n = self.game.info.num_players
        if len(self.seats) != n:
            raise SessionError(f"expected {n} seats, got {len(self.seats)}")
        for name in self.seats:
            if name != HUMAN and name not in factories:
                raise SessionError(f"unknown bot {name!r} (this game has: {', '.join(factories)})")
        self.setup_seed, chance_seed = game_seeds(self.plugin, self.simulation_bots or self.seats, self.seed)
        self.state = self.game.new_initial_state(self.setup_seed)
        self.rng = random.Random(chance_seed)
        self.bots: list[Bot | None] = [
            None if name == HUMAN
            else factories[name](self.game, seat, random.Random(derive_seed(self.seed, "seat", seat)))
            for seat, name in enumerate(self.seats)]
        humans = self.humans()
        self.last_seat = humans[0] if humans else 0
        self.advance()

    # ------------------------------------------------------------------ who decides
    def humans(self) -> list[int]:
        return [i for i, name in enumerate(self.seats) if name == HUMAN]

    def deciding_seat(self) -> int | None:
        """The human seat whose choice the game waits for, or None (over, or nothing waits for a person)."""
        player = self.state.current_player()
        if player == SIMULTANEOUS:
            return next((s for s in self.humans() if s not in self.pending), None)
        if player >= 0 and self.seats[player] == HUMAN:
            return player
        return None

    # ------------------------------------------------------------------ moving
    def _record(self, player: int, actions: Sequence[int]) -> None:
        state = self.state
        if player == SIMULTANEOUS:
            texts = tuple(state.action_to_string(seat, a) for seat, a in enumerate(actions))
            state.apply_actions(list(actions))
            self.steps.append(Step(player, tuple(actions), texts))
            return
        text = state.action_to_string(player, actions[0])
        public = True if player != CHANCE else bool(self.plugin.chance_is_public(state, actions[0]))
        state.apply_action(actions[0])
        self.steps.append(Step(player, (actions[0],), (text,), public))

    def advance(self) -> None:
        """Resolve chance and bots until a person must choose or the game is over."""
        for _ in range(MAX_STEPS_PER_REQUEST):
            player = self.state.current_player()
            if player == TERMINAL:
                return
            if player == CHANCE:
                self._record(CHANCE, [sample_chance(self.state, self.rng)])
            elif player == SIMULTANEOUS:
                if any(s not in self.pending for s in self.humans()):
                    return
                actions = [self.pending[s] if name == HUMAN else self._bot(s).step(self.state)
                           for s, name in enumerate(self.seats)]
                self.pending.clear()
                self._record(SIMULTANEOUS, actions)
            elif self.seats[player] == HUMAN:
                return
            else:
                self._record(player, [self._bot(player).step(self.state)])
        raise SessionError("the game did not reach a decision within the step limit")

    def _bot(self, seat: int) -> Bot:
        bot = self.bots[seat]
        assert bot is not None
        return bot

    def _snapshot(self) -> _Snapshot:
        memo = {id(self.game): self.game}
        return _Snapshot(len(self.steps), self.state.clone(), self.rng.getstate(), copy.deepcopy(self.bots, memo),
                         dict(self.pending))

    def act(self, seat: int, action: int) -> None:
        """Seat ``seat`` (a person) chooses ``action``; then bots and chance move on."""
        if self.deciding_seat() != seat:
            raise SessionError(f"seat {seat + 1} is not to choose now")
        if action not in self.state.legal_actions(seat):
            raise SessionError(f"action {action} is not legal for seat {seat + 1} now")
        self._undo.append(self._snapshot())
        if len(self._undo) > 500:
            del self._undo[0]
        self.last_seat = seat
        try:
            if self.state.current_player() == SIMULTANEOUS:
                self.pending[seat] = action
            else:
                self._record(seat, [action])
            self.advance()
        except IllegalActionError as exc:
            raise SessionError(str(exc)) from None

    def undo(self) -> None:
        """Back to before the last choice a person made (bots and chance drawn again from the same place)."""
        if not self._undo:
            raise SessionError("nothing to undo")
        snap = self._undo.pop()
        del self.steps[snap.steps:]
        self.state = snap.state
        self.rng.setstate(snap.rng_state)
        self.bots = snap.bots
        self.pending = snap.pending

    # ------------------------------------------------------------------ what a browser may see
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What seat ``seat`` may see (default: the person to choose now, else the last one who chose)."""
        deciding = self.deciding_seat()
        if seat is None:
            seat = deciding if deciding is not None else self.last_seat
        state = self.state
        player = state.current_player()
        laid, laid_names = table(self.plugin, state, seat)
        spaces = laid_names or self.spaces
        legal: list[dict[str, Any]] = []
        if deciding == seat:
            for a in state.legal_actions(seat):
                text = state.action_to_string(seat, a)
                legal.append({"action": a, "text": text,
                              "space": action_space(state, seat, a, text, spaces, self.plugin)})
        out: dict[str, Any] = {
            "id": self.id, "game": self.plugin.name, "title": self.plugin.title, "seed": self.seed,
            "seats": [{"seat": i, "who": name} for i, name in enumerate(self.seats)],
            "viewer": seat, "deciding": deciding, "terminal": player == TERMINAL,
            "to_move": ("over" if player == TERMINAL else "chance" if player == CHANCE else
                        "everyone at once" if player == SIMULTANEOUS else f"seat {player + 1}"),
            "simultaneous": player == SIMULTANEOUS, "chosen": sorted(self.pending) if player == SIMULTANEOUS else [],
            "observation": jsonable(state.observation(seat)),
            "marks": marks(self.plugin, self.ctx, state.observation(seat), spaces),
            "table": laid,
            "legal": legal, "log": self.public_log(), "steps": len(self.steps), "can_undo": bool(self._undo),
        }
        if player == TERMINAL:
            o = state.outcome()
            out["outcome"] = {"scores": list(o.scores), "winners": list(o.winners), "length": o.length,
                              "returns": list(state.returns())}
        return out

    def public_log(self, last: int = 400) -> list[str]:
        lines: list[str] = []
        for step in self.steps[-last:]:
            if step.player == CHANCE:
                lines.append(f"chance: {step.texts[0]}" if step.public else "chance: (hidden)")
            elif step.player == SIMULTANEOUS:
                lines.append("together: " + "; ".join(f"seat {i + 1} {t}" for i, t in enumerate(step.texts)))
            else:
                lines.append(f"seat {step.player + 1}: {step.texts[0]}")
        return lines

    def full_log(self, template: str) -> dict[str, Any]:
        """Everything needed to replay the game in the engine alone (only once the game is over)."""
        if not self.state.is_terminal():
            raise SessionError("the full log (with every hidden draw) is given out when the game is over")
        return {"format": LOG_FORMAT, "version": 1, "game": self.plugin.name, "template": template,
                "players": self.game.info.num_players, "seats": list(self.seats), "seed": self.seed,
                "setup_seed": self.setup_seed,
                "steps": [s.as_log() for s in self.steps],
                "outcome": self.view()["outcome"]}


def game_seeds(plugin: GamePlugin, bots: Sequence[str], seed: int) -> tuple[int, int]:
    """(initial state's seed, chance generator's seed) of the game ``seed``, as a simulation seeds it."""
    setup, chance = plugin.fast.game_seeds(tuple(bots), seed)
    return int(setup), int(chance)


def replay_state(game: Game, setup_seed: int, steps: Sequence[Sequence[Any]], upto: int | None = None) -> State:
    """The state after the first ``upto`` logged steps ([player, [actions]]) from the initial state of
    ``setup_seed`` (a log's "setup_seed")."""
    state = game.new_initial_state(setup_seed)
    for player, actions in list(steps)[:upto]:
        if int(player) == SIMULTANEOUS:
            state.apply_actions([int(a) for a in actions])
        else:
            state.apply_action(int(actions[0]))
    return state


def simulated_game_log(plugin: GamePlugin, game: Game, master_seed: int, index: int, bots: Sequence[str],
                       rotate: bool = True) -> dict[str, Any]:
    """Game ``index`` of ``boardgen simulate --seed master_seed`` with these bots, played again action by action
    (seeded as the simulation seeded it): its log, for the replay page."""
    names = lineup(bots, game.info.num_players, index, rotate)
    log = sample_game_log(plugin, game, derive_seed(master_seed, "game", index), names, bots)
    log.update(master_seed=master_seed, index=index)
    return log


def sample_game_log(plugin: GamePlugin, game: Game, game_seed: int, names: Sequence[str],
                    simulation_bots: Sequence[str] = ()) -> dict[str, Any]:
    """The log of the game a simulation played with this game seed and line-up (a results.json sample)."""
    session = PlaySession(plugin, game, tuple(names), game_seed, simulation_bots=tuple(simulation_bots or names))
    return session.full_log("")


@dataclass
class Replay:
    """A finished game's log, stepped through: the state after any step, seen from any seat."""

    plugin: GamePlugin
    game: Game
    log: Mapping[str, Any]
    ctx: Any = None
    spaces: Mapping[str, str] = field(default_factory=dict)
    id: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    touched: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _states: dict[int, State] = field(default_factory=dict)

    @property
    def setup_seed(self) -> int:
        return int(self.log["setup_seed"])

    def __post_init__(self) -> None:
        steps = self.log.get("steps")
        if not isinstance(steps, list) or len(steps) > self.game.info.max_game_length * 4 + 10_000:
            raise SessionError("a game log's steps: expected a list of [player, [actions]]")
        try:
            end = replay_state(self.game, self.setup_seed, steps)
        except (IllegalActionError, TypeError, ValueError, IndexError, KeyError) as exc:
            raise SessionError(f"the game log does not replay: {exc}") from None
        self._states[len(steps)] = end

    @property
    def length(self) -> int:
        return len(self.log["steps"])

    def state_at(self, step: int) -> State:
        step = max(0, min(step, self.length))
        if step not in self._states:
            base = max((k for k in self._states if k <= step), default=None)
            if base is None:
                state = replay_state(self.game, self.setup_seed, self.log["steps"], step)
            else:
                state = self._states[base].clone()
                for player, actions in self.log["steps"][base:step]:
                    if int(player) == SIMULTANEOUS:
                        state.apply_actions([int(a) for a in actions])
                    else:
                        state.apply_action(int(actions[0]))
            if len(self._states) < 64:
                self._states[step] = state.clone()
            return state
        return self._states[step].clone()

    def view(self, step: int, seat: int) -> dict[str, Any]:
        step = max(0, min(step, self.length))
        seat = max(0, min(seat, self.game.info.num_players - 1))
        state = self.state_at(step)
        before = self.state_at(step - 1) if step > 0 else None
        text = ""
        if before is not None:
            player, actions = self.log["steps"][step - 1]
            player = int(player)
            if player == SIMULTANEOUS:
                text = "together: " + "; ".join(f"seat {i + 1} {before.action_to_string(i, int(a))}"
                                                for i, a in enumerate(actions))
            else:
                who = "chance" if player == CHANCE else f"seat {player + 1}"
                text = f"{who}: {before.action_to_string(player, int(actions[0]))}"
        laid, laid_names = table(self.plugin, state, seat)
        out: dict[str, Any] = {"id": self.id, "game": self.plugin.name, "step": step, "length": self.length,
                               "seat": seat, "seats": list(self.log.get("seats", [])), "last": text,
                               "observation": jsonable(state.observation(seat)),
                               "marks": marks(self.plugin, self.ctx, state.observation(seat),
                                              laid_names or self.spaces),
                               "table": laid, "terminal": state.is_terminal()}
        if state.is_terminal():
            o = state.outcome()
            out["outcome"] = {"scores": list(o.scores), "winners": list(o.winners), "length": o.length}
        return out

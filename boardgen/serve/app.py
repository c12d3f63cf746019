"""The Starlette application behind `boardgen serve`.

Routes (JSON unless said):
  GET  /                         the page (plain ES modules in boardgen/serve/static, no build step)
  GET  /api/kit                  the last good kit (pages, board spaces, card rows) and the last build error
  GET  /api/kit/page/N.svg       page N drawn from its scene
  GET  /api/events               server-sent events: "kit" after every rebuild (or failed build)
  GET  /files/template/PATH      a file of the template's folder (card art ...), nothing outside it
  GET  /files/build/PATH         a file of the build folder, nothing outside it
  GET  /api/games                installed games with rules: players, bots
  POST /api/games                open a game {game, seats: ["human" | bot, ...], seed}
  GET  /api/games/ID?seat=N      what seat N may see; POST .../act {seat, action}; POST .../undo;
  GET  /api/games/ID/log         the full log, once the game is over; DELETE /api/games/ID closes it
  GET  /api/games/ID/board       the board the game is played on: poster page and spaces
  GET  /api/games/ID/table.svg   the table of a game laid out during play (tiles placed as the game goes), as it stands
  POST /api/replays              {log} (a saved game), {game, seed, index, bots, rotate} (game INDEX of
                                 `boardgen simulate --seed SEED`) or {game, game_seed, lineup} (a results.json sample)
  GET  /api/replays/ID?step=K&seat=N

Safe by default: bound to 127.0.0.1 by the command, Host headers other than localhost refused (DNS rebinding),
request bodies capped, at most ``MAX_OPEN_GAMES`` games and replays open (the least recently used is closed),
every malformed request answered with a 4xx and one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from boardgen.errors import one_line
from boardgen.plugin import BuildContext, GamePlugin, default_game, installed_games
from boardgen.serve.preview import Kit, build_kit, error_line
from boardgen.serve.session import (
    HUMAN,
    PlaySession,
    Replay,
    SessionError,
    sample_game_log,
    simulated_game_log,
)

STATIC = Path(__file__).parent / "static"
MAX_BODY_BYTES = 1024 * 1024  # a saved game log of the longest game fits many times over
MAX_OPEN_GAMES = 16
MAX_SEED = 2**63 - 1
WATCH_DEBOUNCE_MS = 150

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class BodyLimit:
    """Refuse a request body over ``limit`` bytes with 413, whether it announces its length or streams."""

    def __init__(self, app: Any, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await _plain(413, f"request body over {self.limit} bytes")(scope, receive, send)
                    return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _BodyTooLargeError()
            return message

        try:
            await self.app(scope, limited, send)
        except _BodyTooLargeError:
            await _plain(413, f"request body over {self.limit} bytes")(scope, receive, send)


class _BodyTooLargeError(Exception):
    pass


SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
                                 b"script-src 'self'; connect-src 'self'; object-src 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """Every response says: scripts only from this server, no framing by other pages, no type sniffing (a file
    of the template's folder is never run as a page's script)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


def _plain(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": one_line(message)}, status_code=status)


class HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class GameTable:
    """What playing one game needs: its plugin, a build context of its template (the board, built once) and,
    when asked for, the kit whose poster the game is drawn on."""

    plugin: GamePlugin
    template: Path
    ctx: BuildContext
    kit: Kit | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def board_kit(self) -> Kit:
        with self.lock:
            if self.kit is None:
                self.kit, _ctx = build_kit(self.template, 0)
            return self.kit

    def spaces(self) -> dict[str, str]:
        graph = self.plugin.board_graph(self.ctx)
        if graph is None:
            return {}
        out = {s.label: s.id for s in graph.spaces}
        out.update({s.id: s.id for s in graph.spaces})
        return out


class ServeState:
    """Everything the server holds: the template, the last good kit and the last error, open games."""

    def __init__(self, template: Path, build_root: Path | None = None) -> None:
        self.template = template.resolve()
        self.template_dir = self.template.parent
        self.build_root = (build_root or Path("build")).resolve()
        self.kit: Kit | None = None
        self.error: str | None = None
        self.building = False
        self.generation = 0
        self.build_lock = threading.Lock()
        self.listeners: set[asyncio.Queue[str]] = set()
        self.sessions: OrderedDict[str, PlaySession | Replay] = OrderedDict()
        self.sessions_lock = threading.Lock()
        self.tables: dict[str, GameTable] = {}
        self.tables_lock = threading.Lock()
        self.timings_ms: dict[str, list[float]] = {}
        self.watched: set[Path] = {self.template_dir}

    # ------------------------------------------------------------------ builds
    def rebuild(self) -> None:
        """Build the template again; on failure keep the last good kit and remember the CLI's one line."""
        with self.build_lock:
            self.building = True
            self.generation += 1
            try:
                kit, ctx = build_kit(self.template, self.generation)
            except BaseException as exc:
                if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                    raise
                self.error = error_line(exc)
            else:
                self.kit, self.error = kit, None
                with self.tables_lock:  # the served template's game plays on this very kit
                    self.tables[kit.game] = GameTable(ctx.plugin, self.template, ctx, kit)
                with contextlib.suppress(Exception):
                    for path in ctx.plugin.data_files(ctx.config).values():
                        self.watched.add(Path(path).resolve().parent)
            finally:
                self.building = False

    def kit_status(self) -> dict[str, Any]:
        return {"generation": self.generation, "building": self.building, "error": self.error,
                "kit": self.kit.summary() if self.kit is not None else None}

    def notify(self) -> None:
        payload = json.dumps({"generation": self.generation, "error": self.error,
                              "kit_generation": self.kit.generation if self.kit else None})
        for queue in list(self.listeners):
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait(payload)

    # ------------------------------------------------------------------ games
    def table(self, name: str) -> GameTable:
        games = installed_games()
        plugin = games.get(name)
        if plugin is None or not plugin.has_rules:
            raise HttpError(404, f"no installed game with rules is called {name!r}")
        with self.tables_lock:
            table = self.tables.get(name)
        if table is None:
            from boardgen.template import load

            template = plugin.default_template()
            _plugin, config = load(template)
            table = GameTable(plugin, template, BuildContext(config, plugin))
            with self.tables_lock:
                table = self.tables.setdefault(name, table)
        return table

    def add_session(self, session: PlaySession | Replay) -> None:
        with self.sessions_lock:
            while len(self.sessions) >= MAX_OPEN_GAMES:
                self.sessions.popitem(last=False)  # the least recently used
            self.sessions[session.id] = session

    def session(self, sid: str) -> PlaySession | Replay:
        with self.sessions_lock:
            session = self.sessions.get(sid)
            if session is None:
                raise HttpError(404, "no open game or replay has this id (closed, or the server restarted)")
            self.sessions.move_to_end(sid)
        session.touched = time.monotonic()
        return session

    def timed(self, what: str, started: float) -> float:
        ms = (time.perf_counter() - started) * 1000
        self.timings_ms.setdefault(what, []).append(ms)
        del self.timings_ms[what][:-1000]
        return ms


# ---------------------------------------------------------------------------------------------- helpers


async def _json_body(request: Request) -> dict[str, Any]:
    try:
        body = await request.body()
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError):  # not JSON, not UTF-8, nested too deeply, a number too long
        raise HttpError(400, "expected a JSON object as the request body") from None
    if not isinstance(data, dict):
        raise HttpError(400, "expected a JSON object as the request body")
    return data


def _int(value: Any, name: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise HttpError(400, f"{name}: expected a whole number from {lo} to {hi}")
    try:
        number = int(value)
    except ValueError:
        raise HttpError(400, f"{name}: expected a whole number from {lo} to {hi}") from None
    if not lo <= number <= hi:
        raise HttpError(400, f"{name}: expected a whole number from {lo} to {hi}, got {number}")
    return number


def _inside(root: Path, relative: str) -> Path:
    """``root/relative`` if it is a file inside ``root`` (symbolic links resolved), else a 404."""
    if "\x00" in relative or relative.startswith(("/", "\\")):
        raise HttpError(404, "no such file")
    target = (root / relative).resolve()
    if not target.is_relative_to(root) or not target.is_file():
        raise HttpError(404, "no such file")
    return target


def _state(request: Request) -> ServeState:
    return request.app.state.serve  # type: ignore[no-any-return]


def endpoint(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """Turn HttpError and SessionError into 4xx answers of one line."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except HttpError as exc:
            return _plain(exc.status, str(exc))
        except SessionError as exc:
            return _plain(409, str(exc))

    return wrapped


# ---------------------------------------------------------------------------------------------- kit


@endpoint
async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


@endpoint
async def kit_status(request: Request) -> Response:
    return JSONResponse(_state(request).kit_status())


@endpoint
async def kit_page(request: Request) -> Response:
    state = _state(request)
    kit = state.kit
    raw = request.path_params["index"]
    if kit is None:
        raise HttpError(404, "no kit has been built yet")
    index = _int(raw, "page", 0, max(0, len(kit.pages) - 1))
    data = await asyncio.to_thread(kit.svg, index)
    return Response(data, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


@endpoint
async def events(request: Request) -> Response:
    state = _state(request)
    if len(state.listeners) >= 64:
        raise HttpError(429, "too many pages are listening for rebuilds")
    queue: asyncio.Queue[str] = asyncio.Queue(maxsize=16)
    state.listeners.add(queue)

    async def stream() -> AsyncIterator[str]:
        try:
            yield f"event: kit\ndata: {json.dumps({'generation': state.generation, 'error': state.error})}\n\n"
            while True:
                try:
                    payload = await asyncio.wait_for(queue.get(), timeout=15)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                yield f"event: kit\ndata: {payload}\n\n"
        finally:
            state.listeners.discard(queue)

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})


@endpoint
async def template_file(request: Request) -> Response:
    state = _state(request)
    return FileResponse(_inside(state.template_dir, request.path_params["path"]))


@endpoint
async def build_file(request: Request) -> Response:
    state = _state(request)
    return FileResponse(_inside(state.build_root, request.path_params["path"]))


# ---------------------------------------------------------------------------------------------- games


@endpoint
async def list_games(request: Request) -> Response:
    out = []
    for name, plugin in installed_games().items():
        if not plugin.has_rules:
            continue
        out.append({"name": name, "title": plugin.title, "bots": list(plugin.bots()),
                    "default_bots": list(plugin.default_bots)})
    return JSONResponse({"games": out})


def _game_players(table: GameTable) -> tuple[int, int, int]:
    return table.plugin.player_range(table.ctx.config)


@endpoint
async def game_info(request: Request) -> Response:
    table = await asyncio.to_thread(_state(request).table, request.path_params["name"])
    lo, usual, hi = _game_players(table)
    return JSONResponse({"name": table.plugin.name, "players": [lo, usual, hi], "bots": list(table.plugin.bots())})


def _new_session(state: ServeState, data: dict[str, Any]) -> PlaySession:
    name = data.get("game")
    if not isinstance(name, str) or len(name) > 100:
        raise HttpError(400, "game: expected the name of an installed game")
    table = state.table(name)
    seats = data.get("seats")
    lo, _usual, hi = _game_players(table)
    if not isinstance(seats, list) or not lo <= len(seats) <= hi or not all(isinstance(s, str) for s in seats):
        raise HttpError(400, f"seats: expected {lo} to {hi} names, each 'human' or a bot")
    bots = table.plugin.bots()
    for s in seats:
        if s != HUMAN and s not in bots:
            raise HttpError(400, f"seats: unknown bot {s[:40]!r} (this game has: {', '.join(bots)})")
    seed = _int(data.get("seed", 1), "seed", 0, MAX_SEED)
    game = table.ctx.value(f"game:{len(seats)}", lambda: table.plugin.new_game(table.ctx, len(seats)))
    return PlaySession(table.plugin, game, tuple(seats), seed, table.spaces(), table.ctx)


@endpoint
async def open_game(request: Request) -> Response:
    state = _state(request)
    data = await _json_body(request)
    started = time.perf_counter()
    session = await asyncio.to_thread(_new_session, state, data)
    state.add_session(session)
    view = session.view()
    view["server_ms"] = round(state.timed("open", started), 2)
    return JSONResponse(view)


def _play(state: ServeState, request: Request) -> PlaySession:
    session = state.session(request.path_params["id"])
    if not isinstance(session, PlaySession):
        raise HttpError(404, "this id is a replay, not a game")
    return session


def _seat(session: PlaySession, value: Any) -> int | None:
    if value is None or value == "":
        return None
    seat = _int(value, "seat", 0, len(session.seats) - 1)
    if session.seats[seat] != HUMAN:
        raise HttpError(403, f"seat {seat + 1} is played by a bot: its view is not shown")
    return seat


@endpoint
async def game_view(request: Request) -> Response:
    state = _state(request)
    session = _play(state, request)
    seat = _seat(session, request.query_params.get("seat"))
    with session.lock:
        return JSONResponse(session.view(seat))


@endpoint
async def game_act(request: Request) -> Response:
    state = _state(request)
    session = _play(state, request)
    data = await _json_body(request)
    seat = _seat(session, data.get("seat"))
    if seat is None:
        raise HttpError(400, "seat: expected the seat that chooses")
    action = _int(data.get("action"), "action", 0, session.game.info.num_distinct_actions - 1)
    started = time.perf_counter()

    def run() -> dict[str, Any]:
        with session.lock:
            session.act(seat, action)
            return session.view()

    view = await asyncio.to_thread(run)
    view["server_ms"] = round(state.timed("act", started), 2)
    return JSONResponse(view)


@endpoint
async def game_undo(request: Request) -> Response:
    session = _play(_state(request), request)
    with session.lock:
        session.undo()
        return JSONResponse(session.view())


@endpoint
async def game_log(request: Request) -> Response:
    session = _play(_state(request), request)
    table = _state(request).table(session.plugin.name)
    with session.lock:
        log = session.full_log(table.template.name)
    return JSONResponse(log, headers={"Content-Disposition": f'attachment; filename="{session.plugin.name}-game.json"'})


@endpoint
async def game_close(request: Request) -> Response:
    state = _state(request)
    with state.sessions_lock:
        found = state.sessions.pop(request.path_params["id"], None)
    if found is None:
        raise HttpError(404, "no open game or replay has this id")
    return JSONResponse({"closed": True})


def _board(state: ServeState, name: str) -> dict[str, Any]:
    table = state.table(name)
    kit = table.board_kit()
    board = kit.board
    return {"game": name, "generation": kit.generation, "board": board,
            "page": None if board is None or board.get("page") is None else board["page"]}


@endpoint
async def game_board(request: Request) -> Response:
    state = _state(request)
    session = state.session(request.path_params["id"])
    return JSONResponse(await asyncio.to_thread(_board, state, session.plugin.name))


@endpoint
async def game_board_svg(request: Request) -> Response:
    state = _state(request)
    session = state.session(request.path_params["id"])
    table = state.table(session.plugin.name)
    kit = await asyncio.to_thread(table.board_kit)
    if kit.board is None or kit.board.get("page") is None:
        raise HttpError(404, "this game has no board poster")
    data = await asyncio.to_thread(kit.svg, int(kit.board["page"]))
    return Response(data, media_type="image/svg+xml")


TABLE_STYLES_PALETTE = ("#f2c14e", "#8fb8de", "#d98c6c", "#9ccc8a", "#c9a0dc", "#e6e6e6")


def table_svg(plugin: GamePlugin, state: Any, seat: int) -> bytes:
    """The table a game lays out during play, drawn by the board machinery (``spaces.render``) as SVG."""
    from boardgen.layout.spaces import SpaceStyle, render
    from boardgen.render.cairo_backend import Page, render_svg

    graph = plugin.table_graph(state, seat)
    if graph is None:
        raise HttpError(404, "this game is played on its printed board")
    kinds = sorted({s.kind for s in graph.spaces} - {"sea"})
    styles = {kind: SpaceStyle(fill=TABLE_STYLES_PALETTE[i % len(TABLE_STYLES_PALETTE)], label="center", label_pt=6.0)
              for i, kind in enumerate(kinds)}
    styles["sea"] = SpaceStyle(fill="#dbeaf5", stroke="#b7cfe0", label="none")
    scene = render(graph, styles, background="#dbeaf5", bleed_mm=0.0)
    return render_svg(Page(graph.width_mm, graph.height_mm, scene))


@endpoint
async def game_table_svg(request: Request) -> Response:
    state = _state(request)
    session = state.session(request.path_params["id"])
    if isinstance(session, PlaySession):
        deciding = session.deciding_seat()
        seat = deciding if deciding is not None else session.last_seat
        with session.lock:
            game_state = session.state.clone()
    else:
        seat = _int(request.query_params.get("seat", "0"), "seat", 0, session.game.info.num_players - 1)
        step = _int(request.query_params.get("step", "0"), "step", 0, 10_000_000)
        with session.lock:
            game_state = session.state_at(step)
    data = await asyncio.to_thread(table_svg, session.plugin, game_state, seat)
    return Response(data, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


# ---------------------------------------------------------------------------------------------- replays


def _new_replay(state: ServeState, data: dict[str, Any]) -> Replay:
    log = data.get("log")
    if log is not None:
        if not isinstance(log, dict) or log.get("format") != "boardgen-game-log":
            raise HttpError(400, "log: expected a game log saved by boardgen serve")
        table = state.table(str(log.get("game", ""))[:100])
        seats = log.get("seats")
        if not isinstance(seats, list):
            raise HttpError(400, "log.seats: expected a list")
        _int(log.get("seed"), "log.seed", 0, MAX_SEED)
        _int(log.get("setup_seed"), "log.setup_seed", 0, 2**64 - 1)
        lo, _usual, hi = _game_players(table)
        players = _int(log.get("players", len(seats)), "log.players", lo, hi)
        game = table.ctx.value(f"game:{players}", lambda: table.plugin.new_game(table.ctx, players))
        return Replay(table.plugin, game, log, table.ctx, table.spaces())
    name = data.get("game") if "game" in data or "lineup" not in data else default_game()  # older results.json
    if not isinstance(name, str):
        raise HttpError(400, "expected {log}, {game, seed, index, bots} or {game, game_seed, lineup}")
    table = state.table(name[:100])
    lo, usual, hi = _game_players(table)
    known = table.plugin.bots()
    names = data.get("lineup")
    if names is not None:  # a sample of results.json: the game's own seed and its line-up
        if not isinstance(names, list) or not lo <= len(names) <= hi or any(b not in known for b in names):
            raise HttpError(400, f"lineup: expected {lo} to {hi} bot names from {', '.join(known)}")
        game_seed = _int(data.get("game_seed"), "game_seed", 0, MAX_SEED)
        simulation_bots = data.get("bots") or names
        if not isinstance(simulation_bots, list) or any(b not in known for b in simulation_bots):
            raise HttpError(400, f"bots: expected names from {', '.join(known)}")
        game = table.ctx.value(f"game:{len(names)}", lambda: table.plugin.new_game(table.ctx, len(names)))
        log = sample_game_log(table.plugin, game, game_seed, names, simulation_bots)
        return Replay(table.plugin, game, log, table.ctx, table.spaces())
    players = _int(data.get("players", usual), "players", lo, hi)
    bots = data.get("bots") or list(table.plugin.default_bots)
    if not isinstance(bots, list) or not bots or len(bots) > 16 or any(b not in known for b in bots):
        raise HttpError(400, f"bots: expected names from {', '.join(known)}")
    seed = _int(data.get("seed", 1), "seed", 0, MAX_SEED)
    index = _int(data.get("index", 0), "index", 0, 10_000_000)
    game = table.ctx.value(f"game:{players}", lambda: table.plugin.new_game(table.ctx, players))
    log = simulated_game_log(table.plugin, game, seed, index, bots, bool(data.get("rotate", True)))
    return Replay(table.plugin, game, log, table.ctx, table.spaces())


@endpoint
async def open_replay(request: Request) -> Response:
    state = _state(request)
    data = await _json_body(request)
    replay = await asyncio.to_thread(_new_replay, state, data)
    state.add_session(replay)
    return JSONResponse(replay.view(0, 0))


@endpoint
async def replay_view(request: Request) -> Response:
    state = _state(request)
    replay = state.session(request.path_params["id"])
    if not isinstance(replay, Replay):
        raise HttpError(404, "this id is a game, not a replay")
    step = _int(request.query_params.get("step", "0"), "step", 0, 10_000_000)
    seat = _int(request.query_params.get("seat", "0"), "seat", 0, replay.game.info.num_players - 1)

    def run() -> dict[str, Any]:
        with replay.lock:
            return replay.view(step, seat)

    return JSONResponse(await asyncio.to_thread(run))


@endpoint
async def timings(request: Request) -> Response:
    out = {}
    for what, values in _state(request).timings_ms.items():
        ordered = sorted(values)
        out[what] = {"count": len(values), "median_ms": round(ordered[len(ordered) // 2], 2),
                     "max_ms": round(ordered[-1], 2)}
    return JSONResponse(out)


# ---------------------------------------------------------------------------------------------- watching


async def watch(state: ServeState, stop: asyncio.Event) -> None:
    """Rebuild when a file in the template's folder (or a data file's folder) is saved, and tell every page."""
    from watchfiles import awatch

    while not stop.is_set():
        folders = sorted(str(p) for p in state.watched if p.is_dir())
        known = set(state.watched)
        async for changes in awatch(*folders, stop_event=stop, debounce=WATCH_DEBOUNCE_MS, step=50,
                                    watch_filter=_relevant):
            if not changes:
                continue
            await asyncio.to_thread(state.rebuild)
            state.notify()
            if state.watched != known:
                break  # a data file in a new folder: watch it too


def _relevant(change: Any, path: str) -> bool:
    name = Path(path).name
    return not (name.startswith((".", "#")) or name.endswith(("~", ".swp", ".tmp")) or "__pycache__" in path)


def create_app(template: Path, build_root: Path | None = None, watch_files: bool = True) -> Starlette:
    """The application for ``template``; its first build runs when the server starts."""
    state = ServeState(template, build_root)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        stop = asyncio.Event()
        await asyncio.to_thread(state.rebuild)
        task = asyncio.create_task(watch(state, stop)) if watch_files else None
        try:
            yield
        finally:
            stop.set()
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    routes = [
        Route("/", index),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
        Route("/api/kit", kit_status),
        Route("/api/kit/page/{index}.svg", kit_page),
        Route("/api/events", events),
        Route("/files/template/{path:path}", template_file),
        Route("/files/build/{path:path}", build_file),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", open_game, methods=["POST"]),
        Route("/api/game-types/{name}", game_info),
        Route("/api/games/{id}", game_view, methods=["GET"]),
        Route("/api/games/{id}", game_close, methods=["DELETE"]),
        Route("/api/games/{id}/act", game_act, methods=["POST"]),
        Route("/api/games/{id}/undo", game_undo, methods=["POST"]),
        Route("/api/games/{id}/log", game_log),
        Route("/api/games/{id}/board", game_board),
        Route("/api/games/{id}/board.svg", game_board_svg),
        Route("/api/games/{id}/table.svg", game_table_svg),
        Route("/api/replays", open_replay, methods=["POST"]),
        Route("/api/replays/{id}", replay_view),
        Route("/api/timings", timings),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[
        Middleware(TrustedHostMiddleware, allowed_hosts=["127.0.0.1", "localhost", "[::1]"]),
        Middleware(BodyLimit), Middleware(SecurityHeaders)])
    app.state.serve = state
    return app

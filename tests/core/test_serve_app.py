"""The `boardgen serve` application over HTTP (no browser): files served only from the template's and the build's
folders, malformed requests answered with a 4xx, bounded bodies and open games, each seat seeing only its own
observation, games and replays giving the engine's outcome for the same seed and actions."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette 1.x asks for httpx2; httpx is what Debian and PyPI users have
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from boardgen.play.api import SIMULTANEOUS
from boardgen.play.simulate import derive_seed, lineup, play_one
from boardgen.plugin import BuildContext, installed_games
from boardgen.serve import app as serve_app
from boardgen.serve.session import PlaySession, jsonable, replay_state
from boardgen.template import load

ROOT = Path(__file__).resolve().parents[2]
RULE_GAMES = sorted(name for name, p in installed_games().items() if p.has_rules)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path]]:
    folder = tmp_path_factory.mktemp("template")
    template = folder / "better-life.yaml"
    shutil.copy(ROOT / "templates" / "better-life.yaml", template)
    (folder / "notes.txt").write_text("inside the template folder")
    (folder.parent / "secret.txt").write_text("outside")
    build = tmp_path_factory.mktemp("build")
    (build / "made.txt").write_text("built")
    app = serve_app.create_app(template, build, watch_files=False)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield client, folder


def test_kit_is_built_and_pages_are_svg(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    status = client.get("/api/kit").json()
    assert status["error"] is None
    kit = status["kit"]
    assert kit["game"] == "better-life" and len(kit["pages"]) > 10
    board = kit["board"]
    assert board["page"] is not None and len(board["spaces"]) == 28
    assert board["spaces"][0]["neighbours"]
    assert any(p["hotspots"] for p in kit["pages"])  # card rows found on the card sheets
    documents = {p["document"] for p in kit["pages"]}
    assert any("board sections" in d for d in documents)  # the sheets as printed ...
    assert not documents & {"board sections", "board art"}  # ... not the pieces and art merged into them
    svg = client.get(f"/api/kit/page/{board['page']}.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.content.lstrip().startswith(b"<?xml") and b"<svg" in svg.content[:500]


@pytest.mark.parametrize("path", ["../secret.txt", "..%2Fsecret.txt", "%2e%2e/secret.txt", "/etc/passwd",
                                  "..%5Csecret.txt", "notes.txt%00.png", "sub/../../secret.txt"])
def test_nothing_outside_the_template_folder_is_served(served: tuple[TestClient, Path], path: str) -> None:
    client, _ = served
    response = client.get(f"/files/template/{path}")
    assert response.status_code == 404
    assert b"outside" not in response.content


def test_files_inside_are_served(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    assert client.get("/files/template/notes.txt").text == "inside the template folder"
    assert client.get("/files/build/made.txt").text == "built"


def test_pages_may_run_only_this_servers_scripts(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    for path in ("/", "/api/kit", "/files/template/notes.txt", "/api/games/nope"):
        headers = client.get(path).headers
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"


def test_other_hosts_are_refused(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    assert client.get("/api/kit", headers={"host": "attacker.example"}).status_code == 400


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'{"game": 5}', b'{"game": "nope", "seats": []}',
                                  b'{"game": "better-life", "seats": "human"}',
                                  b'{"game": "better-life", "seats": ["human", "ghost", "random", "random", "random"]}',
                                  b'{"game": "better-life", "seats": ["human"], "seed": 1}',
                                  b'{"game": "better-life", "seats": ["human","random","random","random","random"], '
                                  b'"seed": -4}', b"\xff\xfe", b"[" * 200_000 + b"]" * 200_000,
                                  b'{"game": "better-life", "seed": 1' + b"0" * 5000 + b"}",
                                  b'{"game": "better-life", "seats": [' + b'"human",' * 20_000 + b'"human"]}'])
def test_malformed_requests_get_4xx(served: tuple[TestClient, Path], body: bytes) -> None:
    client, _ = served
    response = client.post("/api/games", content=body)
    assert 400 <= response.status_code < 500
    assert "error" in response.json() and "\n" not in response.json()["error"]
    assert client.get("/api/kit").status_code == 200  # still serving


def test_bad_ids_pages_and_actions(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    assert client.get("/api/kit/page/99999.svg").status_code == 400
    assert client.get("/api/kit/page/x.svg").status_code == 400
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/api/replays/nope").status_code == 404
    view = client.post("/api/games", json={"game": "better-life", "seats": ["human"] + ["random"] * 4}).json()
    gid = view["id"]
    assert client.post(f"/api/games/{gid}/act", json={"seat": 0, "action": 10**9}).status_code == 400
    assert client.post(f"/api/games/{gid}/act", json={"seat": 3, "action": 0}).status_code == 403
    illegal = next(a for a in range(1000) if a not in {x["action"] for x in view["legal"]})
    assert client.post(f"/api/games/{gid}/act", json={"seat": 0, "action": illegal}).status_code == 409
    assert client.get(f"/api/games/{gid}?seat=2").status_code == 403  # a bot's seat: its view is not shown
    assert client.get(f"/api/games/{gid}/log").status_code == 409  # not before the game is over
    assert client.post("/api/replays", json={"log": {"format": "boardgen-game-log", "game": "better-life",
                                                       "seats": ["random"] * 5, "seed": 1, "setup_seed": 1,
                                                       "steps": [[0, [99999]]]}}).status_code == 409


def test_request_bodies_are_bounded(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    big = b'{"game": "' + b"x" * (serve_app.MAX_BODY_BYTES + 10) + b'"}'
    assert client.post("/api/games", content=big).status_code == 413

    def chunks() -> Iterator[bytes]:
        for _ in range(serve_app.MAX_BODY_BYTES // 65536 + 2):
            yield b" " * 65536

    assert client.post("/api/games", content=chunks()).status_code == 413
    assert client.get("/api/kit").status_code == 200


def test_open_games_are_bounded(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    ids = [client.post("/api/games", json={"game": "philanthropist", "seats": ["human"] + ["random"] * 3,
                                           "seed": k}).json()["id"] for k in range(serve_app.MAX_OPEN_GAMES + 3)]
    state = client.app.state.serve  # type: ignore[attr-defined]
    assert len(state.sessions) == serve_app.MAX_OPEN_GAMES
    assert client.get(f"/api/games/{ids[0]}").status_code == 404  # the least recently used was closed
    assert client.get(f"/api/games/{ids[-1]}").status_code == 200


def _play_through_api(client: TestClient, game: str, seats: list[str], seed: int) -> tuple[dict, list[dict]]:
    rng = random.Random(seed)
    view = client.post("/api/games", json={"game": game, "seats": seats, "seed": seed}).json()
    views = [view]
    for _ in range(5000):
        if view["terminal"]:
            break
        choice = rng.choice(view["legal"])
        response = client.post(f"/api/games/{view['id']}/act", json={"seat": view["deciding"],
                                                                       "action": choice["action"]})
        assert response.status_code == 200, response.text
        view = response.json()
        views.append(view)
    assert view["terminal"]
    return view, views


def test_better_life_never_shows_another_seats_hand_or_ip(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    final, views = _play_through_api(client, "better-life", ["human", "random", "random", "random", "random"], 5)
    session = client.app.state.serve.sessions[final["id"]]  # type: ignore[attr-defined]
    state = session.state
    log = [s.as_log() for s in session.steps]
    leaks_checked = 0
    for view in views[::10]:  # each view is seat 1's observation at that point, and no other seat's hand or IP
        then = replay_state(session.game, session.setup_seed, log, view["steps"])
        assert view["observation"] == jsonable(then.observation(0))
        text = json.dumps(view)
        for k in range(1, 5):
            theirs = jsonable(then.observation(k))
            if theirs["my_hand"] != view["observation"]["my_hand"] and theirs["my_hand"]:
                assert json.dumps({"my_hand": theirs["my_hand"]})[1:-1] not in text
                leaks_checked += 1
            if theirs["my_ip"] != view["observation"]["my_ip"]:
                assert f'"my_ip": {theirs["my_ip"]}' not in text
    assert leaks_checked > 0
    for view in views:
        for key in ("my_hand", "my_ip", "my_target"):
            assert json.dumps(view).count(f'"{key}"') == 1  # seat 1's own, in its observation, nothing more
        obs = view["observation"]
        assert obs["seat"] == 0 and view["viewer"] == 0
        text = json.dumps(view)
        assert "draws target card" not in text and "chance: draw:" not in text
    # the other seats' private numbers are in the engine's observation of them, never in what seat 1 got
    for seat in range(1, 5):
        private = state.observation(seat)
        assert private["seat"] == seat
    assert client.get(f"/api/games/{final['id']}/log").status_code == 200  # the full log, once the game is over


@pytest.mark.parametrize("game", RULE_GAMES)
def test_a_game_in_the_browser_api_ends_as_the_engine_says(served: tuple[TestClient, Path], game: str) -> None:
    client, _ = served
    plugin = installed_games()[game]
    _plugin, config = load(plugin.default_template())
    players = plugin.player_range(config)[1]
    bot = "random" if "random" in plugin.bots() else next(iter(plugin.bots()))
    final, views = _play_through_api(client, game, ["human"] + [bot] * (players - 1), 11)
    if game != "better-life":  # every other game's choices are placed on the board's (or the table's) spaces
        assert any(a["space"] for v in views for a in v["legal"])
        assert any(v["marks"] for v in views)
    if game == "global-warming":  # its island is drawn as it stands
        assert all(v["table"] and len(v["table"]["spaces"]) >= 24 for v in views)
    log = client.get(f"/api/games/{final['id']}/log").json()
    engine = plugin.new_game(BuildContext(config, plugin), players)
    end = replay_state(engine, log["setup_seed"], log["steps"])
    outcome = end.outcome()
    assert list(outcome.scores) == final["outcome"]["scores"] == log["outcome"]["scores"]
    assert list(outcome.winners) == final["outcome"]["winners"]
    # the saved log opens as a replay that ends the same way
    replay = client.post("/api/replays", json={"log": log}).json()
    end_view = client.get(f"/api/replays/{replay['id']}?step={replay['length']}").json()
    assert end_view["terminal"] and end_view["outcome"]["scores"] == list(outcome.scores)


def _simulated_scores(plugin: Any, config: Any, players: int, bots: list[str], seed: int, index: int) -> list:
    """The scores of game ``index`` of ``boardgen simulate --seed seed``: from boardgen's own replay of it where
    boardgen has one (boardgen.play.replay, which a game's compiled path is tested against), else from
    ``play_one`` seeded as the simulation seeds it."""
    try:
        from boardgen.play.replay import replay_game  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        engine = plugin.new_game(BuildContext(config, plugin), players)
        record = play_one(engine, plugin.bots(), lineup(bots, players, index, True), derive_seed(seed, "game", index))
        return list(record.outcome.scores)
    return list(replay_game(plugin, BuildContext(config, plugin), players, bots, seed, index).outcome.scores)


@pytest.mark.parametrize("game", RULE_GAMES)
def test_a_replayed_simulated_game_is_the_simulated_game(served: tuple[TestClient, Path], game: str) -> None:
    client, _ = served
    plugin = installed_games()[game]
    _plugin, config = load(plugin.default_template())
    players = plugin.player_range(config)[1]
    bots = ["random"]
    view = client.post("/api/replays", json={"game": game, "seed": 7, "index": 3, "bots": bots}).json()
    last = client.get(f"/api/replays/{view['id']}?step={view['length']}&seat=1").json()
    assert last["terminal"]
    assert last["outcome"]["scores"] == _simulated_scores(plugin, config, players, bots, 7, 3)
    middle = client.get(f"/api/replays/{view['id']}?step={view['length'] // 2}&seat=0").json()
    assert middle["step"] == view["length"] // 2 and middle["last"]


def test_undo_goes_back_to_before_the_last_choice() -> None:
    plugin = installed_games()["philanthropist"]
    _plugin, config = load(plugin.default_template())
    game = plugin.new_game(BuildContext(config, plugin), 4)
    session = PlaySession(plugin, game, ("human", "random", "random", "random"), 3)
    before = json.dumps(session.view())
    first = session.view()["legal"][0]["action"]
    session.act(0, first)
    assert json.dumps(session.view()) != before
    session.undo()
    assert json.dumps(session.view()).replace('"can_undo": true', '"can_undo": false') == before
    session.act(0, first)  # the same choice gives the same game: bots and chance drawn from the same place
    again = session.view()
    session.undo()
    session.act(0, first)
    assert session.view() == again


def test_simultaneous_choices_are_asked_in_turn_and_revealed_together() -> None:
    plugin = installed_games()["global-warming"]
    _plugin, config = load(plugin.default_template())
    players = plugin.player_range(config)[1]
    game = plugin.new_game(BuildContext(config, plugin), players)
    session = PlaySession(plugin, game, tuple(["human"] * players), 2)
    rng = random.Random(2)
    for _ in range(400):
        if session.state.current_player() == SIMULTANEOUS:
            break
        seat = session.deciding_seat()
        assert seat is not None
        session.act(seat, rng.choice(session.state.legal_actions(seat)))
    assert session.state.current_player() == SIMULTANEOUS
    steps = len(session.steps)
    seen = []
    while session.state.current_player() == SIMULTANEOUS and len(session.steps) == steps:
        seat = session.deciding_seat()
        assert seat is not None and seat not in seen
        seen.append(seat)
        view = session.view()
        assert all(str(seat + 1) not in line or "together" not in line for line in view["log"][-1:])
        session.act(seat, session.state.legal_actions(seat)[0])
    assert seen == list(range(players))
    assert session.steps[steps].player == SIMULTANEOUS


@pytest.mark.parametrize("game", RULE_GAMES)
def test_a_results_json_sample_replays_the_simulated_game(served: tuple[TestClient, Path], game: str) -> None:
    """A sample of results.json names a game by its own seed and line-up: enough to play it again."""
    client, _ = served
    plugin = installed_games()[game]
    _plugin, config = load(plugin.default_template())
    players = plugin.player_range(config)[1]
    bots = ["random"]
    names = list(lineup(bots, players, 2, True))
    game_seed = derive_seed(9, "game", 2)
    view = client.post("/api/replays", json={"game": game, "game_seed": game_seed, "lineup": names}).json()
    last = client.get(f"/api/replays/{view['id']}?step={view['length']}").json()
    assert last["outcome"]["scores"] == _simulated_scores(plugin, config, players, bots, 9, 2)


def _run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boardgen.cli", *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize(("args", "expected"), [
    (["serve", "--host", "0.0.0.0", "--no-open"], "--host"),
    (["serve", "--port", "70000", "--no-open"], "--port"),
    (["serve", "-t", "no-such-template.yaml", "--no-open"], "no-such-template.yaml"),
])
def test_serve_refuses_bad_options_in_one_line(args: list[str], expected: str) -> None:
    result = _run_cli(*args)
    assert result.returncode == 2
    assert result.stderr.startswith("boardgen: error: ") and expected in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


@pytest.mark.slow
def test_the_serve_command_listens_on_127_0_0_1_and_stops(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "boardgen.cli", "serve", "-t", "templates/philanthropist.yaml",
                                "--port", str(port), "--no-open", "--no-watch", "--out", str(tmp_path)],
                               cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/kit", timeout=5) as response:
                    status = json.loads(response.read())
                if status["kit"] is not None:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not answer"
            time.sleep(0.3)
        assert status["kit"]["game"] == "philanthropist"
        listening = subprocess.run(["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True)
        if listening.returncode == 0 and listening.stdout.strip():
            assert all("127.0.0.1:" in line for line in listening.stdout.strip().splitlines())
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    assert process.returncode is not None


@pytest.mark.parametrize(("good", "bad"), [("board_columns: 9", "board_columns: banana"),
                                          ("board_columns: 9", "board_columns: 9\n  unknown_key: 1")])
def test_a_build_error_is_the_line_the_cli_prints_and_the_last_kit_stays(tmp_path: Path, good: str, bad: str) -> None:
    template = tmp_path / "better-life.yaml"
    text = (ROOT / "templates" / "better-life.yaml").read_text()
    template.write_text(text)
    state = serve_app.ServeState(template, tmp_path / "build")
    state.rebuild()
    assert state.error is None and state.kit is not None
    kit = state.kit
    template.write_text(text.replace(good, bad))
    state.rebuild()
    cli = _run_cli("build", "-t", str(template), "-o", str(tmp_path / "cli-build"), "-q")
    assert cli.returncode == 2
    assert state.error == cli.stderr.strip()
    assert state.kit is kit  # the last good kit is still the one shown


_LOG = {"format": "boardgen-game-log", "game": "better-life", "players": 5, "seats": ["random"] * 5, "seed": 1,
        "setup_seed": 1}


@pytest.mark.parametrize("body", [
    {"log": {**_LOG, "steps": [[0, "x"]]}}, {"log": {**_LOG, "steps": "abc"}}, {"log": {**_LOG, "steps": [[-2, [1]]]}},
    {"log": {**_LOG, "steps": [[0, [2**80]]]}}, {"log": {**_LOG, "steps": [None]}}, {"log": {**_LOG, "steps": [[]]}},
    {"log": {k: v for k, v in _LOG.items() if k != "setup_seed"} | {"steps": []}}, {"log": "text"},
    {"log": {**_LOG, "game": "../../etc", "steps": []}}, {"game": "better-life", "lineup": ["ghost"] * 5},
    {"game": "better-life", "index": -1}, {"game": "better-life", "bots": ["random"] * 100},
    {"game": "better-life", "players": 99}, {"game": ["better-life"]}, {}])
def test_malformed_replays_get_4xx(served: tuple[TestClient, Path], body: dict) -> None:
    client, _ = served
    response = client.post("/api/replays", json=body)
    assert 400 <= response.status_code < 500, response.text
    assert client.get("/api/kit").status_code == 200


@pytest.mark.slow
def test_saving_a_card_file_rebuilds_the_kit_with_the_new_row(tmp_path: Path) -> None:
    """The watcher follows the template's data files too: a card's new text reaches its hotspot's row."""
    shutil.copy(ROOT / "templates" / "philanthropist.yaml", tmp_path / "philanthropist.yaml")
    shutil.copytree(ROOT / "templates" / "philanthropist", tmp_path / "philanthropist")
    cards = tmp_path / "philanthropist" / "business-cards.csv"
    text = cards.read_text()
    assert "Your year-end bonus comes through." in text
    app = serve_app.create_app(tmp_path / "philanthropist.yaml", tmp_path / "build", watch_files=True)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        generation = client.get("/api/kit").json()["kit"]["generation"]
        time.sleep(0.5)  # the watcher is watching
        cards.write_text(text.replace("Your year-end bonus comes through.", "A windfall from an old friend."))
        deadline = time.monotonic() + 60
        while True:
            status = client.get("/api/kit").json()
            if status["kit"]["generation"] > generation:
                break
            assert time.monotonic() < deadline, "no rebuild after the card file was saved"
            time.sleep(0.2)
        rows = [h["row"] for p in status["kit"]["pages"] for h in p["hotspots"]]
        assert any(r.get("text", "").startswith("A windfall from an old friend.") for r in rows)
        assert not any("year-end bonus" in r.get("text", "") for r in rows)


def test_a_card_the_template_writes_itself_shows_its_row() -> None:
    """Resilience Earth's event cards are rows of its template (not a CSV): clicking one shows that row."""
    from boardgen.serve.preview import build_kit

    kit, _ctx = build_kit(ROOT / "templates" / "resilience-earth.yaml", 1)
    rows = [h["row"] for page in kit.pages for h in page.hotspots if h["row"].get("_key") == "events"]
    heatwave = next(r for r in rows if r["name"] == "Heatwave")
    assert heatwave["_file"] == "resilience-earth.yaml" and heatwave["effect"] == "blocked"
    assert heatwave["reach"] == "all"

"""How quick `boardgen serve` feels: a built kit's status and board page, and a move's round trip over HTTP
(in process, no browser), each beside a reference timed in the same run (the engine applying the same moves
and reading the same observation without the server).

    PYTHONPATH=. python benchmarks/bench_serve.py [--template templates/philanthropist.yaml] [--moves 100]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import warnings
from pathlib import Path

with warnings.catch_warnings():  # starlette 1.x asks for httpx2; httpx is what Debian and PyPI users have
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from boardgen.serve.app import create_app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--template", type=Path, default=Path("templates/philanthropist.yaml"))
    parser.add_argument("--moves", type=int, default=100)
    args = parser.parse_args()
    started = time.perf_counter()
    app = create_app(args.template, Path("build"), watch_files=False)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        print(f"first build (server start): {time.perf_counter() - started:.2f} s")
        t = time.perf_counter()
        kit = client.get("/api/kit").json()["kit"]
        kit_ms = (time.perf_counter() - t) * 1000
        page = kit["board"]["page"] if kit["board"] else 0
        t = time.perf_counter()
        svg = client.get(f"/api/kit/page/{page}.svg").content
        svg_ms = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        client.get(f"/api/kit/page/{page}.svg")
        again_ms = (time.perf_counter() - t) * 1000
        print(f"page load of the built kit: status {kit_ms:.1f} ms, board page SVG {svg_ms:.1f} ms first "
              f"({len(svg) // 1024} KB), {again_ms:.1f} ms after")
        # an edit's rebuild (what the browser waits for after a save, less the watcher's poll and the page's
        # fetch), beside the preview's build of the same template timed alone in this run
        from boardgen.serve.preview import build_kit

        t = time.perf_counter()
        app.state.serve.rebuild()
        rebuild_s = time.perf_counter() - t
        t = time.perf_counter()
        build_kit(app.state.serve.template, 0)
        alone_s = time.perf_counter() - t
        print(f"an edit's rebuild in the server: {rebuild_s:.2f} s; reference: the preview build alone "
              f"{alone_s:.2f} s (the browser test's page shows the edit; its time is printed there, not asserted)")
        game = kit["game"]
        app_state = app.state.serve
        table = app_state.table(game)
        players = table.plugin.player_range(table.ctx.config)[1]
        seats = ["human"] + ["random"] * (players - 1)
        view = client.post("/api/games", json={"game": game, "seats": seats, "seed": 5}).json()
        rng = random.Random(5)
        http_ms: list[float] = []
        for _ in range(args.moves):
            if view["terminal"]:
                break
            action = rng.choice(view["legal"])["action"]
            t = time.perf_counter()
            view = client.post(f"/api/games/{view['id']}/act", json={"seat": 0, "action": action}).json()
            http_ms.append((time.perf_counter() - t) * 1000)
        session = app_state.sessions[view["id"]]
        # reference: the same game's moves applied by the engine alone, with one observation read per move
        from boardgen.serve.session import replay_state

        steps = [s.as_log() for s in session.steps]
        t = time.perf_counter()
        state = replay_state(session.game, session.seed, steps)
        state.observation(0)
        engine_ms = (time.perf_counter() - t) * 1000 / max(1, len(http_ms))
        print(f"{game}: {len(http_ms)} moves, round trip median {statistics.median(http_ms):.2f} ms, "
              f"max {max(http_ms):.2f} ms; reference: the engine alone {engine_ms:.2f} ms per human move "
              f"({len(steps)} actions in all)")


if __name__ == "__main__":
    main()

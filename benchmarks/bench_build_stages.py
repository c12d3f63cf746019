#!/usr/bin/env python
"""The build's parallel stages on the shared process pool (``boardgen.play.pool.run_tasks``, a standard
``ProcessPoolExecutor``) against the hand-made forked workers the build had before: whether a custom scheduler
earns its keep.

    python benchmarks/bench_build_stages.py [--repeat 5] [--reference COMMIT] [--cold] [--cache-dir DIR]

The hand-made scheduler (the parent and one forked worker per further core claiming stages from a shared counter,
results sent back through pipes, board-only stages started while the parent prepared the others' values) is no
longer in ``boardgen/``: it is timed from the last commit that had it (``REFERENCE``), extracted with
``git archive`` into the cache folder and run from there. Both builds, and this checkout's build with every
stage in one process (``BOARDGEN_SERIAL_STAGES=1``), run in the same session, interleaved, so a busy moment hits
them alike; each figure is the median of ``--repeat`` runs, wall and CPU seconds (CPU includes the workers).

Two games: the flagship's default template (a group of seven parallel stages) and BETTER Life (no parallel
stage: its figures differ only by noise, which shows how large the noise is). Before the timed runs, each
checkout builds each game once untimed (board cache and compiled rules kernel warm), and the benchmark checks
that both checkouts wrote the same files (the manifests' outputs). ``--cold``: every timed run starts from a
cache without built boards (``_fresh_cache``), which is where the old scheduler overlapped a board-only stage
with preparing the others.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as timings  # type: ignore[import-not-found]

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = "66a4c1d32301709611f986e74e63bac3835f0ed1"  # the last commit with the hand-made stage scheduler
GAMES = (("global-wellbeing", None), ("better-life", "templates/better-life.yaml"))


def _command(checkout: Path, template: str | None, out: Path) -> list[str]:
    command = [sys.executable, "-m", "boardgen.cli", "build", "-q", "-o", str(out)]
    return command + (["-t", str(checkout / template)] if template else [])


def _env(checkout: Path, cache: Path, serial: bool = False) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(checkout), "BOARDGEN_CACHE_DIR": str(cache)}
    env.pop("BOARDGEN_NO_CACHE", None)
    env.pop("BOARDGEN_SERIAL_STAGES", None)
    if serial:
        env["BOARDGEN_SERIAL_STAGES"] = "1"
    return env


def _outputs(out: Path) -> dict[str, object]:
    manifest = next(out.glob("*/manifest.json"))
    return json.loads(manifest.read_text())["outputs"]  # type: ignore[no-any-return]


BOARD_KINDS = ("board", "panel-strip", "sections", "section-marks", "legend")  # what a changed map builds again


def _fresh_cache(warm: Path, into: Path) -> Path:
    """The cache ``warm`` without its built boards and what is cut and placed on them (``BOARD_KINDS``): what a
    build meets after a change to the map. The compiled kernels, decoded data files and validation results
    stay."""
    shutil.rmtree(into, ignore_errors=True)
    shutil.copytree(warm, into, ignore=lambda folder, names: [
        name for name in names if Path(folder) == warm and (name.startswith("checkout-") or (
            name.endswith(".pickle") and name.rsplit("-", 1)[0] in BOARD_KINDS))])
    return into


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--reference", default=REFERENCE, help="the commit whose scheduler is the reference")
    parser.add_argument("--cold", action="store_true", help="no built board in the cache for every timed run")
    parser.add_argument("--cache-dir", type=Path, default=None,
                        help="the cache to warm and read (default: a temporary one; the rules kernels then "
                             "compile once, which takes minutes)")
    parser.add_argument("--games", default=",".join(name for name, _ in GAMES))
    parser.add_argument("--also", type=Path, action="append", default=[],
                        help="another boardgen checkout to time beside them (e.g. a variant being tried)")
    args = parser.parse_args()
    games = [(name, template) for name, template in GAMES if name in args.games.split(",")]
    with tempfile.TemporaryDirectory(prefix="bench-build-stages-") as folder:
        tmp = Path(folder)
        cache = args.cache_dir or tmp / "cache"
        cache.mkdir(parents=True, exist_ok=True)
        # kept beside a given cache: numba keeps a kernel's machine code per source path, so the reference's
        # kernels are compiled once, not in every run
        reference = cache / f"checkout-{args.reference[:12]}"
        if not reference.is_dir():
            part = reference.with_name(reference.name + ".part")
            timings.extract_commit(ROOT, args.reference, part).rename(reference)
        variants = {  # name: (checkout, serial)
            "hand-made workers (reference)": (reference, False),
            "ProcessPoolExecutor (this checkout)": (ROOT, False),
            "one process (this checkout, serial)": (ROOT, True),
            **{f"{checkout.name} (--also)": (checkout.resolve(), False) for checkout in args.also},
        }
        results: dict[tuple[str, str], tuple[list[float], list[float]]] = {}
        for game, template in games:
            outputs = {}
            for name, (checkout, serial) in variants.items():  # untimed: warms the caches, checks the files
                out = tmp / "out" / f"{game}-{len(outputs)}"
                env = {**_env(checkout, cache, serial), "BOARDGEN_ENGINE": "kernel"}
                timings.timed(_command(checkout, template, out), env, folder)
                outputs[name] = _outputs(out)
                shutil.rmtree(out)
            same = all(value == next(iter(outputs.values())) for value in outputs.values())
            print(f"{game}: every variant wrote the same files: {'yes' if same else 'NO'}", flush=True)
            for _ in range(args.repeat):
                for name, (checkout, serial) in variants.items():
                    run_cache = _fresh_cache(cache, tmp / "cold") if args.cold else cache
                    out = tmp / "out" / game
                    wall_s, cpu_s, _done = timings.timed(_command(checkout, template, out),
                                                         _env(checkout, run_cache, serial), folder)
                    shutil.rmtree(out)
                    walls, cpus = results.setdefault((game, name), ([], []))
                    walls.append(wall_s)
                    cpus.append(cpu_s)
    load = os.getloadavg()
    print(f"\nboardgen build, {'cold' if args.cold else 'warm'} board cache, median of {args.repeat} interleaved "
          f"runs, {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"reference: {args.reference[:12]}")
    for game, _template in games:
        print(f"{game}")
        base_wall = statistics.median(results[(game, next(iter(variants)))][0])
        for name in variants:
            walls, cpus = results[(game, name)]
            wall_s = statistics.median(walls)
            print(f"  {name:<38.38} {wall_s:6.2f} s wall ({wall_s / base_wall:5.2f}x) "
                  f"{statistics.median(cpus):6.2f} s CPU   runs: {', '.join(f'{w:.2f}' for w in walls)}")


if __name__ == "__main__":
    main()

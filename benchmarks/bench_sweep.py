"""Variant-games per second of `boardgen sweep`: one local process, then a local Dask cluster of two workers
(one thread each), on the same plan; prints both rates and their ratio (2.0 would be perfect scaling).

    python benchmarks/bench_sweep.py [--variants 4] [--games 400] [--batch 100]

The plan varies the Global Wellbeing Game's harvest divisor; boards are built once per worker (the first batch
of each worker pays for it), which the figures include, as a real sweep does.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def main() -> None:
    from boardgen.play import sweep
    from boardgen.template import load, read_template

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=int, default=4)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--batch", type=int, default=100)
    args = parser.parse_args()
    data, source, sha = read_template(None)
    plugin, config = load(None)
    values = ",".join(str(20 + 5 * i) for i in range(args.variants))
    variants = sweep.variant_grid([sweep.parse_vary(f"rules.harvest_divisor={values}")], None, 0)
    plan = sweep.Plan(plugin.name, "global-wellbeing.yaml", sha, data, source, tuple(variants), args.games,
                      config.players.usual, plugin.default_bots, config.seed, True, args.batch)
    objective = sweep.Objective.parse("seat_spread + ties")
    total = len(variants) * args.games
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        local = sweep.run_sweep(plan, Path(tmp) / "local", objective, jobs=1)
        local_s = time.perf_counter() - started
        print(f"one process:       {total} variant-games in {local_s:.1f} s = {total / local_s:,.0f}/s")
        from distributed import Client, LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                          silence_logs=40) as cluster, Client(cluster) as client:
            started = time.perf_counter()
            on_cluster = sweep.run_sweep(plan, Path(tmp) / "dask", objective, scheduler=client)
            dask_s = time.perf_counter() - started
        print(f"two Dask workers:  {total} variant-games in {dask_s:.1f} s = {total / dask_s:,.0f}/s "
              f"({local_s / dask_s:.2f}x one process)")
        same = sweep.sweep_csv(local) == sweep.sweep_csv(on_cluster)
        print(f"same sweep.csv: {same}")


if __name__ == "__main__":
    main()

"""`boardgen sweep`: variants from --vary, objectives, and the same sweep.csv whether batches ran in one process,
in two, on a two-worker Dask cluster, with a worker killed mid-sweep, or interrupted and resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardgen.play import sweep
from boardgen.plugin import installed_games

TINY_DIR = Path(__file__).parent / "tinygame"


@pytest.fixture()
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Tiny Stones installed through an entry point, for this process and for worker processes it starts."""
    site = tmp_path / "site"
    dist = site / "tiny_stones-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-stones\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[boardgen.games]\ntiny-stones = tiny_stones:plugin\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(str(TINY_DIR))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), str(TINY_DIR), os.environ.get("PYTHONPATH", "")]))
    installed_games.cache_clear()
    template = tmp_path / "tiny.yaml"
    template.write_text((TINY_DIR / "tiny-stones.yaml").read_text().replace("stones: 15", "stones: 13"))
    yield template
    installed_games.cache_clear()


def _plan(template: Path, games: int = 60, batch: int = 20) -> tuple[sweep.Plan, sweep.Objective]:
    from boardgen.template import load, read_template

    data, source, sha = read_template(template)
    plugin, _config = load(template)
    varies = [sweep.parse_vary("rules.stones=9:13:2"), sweep.parse_vary("rules.max_take=2,3")]
    plan = sweep.Plan(plugin.name, template.name, sha, data, source, tuple(sweep.variant_grid(varies, None, 1)),
                      games, 2, ("greedy", "random"), 11, True, batch)
    return plan, sweep.Objective.parse("seat_spread + ties + abs(length - 5) / 100")


def test_parse_vary_lists_and_ranges() -> None:
    assert sweep.parse_vary("rules.x=1,2,3").values == (1, 2, 3)
    assert sweep.parse_vary("rules.x=20:40:5").values == (20, 25, 30, 35, 40)
    assert sweep.parse_vary("rules.x=0.1:0.3:0.1").values == (0.1, 0.2, 0.3)
    assert sweep.parse_vary("rules.flag=true,false").values == (True, False)
    for bad in ("rules.x", "rules.x=", "=1,2", "rules.x=5:1", "rules.x=1:5:0", "rules x=1", "rules.x=1,1",
                "rules.x=[1,2]", "rules.x=a:b", "rules.x=0:100000000"):
        with pytest.raises(sweep.SweepError):
            sweep.parse_vary(bad)


def test_variant_grid_and_sample_are_deterministic() -> None:
    varies = [sweep.parse_vary("a.x=1,2,3"), sweep.parse_vary("a.y=10,20")]
    grid = sweep.variant_grid(varies, None, 0)
    assert grid[0] == {"a.x": 1, "a.y": 10} and grid[1] == {"a.x": 1, "a.y": 20} and len(grid) == 6
    sample = sweep.variant_grid(varies, 3, 5)
    assert sample == sweep.variant_grid(varies, 3, 5) and len(sample) == 3
    assert all(v in grid for v in sample) and sample == [v for v in grid if v in sample]


def test_objective_is_checked_before_games() -> None:
    objective = sweep.Objective.parse("seat_spread + abs(length - 20) / 10 + score.mean")
    assert objective.names() == {"seat_spread", "length", "score.mean"}
    assert objective.value({"seat_spread": 0.1, "length": 22, "score.mean": 1}) == pytest.approx(1.3)
    with pytest.raises(sweep.SweepError, match="did you mean 'ties'"):
        sweep.Objective.parse("tie").check({"ties": 0.0, "seat_spread": 0.0})
    for bad in ("__import__('os')", "a if b else c", "x[0]", "'text'", "lambda: 1", "a +"):
        with pytest.raises(sweep.SweepError):
            sweep.Objective.parse(bad)


def test_same_csv_in_one_process_two_processes_and_resumed(tiny: Path, tmp_path: Path) -> None:
    plan, objective = _plan(tiny)
    one = sweep.run_sweep(plan, tmp_path / "one", objective, jobs=1)
    two = sweep.run_sweep(plan, tmp_path / "two", objective, jobs=2)
    assert sweep.sweep_csv(one) == sweep.sweep_csv(two)
    assert len(one.rows) == 6 and one.batches_run == 18

    # interrupted after 5 batches, then resumed: nothing lost, nothing played twice, the same table
    calls = []

    def stop_after_five(n: int) -> None:
        calls.append(n)
        if len(calls) == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sweep.run_sweep(plan, tmp_path / "resumed", objective, jobs=1, progress=stop_after_five)
    resumed = sweep.run_sweep(plan, tmp_path / "resumed", objective, jobs=1, resume=True)
    assert resumed.batches_resumed == 5 and resumed.batches_run == 13
    assert sweep.sweep_csv(resumed) == sweep.sweep_csv(one)

    # a torn batch file is played again, not trusted
    folder = next((tmp_path / "resumed" / "batches").iterdir())
    victim = sorted(folder.iterdir())[0]
    victim.write_bytes(victim.read_bytes()[:10])
    again = sweep.run_sweep(plan, tmp_path / "resumed", objective, jobs=1, resume=True)
    assert again.batches_run == 1 and sweep.sweep_csv(again) == sweep.sweep_csv(one)


def test_best_variant_template_extends_with_only_changed_keys(tiny: Path, tmp_path: Path) -> None:
    import yaml

    from boardgen.template import load

    plan, objective = _plan(tiny, games=20)
    result = sweep.run_sweep(plan, tmp_path / "s", objective)
    best = tmp_path / "best.yaml"
    best.write_bytes(sweep.best_template(result, str(tiny)))
    body = yaml.safe_load(best.read_text())
    assert set(body) == {"extends", "rules"} and set(body["rules"]) == {"stones", "max_take"}
    _plugin, config = load(best)
    row = result.rows[result.best]
    assert config.rules.stones == row["overrides"]["rules.stones"]
    document = json.loads(sweep.sweep_json(result))
    assert document["best_variant"] == row["variant"]
    assert set(sweep.sweep_plots(result)) == {"sweep-heatmap.png", "sweep-ranking.png"}


@pytest.mark.slow
def test_dask_cluster_gives_the_same_csv_even_when_a_worker_dies(tiny: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    plan, objective = _plan(tiny, games=80, batch=10)
    reference = sweep.sweep_csv(sweep.run_sweep(plan, tmp_path / "local", objective))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as cluster, distributed.Client(cluster) as client:
        on_cluster = sweep.run_sweep(plan, tmp_path / "dask", objective, scheduler=client)
        assert sweep.sweep_csv(on_cluster) == reference

        killed = []

        def kill_one_worker(n: int) -> None:
            if not killed:
                worker = sorted(client.scheduler_info()["workers"])[0]
                killed.append(worker)
                pid = client.run(os.getpid, workers=[worker])[worker]
                os.kill(pid, signal.SIGKILL)  # the nanny starts a new worker; its batches run again elsewhere

        again = sweep.run_sweep(plan, tmp_path / "dask-kill", objective, scheduler=client, progress=kill_one_worker)
        assert killed and sweep.sweep_csv(again) == reference


def test_bad_vary_is_one_line_exit_2(tmp_path: Path) -> None:
    for args, expected in ((["--vary", "rules.turns=5:1"], "--vary 'rules.turns=5:1'"),
                           (["--vary", "rules.turnz=5,6"], "rules.turnz: unknown key"),
                           (["--vary", "rules.turns=5,6", "--objective", "seat_spred"], "unknown metric"),
                           (["--vary", "rules.turns=-3,6"], "rules.turns")):
        result = subprocess.run([sys.executable, "-m", "boardgen.cli", "sweep", *args, "--games", "2", "-q",
                                 "--out", str(tmp_path / "o")], capture_output=True, text=True, timeout=120)
        assert result.returncode == 2, result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and expected in lines[0] and "Traceback" not in result.stderr, result.stderr

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

TINY_DIR = Path(__file__).resolve().parents[1] / "tinygame"


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


def _sweep_cli(template: Path, out: Path, objective: str, *varies: str) -> tuple[int, str, BaseException | None]:
    from click.testing import CliRunner

    from boardgen.cli import cli

    args = ["sweep", "-q", "--template", str(template), "--out", str(out), "--games", "20", "--bots", "greedy,random",
            "--objective", objective]
    for vary in varies:
        args += ["--vary", vary]
    result = CliRunner().invoke(cli, args)
    return result.exit_code, result.output, result.exception


def test_an_objective_that_is_not_finite_is_reported_and_the_folder_is_wholly_the_new_run(tiny: Path,
                                                                                            tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, output, _error = _sweep_cli(tiny, out, "seat_spread + ties", "rules.stones=9:13:2", "rules.max_take=2,3")
    assert code == 0, output
    folder = out / "tiny-stones" / "sweep"
    assert {"best.yaml", "sweep-heatmap.png", "sweep-ranking.png"} <= {p.name for p in folder.iterdir()}
    # Tiny Stones never ties: seat_spread / ties is infinite for every variant
    code, output, _error = _sweep_cli(tiny, out, "seat_spread / ties", "rules.stones=9:13:2")
    assert code == 0, output
    assert "objective not finite for 3 of 3 variants" in output and "no best variant" in output
    names = {p.name for p in folder.iterdir()}
    assert names == {"sweep.csv", "sweep.json", "manifest.json", "batches"}  # nothing left of the first run
    document = json.loads((folder / "sweep.json").read_text())
    assert document["best_variant"] is None and document["objective"] == "seat_spread / ties"
    assert all(v["objective"] is None and "objective_note" in v for v in document["variants"])
    assert "not finite" in (folder / "sweep.csv").read_text()


def test_variants_without_a_finite_objective_rank_last_and_stay_off_the_charts() -> None:
    plan = sweep.Plan("tiny-stones", "t.yaml", "0", {}, "t.yaml",
                      ({"rules.a": 1, "rules.b": 1}, {"rules.a": 2, "rules.b": 1}, {"rules.a": 1, "rules.b": 2},
                       {"rules.a": 2, "rules.b": 2}), 10, 2, ("random",), 1, True, 10)
    metrics = {m: 0.1 for m in sweep.CSV_METRICS}
    rows = [{"variant": i + 1, "overrides": dict(v), "metrics": metrics, "objective": o}
            for i, (v, o) in enumerate(zip(plan.variants, [None, 0.3, 0.2, None], strict=True))]
    assert sweep.rank(rows) == [2, 1, 0, 3]
    result = sweep.SweepResult(plan, rows, 2, "x / y", 4, 0)
    assert set(sweep.sweep_plots(result)) == {"sweep-heatmap.png", "sweep-ranking.png"}
    assert json.loads(sweep.sweep_json(result))["variants"][0]["objective"] is None
    value = sweep.Objective.parse("sqrt(ties - 1) + 1 / ties").value
    assert value({"ties": 0.0}) != value({"ties": 0.0})  # NaN: sqrt of a negative number, not a ValueError
    assert value({"ties": 2.0}) == 1.5


def test_a_failed_write_leaves_the_last_run_whole(tiny: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boardgen import io

    out = tmp_path / "out"
    code, output, _error = _sweep_cli(tiny, out, "seat_spread + ties", "rules.stones=9:13:2", "rules.max_take=2,3")
    assert code == 0, output
    folder = out / "tiny-stones" / "sweep"
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    plan, objective = _plan(tiny, games=20)
    result = sweep.run_sweep(plan, tmp_path / "elsewhere", objective)
    for step in (1, 2, 3):  # the disk fills while the new files are written, linked or swapped in
        monkeypatch.setenv("BOARDGEN_FAULT", f"enospc:{step}")
        monkeypatch.setattr(io, "_fault_steps", 0)
        with pytest.raises(io.OutputError, match="previous kit is unchanged"):
            sweep.write_sweep(result, folder, tiny, "tiny-stones")
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before


def test_best_yaml_extends_its_base_by_a_relative_path_under_an_edition_of_its_own(tiny: Path,
                                                                                   tmp_path: Path) -> None:
    import shutil

    from boardgen.template import load

    designs = tmp_path / "work" / "designs"
    designs.mkdir(parents=True)
    template = designs / "tiny.yaml"
    template.write_text(tiny.read_text())
    out = tmp_path / "work" / "out"
    code, output, _error = _sweep_cli(template, out, "seat_spread + ties", "rules.stones=9:13:2")
    assert code == 0, output
    best = out / "tiny-stones" / "sweep" / "best.yaml"
    text = best.read_text()
    assert "extends: ../../../designs/tiny.yaml" in text and "edition: tiny-stones-best" in text
    moved = tmp_path / "elsewhere"
    shutil.copytree(tmp_path / "work", moved)  # the folders moved together: best.yaml still finds its base
    _plugin, config = load(moved / "out" / "tiny-stones" / "sweep" / "best.yaml")
    assert config.edition == "tiny-stones-best"
    assert sweep.best_edition("x" * 64) == "x" * 59 + "-best"


def _columns(wins_of_seat0: list[bool]) -> object:
    from boardgen.play.api import Outcome
    from boardgen.play.columns import GameRecord, OutcomeColumns

    records = [GameRecord(i, ("random", "random"), Outcome((1.0, 0.0) if w else (0.0, 1.0), (0,) if w else (1,),
                                                           5, {}, {})) for i, w in enumerate(wins_of_seat0)]
    return OutcomeColumns.from_records(records, 2, ("random",))


@pytest.mark.parametrize(("best_share", "other_share", "separated"), [(0.5, 0.9, True), (0.5, 0.53, False),
                                                                       (0.6, 0.6, False)])
def test_the_best_is_said_to_be_separated_only_when_its_interval_says_so(best_share: float, other_share: float,
                                                                         separated: bool) -> None:
    import random

    from boardgen.play.runner import summary_of_batches

    n = 400
    rng = random.Random(3)
    parts = {v: [_columns([rng.random() < share for _ in range(n)])]
             for v, share in enumerate((best_share, other_share))}
    plan = sweep.Plan("tiny-stones", "t.yaml", "0", {}, "t.yaml", ({"a": 1}, {"a": 2}), n, 2, ("random",), 1, True, n)
    result = sweep.separation(plan, sweep.Objective.parse("seat_spread"), 0, 1, parts,
                              lambda v, batches: summary_of_batches(2, ("random",), 1, batches))
    assert result["separated"] is separated
    low, high = result["ci95"]
    assert (low > 0) is separated and low <= result["difference"] <= high
    if separated:
        assert result["games_to_separate"] <= n
    elif result["difference"] > 0:
        assert result["games_to_separate"] > n

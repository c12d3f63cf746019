"""`boardgen simulate` and `boardgen validate` on the real board, and the build's validation stage."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardgen.geomap.build
from boardgen.build import BuildContext
from boardgen.cli import cli
from boardgen.games.global_wellbeing.rules.board import RulesBoard, components
from boardgen.games.global_wellbeing.rules.report import rule_findings
from boardgen.games.global_wellbeing.schema import Config, default_template_path
from boardgen.geomap.model import Board
from boardgen.play import runner
from boardgen.play.runner import validate_stage

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def fast_board(monkeypatch: pytest.MonkeyPatch, default_board: Board) -> Board:
    """Commands get the session's real board instead of rebuilding it (the rules tests do not change the map)."""
    monkeypatch.setattr(boardgen.geomap.build, "build_board",
                        lambda config: dataclasses.replace(default_board, config=config))
    return default_board


def test_simulate_writes_report_and_is_deterministic(fast_board: Board, tmp_path: Path) -> None:
    runner = CliRunner()
    outs = []
    for jobs in ("2", "1"):
        out = tmp_path / f"jobs{jobs}"
        result = runner.invoke(cli, ["simulate", "--games", "40", "--jobs", jobs, "--seed", "5", "--bots",
                                     "greedy,random,planner", "--out", str(out)])
        assert result.exit_code == 0, result.output
        assert "win rate by seat" in result.output
        outs.append(out / "global-wellbeing" / "report")
    report = outs[0]
    names = sorted(p.name for p in report.iterdir())
    assert names == ["games.csv", "heat-contested.png", "heat-occupied.png", "index-trajectories.png", "results.json",
                     "score-distribution.png", "win-rate-by-bot.png", "win-rate-by-seat.png"]
    data = json.loads((report / "results.json").read_text())
    summary = data["summary"]
    assert summary["games"] == 40 and summary["players"] == 6
    assert len(data["cells"]) == len(fast_board.cells) and data["samples"]
    assert len((report / "games.csv").read_text().splitlines()) == 41  # a header and one line per game
    assert sum(s["wins"] for s in summary["win_rate_by_seat"]) == pytest.approx(40)
    assert set(summary["win_rate_by_bot"]) == {"greedy", "planner", "random"}
    assert all(0 <= c["occupied_share"] <= 1 for c in data["cells"])
    for name in names:
        first, second = (report / name).read_bytes(), (outs[1] / name).read_bytes()
        assert first == second, f"{name} differs between --jobs 2 and --jobs 1"
        if name.endswith(".png"):
            assert first.startswith(PNG_MAGIC)


def test_simulate_rejects_unknown_bot(fast_board: Board, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["simulate", "--games", "5", "--bots", "greedy,clever", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "unknown bot 'clever'" in result.output


def test_validate_json_on_the_default_board(fast_board: Board) -> None:
    result = CliRunner().invoke(cli, ["validate", "--games", "60", "--json", "--quiet"])
    data = json.loads(result.stdout)
    assert result.exit_code == (1 if data["counts"]["error"] else 0)
    rules = {f["rule"] for f in data["findings"]}
    assert {"map.cell-count", "map.components", "setup.fits", "rules.fires", "seat-spread", "game-length",
            "rules.out-of-pieces", "rules.end-state"} <= rules  # seat-advantage and ties: warnings only
    # the start indices sum to 22 > d20: the tipping point cannot rise at first; validation says so
    assert any(f["rule"] == "rules.tipping-start" and f["severity"] == "warning" for f in data["findings"])
    rb = RulesBoard.from_board(fast_board)
    isolated = [rb.labels[c[0]] for c in components(rb) if len(c) == 1]
    listed = [f for f in data["findings"] if f["rule"] == "map.isolated-cells"]
    if isolated:
        assert listed and listed[0]["where"] == "cells " + ", ".join(isolated)
    assert data["simulation"]["games"] == 60


def test_validate_text_and_error_exit_code(fast_board: Board, tmp_path: Path) -> None:
    template = tmp_path / "strict.yaml"
    text = default_template_path().read_text()
    assert "  badge_threshold: 8\n" in text
    template.write_text(text.replace("  badge_threshold: 8\n", "  badge_threshold: 40\n"))
    result = CliRunner().invoke(cli, ["validate", "--template", str(template), "--games", "10", "--quiet"])
    assert result.exit_code == 1, result.output
    assert "ERROR   map.zone-badge" in result.output
    assert result.output.strip().splitlines()[-1].endswith("notes")


def test_validate_stage_artifacts(default_board: Board, default_config: Config) -> None:
    simulate = default_config.simulate.model_copy(update={"validate_games": 30})
    config = default_config.model_copy(update={"simulate": simulate})
    def context() -> BuildContext:
        ctx = BuildContext(config)
        ctx.computed["board"] = default_board
        return ctx

    artifacts = validate_stage(context())
    assert [a.path for a in artifacts] == ["report/validation.json", "report/validation.txt"]
    data = json.loads(artifacts[0].data)
    assert data["simulation"]["games"] == 30 and data["edition"] == "global-wellbeing"
    assert validate_stage(context())[0].data == artifacts[0].data


def test_seat_fairness_ties_and_length_come_from_the_shared_report(default_ctx: BuildContext) -> None:
    """The game's own checks hold no seat, tie or length finding: those are the runner's, under its ids."""
    summary = runner.run(default_ctx.plugin, default_ctx, 60, 6, ("random",), 1, 1, True, None)["summary"]
    own = {f.rule for f in rule_findings(default_ctx, summary)}
    shared = {runner.SEAT_ADVANTAGE, runner.SEAT_SPREAD, runner.TIES, runner.NOBODY_WON, runner.GAME_LENGTH,
              runner.RULE_NEVER_FIRES}
    assert own and not own & shared
    found = {f.rule for f in runner.generic_findings(summary)}
    assert {runner.SEAT_SPREAD, runner.GAME_LENGTH} <= found

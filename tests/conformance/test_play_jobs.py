"""`--jobs` never changes a result: simulate's files and validate's report are the same bytes on one process and
on two, for every installed game."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from boardgen.cli import cli
from boardgen.plugin import installed_games

GAMES = sorted(name for name, plugin in installed_games().items() if plugin.has_rules)


SLOW = {"resilience-earth", "better-life"}
"""Parts marked slow (8-18 s each on a free core): Resilience Earth builds its field map four times, BETTER Life
plays its 30 games and validates twice."""


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in GAMES])
def test_simulate_and_validate_give_the_same_bytes_for_any_jobs(name: str, tmp_path: Path) -> None:
    plugin = installed_games()[name]
    template = str(plugin.default_template())
    games = "8" if name == "resilience-earth" else "30"
    files = []
    reports = []
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        result = CliRunner().invoke(cli, ["simulate", "-q", "-t", template, "-n", games, "-b", "random", "-j", jobs,
                                          "-o", str(out)])
        assert result.exit_code == 0, result.output
        report = out / plugin.name / "report"
        files.append({p.name: p.read_bytes() for p in sorted(report.iterdir())})
        result = CliRunner().invoke(cli, ["validate", "-q", "-t", template, "-n", "6", "-j", jobs, "--json"])
        assert result.exit_code in (0, 1), result.output
        reports.append(result.output)
    assert files[0].keys() == files[1].keys() and {"results.json", "games.csv"} <= files[0].keys()
    for key in files[0]:
        assert files[0][key] == files[1][key], key
    assert reports[0] == reports[1]

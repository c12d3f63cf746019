"""The `boardgen` console command (``cli.run``): what ``main`` does, then the process ends at once with the same
exit code and the whole of its output."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _run(entry: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", f"import sys; from boardgen.cli import {entry}; sys.exit({entry}())",
                           *args], capture_output=True, text=True, timeout=120, cwd=REPO)


def test_the_console_script_is_run() -> None:
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"boardgen": "boardgen.cli:run"}


def test_run_prints_and_exits_as_main_does() -> None:
    for args in (("games",), ("schema", "global-wellbeing"), ("build", "-t", "/no/such/template.yaml"),
                 ("no-such-command",), ("--version",)):
        fast, plain = _run("run", *args), _run("main", *args)
        assert (fast.returncode, fast.stdout, fast.stderr) == (plain.returncode, plain.stdout, plain.stderr), args
    assert _run("run", "games").returncode == 0 and len(_run("run", "schema", "global-wellbeing").stdout) > 30_000
    failed = _run("run", "build", "-t", "/no/such/template.yaml")
    assert failed.returncode == 2 and failed.stderr.count("\n") == 1 and "template" in failed.stderr

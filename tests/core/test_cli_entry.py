"""The `boardgen` console command (``cli.run``): what ``main`` does, then the process ends at once with the same
exit code and the whole of its output."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # output as a user's shell buffers it


def _python(code: str, *args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    options = {"capture_output": True, **kwargs} if "stdout" not in kwargs else {"stderr": subprocess.PIPE, **kwargs}
    return subprocess.run([sys.executable, "-c", code, *args], text=True, timeout=120, cwd=REPO, env=ENV,
                          **options)  # type: ignore[call-overload]


def _run(entry: str, *args: str) -> subprocess.CompletedProcess[str]:
    return _python(f"import sys; from boardgen.cli import {entry}; sys.exit({entry}())", *args)


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


UNFLUSHED = ("import sys, time, boardgen.cli as cli\n"
             "def main():\n"
             "    sys.stdout.write('x' * 100)  # left in the buffer: run writes it\n"
             "    time.sleep(float(sys.argv[1]))\n"
             "cli.main = main\n"
             "cli.run()\n")


def test_run_writes_what_main_left_in_the_buffer() -> None:
    done = _python(UNFLUSHED, "0")
    assert done.returncode == 0 and done.stdout == "x" * 100


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_that_cannot_be_written_is_an_error() -> None:
    with open("/dev/full", "w") as full:
        done = _python(UNFLUSHED, "0", stdout=full)
    assert done.returncode == 120 and done.stderr.count("\n") == 1 and "cannot write the output" in done.stderr


def test_a_reader_that_went_away_or_a_closed_stdout_is_no_error() -> None:
    reader = subprocess.Popen([sys.executable, "-c", UNFLUSHED, "0.5"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, cwd=REPO, env=ENV)
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.close()  # the reader goes away before run writes
    assert reader.wait(timeout=120) == 0 and reader.stderr.read() == b""
    closed = _python("import sys, boardgen.cli as cli\nsys.stdout = None\ncli.main = lambda: None\ncli.run()\n")
    assert closed.returncode == 0 and closed.stderr == ""

"""What the benchmark scripts share for timing: a command in a subprocess (wall and CPU time), and busy cores.

Not a benchmark itself (no ``main``); the scripts import it from their own folder.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path


def children_cpu_s() -> float:
    """User + system CPU seconds of every finished child process so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: Sequence[str], env: dict[str, str] | None = None, cwd: str | None = None,
          check: bool = True) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """(wall s, CPU s of the process and everything it waited for, the finished process) of one run.

    ``cwd``: run outside any checkout when the command must import the installed or PYTHONPATH boardgen
    (``python -c`` and ``-m`` put the working folder first on the path)."""
    cpu_before = children_cpu_s()
    started = time.perf_counter()
    done = subprocess.run(list(command), env=env, cwd=cwd, capture_output=True, text=True, check=check)
    return time.perf_counter() - started, children_cpu_s() - cpu_before, done


def extract_commit(root: Path, commit: str, into: Path) -> Path:
    """The checkout of ``commit`` of the repository at ``root`` (its tracked files, by ``git archive``) in
    ``into``, a folder this makes."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(root), "archive", commit], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


class BusyCores:
    """``count`` busy-loop processes competing for the cores while the block runs."""

    def __init__(self, count: int = 2) -> None:
        self.count = count
        self.procs: list[subprocess.Popen[bytes]] = []

    def __enter__(self) -> BusyCores:
        self.procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(self.count)]
        time.sleep(0.3)
        return self

    def __exit__(self, *exc: object) -> None:
        for proc in self.procs:
            proc.kill()
            proc.wait()


def console_command(checkout: Path, *args: str) -> list[str]:
    """``boardgen ARGS`` as the console script of ``checkout`` runs it: the entry its ``pyproject.toml``
    declares for ``boardgen`` (``boardgen.cli:run``; at older commits ``main``), with this interpreter."""
    import tomllib

    entry = tomllib.loads((checkout / "pyproject.toml").read_text())["project"]["scripts"]["boardgen"]
    module, function = entry.split(":")
    return [sys.executable, "-c", f"import sys; from {module} import {function}; sys.exit({function}())", *args]

"""Fuzz campaign: mutated shipped templates through a whole boardgen command, each in its own process with a
time limit (60 s) and an address-space limit (2 GB), classified as in issue 10's table.

    python scripts/fuzz_campaign.py --count 1000 --command info --jobs 2
    python scripts/fuzz_campaign.py --count 200 --command build

Each run is a fork of a process that has imported boardgen and loaded the shipped data (as a fresh process
would be after its imports), so a campaign of 1,000 runs fits in minutes. Classes: accepted (exit 0), clean
(exit 2, one line naming a key or a line), no key (exit 2, one line, no key), internal (exit 2 through the
CLI's last line of defence: "unexpected error", a bug to fix even though the user sees one line), traceback
(anything else), hang (over 60 s of CPU time), memory (over the 2 GB limit).
Prints the table, the peak memory of any run and a reproducible seed for each failure.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from fuzz_templates import mutate, shipped_texts  # noqa: E402

TIME_LIMIT_S = 60.0  # CPU seconds
WALL_LIMIT_S = 600.0
MEMORY_LIMIT = 2 * 1024**3
_KEY = re.compile(r"""^(line \d+|\(top level\)|(?:[^\s:'"]|'[^']*'|"[^"]*")+): """)  # no nested + (backtracking)


def classify(returncode: int | None, stderr: str, source: str) -> str:
    if returncode is None:
        return "hang"
    lines = stderr.strip().splitlines()
    if "MemoryError" in stderr or "out of memory" in stderr:
        return "memory"
    if returncode == 0:
        return "accepted"
    if returncode != 2 or len(lines) != 1 or "Traceback" in stderr:
        return "traceback"
    line = lines[0].removeprefix("boardgen: error: ")
    if "unexpected error" in line:
        return "internal"
    rest = line[len(source) + 2:] if line.startswith(f"{source}: ") else line.split(": ", 1)[-1]
    if not line.startswith(f"{source}: "):  # a data file or an extended template named first
        return "clean"
    return "clean" if _KEY.match(rest) else "no key"


def _child(args: list[str], stderr_path: Path) -> None:
    """In the forked child: limits, stderr to a file, then the CLI as a user would run it."""
    try:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        resource.setrlimit(resource.RLIMIT_CPU, (int(TIME_LIMIT_S), int(TIME_LIMIT_S) + 5))
        err = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(err, 2)
        os.dup2(null, 1)
        sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
        os.environ.pop("BOARDGEN_DEBUG", None)
        from boardgen import cli

        cli.main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
        sys.stderr.flush()
        os._exit(code)
    except BaseException:
        import traceback

        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)
    os._exit(0)


def start_one(name: str, text: str, seed: int, command: str, folder: Path) -> tuple[int, float, Path, Path]:
    """Fork one run of ``boardgen COMMAND`` on a mutation; returns (pid, start time, case folder, template)."""
    work = folder / f"case-{seed}"
    work.mkdir()
    path = work / name
    path.write_text(mutate(text, random.Random(seed), work), encoding="utf-8", errors="surrogatepass")
    args = [command, "-t", str(path)]
    if command == "build":
        args += ["-q", "-o", str(work / "out")]
    started = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        _child(args, work / "stderr")
    return pid, started, work, path


def finish_one(status: int, usage: Any, started: float, work: Path, path: Path, seed: int,
               timed_out: bool = False) -> tuple[str, int, float, str, int]:
    """(class, seed, seconds, last line of stderr, peak RSS in KB) of a run that has ended."""
    cpu = usage.ru_utime + usage.ru_stime if usage is not None else 0.0
    returncode: int | None
    if timed_out or (os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL)
                     and cpu >= TIME_LIMIT_S):
        returncode = None  # over the CPU (or wall) time limit: a hang
    else:
        returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - started
    stderr = (work / "stderr").read_text(errors="replace") if (work / "stderr").exists() else ""
    kind = classify(returncode, stderr, str(path))
    last = stderr.strip().splitlines()[-1][:240] if stderr.strip() else ""
    if kind in ("accepted", "clean"):
        shutil.rmtree(work, ignore_errors=True)
    return kind, seed, seconds, last, usage.ru_maxrss if usage is not None else 0


def _warm() -> None:
    """Import boardgen and load the shipped data once, so every forked run starts where a run would be after
    its imports and data loading."""
    from boardgen import cli  # noqa: F401
    from boardgen.mapbuild import build_board
    from boardgen.template import load

    _plugin, config = load(None)
    build_board(config)


def campaign(count: int, command: str, folder: Path, seed: int = 10, jobs: int = 2,
             progress: bool = False) -> tuple[Counter[str], list[tuple[str, int, float, str, int]]]:
    _warm()
    texts = shipped_texts()
    rng = random.Random(seed)
    cases = [(name, texts[name], rng.randrange(2**32)) for name in sorted(texts) for _ in range(count // len(texts))]
    counts: Counter[str] = Counter()
    failures = []
    peak = 0
    slowest = 0.0
    running: dict[int, tuple[float, Path, Path, int]] = {}
    queue = list(cases)
    done = 0
    # one thread: forking from a threaded process can deadlock, so the children are polled here
    while queue or running:
        while queue and len(running) < jobs:
            name, text, case_seed = queue.pop(0)
            pid, started, work, path = start_one(name, text, case_seed, command, folder)
            running[pid] = (started, work, path, case_seed)
        time.sleep(0.05)
        for pid in list(running):
            started, work, path, case_seed = running[pid]
            ended, status, usage = os.wait4(pid, os.WNOHANG)
            timed_out = False
            if not ended:
                if time.perf_counter() - started <= WALL_LIMIT_S:
                    continue
                os.kill(pid, signal.SIGKILL)
                _, status, usage = os.wait4(pid, 0)
                timed_out = True
            del running[pid]
            result = finish_one(status, usage, started, work, path, case_seed, timed_out)
            done += 1
            counts[result[0]] += 1
            peak = max(peak, result[4])
            slowest = max(slowest, result[2])
            if result[0] not in ("accepted", "clean"):
                failures.append(result)
            if progress and done % 50 == 0:
                print(f"  {done}/{len(cases)}: {dict(counts)}", file=sys.stderr, flush=True)
    counts["peak_rss_mb"] = peak // 1024
    counts["slowest_s"] = round(slowest)
    return counts, failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--command", choices=["info", "build"], default="info")
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", type=Path, default=None, help="folder for the cases (kept for failures)")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="boardgen-fuzz-"))
    folder.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    counts, failures = campaign(args.count, args.command, folder, args.seed, args.jobs, progress=True)
    print(f"{args.count} mutated templates through `boardgen {args.command}` in {time.perf_counter() - started:.0f} s"
          f" (cases in {folder})")
    print("| class | count |\n| --- | --- |")
    for kind in ("accepted", "clean", "no key", "internal", "traceback", "hang", "memory"):
        print(f"| {kind} | {counts.get(kind, 0)} |")
    print(f"peak memory of one run {counts['peak_rss_mb']} MB, slowest run {counts['slowest_s']} s")
    for kind, seed, seconds, first, _ in failures:
        print(f"{kind:<9} seed {seed} {seconds:5.1f} s  {first}")


if __name__ == "__main__":
    main()

"""Fuzz campaign over every installed game: mutated shipped templates and hostile data files (card CSVs and
deck files, special files) through a whole boardgen command, each run in its own forked process with a time
limit and a 2 GB address-space limit, and classified.

    python scripts/fuzz_campaign.py --count 300 --jobs 2                  # every installed game
    python scripts/fuzz_campaign.py --count 300 --game philanthropist --keep /tmp/cases

A game with rules runs ``boardgen validate -q -n 2`` (the template, its data files, the board and two games);
a set of parts with no game (the piecepack) runs ``boardgen build``; ``--command build`` builds every case whole
(with 10 validation games), slower but reaching every stage; ``--gentle`` makes only plausible template changes
(numbers scaled by 0.1 to 10), which are often accepted. About a third of a game's cases with data
files point a data key at a hostile file (tests/fuzz_templates.py: mutate_data), the rest mutate the template.
Each run is a fork of a process that has imported boardgen and loaded every game's shipped template, so the
campaign fits in minutes. Classes:

- ok: exit 0 (or 1: validate's error findings), no traceback;
- clean: exit 2 and one line naming a file and a key (or a line of the file);
- refused: a build whose validation found error-level problems, one line, exit 2, no kit (without --force);
- no key: exit 2 and one line that names no file and key;
- internal: exit 2 through the CLI's last line of defence ("unexpected error"), a bug to fix;
- traceback: anything else; hang: over the CPU or wall time limit; memory: over the 2 GB limit.

Prints one table (a row a game), the peak memory and the slowest run, and a reproducible line per failure.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from fuzz_templates import mutate, mutate_data  # noqa: E402

TIME_LIMIT_S = 60.0  # CPU seconds
WALL_LIMIT_S = 180.0
MEMORY_LIMIT = 2 * 1024**3
CLASSES = ("ok", "clean", "refused", "no key", "internal", "traceback", "hang", "memory")
_KEY = re.compile(r"""^((?:line|row) \d+(?:\.[\w-]+)?|header|\(top level\)|(?:[^\s:'"]|'[^']*'|"[^"]*")+): """)


@dataclass(frozen=True)
class Case:
    game: str
    template: str  # file name of the shipped template mutated
    seed: int
    data_key: str = ""  # a data-file case: the template key pointed at a hostile file


def classify(returncode: int | None, stderr: str, source: str) -> str:
    """The class of one run (see the module's docstring); ``source`` is the template's path."""
    if returncode is None:
        return "hang"
    lines = stderr.strip().splitlines()
    if "MemoryError" in stderr or "out of memory" in stderr:
        return "memory"
    if returncode in (0, 1) and "Traceback" not in stderr:
        return "ok"
    if returncode != 2 or len(lines) != 1 or "Traceback" in stderr:
        return "traceback"
    line = lines[0].removeprefix("boardgen: error: ")
    if "unexpected error" in line:
        return "internal"
    if line.startswith(f"{source}: validation found ") and "no kit written" in line:
        return "refused"  # a build whose validation found errors: no kit without --force
    if line.startswith(f"{source}: "):
        rest = line[len(source) + 2:]
    else:  # a data file or an extended template named first: it must be a file that exists
        named, _, rest = line.partition(": ")
        if not named or not os.path.lexists(named):
            return "no key"
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


def _set_dotted(data: dict[str, Any], key: str, value: Any) -> None:
    parts = key.split(".")
    for part in parts[:-1]:
        if not isinstance(data.get(part), dict):
            data[part] = {}
        data = data[part]
    data[parts[-1]] = value


def write_case(case: Case, text: str, data_path: Path | None, work: Path,
               gentle: bool = False) -> tuple[Path, str]:
    """The case's template (and hostile data file) in ``work``; returns (template path, what was done)."""
    from boardgen.plugin import get_game

    rng = random.Random(case.seed)
    path = work / case.template
    base = get_game(case.game).default_template().stem
    if case.data_key and data_path is not None:
        value, what = mutate_data(case.data_key.replace(".", "-"), data_path, rng, work)
        data = yaml.safe_load(text)
        _set_dotted(data, case.data_key, value)
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
        return path, f"{case.data_key}: {what}"
    path.write_text(mutate(text, rng, work, base, gentle), encoding="utf-8", errors="surrogatepass")
    return path, "gentle" if gentle else "template"


VALIDATE_GAMES_KEY = {"philanthropist": "simulate", "better-life": "simulation", "global-warming": "rules",
                      "resilience-earth": "rules", "global-wellbeing": "rules"}
"""The section holding ``validate_games`` in each shipped game's template (a build's validate stage plays that
many games; ``--command build`` lowers it to 10 through a template that extends the case)."""


def command_for(game: str, path: Path, work: Path, command: str = "validate") -> list[str]:
    """The boardgen command line of a case: ``validate`` (or ``build`` for a game without rules), or with
    ``command="build"`` a whole build of a template extending the case with 10 validation games."""
    from boardgen.plugin import get_game

    if command == "build":
        section = VALIDATE_GAMES_KEY.get(game)
        wrapper = work / "build-of-case.yaml"
        override = f"{section}: {{validate_games: 10}}\n" if section else ""
        wrapper.write_text(f"extends: {path.name}\n{override}", encoding="utf-8")
        return ["build", "-q", "-t", str(wrapper), "-o", str(work / "out")]
    if get_game(game).has_rules:
        return ["validate", "-q", "-n", "2", "-t", str(path)]
    return ["build", "-q", "-t", str(path), "-o", str(work / "out")]


def game_sources() -> dict[str, tuple[dict[str, str], dict[str, Path]]]:
    """Per installed game: its shipped templates (file name -> text) and its data files (template key -> path)."""
    from boardgen.plugin import installed_games
    from boardgen.template import load

    out: dict[str, tuple[dict[str, str], dict[str, Path]]] = {}
    for name, plugin in installed_games().items():
        default = plugin.default_template()
        texts = {default.name: default.read_text(encoding="utf-8")}
        for other in sorted(default.parent.glob("*.yaml")):
            data = yaml.safe_load(other.read_text(encoding="utf-8"))
            if other != default and isinstance(data, dict) and data.get("game") == name and "extends" not in data:
                texts[other.name] = other.read_text(encoding="utf-8")
        _plugin, config = load(default)
        data_files = {}
        for key, data_path in plugin.data_files(config).items():
            value: Any = yaml.safe_load(texts[default.name])
            for part in key.split("."):
                value = value.get(part) if isinstance(value, dict) else None
            data_files[f"{key}.file" if isinstance(value, dict) else key] = Path(data_path)  # older plug-ins
        out[name] = (texts, data_files)
    return out


def _warm(games: list[str]) -> None:
    """Import boardgen and load every game's shipped template (and the flagship's map) once, so every forked
    run starts where a run would be after its imports."""
    from boardgen import cli  # noqa: F401
    from boardgen.plugin import get_game
    from boardgen.template import load

    for name in games:
        _plugin, config = load(get_game(name).default_template())
        if name == "global-wellbeing":
            from boardgen.geomap.build import build_board

            build_board(config)


def make_cases(sources: dict[str, tuple[dict[str, str], dict[str, Path]]], count: int, seed: int,
               data: bool = True) -> list[Case]:
    """``count`` cases a game; with ``data`` a third of those of a game with data files point at a hostile one."""
    rng = random.Random(seed)
    cases = []
    for game, (texts, data_files) in sorted(sources.items()):
        names = sorted(texts)
        for i in range(count):
            data_key = rng.choice(sorted(data_files)) if data and data_files and i % 3 == 0 else ""
            cases.append(Case(game, names[i % len(names)], rng.randrange(2**32), data_key))
    return cases


@dataclass
class Result:
    case: Case
    kind: str
    seconds: float
    line: str
    peak_kb: int
    what: str


def campaign(count: int, folder: Path, seed: int = 24, jobs: int = 2, games: list[str] | None = None,
             progress: bool = False, command: str = "validate", gentle: bool = False
             ) -> tuple[dict[str, Counter[str]], list[Result], dict[str, float]]:
    """Run ``count`` cases per game; returns (class counts per game, the failures, peak memory and slowest)."""
    sources = game_sources()
    if games:
        sources = {g: sources[g] for g in games}
    _warm(sorted(sources))
    cases = make_cases(sources, count, seed, data=not gentle)
    counts: dict[str, Counter[str]] = {g: Counter() for g in sources}
    failures: list[Result] = []
    figures = {"peak_rss_mb": 0.0, "slowest_s": 0.0}
    running: dict[int, tuple[float, Path, Path, Case, str]] = {}
    queue = list(cases)
    done = 0
    # one thread: forking from a threaded process can deadlock, so the children are polled here
    while queue or running:
        while queue and len(running) < jobs:
            case = queue.pop(0)
            work = folder / f"{case.game}-{case.seed}"
            work.mkdir()
            texts, data_files = sources[case.game]
            path, what = write_case(case, texts[case.template], data_files.get(case.data_key), work, gentle)
            args = command_for(case.game, path, work, command)
            source = Path(args[args.index("-t") + 1])
            started = time.perf_counter()
            pid = os.fork()
            if pid == 0:
                _child(args, work / "stderr")
            running[pid] = (started, work, source, case, what)
        time.sleep(0.02)
        for pid in list(running):
            started, work, path, case, what = running[pid]
            ended, status, usage = os.wait4(pid, os.WNOHANG)
            timed_out = False
            if not ended:
                if time.perf_counter() - started <= WALL_LIMIT_S:
                    continue
                os.kill(pid, signal.SIGKILL)
                _, status, usage = os.wait4(pid, 0)
                timed_out = True
            del running[pid]
            cpu = usage.ru_utime + usage.ru_stime
            over_cpu = os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL) \
                and cpu >= TIME_LIMIT_S
            returncode = None if timed_out or over_cpu else os.waitstatus_to_exitcode(status)
            seconds = time.perf_counter() - started
            stderr = (work / "stderr").read_text(errors="replace") if (work / "stderr").exists() else ""
            kind = classify(returncode, stderr, str(path))
            last = stderr.strip().splitlines()[-1][:300] if stderr.strip() else f"(exit {returncode})"
            result = Result(case, kind, seconds, last, usage.ru_maxrss, what)
            counts[case.game][kind] += 1
            figures["peak_rss_mb"] = max(figures["peak_rss_mb"], usage.ru_maxrss / 1024)
            figures["slowest_s"] = max(figures["slowest_s"], seconds)
            if kind in ("ok", "clean", "refused"):
                shutil.rmtree(work, ignore_errors=True)
            else:
                failures.append(result)
            done += 1
            if progress and done % 100 == 0:
                total = sum((c for c in counts.values()), Counter())
                print(f"  {done}/{len(cases)}: {dict(total)}", file=sys.stderr, flush=True)
    return counts, failures, figures


def table(counts: dict[str, Counter[str]]) -> str:
    rows = ["| game | runs | " + " | ".join(CLASSES) + " |", "| --- " * (len(CLASSES) + 2) + "|"]
    for game, c in sorted(counts.items()):
        rows.append(f"| {game} | {sum(c.values())} | " + " | ".join(str(c.get(k, 0)) for k in CLASSES) + " |")
    total = sum(counts.values(), Counter())
    rows.append(f"| all | {sum(total.values())} | " + " | ".join(str(total.get(k, 0)) for k in CLASSES) + " |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="cases per game")
    parser.add_argument("--game", action="append", default=None, help="only this game (repeatable)")
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", type=Path, default=None, help="folder for the cases (kept for failures)")
    parser.add_argument("--command", choices=["validate", "build"], default="validate",
                        help="validate (fast), or build every case whole with 10 validation games")
    parser.add_argument("--gentle", action="store_true",
                        help="only plausible template changes (often accepted, so the whole command sees them)")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="boardgen-fuzz-"))
    folder.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    counts, failures, figures = campaign(args.count, folder, args.seed, args.jobs, args.game, progress=True,
                                         command=args.command, gentle=args.gentle)
    seconds = time.perf_counter() - started
    print(f"{args.count} cases per game through `boardgen {args.command}` in {seconds:.0f} s (cases in {folder})")
    print(table(counts))
    print(f"peak memory of one run {figures['peak_rss_mb']:.0f} MB, slowest run {figures['slowest_s']:.1f} s")
    for r in failures:
        print(f"{r.kind:<9} {r.case.game} {r.case.template} seed {r.case.seed} [{r.what}] {r.seconds:5.1f} s  {r.line}")


if __name__ == "__main__":
    main()

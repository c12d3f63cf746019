"""Fault campaign on the flagship's real kit: SIGKILL during the write phase, a full disk, concurrent builds.

    python scripts/fault_campaign.py --trials 50

Two real kits are built in memory once (the bundled template and the same with another seed), then written
over each other by subprocesses that are killed at a random write step (the BOARDGEN_FAULT hook) or at a random
moment from outside. After each kill the folder must hold one whole kit (every file matching its manifest, the
user's own file kept); the next write must leave no temporary folder behind.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

WRITER = """
import pickle, sys
from pathlib import Path
from boardgen.io import write_artifacts
write_artifacts(Path(sys.argv[1]), pickle.loads(Path(sys.argv[2]).read_bytes()))
"""
USER_FILE = ("report/results.json", b'{"mine": true}\n')


def kits(folder: Path) -> dict[str, Path]:
    from boardgen.build import manifest_artifact, run_stages
    from boardgen.plugin import BuildContext
    from boardgen.template import load

    out = {}
    _plugin, config = load(None)
    for tag, seed in (("A", config.seed), ("B", config.seed + 1)):
        ctx = BuildContext(config.model_copy(update={"seed": seed}), None, lambda m: None)
        run_stages(ctx)
        ctx.artifacts.append(manifest_artifact(ctx))
        out[tag] = folder / f"kit-{tag}.pickle"
        out[tag].write_bytes(pickle.dumps(ctx.artifacts))
        print(f"kit {tag}: {len(ctx.artifacts)} files, {sum(len(a.data) for a in ctx.artifacts) / 1e6:.1f} MB",
              flush=True)
    return out


def state(out_dir: Path, manifests: dict[bytes, str]) -> str:
    try:
        raw = (out_dir / "manifest.json").read_bytes()
        outputs = json.loads(raw)["outputs"]
    except (OSError, ValueError, KeyError):
        return "mixed (no manifest)"
    expected = set(outputs) | {"manifest.json", USER_FILE[0]}
    found = {p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*") if p.is_file()}
    if found != expected:
        return f"mixed ({len(found ^ expected)} files differ from the manifest's list)"
    for name, entry in outputs.items():
        if hashlib.sha256((out_dir / name).read_bytes()).hexdigest() != entry["sha256"]:
            return f"mixed ({name} is not the manifest's)"
    if (out_dir / USER_FILE[0]).read_bytes() != USER_FILE[1]:
        return "mixed (the user's file changed)"
    return manifests.get(raw, "unknown")


def leftovers(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.name.startswith("."))


def writer(out_dir: Path, kit: Path, fault: str | None = None) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("BOARDGEN_FAULT", None)
    if fault:
        env["BOARDGEN_FAULT"] = fault
    return subprocess.Popen([sys.executable, "-c", WRITER, str(out_dir), str(kit)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--seed", type=int, default=10)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="boardgen-faults-"))
    paths = kits(folder)
    from boardgen.io import write_artifacts

    manifests = {}
    for tag, path in paths.items():
        artifacts = pickle.loads(path.read_bytes())
        manifests[next(a.data for a in artifacts if a.path == "manifest.json")] = tag
    root = folder / "out"
    root.mkdir()
    out_dir = root / "global-wellbeing"
    write_artifacts(out_dir, pickle.loads(paths["A"].read_bytes()))
    (out_dir / "report").mkdir(exist_ok=True)
    (out_dir / USER_FILE[0]).write_bytes(USER_FILE[1])

    results: dict[str, int] = {}
    left_after_kill = left_after_next = 0
    killed = 0
    for trial in range(args.trials):
        current = state(out_dir, manifests)
        new = "B" if current == "A" else "A"
        if trial % 2 == 0:
            proc = writer(out_dir, paths[new], fault=f"kill:{rng.randint(1, 45)}")
            proc.wait(timeout=600)
        else:
            proc = writer(out_dir, paths[new])
            time.sleep(rng.uniform(0.2, 2.5))
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=600)
        killed += proc.returncode == -signal.SIGKILL
        after = state(out_dir, manifests)
        kind = "old" if after == current else "new" if after == new else after
        results[kind] = results.get(kind, 0) + 1
        left_after_kill += bool(leftovers(root))
        write_artifacts(out_dir, pickle.loads(paths[new].read_bytes()))  # the next build
        left_after_next += bool(leftovers(root))
    print(f"SIGKILL trials: {args.trials} ({killed} writers really killed mid-write): {results}; "
          f"temporary folders present right after the kill in {left_after_kill} trials, "
          f"after the next build in {left_after_next}")

    # concurrent writers
    mixed = 0
    for _ in range(10):
        procs = [writer(out_dir, paths[tag]) for tag in "AB"]
        for proc in procs:
            proc.wait(timeout=600)
        mixed += state(out_dir, manifests) not in ("A", "B")
    print(f"two writers at once, 10 trials: {mixed} inconsistent folders, leftovers {leftovers(root)}")

    # a full disk: a tmpfs with room for one kit and a half
    size = sum(len(a.data) for a in pickle.loads(paths["A"].read_bytes()))
    small = folder / "small"
    small.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={int(size * 1.5)}", "tmpfs", str(small)],
                             capture_output=True).returncode == 0
    if mounted:
        try:
            small_out = small / "global-wellbeing"
            write_artifacts(small_out, pickle.loads(paths["A"].read_bytes()))
            proc = writer(small_out, paths["B"])
            _, err = proc.communicate(timeout=600)
            lines = err.decode().strip().splitlines()
            print(f"disk full: exit {proc.returncode}, last line {lines[-1] if lines else ''!r}, "
                  f"folder now {state_without_user(small_out, manifests)}, leftovers {leftovers(small)}")
            cli = subprocess.run([sys.executable, "-m", "boardgen.cli", "build", "-q", "-o", str(small)],
                                 capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
            print(f"disk full through the CLI: exit {cli.returncode}, {len(cli.stderr.splitlines())} line(s): "
                  f"{cli.stderr.strip()!r}; folder now {state_without_user(small_out, manifests)}, "
                  f"leftovers {leftovers(small)}")
        finally:
            subprocess.run(["umount", str(small)], check=False)
    else:
        print("disk full: cannot mount a tmpfs here (skipped)")


def state_without_user(out_dir: Path, manifests: dict[bytes, str]) -> str:
    (out_dir / "report").mkdir(exist_ok=True)
    if not (out_dir / USER_FILE[0]).exists():
        (out_dir / USER_FILE[0]).write_bytes(USER_FILE[1])
    return state(out_dir, manifests)


if __name__ == "__main__":
    main()

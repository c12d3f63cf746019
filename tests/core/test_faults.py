"""Faults while a kit is written: SIGKILL at every point of the write phase, a full disk, a read-only folder,
two builds into one folder. The folder must always hold the complete old kit or the complete new one.

The kills use the testing hook of boardgen/io.py (``BOARDGEN_FAULT=kill:N`` kills the writer at its Nth write
step) in a subprocess that writes a synthetic kit, so every step of the write phase is hit in a second or two;
``-m slow`` adds whole builds killed at random moments from outside.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardgen.io import MANIFEST, Artifact, OutputError, output_lock, write_artifacts, write_atomic

REPO = Path(__file__).resolve().parents[2]
EDITION = "kit"


def generation(tag: str, n: int = 12, big: int = 0) -> list[Artifact]:
    """A synthetic kit: ``n`` files (some in sub-folders) whose bytes name the generation, plus its manifest."""
    artifacts = [Artifact(f"{'preview/' if i % 3 == 0 else ''}file-{i:02d}.txt",
                          (f"{tag} {i}\n" * (50 + i)).encode() + b"x" * big) for i in range(n)]
    manifest = {"edition": EDITION, "generation": tag,
                "outputs": {a.path: {"sha256": a.sha256, "bytes": len(a.data)} for a in artifacts}}
    return [*artifacts, Artifact(MANIFEST, json.dumps(manifest, indent=1).encode())]


def kit_state(out_dir: Path, extras: dict[str, bytes] | None = None) -> str:
    """The generation the folder holds wholly ("A", "B", ...), or "mixed: ..." / "missing"."""
    if not out_dir.is_dir():
        return "missing"
    try:
        manifest = json.loads((out_dir / MANIFEST).read_text())
    except (OSError, ValueError):
        return "mixed: no readable manifest"
    expected = set(manifest["outputs"]) | {MANIFEST} | set(extras or {})
    found = {p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*") if p.is_file() or p.is_symlink()}
    if found != expected:
        return f"mixed: files {sorted(found ^ expected)}"
    for name, entry in manifest["outputs"].items():
        if hashlib.sha256((out_dir / name).read_bytes()).hexdigest() != entry["sha256"]:
            return f"mixed: {name} differs from the manifest"
    for name, data in (extras or {}).items():
        if (out_dir / name).read_bytes() != data:
            return f"mixed: the user's {name} changed"
    return str(manifest.get("generation", "?"))


def leftovers(out_root: Path) -> list[str]:
    return sorted(p.name for p in out_root.iterdir() if p.name.startswith("."))


_WRITER = textwrap.dedent("""
    import hashlib, json, sys
    from pathlib import Path
    from boardgen.io import MANIFEST, Artifact, write_artifacts
    tag, n = sys.argv[2], int(sys.argv[3])
    arts = [Artifact(f"{'preview/' if i % 3 == 0 else ''}file-{i:02d}.txt", (f"{tag} {i}\\n" * (50 + i)).encode())
            for i in range(n)]
    manifest = {"edition": "kit", "generation": tag,
                "outputs": {a.path: {"sha256": a.sha256, "bytes": len(a.data)} for a in arts}}
    write_artifacts(Path(sys.argv[1]), [*arts, Artifact(MANIFEST, json.dumps(manifest, indent=1).encode())])
""")


def run_writer(out_dir: Path, tag: str, n: int = 12, fault: str | None = None,
               wait: bool = True) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("BOARDGEN_FAULT", None)
    if fault:
        env["BOARDGEN_FAULT"] = fault
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(out_dir), tag, str(n)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if wait:
        proc.wait(timeout=60)
    return proc


USER_FILES = {"report/results.json": b'{"games": 5}\n', "notes.txt": b"my notes\n"}


def old_kit(out_root: Path) -> Path:
    out_dir = out_root / EDITION
    write_artifacts(out_dir, generation("A", 12))
    for name, data in USER_FILES.items():
        write_atomic(out_dir / name, data)
    assert kit_state(out_dir, USER_FILES) == "A"
    return out_dir


def test_a_rebuild_keeps_user_files_and_drops_outputs_no_longer_made(tmp_path: Path) -> None:
    out_dir = old_kit(tmp_path)
    write_artifacts(out_dir, generation("B", 8))  # four files fewer
    assert kit_state(out_dir, USER_FILES) == "B"
    assert not (out_dir / "file-10.txt").exists()
    assert leftovers(tmp_path) == []


def test_sigkill_at_every_write_step_leaves_the_old_or_the_new_kit(tmp_path: Path) -> None:
    """22 steps: 13 file writes, 2 carried-over user files, the swap, the removal of the old kit (+ spares)."""
    states: dict[str, int] = {}
    steps = 0
    for n in range(1, 24):
        out_root = tmp_path / f"trial-{n}"
        out_root.mkdir()
        out_dir = old_kit(out_root)
        proc = run_writer(out_dir, "B", fault=f"kill:{n}")
        state = kit_state(out_dir, USER_FILES)
        assert state in ("A", "B"), f"kill at step {n}: {state}"
        states[state] = states.get(state, 0) + 1
        if proc.returncode == -signal.SIGKILL:
            steps = n
        write_artifacts(out_dir, generation("C", 10))  # the next build cleans what the killed one left
        assert kit_state(out_dir, USER_FILES) == "C"
        assert leftovers(out_root) == [], f"kill at step {n}"
    assert steps >= 16  # the hook really killed the writer at every step of the write phase
    assert states.get("A", 0) >= 14 and states.get("B", 0) >= 1


def test_disk_full_is_one_error_and_keeps_the_old_kit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out_dir = old_kit(tmp_path)
    for step in (1, 7, 14):
        monkeypatch.setenv("BOARDGEN_FAULT", f"enospc:{step}")
        monkeypatch.setattr("boardgen.io._fault_steps", 0)
        with pytest.raises(OutputError, match=r"no space left on the device .*the previous kit is unchanged"):
            write_artifacts(out_dir, generation("B"))
        assert kit_state(out_dir, USER_FILES) == "A"
        assert leftovers(tmp_path) == []


@contextlib.contextmanager
def tmpfs(path: Path, size: str, options: str = "") -> Iterator[Path]:
    path.mkdir()
    opts = f"size={size}" + (f",{options}" if options else "")
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(path)], capture_output=True)
    if result.returncode != 0:
        pytest.skip("this machine does not allow mounting a tmpfs")
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=False)


def test_a_really_full_disk_gives_one_line_and_the_old_kit(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "small", "400k") as root:
        out_dir = old_kit(root)
        with pytest.raises(OutputError, match="no space left on the device"):
            write_artifacts(out_dir, generation("B", big=30_000))
        assert kit_state(out_dir, USER_FILES) == "A"
        assert leftovers(root) == []


def test_a_read_only_folder_is_one_line_before_any_work(tmp_path: Path) -> None:
    out_root = tmp_path / "ro"
    out_root.mkdir()
    old_kit(out_root)
    if os.geteuid() == 0:  # root writes anywhere: make the folder read-only for real
        with tmpfs(tmp_path / "romount", "100k", "ro") as root:
            result = subprocess.run([sys.executable, "-m", "boardgen.cli", "build", "-o", str(root)],
                                    capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
            assert result.returncode == 2
            assert result.stderr.count("\n") == 1 and "read-only" in result.stderr, result.stderr
            with pytest.raises(OutputError, match="read-only"):
                write_atomic(root / "cells.csv", b"data")
    else:
        out_root.chmod(0o500)
        try:
            with pytest.raises(OutputError, match="read-only"):
                write_artifacts(out_root / EDITION, generation("B"))
        finally:
            out_root.chmod(0o700)
    assert kit_state(out_root / EDITION, USER_FILES) == "A"


def test_output_paths_that_are_not_ours_are_refused(tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    with pytest.raises(OutputError, match="it is a file"):
        write_artifacts(a_file / EDITION, generation("B"))
    with pytest.raises(OutputError, match="a part of its path is a file"):
        write_artifacts(a_file / "sub" / EDITION, generation("B"))
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="not a regular file"):
        write_atomic(fifo, b"data")
    assert fifo.exists() and not fifo.is_file()
    link = tmp_path / "link"
    link.symlink_to(a_file)
    with pytest.raises(OutputError, match="not a regular file"):
        write_atomic(link, b"data")
    assert a_file.read_text() == "x"
    # a link inside the kit is never followed: the new kit has a real folder there
    out_dir = old_kit(tmp_path / "root")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine")
    import shutil

    shutil.rmtree(out_dir / "preview")
    (out_dir / "preview").symlink_to(elsewhere)
    write_artifacts(out_dir, generation("B"))
    assert not (out_dir / "preview").is_symlink()
    assert sorted(p.name for p in elsewhere.iterdir()) == ["keep.txt"]
    assert kit_state(out_dir, USER_FILES) == "B"


def test_two_writers_into_one_folder_never_mix(tmp_path: Path) -> None:
    out_dir = old_kit(tmp_path)
    for trial in range(3):
        procs = [run_writer(out_dir, tag, n=12 + i, wait=False) for i, tag in enumerate("BC")]
        for proc in procs:
            assert proc.wait(timeout=60) == 0, proc.stderr.read() if proc.stderr else ""
        assert kit_state(out_dir, USER_FILES) in ("B", "C"), f"trial {trial}"
        assert leftovers(tmp_path) == []


def test_a_second_writer_waits_for_the_lock(tmp_path: Path) -> None:
    out_dir = old_kit(tmp_path)
    with output_lock(tmp_path):
        proc = run_writer(out_dir, "B", wait=False)
        time.sleep(1.0)
        assert proc.poll() is None  # waiting
        assert kit_state(out_dir, USER_FILES) == "A"
    assert proc.wait(timeout=30) == 0
    assert kit_state(out_dir, USER_FILES) == "B"


def test_write_atomic_disk_full_is_one_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "cells.csv"
    target.write_text("old")

    def full(fd: int, data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("boardgen.io.os.write", full)
    with pytest.raises(OutputError, match="no space left"):
        write_atomic(target, b"new")
    monkeypatch.undo()
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["cells.csv"]


def _build(out_root: Path, fault: str | None = None) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("BOARDGEN_FAULT", None)
    if fault:
        env["BOARDGEN_FAULT"] = fault
    return subprocess.Popen([sys.executable, "-m", "boardgen.cli", "build", "-q", "-o", str(out_root)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _processes_gone(marker: str, within_s: float = 5.0) -> bool:
    """Whether, within ``within_s``, no process's command line names ``marker`` (zombies aside)."""
    deadline = time.monotonic() + within_s
    while True:
        alive = []
        for entry in Path("/proc").iterdir():
            try:
                if entry.name.isdigit() and marker in (entry / "cmdline").read_bytes().decode(errors="replace") \
                        and (entry / "stat").read_text().split(") ")[1][0] != "Z":
                    alive.append(entry.name)
            except OSError:
                continue
        if not alive or time.monotonic() > deadline:
            return not alive
        time.sleep(0.1)


@pytest.mark.slow
def test_whole_builds_killed_at_random_moments(tmp_path: Path) -> None:
    """The real flagship build, killed by the hook at random write steps and from outside at random times."""
    out_dir = tmp_path / "global-wellbeing"
    assert _build(tmp_path).wait(timeout=300) == 0
    first = (out_dir / MANIFEST).read_bytes()
    (out_dir / "report").mkdir(exist_ok=True)
    (out_dir / "report" / "results.json").write_bytes(b"{}\n")
    rng = random.Random(10)
    for trial in range(6):
        if trial % 2 == 0:
            proc = _build(tmp_path, fault=f"kill:{rng.randint(1, 40)}")
        else:
            proc = _build(tmp_path)
            time.sleep(rng.uniform(0.5, 3.0))  # the build takes 2-3 s: stop it at any stage
            proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=300)
        assert _processes_gone(str(tmp_path)), trial  # a killed build leaves no worker behind
        manifest = json.loads((out_dir / MANIFEST).read_text())
        for name, entry in manifest["outputs"].items():
            assert hashlib.sha256((out_dir / name).read_bytes()).hexdigest() == entry["sha256"], (trial, name)
        assert (out_dir / "report" / "results.json").read_bytes() == b"{}\n"
    assert _build(tmp_path).wait(timeout=300) == 0
    assert (out_dir / MANIFEST).read_bytes() == first  # same template, same bytes
    assert leftovers(tmp_path) == []


@pytest.mark.slow
def test_a_whole_build_onto_a_full_disk(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "small", "3m") as root:
        proc = _build(root)
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 2
        lines = err.decode().strip().splitlines()
        assert len(lines) == 1 and "no space left on the device" in lines[0]
        assert leftovers(root) == [] and not (root / "global-wellbeing").exists()

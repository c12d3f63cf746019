"""The one module that writes files.

A kit is written all or nothing: every file goes into a fresh hidden folder beside the target
(``OUT/.<edition>.new-<random>``), files the build never makes (a ``boardgen simulate`` report, the user's
own) are linked across from the old kit, and the new folder is swapped with the old one in one atomic
``renameat2(RENAME_EXCHANGE)``. A build killed at any moment therefore leaves the complete old kit or the
complete new one; the hidden folders a killed build leaves are removed by the next build. The write phase
holds an exclusive lock on ``OUT`` (``flock`` on the folder itself, no lock file), so two builds into one
folder take turns and never mix. A single file (``cells -o``, a simulate report) is written to a temporary
file and renamed into place, and only ever replaces a regular file.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from boardgen.errors import BoardgenError

MANIFEST = "manifest.json"
LOCK_WAIT_S = 600.0
"""How long a build waits for another build writing into the same folder before it gives up."""
_STALE_WRITE = re.compile(r"^\..+\.[0-9a-f]{12}\.tmp$")  # write_atomic's temporary files (older boardgen too)


class OutputError(BoardgenError, OSError):
    """An output that cannot be written: a full disk, a read-only folder, a path that is not ours to replace."""


@dataclass(frozen=True)
class Artifact:
    """One output file, held in memory until the whole build has succeeded."""

    path: str  # relative to the edition's output folder, with forward slashes
    data: bytes
    description: str = ""
    pages: int | None = None

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


# ------------------------------------------------------------------------------------------ fault hook

_fault_steps = 0


def _fault_point() -> None:
    """Testing hook: ``BOARDGEN_FAULT=kill:N`` sends SIGKILL to this process at the Nth write step,
    ``enospc:N`` raises ENOSPC there (tests/core/test_faults.py). Unset, it costs one dictionary look-up."""
    spec = os.environ.get("BOARDGEN_FAULT")
    if not spec:
        return
    global _fault_steps
    _fault_steps += 1
    kind, _, when = spec.partition(":")
    if _fault_steps != int(when or 1):
        return
    if kind == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if kind == "enospc":
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


# ------------------------------------------------------------------------------------------ one file


def _describe_os_error(exc: OSError, path: Path) -> str:
    if exc.errno == errno.ENOSPC:
        return f"no space left on the device writing {path}"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"cannot write {path}: {exc.strerror} (a read-only or someone else's folder?)"
    if exc.errno == errno.ENAMETOOLONG:
        return f"cannot write {path}: the name is too long for the file system"
    return f"cannot write {path}: {exc.strerror or exc}"


def _write_new(path: Path, data: bytes) -> None:
    """Create ``path`` (it must not exist; never follows a link) holding ``data``."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
    try:
        view = memoryview(data)
        while view:
            _fault_point()
            written = os.write(fd, view)
            view = view[written:]
    finally:
        os.close(fd)


def check_replaceable(path: Path) -> None:
    """One line unless ``path`` is missing or a regular file (call it before the work, then write_atomic)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise OutputError(_describe_os_error(exc, path)) from None
    else:
        if not stat.S_ISREG(info.st_mode):
            raise OutputError(f"{path} exists and is not a regular file (a link, device, FIFO or folder); "
                              "boardgen replaces only files it could have written")


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new one, never half of one.
    Only a regular file (or nothing) is replaced: a device, FIFO, folder or link is refused with one line."""
    check_replaceable(path)
    tmp_name = path.parent / f".{path.name[:200]}.{secrets.token_hex(6)}.tmp"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _write_new(tmp_name, data)
        os.replace(tmp_name, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp_name.unlink(missing_ok=True)
        raise OutputError(_describe_os_error(exc, path)) from None
    except BaseException:
        with contextlib.suppress(OSError):
            tmp_name.unlink(missing_ok=True)
        raise


def write_inside(root: Path, relative: str, data: bytes) -> Path:
    """``write_atomic`` of ``root/relative`` that refuses to pass through a link or a non-folder on the way
    (a ``report -> elsewhere`` link inside the kit is never followed)."""
    target = root
    for part in Path(relative).parts[:-1]:
        target = target / part
        if target.is_symlink() or (target.exists() and not target.is_dir()):
            raise OutputError(f"{target} is a link or not a folder; boardgen writes only into real folders")
    target = root / relative
    write_atomic(target, data)
    return target


# ------------------------------------------------------------------------------------------ the whole kit


@contextlib.contextmanager
def output_lock(out_root: Path, progress: Callable[[str], None] = lambda m: None) -> Iterator[None]:
    """Hold an exclusive lock on the output folder, released when the process ends however it ends. A second
    build waits for the first, up to LOCK_WAIT_S. On POSIX the lock is flock on the folder itself; where there
    is no fcntl (Windows) it is filelock's lock on ``.boardgen.lock`` in the folder."""
    try:
        import fcntl
    except ImportError:
        fcntl = None  # type: ignore[assignment]
    if fcntl is None:
        import filelock

        lock = filelock.FileLock(str(out_root / ".boardgen.lock"))
        try:
            lock.acquire(timeout=0)
        except filelock.Timeout:
            progress(f"waiting for another boardgen writing into {out_root} ...")
            try:
                lock.acquire(timeout=LOCK_WAIT_S)
            except filelock.Timeout:
                raise OutputError(f"another boardgen has been writing into {out_root} for over "
                                  f"{LOCK_WAIT_S:.0f} s; try again when it has finished") from None
        try:
            yield
        finally:
            lock.release()
        return
    fd = os.open(out_root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            progress(f"waiting for another boardgen writing into {out_root} ...")
            deadline = time.monotonic() + LOCK_WAIT_S
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise OutputError(f"another boardgen has been writing into {out_root} for over "
                                          f"{LOCK_WAIT_S:.0f} s; try again when it has finished") from None
                    time.sleep(0.1)
        yield
    finally:
        os.close(fd)  # releases the lock


def prepare_output(out_root: Path, edition: str, create: bool = True) -> Path:
    """Check, before any work, that ``out_root/edition`` can be written: the folder exists (or is made), is a
    real folder, and is writable. Returns the edition's folder. With ``create=False`` (the check before a
    build's work) nothing is made: a missing ``out_root`` is checked through its nearest existing parent, so a
    build that fails later leaves no trace."""
    out_dir = out_root / edition
    if not create and not out_root.exists():
        parent = out_root.parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if not parent.is_dir():
            raise OutputError(f"cannot use {out_root} as the output folder: a part of its path is a file")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise OutputError(f"cannot write into {parent}: permission denied (a read-only folder?)")
        return out_dir
    try:
        out_root.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError(f"cannot use {out_root} as the output folder: it is a file") from None
    except NotADirectoryError:
        raise OutputError(f"cannot use {out_root} as the output folder: a part of its path is a file") from None
    except OSError as exc:
        raise OutputError(_describe_os_error(exc, out_root)) from None
    if not out_root.is_dir():
        raise OutputError(f"cannot use {out_root} as the output folder: it is not a folder")
    if not os.access(out_root, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write into {out_root}: permission denied (a read-only folder?)")
    if out_dir.is_symlink() or (out_dir.exists() and not out_dir.is_dir()):
        raise OutputError(f"{out_dir} is a link or not a folder; boardgen writes a kit only into a real folder")
    return out_dir


def _temporary_prefix(edition: str) -> tuple[str, str]:
    return f".{edition}.new-", f".{edition}.old-"


def clean_leftovers(out_root: Path, edition: str) -> int:
    """Remove the hidden folders a killed build left beside ``edition`` (call with the lock held). If a build
    was killed between the two renames of the fallback swap, the old kit is put back first."""
    new_prefix, old_prefix = _temporary_prefix(edition)
    out_dir = out_root / edition
    removed = 0
    leftovers = sorted(p for p in out_root.iterdir() if p.name.startswith((new_prefix, old_prefix)))
    for path in leftovers:
        if path.name.startswith(old_prefix) and not out_dir.exists() and not out_dir.is_symlink():
            os.rename(path, out_dir)  # the fallback swap was cut between its renames: restore the old kit
            continue
        _remove_tree(path)
        removed += 1
    return removed


def _remove_tree(path: Path) -> None:
    if path.is_symlink() or not path.is_dir():
        path.unlink(missing_ok=True)
    else:
        shutil.rmtree(path, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux renameat2 RENAME_EXCHANGE). False where the system cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError, TypeError):  # TypeError: Windows has no process-wide C library handle
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _carry_over(old_dir: Path, new_dir: Path, ours: set[str]) -> None:
    """Link into the new kit every file of the old one that no build made (not in the old manifest nor in this
    build): a simulate report, the user's notes. Old temporary files are dropped; links are copied as links."""
    for folder, dirs, files in os.walk(old_dir):
        rel_folder = Path(folder).relative_to(old_dir)
        for name in sorted(files) + sorted(d for d in dirs if (Path(folder) / d).is_symlink()):
            rel = (rel_folder / name).as_posix()
            source = Path(folder) / name
            if rel in ours or _STALE_WRITE.match(name):
                continue
            target = new_dir / rel
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                if source.is_symlink():
                    os.symlink(os.readlink(source), target)
                elif source.is_file():
                    try:
                        os.link(source, target)
                    except OSError:
                        shutil.copy2(source, target)
            except (FileExistsError, NotADirectoryError):
                continue  # the new kit has an output there now
            _fault_point()


def write_artifacts(out_dir: Path, artifacts: Sequence[Artifact],
                    progress: Callable[[str], None] = lambda m: None) -> list[Path]:
    """Write the kit all or nothing (see the module's docstring): the folder then holds exactly what the
    manifest lists plus the files no build made. Any failure (disk full, read-only folder) is one
    OutputError and leaves the old kit as it was."""
    out_root, edition = out_dir.parent, out_dir.name
    prepare_output(out_root, edition)
    new_prefix, old_prefix = _temporary_prefix(edition)
    with output_lock(out_root, progress):
        clean_leftovers(out_root, edition)
        token = secrets.token_hex(6)
        new_dir = out_root / f"{new_prefix}{token}"
        try:
            new_dir.mkdir()
            written = []
            for artifact in sorted(artifacts, key=lambda a: a.path == MANIFEST):  # the manifest last
                target = new_dir / artifact.path
                target.parent.mkdir(parents=True, exist_ok=True)
                _write_new(target, artifact.data)
                written.append(out_dir / artifact.path)
            if out_dir.is_dir():
                ours = _manifest_outputs(out_dir / MANIFEST) | {a.path for a in artifacts}
                _carry_over(out_dir, new_dir, ours)
            _fault_point()
            if not out_dir.exists():
                os.rename(new_dir, out_dir)
            elif _exchange(new_dir, out_dir):
                _fault_point()
                _remove_tree(new_dir)  # now the old kit
            else:  # two renames; clean_leftovers puts the old kit back if a kill falls between them
                old_dir = out_root / f"{old_prefix}{token}"
                os.rename(out_dir, old_dir)
                _fault_point()
                os.rename(new_dir, out_dir)
                _remove_tree(old_dir)
        except OSError as exc:
            _remove_tree(new_dir)
            raise OutputError(_describe_os_error(exc, out_dir) + "; the previous kit is unchanged") from None
        except BaseException:
            _remove_tree(new_dir)
            raise
    return written


def _manifest_outputs(path: Path) -> set[str]:
    try:
        outputs = json.loads(path.read_text(encoding="utf-8")).get("outputs", {})
    except (OSError, ValueError, AttributeError):
        return set()
    return {name for name in outputs if isinstance(name, str)} | {MANIFEST}


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()

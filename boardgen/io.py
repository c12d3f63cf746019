"""The one module that writes files: every output goes to a temporary file first and is renamed into place."""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

_UMASK = os.umask(0)
os.umask(_UMASK)


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


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp_name, 0o666 & ~_UMASK)  # mkstemp makes 0600; outputs are ordinary files
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


def write_artifacts(out_dir: Path, artifacts: Iterable[Artifact]) -> list[Path]:
    written = []
    for artifact in artifacts:
        target = out_dir / artifact.path
        write_atomic(target, artifact.data)
        written.append(target)
    return written


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()

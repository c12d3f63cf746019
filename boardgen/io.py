"""The one module that writes files: every output goes to a temporary file first and is renamed into place."""

from __future__ import annotations

import hashlib
import json
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

MANIFEST = "manifest.json"


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
    tmp_name = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
    # O_EXCL: never someone else's file; mode 0o666 so the user's umask decides, as for any ordinary file
    fd = os.open(tmp_name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp_name, path)
    except BaseException:
        tmp_name.unlink(missing_ok=True)
        raise


def write_artifacts(out_dir: Path, artifacts: Sequence[Artifact]) -> list[Path]:
    """Write every artifact, then remove the outputs the previous build listed in its manifest and this one
    no longer makes (e.g. a preview page that is gone), so the folder holds exactly what the manifest says.
    Files the build never made (a ``boardgen simulate`` report, the user's own) are left alone."""
    previous = _manifest_outputs(out_dir / MANIFEST)
    written = []
    for artifact in artifacts:
        target = out_dir / artifact.path
        write_atomic(target, artifact.data)
        written.append(target)
    current = {a.path for a in artifacts}
    for stale in sorted(previous - current):
        target = (out_dir / stale).resolve()
        if target.is_file() and out_dir.resolve() in target.parents:
            target.unlink()
    return written


def _manifest_outputs(path: Path) -> set[str]:
    try:
        outputs = json.loads(path.read_text(encoding="utf-8")).get("outputs", {})
    except (OSError, ValueError, AttributeError):
        return set()
    return {name for name in outputs if isinstance(name, str)} | {MANIFEST}


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()

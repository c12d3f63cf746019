"""`boardgen build`: run every stage in memory, then write all outputs at once (atomically, file by file).

A stage is a function ``(BuildContext) -> list[Artifact]``. Stages run in order and may read what earlier
stages produced (``ctx.artifacts``), e.g. the kit zip packs the PDFs. Nothing touches the output folder
until every stage has succeeded, so a failed build leaves ``build/`` as it was.
"""

from __future__ import annotations

import importlib
import json
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from boardgen import __version__
from boardgen.config import Config, resolve_data_path
from boardgen.errors import blamed_on
from boardgen.io import MANIFEST, Artifact, sha256_file, write_artifacts
from boardgen.model import Board

Progress = Callable[[str], None]


@dataclass
class BuildContext:
    config: Config
    progress: Progress = lambda message: None
    artifacts: list[Artifact] = field(default_factory=list)
    timings_s: dict[str, float] = field(default_factory=dict)

    @cached_property
    def board(self) -> Board:
        from boardgen.mapbuild import build_board

        return build_board(self.config)

    def artifact(self, path: str) -> Artifact:
        for a in self.artifacts:
            if a.path == path:
                return a
        raise KeyError(path)


# (name, "module:function") — imported lazily so `boardgen cells` does not pay for the PDF stack.
STAGES: list[tuple[str, str]] = [
    ("map", "boardgen.export:map_stage"),
    ("board", "boardgen.board_stage:board_stage"),
    ("components", "boardgen.cards.kit:components_stage"),  # after "board": the kit zips pack the board PDFs
    ("validate", "boardgen.rules.validate:validate_stage"),  # keep last: checks what the stages above made
]


def _load_stage(spec: str) -> Callable[[BuildContext], list[Artifact]]:
    module_name, func_name = spec.split(":")
    return getattr(importlib.import_module(module_name), func_name)


def run_stages(ctx: BuildContext, only: set[str] | None = None) -> list[Artifact]:
    for name, spec in STAGES:
        if only is not None and name not in only:
            continue
        started = time.perf_counter()
        ctx.progress(f"{name} ...")
        produced = _load_stage(spec)(ctx)
        ctx.artifacts.extend(produced)
        ctx.timings_s[name] = time.perf_counter() - started
        ctx.progress(f"{name}: {len(produced)} files in {ctx.timings_s[name]:.2f} s")
    return ctx.artifacts


def manifest_artifact(ctx: BuildContext) -> Artifact:
    config = ctx.config
    data_files = {}
    for key in ("land_data", "koppen_data", "elevation_data"):
        path = resolve_data_path(config, getattr(config.map, key), f"map.{key}")
        data_files[path.name] = sha256_file(path)
    import cairocffi
    import numpy
    import pyproj
    import shapely

    manifest = {
        "edition": config.edition,
        "title": config.title,
        "boardgen": __version__,
        "template": {"name": Path(config.source).name, "sha256": config.template_sha256},
        "data": dict(sorted(data_files.items())),
        "versions": {
            "python": platform.python_version(),
            "numpy": numpy.__version__,
            "shapely": shapely.__version__,
            "pyproj": pyproj.__version__,
            "proj": pyproj.proj_version_str,
            "cairo": cairocffi.cairo_version_string(),
        },
        "outputs": {a.path: {"sha256": a.sha256, "bytes": len(a.data), **({"pages": a.pages} if a.pages else {})}
                    for a in sorted(ctx.artifacts, key=lambda a: a.path)},
    }
    return Artifact(MANIFEST, (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode(),
                    "every output with its sha256, the template's and data files' hashes, versions")


def build(config: Config, out_root: Path, progress: Progress = lambda m: None,
          only: set[str] | None = None) -> tuple[Path, BuildContext]:
    ctx = BuildContext(config, progress)
    with blamed_on(config.source):
        run_stages(ctx, only)
    ctx.artifacts.append(manifest_artifact(ctx))
    out_dir = out_root / config.edition
    write_artifacts(out_dir, ctx.artifacts)
    return out_dir, ctx

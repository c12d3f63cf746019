"""`boardgen build` for any game: run the game's stages in memory, then write all outputs at once with a
manifest, all or nothing (boardgen/io.py: a new folder swapped in with one atomic rename).

A stage is a function ``(BuildContext) -> list[Artifact]`` named in the game plug-in's ``stages``. Stages run in
order and may read what earlier stages produced (``ctx.artifacts``), e.g. the kit zip packs the PDFs. Nothing
touches the output folder until every stage has succeeded, so a failed build leaves ``build/`` as it was.
"""

from __future__ import annotations

import json
import platform
import time
from pathlib import Path
from typing import Any

from boardgen import __version__
from boardgen.errors import blamed_on
from boardgen.io import MANIFEST, Artifact, prepare_output, sha256_file, write_artifacts
from boardgen.plugin import BuildContext, Progress, load_stage

__all__ = ["BuildContext", "build", "manifest_artifact", "run_stages"]


def run_stages(ctx: BuildContext, only: set[str] | None = None) -> list[Artifact]:
    for name, spec in ctx.plugin.stages:
        if only is not None and name not in only:
            continue
        started = time.perf_counter()
        ctx.progress(f"{name} ...")
        produced = load_stage(spec)(ctx)
        ctx.artifacts.extend(produced)
        ctx.timings_s[name] = time.perf_counter() - started
        ctx.progress(f"{name}: {len(produced)} files in {ctx.timings_s[name]:.2f} s")
    return ctx.artifacts


def manifest_artifact(ctx: BuildContext) -> Artifact:
    config = ctx.config
    data_files = {path.name: sha256_file(path) for path in ctx.plugin.data_files(config).values()}
    import cairocffi
    import numpy
    import pyproj
    import shapely

    manifest: dict[str, Any] = {
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
    if ctx.plugin.name != "global-wellbeing":  # the flagship's manifest keeps its original keys
        manifest = {"game": ctx.plugin.name, **manifest}
    return Artifact(MANIFEST, (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode(),
                    "every output with its sha256, the template's and data files' hashes, versions")


def build(config: Any, out_root: Path, progress: Progress = lambda m: None,
          only: set[str] | None = None) -> tuple[Path, BuildContext]:
    out_dir = prepare_output(out_root, config.edition)  # a folder we cannot write fails before the work
    ctx = BuildContext(config, None, progress)
    with blamed_on(config.source):
        run_stages(ctx, only)
    ctx.artifacts.append(manifest_artifact(ctx))
    write_artifacts(out_dir, ctx.artifacts, progress)
    return out_dir, ctx

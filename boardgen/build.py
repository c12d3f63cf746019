"""`boardgen build` for any game: run the game's stages in memory, then write all outputs at once with a
manifest, all or nothing (boardgen/io.py: a new folder swapped in with one atomic rename).

A stage is a function ``(BuildContext) -> list[Artifact]`` named in the game plug-in's ``stages``. Stages run in
order and may read what earlier stages produced (``ctx.artifacts``), e.g. the kit zip packs the PDFs. Nothing
touches the output folder until every stage has succeeded, so a failed build leaves ``build/`` as it was.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import platform
import time
import traceback
from pathlib import Path
from typing import Any

from boardgen import __version__
from boardgen.errors import BoardgenError, blamed_on
from boardgen.io import MANIFEST, Artifact, prepare_output, sha256_file, write_artifacts
from boardgen.plugin import BuildContext, Progress, load_stage

__all__ = ["BuildContext", "build", "manifest_artifact", "run_stages"]


def _run_stage(ctx: BuildContext, name: str, spec: str) -> list[Artifact]:
    started = time.perf_counter()
    ctx.progress(f"{name} ...")
    produced = load_stage(spec)(ctx)
    ctx.timings_s[name] = time.perf_counter() - started
    ctx.progress(f"{name}: {len(produced)} files in {ctx.timings_s[name]:.2f} s")
    return produced


def _child(connection: Any, ctx: BuildContext, name: str, spec: str) -> None:
    """A background stage in a forked process: send back its artifacts, or the error it raised."""
    ctx.progress = lambda message: None  # the parent reports this stage's start and end
    try:
        produced = _run_stage(ctx, name, spec)
        connection.send(("ok", produced, ctx.timings_s[name]))
    except BoardgenError as exc:
        connection.send(("user-error", type(exc).__name__, str(exc)))
    except BaseException:
        connection.send(("crash", traceback.format_exc(), 0.0))
    finally:
        connection.close()


class _Background:
    """A stage running in a forked process (``("name", "module:function", "background")`` in a plug-in's
    stages): it starts once the stages before it are done and its artifacts join the build's at the end, in
    the stage's own place, so outputs do not depend on whether it ran in the background."""

    def __init__(self, ctx: BuildContext, name: str, spec: str) -> None:
        context = multiprocessing.get_context("fork")
        self.name = name
        self.receive, send = context.Pipe(duplex=False)
        self.process = context.Process(target=_child, args=(send, ctx, name, spec), daemon=True)
        self.process.start()
        send.close()

    def result(self, ctx: BuildContext) -> list[Artifact]:
        try:
            message = self.receive.recv()
        except EOFError:
            message = ("crash", f"the {self.name} stage's process ended without a result", 0.0)
        finally:
            self.process.join()
        if message[0] == "user-error":
            raise BoardgenError(message[2])
        if message[0] == "crash":
            raise RuntimeError(f"stage {self.name} failed in its process:\n{message[1]}")
        ctx.timings_s[self.name] = message[2]
        return list(message[1])


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods() and os.environ.get("BOARDGEN_SERIAL_STAGES") != "1"


def run_stages(ctx: BuildContext, only: set[str] | None = None) -> list[Artifact]:
    background: list[tuple[int, _Background]] = []
    try:
        for entry in ctx.plugin.stages:
            name, spec, *options = entry
            if only is not None and name not in only:
                continue
            if "background" in options and _can_fork():
                ctx.progress(f"{name} ... (in the background)")
                background.append((len(ctx.artifacts), _Background(ctx, name, spec)))
                continue
            ctx.artifacts.extend(_run_stage(ctx, name, spec))
        for position, job in reversed(background):  # from the last, so earlier positions stay right
            produced = job.result(ctx)
            ctx.artifacts[position:position] = produced
            ctx.progress(f"{job.name}: {len(produced)} files in {ctx.timings_s[job.name]:.2f} s (background)")
    finally:
        for _position, job in background:
            if job.process.is_alive():
                job.process.kill()
                job.process.join()
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
    out_dir = prepare_output(out_root, config.edition, create=False)  # an unwritable folder fails before the work
    ctx = BuildContext(config, None, progress)
    with blamed_on(config.source):
        run_stages(ctx, only)
    ctx.artifacts.append(manifest_artifact(ctx))
    write_artifacts(out_dir, ctx.artifacts, progress)
    return out_dir, ctx

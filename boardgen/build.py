"""`boardgen build` for any game: run the game's stages in memory, then write all outputs at once with a
manifest, all or nothing (boardgen/io.py: a new folder swapped in with one atomic rename).

A stage is a function ``(BuildContext) -> list[Artifact]`` named in the game plug-in's ``stages``. Stages run in
order and may read what earlier stages produced (``ctx.artifacts``), e.g. the kit zip packs the PDFs; stages
marked "parallel" run side by side on worker processes (see ``boardgen.plugin.StageSpec`` and the parallel
groups below). Nothing touches the output folder until every stage has succeeded, so a failed build leaves
``build/`` as it was.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import pickle
import platform
import time
import traceback
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from boardgen import __version__
from boardgen.errors import BoardgenError, blamed_on
from boardgen.io import MANIFEST, Artifact, prepare_output, sha256_file, write_artifacts
from boardgen.plugin import BuildContext, Progress, load_stage

__all__ = ["BuildContext", "build", "default_jobs", "manifest_artifact", "run_stages"]


def _run_stage(ctx: BuildContext, name: str, spec: str) -> list[Artifact]:
    started = time.perf_counter()
    ctx.progress(f"{name} ...")
    from boardgen.i18n import printing_in, translator

    with printing_in(translator(ctx.config, ctx.plugin)):  # the shared machinery prints the edition's words
        produced = load_stage(spec)(ctx)
    ctx.timings_s[name] = time.perf_counter() - started
    ctx.progress(f"{name}: {len(produced)} files in {ctx.timings_s[name]:.2f} s")
    return produced


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def default_jobs() -> int:
    """How many processes a build's parallel stages use unless told: every core, or one when
    ``BOARDGEN_SERIAL_STAGES=1``."""
    return 1 if os.environ.get("BOARDGEN_SERIAL_STAGES") == "1" else _cores()


# ------------------------------------------------------------------------------------------ parallel groups
# Consecutive stages marked "parallel" run side by side (``boardgen.play.pool.run_tasks``: this process and a
# standard ProcessPoolExecutor's workers). The board, which they all read, is made first, here. The workers take
# the stages in the order listed, each free one the next (list the longest first); this process, once it has
# imported what the stages after the group and the manifest need, takes from the end of the list those no worker
# has started. Every worker is a forked copy of this process as it was when the group started; like this
# process, it computes what else its stages read on first use, and keeps it for its next stage. When the board is
# still to be made and the disk cache can pass it on (``_workers_start_early``), the workers are forked before it
# is made and meanwhile do what their first stages need that does not depend on it (``_warm_up_worker``: the
# validation's compiled kernel, the stages' modules); they then read the board, and what this process placed on
# it, from the cache. The group's artifacts, times and kept values join the build in the listed order, whoever
# ran them, so outputs do not depend on how many processes ran which stage. Where processes cannot be forked the
# stages run here, one after another.

_Entry = tuple[str, ...]
_Made = tuple[list[Artifact], float, dict[str, Any]]  # a stage's artifacts, seconds and the values it kept
_GROUP: tuple[BuildContext, list[_Entry]] | None = None  # the running group, as its forked workers find it


def _stage_in_worker(index: int) -> tuple[str, Any, list[str]]:
    """Stage ``index`` of the running group, in a worker or this process: ("ok", (artifacts, seconds, kept
    values), the progress it would have printed), ("user-error", (message, the error if it pickles), lines) or
    ("crash", traceback, lines)."""
    assert _GROUP is not None
    ctx, group = _GROUP
    said: list[str] = []
    progress, ctx.progress = ctx.progress, said.append
    name, spec = group[index][:2]
    try:
        before = set(ctx.kept)
        produced = _run_stage(ctx, name, spec)
        return "ok", (produced, ctx.timings_s[name], {k: ctx.computed[k] for k in ctx.kept - before}), said
    except BoardgenError as exc:
        return "user-error", (str(exc), _portable(exc)), said
    except Exception:
        return "crash", traceback.format_exc(), said
    finally:
        ctx.progress = progress  # (the build's own, when this process ran the stage)


def _portable(exc: BoardgenError) -> BoardgenError | None:
    """``exc`` if it survives pickling (so the parent raises the same kind of error), else None."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return None
    return exc


def _preload(ctx: BuildContext, later: list[_Entry]) -> None:
    """Import what the stages after a parallel group and the manifest need, while the workers run: a module
    only a worker imported would otherwise be imported after the group, with the other cores idle."""
    for _name, spec, *_options in later:
        load_stage(spec)
    for where in {**CORE_LIBRARIES, **ctx.plugin.libraries}.values():
        importlib.import_module(where.split(":")[0])


def _before_the_stages(ctx: BuildContext) -> None:
    """Here, before a group's stages are handed out: import pikepdf, which render.cairo_backend imports only when
    it first writes a PDF (a simulate never does), and make the game's board (or read it from the cache). The
    stages of a group all read the board, and each process building its own would build it as many times
    (seconds of CPU each when the board cache is cold). A game with no board has nothing to make."""
    from boardgen.render.cairo_backend import preload_pdf_writer

    preload_pdf_writer()
    with contextlib.suppress(NotImplementedError):
        ctx.board  # noqa: B018


def _workers_start_early(ctx: BuildContext) -> bool:
    """Whether the workers fork before the board is made (``_warm_up_worker``), rather than after, inheriting it.
    They do when a process that did not make the board can read it back from the disk cache (``GeoMap.
    board_from_cache``), the cache is on and can be written, and the board is still to be made (not in this
    build's context, nor in the cache: ``GeoMap.board_cached``). Otherwise each worker would make the board
    again, or (a rebuild that reads the map back) there is no wait to use, and loading the validation's kernel
    would likely be wasted, its games being read back too. When they do fork early, the modules that reading the
    board back imports (``GeoMap.board_modules``) are imported here first, for the workers to inherit."""
    from boardgen.cache import writable

    geo = ctx.plugin.geo
    if ("board" in ctx.computed or geo is None or not geo.board_from_cache or not writable()
            or geo.board_cached(ctx.config)):
        return False
    for module in geo.board_modules:
        importlib.import_module(module)
    return True


def _warm_up_worker(index: int) -> None:
    """The ``index``-th worker's first task when the workers fork before the board is made: what stage ``index``
    of the group (the stage a worker is handed ``index``-th) needs that does not depend on the board, done while
    this process makes the board. It imports pikepdf and the stage's module, reads the default faces' characters
    (``typeset.preload_fonts``) and, for the validation, loads the game's compiled kernel (about 0.3 s on the
    flagship) if the validation's games will go through it. Any error
    is left for the stage itself to meet and report."""
    assert _GROUP is not None
    ctx, group = _GROUP
    with contextlib.suppress(Exception):  # the stage does this work again and says what is wrong
        from boardgen.play.runner import VALIDATE_STAGE, prepare_validation
        from boardgen.render.cairo_backend import preload_pdf_writer
        from boardgen.render.typeset import preload_fonts

        preload_pdf_writer()
        preload_fonts()
        if index < len(group):
            spec = group[index][1]
            load_stage(spec)
            if spec == VALIDATE_STAGE:
                prepare_validation(ctx)


def _run_group(ctx: BuildContext, group: list[_Entry], later: list[_Entry], jobs: int) -> list[Artifact]:
    from boardgen.play.pool import fork_available, run_tasks  # not at the top: the CLI imports this at start-up

    if min(jobs, len(group)) < 2 or not fork_available():
        return [a for name, spec, *_options in group for a in _run_stage(ctx, name, spec)]
    made: dict[int, _Made] = {}

    def collect(index: int, message: tuple[str, Any, list[str]]) -> None:
        status, result, said = message
        for line in said:
            ctx.progress(line)
        if status == "user-error":
            raise result[1] or BoardgenError(result[0])
        if status == "crash":
            raise RuntimeError(f"a stage failed in its process:\n{result}")
        made[index] = result

    early = _workers_start_early(ctx)
    global _GROUP
    _GROUP = (ctx, group)
    try:
        run_tasks(_stage_in_worker, len(group), jobs, collect, lambda: _preload(ctx, later),
                  before_tasks=lambda: _before_the_stages(ctx), warm_up=_warm_up_worker if early else None)
    finally:
        _GROUP = None
    out: list[Artifact] = []
    for index, (name, *_rest) in enumerate(group):  # artifacts, times and kept values in the listed order
        produced, seconds, kept = made[index]
        for key, value in kept.items():
            ctx.keep(key, value)
        ctx.timings_s.pop(name, None)
        ctx.timings_s[name] = seconds
        out.extend(produced)
    return out


def run_stages(ctx: BuildContext, only: set[str] | None = None, jobs: int | None = None) -> list[Artifact]:
    """Run the game's stages (those named in ``only``, else all) into ``ctx.artifacts``; a group of "parallel"
    stages on up to ``jobs`` processes (default: ``default_jobs()``), with the same outputs for any number."""
    jobs = default_jobs() if jobs is None else jobs
    entries = [tuple(e) for e in ctx.plugin.stages if only is None or e[0] in only]
    position = 0
    while position < len(entries):
        name, spec, *options = entries[position]
        if "parallel" in options:
            end = position
            while end < len(entries) and "parallel" in entries[end][2:]:
                end += 1
            ctx.artifacts.extend(_run_group(ctx, entries[position:end], entries[end:], jobs))
            position = end
            continue
        position += 1
        ctx.artifacts.extend(_run_stage(ctx, name, spec))
    return ctx.artifacts


CORE_LIBRARIES: Mapping[str, str] = {"numpy": "numpy:__version__", "shapely": "shapely:__version__"}
"""The libraries every game's outputs go through (shapes, page layout), as ``GamePlugin.libraries`` names them."""


def library_versions(libraries: Mapping[str, str]) -> dict[str, str]:
    """{name: version} of ``libraries`` ({name: "module:attribute"}), in their order."""
    versions = {}
    for name, where in libraries.items():
        module, attribute = where.split(":")
        versions[name] = str(getattr(importlib.import_module(module), attribute))
    return versions


def manifest_artifact(ctx: BuildContext) -> Artifact:
    """The kit's manifest: the game, the template's and data files' hashes, the versions of what made the outputs
    (Python, the core's libraries, the game's own ``libraries``, cairo) and every output's hash, size and pages."""
    config = ctx.config
    data_files = {path.name: sha256_file(path) for path in ctx.plugin.data_files(config).values()}
    from boardgen.render import cairo_lib

    manifest: dict[str, Any] = {
        "game": ctx.plugin.name,
        "edition": config.edition,
        "title": config.title,
        "boardgen": __version__,
        "template": {"name": Path(config.source).name, "sha256": config.template_sha256},
        "data": dict(sorted(data_files.items())),
        "versions": {
            "python": platform.python_version(),
            **library_versions({**CORE_LIBRARIES, **ctx.plugin.libraries}),
            "cairo": cairo_lib.version_string(),
        },
        "outputs": {a.path: {"sha256": a.sha256, "bytes": len(a.data), **({"pages": a.pages} if a.pages else {})}
                    for a in sorted(ctx.artifacts, key=lambda a: a.path)},
    }
    language = getattr(config, "language", "en")
    if language != "en":  # an English manifest keeps its keys (and bytes)
        manifest = {**manifest, "language": language}
    return Artifact(MANIFEST, (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode(),
                    "every output with its sha256, the template's and data files' hashes, versions")


class ValidationRefusedError(BoardgenError):
    """A build whose validation found error-level findings, refused because ``force`` was not given."""


VALIDATION_REPORT = "report/validation.json"


def validation_errors(artifacts: list[Artifact]) -> tuple[int, str]:
    """(error-level findings, the first one as "rule at where") in the build's validation report, if any."""
    report = next((a for a in artifacts if a.path == VALIDATION_REPORT), None)
    if report is None:
        return 0, ""
    findings = [f for f in json.loads(report.data).get("findings", []) if f.get("severity") == "error"]
    first = f"{findings[0].get('rule', '?')} at {findings[0].get('where', '?')}" if findings else ""
    return len(findings), first


BUILD_GC_THRESHOLDS = (50_000, 50, 50)
"""The garbage collector's thresholds while a build's stages run (CPython's default is 700, 10, 10). A build
makes millions of short-lived objects (scenes, path commands, geometries) among a few hundred thousand
long-lived ones (the libraries' modules, the board), and at the default thresholds it collects about 1,300
times, 8 of them over every object: about 0.4 s of CPU, a tenth of the flagship's build, for garbage that plain
reference counting frees anyway. Measured on the flagship's serial build: 4.3 s of CPU at the default, 3.85 s at
these thresholds, 3.8 s with no collection at all; peak memory 311 MB, 313 MB and 316 MB."""


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the block with ``BUILD_GC_THRESHOLDS`` (forked workers inherit them), the caller's thresholds restored
    after: `boardgen serve` (``serve.preview.build_kit``) and the tests build many times in one process. A caller
    that has turned automatic collection off (a first threshold of 0) keeps it off."""
    before = gc.get_threshold()
    if before[0] == 0:
        yield
        return
    gc.set_threshold(*BUILD_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def build(config: Any, out_root: Path, progress: Progress = lambda m: None,
          only: set[str] | None = None, force: bool = False, jobs: int | None = None) -> tuple[Path, BuildContext]:
    """Run the game's stages (parallel ones on up to ``jobs`` processes, see ``run_stages``) and write the kit
    all or nothing. A validation with error-level findings writes no kit (ValidationRefusedError) unless
    ``force``."""
    out_dir = prepare_output(out_root, config.edition, create=False)  # an unwritable folder fails before the work
    ctx = BuildContext(config, None, progress)
    with blamed_on(config.source), fewer_collections():
        run_stages(ctx, only, jobs)
    errors, first = validation_errors(ctx.artifacts)
    if errors and not force:
        raise ValidationRefusedError(f"{config.source}: validation found {errors} error-level finding"
                                f"{'s' if errors != 1 else ''} (first: {first}); no kit written to {out_dir} "
                                "(see `boardgen validate`; `boardgen build --force` writes it anyway)")
    if errors:
        progress(f"validation found {errors} error-level findings; writing the kit anyway (--force)")
    ctx.artifacts.append(manifest_artifact(ctx))
    write_artifacts(out_dir, ctx.artifacts, progress)
    return out_dir, ctx

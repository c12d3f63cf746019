"""`boardgen build` for any game: run the game's stages in memory, then write all outputs at once with a
manifest, all or nothing (boardgen/io.py: a new folder swapped in with one atomic rename).

A stage is a function ``(BuildContext) -> list[Artifact]`` named in the game plug-in's ``stages``. Stages run in
order and may read what earlier stages produced (``ctx.artifacts``), e.g. the kit zip packs the PDFs; stages
marked "parallel" run side by side in forked processes (see ``boardgen.plugin.StageSpec``). Nothing
touches the output folder until every stage has succeeded, so a failed build leaves ``build/`` as it was.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import multiprocessing
import os
import pickle
import platform
import threading
import time
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from boardgen import __version__
from boardgen.cache import dumps
from boardgen.errors import BoardgenError, blamed_on
from boardgen.io import MANIFEST, Artifact, prepare_output, sha256_file, write_artifacts
from boardgen.plugin import BuildContext, Progress, load_stage

__all__ = ["BuildContext", "build", "manifest_artifact", "run_stages"]


def _run_stage(ctx: BuildContext, name: str, spec: str) -> list[Artifact]:
    started = time.perf_counter()
    ctx.progress(f"{name} ...")
    from boardgen.i18n import printing_in, translator

    with printing_in(translator(ctx.config, ctx.plugin)):  # the shared machinery prints the edition's words
        produced = load_stage(spec)(ctx)
    ctx.timings_s[name] = time.perf_counter() - started
    ctx.progress(f"{name}: {len(produced)} files in {ctx.timings_s[name]:.2f} s")
    return produced


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods() and os.environ.get("BOARDGEN_SERIAL_STAGES") != "1"


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


# ------------------------------------------------------------------------------------------ parallel groups
# Consecutive stages marked "parallel" run side by side: the parent and one forked worker per further core take
# the group's stages in the order listed, each claiming the next unclaimed one when it is free (list the longest
# first). A worker keeps what it made until it has no stage left to claim, then sends it all back at once (a
# worker blocked on a full pipe could claim nothing more). The group's artifacts, times and kept values join the
# build in the listed order, whoever ran them, so outputs do not depend on who ran what.
#
# Stages also marked "board-only" read nothing prepare_stages makes: when a group has some, the workers are forked
# as soon as the board is built and claim those first, while the parent runs prepare_stages; the parent then sends
# the values it prepared to every worker (pickled as the cache pickles them, geometries with their precision grid)
# and everyone claims the other stages. A worker with no board-only stage left waits for those values. The
# group's stage modules are imported before that fork (preparing imports most of them anyway), so once.

_Entry = tuple[str, ...]
_MANIFEST_MODULES = ("numpy", "pyproj", "shapely")


def _claim(counter: Any, count: int) -> int | None:
    with counter.get_lock():
        index = int(counter.value)
        if index >= count:
            return None
        counter.value = index + 1
    return index


def _claim_and_run(ctx: BuildContext, group: list[_Entry], queue: list[int], counter: Any,
                   made: dict[int, tuple[list[Artifact], float, dict[str, Any]]],
                   stop: Any = lambda: False) -> None:
    """Claim the stages of ``queue`` (indices into ``group``) through ``counter`` and run them, until none is
    left or ``stop()``: made[index] = (artifacts, seconds, the values they kept)."""
    while not stop() and (claimed := _claim(counter, len(queue))) is not None:
        index = queue[claimed]
        name, spec = group[index][:2]
        before = set(ctx.kept)
        produced = _run_stage(ctx, name, spec)
        made[index] = (produced, ctx.timings_s[name], {k: ctx.computed[k] for k in ctx.kept - before})


def _worker(connection: Any, prepared: Any, ctx: BuildContext, group: list[_Entry], queues: list[list[int]],
            counters: list[Any], parent_pid: int, parent_ends: list[Any]) -> None:
    """A forked worker of a parallel group: run claimed stages (the board-only queue first, then, with the values
    the parent prepared read from ``prepared`` if it is not None, the others), then send [(index, artifacts,
    seconds, kept values)] and the progress it would have printed, or the error that stopped it. It ends with
    the parent, and closes the parent's ends of the pipes it inherited."""
    from boardgen.play.pool import end_with_parent  # not at the top: the CLI imports this module at start-up

    end_with_parent(parent_pid)
    for end in parent_ends:
        end.close()
    said: list[str] = []
    ctx.progress = said.append
    done: dict[int, tuple[list[Artifact], float, dict[str, Any]]] = {}
    try:
        for k, (queue, counter) in enumerate(zip(queues, counters, strict=True)):
            if k == 1 and prepared is not None:
                ctx.computed.update(pickle.loads(prepared.recv_bytes()))
            _claim_and_run(ctx, group, queue, counter, done)
        connection.send(("ok", [(index, *value) for index, value in done.items()], said))
    except BoardgenError as exc:
        connection.send(("user-error", str(exc), said, _portable(exc)))
    except BaseException:
        connection.send(("crash", traceback.format_exc(), said))
    finally:
        connection.close()


def _portable(exc: BoardgenError) -> BoardgenError | None:
    """``exc`` if it survives pickling (so the parent raises the same kind of error), else None."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return None
    return exc


def _preload(ctx: BuildContext, later: list[_Entry]) -> None:
    """Import what the stages after a parallel group and the manifest need, while the workers run: a module
    only a worker imported would otherwise be imported again after the group, with the other core idle."""
    for _name, spec, *_options in later:
        load_stage(spec)
    for module in _MANIFEST_MODULES:
        importlib.import_module(module)


def _prepare(ctx: BuildContext) -> None:
    started = time.perf_counter()
    ctx.plugin.fast.prepare_stages(ctx)
    ctx.timings_s["prepare"] = ctx.timings_s.get("prepare", 0.0) + time.perf_counter() - started


def _send_quietly(connection: Any, data: bytes) -> None:
    """Send ``data`` to a worker; one that has ended (its error is reported by ``_collect``) gets nothing."""
    with contextlib.suppress(OSError):
        connection.send_bytes(data)


def _message_from(receive: Any) -> tuple[Any, ...]:
    try:
        return receive.recv()  # type: ignore[no-any-return]
    except EOFError:
        return ("crash", "a stage process ended without a result", [])


def _a_worker_failed(children: list[tuple[Any, Any, Any]], received: dict[int, tuple[Any, ...]]) -> bool:
    """Whether a worker has sent its error (what any worker has sent is kept in ``received``): the parent then
    claims no more stages, so a refused build stops at once, not when the parent has run out of stages."""
    for k, (receive, _prepared, _process) in enumerate(children):
        if k not in received and receive.poll():
            received[k] = _message_from(receive)
    return any(message[0] != "ok" for message in received.values())


def _collect(ctx: BuildContext, children: list[tuple[Any, Any, Any]],
             made: dict[int, tuple[list[Artifact], float, dict[str, Any]]],
             received: dict[int, tuple[Any, ...]]) -> None:
    """Wait for the workers' results (or take those already ``received``) and add them to ``made``."""
    for k, (receive, _prepared, process) in enumerate(children):
        message = received[k] if k in received else _message_from(receive)
        process.join()
        for line in message[2]:
            ctx.progress(line)
        if message[0] == "user-error":
            raise message[3] or BoardgenError(message[1])
        if message[0] == "crash":
            raise RuntimeError(f"a stage failed in its process:\n{message[1]}")
        for index, produced, seconds, kept in message[1]:
            made[index] = (produced, seconds, kept)


def _run_group(ctx: BuildContext, group: list[_Entry], later: list[_Entry]) -> list[Artifact]:
    workers = min(len(group), _cores()) if _can_fork() else 1
    fork_first = workers > 1 and ctx.plugin.fast.fork_first(ctx)
    early = [i for i, entry in enumerate(group) if "board-only" in entry[2:]] if workers > 1 and not fork_first \
        else []
    others = [i for i in range(len(group)) if i not in early]
    overlap = bool(early and others)  # else one queue, prepared before the fork (or after it, fork_first)
    if overlap:
        started = time.perf_counter()
        ctx.board  # noqa: B018  # built (or read from the cache) before the fork, so every process shares it
        for _name, spec, *_options in group:  # imported once, shared by the workers (preparing needs most anyway)
            load_stage(spec)
        ctx.timings_s["prepare"] = ctx.timings_s.get("prepare", 0.0) + time.perf_counter() - started
    else:
        if not fork_first:
            _prepare(ctx)
        early, others = [], list(range(len(group)))
    if workers < 2:
        return [a for name, spec, *_options in group for a in _run_stage(ctx, name, spec)]
    # pikepdf: render.cairo_backend imports it only when it first writes a PDF (a simulate never does);
    # imported here, once, rather than again in every worker
    from boardgen.render.cairo_backend import preload_pdf_writer

    preload_pdf_writer()
    context = multiprocessing.get_context("fork")
    queues = [early, others]
    counters = [context.Value("i", 0), context.Value("i", 0)]
    children: list[tuple[Any, Any, Any]] = []
    made: dict[int, tuple[list[Artifact], float, dict[str, Any]]] = {}
    sending: list[threading.Thread] = []
    received: dict[int, tuple[Any, ...]] = {}  # what each worker sent, once read
    gc.freeze()  # what is there now is shared with the workers: no process's collector walks (or copies) it
    try:
        for _ in range(workers - 1):
            receive, send = context.Pipe(duplex=False)
            values_in, values_out = context.Pipe(duplex=False) if overlap else (None, None)
            parent_ends = [receive, *([values_out] if values_out is not None else []),
                           *(end for child in children for end in child[:2] if end is not None)]
            process = context.Process(target=_worker, daemon=True, args=(
                send, values_in, ctx, group, queues, counters, os.getpid(), parent_ends))
            process.start()
            send.close()
            if values_in is not None:
                values_in.close()  # the worker's end: a send to a worker that ended fails rather than hangs
            children.append((receive, values_out, process))
        if fork_first:  # the workers read what they need themselves; this process prepares for its own stages
            _prepare(ctx)
        if overlap:
            before = set(ctx.computed)
            _prepare(ctx)
            prepared = dumps({k: v for k, v in ctx.computed.items() if k not in before})
            for _receive, values_out, _process in children:  # a busy worker reads them later: never wait for it
                sending.append(threading.Thread(target=_send_quietly, args=(values_out, prepared), daemon=True))
                sending[-1].start()
        _preload(ctx, later)
        for queue, counter in zip(queues, counters, strict=True):
            _claim_and_run(ctx, group, queue, counter, made, lambda: _a_worker_failed(children, received))
        theirs: dict[int, tuple[list[Artifact], float, dict[str, Any]]] = {}
        _collect(ctx, children, theirs, received)
    finally:
        gc.unfreeze()
        for _receive, _values_out, process in children:
            if process.is_alive():
                process.kill()
                process.join()
        for thread in sending:
            thread.join()
    for index in sorted(theirs):  # the values the workers' stages kept, in the listed order
        for key, value in theirs[index][2].items():
            ctx.keep(key, value)
    made.update(theirs)
    out: list[Artifact] = []
    for index, (name, *_rest) in enumerate(group):
        produced, seconds, _kept = made[index]
        ctx.timings_s.pop(name, None)
        ctx.timings_s[name] = seconds  # in the listed order
        out.extend(produced)
    return out


def run_stages(ctx: BuildContext, only: set[str] | None = None) -> list[Artifact]:
    entries = [tuple(e) for e in ctx.plugin.stages if only is None or e[0] in only]
    position = 0
    while position < len(entries):
        name, spec, *options = entries[position]
        if "parallel" in options:
            end = position
            while end < len(entries) and "parallel" in entries[end][2:]:
                end += 1
            ctx.artifacts.extend(_run_group(ctx, entries[position:end], entries[end:]))
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


def build(config: Any, out_root: Path, progress: Progress = lambda m: None,
          only: set[str] | None = None, force: bool = False) -> tuple[Path, BuildContext]:
    """Run the game's stages and write the kit all or nothing. A validation with error-level findings writes no
    kit (ValidationRefusedError) unless ``force``."""
    out_dir = prepare_output(out_root, config.edition, create=False)  # an unwritable folder fails before the work
    ctx = BuildContext(config, None, progress)
    with blamed_on(config.source):
        run_stages(ctx, only)
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

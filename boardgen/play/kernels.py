"""Where compiled (numba) kernels keep their machine code, and the decorator that compiles a kernel's functions.

A kernel module decorates its functions with ``compiled(__file__, *other_sources)``: numba compiles each on first
call and keeps the machine code on disk (``cache=True``) in a folder of boardgen's cache (``BOARDGEN_CACHE_DIR``
or the user cache directory) under ``numba/``, named after the kernel's source files and numba's version. A kernel
that calls another module's compiled functions (``boardgen.play.kernel_random``) names that module's file too:
numba inlines the callee into the caller's cached code but checks only the caller's own file for changes, so the
folder name is what keeps a changed callee from meeting stale code. ``NUMBA_CACHE_DIR`` overrides the folder.

Importing this module does not import numba; ``compiled`` does.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from hashlib import sha256
from pathlib import Path
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


@functools.cache
def _numba_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("numba")
    except PackageNotFoundError:
        return "none"


def numba_cache_dir(*sources: str | Path) -> Path:
    """The folder numba caches the kernel made of ``sources`` in (``NUMBA_CACHE_DIR`` if set)."""
    override = os.environ.get("NUMBA_CACHE_DIR")
    if override:
        return Path(override)
    from boardgen.cache import cache_dir

    digest = sha256()
    for source in sources:
        path = Path(source)
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    name = Path(sources[0]).stem if sources else "kernel"
    return cache_dir() / "numba" / f"{name}-{digest.hexdigest()[:16]}-numba{_numba_version()}"


def compiled(*sources: str | Path, **options: Any) -> Callable[[F], F]:
    """A decorator: ``numba.njit(cache=True, **options)`` with the machine code cached in
    ``numba_cache_dir(*sources)`` (numba reads its cache folder as a function is decorated, so it is set for that
    moment only and other kernels keep theirs)."""
    import numba

    folder = str(numba_cache_dir(*sources))

    def decorate(function: F) -> F:
        before = numba.config.CACHE_DIR  # type: ignore[attr-defined]
        numba.config.CACHE_DIR = folder  # type: ignore[attr-defined]
        try:
            return numba.njit(cache=True, **options)(function)  # type: ignore[no-any-return]
        finally:
            numba.config.CACHE_DIR = before  # type: ignore[attr-defined]

    return decorate


__all__ = ["compiled", "numba_cache_dir"]

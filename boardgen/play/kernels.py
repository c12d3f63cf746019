"""Where compiled (numba) kernels keep their machine code, and the decorator that compiles a kernel's functions.

A kernel module decorates its functions with ``compiled(__file__, *other_sources)``: numba compiles each on first
call and keeps the machine code on disk (``cache=True``) in a folder of boardgen's cache (``BOARDGEN_CACHE_DIR``
or the user cache directory) under ``numba/``, named after the kernel's source files and numba's version. A kernel
that calls another module's compiled functions (``boardgen.play.kernel_random``) names that module's file too:
numba inlines the callee into the caller's cached code but checks only the caller's own file for changes, so the
folder name is what keeps a changed callee from meeting stale code. ``NUMBA_CACHE_DIR`` overrides the folder.

Which path plays a game's batch is chosen by ``BOARDGEN_ENGINE`` (the flagship's ``rules.fast`` reads the same
variable): ``reference`` (the rules API, always), ``kernel`` (the kernel whenever it plays the game) or
``auto``/unset: the kernel once enough games have been asked for in this process to pay for loading it
(:class:`KernelLoader`).

Importing this module does not import numba; ``compiled`` and ``KernelLoader.load`` do.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from hashlib import sha256
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
ENGINE_ENV = "BOARDGEN_ENGINE"
ENGINES = ("auto", "kernel", "reference")


def engine_setting() -> str:
    """``BOARDGEN_ENGINE``: auto (unset), kernel or reference."""
    value = os.environ.get(ENGINE_ENV, "").strip().lower() or "auto"
    if value not in ENGINES:
        raise ValueError(f"{ENGINE_ENV}={value!r}: expected one of {', '.join(ENGINES)}")
    return value


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


class KernelLoader:
    """A game's compiled kernel module, imported (its machine code loaded from the disk cache, or compiled) the
    first time a batch goes through it. ``wanted(games)`` says whether the next ``games`` games should: in auto
    mode only once the games asked for in this process cost the API path more than loading the kernel
    (``load_cost_games`` API games when the cache holds it, ``compile_cost_games`` when it must compile), so that
    ``simulate --games 1`` never pays for numba."""

    def __init__(self, module: str, sources: tuple[Path, ...], load_cost_games: float,
                 compile_cost_games: float) -> None:
        self.module_name = module
        self.sources = sources
        self.load_cost_games = load_cost_games
        self.compile_cost_games = compile_cost_games
        self.module: ModuleType | None = None
        self.failed = ""
        self.asked = 0.0

    def _marker(self) -> Path:
        return numba_cache_dir(*self.sources) / "compiled"

    def cached(self) -> bool:
        """Whether a run has compiled the kernel into its cache folder before."""
        try:
            return self._marker().is_file()
        except OSError:
            return False

    def mark_compiled(self) -> None:
        marker = self._marker()
        if marker.is_file():
            return
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.write_text(f"numba has compiled {self.module_name} into this folder\n")
        except OSError:
            pass  # a read-only cache: every run compiles; auto mode keeps to the API for small runs

    def load(self) -> ModuleType | None:
        """The kernel module, or None when numba cannot be imported (the reason in ``failed``)."""
        if self.module is not None or self.failed:
            return self.module
        try:
            import importlib

            self.module = importlib.import_module(self.module_name)
        except ImportError as error:
            self.failed = f"numba is not available ({type(error).__name__}: {error})"
        return self.module

    def wanted(self, games: float) -> bool:
        """Whether ``games`` more games (in API-game equivalents) go through the kernel."""
        setting = engine_setting()
        if setting == "reference":
            return False
        if setting == "auto" and self.module is None:
            self.asked += games
            if self.asked < (self.load_cost_games if self.cached() else self.compile_cost_games):
                return False
        if self.load() is None:
            if setting == "kernel":
                raise RuntimeError(f"{ENGINE_ENV}=kernel, but {self.failed}")
            return False
        return True


__all__ = ["ENGINES", "ENGINE_ENV", "KernelLoader", "compiled", "engine_setting", "numba_cache_dir"]

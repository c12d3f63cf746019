"""Shared fixtures: the real default board is built once per test session."""

from __future__ import annotations

import pytest

from boardgen.build import BuildContext
from boardgen.config import Config, load_template
from boardgen.model import Board


@pytest.fixture(scope="session")
def default_config() -> Config:
    return load_template()


@pytest.fixture(scope="session")
def default_board(default_config: Config) -> Board:
    from boardgen.mapbuild import build_board

    return build_board(default_config)


@pytest.fixture(scope="session")
def default_ctx(default_config: Config, default_board: Board) -> BuildContext:
    """A build context for the default template whose board is the session's ``default_board``."""
    context = BuildContext(default_config)
    context.__dict__["board"] = default_board
    return context


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: whole builds and fuzz campaigns, run before a release "
                            "(`pytest -m slow`); skipped otherwise")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with `pytest -m slow`")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)

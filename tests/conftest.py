"""Shared fixtures: the real default board is built once per test session."""

from __future__ import annotations

import pytest

from boardgen.config import Config, load_template
from boardgen.model import Board


@pytest.fixture(scope="session")
def default_config() -> Config:
    return load_template()


@pytest.fixture(scope="session")
def default_board(default_config: Config) -> Board:
    from boardgen.mapbuild import build_board

    return build_board(default_config)

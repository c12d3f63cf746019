"""The errors boardgen raises on purpose; the CLI turns each into one line and exit code 2."""

from __future__ import annotations


class BoardgenError(Exception):
    """Anything a user can fix: bad template, missing data, impossible request."""


class ConfigError(BoardgenError, ValueError):
    """A template that does not describe a buildable edition."""

    def __init__(self, source: str, key: str, message: str) -> None:
        self.source = source
        self.key = key
        self.message = message
        where = f"{source}: {key}: " if key else f"{source}: "
        super().__init__(where + message)


class DataError(BoardgenError, OSError):
    """A source data file that is missing, unreadable or fails its checks."""


class LayoutError(BoardgenError):
    """A board that cannot be laid out as the template asks (e.g. sections that cannot be cut)."""

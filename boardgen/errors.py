"""The errors boardgen raises on purpose; the CLI turns each into one line and exit code 2."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


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


_LAYOUT_KEYS = (("board sections: ", "sections"), ("board section ", "sections"), ("board legend: ", "board"),
                ("board: ", "board"))


@contextmanager
def blamed_on(source: str) -> Iterator[None]:
    """Turn a LayoutError raised deep in the layout code into a ConfigError that names the template file and
    the template section whose values could not be laid out (``sections`` or ``board``)."""
    try:
        yield
    except LayoutError as exc:
        message = str(exc)
        if message.startswith(f"{source}: "):
            raise
        for prefix, key in _LAYOUT_KEYS:
            if message.startswith(prefix):
                detail = message if prefix == "board section " else message[len(prefix):]
                raise ConfigError(source, key, detail) from None
        raise ConfigError(source, "", message) from None

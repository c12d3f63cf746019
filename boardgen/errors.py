"""The errors boardgen raises on purpose; the CLI turns each into one line and exit code 2."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

MAX_MESSAGE_CHARS = 600
"""An error is one line: longer messages are cut (a template value can be megabytes long)."""
_UNPRINTABLE = re.compile("[\\x00-\\x1f\\x7f-\\x9f\\ud800-\\udfff]")


def one_line(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` as one printable line of at most ``limit`` characters (control characters and lone surrogates
    escaped, so the message can always be printed)."""
    text = _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape", "backslashreplace").decode("ascii")
                            if ord(m.group()) < 0xD800 else f"\\u{ord(m.group()):04x}", text)
    return text if len(text) <= limit else f"{text[:limit - 30]}... ({len(text):,} characters)"


class BoardgenError(Exception):
    """Anything a user can fix: bad template, missing data, impossible request."""


class ConfigError(BoardgenError, ValueError):
    """A template that does not describe a buildable edition."""

    def __init__(self, source: str, key: str, message: str) -> None:
        self.source = source
        self.key = key
        self.message = message
        key_text = one_line(key, 10**6)
        key_text = key_text if len(key_text) <= 120 else key_text[:117] + "..."  # a key stays one word
        where = f"{one_line(source, 200)}: {key_text}: " if key else f"{one_line(source, 200)}: "
        super().__init__(where + one_line(message))


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

"""The one reader of the data files a template names (card CSVs, deck rows in YAML): where such a file may lie,
and the guarantees the template reader gives, for every game.

Where: a data path is written relative to the template's folder and must stay inside it (or inside the game's
bundled data folder, the fallback for the shipped decks): an absolute path elsewhere, a ``..`` that climbs out,
or a link that leads out is refused with one line, so a template cannot make boardgen read ``/proc/self/environ`` or a
user's private files.

What: a regular file (no FIFO, device, folder: opened without blocking and checked before reading) of at most
``MAX_DATA_FILE_BYTES``; UTF-8 text (a byte-order mark is allowed; any other encoding is refused, and the
message says UTF-8 was expected and where the first bad byte is); no control characters, lone surrogates or
Unicode noncharacters (tab and line breaks apart); a CSV with at most ``MAX_CSV_ROWS`` rows and fields of at
most ``MAX_CSV_FIELD_CHARS`` characters. Every refusal is one ConfigError naming the file and the line (or the
template key), and no message quotes the file's contents: a line, a column number or a byte offset says where.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from boardgen.errors import ConfigError
from boardgen.yaml_reader import (
    _FORBIDDEN_CHARS,
    TemplateLoader,
    _TemplateError,
    forbidden_kind,
    read_bounded,
    short_repr,
)

MAX_DATA_FILE_BYTES = 2_000_000
"""A card or deck file larger than this (2 MB; the shipped ones are under 10 KB) is refused before it is read."""
MAX_CSV_ROWS = 5_000
"""Rows of one card file (a deck of 5,000 different cards is far past any printed game)."""
MAX_CSV_FIELD_CHARS = 4_000
"""Characters in one CSV field (a card's text fits in a few hundred)."""
MAX_PATH_CHARS = 1_024


def locate(name: object, source: str, key: str, bundled: Sequence[Path] = (), what: str = "data file",
           folder: Path | None = None) -> Path:
    """The file a template's ``key`` names: ``name`` relative to the template's folder (``folder``, default the
    folder of ``source``), else to each of the ``bundled`` folders; it must lie inside the folder it is found in
    (see the module's docstring)."""
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_PATH_CHARS or "\x00" in name:
        raise ConfigError(source, key, f"expected the path of a {what} relative to the template's folder, got "
                          f"{short_repr(name)}")
    path = Path(name)
    bases = [folder if folder is not None else Path(source).parent, *bundled]
    if path.is_absolute():  # allowed when it names a file inside one of the folders
        try:
            found = path.resolve()
            roots = [base.resolve() for base in bases]
        except (OSError, RuntimeError, ValueError):
            raise ConfigError(source, key, f"cannot follow the {what} path {short_repr(name)}") from None
        if not any(found.is_relative_to(root) for root in roots):
            raise ConfigError(source, key, f"{what} {short_repr(name)} lies outside the template's folder; "
                              "expected a path relative to that folder (copy the file beside the template)")
        if os.path.lexists(found):
            return found
    for base in bases:
        candidate = base / path
        try:
            if not os.path.lexists(candidate):
                continue
            root = base.resolve()
            found = candidate.resolve()
        except (OSError, RuntimeError, ValueError):  # a loop of links, a name too long for the file system
            raise ConfigError(source, key, f"cannot follow the {what} path {short_repr(name)}") from None
        if not found.is_relative_to(root):
            raise ConfigError(source, key, f"{what} {short_repr(name)} leads outside the template's folder (by "
                              "'..' or a link); expected a file in that folder or below it")
        return found
    looked = "the template's folder" + (" and boardgen's bundled data" if bundled else "")
    raise ConfigError(source, key, f"{what} {short_repr(name)} not found (looked in {looked})")


def read_text(path: Path, source: str, key: str, what: str = "data file",
              limit: int = MAX_DATA_FILE_BYTES) -> str:
    """The text of a data file with every guarantee of the module's docstring but the CSV ones. Opening and
    size problems name the template (``source``, ``key``); problems inside the file name the file and line."""
    raw = read_bounded(path, limit, source, key, what)
    shown = str(path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ConfigError(shown, f"line {line}", f"byte 0x{raw[exc.start]:02X} at offset {exc.start:,} is not "
                          "UTF-8; expected UTF-8 text (save the file as UTF-8, e.g. not Latin-1 or UTF-16)") from None
    bad = _FORBIDDEN_CHARS.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        column = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise ConfigError(shown, f"line {line}", f"column {column} holds the {forbidden_kind(bad.group())} "
                          f"U+{ord(bad.group()):04X}; expected printable text")
    return text


def read_csv(path: Path, source: str, key: str, what: str = "card file",
             columns: Sequence[str] = ()) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    """(header, [(line number, row)]) of a CSV data file with a header row; ``columns`` must all be in the
    header. Values are stripped; a cell beyond the header is an error (a stray comma)."""
    text = read_text(path, source, key, what)
    shown = str(path)
    reader = csv.reader(io.StringIO(text, newline=""))
    rows: list[tuple[int, dict[str, str]]] = []
    header: list[str] | None = None
    try:
        for record in reader:
            line = reader.line_num
            long = next((i for i, cell in enumerate(record) if len(cell) > MAX_CSV_FIELD_CHARS), None)
            if long is not None:
                raise ConfigError(shown, f"line {line}", f"field {long + 1} holds {len(record[long]):,} characters; "
                                  f"expected at most {MAX_CSV_FIELD_CHARS:,}")
            if header is None:
                header = [cell.strip() for cell in record]
                if len(set(header)) != len(header):
                    raise ConfigError(shown, "header", "a column name appears twice; expected each once")
                continue
            if not any(cell.strip() for cell in record):
                continue  # a blank line
            if len(record) > len(header):
                raise ConfigError(shown, f"line {line}", f"{len(record)} fields but the header names "
                                  f"{len(header)} columns (a stray comma, or a text that needs quotes)")
            if len(rows) >= MAX_CSV_ROWS:
                raise ConfigError(shown, f"line {line}", f"more than {MAX_CSV_ROWS:,} rows; expected fewer")
            rows.append((line, {h: cell.strip() for h, cell in zip(header, record, strict=False)}))
    except csv.Error as exc:  # its messages never quote the file
        if "field limit" in str(exc):
            raise ConfigError(shown, f"line {reader.line_num}", f"a field of more than {csv.field_size_limit():,} "
                              f"characters; expected at most {MAX_CSV_FIELD_CHARS:,}") from None
        raise ConfigError(shown, f"line {reader.line_num}", f"not valid CSV ({exc})") from None
    if header is None:
        raise ConfigError(shown, "header", "the file is empty; expected a header row naming the columns")
    missing = [c for c in columns if c not in header]
    if missing:
        raise ConfigError(shown, "header", f"no column {missing[0]!r}; expected the columns {', '.join(columns)}")
    return header, rows


def read_yaml_rows(path: Path, source: str, key: str, what: str = "card file") -> list[Any]:
    """A YAML data file holding a list, read with the template reader's bounds (size, nesting, aliases)."""
    text = read_text(path, source, key, what)
    shown = str(path)
    try:
        loader = TemplateLoader(text)
        try:
            data = loader.get_single_data()
        finally:
            loader.dispose()
    except _TemplateError as exc:
        raise ConfigError(shown, f"line {exc.line}" if exc.line else "(top level)", exc.message) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ConfigError(shown, f"line {mark.line + 1}" if mark is not None else "(top level)",
                          "not valid YAML") from None
    except (ValueError, OverflowError, RecursionError):
        raise ConfigError(shown, "(top level)", "not a usable YAML value") from None
    if data is None:
        return []
    if not isinstance(data, list):
        raise ConfigError(shown, "(top level)", "expected a YAML list of rows (mappings of column: value)")
    return data

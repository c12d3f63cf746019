"""The template reader every game shares: a YAML file read with bounds (size, nesting, expanded aliases, digits,
duplicate keys, forbidden characters), ``extends`` resolved and merged, lengths with units parsed, and the
folders the package's templates and data travel in. No game is named here: a game validates the mapping this
returns with its own pydantic model (boardgen/schema.py, boardgen/template.py).
"""

from __future__ import annotations

import math
import os
import re
import stat
from pathlib import Path
from typing import Any

import yaml

from boardgen.errors import ConfigError

_UNIT_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72.0}
_LENGTH_RE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*$")


def parse_length_mm(value: object) -> float:
    """``"66cm"`` -> 660.0; a bare number is millimetres. Raises ValueError otherwise."""
    if isinstance(value, bool):
        raise ValueError("a length")
    if isinstance(value, int | float):
        if not math.isfinite(value):
            raise ValueError("a finite length")
        return float(value)
    if isinstance(value, str):
        match = _LENGTH_RE.match(value)
        if match:
            return float(match.group(1)) * _UNIT_MM[match.group(2) or "mm"]
    raise ValueError('a length such as "66cm", "3mm" or "0.5in"')


def _shown_key(key: Any) -> str:
    """A key as a message shows it: quoted when it holds spaces, colons or quotes ("rules.'turns '")."""
    return str(key) if re.fullmatch(r"[^\s:'\"]+", str(key)) else repr(key)


shown_key = _shown_key

# ------------------------------------------------------------------------------------------ loading

PACKAGE_DIR = Path(__file__).resolve().parent


def _resource_dir(name: str) -> Path:
    """A data folder that travels with the package (wheel) or sits beside it (checkout, editable install)."""
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    return PACKAGE_DIR.parent / name


def data_dir() -> Path:
    return _resource_dir("naturalearth")


def templates_dir() -> Path:
    return _resource_dir("templates")


MAX_TEMPLATE_BYTES = 1_000_000
"""A template file larger than this (1 MB, ~150 times the flagship) is refused before it is parsed."""
MAX_TEMPLATE_NODES = 100_000
"""Values in a template once every alias is expanded (stops "billion laughs" alias bombs)."""
MAX_TEMPLATE_DEPTH = 50
"""Lists/mappings nested deeper than this are refused while parsing (no RecursionError anywhere later)."""
MAX_DATA_BYTES = 200_000_000
"""A data file (land, Köppen, elevation) larger than this is refused: the shipped ones are under 1 MB."""
MAX_EXTENDS_DEPTH = 16
"""``extends`` chains longer than this are refused."""
_SHORT_REPR = 60


def short_repr(value: Any, limit: int = _SHORT_REPR) -> str:
    """``repr`` for messages that never grows with the value: containers by type and size, long texts cut."""
    if isinstance(value, dict):
        return f"a mapping of {len(value)} keys"
    if isinstance(value, list | tuple | set):
        return f"a list of {len(value)} items"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a {value.bit_length()}-bit number"
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit - 3]}... ({len(text):,} characters)"


def _node_count(root: yaml.Node) -> int:
    """Values in the document with every alias expanded, counted without expanding (memoised by node);
    a value that contains itself (``&a [*a]``) counts as unbounded."""
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    open_nodes: set[int] = set()
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            children = _children(node)
            sizes[key] = min(1 + sum(sizes[id(c)] for c in children), MAX_TEMPLATE_NODES + 1)
            open_nodes.discard(key)
            continue
        if key in sizes:
            continue
        if key in open_nodes:
            return MAX_TEMPLATE_NODES + 1  # a cycle: infinitely many values
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in _children(node) if id(c) not in sizes)
    return sizes[id(root)]


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


class _TemplateError(Exception):
    """Raised inside the loader; _read_yaml turns it into a ConfigError naming the file and line."""

    def __init__(self, line: int | None, message: str, key: str = "") -> None:
        super().__init__(message)
        self.line = line
        self.message = message
        self.key = key


class TemplateLoader(yaml.SafeLoader):
    """PyYAML's safe loader with bounds: nesting depth counted while composing (before the recursion can get
    deep), the expanded size checked before constructing, and duplicate keys refused."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_TEMPLATE_DEPTH:
                mark = self.peek_event().start_mark
                raise _TemplateError(mark.line + 1, f"lists or mappings nested more than {MAX_TEMPLATE_DEPTH} "
                                                    "deep; expected a flatter template")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_document(self, node: Any) -> Any:
        count = _node_count(node)
        if count > MAX_TEMPLATE_NODES:
            where, key = node, ""
            if isinstance(node, yaml.MappingNode) and node.value:  # name the top-level key that holds the most
                where = max(node.value, key=lambda pair: _node_count(pair[1]))[0]
                key = str(where.value) if isinstance(where, yaml.ScalarNode) else ""
            raise _TemplateError(where.start_mark.line + 1, key=key, message=
                                 f"more than {MAX_TEMPLATE_NODES:,} values once its aliases are expanded "
                                 "(an alias bomb, or a value that contains itself); expected a plain template")
        return super().construct_document(node)

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge" or not isinstance(key_node, yaml.ScalarNode):
                    continue
                key = self.construct_object(key_node)
                try:
                    if key in seen:
                        raise _TemplateError(key_node.start_mark.line + 1,
                                             f"key {short_repr(key)} appears twice in one mapping (first on line "
                                             f"{seen[key]}); expected each key once")
                    seen[key] = key_node.start_mark.line + 1
                except TypeError:
                    continue  # an unhashable key: PyYAML's own check reports it
        return super().construct_mapping(node, deep=deep)


def _construct_int(loader: TemplateLoader, node: yaml.ScalarNode) -> Any:
    if len(str(node.value)) > 40:  # Python refuses to parse past 4,300 digits; no template number needs 40
        raise _TemplateError(node.start_mark.line + 1, f"a whole number of {len(str(node.value)):,} digits; "
                                                       "expected at most 40")
    return loader.construct_yaml_int(node)


TemplateLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)

_NONCHARACTERS = "\ufdd0-\ufdef" + "".join(f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}"
                                            for plane in range(17))
_FORBIDDEN_CHARS = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff{_NONCHARACTERS}]")
"""Characters no template or data-file text may hold: C0/C1 controls (tab and line breaks apart), lone surrogates
(not UTF-8) and Unicode noncharacters (U+FDD0-U+FDEF, U+FFFE, U+FFFF and their like in every plane: cairo and PDF
text refuse them)."""


def forbidden_kind(char: str) -> str:
    """What a character ``_FORBIDDEN_CHARS`` matches is, in words."""
    return "Unicode noncharacter" if ord(char) >= 0xFDD0 else "control character or lone surrogate"


def _check_text(data: Any, source: str, key: str = "") -> None:
    """No control characters (they would reach the PDFs and CSV headers) nor lone surrogates (not UTF-8) in
    any key or text of the template."""
    if isinstance(data, str):
        bad = _FORBIDDEN_CHARS.search(data)
        if bad:
            raise ConfigError(source, key or "(top level)",
                              f"text holds the {forbidden_kind(bad.group())} U+{ord(bad.group()):04X}; "
                              "expected printable text")
    elif isinstance(data, dict):
        for k, v in data.items():
            dotted = f"{key}.{k}" if key else str(k)
            _check_text(k, source, dotted if not isinstance(k, str) else _safe_key(key, k))
            _check_text(v, source, _safe_key(key, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            _check_text(v, source, f"{key}[{i}]")


def _safe_key(prefix: str, key: Any) -> str:
    text = _FORBIDDEN_CHARS.sub("?", str(key))
    return f"{prefix}.{text}" if prefix else text


def _read_yaml(template_path: Path) -> tuple[Any, bytes]:
    source = str(template_path)
    raw = read_bounded(template_path, MAX_TEMPLATE_BYTES, source, "", "template")
    try:
        loader = TemplateLoader(raw)
        try:
            data = loader.get_single_data()
        finally:
            loader.dispose()
    except _TemplateError as exc:
        raise ConfigError(source, exc.key or (f"line {exc.line}" if exc.line else ""), exc.message) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(source, where, f"not valid YAML ({getattr(exc, 'problem', None) or exc})") from None
    except (ValueError, OverflowError) as exc:  # e.g. an integer of more than 4,300 digits
        raise ConfigError(source, "", f"not a usable YAML value ({short_repr(str(exc), 120)})") from None
    except RecursionError:  # pragma: no cover - the depth limit comes first
        raise ConfigError(source, "", "nested too deep") from None
    _check_text(data, source)
    return data, raw


def read_bounded(path: Path, limit: int, source: str, key: str, what: str) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; a FIFO, device, folder, missing or bigger file is
    a one-line ConfigError (opened without blocking, so a FIFO cannot hang the read)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise ConfigError(source, key, f"{what} file not found") from None
    except OSError as exc:
        raise ConfigError(source, key, f"cannot read {what} ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(source, key, f"{what} {short_repr(str(path))} is not a regular file")
        if info.st_size > limit:
            raise ConfigError(source, key, f"{what} file is {info.st_size:,} bytes; expected at most {limit:,}")
        chunks = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise ConfigError(source, key, f"{what} file is over {limit:,} bytes")
        return b"".join(chunks)
    except OSError as exc:
        raise ConfigError(source, key, f"cannot read {what} ({exc.strerror})") from None
    finally:
        os.close(fd)


def _deep_merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """Mappings merge key by key; any other value replaces the base's; ``null`` removes the base's key
    (e.g. ``zones: {Mountains: null}`` drops a zone of the template extended)."""
    merged = dict(base)
    for key, value in override.items():
        if value is None:
            merged.pop(key, None)
        elif isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _resolve_extends(data: Any, template_path: Path, seen: tuple[Path, ...]) -> tuple[Any, bytes]:
    """``extends: NAME`` (a bundled template) or ``extends: path.yaml`` (relative to this file): this template
    is that one with this file's keys merged over it, mapping by mapping."""
    if not isinstance(data, dict) or "extends" not in data:
        return data, b""
    source = str(template_path)
    name = data.pop("extends")
    if not isinstance(name, str) or not name or len(name) > 1024 or "\x00" in name:
        raise ConfigError(source, "extends", f"expected a template name or path, got {short_repr(name)}")
    candidates = [template_path.parent / name, templates_dir() / name, templates_dir() / f"{name}.yaml"]
    base_path = next((c.resolve() for c in candidates if _is_file(c)), None)
    if base_path is None:
        raise ConfigError(source, "extends", f"no template {short_repr(name)} beside this file or in {templates_dir()}")
    if base_path in seen:
        chain = " -> ".join(p.name for p in (*seen, base_path))
        raise ConfigError(source, "extends", f"templates extend each other in a circle ({short_repr(chain, 200)})")
    if len(seen) > MAX_EXTENDS_DEPTH:
        raise ConfigError(source, "extends", f"more than {MAX_EXTENDS_DEPTH} templates extend one another; "
                          "expected a shorter extends chain")
    base_data, base_raw = _read_yaml(base_path)
    if not isinstance(base_data, dict):
        what = "is empty" if base_data is None else f"holds {short_repr(base_data)}"
        raise ConfigError(source, "extends", f"the template extended, {base_path}, {what}; "
                          "expected a YAML mapping of template keys")
    base_data, grand_raw = _resolve_extends(base_data, base_path, (*seen, base_path))
    return _deep_merge(base_data, data), grand_raw + base_raw


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long for the file system, or otherwise impossible
        return False



def read_template_file(template_path: Path) -> tuple[Any, bytes]:
    """A template file's mapping with every template it ``extends`` merged under it, and the bytes of them all
    (the extended ones first): what a game's model validates and what the template's sha256 is taken over."""
    data, raw = _read_yaml(template_path)
    data, base_raw = _resolve_extends(data, template_path, (template_path.resolve(),))
    return data, base_raw + raw


read_yaml = _read_yaml
resolve_extends = _resolve_extends
deep_merge = _deep_merge
FORBIDDEN_CHARS = _FORBIDDEN_CHARS

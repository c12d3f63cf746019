"""Mutated templates for the fuzz test (tests/conformance/test_fuzz.py) and the campaign (scripts/fuzz_campaign.py).

A mutation starts from a shipped template and deletes a key, gives a key a wrong/huge/tiny/odd value, adds an
unknown key, or injects raw YAML (alias bombs, self-reference, deep nesting, tags, duplicate keys, an extends
chain or cycle). ``mutate(template_text, rng)`` is driven by a ``random.Random`` so both Hypothesis (through a
seed) and the campaign can use it, and a failure is reproduced from its seed alone.
"""

from __future__ import annotations

import math
import random
import re
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
SHIPPED = sorted((REPO / "templates").glob("*.yaml"))

ODD_STRINGS = [
    "", " ", "auto", "1e30cm", "1.0e+30", "0.05mm", "-3mm", "0mm", "5000cm", "nan", "inf", "-inf", "#zzzzzz",
    "#FFFFFF", "+proj=utm +zone=33", "+proj=stere +lat_0=90", "+proj=aeqd", "+proj=ortho", "+proj=merc",
    "EPSG:4326", "+proj=nonsense", "\u00e9t\u00e9 \u2603 \U0001f600", "\ud800", "a\x00b", "bell\x07", "line\nbreak",
    "x" * 5000, "../../../etc/passwd", "/dev/zero", "koppen-5m.png", "elevation-5m.png", "land-50m.json",
    "global-wellbeing", "pointy", "flat", "complex", "simple", "Polar", "Arid", "A1", "ZZ99", "\u202eevil",
    "title \ufffe", "\U0010ffff", "\ufdd0", "huge", "5000x5000", "0x0", "5m", "-22mm", "0.0001mm", "mcts", "collecter",
    "/proc/self/environ",
]
ODD_NUMBERS: list[Any] = [
    0, -1, 1, 2, 3, 5, 10, 12, 100, 1000, 5000, 10**6, 10**9, 2**63, 10**30, -(10**30), 0.0, -0.0, 1e-9, 0.05, 0.5,
    0.999, 1.0, 1.5, 1e30, -1e30, 1e308, math.inf, -math.inf, math.nan, True, False, None,
    -1000, 20_000, 10**18, 1e-300, -1e308, 36,
]
RAW_SNIPPETS = [
    "[&a [lol, lol, lol, lol, lol, lol, lol, lol, lol], &b [*a, *a, *a, *a, *a, *a, *a, *a, *a], "
    "&c [*b, *b, *b, *b, *b, *b, *b, *b, *b], &d [*c, *c, *c, *c, *c, *c, *c, *c, *c], "
    "&e [*d, *d, *d, *d, *d, *d, *d, *d, *d], &f [*e, *e, *e, *e, *e, *e, *e, *e, *e], "
    "&g [*f, *f, *f, *f, *f, *f, *f, *f, *f]]",
    "&self [*self]",
    "&m {k: *m}",
    "[" * 200 + "]" * 200,
    "{a: " * 120 + "1" + "}" * 120,
    "!!binary aGVsbG8=",
    "!!set {a, b}",
    "!!timestamp 2001-12-14",
    "!!python/object/apply:os.system [echo hi]",
    "!custom thing",
    "*undefined",
    "!!float 1e999",
    "!!int '12'",
    "9" * 5000,
    "[1, 2, 3, 4]",
    "{unexpected: mapping}",
    "|\n    multi\n    line",
]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*prefix, i)))
    return out


def _set(data: Any, path: tuple[Any, ...], value: Any, delete: bool = False) -> None:
    for part in path[:-1]:
        data = data[part]
    if delete:
        del data[path[-1]]
    else:
        data[path[-1]] = value


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


_LENGTH = re.compile(r"^(-?\d+(?:\.\d+)?)(mm|cm|in|pt)$")


def _nudged(value: Any, rng: random.Random) -> Any:
    """A plausible change: a number or length scaled by a factor from 0.1 to 10 (often still a valid template,
    so the map and build stages see it); other values get an odd value."""
    factor = rng.choice([0.1, 0.5, 0.8, 0.9, 1.1, 1.25, 2, 3, 10])
    if isinstance(value, bool) or value is None:
        return not value
    if isinstance(value, int):
        return max(0, round(value * factor))
    if isinstance(value, float):
        return round(value * factor, 4)
    if isinstance(value, str) and _LENGTH.match(value):
        number, unit = _LENGTH.match(value).groups()  # type: ignore[union-attr]
        return f"{float(number) * factor:g}{unit}"
    return _odd_value(rng)


def _odd_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if roll < 0.35:
        return rng.choice(ODD_NUMBERS)
    if roll < 0.7:
        return rng.choice(ODD_STRINGS)
    if roll < 0.8 and depth < 2:
        return [_odd_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if roll < 0.9 and depth < 2:
        return {rng.choice(["a", "colour", "die", "zone", "x"]): _odd_value(rng, depth + 1)
                for _ in range(rng.randint(0, 3))}
    return rng.uniform(-1e6, 1e6) if rng.random() < 0.5 else rng.randint(-(10**6), 10**6)


def mutate(text: str, rng: random.Random, folder: Path | None = None, base: str = "global-wellbeing",
           gentle: bool = False) -> str:
    """One to three mutations of the template ``text``; extends chains/cycles write their extra files into
    ``folder`` (where the mutated template will be written); a chain ends at the bundled template ``base``.
    ``gentle``: only plausible changes (numbers and lengths scaled by 0.1 to 10, an odd value for other keys),
    which a template often accepts, so the whole build sees them."""
    data = yaml.safe_load(text)
    raws: list[str] = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        paths = _paths(data)
        path = rng.choice(paths)
        kind = rng.random() if not gentle else 0.3
        if kind < 0.15:
            _set(data, path, None, delete=True)
        elif kind < 0.45:
            _set(data, path, _nudged(_get(data, path), rng))
        elif kind < 0.65:
            _set(data, path, _odd_value(rng))
        elif kind < 0.72:
            parent = path[:-1]
            target = data
            for part in parent:
                target = target[part]
            if isinstance(target, dict):
                target[rng.choice(["colour", "projecton", "turns ", "x" * 300, "\u00fcml\u00e4ut", 7])] = 1
        elif kind < 0.78:  # a list grown huge, or with an entry twice
            value = _get(data, path)
            if isinstance(value, list) and value:
                _set(data, path, value * rng.choice([2, 2000 // len(value) + 1]) if rng.random() < 0.5
                     else [value[0], *value])
            elif isinstance(value, dict) and value:
                key = next(iter(value))
                value[key] = rng.choice([10**9, -1000, 10**18, 0, -1, 1e308])
            else:
                _set(data, path, rng.choice([[value] * 2000, [value, value]]))
        elif kind < 0.95:
            raws.append(rng.choice(RAW_SNIPPETS))
            _set(data, path, f"__RAW_{len(raws) - 1}__")
        elif folder is not None:
            _extends(data, rng, folder, base)
    out = yaml.safe_dump(data, allow_unicode=rng.random() < 0.5, sort_keys=False, width=10**6)
    for i, raw in enumerate(raws):
        out = out.replace(f"__RAW_{i}__", raw, 1)
    if rng.random() < 0.05 and not gentle:  # a duplicate top-level key
        out += "rules: {turns: 3}\n"
    return out


def _extends(data: dict[str, Any], rng: random.Random, folder: Path, base: str = "global-wellbeing") -> None:
    kind = rng.choice(["chain", "cycle", "empty", "list", "missing"])
    if kind == "chain":
        length = rng.choice([3, 17, 40, 2000])
        for i in range(length):
            target = f"chain-{i + 1}.yaml" if i < length - 1 else base
            (folder / f"chain-{i}.yaml").write_text(f"extends: {target}\n")
        data["extends"] = "chain-0.yaml"
    elif kind == "cycle":
        (folder / "cycle-a.yaml").write_text("extends: cycle-b.yaml\n")
        (folder / "cycle-b.yaml").write_text("extends: cycle-a.yaml\n")
        data["extends"] = "cycle-a.yaml"
    elif kind == "empty":
        (folder / "empty.yaml").write_text("")
        data["extends"] = "empty.yaml"
    elif kind == "list":
        (folder / "list.yaml").write_text("- 1\n- 2\n")
        data["extends"] = "list.yaml"
    else:
        data["extends"] = "nowhere-to-be-found"


def shipped_texts() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in SHIPPED}




# ------------------------------------------------------------------------------------------ data files

DATA_MUTATIONS = ("latin-1", "utf-16", "nul", "noncharacter", "huge-field", "huge-file", "many-rows", "no-header",
                  "missing-column", "stray-comma", "empty", "binary", "duplicate-column", "huge-number",
                  "negative-number", "word-for-number", "fifo", "dev-zero-link", "proc-environ", "proc-link",
                  "folder", "parent-path", "absolute-outside", "missing", "unquoted-quote", "cell-mutation")
BINARY_MUTATIONS = ("empty", "binary", "truncated", "fifo", "dev-zero-link", "proc-environ", "proc-link", "folder",
                    "parent-path", "missing")


def mutate_data(name: str, original: Path, rng: random.Random, folder: Path,
                kind: str | None = None) -> tuple[str, str]:
    """A hostile version of the data file ``original`` written into ``folder`` (or a special file or path);
    returns (the path to put in the template, the mutation's name). ``kind`` picks one of DATA_MUTATIONS."""
    import os

    raw = original.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:  # a raster or other binary file: the mutations that do not edit text
        text = ""
    kind = kind or rng.choice(DATA_MUTATIONS if text else BINARY_MUTATIONS)
    lines = text.splitlines() or ["x"]
    target = folder / f"{name}{original.suffix}"
    if kind == "latin-1":
        target.write_bytes((text + "Caf\u00e9 cr\u00e8me\n").encode("latin-1", "replace"))
    elif kind == "utf-16":
        target.write_bytes(text.encode("utf-16"))
    elif kind in ("nul", "noncharacter"):
        char = "\x00" if kind == "nul" else rng.choice(["\ufffe", "\U0010ffff", "\ufdd0"])
        row = rng.randrange(1, len(lines)) if len(lines) > 1 else 0
        lines[row] = lines[row][:3] + char + lines[row][3:]
        target.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    elif kind == "huge-field":
        cells = lines[1].split(",") if len(lines) > 1 else ["x"]
        cells[rng.randrange(len(cells))] = "x" * rng.choice([5_000, 200_000, 1_000_000])
        target.write_text("\n".join([lines[0], ",".join(cells), *lines[2:]]) + "\n", encoding="utf-8")
    elif kind == "huge-file":
        with target.open("w", encoding="utf-8") as fh:
            fh.write(lines[0] + "\n")
            record = (lines[1] if len(lines) > 1 else "x") + "\n"
            fh.write(record * (3_000_000 // len(record) + 1))
    elif kind == "many-rows":
        target.write_text("\n".join([lines[0], *(lines[1:] * (6000 // max(1, len(lines) - 1) + 1))]) + "\n")
    elif kind == "no-header":
        target.write_text("\n".join(lines[1:]) + "\n", encoding="utf-8")
    elif kind == "missing-column":
        header = lines[0].split(",")
        header[rng.randrange(len(header))] = "renamed"
        target.write_text("\n".join([",".join(header), *lines[1:]]) + "\n", encoding="utf-8")
    elif kind == "duplicate-column":
        header = lines[0].split(",")
        target.write_text("\n".join([",".join([*header, header[0]]), *lines[1:]]) + "\n", encoding="utf-8")
    elif kind == "stray-comma":
        row = rng.randrange(1, len(lines)) if len(lines) > 1 else 0
        lines[row] += ",,extra"
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    elif kind == "unquoted-quote":
        row = rng.randrange(1, len(lines)) if len(lines) > 1 else 0
        lines[row] = '"' + lines[row]
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    elif kind == "empty":
        target.write_text("")
    elif kind == "truncated":
        target.write_bytes(raw[: len(raw) // 3])
    elif kind == "binary":
        target.write_bytes(bytes(rng.randrange(256) for _ in range(4096)))
    elif kind in ("huge-number", "negative-number", "word-for-number", "cell-mutation"):
        value = {"huge-number": str(10**18), "negative-number": "-1000", "word-for-number": "many"}.get(
            kind, str(rng.choice(ODD_STRINGS[:30] + [str(n) for n in ODD_NUMBERS])))
        row = rng.randrange(1, len(lines)) if len(lines) > 1 else 0
        cells = lines[row].split(",")
        numeric = [i for i, c in enumerate(cells) if c.strip().lstrip("-").isdigit()] or list(range(len(cells)))
        cells[rng.choice(numeric if kind != "cell-mutation" else list(range(len(cells))))] = value.replace(",", ";")
        lines[row] = ",".join(cells)
        target.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev-zero-link":
        os.symlink("/dev/zero", target)
    elif kind == "proc-environ":
        return "/proc/self/environ", kind
    elif kind == "proc-link":
        os.symlink("/proc/self/environ", target)
    elif kind == "folder":
        target.mkdir()
    elif kind == "parent-path":
        return "../" * 12 + "etc/passwd", kind
    elif kind == "absolute-outside":
        return str(original), kind
    elif kind == "missing":
        return f"{name}-nowhere.csv", kind
    return target.name, kind

"""Many small drawing ops into few paths: the board draws ~300 cells, each with a symbol of up to 13 parts; one
path per (zone, part) instead of one op per part makes every PDF, SVG and PNG of the board several times
faster to write and smaller, and looks the same (the merged shapes never overlap each other).

- ``polygons_path``: shapely polygons (they may overlap: rings oriented so the non-zero rule fills overlaps).
- ``flatten``: an op tree (Groups with transforms, Polygons, Circles, Rects, Paths) as (Style, commands) in
  absolute coordinates; circles and arcs become cubic Béziers. Strokes are only flattened under similarity
  transforms (the width scales by the one factor); anything else raises ``NotFlatError``.
- ``merge_parallel``: the k-th part of every copy (e.g. every cell's symbol of one zone) as one Path.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from itertools import repeat

import numpy as np
import shapely

from boardgen.render.scene import (
    Affine,
    Circle,
    Group,
    Op,
    Path,
    Polygon,
    RectOp,
    Style,
)

IDENTITY = Affine()


class NotFlatError(ValueError):
    """An op that cannot be drawn as plain absolute path commands with the same look."""


def _ring_commands(coords: np.ndarray) -> list[tuple]:
    pts = np.round(coords, 3).tolist()
    out: list[tuple] = [("M", pts[0][0], pts[0][1])]
    out.extend(("L", x, y) for x, y in pts[1:-1])
    out.append(("Z",))
    return out


def polygons_path(polygons: Iterable[shapely.Geometry], style: Style, name: str = "") -> Path | None:
    """All polygons (with holes) as one path filled by the non-zero rule (exteriors and holes oriented
    opposite ways, so overlapping polygons stay filled and holes stay open)."""
    parts = [p for p in polygons if p is not None and p.geom_type == "Polygon" and not p.is_empty]
    if not parts:
        return None
    oriented = shapely.orient_polygons(np.array(parts, dtype=object), exterior_cw=False)
    commands: list[tuple] = []
    for poly in oriented:
        for ring in (poly.exterior, *poly.interiors):
            commands.extend(_ring_commands(shapely.get_coordinates(ring)))
    return Path(tuple(commands), Style(fill=style.fill, stroke=style.stroke, stroke_width_mm=style.stroke_width_mm,
                                       dash_mm=style.dash_mm, line_cap=style.line_cap, line_join=style.line_join,
                                       opacity=style.opacity, even_odd=False), name=name)


def _similarity_scale(t: Affine) -> float | None:
    """The scale factor of a rotation/uniform-scale (+ translation) transform, else None."""
    sx = math.hypot(t.a, t.b)
    sy = math.hypot(t.c, t.d)
    if abs(sx - sy) > 1e-9 * max(sx, 1.0) or abs(t.a * t.c + t.b * t.d) > 1e-9 * max(sx * sx, 1.0):
        return None
    return sx


def _arc_beziers(cx: float, cy: float, r: float, a0: float, a1: float, negative: bool) -> list[tuple]:
    """cairo's arc (a line to its start if a path is open is the caller's business) as cubic segments."""
    if negative:
        while a1 > a0:
            a1 -= 2 * math.pi
    else:
        while a1 < a0:
            a1 += 2 * math.pi
    sweep = a1 - a0
    n = max(1, math.ceil(abs(sweep) / (math.pi / 2) - 1e-9))
    step = sweep / n
    k = 4.0 / 3.0 * math.tan(step / 4)
    out: list[tuple] = []
    a = a0
    for _ in range(n):
        b = a + step
        x0, y0 = cx + r * math.cos(a), cy + r * math.sin(a)
        x3, y3 = cx + r * math.cos(b), cy + r * math.sin(b)
        out.append(("C", x0 - k * r * math.sin(a), y0 + k * r * math.cos(a),
                    x3 + k * r * math.sin(b), y3 - k * r * math.cos(b), x3, y3))
        a = b
    return out


def _local_commands(op: Op) -> list[tuple]:
    if isinstance(op, Polygon):
        if not op.points:
            return []
        cmds: list[tuple] = [("M", *op.points[0])]
        cmds.extend(("L", x, y) for x, y in op.points[1:])
        if op.closed:
            cmds.append(("Z",))
        return cmds
    if isinstance(op, Circle):
        return [("M", op.cx + op.r, op.cy), *_arc_beziers(op.cx, op.cy, op.r, 0.0, 2 * math.pi, False), ("Z",)]
    if isinstance(op, RectOp):
        r = op.rect
        return [("M", r.x, r.y), ("L", r.right, r.y), ("L", r.right, r.bottom), ("L", r.x, r.bottom), ("Z",)]
    if isinstance(op, Path):
        cmds = []
        for cmd in op.commands:
            kind = cmd[0]
            if kind in ("A", "AN"):
                cx, cy, r, a0, a1 = cmd[1:6]
                start = (cx + r * math.cos(a0), cy + r * math.sin(a0))
                cmds.append(("L" if cmds and cmds[-1][0] != "Z" else "M", *start))
                cmds.extend(_arc_beziers(cx, cy, r, a0, a1, kind == "AN"))
            else:
                cmds.append(cmd)
        return cmds
    raise NotFlatError(f"cannot flatten {type(op).__name__}")


def _transform(cmds: Sequence[tuple], t: Affine) -> tuple[tuple, ...]:
    out: list[tuple] = []
    for cmd in cmds:
        kind = cmd[0]
        if kind == "Z":
            out.append(cmd)
            continue
        values = cmd[1:]
        moved: list[float] = []
        for i in range(0, len(values), 2):
            x, y = t.apply(values[i], values[i + 1])
            moved.extend((round(x, 3), round(y, 3)))
        out.append((kind, *moved))
    return tuple(out)


def flatten(op: Op, transform: Affine = IDENTITY, local: dict[Op, list[tuple]] | None = None
            ) -> list[tuple[Style, tuple[tuple, ...]]]:
    """``op`` as (style, absolute path commands) parts in paint order. ``local``: each drawing op's own commands
    (before the transform), kept between calls that flatten copies of one drawing in different places."""
    if isinstance(op, Group):
        if op.clip is not None or op.opacity < 1.0:
            raise NotFlatError("a clipped or translucent group")
        inner = transform @ op.transform if op.transform is not None else transform
        return [part for item in op.items for part in flatten(item, inner, local)]
    style, commands = _leaf(op, transform, local)
    return [(style, _transform(commands, transform))]


def _leaf(op: Op, transform: Affine, local: dict[Op, list[tuple]] | None) -> tuple[Style, list[tuple]]:
    """A drawing op's style under ``transform`` (a stroke's width scaled with it) and its own commands (from
    ``local`` when there)."""
    style = op.style  # type: ignore[union-attr]
    if style.stroke is not None:
        factor = _similarity_scale(transform)
        if factor is None:
            raise NotFlatError("a stroke under a non-uniform transform")
        if factor != 1.0:
            style = Style(fill=style.fill, stroke=style.stroke, stroke_width_mm=style.stroke_width_mm * factor,
                          dash_mm=tuple(d * factor for d in style.dash_mm), line_cap=style.line_cap,
                          line_join=style.line_join, opacity=style.opacity, even_odd=style.even_odd)
    if local is None:
        return style, _local_commands(op)
    commands = local.get(op)
    if commands is None:
        commands = local[op] = _local_commands(op)
    return style, commands


def round_3(values: np.ndarray) -> np.ndarray:
    """``round(v, 3)`` of every value, as Python's ``round`` gives it (the double nearest the value rounded half
    to even in exact decimal): numpy's ``rint(v * 1000) / 1000``, except where ``v * 1000`` lies so close to a
    half that its own rounding could have moved it across (those few are rounded by Python)."""
    scaled = values * 1000.0
    out = np.rint(scaled) / 1000.0
    with np.errstate(invalid="ignore"):
        doubtful = ~(np.abs(scaled) < 1e9) | (np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6)
    for index in np.flatnonzero(doubtful).tolist():
        out.flat[index] = round(float(values.flat[index]), 3)
    return out


def _flatten_copies(op: Op, transform: Affine, local: dict[Op, list[tuple]], count: int
                    ) -> list[tuple[Style, list[tuple[tuple, ...]]]]:
    """``flatten`` for ``count`` transforms at once: ``transform`` holds arrays of ``count`` translations in e and
    f (a, b, c and d are shared numbers). The same arithmetic in the same order, element by element."""
    if isinstance(op, Group):
        if op.clip is not None or op.opacity < 1.0:
            raise NotFlatError("a clipped or translucent group")
        inner = transform @ op.transform if op.transform is not None else transform
        return [part for item in op.items for part in _flatten_copies(item, inner, local, count)]
    style, commands = _leaf(op, transform, local)
    xs = np.array([v for cmd in commands for v in cmd[1::2]], dtype=np.float64)
    ys = np.array([v for cmd in commands for v in cmd[2::2]], dtype=np.float64)
    t = transform
    moved = np.empty((count, 2 * len(xs)))  # per copy x0, y0, x1, y1, ... as the commands list them
    moved[:, 0::2] = (t.a * xs + t.c * ys)[None, :] + np.asarray(t.e, dtype=np.float64).reshape(-1, 1)
    moved[:, 1::2] = (t.b * xs + t.d * ys)[None, :] + np.asarray(t.f, dtype=np.float64).reshape(-1, 1)
    columns = round_3(moved).T.tolist()
    per_command: list[Iterable[tuple]] = []  # each command of every copy, the tuples made by zip
    at = 0
    for cmd in commands:
        end = at + len(cmd) - 1
        per_command.append(repeat(cmd, count) if cmd[0] == "Z"
                           else zip(repeat(cmd[0], count), *columns[at:end], strict=True))
        at = end
    copies: list[tuple[tuple, ...]] = (list(zip(*per_command, strict=True)) if per_command
                                       else [() for _ in range(count)])
    return [(style, copies)]


def flatten_copies(op: Op, transforms: Sequence[Affine], local: dict[Op, list[tuple]] | None = None
                   ) -> list[list[tuple[Style, tuple[tuple, ...]]]]:
    """``[flatten(op, t, local) for t in transforms]`` (the same parts, numbers and styles), computed with arrays:
    for many copies of one drawing that differ only in where they are (transforms that share a, b, c and d,
    e.g. a zone's symbol on every cell of the zone). Raises ``NotFlatError`` as ``flatten`` does."""
    if not transforms:
        return []
    first = transforms[0]
    if any((t.a, t.b, t.c, t.d) != (first.a, first.b, first.c, first.d) for t in transforms):
        return [flatten(op, t, local) for t in transforms]
    e = np.array([t.e for t in transforms], dtype=np.float64)
    f = np.array([t.f for t in transforms], dtype=np.float64)
    many = Affine(first.a, first.b, first.c, first.d, e, f)  # type: ignore[arg-type]  # arrays of translations
    parts = _flatten_copies(op, many, {} if local is None else local, len(transforms))
    return [[(style, copies[i]) for style, copies in parts] for i in range(len(transforms))]


def merge_parallel(copies: Sequence[Op], name: str = "") -> list[Op]:
    """Copies of one drawing (same parts, same styles, different places that do not overlap) as one Path per
    part. Falls back to the copies themselves if they cannot be flattened or do not match part for part."""
    if not copies:
        return []
    try:
        flat = [flatten(c) for c in copies]
    except NotFlatError:
        return list(copies)
    shape = [style for style, _ in flat[0]]
    if any([style for style, _ in f] != shape for f in flat[1:]):
        return list(copies)
    merged: list[Op] = []
    for k, style in enumerate(shape):
        commands = tuple(cmd for f in flat for cmd in f[k][1])
        merged.append(Path(commands, style, name=name))
    return merged

"""Read what a PDF really prints: every stroke's width and every text run's size in points, after all the
transformations (cm, Tm, form XObjects placed with Do), with where on the page it lies, so tests and the print
checks (``boardgen.render.print_checks``) look at the page, not the scene."""

from __future__ import annotations

import io
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pikepdf

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF row-vector convention: m x n)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def _scale(m: Matrix) -> float:
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


@dataclass(frozen=True)
class Mark:
    kind: str  # "stroke" or "text"
    size_pt: float  # stroke width or font size as printed
    page: int  # 1-based
    fill: tuple[float, ...] | None
    stroke: tuple[float, ...] | None
    text: bytes = b""
    inside_trim: bool = False  # text: its origin lies inside the page's TrimBox
    bounds: tuple[float, float, float, float] | None = None  # pt, PDF user space of the page: (x0, y0, x1, y1)
    # of a stroked path's points, or a text run's origin (a point)


Box = tuple[float, float, float, float]


def _clipped(box: Box | None, clip: Box | None) -> Box | None:
    """``box`` cut to ``clip`` (None when nothing of it is left: the mark is not printed)."""
    if box is None or clip is None:
        return box
    x0, y0 = max(box[0], clip[0]), max(box[1], clip[1])
    x1, y1 = min(box[2], clip[2]), min(box[3], clip[3])
    if x0 > x1 + 1e-6 or y0 > y1 + 1e-6:
        return None
    return (x0, y0, x1, y1)


def _walk(owner: pikepdf.Object, resources: pikepdf.Object, ctm: Matrix, page: int,
          trim: tuple[float, float, float, float], depth: int = 0, clip: Box | None = None) -> Iterator[Mark]:
    stack: list[tuple[Matrix, float, tuple | None, tuple | None, Box | None]] = []
    clip_next = False
    width = 1.0
    fill: tuple | None = None
    stroke: tuple | None = None
    tm: Matrix = IDENTITY
    line_start: Matrix = IDENTITY
    font_size = 0.0
    leading = 0.0
    points: list[tuple[float, float]] = []

    def at(x: float, y: float) -> tuple[float, float]:
        return (ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5])

    for instruction in pikepdf.parse_content_stream(owner):
        operands: list[Any] = list(instruction.operands)
        op = str(instruction.operator)
        if op == "q":
            stack.append((ctm, width, fill, stroke, clip))
        elif op == "Q":
            ctm, width, fill, stroke, clip = stack.pop()
        elif op in ("W", "W*"):
            clip_next = True
        elif op == "cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)  # type: ignore[arg-type]
        elif op == "w":
            width = float(operands[0])
        elif op in ("rg", "k", "g", "sc", "scn"):
            fill = tuple(float(v) for v in operands if not isinstance(v, pikepdf.Name))
        elif op in ("RG", "K", "G", "SC", "SCN"):
            stroke = tuple(float(v) for v in operands if not isinstance(v, pikepdf.Name))
        elif op in ("m", "l"):
            points.append(at(float(operands[0]), float(operands[1])))
        elif op in ("c", "v", "y"):
            values = [float(v) for v in operands]
            points.extend(at(values[k], values[k + 1]) for k in range(0, len(values), 2))
        elif op == "re":
            x, y, w, h = (float(v) for v in operands)
            points.extend((at(x, y), at(x + w, y + h), at(x + w, y), at(x, y + h)))
        elif op in ("S", "s", "B", "B*", "b", "b*"):
            box = _bounds(points)
            points = []
            visible = _clipped(box, clip)
            if box is None or visible is not None:
                yield Mark("stroke", width * _scale(ctm), page, fill, stroke, bounds=visible)
        elif op in ("f", "F", "f*", "n"):
            if clip_next:
                path_box = _bounds(points)
                clip = path_box if clip is None else _clipped(path_box, clip) or (0.0, 0.0, 0.0, 0.0)
            clip_next = False
            points = []
        elif op == "BT":
            tm = line_start = IDENTITY
        elif op == "Tf":
            font_size = float(operands[1])
        elif op == "TL":
            leading = float(operands[0])
        elif op == "Tm":
            tm = line_start = tuple(float(v) for v in operands)  # type: ignore[assignment]
        elif op in ("Td", "TD"):
            tx, ty = float(operands[0]), float(operands[1])
            if op == "TD":
                leading = -ty
            tm = line_start = _mul((1.0, 0.0, 0.0, 1.0, tx, ty), line_start)
        elif op == "T*":
            tm = line_start = _mul((1.0, 0.0, 0.0, 1.0, 0.0, -leading), line_start)
        elif op in ("Tj", "TJ", "'", '"'):
            raw = operands[-1]
            text = bytes(raw) if isinstance(raw, pikepdf.String) else b"".join(
                bytes(x) for x in raw if isinstance(x, pikepdf.String))
            if text.strip():
                m = _mul(tm, ctm)
                inside = trim[0] <= m[4] <= trim[2] and trim[1] <= m[5] <= trim[3]
                origin = _clipped((m[4], m[5], m[4], m[5]), clip)
                if origin is not None or clip is None:
                    yield Mark("text", font_size * _scale(m), page, fill, stroke, text, inside, origin)
        elif op == "Do" and depth < 8:
            xobject = resources.XObject[operands[0]]
            if xobject.get("/Subtype") == pikepdf.Name.Form:
                matrix = tuple(float(v) for v in xobject.get("/Matrix", IDENTITY))
                inner = xobject.get("/Resources", resources)
                yield from _walk(xobject, inner, _mul(matrix, ctm), page, trim, depth + 1,  # type: ignore[arg-type]
                                 clip)


def _bounds(points: list[tuple[float, float]]) -> tuple[float, float, float, float] | None:
    if not points:
        return None
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def marks(data: bytes) -> list[Mark]:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        out: list[Mark] = []
        for number, page in enumerate(pdf.pages, start=1):
            box = page.obj.get("/TrimBox", page.obj.MediaBox)
            x0, y0, x1, y1 = (float(v) for v in box)
            trim = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
            out.extend(_walk(page.obj, page.obj.Resources, IDENTITY, number, trim))
        return out


def thinnest_stroke(data: bytes) -> Mark:
    return min((m for m in marks(data) if m.kind == "stroke"), key=lambda m: m.size_pt)


def smallest_text(data: bytes) -> Mark:
    return min((m for m in marks(data) if m.kind == "text"), key=lambda m: m.size_pt)

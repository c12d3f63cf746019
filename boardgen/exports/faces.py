"""Pictures of single parts for the exports: a piece's front or back (or part of it) drawn from the same
``Scene`` the PDFs print, into an exact pixel box, and written as deterministic PNGs (no time, no text chunks)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from boardgen.cards.model import Component
from boardgen.render.cairo_backend import Page, render_pixels
from boardgen.render.png import encode_png, encode_png_rgba
from boardgen.render.scene import Group, Op, Path, Rect, Scene, Style

PNG_LEVEL = 6


def side_scene(piece: Component, side: str) -> Scene:
    if side == "front":
        return piece.front
    if piece.back is None:
        raise ValueError(f"{piece.label} has no back")
    return piece.back


def pixels(piece: Component, side: str, width_px: int, height_px: int, area_mm: Rect | None = None) -> np.ndarray:
    """The piece's ``side`` ("front" or "back"), ``area_mm`` of it (default its trim box), in exactly
    ``width_px`` x ``height_px`` pixels."""
    area = area_mm or Rect(0.0, 0.0, piece.width_mm, piece.height_mm)
    return render_pixels(Page(piece.width_mm, piece.height_mm, side_scene(piece, side)), width_px, height_px, area)


def outline_alpha(piece: Component, width_px: int, height_px: int, area_mm: Rect | None = None) -> np.ndarray:
    """255 inside the piece's cut outline, 0 outside (anti-aliased), for cut-out pictures of shaped parts."""
    area = area_mm or Rect(0.0, 0.0, piece.width_mm, piece.height_mm)
    shape = Scene((Path(piece.outline, Style(fill="#000000")),))
    grey = render_pixels(Page(piece.width_mm, piece.height_mm, shape), width_px, height_px, area)
    return np.asarray(255 - grey[:, :, 0], dtype=np.uint8)


def png(rgb: np.ndarray) -> bytes:
    return encode_png(rgb, PNG_LEVEL)


def png_cutout(rgb: np.ndarray, alpha: np.ndarray) -> bytes:
    return encode_png_rgba(np.dstack([rgb, alpha]).astype(np.uint8), PNG_LEVEL)


def extend_edges(rgb: np.ndarray, pad_px: int) -> np.ndarray:
    """``rgb`` grown by ``pad_px`` on every side by repeating its edge pixels (bleed wider than the art's)."""
    if pad_px <= 0:
        return rgb
    return np.pad(rgb, ((pad_px, pad_px), (pad_px, pad_px), (0, 0)), mode="edge")


def box_px(width_mm: float, height_mm: float, px_per_mm: float, max_px: int) -> tuple[int, int]:
    """Pixel size of a ``width_mm`` x ``height_mm`` picture at ``px_per_mm``, shrunk to ``max_px`` a side."""
    scale = min(px_per_mm, max_px / max(width_mm, height_mm))
    return max(1, round(width_mm * scale)), max(1, round(height_mm * scale))


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _walk(ops: Sequence[Op]) -> list[Op]:
    out: list[Op] = []
    for op in ops:
        out.append(op)
        if isinstance(op, Group):
            out.extend(_walk(op.items))
    return out


def die_face_boxes(piece: Component) -> list[Rect]:
    """The bounding boxes (piece mm) of a paper die net's faces (its ``die-face`` paths), in drawing order."""
    boxes = []
    for op in _walk(piece.front.items):
        if isinstance(op, Path) and op.name == "die-face":
            xs = [c[1] for c in op.commands if len(c) >= 3]
            ys = [c[2] for c in op.commands if len(c) >= 3]
            if xs:
                boxes.append(Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
    return boxes

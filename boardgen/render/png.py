"""PNG bytes from an RGB pixel array: unfiltered rows, zlib at a chosen level, no ancillary chunks (no time,
no text), so the same pixels always give the same bytes. Every PNG a kit holds is written here: quicker than
cairo's own writer, and smaller, since the kit's flat colours compress well without row filters."""

from __future__ import annotations

import struct
import zlib

import numpy as np

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_LEVEL = 3
"""The zlib level of the kit's PNGs (previews, charts): past 3, files shrink a few percent for twice the time."""


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(rgb: np.ndarray, compress_level: int = PNG_LEVEL) -> bytes:
    """``rgb``: (height, width, 3) uint8 (any strides) -> an 8-bit truecolour PNG."""
    if rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
        raise ValueError(f"expected a (height, width, 3) uint8 array, got {rgb.shape} {rgb.dtype}")
    height, width, _ = rgb.shape
    rows = np.empty((height, 1 + 3 * width), dtype=np.uint8)
    rows[:, 0] = 0  # filter type None on every row
    rows[:, 1:].reshape(height, width, 3)[...] = rgb
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, truecolour, deflate, no interlace
    return (_SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows.tobytes(), compress_level))
            + _chunk(b"IEND", b""))


def encode_png_rgba(rgba: np.ndarray, compress_level: int = 6) -> bytes:
    """``rgba``: (height, width, 4) uint8 -> an 8-bit truecolour PNG with alpha (same rules as ``encode_png``)."""
    if rgba.ndim != 3 or rgba.shape[2] != 4 or rgba.dtype != np.uint8:
        raise ValueError(f"expected a (height, width, 4) uint8 array, got {rgba.shape} {rgba.dtype}")
    height, width, _ = rgba.shape
    rows = np.empty((height, 1 + 4 * width), dtype=np.uint8)
    rows[:, 0] = 0
    rows[:, 1:].reshape(height, width, 4)[...] = rgba
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8 bits, truecolour with alpha
    return (_SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows.tobytes(), compress_level))
            + _chunk(b"IEND", b""))

"""Pictures a template places on cards, tokens and boards: PNG, JPEG and SVG files read with bounds, and drawn
into any cairo surface (PDF, PNG, SVG) by ``boardgen.render.cairo_backend`` as the scene's ``Image`` op.

Reading (``read_picture``): a regular file of at most ``MAX_PICTURE_BYTES`` whose format is told by its first
bytes (a PNG signature, a JPEG start-of-image marker, or XML text whose root is ``<svg``), not by its name; a
raster of at most ``MAX_PICTURE_PIXELS`` pixels that decodes whole; an SVG with no DTD (so no entities to
expand) and no reference to anything outside itself (only ``#id`` and ``data:`` links), that librsvg parses.
Every refusal is one ``ConfigError`` naming the template key and the file; nothing of the file is quoted.

Drawing: rasters go in as cairo image surfaces (so the PDF holds them losslessly, in sRGB), SVGs through
librsvg (Debian's librsvg2-2, bound with cffi like cairo itself) as vector art. Both are scaled into a box
("contain": whole picture, centred; "cover": the box filled, the overflow clipped; "stretch").
"""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from boardgen.errors import ConfigError

MAX_PICTURE_BYTES = 4_000_000
"""A picture file larger than this (4 MB) is refused before it is read: a card's art at 300 dpi is far less."""
MAX_PICTURE_PIXELS = 16_000_000
"""Pixels of one raster (4000 x 4000): a poster-sized picture at 170 dpi; decoding more is refused."""
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JPEG_SIGNATURE = b"\xff\xd8\xff"
PICTURE_SUFFIXES = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".svg": "svg"}
Fit = Literal["contain", "cover", "stretch"]


@dataclass(frozen=True)
class Picture:
    """A checked picture: its format, bytes and size (pixels; an SVG: its own units, CSS px)."""

    kind: Literal["png", "jpeg", "svg"]
    data: bytes = field(repr=False)
    width: float
    height: float
    name: str = ""  # the template's name for it (for messages)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def aspect(self) -> float:
        return self.width / self.height


def sniff(data: bytes) -> str:
    """The format the bytes are ("png", "jpeg", "svg"), or "" when none of them."""
    if data.startswith(PNG_SIGNATURE):
        return "png"
    if data.startswith(JPEG_SIGNATURE):
        return "jpeg"
    head = data[:4096].lstrip(b"\xef\xbb\xbf").lstrip()
    head = re.sub(rb"^(<\?xml[^>]*\?>\s*|<!--.*?-->\s*)*", b"", head, flags=re.S)
    if head.startswith(b"<svg") or head.startswith(b"<!DOCTYPE svg"):
        return "svg"
    return ""


_SVG_LINK = re.compile(rb"""(?:xlink:)?href\s*=\s*["']\s*([^"'\s]*)""")
_CSS_URL = re.compile(rb"""url\(\s*["']?\s*([^)"'\s]*)""")
_CSS_IMPORT = re.compile(rb"@import")


def read_picture(path: Path, source: str, key: str, name: str = "") -> Picture:
    """The picture at ``path`` (already located inside the template's folder), checked as the module says."""
    from boardgen.yaml_reader import read_bounded, short_repr

    data = read_bounded(path, MAX_PICTURE_BYTES, source, key, "picture")
    shown = f"picture {short_repr(path.name, 60)}"
    kind = sniff(data)
    expected = PICTURE_SUFFIXES.get(path.suffix.lower())
    if expected is None:
        raise ConfigError(source, key, f"{shown}: expected a .png, .jpg/.jpeg or .svg file")
    if kind != expected:
        what = {"png": "PNG", "jpeg": "JPEG", "svg": "SVG"}
        found = f"a {what[kind]} file" if kind else "none of PNG, JPEG or SVG"
        raise ConfigError(source, key, f"{shown} is named as {what[expected]} but its first bytes say {found}; "
                          f"expected a real {what[expected]} file")
    if kind == "svg":
        width, height = _svg_size(data, source, key, shown)
    else:
        width, height = _raster_size(data, kind, source, key, shown)
    return Picture(kind, data, width, height, name)  # type: ignore[arg-type]


def _raster_size(data: bytes, kind: str, source: str, key: str, shown: str) -> tuple[float, float]:
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as im:
            width, height = im.size
            if width < 1 or height < 1 or width * height > MAX_PICTURE_PIXELS:
                raise ConfigError(source, key, f"{shown} is {width:,} x {height:,} pixels; expected at most "
                                  f"{MAX_PICTURE_PIXELS:,} pixels (e.g. 4000 x 4000)")
            im.load()  # decodes every row: a truncated or corrupt file fails here, not in the middle of a build
    except ConfigError:
        raise
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError, EOFError) as exc:
        reason = type(exc).__name__
        raise ConfigError(source, key, f"{shown} does not decode as {kind.upper()} ({reason}); expected a whole, "
                          "readable image") from None
    return float(width), float(height)


def _svg_size(data: bytes, source: str, key: str, shown: str) -> tuple[float, float]:
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise ConfigError(source, key, f"{shown} has a DTD or entities; expected plain SVG (save it without a "
                          "DOCTYPE)")
    for pattern in (_SVG_LINK, _CSS_URL):
        for m in pattern.finditer(data):
            target = m.group(1)
            if target and not target.startswith((b"#", b"data:")):
                raise ConfigError(source, key, f"{shown} links to something outside itself; expected a "
                                  "self-contained SVG (links only to #ids or data: URIs)")
    if _CSS_IMPORT.search(data):
        raise ConfigError(source, key, f"{shown} imports a style sheet; expected a self-contained SVG")
    try:
        handle = _rsvg_handle(data)
    except SvgError as exc:
        raise ConfigError(source, key, f"{shown} is not SVG librsvg can read ({exc}); expected a valid SVG "
                          "file") from None
    width, height = _svg_dimensions(handle)
    if not (0 < width <= 100_000 and 0 < height <= 100_000):
        raise ConfigError(source, key, f"{shown} has no usable size ({width:g} x {height:g}); give the <svg> a "
                          "width and height or a viewBox")
    return width, height


# ------------------------------------------------------------------------------------------ librsvg


class SvgError(ValueError):
    """librsvg refused an SVG."""


_RSVG_DECLARATIONS = """
typedef struct _RsvgHandle RsvgHandle;
typedef struct { unsigned int domain; int code; char *message; } GError;
typedef struct { int width; int height; double em; double ex; } RsvgDimensionData;
RsvgHandle *rsvg_handle_new_from_data(const unsigned char *data, size_t data_len, GError **error);
void rsvg_handle_get_dimensions(RsvgHandle *handle, RsvgDimensionData *dimension_data);
int rsvg_handle_render_cairo(RsvgHandle *handle, void *cr);
void g_object_unref(void *object);
void g_error_free(GError *error);
"""


@lru_cache(maxsize=1)
def _rsvg() -> tuple[Any, Any, Any]:
    """(ffi, librsvg, gobject): librsvg bound on first use (only templates with SVG pictures need it)."""
    import cffi

    ffi = cffi.FFI()
    ffi.cdef(_RSVG_DECLARATIONS)
    try:
        rsvg = ffi.dlopen("librsvg-2.so.2")
        gobject = ffi.dlopen("libgobject-2.0.so.0")
        glib = ffi.dlopen("libglib-2.0.so.0")
    except OSError as exc:
        raise SvgError(f"librsvg is not installed ({exc}); install Debian's librsvg2-2") from None
    return ffi, rsvg, (gobject, glib)


def _rsvg_handle(data: bytes) -> Any:
    ffi, rsvg, (gobject, glib) = _rsvg()
    error = ffi.new("GError **")
    handle = rsvg.rsvg_handle_new_from_data(data, len(data), error)
    if handle == ffi.NULL:
        message = "unreadable"
        if error[0] != ffi.NULL:
            message = "not well-formed XML or not SVG"
            glib.g_error_free(error[0])
        raise SvgError(message)
    return ffi.gc(handle, gobject.g_object_unref)


def _svg_dimensions(handle: Any) -> tuple[float, float]:
    ffi, rsvg, _ = _rsvg()
    dims = ffi.new("RsvgDimensionData *")
    rsvg.rsvg_handle_get_dimensions(handle, dims)
    return float(dims.width), float(dims.height)


@lru_cache(maxsize=64)
def _svg_handle_cached(data: bytes) -> Any:
    return _rsvg_handle(data)


def render_svg_into(cairo_ffi: Any, context: Any, picture: Picture) -> None:
    """Draw the SVG at the context's origin in its own units (the caller has scaled the context)."""
    ffi, rsvg, _ = _rsvg()
    handle = _svg_handle_cached(picture.data)
    address = int(cairo_ffi.cast("uintptr_t", context))
    if not rsvg.rsvg_handle_render_cairo(handle, ffi.cast("void *", address)):
        raise SvgError(f"librsvg could not draw {picture.name or 'an SVG picture'}")


# ------------------------------------------------------------------------------------------ rasters


@lru_cache(maxsize=64)
def argb_pixels(data: bytes) -> tuple[int, int, bytes]:
    """(width, height, rows) of a raster as cairo's ARGB32 (premultiplied, native byte order, stride 4 * width)."""
    import numpy as np
    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        rgba = np.asarray(im.convert("RGBA"), dtype=np.uint16)
    alpha = rgba[..., 3:4]
    rgb = (rgba[..., :3] * alpha + 127) // 255
    b, g, r = rgb[..., 2], rgb[..., 1], rgb[..., 0]
    out = np.stack([b, g, r, alpha[..., 0]], axis=-1).astype(np.uint8)  # little-endian ARGB32: B, G, R, A
    import sys

    if sys.byteorder == "big":  # pragma: no cover - no big-endian machine runs boardgen today
        out = out[..., ::-1]
    h, w = out.shape[:2]
    return w, h, out.tobytes()


def placement(picture: Picture, box_w: float, box_h: float, fit: Fit) -> tuple[float, float, float, float]:
    """(dx, dy, sx, sy): where the picture's top-left goes in the box and its scale per own unit."""
    if fit == "stretch":
        return 0.0, 0.0, box_w / picture.width, box_h / picture.height
    sx = box_w / picture.width
    sy = box_h / picture.height
    s = min(sx, sy) if fit == "contain" else max(sx, sy)
    return (box_w - picture.width * s) / 2, (box_h - picture.height * s) / 2, s, s

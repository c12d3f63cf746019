"""The cairo C functions our drawing calls (and the few of fontconfig's that find a font's file), bound with a
small cffi declaration (ABI mode, no compiler).

cairocffi declares all of cairo's API and has cffi parse it on import (about 0.12 s with the library search);
the scene drawing, text measuring and PNG, PDF and SVG output need a few dozen functions, which parse in a few
milliseconds. ``boardgen.render.cairo_backend`` draws and writes every scene through this binding, and
boardgen no longer needs cairocffi. The constants are cairo's enum values, which are part of its stable ABI.
"""

from __future__ import annotations

import hashlib
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

_DECLARATIONS = """
typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;
typedef struct _cairo_font_options cairo_font_options_t;
typedef int cairo_status_t;
typedef struct { double xx; double yx; double xy; double yy; double x0; double y0; } cairo_matrix_t;
typedef struct { double x_bearing; double y_bearing; double width; double height; double x_advance;
                 double y_advance; } cairo_text_extents_t;
typedef struct { double ascent; double descent; double height; double max_x_advance; double max_y_advance; }
    cairo_font_extents_t;
typedef union { struct { int type; int length; } header; struct { double x, y; } point; } cairo_path_data_t;
typedef struct { cairo_status_t status; cairo_path_data_t *data; int num_data; } cairo_path_t;

typedef struct { double x; double y; double width; double height; } cairo_rectangle_t;
cairo_surface_t *cairo_image_surface_create(int format, int width, int height);
cairo_surface_t *cairo_recording_surface_create(int content, const cairo_rectangle_t *extents);
void cairo_recording_surface_ink_extents(cairo_surface_t *surface, double *x0, double *y0, double *width,
                                         double *height);
unsigned char *cairo_image_surface_get_data(cairo_surface_t *surface);
int cairo_image_surface_get_stride(cairo_surface_t *surface);
void cairo_surface_flush(cairo_surface_t *surface);
void cairo_surface_mark_dirty(cairo_surface_t *surface);
void cairo_surface_finish(cairo_surface_t *surface);
void cairo_surface_destroy(cairo_surface_t *surface);
cairo_status_t cairo_surface_status(cairo_surface_t *surface);
typedef cairo_status_t (*cairo_write_func_t)(void *closure, const unsigned char *data, unsigned int length);
cairo_surface_t *cairo_pdf_surface_create_for_stream(cairo_write_func_t write_func, void *closure,
                                                     double width_in_points, double height_in_points);
void cairo_pdf_surface_set_size(cairo_surface_t *surface, double width_in_points, double height_in_points);
void cairo_pdf_surface_set_metadata(cairo_surface_t *surface, int metadata, const char *utf8);
cairo_surface_t *cairo_svg_surface_create_for_stream(cairo_write_func_t write_func, void *closure,
                                                     double width_in_points, double height_in_points);
void cairo_svg_surface_set_document_unit(cairo_surface_t *surface, int unit);
void cairo_show_page(cairo_t *cr);
const char *cairo_version_string(void);

cairo_t *cairo_create(cairo_surface_t *target);
void cairo_destroy(cairo_t *cr);
cairo_status_t cairo_status(cairo_t *cr);
const char *cairo_status_to_string(cairo_status_t status);
void cairo_save(cairo_t *cr);
void cairo_restore(cairo_t *cr);
void cairo_scale(cairo_t *cr, double sx, double sy);
void cairo_translate(cairo_t *cr, double tx, double ty);
void cairo_rotate(cairo_t *cr, double angle);
void cairo_transform(cairo_t *cr, const cairo_matrix_t *matrix);
void cairo_get_matrix(cairo_t *cr, cairo_matrix_t *matrix);
void cairo_identity_matrix(cairo_t *cr);
void cairo_set_matrix(cairo_t *cr, const cairo_matrix_t *matrix);
void cairo_paint(cairo_t *cr);
void cairo_paint_with_alpha(cairo_t *cr, double alpha);
void cairo_push_group(cairo_t *cr);
void cairo_pop_group_to_source(cairo_t *cr);
void cairo_clip(cairo_t *cr);

void cairo_new_path(cairo_t *cr);
void cairo_move_to(cairo_t *cr, double x, double y);
void cairo_line_to(cairo_t *cr, double x, double y);
void cairo_curve_to(cairo_t *cr, double x1, double y1, double x2, double y2, double x3, double y3);
void cairo_arc(cairo_t *cr, double xc, double yc, double radius, double angle1, double angle2);
void cairo_arc_negative(cairo_t *cr, double xc, double yc, double radius, double angle1, double angle2);
void cairo_rectangle(cairo_t *cr, double x, double y, double width, double height);
void cairo_close_path(cairo_t *cr);
void cairo_append_path(cairo_t *cr, const cairo_path_t *path);

void cairo_set_source_rgb(cairo_t *cr, double red, double green, double blue);
void cairo_set_source_surface(cairo_t *cr, cairo_surface_t *surface, double x, double y);
void cairo_set_source_rgba(cairo_t *cr, double red, double green, double blue, double alpha);
void cairo_set_fill_rule(cairo_t *cr, int fill_rule);
void cairo_set_line_width(cairo_t *cr, double width);
void cairo_set_dash(cairo_t *cr, const double *dashes, int num_dashes, double offset);
void cairo_set_line_cap(cairo_t *cr, int line_cap);
void cairo_set_line_join(cairo_t *cr, int line_join);
void cairo_fill(cairo_t *cr);
void cairo_fill_preserve(cairo_t *cr);
void cairo_stroke(cairo_t *cr);

cairo_font_options_t *cairo_font_options_create(void);
void cairo_font_options_destroy(cairo_font_options_t *options);
void cairo_font_options_set_hint_style(cairo_font_options_t *options, int hint_style);
void cairo_font_options_set_hint_metrics(cairo_font_options_t *options, int hint_metrics);
void cairo_set_font_options(cairo_t *cr, const cairo_font_options_t *options);
void cairo_select_font_face(cairo_t *cr, const char *family, int slant, int weight);
void cairo_set_font_size(cairo_t *cr, double size);
void cairo_show_text(cairo_t *cr, const char *utf8);
void cairo_text_extents(cairo_t *cr, const char *utf8, cairo_text_extents_t *extents);
void cairo_font_extents(cairo_t *cr, cairo_font_extents_t *extents);

typedef struct _FcPattern FcPattern;
typedef int FcBool;
typedef enum { FcMatchPattern, FcMatchFont, FcMatchScan } FcMatchKind;
typedef enum { FcResultMatch, FcResultNoMatch, FcResultTypeMismatch, FcResultNoId, FcResultOutOfMemory } FcResult;
FcPattern *FcNameParse(const unsigned char *name);
FcBool FcConfigSubstitute(void *config, FcPattern *p, FcMatchKind kind);
void FcDefaultSubstitute(FcPattern *pattern);
FcPattern *FcFontMatch(void *config, FcPattern *p, FcResult *result);
FcResult FcPatternGetString(const FcPattern *p, const char *object, int n, unsigned char **s);
typedef struct _FcCharSet FcCharSet;
typedef unsigned int FcChar32;
FcResult FcPatternGetCharSet(const FcPattern *p, const char *object, int n, FcCharSet **c);
FcChar32 FcCharSetFirstPage(const FcCharSet *a, FcChar32 map[8], FcChar32 *next);
FcChar32 FcCharSetNextPage(const FcCharSet *a, FcChar32 map[8], FcChar32 *next);
void FcPatternDestroy(FcPattern *p);
"""

STATUS_SUCCESS = 0
FORMAT_ARGB32 = 0
FORMAT_RGB24 = 1
FORMAT_A8 = 2
CONTENT_COLOR_ALPHA = 0x3000
PATH_MOVE_TO, PATH_LINE_TO, PATH_CURVE_TO, PATH_CLOSE_PATH = 0, 1, 2, 3
LINE_CAP_BUTT, LINE_CAP_ROUND, LINE_CAP_SQUARE = 0, 1, 2
LINE_JOIN_MITER, LINE_JOIN_ROUND, LINE_JOIN_BEVEL = 0, 1, 2
FILL_RULE_WINDING, FILL_RULE_EVEN_ODD = 0, 1
FONT_SLANT_NORMAL, FONT_SLANT_ITALIC = 0, 1
FONT_WEIGHT_NORMAL, FONT_WEIGHT_BOLD = 0, 1
HINT_STYLE_NONE = 1
HINT_METRICS_OFF = 1
PDF_METADATA_TITLE, PDF_METADATA_CREATOR, PDF_METADATA_CREATE_DATE, PDF_METADATA_MOD_DATE = 0, 4, 5, 6
SVG_UNIT_MM = 6

DECLARATIONS_SHA256 = hashlib.sha256(_DECLARATIONS.encode()).hexdigest()
GENERATED = Path(__file__).with_name("_cairo_ffi.py")


def _load_ffi() -> Any:
    """The declarations, pre-parsed by cffi into ``_cairo_ffi.py`` (``python -m boardgen.render.cairo_lib``
    writes it; loading it takes a millisecond), or parsed now (pycparser: about 30 ms) if that file is missing,
    made by another cffi or from other declarations."""
    try:
        from boardgen.render import _cairo_ffi

        if _cairo_ffi.DECLARATIONS_SHA256 == DECLARATIONS_SHA256:
            return _cairo_ffi.ffi
    except Exception:  # any failure to load it means: parse the declarations instead
        pass
    import cffi

    parsed = cffi.FFI()
    parsed.cdef(_DECLARATIONS)
    return parsed


def emit(path: Path = GENERATED) -> str:
    """Write the pre-parsed declarations module (cffi's out-of-line ABI mode); returns its text."""
    import cffi

    builder = cffi.FFI()
    builder.cdef(_DECLARATIONS)
    builder.set_source("boardgen.render._cairo_ffi", None)
    target = path.with_suffix(".tmp")
    builder.emit_python_code(str(target))
    text = ("# ruff: noqa\n# Generated by `python -m boardgen.render.cairo_lib` from cairo_lib._DECLARATIONS: do not "
            "edit.\n" + target.read_text() + f"\nDECLARATIONS_SHA256 = {DECLARATIONS_SHA256!r}\n")
    target.unlink()
    path.write_text(text)
    return text


ffi: Any = _load_ffi()


def _open() -> Any:
    errors = []
    for name in ("libcairo.so.2", "libcairo.2.dylib", "libcairo-2.dll", "cairo"):
        try:
            return ffi.dlopen(name)
        except OSError as exc:  # pragma: no cover - another platform's name
            errors.append(str(exc))
    raise OSError("cairo not found: " + "; ".join(errors))  # pragma: no cover - cairocffi would fail too


lib: Any = _open()


@lru_cache(maxsize=1)
def fontconfig() -> Any | None:
    """fontconfig, cairo's own font library (already loaded), bound with the same pre-parsed declarations (the
    Fc functions at the end of them: which file a font name matches), or None if it cannot be found."""
    for name in ("libfontconfig.so.1", "fontconfig"):
        try:
            return ffi.dlopen(name)
        except OSError:
            continue
    return None  # pragma: no cover - fontconfig is cairo's dependency


class CairoError(RuntimeError):
    """A cairo call failed (the context or surface is in an error state)."""


def check(status: int) -> None:
    """Raise ``CairoError`` unless ``status`` is success."""
    if status != STATUS_SUCCESS:
        raise CairoError(f"cairo: {ffi.string(lib.cairo_status_to_string(status)).decode()}")


def unhinted_font_options() -> Any:
    """Font options with hinting off (metrics must not depend on the output: PDF is unhinted), freed by GC."""
    options = ffi.gc(lib.cairo_font_options_create(), lib.cairo_font_options_destroy)
    lib.cairo_font_options_set_hint_metrics(options, HINT_METRICS_OFF)
    lib.cairo_font_options_set_hint_style(options, HINT_STYLE_NONE)
    return options


def image_context(format_: int, width_px: int, height_px: int) -> tuple[Any, Any]:
    """(surface, context) of a new image surface, both freed by GC (the context first: it holds the surface)."""
    surface = ffi.gc(lib.cairo_image_surface_create(format_, width_px, height_px), lib.cairo_surface_destroy)
    check(lib.cairo_surface_status(surface))
    context = ffi.gc(lib.cairo_create(surface), lib.cairo_destroy)
    check(lib.cairo_status(context))
    return surface, context


class Stream:
    """What a stream surface (PDF, SVG) writes, gathered in memory; keep it while the surface lives (it holds
    the callback cairo calls)."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        self.callback = ffi.callback("cairo_write_func_t", self._write)

    def _write(self, _closure: Any, data: Any, length: int) -> int:
        self.chunks.append(bytes(ffi.buffer(data, length)))
        return STATUS_SUCCESS

    def getvalue(self) -> bytes:
        return b"".join(self.chunks)


def pdf_surface(width_pt: float, height_pt: float) -> tuple[Any, Stream]:
    """(surface, its stream) of a new PDF surface, the surface freed by GC."""
    stream = Stream()
    surface = ffi.gc(lib.cairo_pdf_surface_create_for_stream(stream.callback, ffi.NULL, width_pt, height_pt),
                     lib.cairo_surface_destroy)
    check(lib.cairo_surface_status(surface))
    return surface, stream


def svg_surface(width: float, height: float, unit: int = SVG_UNIT_MM) -> tuple[Any, Stream]:
    """(surface, its stream) of a new SVG surface whose size is in ``unit``, the surface freed by GC."""
    stream = Stream()
    surface = ffi.gc(lib.cairo_svg_surface_create_for_stream(stream.callback, ffi.NULL, width, height),
                     lib.cairo_surface_destroy)
    check(lib.cairo_surface_status(surface))
    lib.cairo_svg_surface_set_document_unit(surface, unit)
    return surface, stream


def context(surface: Any) -> Any:
    """A new ``cairo_t *`` on ``surface``, freed by GC."""
    ctx = ffi.gc(lib.cairo_create(surface), lib.cairo_destroy)
    check(lib.cairo_status(ctx))
    return ctx


def version_string() -> str:
    return ffi.string(lib.cairo_version_string()).decode()


if __name__ == "__main__":
    emit()
    sys.stdout.write(f"wrote {GENERATED}\n")

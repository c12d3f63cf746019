"""Every installed game's rules leaflet keeps only its words: it is set by the one shared typesetter
(``boardgen.kit.leaflet``), and no game's code builds its own styles, tables' looks, fit loop, panels or
imposition (reportlab's document templates, paragraph and table styles, a canvas, pikepdf)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from boardgen.plugin import installed_games

TYPESETTING = {
    "reportlab.platypus": {"BaseDocTemplate", "SimpleDocTemplate", "Frame", "PageTemplate", "TableStyle",
                           "KeepTogether", "FrameBreak", "NextPageTemplate", "PageBreak"},
    "reportlab.platypus.doctemplate": None,
    "reportlab.lib.styles": None,
    "reportlab.pdfgen.canvas": None,
    "pikepdf": None,
}
"""What sets type and lays out pages: a module (None: anything from it) and the names that do it."""


def _package_dir(name: str) -> Path:
    plugin = installed_games()[name]
    module = importlib.import_module(type(plugin).__module__)
    assert module.__file__ is not None
    return Path(module.__file__).parent


def _typesetting_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module in TYPESETTING:
            names = TYPESETTING[node.module]
            found += [f"{node.module}.{a.name}" for a in node.names if names is None or a.name in names]
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name in TYPESETTING]
    return found


@pytest.mark.parametrize("name", sorted(installed_games()))
def test_the_leaflet_is_words_set_by_the_shared_typesetter(name: str) -> None:
    leaflet = _package_dir(name) / "leaflet.py"
    if not leaflet.is_file():
        pytest.skip(f"{name} has no leaflet module")
    source = leaflet.read_text(encoding="utf-8")
    assert "boardgen.kit.leaflet" in source, f"{name}: its leaflet is not set by boardgen.kit.leaflet"
    assert _typesetting_imports(leaflet) == [], f"{name}: its leaflet typesets for itself"

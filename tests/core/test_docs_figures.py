"""Every simulated figure quoted in the docs comes from scripts/refresh_docs.py, and a test fails when
they may have drifted (fast: the inputs' fingerprint; slow: the figures themselves)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("refresh_docs", REPO / "scripts" / "refresh_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["refresh_docs"] = module
    spec.loader.exec_module(module)
    return module


def test_doc_figures_were_refreshed_for_the_current_inputs() -> None:
    """Change the template, the rules code or the map code and this fails until `python scripts/refresh_docs.py`
    has rewritten the figures (docs/examples/, and the marked blocks in README.md and docs/*.md)."""
    script = _script()
    recorded = (REPO / "docs" / "examples" / "inputs.txt").read_text().split()[1]
    assert recorded == script.fingerprint(), "figures in the docs may be stale: run scripts/refresh_docs.py"


def test_marked_blocks_hold_the_generated_output() -> None:
    balance = (REPO / "docs" / "balance-report.md").read_text()
    validate = (REPO / "docs" / "examples" / "validate.txt").read_text()
    simulate = (REPO / "docs" / "examples" / "simulate.txt").read_text()
    assert f"```console\n{validate}```" in balance and f"```console\n{simulate}```" in balance


@pytest.mark.slow
def test_doc_figures_match_a_fresh_run() -> None:
    script = _script()
    stale = [p for p, text in script.outputs().items() if not p.exists() or p.read_text() != text]
    assert not stale, f"run scripts/refresh_docs.py: {stale}"

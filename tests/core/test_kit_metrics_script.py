"""scripts/kit_metrics.py: the before/after figures of a built kit, read with the print checks."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_piecepack_kit_metrics(default_kit: Callable[[str], Path], capsys: pytest.CaptureFixture[str]) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from kit_metrics import kit_metrics, main
    finally:
        sys.path.pop(0)
    out = default_kit("piecepack")  # every stage but the simulated validation, built once per session
    m = kit_metrics(out)
    assert m.smallest_text_pt is not None and m.smallest_text_pt >= 6.0
    assert m.subset_tag_findings == [] and m.findings == []
    sheets = m.sheets["components-a4.pdf"]
    assert sheets.pages == 8 and len(sheets.fills) == 5  # tiles and coins with their backs, pawns, dice
    assert sheets.lowest_not_last is not None and 0.4 <= sheets.lowest_not_last <= 1.0
    main([str(out)])
    assert "subset tags unique" in capsys.readouterr().out

"""The kit README's page guide: one line per run of sheets, its pages, its title and how to print it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from boardgen.kit.readme import page_guide


def test_each_runs_words_start_a_sentence_after_its_title() -> None:
    front, back = SimpleNamespace(side="front"), SimpleNamespace(side="back")
    chips = SimpleNamespace(kind="chip", title="Chips", pages=[front, back])
    aids = SimpleNamespace(kind="card", title="Aids", pages=[SimpleNamespace(side="")])
    kit: Any = SimpleNamespace(page_ranges=lambda: [(chips, 1, 2), (aids, 3, 3)])
    lines = page_guide("components-a4.pdf", kit, {"card": "single-sided on card; cut on the crop marks."})
    assert lines[0] == "components-a4.pdf, page by page:"
    assert lines[1].split(None, 2)[2].startswith("Chips. Double-sided on card")  # the standard words
    assert lines[2] == "  page 3         Aids. Single-sided on card; cut on the crop marks."  # a game's, capitalised

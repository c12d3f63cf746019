"""The PDF probe tests read pages with (kept here so tests import it by its old name)."""

from boardgen.render.pdf_probe import IDENTITY, Mark, marks, smallest_text, thinnest_stroke

__all__ = ["IDENTITY", "Mark", "marks", "smallest_text", "thinnest_stroke"]

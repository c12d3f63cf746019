"""The names of part kinds and shapes (no imports, so template schemas can name them)."""

from __future__ import annotations

PRINTED_KINDS = ("board", "deck", "token", "chip", "coin", "tile", "marker", "badge", "die", "standee", "meeple",
                 "pawn", "mat", "screen", "aid", "card")
"""Kinds of printed parts. "deck": cards sharing one back; "card": a single printed card-like sheet (a table
card, a turn counter); "aid": a player aid."""
UNPRINTED_KINDS = ("block", "cube", "bag", "die")
"""Kinds of parts the kit does not print (a real die may also be bought)."""
KINDS = tuple(dict.fromkeys(PRINTED_KINDS + UNPRINTED_KINDS))
SHAPES = ("rect", "round", "hex", "shaped")

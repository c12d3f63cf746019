"""boardgen.cards."""

"""boardgen.rules."""

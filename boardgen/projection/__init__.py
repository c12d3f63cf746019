"""boardgen.projection."""

"""boardgen.render."""

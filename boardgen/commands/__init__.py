"""boardgen.commands."""

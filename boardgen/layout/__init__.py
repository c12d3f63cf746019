"""boardgen.layout."""

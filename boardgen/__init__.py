"""boardgen: print-ready board game kits from real geographic and climate data."""

__version__ = "0.1.0"

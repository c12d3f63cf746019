"""`boardgen cells` and `boardgen info`."""

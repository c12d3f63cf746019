"""boardgen.geomap.projection."""

"""The geographic hex map shared by every game played on a world map: its template spec, build, cache and
commands."""

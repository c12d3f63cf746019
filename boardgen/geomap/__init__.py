"""The geographic hex map, shared by every game whose board is the real Earth: land from Natural Earth projected
onto the board, a hex lattice over it, each land cell's climate (Köppen-Geiger) and elevation shares, zones from
them, and an on-disk cache of built maps.

- ``spec``: the map's template keys (board, map, hexes, zones, classification, overrides, sections) as
  pydantic models, with their limits;
- ``model``: the map's values (``MapSpec`` what it is built from, ``Board`` and ``Cell`` what comes out);
- ``build``: ``build_board(spec)``, the map stage;
- ``cache``: built maps (and values made from them) on disk, keyed by everything they depend on;
- ``hexgrid``, ``lattice``, ``zones``, ``projection``: the hex geometry, land rasters, the zone rules and the
  projection and data readers the map is made with.

A game with a geographic board hands the map to the core through ``plugin.geo.geo_board``, so ``info``, ``cells``
and ``sections`` work for it.
"""

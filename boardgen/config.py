"""Where the flagship's template and the shared template reader used to live: the names are re-exported from
their homes so older imports keep working (new code imports from the homes):

- ``boardgen.yaml_reader``: the bounded YAML reader, ``extends``, lengths with units, the package's folders;
- ``boardgen.geomap.spec``: the geographic map's sections (board, map, hexes, zones, classification, overrides,
  sections) and their constants;
- ``boardgen.games.global_wellbeing.schema``: the flagship's rules, parts and top-level ``Config``.
"""

from __future__ import annotations

from boardgen.errors import ConfigError
from boardgen.games.global_wellbeing.schema import (
    MAX_VALIDATE_GAMES,
    PIECE_FORMS,
    PLAYER_SHAPES,
    ComponentsConfig,
    Config,
    RulesConfig,
    config_from_mapping,
    default_template_path,
    load_template,
    template_with,
)
from boardgen.geomap.spec import (
    CELL_COUNT_TOLERANCE,
    KOPPEN_CLASSES,
    MAX_RASTER_PIXELS,
    MAX_SECTIONS_PER_SIDE,
    ZONE_SYMBOLS,
    BoardConfig,
    ClassificationConfig,
    HexConfig,
    MapConfig,
    OverrideConfig,
    PlaceOverride,
    SectionsConfig,
    ZoneConfig,
    cell_count_band,
    resolve_data_path,
)
from boardgen.schema import DICE_SIDES
from boardgen.schema import PodProfileSpec as PodProfileConfig
from boardgen.yaml_reader import (
    _FORBIDDEN_CHARS,
    MAX_DATA_BYTES,
    MAX_EXTENDS_DEPTH,
    MAX_TEMPLATE_BYTES,
    MAX_TEMPLATE_DEPTH,
    MAX_TEMPLATE_NODES,
    TemplateLoader,
    _deep_merge,
    _read_yaml,
    _resolve_extends,
    _shown_key,
    _TemplateError,
    data_dir,
    forbidden_kind,
    parse_length_mm,
    read_bounded,
    short_repr,
    templates_dir,
)

Mm = float
"""A length in millimetres (the template may write it with a unit)."""
Colour = str
"""An sRGB colour written ``#rrggbb``."""

__all__ = [
    "CELL_COUNT_TOLERANCE", "DICE_SIDES", "KOPPEN_CLASSES", "MAX_DATA_BYTES", "MAX_EXTENDS_DEPTH", "MAX_RASTER_PIXELS",
    "MAX_SECTIONS_PER_SIDE", "MAX_TEMPLATE_BYTES", "MAX_TEMPLATE_DEPTH", "MAX_TEMPLATE_NODES", "MAX_VALIDATE_GAMES",
    "PIECE_FORMS", "PLAYER_SHAPES", "ZONE_SYMBOLS", "_FORBIDDEN_CHARS", "BoardConfig", "ClassificationConfig",
    "Colour", "ComponentsConfig", "Config", "ConfigError", "HexConfig", "MapConfig", "Mm", "OverrideConfig",
    "PlaceOverride", "PodProfileConfig", "RulesConfig", "SectionsConfig", "TemplateLoader", "ZoneConfig",
    "_TemplateError", "_deep_merge", "_read_yaml", "_resolve_extends", "_shown_key", "cell_count_band",
    "config_from_mapping", "data_dir", "default_template_path", "forbidden_kind", "load_template",
    "parse_length_mm", "read_bounded", "resolve_data_path", "short_repr", "template_with", "templates_dir",
]

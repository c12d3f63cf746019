"""Names for the large islands a board may keep as single cells (``boardgen info``).

Natural Earth's land polygons carry no names, so this is a small gazetteer of our own: every island of about
25,000 km2 or more (the default ``map.island_min_area_km2``) with a rough centre (lon, lat in degrees). A kept
island is named after the nearest entry within ``MAX_DISTANCE_DEG``.
"""

from __future__ import annotations

import math

ISLANDS: tuple[tuple[str, float, float], ...] = (
    ("Greenland", -41.0, 72.0), ("New Guinea", 141.0, -5.0), ("Borneo", 114.0, 1.0),
    ("Madagascar", 47.0, -19.0), ("Baffin Island", -71.0, 68.0), ("Sumatra", 102.0, 0.0),
    ("Honshu", 138.0, 36.0), ("Victoria Island", -110.0, 71.0), ("Great Britain", -2.0, 54.0),
    ("Ellesmere Island", -79.0, 80.0), ("Sulawesi", 121.0, -2.0), ("South Island, New Zealand", 170.5, -43.5),
    ("Java", 110.0, -7.5), ("North Island, New Zealand", 175.5, -38.5), ("Luzon", 121.0, 16.0),
    ("Newfoundland", -56.0, 48.5), ("Cuba", -79.5, 21.5), ("Iceland", -19.0, 65.0), ("Mindanao", 125.0, 7.5),
    ("Ireland", -8.0, 53.3), ("Hokkaido", 143.0, 43.3), ("Hispaniola", -71.0, 19.0), ("Sakhalin", 143.0, 50.0),
    ("Banks Island", -121.5, 73.0), ("Sri Lanka", 80.7, 7.8), ("Tasmania", 146.6, -42.0),
    ("Devon Island", -87.0, 75.3), ("Tierra del Fuego", -68.5, -54.0), ("Novaya Zemlya (north)", 59.0, 75.5),
    ("Novaya Zemlya (south)", 55.0, 72.0), ("Axel Heiberg Island", -91.0, 79.4), ("Melville Island", -110.0, 75.5),
    ("Southampton Island", -84.0, 64.5), ("Marajó", -49.5, -1.0), ("Spitsbergen", 17.0, 78.5),
    ("Kyushu", 131.0, 32.5), ("Taiwan", 121.0, 23.7), ("New Britain", 151.0, -5.5),
    ("Prince of Wales Island", -99.0, 72.5), ("Vancouver Island", -125.5, 49.6), ("Sicily", 14.2, 37.5),
    ("Hainan", 109.8, 19.2), ("Timor", 125.0, -9.2), ("Bathurst Island", -100.0, 76.0),
    ("Prince Patrick Island", -119.0, 76.5), ("Alexander Island", -70.0, -71.0), ("Berkner Island", -47.0, -79.5),
)
MAX_DISTANCE_DEG = 4.0


def _degrees_apart(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians((lon2 - lon1 + 180) % 360 - 180)
    c = math.sin(p1) * math.sin(p2) + math.cos(p1) * math.cos(p2) * math.cos(dl)
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def island_name(lon: float, lat: float) -> str | None:
    """The gazetteer's island nearest to (lon, lat), if one lies within ``MAX_DISTANCE_DEG``."""
    best = min(ISLANDS, key=lambda e: _degrees_apart(lon, lat, e[1], e[2]))
    return best[0] if _degrees_apart(lon, lat, best[1], best[2]) <= MAX_DISTANCE_DEG else None


def format_lonlat(lon: float, lat: float) -> str:
    """'lon 175.6, lat -37.8': the order templates use (lon, lat), labelled so nobody reads it backwards."""
    return f"lon {lon:.1f}, lat {lat:.1f}"

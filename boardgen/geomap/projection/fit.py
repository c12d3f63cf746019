"""lon/lat <-> board millimetres: a PROJ projection fitted to the board by its whole-world frame.

A strip along the board's left edge may be reserved (``board.panel_strip``): the frame is then fitted into the
rest. The board is fitted to the projection's fixed frame (the outline of the whole globe, lon_0 +- 180 degrees),
never to the data's bounds, so a data update cannot shift the cells. ``+over`` keeps vertices on the map
edge from wrapping to the other side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pyproj
import shapely
from shapely.geometry import MultiPolygon, Polygon

from boardgen.errors import ConfigError
from boardgen.geomap.projection.land import as_multipolygon, cut_at_meridian


@dataclass(frozen=True)
class BoardProjection:
    proj_string: str
    width_mm: float
    height_mm: float
    margin_mm: float
    frame_south_deg: float = -90.0
    frame_north_deg: float = 90.0
    source: str = "template"  # the template file, for error messages
    reserve_left_mm: float = 0.0  # a strip along the board's left edge kept free of the map (legend panels)

    @classmethod
    def from_config(cls, config: Any) -> BoardProjection:
        """The projection of a ``MapSpec`` (or a template holding its ``map`` and ``board`` sections)."""
        south, north = config.map.frame_latitudes
        b = config.board
        return cls(config.map.projection, b.width_mm, b.height_mm, b.margin_mm, south, north, config.source,
                   float(b.panel_strip_mm or 0.0))

    @cached_property
    def crs(self) -> pyproj.CRS:
        text = self.proj_string
        if text.lstrip().startswith("+proj") and "+over" not in text:
            text += " +over"  # keep vertices on the map edge from wrapping to the other side
        return pyproj.CRS.from_user_input(text)

    @cached_property
    def central_meridian_deg(self) -> float:
        operation = self.crs.coordinate_operation
        for param in operation.params if operation is not None else ():
            name = param.name.lower()
            if "longitude" in name and ("origin" in name or "central" in name):
                return float(param.value)
        return 0.0

    @cached_property
    def _forward(self) -> pyproj.Transformer:
        return pyproj.Transformer.from_crs("EPSG:4326", self.crs, always_xy=True)

    @cached_property
    def frame_lonlat(self) -> np.ndarray:
        """The map's outline as a closed lon/lat ring: west edge up, along the north limit (the pole by default),
        east edge down, back along the south limit."""
        west, east = self.central_meridian_deg - 180.0, self.central_meridian_deg + 180.0
        south, north = self.frame_south_deg, self.frame_north_deg
        lat = np.linspace(south, north, 361)
        lon = np.linspace(west, east, 721)
        ring = np.concatenate([
            np.column_stack([np.full_like(lat, west), lat]),
            np.column_stack([lon, np.full_like(lon, north)]),
            np.column_stack([np.full_like(lat, east), lat[::-1]]),
            np.column_stack([lon[::-1], np.full_like(lon, south)]),
        ])
        return ring

    @cached_property
    def _frame_projected(self) -> tuple[np.ndarray, np.ndarray]:
        x, y = self._forward.transform(self.frame_lonlat[:, 0], self.frame_lonlat[:, 1])
        x, y = np.asarray(x), np.asarray(y)
        finite = np.all(np.isfinite(x)) and np.all(np.isfinite(y))
        if not finite or max(np.ptp(x), np.ptp(y)) > 1e8:  # 100,000 km: the frame runs off to infinity
            raise ConfigError(self.source, "map.projection",
                              f"{self.proj_string!r} cannot show the map frame (every longitude, latitudes "
                              f"{self.frame_south_deg:g} to {self.frame_north_deg:g}); expected a world projection "
                              "or narrower map.frame_latitudes")
        if not Polygon(np.column_stack([x, y])).is_valid or not self._round_trips():
            raise ConfigError(self.source, "map.projection",
                              f"{self.proj_string!r} cannot show the whole world in one frame (its outline crosses "
                              "itself or points do not project back); expected a world projection such as "
                              "'+proj=wintri', '+proj=robin' or '+proj=eqearth'")
        return x, y

    def _round_trips(self) -> bool:
        """Every point of a 5-degree grid inside the frame projects to finite coordinates and back to itself
        (a local projection such as utm, or one centred on a pole, fails this far from its centre)."""
        west = self.central_meridian_deg - 179.0
        grid_lon, grid_lat = np.meshgrid(np.linspace(west, west + 358.0, 73),
                                         np.linspace(self.frame_south_deg + 0.5, self.frame_north_deg - 0.5, 37))
        lon, lat = grid_lon.ravel(), grid_lat.ravel()
        with np.errstate(all="ignore"):
            x, y = self._forward.transform(lon, lat)
            if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
                return False
            back_lon, back_lat = self._forward.transform(x, y, direction="INVERSE")
            back_lon, back_lat = np.asarray(back_lon), np.asarray(back_lat)
            d_lon = np.abs((back_lon - lon + 180.0) % 360.0 - 180.0)
            ok = np.isfinite(back_lon) & np.isfinite(back_lat) & (np.abs(back_lat - lat) < 1e-3)
            ok &= (d_lon < 1e-3) | (np.abs(lat) > 89.0)
        return bool(np.all(ok))

    @cached_property
    def scale_mm_per_m(self) -> float:
        x, y = self._frame_projected
        return min((self.width_mm - 2 * self.margin_mm - self.reserve_left_mm) / np.ptp(x),
                   (self.height_mm - 2 * self.margin_mm) / np.ptp(y))

    @property
    def _centre_x_mm(self) -> float:
        """Where the frame's centre sits across the board: the middle of what the reserved strip leaves."""
        return (self.width_mm + self.reserve_left_mm) / 2 if self.reserve_left_mm else self.width_mm / 2

    @cached_property
    def _centre_m(self) -> tuple[float, float]:
        x, y = self._frame_projected
        return 0.5 * (x.min() + x.max()), 0.5 * (y.min() + y.max())

    def projected_to_mm(self, x_m: np.ndarray, y_m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        cx, cy = self._centre_m
        s = self.scale_mm_per_m
        return self._centre_x_mm + (np.asarray(x_m) - cx) * s, self.height_mm / 2 - (np.asarray(y_m) - cy) * s

    def mm_to_projected(self, x_mm: np.ndarray, y_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        cx, cy = self._centre_m
        s = self.scale_mm_per_m
        return cx + (np.asarray(x_mm) - self._centre_x_mm) / s, cy - (np.asarray(y_mm) - self.height_mm / 2) / s

    def to_mm(self, lon: np.ndarray, lat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x, y = self._forward.transform(np.asarray(lon, dtype=float), np.asarray(lat, dtype=float))
        return self.projected_to_mm(x, y)

    def to_lonlat(self, x_mm: np.ndarray, y_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Board mm -> lon/lat; longitudes stay continuous across the map edge (may exceed +-180)."""
        x, y = self.mm_to_projected(x_mm, y_mm)
        lon, lat = self._forward.transform(x, y, direction="INVERSE")
        return np.asarray(lon), np.asarray(lat)

    @cached_property
    def equator_km_per_mm(self) -> float:
        """True ground distance per board mm along the equator at the central meridian (WGS84 geodesic)."""
        lon0 = self.central_meridian_deg
        x_mm, y_mm = self.to_mm(np.array([lon0 - 1.0, lon0 + 1.0]), np.array([0.0, 0.0]))
        _, _, metres = pyproj.Geod(ellps="WGS84").inv(lon0 - 1.0, 0.0, lon0 + 1.0, 0.0)
        return float(metres / 1000 / np.hypot(x_mm[1] - x_mm[0], y_mm[1] - y_mm[0]))

    @cached_property
    def frame_mm(self) -> Polygon:
        x, y = self.projected_to_mm(*self._frame_projected)
        return Polygon(np.column_stack([x, y])).buffer(0)

    @cached_property
    def _frame_insets(self) -> dict[float, Polygon]:
        return {}

    def frame_inset_mm(self, inset_mm: float) -> Polygon:
        """``frame_mm`` shrunk by ``inset_mm``, made once per inset (an oval outline has thousands of vertices:
        the cells on its rim would each buffer it again)."""
        if inset_mm not in self._frame_insets:
            self._frame_insets[inset_mm] = self.frame_mm.buffer(-inset_mm)
        return self._frame_insets[inset_mm]

    def geometry_to_mm(self, polygons: Sequence[Polygon]) -> MultiPolygon:
        """Land polygons in lon/lat (within -180..180) -> board mm, cut at the map's edge meridian."""
        window = cut_at_meridian(polygons, self.central_meridian_deg - 180.0)

        def project(coords: np.ndarray) -> np.ndarray:
            x, y = self.to_mm(coords[:, 0], coords[:, 1])
            return np.column_stack([x, y])

        parts = np.array(shapely.transform(window, project).geoms)
        invalid = ~shapely.is_valid(parts)
        parts[invalid] = shapely.make_valid(parts[invalid])  # only the few rings projection bent over
        return as_multipolygon(shapely.GeometryCollection(list(parts)))

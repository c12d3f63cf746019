"""Can colour-blind players tell the zones apart? Simulated colour vision deficiency and colour differences.

Simulation: Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for Simulation of Color
Vision Deficiency", IEEE TVCG 15(6), severity 1.0 matrices, applied to linear sRGB. Difference: CIEDE2000
(Sharma, Wu and Dalal 2005) in CIELAB under D65. ``palette_report`` gives, for normal vision and each
deficiency, the closest pair of colours and their difference; ``check_palette`` raises when any pair falls
below a threshold.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

MACHADO_2009: Mapping[str, np.ndarray] = {
    "normal": np.eye(3),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779],
                            [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}  # fmt: skip

MIN_DELTA_E = 15.0
"""Smallest CIEDE2000 difference we accept between two zone colours, under any simulated vision. About 2-3
units is a just-noticeable difference side by side; 10+ is plainly different across a board."""


def hex_to_srgb(colour: str) -> np.ndarray:
    colour = colour.lstrip("#")
    return np.array([int(colour[i:i + 2], 16) / 255.0 for i in (0, 2, 4)])


def srgb_to_linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(c: np.ndarray) -> np.ndarray:
    c = np.clip(c, 0.0, 1.0)
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(colour: str, vision: str) -> np.ndarray:
    """The sRGB (0..1) a viewer with ``vision`` sees for ``colour``."""
    linear = srgb_to_linear(hex_to_srgb(colour))
    return linear_to_srgb(MACHADO_2009[vision] @ linear)


def srgb_to_lab(c: np.ndarray) -> np.ndarray:
    linear = srgb_to_linear(np.asarray(c, dtype=float))
    m = np.array([[0.4124564, 0.3575761, 0.1804375],
                  [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]])
    xyz = m @ linear / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def ciede2000(lab1: Sequence[float] | np.ndarray, lab2: Sequence[float] | np.ndarray) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    c_bar = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp = l2 - l1
    dcp = c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    elif h2p - h1p > 180:
        dhp = h2p - h1p - 360
    else:
        dhp = h2p - h1p + 360
    d_hp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    l_bar = (l1 + l2) / 2
    cp_bar = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_bar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hp_bar = (h1p + h2p + 360) / 2
    else:
        hp_bar = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hp_bar - 30)) + 0.24 * math.cos(math.radians(2 * hp_bar))
         + 0.32 * math.cos(math.radians(3 * hp_bar + 6)) - 0.20 * math.cos(math.radians(4 * hp_bar - 63)))
    d_theta = 30 * math.exp(-(((hp_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dlp / s_l) ** 2 + (dcp / s_c) ** 2 + (d_hp / s_h) ** 2 + r_t * (dcp / s_c) * (d_hp / s_h))


@dataclass(frozen=True)
class ClosestPair:
    vision: str
    first: str
    second: str
    delta_e: float


def palette_report(colours: Mapping[str, str]) -> list[ClosestPair]:
    """For each vision, the two named colours that look most alike and their CIEDE2000 difference."""
    report = []
    for vision in MACHADO_2009:
        labs = {name: srgb_to_lab(simulate(colour, vision)) for name, colour in colours.items()}
        worst = min((ciede2000(labs[a], labs[b]), a, b) for a, b in itertools.combinations(colours, 2))
        report.append(ClosestPair(vision, worst[1], worst[2], worst[0]))
    return report


def check_palette(colours: Mapping[str, str], minimum: float = MIN_DELTA_E) -> list[ClosestPair]:
    """``palette_report``, raising ValueError naming the pair when any difference is below ``minimum``."""
    report = palette_report(colours)
    for pair in report:
        if pair.delta_e < minimum:
            raise ValueError(f"{pair.first} and {pair.second} look alike under {pair.vision} "
                             f"(CIEDE2000 {pair.delta_e:.1f} < {minimum:g})")
    return report

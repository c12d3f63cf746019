#!/usr/bin/env bash
# Install what boardgen needs and build the default kit (the README's first command).
#   bash scripts/setup.sh            # system libraries if missing, Python packages, then `boardgen build`
# Run it inside the Python environment you want boardgen in (a venv is best). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
ldconfig -p 2>/dev/null | grep -q 'libcairo\.so\.2' || need+=(libcairo2)
fc-list 2>/dev/null | grep -qi 'DejaVuSans\.ttf' || need+=(fonts-dejavu-core fontconfig)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
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
boardgen build

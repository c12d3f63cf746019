#!/usr/bin/env bash
# Rebuild boardgen/icc/FOGRA39L-boardgen.icc, the CMYK output profile of the print-shop poster (see
# docs/print-shop.md). Needs git, python3 and ArgyllCMS's colprof (Debian: apt-get install argyll).
# The profile in the repository was made with colprof 2.3.1 (Debian argyll 2.3.1+repack-1.1); colprof
# stamps the creation date into the file, so a rebuild differs in those bytes only.
set -euo pipefail
COLORD_COMMIT=f5220d8ec5811f5ba20d3f0eb54f30a57df1bc22
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
curl -fsSL -o FOGRA39L_coated.iccprofile.xml \
  "https://raw.githubusercontent.com/hughsie/colord/$COLORD_COMMIT/data/profiles/FOGRA39L_coated.iccprofile.xml"
echo "d132982babf3ae78675d76c227c6f14b10be7c761654a54739fd710716e4b286  FOGRA39L_coated.iccprofile.xml" | sha256sum -c -
python3 - <<'PY'
import re
xml = open("FOGRA39L_coated.iccprofile.xml").read()
open("FOGRA39L.ti3", "w").write(re.search(r"<data_ti3>(.*?)</data_ti3>", xml, re.S).group(1).strip() + "\n")
PY
# colord's own settings for this profile (stle, stpo, enpo, enle, shape; total ink limit 300 %)
colprof -qm -kp 0.0 0.3 0.94 0.94 0.48 -l300 \
  -D "FOGRA39L coated (boardgen, from colord's CC0 data)" \
  -C "CC0 1.0: no rights reserved. Made with ArgyllCMS colprof from the FOGRA39L characterisation data in colord's FOGRA39L_coated.iccprofile.xml" \
  FOGRA39L
cp FOGRA39L.icc "$repo/boardgen/icc/FOGRA39L-boardgen.icc"
echo "wrote boardgen/icc/FOGRA39L-boardgen.icc"

"""Which world projection fills the 66 x 44 cm board best? Prints, for each candidate, the share of the board
inside the whole-world frame, the share covered by land (Antarctica off) and the hex size that gives the
template's target cell count (bigger hexes = more room for pieces and labels).

    python benchmarks/compare_projections.py
"""

from __future__ import annotations

from boardgen.games.global_wellbeing.schema import load_template
from boardgen.geomap.build import build_board

CANDIDATES = ["wintri", "kav7", "natearth", "robin", "eck4", "eqearth", "moll"]


def main() -> None:
    base = load_template()
    print(f"{'projection':<10} {'frame':>7} {'land':>7} {'hex mm':>7} {'cells':>6}")
    for name in CANDIDATES:
        config = base.model_copy(update={"map": base.map.model_copy(update={"projection": f"+proj={name} +lon_0=11"})})
        board = build_board(config)
        area = config.board.width_mm * config.board.height_mm
        frame_share = board.frame_mm.area / area
        land_share = board.land_mm.area / area
        print(f"{name:<10} {frame_share:>7.1%} {land_share:>7.1%} {board.layout.size_mm:>7.2f} {len(board.cells):>6}")


if __name__ == "__main__":
    main()

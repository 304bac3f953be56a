"""layout/booklet: the page order of a saddle-stitched booklet.

A booklet of n pages (n a multiple of 4, blank pages added at the end) is printed two pages to a
sheet side, duplex, the sheets nested and folded down the middle. Side 1 holds the last page
beside page 1 (the outside of the outer sheet), side 2 pages 2 and n-1, and so on inwards.
"""
from __future__ import annotations

PAGES_A_SHEET = 4  # two pages on each side of a folded sheet


def padded_count(pages: int) -> int:
    """The booklet's page count: the pages, and blank ones up to a multiple of 4."""
    return max(PAGES_A_SHEET, -(-pages // PAGES_A_SHEET) * PAGES_A_SHEET)


def saddle_stitch_sides(pages: int) -> list[tuple[int, int]]:
    """(left, right) page numbers (1-based) of each sheet side in printing order, for a booklet
    of `pages` pages after padding."""
    n = padded_count(pages)
    sides = []
    for sheet in range(n // PAGES_A_SHEET):
        outer = 2 * sheet
        sides.append((n - outer, outer + 1))      # front: the outer pair
        sides.append((outer + 2, n - outer - 1))  # back: the inner pair
    return sides

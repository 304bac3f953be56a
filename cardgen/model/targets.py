"""Export targets: what a print service or Tabletop Simulator takes, per card size."""
from __future__ import annotations

from dataclasses import dataclass

from cardgen.model.sizes import CARD_SIZES_MM, DEFAULT_BLEED_MM, CardSize, card_size_mm


@dataclass(frozen=True)
class CardPixels:
    """A card size at a target: trim width and height, bleed on each side and the safe zone
    inside the trim line, in pixels at the target's dpi."""

    trim: tuple[float, float]
    bleed: float
    safe: float

    @property
    def full(self) -> tuple[int, int]:
        return round(self.trim[0] + 2 * self.bleed), round(self.trim[1] + 2 * self.bleed)


@dataclass(frozen=True)
class TtsSheet:
    columns: int = 10
    rows: int = 7
    max_pixels: int = 4096


@dataclass(frozen=True)
class Target:
    id: str
    name: str
    format: str
    dpi: int
    size_table: tuple[tuple[str, CardPixels], ...] = ()  # none: the game's own card size
    bleed_mm: float = DEFAULT_BLEED_MM  # with no sizes: the bleed around the game's card size
    color: str = "rgb"  # sizes.COLOR_MODES; cmyk: a PDF/X-1a file (1up-pdf)
    sheet: TtsSheet = TtsSheet()

    @property
    def sizes(self) -> dict[str, CardPixels]:
        return dict(self.size_table)

    def missing_product(self, card_size: CardSize) -> str | None:
        """Why the target cannot make cards of this size (a vendor's fixed sizes), or None."""
        if not self.sizes or isinstance(card_size, str) and card_size in self.sizes:
            return None
        if isinstance(card_size, str) and card_size in CARD_SIZES_MM:
            label = card_size
        else:
            width, height = card_size_mm(card_size)
            label = f"{width:g}x{height:g} mm"
        return f"{self.name} ({self.id}) has no product for {label} cards"

    def product_hint(self) -> str:
        return (f"its card sizes are: {', '.join(self.sizes)}; set card_size in game.yaml, "
                "or add the size to an export-targets.yaml in the game folder")

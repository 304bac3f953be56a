"""render/cards: print-and-play card sheets and card faces with ReportLab.

Each distinct card face (and each back) is drawn once as a PDF form and placed on the sheets
as often as the setup needs it, clipped to its cell: so a 90-card deck costs about as much as
its 30 distinct cards, and the faces are identical wherever they appear. Positions come from
`layout` (pure geometry), the card design from the game's Layout (checked by load).
"""
from cardgen.layout.colors import back_design, name_color
from cardgen.render.cards.calibration import write_calibration
from cardgen.render.cards.painter import CardPainter, form_name
from cardgen.render.cards.sheets import (
    PNG_DPI,
    placing_order,
    render_sheets,
    write_proof_sheet,
    write_setup_sheets,
)

__all__ = [
    "PNG_DPI", "CardPainter", "back_design", "form_name", "name_color",
    "placing_order", "render_sheets", "write_calibration", "write_proof_sheet", "write_setup_sheets",
]

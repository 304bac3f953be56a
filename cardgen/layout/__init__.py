"""layout: geometry and type setting shared by check and render: where each card, back, cut and
mark goes on a sheet, and how a card's texts are set in their boxes."""

"""model: the game as frozen, typed dataclasses, and the pure rules on them (no I/O).

Every later stage reads these: load builds them, check confirms them, render prints them."""

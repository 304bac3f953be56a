"""cardgen: print-and-play card sheets, rulebooks, setup checklists and cheat sheets from YAML."""

__version__ = "0.1.0"

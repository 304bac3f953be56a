"""cardgen: print-and-play card sheets, rulebooks, setup checklists and cheat sheets from YAML."""

import os

__version__ = "0.1.0"

# ReportLab reads RL_* environment variables once, when first imported, and stops its import on
# a value it cannot convert. cardgen holds ReportLab's settings at their defaults anyway
# (reportlab_config), so that the bytes depend on the input only: the variables are set aside.
for _name in [name for name in os.environ if name.startswith("RL_")]:
    del os.environ[_name]


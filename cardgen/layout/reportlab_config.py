"""reportlab_config: ReportLab's settings held at its defaults while cardgen makes anything that
ends up in a PDF (a registered font, a canvas), so the bytes depend on the input only.

ReportLab reads its settings from RL_* environment variables and a reportlab_settings file, and
objects keep what they read when made: a font registered outside the guard (the check stage
measures text with the renderer's fonts, before the workers fork) keeps the environment's
RL_ttfAsciiReadable in every sheet drawn with it.
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache


@contextmanager
def reproducible() -> Iterator[None]:
    """Same input, same bytes, whatever the environment: ReportLab's settings are held at their
    defaults; and ReportLab dates (and seeds the file id with) SOURCE_DATE_EPOCH even in
    invariant mode, so it is set aside. Compressed streams also stay binary: ASCII85 on top
    costs a fifth of the build time and a quarter more bytes, for PDF readers that all take
    binary anyway."""
    from reportlab import rl_config  # imported here: a module that only measures texts does not import ReportLab

    defaults = _defaults()
    saved = {name: getattr(rl_config, name) for name in defaults}
    saved_epoch = os.environ.pop("SOURCE_DATE_EPOCH", None)
    for name, value in defaults.items():
        setattr(rl_config, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(rl_config, name, value)
        if saved_epoch is not None:
            os.environ["SOURCE_DATE_EPOCH"] = saved_epoch


@cache
def _defaults() -> dict[str, object]:
    from reportlab import rl_settings

    # rl_config holds these in another form than rl_settings (a page size, search paths): they
    # only say where to find fonts by name or the page size of documents cardgen sizes itself
    converted = {"defaultPageSize", "T1SearchPath", "TTFSearchPath", "CMapSearchPath", "unShapedFontGlob"}
    defaults = {name: getattr(rl_settings, name) for name in rl_settings.__all__ if name not in converted}
    return defaults | {"useA85": 0}


"""publish/imports: modules imported for the rest of a process's life, kept out of the cycle
collector's passes."""
from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType


@contextmanager
def imports_kept() -> Iterator[None]:
    """What is imported inside (modules, their classes and functions) lives as long as the
    process: the cycle collector is paused while it is made and it is set aside from the
    collector's passes after (gc.freeze), which would look through all of it again and again and
    find no garbage (a command's stages, then the renderers and ReportLab: some 6 ms of a
    `cardgen cards`)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def import_kept(name: str) -> ModuleType:
    """The module `name`: imported the first time under `imports_kept` (later, as imported: a
    long-lived process, serve's, would otherwise set aside the garbage of each build before it)."""
    if name in sys.modules:
        return sys.modules[name]
    with imports_kept():
        return importlib.import_module(name)

"""publish/reuse: a command run again on unchanged files answers with its last run's outputs,
without loading the game: the digest of the input files and options is its key in the output
folder's manifest. Light (no worker pool, no renderer, no load): `cardgen build` with nothing
changed costs the digest and this."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from cardgen.inputs.gitrefs import commit_of
from cardgen.inputs.unpack import BadRef
from cardgen.publish import cache
from cardgen.publish.folder import current_outputs, left_behind, read_manifest
from cardgen.publish.result import Result
from cardgen.render.write import output_folder


def reuse(inputs: cache.Snapshot, request: Any, out: str | os.PathLike | None = None) -> Result | None:
    """What the last run of the same command published, if every input file and option is the
    same and its outputs are unchanged on disk; None if anything needs building. Loads nothing:
    a build with nothing to do costs a digest of the input files and outputs. A folder a killed
    run left behind is no answer: the run that removes it (`recover`) is a full one."""
    out = output_folder(inputs.folder.name, out)
    if any(left_behind(out)):
        return None
    manifest = read_manifest(out)
    last = manifest["cache"]["runs"].get(cache.request_key(inputs, request))
    known = current_outputs(out, manifest)
    if not isinstance(last, dict) or not all(key in known for key in last.get("outputs", ())):
        return None
    if not _same_revisions(last.get("revisions", {}), inputs.folder):
        return None
    reused = [out / name for key in last["outputs"] for name in known[key]["files"]]
    warnings = list(last.get("warnings", ()))
    for language in last.get("languages", ()):  # the same command's other languages: up to date too?
        if not isinstance(language, str) or not _LANGUAGE_FOLDER.fullmatch(language):
            return None
        other = reuse(inputs, request, out / language)
        if other is None:
            return None
        reused += other.reused
        warnings += other.warnings
    return Result(out, reused=tuple(reused), warnings=tuple(warnings), skipped=tuple(last.get("skipped", ())),
                  title=str(last.get("title", "")))


def _same_revisions(revisions: Any, folder: Path) -> bool:
    """Whether every revision a run read still resolves to the same commit (a branch moves)."""
    if not isinstance(revisions, dict):
        return False
    try:
        return all(commit == commit_of(ref, folder)[1] for ref, commit in revisions.items())
    except BadRef:
        return False


_LANGUAGE_FOLDER = re.compile(r"[A-Za-z0-9_-]{1,20}")  # what a manifest may name as a language's folder

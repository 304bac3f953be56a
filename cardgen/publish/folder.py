"""publish/folder: outputs are staged inside the output folder and published all together or not at
all (see the publish package's docstring for the promise), with the manifest written last."""
from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from cardgen.errors import BuildError, CardgenError, UsageError
from cardgen.inputs.files import MANIFEST
from cardgen.render.write import atomic_write

STAGE_PREFIX, PUBLISH_PREFIX, STAGE_SUFFIX = ".cardgen-build-", ".cardgen-publish-", ".tmp"


_WRITE_HINTS = {
    errno.ENOSPC: "free some disk space and build again",
    errno.EDQUOT: "free some disk space and build again",
    errno.EFBIG: "the file system (or a limit set for this process) refuses a file this large",
    errno.ENAMETOOLONG: "shorten the setup name: it names the card-sheet file",
    errno.EROFS: "choose an output folder you can write to with --out",
    errno.EACCES: "choose an output folder you can write to with --out",
    errno.EPERM: "choose an output folder you can write to with --out",
    errno.ENOTDIR: "a part of the output path is a file: choose another folder with --out",
}


FULL_DISK = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


def output_error(exc: OSError, what: str) -> CardgenError:
    """An OSError met while reading or writing an output, as a clean error: a folder the user
    cannot write to is a usage error, a full disk or an impossible file name a build error."""
    where = f" ({exc.filename})" if exc.filename else ""
    message = f"cannot write {what}: {exc.strerror or exc}{where}"
    kind = UsageError if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOTDIR) else BuildError
    return kind(message, hint=_WRITE_HINTS.get(exc.errno or 0, ""))


def made_output_folder(out: Path) -> Path:
    """The output folder, made if it is not there (a usage error when it cannot be)."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"the output folder {out} is a file", hint="choose another folder with --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise UsageError(f"the output folder {out} cannot be created: a part of its path is a file",
                         hint="choose another folder with --out") from None
    except OSError as exc:
        raise output_error(exc, f"the output folder {out}") from None
    return out


@contextmanager
def locked(out: Path) -> Iterator[None]:
    """Runs writing to one folder take turns: one staging and publishing at a time."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        yield
        return
    fd = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def recover(out: Path) -> None:
    """Finish a publish a killed run had committed, and remove staging folders of killed runs.
    The caller holds the folder's lock."""
    committed, staged = left_behind(out)
    for folder in committed:
        publish_committed(folder, out)
    for folder in staged:
        shutil.rmtree(folder, ignore_errors=True)


def left_behind(out: Path) -> tuple[list[Path], list[Path]]:
    """The committed and the staging folders that killed runs left in an output folder. An entry
    with their names that is not a folder of its own (a link, a file) was never made by cardgen:
    it is removed, as a link, and never followed."""
    found = []
    for prefix in (PUBLISH_PREFIX, STAGE_PREFIX):
        folders = []
        for path in sorted(out.glob(f"{prefix}*{STAGE_SUFFIX}")):
            if path.is_symlink() or not path.is_dir():
                path.unlink(missing_ok=True)
            else:
                folders.append(path)
        found.append(folders)
    return found[0], found[1]


def safe_name(name: object) -> bool:
    """Whether a name from a record is a plain path inside the output folder (no .., no root)."""
    if not isinstance(name, str) or not name or "\\" in name or "\0" in name:
        return False
    parts = name.split("/")
    return not name.startswith("/") and all(part not in ("", ".", "..") for part in parts)


def new_stage(out: Path) -> Path:
    try:
        return Path(tempfile.mkdtemp(prefix=STAGE_PREFIX, suffix=STAGE_SUFFIX, dir=out))
    except OSError as exc:
        raise output_error(exc, f"in the output folder {out}") from None


_ENTRIES = ".cardgen-entries.json"  # in a staging folder: what it commits, for the manifest


def commit(stage: Path, made: dict, runs: dict) -> Path:
    """Write the size and SHA-256 of each staged file and the cache's record into the stage,
    then rename it: that one rename commits the build."""
    committed = stage.with_name(PUBLISH_PREFIX + stage.name[len(STAGE_PREFIX):])
    try:
        record = {"outputs": _staged_entries(stage), "made": made, "runs": runs}
        atomic_write(stage / _ENTRIES, json.dumps(record, sort_keys=True).encode("utf-8"))
        os.replace(stage, committed)
    except OSError as exc:
        raise output_error(exc, f"the outputs into {stage.parent}") from None
    _sync_folder(stage.parent)
    return committed


def publish_committed(committed: Path, out: Path) -> list[Path]:
    """Move a committed staging folder's files over the outputs, then write the manifest from
    what was committed (so a publish finished by the next run lists every file, including those
    moved before the kill). An output that is a folder (an export's files) replaces the old
    folder whole."""
    moved = []
    try:
        record = _committed_record(committed)
        for name in sorted({name.split("/")[0] for name in record["outputs"] if safe_name(name)}):
            path, target = committed / name, out / name
            if not os.path.lexists(path) or path.is_symlink() or target.is_symlink():  # moved before a kill; or not ours
                continue
            if path.is_dir():
                _replace_folder(path, target, committed)
            else:
                os.replace(path, target)
            moved.append(target)
        _write_manifest(out, record["outputs"], record["made"], record["runs"])
    except OSError as exc:
        raise BuildError(f"publishing the outputs in {out} stopped halfway: {exc.strerror or exc}",
                         hint="the next run in this folder finishes it") from None
    shutil.rmtree(committed, ignore_errors=True)
    return moved


def _replace_folder(new: Path, target: Path, committed: Path) -> None:
    """An output that is a folder (an export's files): the old folder goes into the committed
    staging folder (removed with it), the new one takes its place."""
    if target.is_dir():
        os.replace(target, committed / f".old-{target.name}")
    os.replace(new, target)


def _entry(data: bytes) -> dict:
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def _committed_record(committed: Path) -> dict:
    """What a committed folder was committed with (its files' entries read again, and no cache
    record, if the record is lost)."""
    try:
        record = json.loads((committed / _ENTRIES).read_text(encoding="utf-8"))
        if isinstance(record, dict) and all(isinstance(record.get(part), dict) for part in ("outputs", "made", "runs")) \
                and all(safe_name(name) for name in record["outputs"]):
            return record
    except (OSError, ValueError):
        pass
    return {"outputs": _staged_entries(committed), "made": {}, "runs": {}}


def _staged_entries(folder: Path) -> dict[str, dict]:
    """The size and SHA-256 of each output file in a staging or committed folder (not its
    record, nor the old folders a publish set aside, nor anything a link leads to)."""
    entries = {}
    for root, _, files in os.walk(folder):  # does not follow links to folders
        for name in sorted(files):
            path = Path(root) / name
            relative = path.relative_to(folder)
            if path.is_symlink() or not path.is_file() or name == _ENTRIES or relative.parts[0].startswith(".old-"):
                continue
            entries[relative.as_posix()] = _entry(path.read_bytes())
    return dict(sorted(entries.items()))


def _write_manifest(out: Path, published: dict, made: dict, runs: dict) -> None:
    """cardgen-manifest.json: each output in the folder cardgen published, with its size and
    SHA-256 as staged, written last. Outputs published by earlier runs keep their entries while
    they exist.

    Its "cache" part records the key each output was made from ("outputs": key -> its files
    and the cards it drew without art) and, per command ("runs": request key), the outputs and
    messages of its last run. A file published again drops the record of what made it before."""
    manifest = read_manifest(out)
    entries, known, last = manifest["outputs"], manifest["cache"]["outputs"], manifest["cache"]["runs"]
    known = {key: entry for key, entry in known.items() if not set(published) & set(entry["files"])}
    known.update(made)
    entries.update(published)
    entries = {name: entry for name, entry in sorted(entries.items()) if (out / name).is_file()}
    known = {key: entry for key, entry in known.items() if all(name in entries for name in entry["files"])}
    last.update(runs)
    last = {request: run for request, run in last.items() if all(key in known for key in run["outputs"])}
    document = {"outputs": entries, "cache": {"outputs": known, "runs": last}}
    atomic_write(out / MANIFEST, (json.dumps(document, indent=2, sort_keys=True) + "\n").encode("utf-8"))


def read_manifest(out: Path) -> dict:
    """The manifest, with empty parts for what it lacks or cannot be read."""
    try:
        document = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        document = {}
    document = document if isinstance(document, dict) else {}
    cached = document.get("cache")
    part: dict[str, Any] = cached if isinstance(cached, dict) else {}
    return {"outputs": {name: entry for name, entry in _mapping(document.get("outputs")).items()
                        if safe_name(name) and isinstance(entry, dict)},
            "cache": {"outputs": {key: entry for key, entry in _mapping(part.get("outputs")).items()
                                  if isinstance(entry, dict) and _names(entry.get("files"))
                                  and isinstance(entry.get("placeholders"), list)
                                  and all(isinstance(name, str) for name in entry["placeholders"])},
                      "runs": {key: run for key, run in _mapping(part.get("runs")).items()
                               if isinstance(run, dict) and all(_texts(run.get(part, []))
                                                                for part in ("outputs", "warnings", "skipped"))}}}


def _texts(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _names(value: object) -> bool:
    return isinstance(value, list) and all(safe_name(name) for name in value)


def _mapping(value) -> dict:
    return dict(value) if isinstance(value, dict) else {}


def current_outputs(out: Path, manifest: dict | None = None) -> dict[str, dict]:
    """The cache's records whose files are on disk exactly as published (size and SHA-256)."""
    manifest = manifest or read_manifest(out)
    entries = manifest["outputs"]
    return {key: entry for key, entry in manifest["cache"]["outputs"].items()
            if all(_unchanged(out / name, entries.get(name)) for name in entry["files"])}


def _unchanged(path: Path, entry) -> bool:
    if not isinstance(entry, dict):
        return False
    try:
        data = path.read_bytes()
    except OSError:
        return False
    return len(data) == entry.get("bytes") and hashlib.sha256(data).hexdigest() == entry.get("sha256")


def _sync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

"""inputs/gitrefs: a game folder as it was at a git revision of the repository holding it.

A REF and the repository are both untrusted: the REF comes from game.yaml or the command line, and
a game folder may come with its own .git (a zip of a designer's repository). So:

- a REF never becomes an option or a path: one starting with '-' or holding a control character
  is refused before git runs, and it is resolved once, by `rev-parse --verify --end-of-options
  REF^{commit}`, to a commit id; everything after names that id;
- the files are read with plumbing only: `ls-tree` lists the game folder's tree (the game folder
  named as `<commit>:<path>`, never a pathspec) with every blob's size, the limits are checked,
  and only then `cat-file --batch` reads the blobs, which applies no filter, attribute or
  conversion; no work tree, index or hook is touched;
- git runs without the system and user configuration, with the settings below over whatever the
  repository's .git/config says (no hooks, no file-system monitor, no network: every transport,
  including a partial clone's lazy fetch, is refused), without replace objects, under a memory,
  CPU-time and wall-clock ceiling;
- a repository that would make git read another one is refused: a .git that is a link, that
  names a folder elsewhere (unless it is a worktree of a repository that names it back), that
  borrows objects (alternates) or holds links among its refs and objects.
"""
from __future__ import annotations

import os
import re
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from cardgen.inputs.unpack import BadRef, Unpacked, check_size

GIT_SECONDS = 30  # wall clock and CPU time, for each run of git
GIT_MEMORY_KB = 1024 * 1024
MAX_REF_FILES = 100_000
MAX_RECORD = 64 * 1024  # a line of ls-tree: mode, type, id, size and a path

# over the repository's own configuration (settings given to git on its command line win)
_SETTINGS = ("core.hooksPath=/dev/null", "core.fsmonitor=false", "core.sshCommand=false", "core.askPass=",
             "credential.helper=", "protocol.allow=never", "safe.bareRepository=explicit", "gc.auto=0",
             "maintenance.auto=false", "core.packedGitWindowSize=32m", "core.packedGitLimit=256m",
             "core.deltaBaseCacheLimit=64m", "core.bigFileThreshold=32m")
_ENVIRONMENT = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_ATTR_NOSYSTEM": "1",
                "GIT_NO_REPLACE_OBJECTS": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_ALLOW_PROTOCOL": "none",
                "GIT_LITERAL_PATHSPECS": "1", "GIT_OPTIONAL_LOCKS": "0", "GIT_PAGER": "cat", "LC_ALL": "C"}
_COMMIT = re.compile(rb"[0-9a-f]{40}([0-9a-f]{24})?")


@dataclass(frozen=True)
class _Blob:
    path: str
    oid: str
    size: int


def git_files(ref: str, game_folder: Path, folder: Unpacked) -> tuple[str, str]:
    """Write the game folder's files at the revision `ref` into `folder`; the commit id it
    resolved to, and the revision as messages name it."""
    root, commit = commit_of(ref, game_folder)
    prefix = _prefix(game_folder, root, ref)
    source = f"{ref} ({prefix})" if prefix else ref
    tree = _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{commit}:{prefix}"], root,
                f"{source}: the game folder is not in that revision").strip().decode()
    blobs = _blobs(root, tree, source)
    places = [(blob, place) for blob in blobs if (place := folder.add(blob.path))]  # all checked before any is read
    with _running(["cat-file", "--batch"], root, source, stdin=True) as git:
        assert git.stdin is not None and git.stdout is not None
        for blob, destination in places:
            _ask(git.stdin, blob.oid, source)
            header = git.stdout.readline(MAX_RECORD).split()
            if header[1:] != [b"blob", str(blob.size).encode()]:
                raise BadRef(f"{source}: git could not read '{blob.path}' ({b' '.join(header[1:]).decode()})")
            folder.write(destination, _exactly(git.stdout, blob.size + 1, source))
    return commit, source


def commit_of(ref: str, game_folder: Path) -> tuple[Path, str]:
    """The top of the work tree of the repository holding the game folder, and the commit id
    `ref` names in it. A REF that could be read as an option is refused before git runs."""
    if ref.startswith("-") or not ref.strip() or any(ord(character) < 32 for character in ref):
        raise BadRef(f"{ref!r} is not a git revision: a revision is a tag, branch or commit id, "
                     "never empty, never starting with '-'")
    root = _repository(ref, game_folder)
    return root, _resolve(ref, root)


def _resolve(ref: str, root: Path) -> str:
    said = _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"], root,
                f"'{ref}' is neither a game folder, a zip of one, nor a git revision of the repository "
                f"holding {root.name}").strip()
    if not _COMMIT.fullmatch(said):
        raise BadRef(f"'{ref}' does not name one commit of the repository holding {root.name}")
    return said.decode()


def _repository(ref: str, game_folder: Path) -> Path:
    """The top of the work tree of the repository holding the game folder, once it is known to
    read only its own objects."""
    said = _git(["rev-parse", "--path-format=absolute", "--show-toplevel", "--absolute-git-dir", "--git-common-dir"],
                game_folder, f"'{ref}' is neither a game folder, a zip of one, nor a git revision: "
                f"{game_folder.name} is in no git repository cardgen can read").decode("utf-8", "surrogateescape")
    lines = said.split("\n")
    if len(lines) != 4 or lines[3]:
        raise BadRef(f"'{ref}': the repository holding {game_folder.name} has a line break in its path")
    root, git_dir, common = (Path(line).resolve() for line in lines[:3])
    _check_own_objects(root, git_dir, common)
    return root


def _check_own_objects(root: Path, git_dir: Path, common: Path) -> None:
    dot_git = root / ".git"
    if dot_git.is_symlink():
        raise BadRef(f"{dot_git} is a link: cardgen reads a repository only from its own .git folder")
    own = git_dir == common == dot_git.resolve() if dot_git.is_dir() else _is_worktree(git_dir, common, dot_git)
    if not own:
        raise BadRef(f"the repository at {root} is read from {common}, which is not its own .git folder "
                     "(nor a worktree of a repository that names it back)")
    if (common / "objects" / "info" / "alternates").exists():
        raise BadRef(f"the repository at {root} borrows objects from another (objects/info/alternates): "
                     "cardgen reads a repository only from its own .git folder")
    link = next(_links(git_dir), None) or next(_links(common), None)
    if link is not None:
        raise BadRef(f"{link} is a link: cardgen reads a repository only from its own .git folder")


def _is_worktree(git_dir: Path, common: Path, dot_git: Path) -> bool:
    """Whether `git_dir` is a linked worktree's folder in the main repository (`common`) that
    names this worktree's .git file back: only that repository can have made it so."""
    back = git_dir / "gitdir"
    try:
        named = back.read_bytes()[:4096].decode("utf-8", "surrogateescape").strip()
    except OSError:
        return False
    return git_dir.parent == common / "worktrees" and Path(named).resolve() == dot_git.resolve()


def _links(git_dir: Path) -> Iterator[Path]:
    """The links among what git reads of a repository: its refs, HEAD and objects."""
    yield from (p for p in (git_dir, git_dir / "HEAD", git_dir / "packed-refs", git_dir / "objects") if p.is_symlink())
    for folder in (git_dir / "objects", git_dir / "objects" / "pack", git_dir / "objects" / "info",
                   git_dir / "reftable"):
        if folder.is_dir() and not folder.is_symlink():
            yield from (Path(entry.path) for entry in os.scandir(folder) if entry.is_symlink())
    seen = 0
    for where, folders, files in os.walk(git_dir / "refs"):
        seen += len(folders) + len(files)
        if seen > MAX_REF_FILES:
            raise BadRef(f"{git_dir} holds more than {MAX_REF_FILES} refs")
        yield from (Path(where, name) for name in folders + files if Path(where, name).is_symlink())


def _prefix(game_folder: Path, root: Path, ref: str) -> str:
    try:
        relative = game_folder.resolve().relative_to(root).as_posix()
    except ValueError:
        raise BadRef(f"'{ref}': {game_folder.name} is not inside the work tree of its repository ({root})") from None
    return "" if relative == "." else relative


def _blobs(root: Path, tree: str, source: str) -> list[_Blob]:
    """The files of the tree with their sizes, refused before any is read when they are too many
    or too large; links and submodules are left out (a game's files are regular ones)."""
    blobs, entries, size = [], 0, 0
    with _running(["ls-tree", "-r", "-z", "-l", "--full-tree", tree, "--"], root, source) as git:
        assert git.stdout is not None
        for record in _records(git.stdout, source):
            meta, _, path = record.partition(b"\t")
            mode, kind, oid, length = meta.split()
            entries += 1
            if kind == b"blob" and not length.isdigit():  # git could not find it (a partial clone's)
                raise BadRef(f"{source}: git could not read '{path.decode('utf-8', 'replace')}'")
            if kind == b"blob" and mode in (b"100644", b"100755"):
                blobs.append(_Blob(path.decode("utf-8", "surrogateescape"), oid.decode(), int(length)))
                size += int(length)
            check_size(entries, size, source)
    return blobs


def _records(stream: IO[bytes], source: str) -> Iterator[bytes]:
    pending = b""
    for chunk in iter(lambda: stream.read(1 << 16), b""):
        *records, pending = (pending + chunk).split(b"\0")
        yield from records
        if len(pending) > MAX_RECORD:
            raise BadRef(f"{source}: a path in it is longer than {MAX_RECORD // 1024} KB")


def _ask(stdin: IO[bytes], oid: str, source: str) -> None:
    try:
        stdin.write(oid.encode() + b"\n")
        stdin.flush()
    except OSError:
        raise BadRef(f"{source}: git stopped while reading it") from None


def _exactly(stream: IO[bytes], size: int, source: str) -> Iterator[bytes]:
    """`size` bytes of the stream, the last one (cat-file's newline after each object) left out."""
    left = size
    while left:
        chunk = stream.read(min(left, 1 << 20))
        if not chunk:
            raise BadRef(f"{source}: git stopped while reading it")
        left -= len(chunk)
        yield chunk[:-1] if not left else chunk


def _command(args: list[str], where: Path) -> list[str]:
    git = ["git", "-C", str(where), *(part for setting in _SETTINGS for part in ("-c", setting)), *args]
    if os.name != "posix":
        return git
    ceilings = f"ulimit -v {GIT_MEMORY_KB} 2>/dev/null; ulimit -t {GIT_SECONDS} 2>/dev/null; exec \"$@\""
    return ["sh", "-c", ceilings, "git", *git]


def _environment() -> dict[str, str]:
    """Ours, without the caller's GIT_* variables (a GIT_DIR or GIT_ALTERNATE_OBJECT_DIRECTORIES
    would lead git elsewhere)."""
    return {**{k: v for k, v in os.environ.items() if not k.startswith("GIT_")}, **_ENVIRONMENT}


def _git(args: list[str], where: Path, failure: str) -> bytes:
    """The output of a short run of git; BadRef with `failure` and git's last words when it fails."""
    try:
        run = subprocess.run(_command(args, where), capture_output=True, timeout=GIT_SECONDS, env=_environment(),
                             stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        raise BadRef(f"{failure} (git is not installed)") from None
    except subprocess.TimeoutExpired:
        raise BadRef(f"{failure}: git took over {GIT_SECONDS} s") from None
    if run.returncode != 0:
        raise BadRef(failure + _last_words(run.stderr))
    return run.stdout


@contextmanager
def _running(args: list[str], where: Path, source: str, stdin: bool = False) -> Iterator[subprocess.Popen[bytes]]:
    """A run of git whose output is read as it comes, stopped when the reader stops or after
    GIT_SECONDS; BadRef when git fails."""
    with tempfile.TemporaryFile() as errors:
        try:
            git = subprocess.Popen(_command(args, where), stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=errors, env=_environment())
        except FileNotFoundError:
            raise BadRef(f"{source}: git is not installed") from None
        expired = threading.Event()

        def stop() -> None:
            expired.set()
            git.kill()

        timer = threading.Timer(GIT_SECONDS, stop)
        timer.start()
        try:
            yield git
            _close(git.stdin)
            git.wait()
        finally:
            timer.cancel()
            if git.poll() is None:
                git.kill()
            git.wait()
            _close(git.stdin)
            _close(git.stdout)
        if expired.is_set():
            raise BadRef(f"{source}: git took over {GIT_SECONDS} s to read it")
        if git.returncode != 0:
            errors.seek(0)
            raise BadRef(f"{source}: git could not read it" + _last_words(errors.read(4096)))


def _close(stream: IO[bytes] | None) -> None:
    try:
        if stream is not None:
            stream.close()
    except OSError:  # git is gone: what was left to write to it does not matter
        pass


def _last_words(stderr: bytes) -> str:
    said = stderr.decode("utf-8", "replace").strip().splitlines()
    return f" (git: {said[-1]})" if said else ""

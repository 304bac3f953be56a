"""Earlier versions given as REF (`diff --since`, `cards --changed-since`, game.yaml's
`changes_since:`): a git revision of a repository that may be hostile (a game folder shipping its
own .git), a REF that may be an option, a zip that may be damaged or hostile. Every case ends with
exit 0, 1 or 2 and a message, runs nothing from the repository, touches nothing outside the game
folder and reads no more than the limits."""
from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import socket
import struct
import subprocess
import warnings
import zipfile
import zlib
from pathlib import Path

import pytest
from conftest import FUZZ_SCALE, TINY_GAME, cardgen, edit, page_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.errors import CardgenError
from cardgen.inputs.refs import BadRef, earlier_version
from cardgen.inputs.unpack import MAX_ENTRIES
from cardgen.publish.check import check_folder
from cardgen.publish.playtest import write_diff_pdf

GIT_ENV = {**{k: v for k, v in os.environ.items() if not k.startswith("GIT_")}, "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}


def git(repo: Path, *args: str, stdin: bytes | None = None) -> str:
    """Plain git, as a designer runs it (the repository's own configuration applies)."""
    return subprocess.run(["git", "-C", str(repo), *args], input=stdin, capture_output=True, env=GIT_ENV,
                          check=True).stdout.decode().strip()


def commit(repo: Path, message: str = "c") -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message)
    return git(repo, "rev-parse", "HEAD")


def game_repository(tmp_path: Path, name: str = "game") -> Path:
    """The tiny game as the top of its own repository (as a zip of a designer's repository
    unpacks), tagged v1; its work tree then changes Boom's flavor."""
    game = tmp_path / name
    shutil.copytree(TINY_GAME, game)
    git(tmp_path, "init", "-q", name)
    commit(game, "v1")
    git(game, "tag", "v1")
    edit(game / "cards.yaml", '"Oops."', '"Oops!!"')
    return game


def mktree(repo: Path, lines: list[str]) -> str:
    return git(repo, "mktree", "--missing", stdin="".join(f"{line}\n" for line in lines).encode())


def tagged_tree(repo: Path, tree: str, tag: str) -> None:
    """A commit of `tree` in the repository, tagged `tag`: a revision no work tree ever held."""
    git(repo, "tag", "-f", tag, git(repo, "commit-tree", tree, "-m", tag))


def game_tree(repo: Path) -> list[str]:
    """The ls-tree lines of the tiny game's files at v1, to build hostile trees from."""
    return git(repo, "ls-tree", "v1").splitlines()


# --------------------------------------------------------------------------- nothing runs


def armed_repository(tmp_path: Path) -> tuple[Path, list[Path]]:
    """A game whose own .git runs a command on a smudge (every file, .gitattributes) and on a
    status (core.fsmonitor, from a file its config includes), each writing a marker file outside
    the game; each trap is shown to go off under plain git before the markers are removed."""
    markers = [tmp_path / "smudged", tmp_path / "monitored"]
    game = tmp_path / "game"
    shutil.copytree(TINY_GAME, game)
    (game / ".gitattributes").write_text("* filter=evil\n")
    git(tmp_path, "init", "-q", "game")
    commit(game, "v1")
    git(game, "tag", "v1")
    git(game, "config", "filter.evil.smudge", f"touch {markers[0]}; cat")
    git(game, "config", "filter.evil.clean", "cat")
    (tmp_path / "included.conf").write_text(f"[core]\n\tfsmonitor = touch {markers[1]}; echo\n")
    git(game, "config", "includeIf.gitdir:**.path", str(tmp_path / "included.conf"))  # settings from anywhere
    git(game, "archive", "v1")
    git(game, "status")
    assert all(marker.exists() for marker in markers)  # armed
    for marker in markers:
        marker.unlink()
    edit(game / "game.yaml", 'version: "0.1"', 'version: "0.2"\nchanges_since: v1')
    return game, markers


@pytest.mark.slow
def test_a_game_s_own_repository_runs_nothing(tmp_path):
    game, markers = armed_repository(tmp_path)
    assert cardgen("check", game)[0] == 0
    code, out, err = cardgen("diff", game, "--since", "v1", "--json")
    assert code == 0 and '"version: 0.1 → 0.2"' in out, err
    code, _, err = cardgen("cards", game, "--changed-since", "v1", "--out", tmp_path / "out")
    assert code == 0, err
    code, _, err = cardgen("rulebook", game, "--out", tmp_path / "out")
    assert code == 0, err
    with pytest.raises(CardgenError):  # serve's diff on every save: a clean message, never a crash
        write_diff_pdf(check_folder(game).report.game, check_folder(game).report, "-x", tmp_path, "A4")
    assert not any(marker.exists() for marker in markers)


@pytest.mark.parametrize("transport", ["ext", "ssh"])
def test_a_partial_clone_s_lazy_fetch_reaches_no_transport(tmp_path, transport):
    """A missing blob in a partial clone: plain git fetches it from the promisor remote, whose
    transport (ext::, or ssh through core.sshCommand) runs a command."""
    game = game_repository(tmp_path)
    marker = tmp_path / "fetched"
    cards = git(game, "rev-parse", "v1:cards.yaml")
    (game / ".git" / "objects" / cards[:2] / cards[2:]).unlink()
    url = f"ext::sh -c touch% {marker}" if transport == "ext" else "ssh://example.invalid/x"
    for key, value in (("core.repositoryformatversion", "1"), ("extensions.partialClone", "origin"),
                       ("remote.origin.promisor", "true"), ("protocol.ext.allow", "always"),
                       ("core.sshCommand", f"touch {marker}; false"), ("remote.origin.url", url)):
        git(game, "config", key, value)
    subprocess.run(["git", "-C", str(game), "cat-file", "-p", cards], capture_output=True, env=GIT_ENV)
    assert marker.exists()  # armed
    marker.unlink()
    code, _, err = cardgen("diff", game, "--since", "v1")
    assert code == 2 and "v1: git could not read" in err
    assert not marker.exists()


# --------------------------------------------------------------------------- a REF is never an option


@pytest.mark.parametrize("ref", ["--output=../victim.txt", "--remote=git://127.0.0.1:{port}/x", "--list", "-h",
                                 "--output=game", "-", "", " ", "v1\n--list", "v1\x00"])
def test_a_ref_is_never_an_option(tmp_path, ref):
    game = game_repository(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.setblocking(False)
    ref = ref.format(port=listener.getsockname()[1])
    reprint = ["cards", game, f"--changed-since={ref}", "--out", tmp_path / "o"]  # empty: no reprint asked
    for command in (["diff", game, f"--since={ref}"], *([reprint] if ref else [])):
        code, _, err = cardgen(*command)
        assert code == 2 and "is not a git revision" in err, err
    if ref.strip() and "\x00" not in ref:  # an empty changes_since asks for none; YAML holds no NUL
        edit(game / "game.yaml", 'version: "0.1"', f'version: "0.1"\nchanges_since: {json.dumps(ref)}')
        code, out, _ = cardgen("check", game)
        assert code == 1 and "game/game.yaml:6:16: error: changes_since:" in out and "[bad-changes-since]" in out, out
    assert victim.read_text() == "keep me" and sorted(p.name for p in tmp_path.iterdir()) == ["game", "victim.txt"]
    with pytest.raises(BlockingIOError):
        listener.accept()  # nobody called
    listener.close()


def test_a_folder_name_is_no_pattern(tmp_path):
    """A game folder called game* next to a gameX: the earlier version is game*'s alone."""
    repo = tmp_path / "repo"
    shutil.copytree(TINY_GAME, repo / "game*")
    shutil.copytree(TINY_GAME, repo / "gameX")
    edit(repo / "gameX" / "cards.yaml", "Peek", "Glance")
    git(tmp_path, "init", "-q", "repo")
    commit(repo)
    git(repo, "tag", "v1")
    code, out, err = cardgen("diff", repo / "game*", "--since", "v1", "--json")
    assert code == 0 and '"cards": []' in out, err


# --------------------------------------------------------------------------- a repository reads only itself


def test_a_repository_that_would_read_another_is_refused(tmp_path):
    secret = tmp_path / "secret"  # someone's other game, in a repository of their own
    shutil.copytree(TINY_GAME, secret)
    edit(secret / "cards.yaml", "Peek", "SECRETCARD")
    git(tmp_path, "init", "-q", "secret")
    commit(secret)
    game = tmp_path / "game"
    shutil.copytree(TINY_GAME, game)
    refused = {}
    (game / ".git").write_text(f"gitdir: {secret / '.git'}\n")  # a .git naming another repository
    refused["gitdir"] = cardgen("diff", game, "--since", "HEAD")
    (game / ".git").unlink()
    git(tmp_path, "init", "-q", "game")
    commit(game)
    git(game, "config", "core.worktree", str(tmp_path))
    refused["worktree"] = cardgen("diff", game, "--since", "HEAD")
    git(game, "config", "--unset", "core.worktree")
    alternates = game / ".git" / "objects" / "info" / "alternates"
    alternates.write_text(f"{secret / '.git' / 'objects'}\n")
    refused["alternates"] = cardgen("diff", game, "--since", "HEAD")
    alternates.unlink()
    branch = git(secret, "symbolic-ref", "--short", "HEAD")
    (game / ".git" / "refs" / "tags" / "v1").symlink_to(secret / ".git" / "refs" / "heads" / branch)
    refused["link"] = cardgen("diff", game, "--since", "v1")
    for case, (code, out, err) in refused.items():
        assert code == 2 and "own .git folder" in err, (case, err)
        assert "SECRETCARD" not in out + err, case
    assert "is not its own .git folder" in refused["gitdir"][2]
    # named by its path: a work tree at / has no folder name ("'s repository is read from ...")
    assert f"the repository at {tmp_path} is read from " in refused["worktree"][2], refused["worktree"][2]


def test_a_worktree_of_the_designer_s_repository_is_read(tmp_path):
    game = game_repository(tmp_path)
    git(game, "worktree", "add", "-q", str(tmp_path / "checkout"), "v1")
    edit(tmp_path / "checkout" / "cards.yaml", '"Hm?"', '"Hmm?"')
    code, out, err = cardgen("diff", tmp_path / "checkout", "--since", "v1", "--json")
    assert code == 0 and json.loads(out)["cards"][0]["name"] == "Peek", err


# --------------------------------------------------------------------------- trees git would not make


def test_a_tree_with_a_file_and_a_folder_of_one_name_is_refused(tmp_path):
    game = game_repository(tmp_path)
    blob = git(game, "rev-parse", "v1:game.yaml")
    inner = mktree(game, [f"100644 blob {blob}\ty"])
    tagged_tree(game, mktree(game, [*game_tree(game), f"100644 blob {blob}\tx", f"040000 tree {inner}\tx"]), "both")
    tagged_tree(game, mktree(game, [*game_tree(game), f"100644 blob {blob}\t{'n' * 300}"]), "long")
    code, _, err = cardgen("diff", game, "--since", "both")
    assert code == 2 and "'x' is both a file and a folder" in err
    code, _, err = cardgen("diff", game, "--since", "long")
    assert code == 2 and "has a name longer than 255 bytes" in err


@pytest.mark.slow
def test_a_revision_too_large_is_refused_before_it_is_read(tmp_path):
    """1,600 entries of one megabyte blob: a small repository whose revision unpacks to 1.6 GB;
    and more entries than a game holds."""
    game = game_repository(tmp_path)
    big = git(game, "hash-object", "-w", "--stdin", stdin=bytes(1 << 20))
    tagged_tree(game, mktree(game, [*game_tree(game), *(f"100644 blob {big}\tart{n}.png" for n in range(1600))]), "big")
    code, _, err = cardgen("diff", game, "--since", "big")
    assert code == 2 and "501 entries of 501 MB in all: more than a game folder holds" in err  # as it was listed
    empty = git(game, "hash-object", "-w", "--stdin", stdin=b"")
    many = [*game_tree(game), *(f"100644 blob {empty}\tf{n}" for n in range(MAX_ENTRIES))]
    tagged_tree(game, mktree(game, many), "many")
    code, _, err = cardgen("diff", game, "--since", "many")
    assert code == 2 and f"{MAX_ENTRIES + 1} entries" in err


# --------------------------------------------------------------------------- zips


def game_zip() -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(TINY_GAME.iterdir()):
            archive.write(path, f"game/{path.name}")
    return data.getvalue()


def patched(data: bytes, name: str, local: dict[int, tuple[str, int]], central: dict[int, tuple[str, int]]) -> bytes:
    """The zip with fields of one entry's local and central headers replaced: offset: (format, value)."""
    out = bytearray(data)
    encoded = name.encode()
    for signature, fields, name_at in ((b"PK\x03\x04", local, 30), (b"PK\x01\x02", central, 46)):
        at = out.find(signature)
        while out[at + name_at:at + name_at + len(encoded)] != encoded:
            at = out.find(signature, at + 1)
        for offset, (form, value) in fields.items():
            struct.pack_into(form, out, at + offset, value)
    return bytes(out)


def zip_of(entries: list[tuple[str | zipfile.ZipInfo, bytes]]) -> bytes:
    data = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(data, "w") as archive:
        warnings.simplefilter("ignore")  # a name twice, on purpose
        for path in sorted(TINY_GAME.iterdir()):
            archive.write(path, f"game/{path.name}")
        for name, content in entries:
            archive.writestr(name, content)
    return data.getvalue()


def broken_zips() -> dict[str, tuple[bytes, str]]:
    good = game_zip()
    directory = good.rfind(b"PK\x05\x06")
    cd_at = struct.unpack_from("<I", good, directory + 16)[0]
    return {
        "encrypted": (patched(good, "game/cards.yaml", {6: ("<H", 1)}, {8: ("<H", 1)}), "is encrypted"),
        "deflate64": (patched(good, "game/cards.yaml", {8: ("<H", 9)}, {10: ("<H", 9)}), "compressed with method 9"),
        "bad crc": (patched(good, "game/cards.yaml", {14: ("<I", 1234)}, {16: ("<I", 1234)}), "Bad CRC-32"),
        "file and folder": (zip_of([("game/x", b"1"), ("game/x/y", b"2")]), "'game/x' is both a file and a folder"),
        "long name": (zip_of([(f"game/{'n' * 300}", b"1")]), "longer than 255 bytes"),
        "twice": (zip_of([("game/x", b"1"), ("game/x", b"2")]), "'game/x' is twice in it"),
        "control character": (zip_of([("game/x\x01", b"1")]), "control character"),
        "unnamed entry": (zip_of([(zipfile.ZipInfo(""), b"1")]), "an entry with no name"),
        "broken directory": (good[:cd_at] + b"\xff" * (directory - cd_at) + good[directory:], "not a zip cardgen can read"),
        "huge directory": (good[:directory + 12] + struct.pack("<I", 100 << 20) + good[directory + 16:],
                           "its list of entries takes 102400 KB"),
        "bomb": (patched(good, "game/cards.yaml", {22: ("<I", 600 << 20)}, {24: ("<I", 600 << 20)}),
                 "entries of 600 MB in all: more than a game folder holds"),
        "link": (patched(good, "game/cards.yaml", {}, {38: ("<I", 0o120777 << 16)}), "is a link"),
        "no zip": (b"just text", "is neither a game folder nor a zip of one"),
    }


ZIP_CASES = ["encrypted", "deflate64", "bad crc", "file and folder", "long name", "twice", "control character",
             "unnamed entry", "broken directory", "huge directory", "bomb", "link", "no zip"]


def test_every_zip_case_is_tried():
    assert sorted(broken_zips()) == sorted(ZIP_CASES)


@pytest.mark.parametrize("case", ZIP_CASES)
def test_a_broken_or_hostile_zip_is_a_message(tmp_path, case):
    data, message = broken_zips()[case]
    assert zipfile.is_zipfile(io.BytesIO(data)) == (case != "no zip")
    game = tmp_path / "game"
    shutil.copytree(TINY_GAME, game)
    (tmp_path / "old.zip").write_bytes(data)
    code, _, err = cardgen("diff", game, "--since", tmp_path / "old.zip")
    assert code == 2 and message in err, err
    code, _, err = cardgen("cards", game, "--changed-since", tmp_path / "old.zip", "--out", tmp_path / "out")
    assert code == 2 and message in err, err
    with pytest.raises(CardgenError, match="error: "):  # serve --since: a message beside the documents
        write_diff_pdf(check_folder(game).report.game, check_folder(game).report, str(tmp_path / "old.zip"),
                       tmp_path, "A4")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game", "old.zip"]


# --------------------------------------------------------------------------- keyed by the commit


def moving_branch(tmp_path: Path) -> Path:
    """The game with Boom's and Peek's flavors changed in its work tree, and a branch `base` at a
    commit where only Boom's had changed."""
    game = game_repository(tmp_path)
    commit(game, "Boom")
    git(game, "branch", "base")
    edit(game / "cards.yaml", '"Hm?"', '"Hmm?"')
    return game


def test_a_reprint_follows_its_branch(tmp_path):
    game = moving_branch(tmp_path)
    reprint = tmp_path / "out" / "cards-starter-reprint.pdf"
    code, out, err = cardgen("cards", game, "--changed-since", "base", "--out", tmp_path / "out")
    assert code == 0 and "Peek" in out and "Boom" not in out, err
    git(game, "branch", "-f", "base", "v1")  # the branch moves back to before Boom's change
    code, out, err = cardgen("cards", game, "--changed-since", "base", "--out", tmp_path / "out")
    assert code == 0 and "Peek" in out and "Boom" in out, err
    assert "Boom" in page_texts(reprint)[0]


@pytest.mark.slow  # two rulebooks
def test_the_rulebook_s_changes_follow_their_branch(tmp_path):
    game = moving_branch(tmp_path)
    edit(game / "game.yaml", 'version: "0.1"', 'version: "0.2"\nchanges_since: base')
    rulebook = tmp_path / "out" / "rulebook.pdf"

    def changes() -> str:
        code, _, err = cardgen("rulebook", game, "--out", tmp_path / "out")
        assert code == 0, err
        text = "".join(page_texts(rulebook))
        return text[text.rindex("Changes in version 0.2"):]

    before = changes()
    assert "Peek: flavor changed" in before and "Boom" not in before
    git(game, "branch", "-f", "base", "v1")
    assert "Boom: flavor changed" in changes()


# --------------------------------------------------------------------------- fuzz


FUZZ = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


class FuzzedTag:
    """Tags a tree made of ls-tree lines as `fuzzed` in a repository, for every example of a fuzzer,
    without three runs of git per example: the trees are made by one `git mktree --missing --batch`
    (the same parsing and checks as a run of `git mktree --missing` per tree; a tree it refuses ends
    that run, and the next tree starts another), the commit of each written as `git commit-tree` at
    the time 0 writes it (the fixture compares the two), and the tag's ref as `git tag -f` writes it."""

    def __init__(self, repo: Path):
        self.repo, self.mktree = repo, None

    def __call__(self, lines: list[str]) -> None:
        """Raises subprocess.CalledProcessError, as mktree does, when git makes no such tree."""
        if self.mktree is None:
            self.mktree = subprocess.Popen(["git", "-C", str(self.repo), "mktree", "--missing", "--batch"], env=GIT_ENV,
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            self.mktree.stdin.write("".join(f"{line}\n" for line in [*lines, ""]).encode())
            self.mktree.stdin.flush()
        except BrokenPipeError:
            pass
        tree = self.mktree.stdout.readline().decode().strip()
        if not tree:  # git refused the tree and stopped
            self.close()
            raise subprocess.CalledProcessError(128, "git mktree")
        (self.repo / ".git" / "refs" / "tags" / "fuzzed").write_text(f"{self.commit(tree)}\n")

    def commit(self, tree: str) -> str:
        """The loose object of a commit of the tree, by t at the time 0, saying `fuzzed`."""
        body = f"tree {tree}\nauthor t <t@t> 0 +0000\ncommitter t <t@t> 0 +0000\n\nfuzzed\n".encode()
        data = b"commit %d\0%b" % (len(body), body)
        oid = hashlib.sha1(data).hexdigest()
        path = self.repo / ".git" / "objects" / oid[:2] / oid[2:]
        if not path.exists():
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(zlib.compress(data))
        return oid

    def close(self) -> None:
        if self.mktree is not None:
            self.mktree.stdin.close()
            self.mktree.wait()
            self.mktree.stdout.close()
            self.mktree.stderr.close()
            self.mktree = None


@pytest.fixture(scope="module")
def fuzz_repository(tmp_path_factory) -> tuple[Path, str, dict[str, tuple[str, str]], list[str], FuzzedTag]:
    """The repository, with what every example builds its tree from (read once: v1 never moves):
    game.yaml's blob at v1, the object each mode of entry points to, and v1's own entries; and what
    tags a tree of the examples' as `fuzzed` in it."""
    game = game_repository(tmp_path_factory.mktemp("fuzz"))
    kinds = {"040000": ("tree", git(game, "rev-parse", "v1^{tree}")), "160000": ("commit", git(game, "rev-parse", "v1"))}
    tag = FuzzedTag(game)
    at_zero = {**GIT_ENV, "GIT_AUTHOR_DATE": "@0 +0000", "GIT_COMMITTER_DATE": "@0 +0000"}
    made = subprocess.run(["git", "-C", str(game), "commit-tree", kinds["040000"][1], "-m", "fuzzed"], env=at_zero,
                          capture_output=True, check=True).stdout.decode().strip()
    assert tag.commit(kinds["040000"][1]) == made  # the same object as git's
    yield game, git(game, "rev-parse", "v1:game.yaml"), kinds, game_tree(game), tag
    tag.close()


@pytest.mark.slow
@settings(max_examples=200 * FUZZ_SCALE, **FUZZ)
@given(damage=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=8),
       cut=st.one_of(st.none(), st.integers(0, 10**6)))
def test_fuzz_a_damaged_zip_is_a_message(tmp_path_factory, damage, cut):
    data = bytearray(game_zip())
    for at, value in damage:
        data[at % len(data)] = value
    path = tmp_path_factory.mktemp("zip") / "old.zip"
    path.write_bytes(bytes(data[:cut]) if cut is not None else bytes(data))
    try:
        with earlier_version(str(path), TINY_GAME) as version:
            assert version.folder.is_dir()
    except BadRef as exc:
        assert str(exc)


names = st.one_of(st.sampled_from([".", "..", ".git", "...", " ", "\\", "game.yaml", "cards.yaml"]),
                 st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00\n"), min_size=1,
                         max_size=300))
refs = st.one_of(st.text(max_size=40), st.sampled_from(["v1", "HEAD", "HEAD~1", "v1^{tree}", "v1:cards.yaml",
                                                       ":/v1", "@{-1}", "v1..HEAD", "HEAD@{0}", "--all", "v1^!"]))


@pytest.mark.slow
@settings(max_examples=200 * FUZZ_SCALE, **FUZZ)
@given(ref=refs, extra=st.lists(st.tuples(st.sampled_from(["100644", "100755", "120000", "040000", "160000"]), names),
                                max_size=4))
def test_fuzz_a_git_revision_is_a_message(fuzz_repository, ref, extra):
    """Any REF, and any tree a repository could hold at it (entries of every mode, any name)."""
    game, blob, kinds, tree, tag = fuzz_repository
    lines = [f"{mode} {kinds.get(mode, ('blob', blob))[0]} {kinds.get(mode, ('blob', blob))[1]}\t{name}"
             for mode, name in extra]
    try:
        tag([*tree, *lines])
    except subprocess.CalledProcessError:  # git makes no such tree: nothing to read
        pass
    for name in (ref, "fuzzed"):
        try:
            with earlier_version(name, game, git_only=True) as version:
                assert version.folder.is_dir() and len(version.commit) == 40
        except BadRef as exc:
            assert str(exc)

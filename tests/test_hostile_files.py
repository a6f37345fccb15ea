"""Hostile answer files, through the checkers and through the running app.

Every case ends in a verdict that names the file and says what to do, and the app keeps
running. Boundedness is shown by structure, not by a stopwatch: what the reader asks of the OS
(no open of a FIFO or device, never more than SIZE_CAP + 1 bytes read), where the YAML
scanner stops, and a read run in a thread that must return (a blocking read would not).
"""

from __future__ import annotations

import copy
import errno
import json
import os
import tempfile
import threading
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from tests import waits
from tests.conftest import WALKTHROUGH
from tests.states import check, final_file, state
from tests.ui.settle import quiet, settled, step_drawn, until
from tutor.checks.helpers import MAX_YAML_ALIASES, MAX_YAML_BYTES, MAX_YAML_DEPTH, _BoundedLoader
from tutor.checks.verdict import Status
from tutor.cli import build_parser
from tutor.commands.setup import lesson_for, progress_for, session_for
from tutor.commands.tui import start_replay
from tutor.session import Session
from tutor.ui.app import TutorApp
from tutor.workspace import files as files_mod
from tutor.workspace.files import SIZE_CAP, FileRead, Problem, read_answer

STEP_OF = {"lws.yaml": 1, "names.txt": 2, "env.txt": 3, "dns.txt": 4, "restart.txt": 5, "wide.yaml": 7,
           "partial.txt": 8}


@lru_cache(maxsize=None)
def _end_state() -> Session:
    return state("walkthrough")


def verdict_for(workdir: Path, name: str, read: FileRead | None = None):
    """The step that reads `name`, judged at the end of the real walkthrough with this file."""
    s = copy.deepcopy(_end_state())
    s.workspace.workdir = str(workdir)
    s.apply(read if read is not None else read_bounded(workdir / name))
    return check(s, STEP_OF[name])


class Spy:
    """Records what read_answer asks of the OS: which paths it opens and how much it reads."""

    def __init__(self, monkeypatch):
        # The walkthrough's end state is built once and reads files of its own: build it before
        # spying, or the first test run alone counts that build's reads as the learner's file's.
        _end_state()
        self.opened: list[str] = []
        self.asked = 0
        real_open, real_read = os.open, os.read

        def spy_open(path, flags, *a):
            self.opened.append(os.fspath(path))
            return real_open(path, flags, *a)

        def spy_read(fd, n):
            self.asked += n
            return real_read(fd, n)

        monkeypatch.setattr(files_mod.os, "open", spy_open)
        monkeypatch.setattr(files_mod.os, "read", spy_read)


def read_bounded(path: Path) -> FileRead:
    """read_answer in a thread that must finish: a read that blocked would keep it alive."""
    out: dict[str, FileRead] = {}
    t = threading.Thread(target=lambda: out.setdefault("r", read_answer(str(path), path.name)), daemon=True)
    t.start()
    t.join(waits.MOMENT)  # a blocked open of a FIFO never returns at all
    assert not t.is_alive(), f"reading {path.name} blocked for {waits.MOMENT:.0f} s"
    return out["r"]


def _fail_naming(v, path: Path, *words: str) -> None:
    assert v.status is Status.FAIL, v
    assert str(path) in v.message, v.message
    for w in words:
        assert w in v.message, (w, v.message)


# --- special files: refused by stat before any open ---------------------------------------------

@pytest.mark.parametrize("name", sorted(STEP_OF))
def test_fifo(tmp_path, monkeypatch, name):
    path = tmp_path / name
    os.mkfifo(path)
    spy = Spy(monkeypatch)
    v = verdict_for(tmp_path, name)
    assert spy.opened == [] and spy.asked == 0  # skipped by stat: never opened, never read
    _fail_naming(v, path, "is a FIFO, not a regular file", "plain text file")


def test_a_path_swapped_for_a_fifo_after_the_stat_does_not_block(tmp_path, monkeypatch):
    """The race the O_NONBLOCK open is for: stat saw a regular file, then the learner's
    editor (or a mistake) put a FIFO there. Without O_NONBLOCK this open waits for a writer
    forever; with it, fstat on the open descriptor tells the truth."""
    path = tmp_path / "names.txt"
    (tmp_path / "regular").write_text("x")
    os.mkfifo(path)
    regular_stat = os.stat(tmp_path / "regular")
    real_stat = os.stat
    monkeypatch.setattr(files_mod.os, "stat", lambda p, *a, **k: regular_stat if os.fspath(p) == str(path)
                        else real_stat(p, *a, **k))
    r = read_bounded(path)
    assert r.problem is Problem.NOT_REGULAR and r.detail == "FIFO"


@pytest.mark.parametrize("name", ["env.txt", "lws.yaml"])
def test_symlink_to_dev_zero(tmp_path, monkeypatch, name):
    path = tmp_path / name
    path.symlink_to("/dev/zero")
    spy = Spy(monkeypatch)
    v = verdict_for(tmp_path, name)
    assert spy.opened == [] and spy.asked == 0
    _fail_naming(v, path, "is a character device, not a regular file")


@pytest.mark.parametrize("name", ["dns.txt", "wide.yaml"])
def test_symlink_loop(tmp_path, monkeypatch, name):
    path = tmp_path / name
    path.symlink_to(tmp_path / "other")
    (tmp_path / "other").symlink_to(path)
    spy = Spy(monkeypatch)
    v = verdict_for(tmp_path, name)
    assert spy.asked == 0
    _fail_naming(v, path, "is a symlink loop")


@pytest.mark.parametrize("name", ["restart.txt", "lws.yaml"])
def test_sparse_gigabyte(tmp_path, monkeypatch, name):
    path = tmp_path / name
    with open(path, "wb") as fh:
        fh.truncate(1 << 30)
    spy = Spy(monkeypatch)
    v = verdict_for(tmp_path, name)
    assert spy.opened == [] and spy.asked == 0  # refused on its size alone
    _fail_naming(v, path, f"is too large ({1 << 30} bytes)")


def test_a_file_that_grows_after_the_stat_is_read_only_up_to_the_cap(tmp_path, monkeypatch):
    """The size check uses stat; a file growing past it is still read at most SIZE_CAP + 1
    bytes, then refused."""
    path = tmp_path / "partial.txt"
    path.write_text("small")
    small = os.stat(path)
    with open(path, "ab") as fh:
        fh.truncate(SIZE_CAP * 8)
    real_stat = os.stat
    monkeypatch.setattr(files_mod.os, "stat", lambda p, *a, **k: small if os.fspath(p) == str(path)
                        else real_stat(p, *a, **k))
    spy = Spy(monkeypatch)
    r = read_bounded(path)
    assert r.problem is Problem.TOO_LARGE
    assert 0 < spy.asked <= (SIZE_CAP + 1) * files_mod._RETRIES


@pytest.mark.parametrize("name", ["partial.txt", "wide.yaml"])
def test_directory(tmp_path, monkeypatch, name):
    path = tmp_path / name
    path.mkdir()
    spy = Spy(monkeypatch)
    v = verdict_for(tmp_path, name)
    assert spy.opened == [] and spy.asked == 0
    _fail_naming(v, path, "is a directory")


# --- no permission ---------------------------------------------------------------------------------

def _read_as_nobody(path: Path) -> FileRead:
    """read_answer in a forked child that has dropped to uid/gid 65534: root's
    CAP_DAC_OVERRIDE would read any file, an ordinary user gets the kernel's real EACCES."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(rfd)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            r = read_answer(str(path), path.name)
            os.write(wfd, json.dumps([r.problem.value if r.problem else None, r.detail, r.text]).encode())
        finally:
            os._exit(0)
    os.close(wfd)
    with os.fdopen(rfd, "rb") as fh:
        raw = fh.read()
    os.waitpid(pid, 0)
    problem, detail, text = json.loads(raw)
    return FileRead(path.name, text=text, problem=Problem(problem) if problem else None, detail=detail)


@pytest.mark.skipif(os.geteuid() != 0, reason="dropping to another user needs root; tests/test_files.py "
                    "covers a plain chmod 0 when not root")
def test_no_permission(tmp_path):
    work = Path(tempfile.mkdtemp(prefix="lwstutor-perm-"))  # pytest's tmp root is 0700: not for uid 65534
    try:
        os.chmod(work, 0o755)
        path = work / "env.txt"
        path.write_text("LWS_GROUP_SIZE=2\n")
        os.chmod(path, 0o600)  # root's own file: 65534 may stat it but not open it
        r = _read_as_nobody(path)
        assert r.problem is Problem.DENIED, r
        v = verdict_for(work, "env.txt", r)
        _fail_naming(v, path, "cannot be read (permission denied)", f"chmod a+r {path}")
        os.chmod(path, 0o644)
        assert _read_as_nobody(path).text == "LWS_GROUP_SIZE=2\n"  # the same child reads it once allowed
    finally:
        for f in work.iterdir():
            f.unlink()
        work.rmdir()


def _write_only_sysfs_file() -> str | None:
    """A kernfs attribute without a read method: open(O_RDONLY) fails with EACCES even for root."""
    for cand in ("/sys/bus/pci/rescan", "/sys/bus/pci/drivers_probe", "/sys/kernel/mm/page_idle/bitmap"):
        try:
            os.close(os.open(cand, os.O_RDONLY | os.O_NONBLOCK))
        except OSError as exc:
            if exc.errno == errno.EACCES:
                return cand
    return None


@pytest.mark.skipif(_write_only_sysfs_file() is None, reason="no write-only sysfs attribute here")
def test_no_permission_even_for_root(tmp_path):
    """A link to a write-only kernel attribute: stat says "regular file", open says EACCES."""
    path = tmp_path / "dns.txt"
    path.symlink_to(_write_only_sysfs_file())
    v = verdict_for(tmp_path, "dns.txt")
    _fail_naming(v, path, "permission denied")


# --- encodings, empty, changing ----------------------------------------------------------------------

def test_not_utf8(tmp_path):
    path = tmp_path / "names.txt"
    data = "pod=llm-0 group=0 worker=0 # Gruppe für\n".encode("latin-1")
    path.write_bytes(data)
    _fail_naming(verdict_for(tmp_path, "names.txt"), path, f"is not UTF-8 text (bad byte {data.index(0xfc)})",
                 "Save it as UTF-8")


@pytest.mark.parametrize("name", ["names.txt", "env.txt", "restart.txt", "lws.yaml"])
def test_utf16_with_bom_and_crlf_are_accepted(tmp_path, name):
    """A Windows editor's UTF-16 (with BOM) or CRLF is not a mistake: the right answer passes."""
    content = final_file("walkthrough", name)
    for encoded in (content.replace("\n", "\r\n").encode("utf-16"), content.replace("\n", "\r\n").encode()):
        (tmp_path / name).write_bytes(encoded)
        v = verdict_for(tmp_path, name)
        assert v.status is Status.PASS, v


def test_utf16_without_bom_is_called_binary(tmp_path):
    path = tmp_path / "env.txt"
    path.write_bytes("LWS_GROUP_SIZE=2\n".encode("utf-16-le"))
    _fail_naming(verdict_for(tmp_path, "env.txt"), path, "looks binary (NUL at byte 1)", "Save it as plain text")


@pytest.mark.parametrize("name", sorted(STEP_OF))
@pytest.mark.parametrize("content", [b"", b"  \n\n\t\n"])
def test_empty(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content)
    _fail_naming(verdict_for(tmp_path, name), path, "is empty. Put")


def test_a_file_that_keeps_changing_while_read(tmp_path, monkeypatch):
    """A writer appends once during every read: each attempt sees the file move, the reader
    gives up after _RETRIES attempts (bounded) and the step waits for the file to settle."""
    path = tmp_path / "names.txt"
    path.write_text("pod=llm-0 group=0 worker=0\n")
    real_read, real_open = os.read, os.open
    attempts: list[int] = []
    fresh = []

    def note_open(*a):
        fresh.append(1)
        return real_open(*a)

    def read_then_write(fd, n):
        data = real_read(fd, n)
        if data and fresh:  # the first read of an attempt
            fresh.clear()
            attempts.append(fd)
            with open(path, "a") as fh:  # another process's write, interleaved deterministically
                fh.write("pod=llm-0-1 group=0 worker=1\n")
        return data

    monkeypatch.setattr(files_mod.os, "open", note_open)
    monkeypatch.setattr(files_mod.os, "read", read_then_write)
    v = verdict_for(tmp_path, "names.txt")
    assert len(attempts) == files_mod._RETRIES
    assert v.status is Status.WAITING and "kept changing while it was read" in v.message, v
    assert str(path) in v.message


def test_a_file_written_without_end_is_read_up_to_the_cap(tmp_path, monkeypatch):
    """`yes > names.txt`: the file grows during the read. The read stops once it holds more
    than SIZE_CAP bytes and the file is refused as too large."""
    path = tmp_path / "names.txt"
    path.write_text("y\n")
    real_read = os.read
    got = []

    def read_then_grow(fd, n):
        data = real_read(fd, n)
        got.append(len(data))
        with open(path, "a") as fh:
            fh.write("y\n" * 4096)
        return data

    monkeypatch.setattr(files_mod.os, "read", read_then_grow)
    v = verdict_for(tmp_path, "names.txt")
    assert sum(got) <= SIZE_CAP + 1
    _fail_naming(v, path, f"is too large (>{SIZE_CAP} bytes)")


def test_a_file_changed_once_while_read_is_read_again(tmp_path, monkeypatch):
    path = tmp_path / "names.txt"
    final = final_file("walkthrough", "names.txt")
    path.write_text(final[: len(final) // 2])  # half written
    real_read = os.read
    done = []

    def finish_once(fd, n):
        data = real_read(fd, n)
        if data and not done:
            done.append(1)
            path.write_text(final)  # the editor finishes its write during our read
        return data

    monkeypatch.setattr(files_mod.os, "read", finish_once)
    assert verdict_for(tmp_path, "names.txt").status is Status.PASS


def test_a_file_truncated_while_read(tmp_path, monkeypatch):
    path = tmp_path / "env.txt"
    path.write_text("LWS_GROUP_SIZE=2\n" * 100)
    real_read = os.read
    monkeypatch.setattr(files_mod.os, "read", lambda fd, n: (real_read(fd, 10), os.truncate(path, 5))[0])
    r = read_bounded(path)
    assert r.problem is Problem.CHANGING


# --- YAML -------------------------------------------------------------------------------------------

def _alias_bomb(levels: int = 9) -> str:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"  # 9**9 leaves if expanded


@pytest.mark.parametrize("name", ["lws.yaml", "wide.yaml"])
def test_yaml_alias_bomb(tmp_path, monkeypatch, name):
    """Refused while composing, at alias MAX_YAML_ALIASES + 1: nothing is ever constructed."""
    path = tmp_path / name
    path.write_text(_alias_bomb())
    built = []
    real = yaml.constructor.BaseConstructor.construct_document
    monkeypatch.setattr(yaml.constructor.BaseConstructor, "construct_document",
                        lambda self, node: built.append(1) or real(self, node))
    v = verdict_for(tmp_path, name)
    assert built == []
    _fail_naming(v, path, f"not usable YAML: more than {MAX_YAML_ALIASES} aliases")


DEEP = "nested deeper than 100 levels"
BIG = "too large for a LeaderWorkerSet YAML manifest"
NESTED = {  # 10,000 deep, in every shape; those over MAX_YAML_BYTES are refused before parsing
    "flow sequence, unclosed": ("[" * 10_000, DEEP),
    "flow mapping, unclosed": ("spec: " + "{a: " * 4_000, DEEP),
    "block sequence, 5000 deep": ("- " * 5_000 + "x\n", DEEP),
    "flow sequence, closed": ("[" * 10_000 + "]" * 10_000, BIG),
    "flow mapping, closed": ("{a: " * 10_000 + "}" * 10_000, BIG),
    "block sequence": ("- " * 10_000 + "x\n", BIG),
}


@pytest.mark.parametrize("kind", sorted(NESTED))
def test_yaml_nested_ten_thousand_deep(tmp_path, monkeypatch, kind):
    text, words = NESTED[kind]
    path = tmp_path / "lws.yaml"
    path.write_text(text)
    loaders = []
    real_init = _BoundedLoader.__init__
    monkeypatch.setattr(_BoundedLoader, "__init__", lambda self, stream: loaders.append(1) or real_init(self, stream))
    v = verdict_for(tmp_path, "lws.yaml")
    _fail_naming(v, path, words)
    if words == BIG:
        assert loaders == [] and len(text.encode()) > MAX_YAML_BYTES  # refused on its size, never parsed
    elif kind == "flow sequence, unclosed":
        # The scanner stops at the first '[' beyond the limit, so it reads a hundred characters
        # of the line, not all of it: the error's column says where it stopped. (Without that
        # stop it scans ahead of the composer and costs quadratic time on the open brackets.)
        assert v.message.startswith(f"{path}:1:{MAX_YAML_DEPTH + 1}: "), v.message


def test_yaml_is_parsed_once_per_text(tmp_path, monkeypatch):
    """Checkers re-run on every cluster change; an unchanged manifest is not parsed again."""
    path = tmp_path / "wide.yaml"
    path.write_text(final_file("walkthrough", "wide.yaml") + "# parsed once\n")
    loaders = []
    real_init = _BoundedLoader.__init__
    monkeypatch.setattr(_BoundedLoader, "__init__", lambda self, stream: loaders.append(1) or real_init(self, stream))
    for _ in range(3):
        assert verdict_for(tmp_path, "wide.yaml").status is Status.PASS
    assert loaders == [1]


def test_yaml_python_tags_are_refused_and_never_run(tmp_path):
    marker = tmp_path / "ran"
    path = tmp_path / "lws.yaml"
    for doc in (f"!!python/object/apply:os.system ['touch {marker}']\n",
                "spec: !!python/object:collections.OrderedDict {a: 1}\n",
                "kind: !!python/name:os.system ''\n"):
        path.write_text(doc)
        v = verdict_for(tmp_path, "lws.yaml")
        _fail_naming(v, path, "not valid YAML", "could not determine a constructor for the tag")
        assert "python/" in v.message
    assert not marker.exists()


def test_yaml_recursive_alias_is_judged_not_followed(tmp_path):
    path = tmp_path / "lws.yaml"
    good = yaml.safe_load(final_file("walkthrough", "lws.yaml"))
    text = final_file("walkthrough", "lws.yaml").replace("spec:\n", "spec: &s\n", 1) + "loop: &l [*l]\n"
    path.write_text(text)
    v = verdict_for(tmp_path, "lws.yaml")
    assert v.status in (Status.PASS, Status.FAIL) and v.message  # the recursive list is not walked
    assert good["kind"] == "LeaderWorkerSet"


# --- the running app ---------------------------------------------------------------------------------

def _app_on_workdir(workdir: Path, state_file: Path) -> TutorApp:
    """`lwstutor --replay walkthrough.jsonl --workdir DIR`: the recorded cluster, the real files
    of DIR read by the real file watcher."""
    args = build_parser().parse_args(["--replay", str(WALKTHROUGH), "--speed", "0",
                                      "--lang", "en", "--workdir", str(workdir), "--state-file", str(state_file)])
    lesson = lesson_for(args)
    session = session_for(args, progress_for(args, lesson, replay=True))
    return TutorApp(session, context="replay", replay=True,
                    start_sources=lambda app: start_replay(args._recording, 0, app, use_files=False, poll=False))


async def _files_seen(pilot, app, want: dict[str, Problem | None]) -> None:
    ws = app.session.workspace
    await until(pilot, lambda: all(ws.get(n).problem is p and (p is not None or ws.get(n).ok)
                                   for n, p in want.items()), f"the file watcher to read {want}",
                seen=lambda: {n: ws.get(n).problem for n in want})
    await quiet(pilot)  # the re-check they set off, drawn


async def _box(pilot, app, step: int) -> str:
    await pilot.press(str(step))
    await step_drawn(pilot, step)
    return app.query_one("#verdict").text()


async def test_the_app_shows_each_hostile_file_and_keeps_running(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    os.mkfifo(work / "names.txt")
    (work / "env.txt").symlink_to("/dev/zero")
    (work / "dns.txt").symlink_to(work / "dns-b")
    (work / "dns-b").symlink_to(work / "dns.txt")
    with open(work / "restart.txt", "wb") as fh:
        fh.truncate(1 << 30)
    (work / "partial.txt").mkdir()
    (work / "lws.yaml").write_text(_alias_bomb())
    (work / "wide.yaml").write_text(NESTED["flow sequence, unclosed"][0])
    app = _app_on_workdir(work, tmp_path / "p.json")
    async with app.run_test(size=(120, 45)) as pilot:
        await settled(pilot)
        await _files_seen(pilot, app, {"names.txt": Problem.NOT_REGULAR, "env.txt": Problem.NOT_REGULAR,
                                       "dns.txt": Problem.LOOP, "restart.txt": Problem.TOO_LARGE,
                                       "partial.txt": Problem.DIRECTORY, "lws.yaml": None, "wide.yaml": None})
        expect = {1: "more than 20 aliases", 2: "is a FIFO", 3: "is a character device", 4: "is a symlink loop",
                  5: "is too large (1073741824 bytes)", 7: "nested deeper than 100 levels", 8: "is a directory"}
        for step, words in expect.items():
            box = await _box(pilot, app, step)
            assert "FAIL" in box and words in box, (step, box)
        # Still alive and still watching: the learner replaces the FIFO with the right answer.
        os.unlink(work / "names.txt")
        (work / "names.txt").write_text(final_file("walkthrough", "names.txt"))
        await _files_seen(pilot, app, {"names.txt": None})
        assert "PASS" in await _box(pilot, app, 2)
        assert app.is_running and app.return_code is None


async def test_the_app_on_encodings_empty_files_and_python_tags(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "names.txt").write_bytes(b"pod=llm-0 \xff group=0\n")
    (work / "env.txt").write_bytes(b"")
    # Written now, after the recording's end: it must hold llm-1's address as the recording ends
    # (the walkthrough looked it up before step 6 replaced llm-1).
    hist = state("walkthrough").store.obs.uid_history("llm-1")
    then, now = hist[0].ips[0], hist[-1].ips[0]
    dns = final_file("walkthrough", "dns.txt")
    assert then in dns
    (work / "dns.txt").write_bytes(dns.replace(then, now).encode("utf-16"))
    (work / "restart.txt").write_bytes(final_file("walkthrough", "restart.txt").replace("\n", "\r\n").encode())
    (work / "lws.yaml").write_text("!!python/object/apply:os.system ['true']\n")
    (work / "wide.yaml").write_text(NESTED["block sequence"][0])
    app = _app_on_workdir(work, tmp_path / "p.json")
    async with app.run_test(size=(120, 45)) as pilot:
        await settled(pilot)
        await _files_seen(pilot, app, {"names.txt": Problem.NOT_UTF8, "env.txt": None, "dns.txt": None,
                                       "restart.txt": None, "lws.yaml": None, "wide.yaml": None})
        expect = {1: ("FAIL", "could not determine a constructor"), 2: ("FAIL", "is not UTF-8 text"),
                  3: ("FAIL", "is empty"), 4: ("PASS", now), 5: ("PASS", "rebuilt only group 0"),
                  7: ("FAIL", BIG)}
        for step, (word, text) in expect.items():
            box = await _box(pilot, app, step)
            assert word in box and text in box, (step, box)
        assert app.is_running and app.return_code is None


async def test_a_file_of_garbage_lines_gives_a_short_box(tmp_path):
    """999 bad lines are 999 problems; the box shows the first MAX_DETAILS and a count, and a
    line of 60,000 characters is clipped, so drawing it stays cheap."""
    from tutor.ui.widgets.verdict_box import MAX_CHARS, MAX_DETAILS

    work = tmp_path / "work"
    work.mkdir()
    (work / "names.txt").write_text("garbage\n" * 999)
    (work / "env.txt").write_text("LWS_" + "X" * 60_000 + "=1\n")
    (work / "restart.txt").write_text("x\n" * 5000)
    app = _app_on_workdir(work, tmp_path / "p.json")
    async with app.run_test(size=(120, 45)) as pilot:
        await settled(pilot)
        await _files_seen(pilot, app, {"names.txt": None, "env.txt": None, "restart.txt": None})
        assert len(app.session.verdicts[2].details) > 999
        box = await _box(pilot, app, 2)
        assert box.count("\n") == MAX_DETAILS + 1 and box.endswith(f"… +{len(app.session.verdicts[2].details) - MAX_DETAILS}")
        box = await _box(pilot, app, 3)
        assert "XXXX…" in box and len(box) < 3 * MAX_CHARS
        box = await _box(pilot, app, 5)
        assert "has 5001 lines; it should hold only group0_before" in box

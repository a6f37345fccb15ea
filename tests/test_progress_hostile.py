"""The progress file under attack: corrupt, unreadable or odd files are set aside with a notice
and the tutor starts clean; a write is atomic, so a crash mid-write loses nothing."""

from __future__ import annotations

import json
import os
import re
import threading
from pathlib import Path

import pytest

from tests.ui.harness import empty_recording, make_app
from tests.ui.settle import until
from tutor import progress as progress_mod
from tutor.progress import MAX_BYTES, Progress

GOOD = {"version": 1, "current": 3, "lang": "en", "passed": {"1": {"at": "t", "message": "ok"}}, "hints": {"2": 1}}


def _aside(path):
    return sorted(f for f in path.parent.iterdir() if f.name.startswith(path.name + ".corrupt-"))


def _good(path) -> Progress:
    path.write_text(json.dumps(GOOD))
    p = Progress.load(path, 8)
    assert set(p.passed) == {1} and not p.notice
    return p


# --- a crash mid-write ----------------------------------------------------------------------

def test_replace_failing_keeps_the_previous_file_and_no_temp_file(tmp_path, monkeypatch):
    path = tmp_path / "p.json"
    p = _good(path)
    before = path.read_bytes()

    def no_space(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_space)
    assert p.latch(2, "second")
    assert p.save_error == "No space left on device"
    assert path.read_bytes() == before
    assert [f.name for f in tmp_path.iterdir()] == ["p.json"]  # the temp file was removed
    monkeypatch.undo()
    assert set(Progress.load(path, 8).passed) == {1}


@pytest.mark.parametrize("where", ["during-write", "before-rename"])
def test_a_process_killed_mid_save_loses_nothing(tmp_path, where):
    """A real crash: a child process saving progress dies (os._exit, no cleanup) half-way
    through the JSON or between the write and the rename. The old file is whole."""
    path = tmp_path / "p.json"
    _good(path)
    before = path.read_bytes()
    pid = os.fork()
    if pid == 0:  # the child: save, and die at the chosen moment
        try:
            if where == "during-write":
                def half(obj, fh, **kw):
                    fh.write(json.dumps(obj)[:10])
                    fh.flush()
                    os._exit(9)
                progress_mod.json.dump = half
            else:
                progress_mod.os.replace = lambda *a: os._exit(9)
            p = Progress.load(path, 8)
            p.latch(5, "never lands")
        finally:
            os._exit(3)  # only reached if the crash did not happen
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 9
    assert path.read_bytes() == before
    again = Progress.load(path, 8)
    assert set(again.passed) == {1} and not again.notice
    # What a crash can leave is a temp file beside it, never a damaged progress file.
    leftovers = [f.name for f in tmp_path.iterdir() if f.name != "p.json"]
    assert all(n.startswith(".progress-") for n in leftovers), leftovers


# --- files that cannot be used ----------------------------------------------------------------

BAD_JSON = {
    "half written": "{ half written",
    "not JSON at all": "\x00\x01binary",
    "not UTF-8": b"{\"version\": 1, \"lang\": \"\xff\"}",
    "nested too deep": "[" * 200_000 + "]" * 200_000,
    "a list": "[1, 2]",
    "no version": json.dumps({"current": 2}),
    "passed is a list": json.dumps({"version": 1, "passed": [1, 2]}),
    "passed entry is a string": json.dumps({"version": 1, "passed": {"1": "yes"}}),
    "passed key not a number": json.dumps({"version": 1, "passed": {"one": {}}}),
    "hints value a string": json.dumps({"version": 1, "hints": {"1": "two"}}),
    "hints negative": json.dumps({"version": 1, "hints": {"1": -5}}),
    "current a list": json.dumps({"version": 1, "current": [3]}),
    "current not a number": json.dumps({"version": 1, "current": "three"}),
    "NaN": '{"version": 1, "current": NaN}',
}


@pytest.mark.parametrize("case", sorted(BAD_JSON))
def test_bad_content_is_set_aside(tmp_path, case):
    path = tmp_path / "p.json"
    content = BAD_JSON[case]
    content = content if isinstance(content, bytes) else content.encode()
    path.write_bytes(content)
    p = Progress.load(path, 8)
    assert p.passed == {} and p.hints == {} and p.current == 1
    assert "moved it to" in p.notice and "started fresh" in p.notice and str(path) in p.notice, p.notice
    (aside,) = _aside(path)
    assert aside.read_bytes() == content  # kept for the learner to look at
    assert not path.exists()
    p.latch(1, "fresh")  # the clean start saves normally
    assert json.loads(path.read_text())["passed"]["1"]["message"] == "fresh"


def test_a_directory_at_the_path_is_left_alone(tmp_path):
    """Only a regular file is ever set aside: a directory at the path (once, `--state-file /tmp`)
    is left exactly as it is, and this run saves nothing."""
    path = tmp_path / "p.json"
    path.mkdir()
    (path / "inside").write_text("kept")
    p = Progress.load(path, 8)
    assert p.passed == {} and p.path is None and "left as it is" in p.notice, p.notice
    assert not _aside(path) and (path / "inside").read_text() == "kept"
    p.latch(1, "ok")
    assert path.is_dir() and sorted(f.name for f in tmp_path.iterdir()) == ["p.json"]


def test_a_symlink_at_the_path_is_never_moved(tmp_path):
    """A link to a damaged file: the link is not the tutor's to move; nothing is saved."""
    target = tmp_path / "theirs.json"
    target.write_text("{ not json")
    path = tmp_path / "p.json"
    path.symlink_to(target)
    p = Progress.load(path, 8)
    assert p.path is None and "left as it is" in p.notice
    assert path.is_symlink() and target.read_text() == "{ not json" and not _aside(path)


def _load_in_thread(path):
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("p", Progress.load(path, 8)), daemon=True)
    t.start()
    t.join(30)  # generous: only a blocking open or read would take anywhere near this
    assert not t.is_alive(), "loading the progress file blocked"
    return out["p"]


def test_a_fifo_at_the_path_does_not_block(tmp_path):
    """The file is opened O_NONBLOCK and checked with fstat before any read, so a FIFO (no
    writer) is refused instead of waited on."""
    path = tmp_path / "p.json"
    os.mkfifo(path)
    p = _load_in_thread(path)
    assert "not a regular file" in p.notice and "left as it is" in p.notice
    assert path.is_fifo()


def test_a_huge_sparse_file_is_refused_after_a_capped_read(tmp_path, monkeypatch):
    """At most MAX_BYTES + 1 bytes are ever asked for, whatever the file's size."""
    path = tmp_path / "p.json"
    with open(path, "wb") as fh:
        fh.truncate(1 << 30)
    asked = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: asked.append(n) or real_read(fd, n))
    p = Progress.load(path, 8)
    monkeypatch.undo()
    assert "is larger than 1 MB" in p.notice
    assert sum(asked) <= MAX_BYTES + 1


def test_a_symlink_loop_is_left_alone_and_nothing_is_saved(tmp_path):
    """A path that can be neither read nor moved: start clean, say so, and write nothing."""
    path = tmp_path / "p.json"
    path.symlink_to(path)  # a loop: reading gives ELOOP
    p = Progress.load(path, 8)
    assert "left as it is" in p.notice and p.path is None and p.passed == {}
    assert path.is_symlink() and not _aside(path)


def test_wrong_lang_type_is_harmless(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({**GOOD, "lang": 5}))
    p = Progress.load(path, 8)
    assert not p.notice and p.lang == "5" and set(p.passed) == {1}


# --- what the notice says -----------------------------------------------------------------------

HANGUL = re.compile("[\uac00-\ud7a3]")
RAW = ("Error", "[Errno", "Expecting", "Traceback")


def _notice(path: Path, lang: str) -> str:
    p = Progress.load(path, 8)
    p.lang = lang  # the tutor sets the session's language before it shows the notice
    return p.notice


@pytest.mark.parametrize("case, en, ko", [
    ("directory", "is a directory", "디렉터리입니다"),
    ("half written", "is not valid JSON", "올바른 JSON이 아닙니다"),
    ("not UTF-8", "is not UTF-8 text", "UTF-8 텍스트가 아닙니다"),
    ("no version", "is not a lwstutor progress file", "lwstutor 진행 파일이 아닙니다"),
    ("fifo", "is not a regular file", "일반 파일이 아닙니다"),
])
def test_the_notice_says_what_is_wrong_in_plain_words_in_either_language(tmp_path, case, en, ko):
    """One line that names the file, says what is wrong (never the exception's text) and what the
    tutor does about it, in the learner's language."""
    for lang, words in (("en", en), ("ko", ko)):
        path = tmp_path / lang / "p.json"
        path.parent.mkdir()
        if case == "directory":
            path.mkdir()
        elif case == "fifo":
            os.mkfifo(path)
        else:
            content = BAD_JSON[case]
            path.write_bytes(content if isinstance(content, bytes) else content.encode())
        text = _notice(path, lang)
        assert words in text and str(path) in text and "\n" not in text, text
        assert not any(raw in text for raw in RAW), text
        if lang == "ko":
            words_left = HANGUL.sub("", re.sub(re.escape(str(path)) + r"\S*", "", text))
            for name in ("lwstutor", "JSON", "UTF", "FIFO"):
                words_left = words_left.replace(name, "")
            assert not re.search(r"[A-Za-z]{3,}", words_left), text
        else:
            assert not HANGUL.search(text), text
        moved = case not in ("directory", "fifo")
        assert ("started fresh" in text or "처음부터" in text) if moved else ("left as it is" in text or "그대로" in text)


def test_a_save_error_is_worded_in_the_learners_language(tmp_path):
    p = Progress(path=tmp_path / "gone" / "p.json", make_dirs=False)
    p.save()
    assert p.save_error == "No such file or directory"
    p.lang = "ko"
    assert p.save_error == "파일이나 디렉터리가 없습니다", p.save_error


# --- the notice in the TUI ----------------------------------------------------------------------

async def test_the_tui_shows_the_notice_and_starts_clean(tmp_path, monkeypatch):
    """The tutor's own progress file (in its state dir), damaged: set aside beside itself."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    rec = empty_recording(tmp_path)
    state = progress_mod.state_dir() / f"replay-{rec.stem}.json"
    state.parent.mkdir(parents=True)
    state.write_text('{"version": 1, "current": 4, "passed": {"1": ')
    app = make_app(rec)
    async with app.run_test(size=(100, 40)) as pilot:
        notes = await until(pilot, lambda: [n for n in app.notices
                                            if "is not valid JSON" in n.message.replace("\n", " ")],
                            "the notice of the damaged file", seen=lambda: list(app.notices))
        assert len(notes) == 1 and notes[0].severity == "warning", list(app.notices)
        message = notes[0].message.replace("\n", " ")  # wrapped to the toast's width, where its path's length says
        assert "moved it to" in message and "started fresh" in message
        assert app.session.progress.current == 1 and app.session.progress.passed == {}
        await pilot.press("3")
        assert app.session.progress.current == 3
    assert json.loads(state.read_text())["current"] == 3  # the fresh file is written
    assert len(_aside(state)) == 1


async def test_the_tui_shows_the_notice_in_the_sessions_language(tmp_path, monkeypatch):
    """The notice is worded in the session's language when it is shown (the damaged file could
    not say which)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    rec = empty_recording(tmp_path)
    state = progress_mod.state_dir() / f"replay-{rec.stem}.json"
    state.parent.mkdir(parents=True)
    state.write_text("{ half")
    app = make_app(rec, lang="ko")
    async with app.run_test(size=(100, 40)) as pilot:
        def notes() -> list[str]:
            return [re.sub(r"\s", "", n.message) for n in app.notices]  # wrapped to the toast's width
        await until(pilot, lambda: any("올바른JSON이아닙니다" in n and "처음부터시작합니다" in n for n in notes()),
                    "the notice in Korean", seen=notes)


async def test_the_tui_starts_with_a_directory_at_its_own_state_path(tmp_path, monkeypatch):
    """A directory where the tutor's own progress file goes: a notice, the directory untouched."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    rec = empty_recording(tmp_path)
    state = progress_mod.state_dir() / f"replay-{rec.stem}.json"
    state.mkdir(parents=True)
    app = make_app(rec)
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: any("left as it is" in n.message.replace("\n", " ") for n in app.notices),
                    "the notice of the directory", seen=lambda: list(app.notices))
        await pilot.press("2")
    assert state.is_dir() and not list(state.iterdir())


@pytest.mark.parametrize("kind", ["directory", "someone else's file", "half-written JSON"])
def test_a_state_file_given_that_is_not_the_tutors_is_refused(tmp_path, kind):
    """--state-file names a path the learner chose: what is there is used only if lwstutor could
    have written it; anything else is refused before the tutor starts, and left as it is."""
    from tutor.commands.results import UsageError

    state = tmp_path / "state"
    if kind == "directory":
        state.mkdir()
    else:
        state.write_text("my notes\n" if kind == "someone else's file" else '{"version": 1, "curr')
    with pytest.raises(UsageError) as err:
        make_app(empty_recording(tmp_path), state_file=state)
    assert str(state) in str(err.value) and err.value.kind == "path"
    assert not _aside(state)

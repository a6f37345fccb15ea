"""The recording format: a contract for tests, the demo and bug reports."""

from __future__ import annotations

import io
import json
import re

import pytest

from tutor.cluster.source_events import FileChanged, ObjectEvent
from tutor.cluster.recording import Header, RecordingError, Writer, open_recording, read
from tutor.cluster.replay import ReplaySource
from tutor.narration.recording_errors import sentence

HEADER = {"format": "lwstutor-recording", "version": 1, "namespace": "infer", "workdir": "/w",
          "started_at": "2026-01-01T00:00:00+00:00", "versions": {"kubernetes": "v1.37.2", "lws": "v0.9.0"}}


def refused(read_it) -> str:
    """What the learner reads, in English, when reading refuses the recording."""
    with pytest.raises(RecordingError) as exc:
        read_it()
    return sentence(exc.value, "en")


def write(tmp_path, *lines, header=HEADER):
    p = tmp_path / "r.jsonl"
    p.write_text("\n".join([json.dumps(header)] + [json.dumps(x) if not isinstance(x, str) else x for x in lines]) + "\n")
    return p


def test_round_trip(tmp_path):
    buf = io.StringIO()
    w = Writer(buf, Header("infer", "/w", "2026-01-01T00:00:00+00:00", {"kubernetes": "v1.37.2"}))
    pod = {"kind": "Pod", "metadata": {"name": "llm-0", "namespace": "infer", "uid": "u1"}}
    w.event(ObjectEvent("ADDED", pod, 0.5))
    w.file(FileChanged("names.txt", "pod=llm-0 group=0 worker=0\n", 1.25))
    w.file(FileChanged("names.txt", None, 2.0))
    p = tmp_path / "r.jsonl"
    p.write_text(buf.getvalue())
    rec = read(p)
    assert rec.header.namespace == "infer" and rec.header.versions["kubernetes"] == "v1.37.2"
    assert rec.items == [ObjectEvent("ADDED", pod, 0.5), FileChanged("names.txt", "pod=llm-0 group=0 worker=0\n", 1.25),
                         FileChanged("names.txt", None, 2.0)]
    assert rec.duration == 2.0


def test_a_files_mtime_is_kept_and_is_when_the_session_says_it_was_written(tmp_path):
    """A file the recorder found already written keeps its mtime: a late start's replay judges
    it by when it was written, not by when the recorder first read it."""
    from tutor.lesson.loader import load
    from tutor.session import Session

    buf = io.StringIO()
    w = Writer(buf, Header("infer", "/w", "2026-01-01T00:00:00+00:00", {}))
    w.file(FileChanged("dns.txt", "10.42.0.3\n", 0.015, 1767225000.5))
    w.file(FileChanged("env.txt", "A=1\n", 2.0))
    assert '"mtime": 1767225000.5' in buf.getvalue().replace('":', '": ')
    p = tmp_path / "r.jsonl"
    p.write_text(buf.getvalue())
    items = read(p).items
    assert items[0].written_at == 1767225000.5 and items[1].written_at is None
    s = Session(load(), "/w", "en")
    s.store.started_at = 1767225600.0  # the recorder started ten minutes after dns.txt was written
    for it in items:
        s.apply(it)
    assert s.workspace.get("dns.txt").written_at == 1767225000.5
    assert s.workspace.get("env.txt").written_at == 1767225602.0


def test_unknown_keys_and_lines_are_ignored(tmp_path):
    p = write(tmp_path, {"t": 1, "type": "BOOKMARK", "object": {}}, {"t": 2, "note": "future kind of line"},
              {"t": 3, "type": "ADDED", "object": {"kind": "Pod"}, "extra": True},
              header={**HEADER, "future": "field"})
    rec = read(p)
    assert [type(i).__name__ for i in rec.items] == ["ObjectEvent"]


def test_items_are_put_in_time_order(tmp_path):
    p = write(tmp_path, {"t": 2, "file": "b", "content": "x"}, {"t": 1, "file": "a", "content": "y"})
    assert [i.name for i in read(p).items] == ["a", "b"]


@pytest.mark.parametrize("line,needle", [
    ("{not json", "not valid JSON"),
    ('{"type": "ADDED", "object": {}}', '"t" must be a number'),
    ('{"t": -1, "file": "a", "content": ""}', '"t" must be a number'),
    ('{"t": 1, "type": "ADDED"}', 'needs an "object"'),
    ('{"t": 1, "file": 3, "content": ""}', '"file" must be a name'),
    ('{"t": 1, "file": "a", "content": "", "mtime": "yesterday"}', '"mtime" must be epoch seconds'),
    ("[1, 2]", "expected a JSON object"),
])
def test_bad_lines_name_the_line(tmp_path, line, needle):
    p = write(tmp_path, {"t": 0, "file": "a", "content": "x"}, line)
    said = refused(lambda: read(p))
    assert ":3:" in said and needle in said


def test_not_a_recording(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_text('{"hello": 1}\n')
    assert "not a lwstutor recording" in refused(lambda: read(p))
    p.write_text("")
    assert "empty file" in refused(lambda: read(p))
    assert "cannot open (No such file or directory)" in refused(lambda: read(tmp_path / "missing.jsonl"))


def test_newer_version_is_refused(tmp_path):
    assert "version 2" in refused(lambda: read(write(tmp_path, header={**HEADER, "version": 2})))


def test_open_reads_the_header_and_parses_the_items_when_first_used(tmp_path):
    """The tutor opens a recording before its first frame and parses it on the replay's
    thread: a bad line is found on first use, with its line number, not at open."""
    p = write(tmp_path, {"t": 0, "file": "a", "content": "x"}, "{not json")
    rec = open_recording(p)
    assert rec.header.namespace == "infer"
    for _ in range(2):  # and again: a broken recording never turns into an empty one
        assert ":3: not valid JSON" in refused(lambda: rec.items)


def test_open_still_refuses_a_bad_header_at_once(tmp_path):
    assert "not a lwstutor recording" in refused(lambda: open_recording(write(tmp_path, header={"hello": 1})))
    assert "version 2" in refused(lambda: open_recording(write(tmp_path, header={**HEADER, "version": 2})))


def test_a_line_separator_inside_a_string_is_not_a_line_break(tmp_path):
    """The Writer writes U+2028 as is (ensure_ascii=False); it is text inside a JSON string."""
    buf = io.StringIO()
    w = Writer(buf, Header("infer"))
    w.file(FileChanged("env.txt", "A=1\u2028B=2\n", 1.0))
    p = tmp_path / "r.jsonl"
    p.write_text(buf.getvalue(), encoding="utf-8")
    assert read(p).items == [FileChanged("env.txt", "A=1\u2028B=2\n", 1.0)]


def test_until_cuts_the_recording_after_a_time(tmp_path):
    p = write(tmp_path, *({"t": t, "file": "a", "content": str(t)} for t in (1, 2, 3)))
    rec = open_recording(p)
    cut = rec.until(2)
    assert [i.t for i in cut.items] == [1, 2] and cut.duration == 2 and cut.header == rec.header
    assert len(rec.items) == 3


def test_replay_reports_a_bad_line_instead_of_emitting(tmp_path):
    """The replay parses on its own thread; a bad recording reaches on_error (the TUI ends with
    that message and exit code 2), and nothing half-read is emitted."""
    p = write(tmp_path, {"t": 0, "file": "a", "content": "x"}, {"t": 1, "type": "ADDED"})
    emitted, errors = [], []
    ReplaySource(open_recording(p), emitted.append, speed=0, on_error=errors.append).run()
    assert emitted == [] and len(errors) == 1 and ':3: a watch event needs an "object"' in sentence(errors[0], "en")
    good = write(tmp_path, {"t": 0, "file": "a", "content": "x"})
    ReplaySource(open_recording(good), emitted.append, speed=0, on_error=errors.append).run()
    assert [type(i).__name__ for i in emitted] == ["SourceState", "FileChanged", "SourceState"] and len(errors) == 1


HANGUL = re.compile("[\uac00-\ud7a3]")


def _english_words(text: str) -> list[str]:
    """Latin words of three letters or more left once paths and names that stay as typed go."""
    text = re.sub(r'/\S*|"[^"]*"', "", text)  # a path, a JSON key
    return [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in ("lwstutor", "JSON", "UTF", "FIFO", "mtime")]


@pytest.mark.parametrize("content, en", [
    ("", "empty file"),
    ('{"hello": 1}\n', "not a lwstutor recording"),
    (json.dumps({**HEADER, "version": 99}) + "\n", "recording version 99"),
    (b"\xff\xfe{}\n", "not UTF-8 text"),
    (json.dumps(HEADER) + "\n{not json\n", "not valid JSON"),
    (json.dumps(HEADER) + '\n{"t": -1, "file": "a", "content": ""}\n', '"t" must be a number'),
    (json.dumps(HEADER) + '\n{"t": 1, "type": "ADDED"}\n', 'needs an "object"'),
    (json.dumps(HEADER) + "\n[1, 2]\n", "a JSON object"),
])
def test_every_recording_error_is_worded_in_both_languages(tmp_path, content, en):
    """What is wrong with a recording, in English or in Korean (never the parser's own text)."""
    p = tmp_path / "r.jsonl"
    p.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(RecordingError) as exc:
        read(p)
    english, korean = sentence(exc.value, "en"), sentence(exc.value, "ko")
    assert en in english and str(p) in english and not HANGUL.search(english), english
    assert str(p) in korean and HANGUL.search(korean) and not _english_words(korean), korean
    assert "Expecting" not in english + korean

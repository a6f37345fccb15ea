"""The recording format: a contract for tests, the demo and bug reports."""

from __future__ import annotations

import io
import json

import pytest

from tutor.cluster.events import FileChanged, ObjectEvent
from tutor.cluster.recording import Header, RecordingError, Writer, read

HEADER = {"format": "lwstutor-recording", "version": 1, "namespace": "infer", "workdir": "/w",
          "started_at": "2026-01-01T00:00:00+00:00", "versions": {"kubernetes": "v1.37.2", "lws": "v0.9.0"}}


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
    assert rec.files_at_end() == {"names.txt": None}


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
    ("{not json", "not JSON"),
    ('{"type": "ADDED", "object": {}}', '"t" must be a number'),
    ('{"t": -1, "file": "a", "content": ""}', '"t" must be a number'),
    ('{"t": 1, "type": "ADDED"}', 'needs an "object"'),
    ('{"t": 1, "file": 3, "content": ""}', '"file" must be a name'),
    ("[1, 2]", "expected a JSON object"),
])
def test_bad_lines_name_the_line(tmp_path, line, needle):
    p = write(tmp_path, {"t": 0, "file": "a", "content": "x"}, line)
    with pytest.raises(RecordingError) as exc:
        read(p)
    assert ":3:" in str(exc.value) and needle in str(exc.value)


def test_not_a_recording(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_text('{"hello": 1}\n')
    with pytest.raises(RecordingError, match="not a lwstutor recording"):
        read(p)
    p.write_text("")
    with pytest.raises(RecordingError, match="empty file"):
        read(p)
    with pytest.raises(RecordingError, match="cannot open"):
        read(tmp_path / "missing.jsonl")


def test_newer_version_is_refused(tmp_path):
    with pytest.raises(RecordingError, match="version 2"):
        read(write(tmp_path, header={**HEADER, "version": 2}))

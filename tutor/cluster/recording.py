"""The recording format (a contract: tests, the demo and bug reports rely on it).

JSON Lines. Line 1 is a header:
  {"format": "lwstutor-recording", "version": 1, "namespace": ..., "workdir": ...,
   "started_at": ISO-8601, "versions": {"kubernetes": ..., "lws": ...}}
Every later line has "t" (seconds since start) and is either a watch event
  {"t", "type": "ADDED|MODIFIED|DELETED", "object": {...}}
or an answer-file change
  {"t", "file": "names.txt", "content": "..." | null}.
Unknown keys are ignored so the format can grow.
"""

from __future__ import annotations

import json
import os
import stat
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any, Callable

from tutor.cluster.objects import Obj, as_dict
from tutor.cluster.source_events import FileChanged, ObjectEvent

FORMAT = "lwstutor-recording"
VERSION = 1
EVENT_TYPES = ("ADDED", "MODIFIED", "DELETED")
HEADER_MAX = 64 * 1024  # a header is a few hundred bytes

Item = ObjectEvent | FileChanged  # what a recording's lines after the header hold


class RecordingError(ValueError):
    """A recording that cannot be read: where (the file, or file:line), what is wrong with it (a
    code: bad-json, too-deep, not-an-object, bad-t, bad-file, bad-mtime, no-object, cannot-open,
    not-a-file, empty, not-a-recording, version, not-utf8) and the facts of it.
    tutor/narration/recording_errors.py says it to the learner."""

    def __init__(self, where: object, code: str, **facts: Any) -> None:
        self.where, self.code, self.facts = str(where), code, facts
        super().__init__(f"{where}: {code}" + "".join(f" {k}={v!r}" for k, v in facts.items()))


@dataclass
class Header:
    namespace: str
    workdir: str = ""
    started_at: str = ""
    versions: dict[str, Any] = field(default_factory=dict)
    lesson: str = ""  # the lesson it was recorded for ("": before recordings named one, the LWS lab)

    def to_json(self) -> Obj:
        return {
            "format": FORMAT,
            "version": VERSION,
            **({"lesson": self.lesson} if self.lesson else {}),
            "namespace": self.namespace,
            "workdir": self.workdir,
            "started_at": self.started_at or datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "versions": self.versions,
        }


class Recording:
    """A recording's header and its items (ObjectEvent | FileChanged) in time order.

    `open_recording` reads only the header; the items are parsed on first use. The tutor's
    replay thread is that first use, so the first frame does not wait for hundreds of KB of
    JSON to be parsed. `read` parses everything at once (check, tests)."""

    def __init__(self, header: Header, items: list[Item] | None = None, path: str = "",
                 loader: Callable[[], list[Item]] | None = None):
        self.header = header
        self.path = path
        self._items = items
        self._loader = loader
        self._lock = threading.Lock()  # the UI thread and the replay thread may both ask

    @property
    def items(self) -> list[Item]:
        """Every item, parsed on first use; a bad line raises RecordingError (every time)."""
        if self._items is None:
            with self._lock:
                if self._items is None:
                    self._items = self._loader() if self._loader else []
        return self._items

    @items.setter
    def items(self, value: list[Item]) -> None:
        self._items = value

    @property
    def duration(self) -> float:
        return self.items[-1].t if self.items else 0.0

    def until(self, t: float) -> "Recording":
        """The same recording cut after time t (still parsed lazily)."""
        return Recording(self.header, path=self.path, loader=lambda: [it for it in self.items if it.t <= t])

    def items_for(self, use_files: bool) -> list[Item]:
        """The items to replay: all of them, or without the answer files when the learner's own
        files (--workdir) stand in for the recording's."""
        return self.items if use_files else [it for it in self.items if not isinstance(it, FileChanged)]


def parse_line(raw: str, where: str) -> ObjectEvent | FileChanged | None:
    try:
        rec = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise RecordingError(where, "bad-json", column=exc.colno) from None
    except RecursionError:
        raise RecordingError(where, "too-deep") from None
    if not isinstance(rec, dict):
        raise RecordingError(where, "not-an-object")
    t = rec.get("t")
    if isinstance(t, bool) or not isinstance(t, (int, float)) or t < 0:
        raise RecordingError(where, "bad-t")
    if "file" in rec:
        content = rec.get("content")
        if not isinstance(rec["file"], str) or not (content is None or isinstance(content, str)):
            raise RecordingError(where, "bad-file")
        mtime = rec.get("mtime")
        if mtime is not None and (isinstance(mtime, bool) or not isinstance(mtime, (int, float)) or mtime < 0):
            raise RecordingError(where, "bad-mtime")
        return FileChanged(rec["file"], content, float(t), None if mtime is None else float(mtime))
    if rec.get("type") in EVENT_TYPES:
        if not isinstance(rec.get("object"), dict):
            raise RecordingError(where, "no-object")
        return ObjectEvent(rec["type"], rec["object"], float(t))
    return None  # BOOKMARK, ERROR or a later kind of line: ignored by design


def _open(p: Path) -> IO[str]:
    """Opened without blocking (a FIFO put in its place) and only if it is a regular file (a
    device would be read for ever)."""
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise RecordingError(p, "cannot-open", errno=exc.errno, reason=exc.strerror) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise RecordingError(p, "not-a-file")
    return os.fdopen(fd, encoding="utf-8")


def open_recording(path: str | Path) -> Recording:
    """Checks the header now (a file that is not a recording is refused before anything
    starts); the items are parsed when first asked for."""
    p = Path(path)
    with _open(p) as fh:
        try:
            first = fh.readline(HEADER_MAX)  # a file of one endless line is not read whole
        except UnicodeDecodeError:
            raise _not_utf8(p) from None
    if not first:
        raise RecordingError(p, "empty")
    try:
        head = json.loads(first)
    except (json.JSONDecodeError, RecursionError):
        head = None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise RecordingError(f"{p}:1", "not-a-recording", format=FORMAT)
    if head.get("version") != VERSION:
        raise RecordingError(f"{p}:1", "version", got=json.dumps(head.get("version"), ensure_ascii=False),
                             version=VERSION)
    header = Header(
        namespace=str(head.get("namespace") or ""),
        lesson=str(head.get("lesson") or ""),
        workdir=str(head.get("workdir") or ""),
        started_at=str(head.get("started_at") or ""),
        versions=as_dict(head.get("versions")),
    )
    return Recording(header, path=str(p), loader=lambda: _read_items(p))


def _read_items(p: Path) -> list[Item]:
    """The lines after the header, read one at a time (not the whole file as one string), in
    time order. Lines end at a newline only: a U+2028 inside a JSON string (the Writer writes
    it as is) is text, where str.splitlines() used to cut the line in two."""
    items: list[Item] = []
    with _open(p) as fh:
        try:
            fh.readline()  # the header, checked by open_recording
            for n, raw in enumerate(fh, start=2):
                if raw.strip():
                    item = parse_line(raw, f"{p}:{n}")
                    if item is not None:
                        items.append(item)
        except UnicodeDecodeError:
            raise _not_utf8(p) from None
    items.sort(key=lambda it: it.t)  # stable: equal times keep file order
    return items


def _not_utf8(p: Path) -> RecordingError:
    return RecordingError(p, "not-utf8")


def read(path: str | Path) -> Recording:
    """The whole recording, parsed now: any bad line raises RecordingError here."""
    rec = open_recording(path)
    rec.items  # noqa: B018 - parse now
    return rec


class Writer:
    """Appends lines and flushes each one, so a recording cut short is still readable."""

    def __init__(self, fh: IO[str], header: Header):
        self._fh = fh
        self._write(header.to_json())

    def _write(self, rec: Obj) -> None:
        self._fh.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
        self._fh.flush()

    def event(self, ev: ObjectEvent) -> None:
        self._write({"t": round(ev.t, 3), "type": ev.type, "object": ev.obj})

    def file(self, fc: FileChanged) -> None:
        line: Obj = {"t": round(fc.t, 3), "file": fc.name, "content": fc.content}
        if fc.written_at is not None:
            line["mtime"] = round(fc.written_at, 3)
        self._write(line)

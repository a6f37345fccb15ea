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
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO

from tutor.cluster.events import FileChanged, ObjectEvent

FORMAT = "lwstutor-recording"
VERSION = 1
EVENT_TYPES = ("ADDED", "MODIFIED", "DELETED")


class RecordingError(ValueError):
    """A recording that cannot be read; the message names the file and line."""


@dataclass
class Header:
    namespace: str
    workdir: str = ""
    started_at: str = ""
    versions: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
            "namespace": self.namespace,
            "workdir": self.workdir,
            "started_at": self.started_at or datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "versions": self.versions,
        }


@dataclass
class Recording:
    header: Header
    items: list  # ObjectEvent | FileChanged, in file order
    path: str = ""

    @property
    def duration(self) -> float:
        return self.items[-1].t if self.items else 0.0

    def items_for(self, use_files: bool) -> list:
        """The items to replay: all of them, or without the answer files when the learner's own
        files (--workdir) stand in for the recording's."""
        return self.items if use_files else [it for it in self.items if not isinstance(it, FileChanged)]

    def files_at_end(self) -> dict[str, str | None]:
        files: dict[str, str | None] = {}
        for it in self.items:
            if isinstance(it, FileChanged):
                files[it.name] = it.content
        return files


def parse_line(raw: str, where: str) -> ObjectEvent | FileChanged | None:
    try:
        rec = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise RecordingError(f"{where}: not JSON ({exc.msg})") from None
    if not isinstance(rec, dict):
        raise RecordingError(f"{where}: expected a JSON object")
    t = rec.get("t")
    if isinstance(t, bool) or not isinstance(t, (int, float)) or t < 0:
        raise RecordingError(f"{where}: \"t\" must be a number of seconds >= 0")
    if "file" in rec:
        content = rec.get("content")
        if not isinstance(rec["file"], str) or not (content is None or isinstance(content, str)):
            raise RecordingError(f"{where}: \"file\" must be a name and \"content\" text or null")
        return FileChanged(rec["file"], content, float(t))
    if rec.get("type") in EVENT_TYPES:
        if not isinstance(rec.get("object"), dict):
            raise RecordingError(f"{where}: a watch event needs an \"object\"")
        return ObjectEvent(rec["type"], rec["object"], float(t))
    return None  # BOOKMARK, ERROR or a later kind of line: ignored by design


def read(path: str | Path) -> Recording:
    p = Path(path)
    try:
        fh = p.open(encoding="utf-8")
    except OSError as exc:
        raise RecordingError(f"{p}: cannot open ({exc.strerror or exc})") from None
    with fh:
        try:
            lines = fh.read().splitlines()
        except UnicodeDecodeError:
            raise RecordingError(f"{p}: not UTF-8 text") from None
    if not lines:
        raise RecordingError(f"{p}: empty file, expected a lwstutor recording")
    try:
        head = json.loads(lines[0])
    except json.JSONDecodeError:
        head = None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise RecordingError(f"{p}:1: not a lwstutor recording (no \"format\": \"{FORMAT}\" header)")
    if head.get("version") != VERSION:
        raise RecordingError(f"{p}:1: recording version {head.get('version')!r}; this lwstutor reads {VERSION}")
    header = Header(
        namespace=str(head.get("namespace") or ""),
        workdir=str(head.get("workdir") or ""),
        started_at=str(head.get("started_at") or ""),
        versions=head.get("versions") if isinstance(head.get("versions"), dict) else {},
    )
    items = []
    for n, raw in enumerate(lines[1:], start=2):
        if raw.strip():
            item = parse_line(raw, f"{p}:{n}")
            if item is not None:
                items.append(item)
    items.sort(key=lambda it: it.t)  # stable: equal times keep file order
    return Recording(header, items, str(p))


class Writer:
    """Appends lines and flushes each one, so a recording cut short is still readable."""

    def __init__(self, fh: IO[str], header: Header):
        self._fh = fh
        self._write(header.to_json())

    def _write(self, rec: dict) -> None:
        self._fh.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
        self._fh.flush()

    def event(self, ev: ObjectEvent) -> None:
        self._write({"t": round(ev.t, 3), "type": ev.type, "object": ev.obj})

    def file(self, fc: FileChanged) -> None:
        self._write({"t": round(fc.t, 3), "file": fc.name, "content": fc.content})

"""Bounded, non-blocking reads of the learner's answer files.

An answer file can be anything a learner (or a mistake) puts there: a FIFO, a symlink to
/dev/zero, a loop, a huge sparse file, a half-written file, UTF-16 from an editor. A read must
never block, never use unbounded memory and never raise; it reports what it found instead.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
from dataclasses import dataclass, field, replace
from enum import Enum

SIZE_CAP = 256 * 1024  # answer files are a few lines; anything bigger is a mistake
_RETRIES = 3


class Problem(str, Enum):
    MISSING = "missing"
    NOT_REGULAR = "not-regular"  # FIFO, device, socket
    DIRECTORY = "directory"
    LOOP = "symlink-loop"
    DENIED = "denied"
    TOO_LARGE = "too-large"
    BINARY = "binary"
    NOT_UTF8 = "not-utf8"
    CHANGING = "changing"  # kept changing while being read
    UNREADABLE = "unreadable"


@dataclass(frozen=True)
class FileRead:
    name: str
    text: str | None = None  # normalised: no BOM, "\n" line ends
    problem: Problem | None = None
    detail: str = ""  # e.g. the size, the decode position, the OS error
    note: str = ""  # something worth telling even though the text is usable
    # When this content was written (wall clock, epoch seconds): the file's mtime, or a
    # recording's time of the change. Not part of equality: the same text read again is no change.
    written_at: float | None = field(default=None, compare=False)

    @property
    def ok(self) -> bool:
        return self.text is not None

    @classmethod
    def from_content(cls, name: str, content: str | None, written_at: float | None = None) -> "FileRead":
        """A file as a recording holds it (already text)."""
        if content is None:
            return cls(name, problem=Problem.MISSING)
        return replace(decode(name, content.encode("utf-8")), written_at=written_at)


def decode(name: str, data: bytes) -> FileRead:
    note = ""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            return FileRead(name, problem=Problem.NOT_UTF8, detail=f"byte {exc.start}")
        return FileRead(name, text=_normalise(text), note="utf-16")
    if b"\x00" in data:
        return FileRead(name, problem=Problem.BINARY, detail=f"NUL at byte {data.index(0)}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return FileRead(name, problem=Problem.NOT_UTF8, detail=f"byte {exc.start}")
    if "\r\n" in text:
        note = "crlf"
    return FileRead(name, text=_normalise(text), note=note)


def _normalise(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_answer(path: str, name: str | None = None, cap: int = SIZE_CAP) -> FileRead:
    name = name or os.path.basename(path)
    for _ in range(_RETRIES):
        result = _read_once(path, name, cap)
        if result is not None:
            return result
    return FileRead(name, problem=Problem.CHANGING)


def _read_once(path: str, name: str, cap: int) -> FileRead | None:
    try:
        st = os.stat(path)  # follows symlinks: a link to a regular file is fine
    except FileNotFoundError:
        return FileRead(name, problem=Problem.MISSING)
    except OSError as exc:
        return _os_problem(name, exc)
    if stat.S_ISDIR(st.st_mode):
        return FileRead(name, problem=Problem.DIRECTORY)
    if not stat.S_ISREG(st.st_mode):
        return FileRead(name, problem=Problem.NOT_REGULAR, detail=_file_type(st.st_mode))
    if st.st_size > cap:
        return FileRead(name, problem=Problem.TOO_LARGE, detail=str(st.st_size))
    try:
        # O_NONBLOCK: if the path was swapped for a FIFO since the stat, open must not wait.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        return _os_problem(name, exc)
    try:
        fst = os.fstat(fd)
        if not stat.S_ISREG(fst.st_mode):
            return FileRead(name, problem=Problem.NOT_REGULAR, detail=_file_type(fst.st_mode))
        chunks, total = [], 0
        while total <= cap:
            chunk = os.read(fd, min(65536, cap + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        after = os.fstat(fd)
    except OSError as exc:
        return _os_problem(name, exc)
    finally:
        os.close(fd)
    if total > cap:
        return FileRead(name, problem=Problem.TOO_LARGE, detail=f">{cap}")
    if (after.st_mtime_ns, after.st_size) != (fst.st_mtime_ns, fst.st_size) or total != fst.st_size:
        return None  # written to while we read it: try again
    return replace(decode(name, b"".join(chunks)), written_at=fst.st_mtime)


def _os_problem(name: str, exc: OSError) -> FileRead:
    if exc.errno == errno.ELOOP:
        return FileRead(name, problem=Problem.LOOP)
    if exc.errno in (errno.EACCES, errno.EPERM):
        return FileRead(name, problem=Problem.DENIED)
    if exc.errno == errno.ENOENT:
        return FileRead(name, problem=Problem.MISSING)
    return FileRead(name, problem=Problem.UNREADABLE, detail=exc.strerror or str(exc))


def _file_type(mode: int) -> str:
    for test, label in ((stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"),
                        (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return label
    return "special file"

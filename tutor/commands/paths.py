"""The paths a user gives on the command line, checked before anything is read or written.

The tutor often runs as root in a lab VM, so a path is never trusted to be what its option
expects: `--state-file /tmp` once renamed the machine's /tmp. Each check here either returns a
path that is safe to use for its purpose or raises UsageError (kind "path"), one line in both
languages that names the path and what is wrong with it. Only stat, lstat and a non-blocking
open are used: a FIFO never blocks a check, a device is never read.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile

from tutor.commands.results import UsageError
from tutor.i18n.bilingual import os_reason

def _strerror(exc: OSError) -> tuple[str, str]:
    """The OS's reason, in English and Korean."""
    return os_reason(exc)


def _problem(option: str, path: str, en: str, ko: str) -> UsageError:
    return UsageError(f"{option} {path}: {en}", f"{option} {path}: {ko}", kind="path")


def _os_problem(option: str, path: str, exc: OSError) -> UsageError:
    if exc.errno == errno.ELOOP:
        return _problem(option, path, "is a symlink loop", "심볼릭 링크가 순환합니다")
    en, ko = _strerror(exc)
    return _problem(option, path, f"cannot be used ({en})", f"쓸 수 없는 경로입니다 ({ko})")


def _not_regular(option: str, path: str, mode: int, expected: tuple[str, str] = ("a regular file", "일반 파일이")) -> UsageError:
    if stat.S_ISDIR(mode):
        return _problem(option, path, "is a directory, not a file", "파일이 아니라 디렉터리입니다")
    what = ("a FIFO", "FIFO") if stat.S_ISFIFO(mode) else ("a socket", "소켓") if stat.S_ISSOCK(mode) \
        else ("a device", "장치 파일")
    return _problem(option, path, f"is {what[0]}, not {expected[0]}", f"{expected[1]} 아니라 {what[1]}입니다")


def _stat(option: str, path: str) -> os.stat_result | None:
    """The target's stat (symlinks followed), None when nothing is there; a dangling link or a
    loop is a problem, not "nothing there": writing through it would create or clobber
    something elsewhere."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            target = os.readlink(path)
            raise _problem(option, path, f"is a symlink to {target}, which does not exist",
                           f"가리키는 대상이 없는 심볼릭 링크입니다(대상: {target})") from None
        return None
    except OSError as exc:
        raise _os_problem(option, path, exc) from None


def input_file(path: str, option: str) -> str:
    """A file to read (--replay): a regular file, readable, reached without blocking."""
    st = _stat(option, path)
    if st is None:
        raise _problem(option, path, "no such file", "그런 파일이 없습니다")
    if not stat.S_ISREG(st.st_mode):
        raise _not_regular(option, path, st.st_mode)
    try:
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)))
    except OSError as exc:
        en, ko = _strerror(exc)
        raise _problem(option, path, f"cannot be read ({en})", f"읽을 수 없습니다 ({ko})") from None
    return path


def directory(path: str, option: str) -> str:
    """A directory to read from (--workdir): it must exist and be a directory."""
    st = _stat(option, path)
    if st is None:
        raise _problem(option, path, f"no such directory (create it: mkdir -p {path})",
                       f"그런 디렉터리가 없습니다 (만들기: mkdir -p {path})")
    if not stat.S_ISDIR(st.st_mode):
        raise _problem(option, path, "is a file, not a directory", "디렉터리가 아니라 파일입니다") \
            if stat.S_ISREG(st.st_mode) else _not_regular(option, path, st.st_mode, ("a directory", "디렉터리가"))
    return path


def file_in_new_directories(path: str, option: str) -> str:
    """A file the tutor writes and whose missing directories it makes (class --db): what is
    there must be a regular file, and no file may stand where a directory goes (stat says so:
    making the directories would only say "File exists")."""
    st = _stat(option, path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise _not_regular(option, path, st.st_mode)
    return path


def output_file(path: str, option: str) -> tuple[str, bool]:
    """A file the tutor will write (--state-file, record FILE): (the real path to write, whether
    a file is there now). Symlinks are followed, so the link stays a link; what is there must be
    a regular file (the caller decides whether it is one of its own), and a new file's
    directory must exist and take a file (tried with a temp file of the tutor's own)."""
    st = _stat(option, path)
    real = os.path.realpath(path)
    if st is not None:
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(option, path, st.st_mode)
        return real, True
    parent = os.path.dirname(real) or "."
    pst = _stat(option, parent)
    if pst is None or not stat.S_ISDIR(pst.st_mode):
        raise _problem(option, path, f"directory {os.path.dirname(path) or '.'} does not exist",
                       f"상위 디렉터리가 없습니다 ({os.path.dirname(path) or '.'})")
    try:
        fd, probe = tempfile.mkstemp(prefix=".lwstutor-probe-", dir=parent)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        en, ko = _strerror(exc)
        raise _problem(option, path, f"cannot write a file in {parent} ({en})",
                       f"이 디렉터리에 파일을 쓸 수 없습니다 ({parent}: {ko})") from None
    return real, False

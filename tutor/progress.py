"""The learner's progress: a small JSON file under the XDG state dir (rustlings-style).

Passed steps are latched here: later steps change UIDs, IPs and templates, so a step that
passed once stays passed. A step's solution, once shown, is noted with its time and is never
forgotten (a reset forgets passes and hints, not what was seen); a pass latched after it says so
(`after_solution`). Writes are atomic (temp file + rename), so a crash mid-write loses
nothing; a corrupt file is set aside, with a notice, and the tutor starts clean.
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tutor.i18n.bilingual import Words, both, os_reason, pick

FILE_VERSION = 1
MAX_BYTES = 1 << 20  # a progress file is a few hundred bytes


def _read_small(path: Path) -> str:
    """The file's text; never blocks on a FIFO and never reads more than MAX_BYTES."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a directory")
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        chunks, total = [], 0
        while total <= MAX_BYTES:
            chunk = os.read(fd, MAX_BYTES + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    finally:
        os.close(fd)
    if total > MAX_BYTES:
        raise ValueError(f"larger than {MAX_BYTES} bytes")
    return b"".join(chunks).decode("utf-8")


def looks_like_ours(path: Path) -> bool:
    """Could lwstutor have written this file? Empty, or a JSON object with a "version": then
    replacing it (or setting it aside when damaged) loses nothing of anyone else's."""
    try:
        text = _read_small(path)
    except FileNotFoundError:
        return True
    except (OSError, ValueError):
        return False
    if not text.strip():
        return True
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(raw, dict) and "version" in raw


def peek_lang(path: Path) -> str:
    """The language saved in a progress file, read only (nothing is moved or written)."""
    try:
        raw = json.loads(_read_small(path))
    except (OSError, ValueError, RecursionError):
        return ""
    lang = raw.get("lang") if isinstance(raw, dict) else ""
    return lang if lang in ("ko", "en") else ""


def remembered_lang(lesson: str) -> str:
    """The language saved with a lesson's progress in the state dir ("" when none)."""
    return peek_lang(state_dir() / f"progress-{lesson}.json")


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "lwstutor"


def _fields(raw: object, steps: int) -> dict:
    """A progress file's fields, or TypeError/ValueError when it is not one."""
    if not isinstance(raw, dict) or raw.get("version") != FILE_VERSION:
        raise ValueError(_UNKNOWN)
    valid = range(1, steps + 1)
    passed = {int(k): dict(v) for k, v in dict(raw.get("passed") or {}).items() if int(k) in valid}
    hints = {int(k): int(v) for k, v in dict(raw.get("hints") or {}).items() if int(k) in valid}
    if any(v < 0 for v in hints.values()):
        raise ValueError("a negative hint count")
    # a file written before solutions were shown apart from the hints has none
    solutions = {int(k): str(v) for k, v in dict(raw.get("solutions") or {}).items() if int(k) in valid}
    current = int(raw.get("current") or 1)
    return {"current": current if current in valid else 1, "lang": str(raw.get("lang") or ""),
            "passed": passed, "hints": hints, "solutions": solutions,
            "predictions": _predictions(raw.get("predictions"), valid)}


@dataclass
class Progress:
    current: int = 1
    lang: str = ""
    passed: dict[int, dict] = field(default_factory=dict)  # step -> {"at": iso time, "message": str}
    hints: dict[int, int] = field(default_factory=dict)  # step -> hints revealed
    solutions: dict[int, str] = field(default_factory=dict)  # step -> iso time its solution was shown
    # step -> question id -> {"choice": id, "at": when answered, wall-clock seconds on the story's clock}
    predictions: dict[int, dict[str, dict]] = field(default_factory=dict)
    path: Path | None = None
    problem: Words | tuple = ()  # (English, Korean) when the file on disk could not be used at start
    save_problem: Words | tuple = ()  # why saving fails, while it does; cleared by the next save that works
    make_dirs: bool = True  # create the state dir if missing: only for the tutor's own default path

    @property
    def notice(self) -> str:
        """What went wrong with the file at start, in the progress's language ("" if nothing)."""
        return pick(self.problem, self.lang) if self.problem else ""

    @property
    def save_error(self) -> str:
        """Why saving fails, in the progress's language ("" while saving works)."""
        return pick(self.save_problem, self.lang) if self.save_problem else ""

    # --- changes ---------------------------------------------------------------------------
    def latch(self, step: int, message: str) -> bool:
        if step in self.passed:
            return False
        self.passed[step] = {"at": _now(), "message": message}
        if step in self.solutions:  # the pass came after the whole answer was shown
            self.passed[step]["after_solution"] = True
        self.save()
        return True

    def show_solution(self, step: int) -> bool:
        """Notes that the step's solution was shown (once: the first time is the one that counts)."""
        if step in self.solutions:
            return False
        self.solutions[step] = _now()
        self.save()
        return True

    def after_solution(self, step: int) -> bool:
        """Whether the step passed after its solution was shown."""
        return bool(self.passed.get(step, {}).get("after_solution"))

    def reveal_hint(self, step: int, available: int) -> bool:
        if self.hints.get(step, 0) >= available:
            return False
        self.hints[step] = self.hints.get(step, 0) + 1
        self.save()
        return True

    def predict(self, step: int, question: str, choice: str, at: float) -> bool:
        """Keeps the first answer to a question: a prediction is not changed once the cluster may
        have shown the answer."""
        if question in self.predictions.get(step, {}):
            return False
        self.predictions.setdefault(step, {})[question] = {"choice": choice, "at": round(at, 3)}
        self.save()
        return True

    def reset(self, step: int | None = None) -> None:
        """Forgets passes, hints and predictions; a solution shown stays noted, so a pass after a reset is
        still a pass after the solution."""
        if step is None:
            self.passed.clear()
            self.hints.clear()
            self.predictions.clear()
        else:
            self.passed.pop(step, None)
            self.hints.pop(step, None)
            self.predictions.pop(step, None)
        self.save()

    def go(self, step: int) -> None:
        if step != self.current:
            self.current = step
            self.save()

    def set_lang(self, lang: str) -> None:
        if lang != self.lang:
            self.lang = lang
            self.save()

    # --- persistence -----------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "version": FILE_VERSION,
            "current": self.current,
            "lang": self.lang,
            "passed": {str(k): v for k, v in sorted(self.passed.items())},
            "hints": {str(k): v for k, v in sorted(self.hints.items())},
            "solutions": {str(k): v for k, v in sorted(self.solutions.items())},
            "predictions": {str(k): v for k, v in sorted(self.predictions.items())},
        }

    def save(self) -> None:
        if self.path is None:
            return
        tmp = None
        try:
            if self.make_dirs:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".progress-", dir=self.path.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(self.to_json(), fh, indent=1)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)  # the only step that touches the real file: all or nothing
            tmp = None
            self.save_problem = ()
        except OSError as exc:
            self.save_problem = os_reason(exc)
        finally:
            if tmp is not None:  # the write failed: leave no half-written temp file behind
                try:
                    os.unlink(tmp)
                except OSError:
                    pass

    @classmethod
    def load(cls, path: Path | None, steps: int, make_dirs: bool = True) -> "Progress":
        if path is None:
            return cls()
        p = cls._load(path, steps)
        p.make_dirs = make_dirs
        return p

    @classmethod
    def _load(cls, path: Path, steps: int) -> "Progress":
        try:
            text = _read_small(path)
            raw = json.loads(text) if text.strip() else {"version": FILE_VERSION}  # empty: nothing to lose
        except FileNotFoundError:
            return cls(path=path)
        except (OSError, ValueError, RecursionError) as exc:  # RecursionError: "[[[[..." nested too deep
            return cls._set_aside(path, _what_is_wrong(exc))
        try:
            return cls(**_fields(raw, steps), path=path)
        except (TypeError, ValueError) as exc:
            return cls._set_aside(path, _NOT_OURS if str(exc) == _UNKNOWN else _DAMAGED)

    @classmethod
    def peek(cls, path: Path, steps: int) -> "Progress":
        """The progress in a file, read only: nothing is moved, written or set aside (`check`
        reads the learner's file this way); a file that cannot be read is no progress."""
        try:
            text = _read_small(path)
            return cls(**_fields(json.loads(text) if text.strip() else {"version": FILE_VERSION}, steps))
        except (OSError, TypeError, ValueError, RecursionError):
            return cls()

    @classmethod
    def _set_aside(cls, path: Path, why: Words) -> "Progress":
        """Only a regular file (itself, not a link) is ever moved, and only beside itself: a
        directory, FIFO, device or link at the path is left as it is and nothing is saved."""
        try:
            regular = stat.S_ISREG(os.lstat(path).st_mode)
        except OSError:
            regular = False
        fields = {"path": str(path), "what": why}
        if not regular:
            return cls(path=None, problem=both(
                "progress file {path} {what}: left as it is; progress is not saved this time",
                "진행 파일 {path}: {what}. 그대로 두고, 이번에는 진행 상황을 저장하지 않습니다", **fields))
        aside = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(path, aside)
        except OSError as exc:
            return cls(path=None, problem=both(
                "progress file {path} {what} and could not be moved aside ({why}): started fresh, and progress is "
                "not saved this time",
                "진행 파일 {path}: {what}. 옆으로 옮기지도 못해서({why}) 처음부터 시작하고, 이번에는 진행 상황을 저장하지 "
                "않습니다", why=os_reason(exc), **fields))
        return cls(path=path, problem=both(
            "progress file {path} {what}: moved it to {aside} and started fresh",
            "진행 파일 {path}: {what}. {aside:으로} 옮기고 처음부터 시작합니다", aside=aside, **fields))


_UNKNOWN = "unknown format"
_NOT_OURS = ("is not a lwstutor progress file", "lwstutor 진행 파일이 아닙니다")
_DAMAGED = ("is a damaged lwstutor progress file", "손상된 lwstutor 진행 파일입니다")


def _what_is_wrong(exc: BaseException) -> Words:
    """What reading the file found, in plain words: (English after the file's name, Korean)."""
    if isinstance(exc, UnicodeDecodeError):
        return "is not UTF-8 text", "UTF-8 텍스트가 아닙니다"
    if isinstance(exc, (json.JSONDecodeError, RecursionError)):
        return "is not valid JSON", "올바른 JSON이 아닙니다"
    if isinstance(exc, IsADirectoryError):
        return "is a directory", "파일이 아니라 디렉터리입니다"
    if isinstance(exc, OSError):
        if exc.errno == errno.EINVAL:
            return "is not a regular file (a FIFO, socket or device)", "일반 파일이 아닙니다(FIFO, 소켓 또는 장치 파일)"
        if exc.errno == errno.ELOOP:
            return "is a symlink loop", "순환하는 심볼릭 링크입니다"
        en, ko = os_reason(exc)
        return f"cannot be read ({en})", f"읽을 수 없습니다({ko})"
    if str(exc).startswith("larger than"):
        return f"is larger than {MAX_BYTES // (1 << 20)} MB", f"{MAX_BYTES // (1 << 20)}MB보다 큽니다"
    return _NOT_OURS


def _predictions(raw: object, valid: range) -> dict[int, dict[str, dict]]:
    """The saved predictions (a file from before them has none); an entry that is not one is
    dropped, not the file: a prediction is an aside."""
    out: dict[int, dict[str, dict]] = {}
    for k, answers in (raw.items() if isinstance(raw, dict) else ()):
        if not (k.isascii() and k.isdigit() and int(k) in valid and isinstance(answers, dict)):
            continue
        for q, a in answers.items():
            if not isinstance(a, dict):
                continue
            choice, at = a.get("choice"), a.get("at")
            if isinstance(choice, str) and isinstance(at, (int, float)) and not isinstance(at, bool) and math.isfinite(at):
                out.setdefault(int(k), {})[q] = {"choice": choice, "at": float(at)}
    return out

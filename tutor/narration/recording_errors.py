"""A recording that cannot be read (tutor/cluster/recording.py: RecordingError, where and what),
said to the learner: the file (or file:line), then what is wrong with it. Its Korean takes no
particle after the file's name: a colon follows it."""

from __future__ import annotations

from tutor.cluster.recording import RecordingError
from tutor.i18n.bilingual import Words, pick, system_reason

# code -> (English, Korean)
_TEXTS = {
    "bad-json": ("not valid JSON (at column {column})", "올바른 JSON이 아닙니다({column}번째 열)"),
    "too-deep": ("not valid JSON (nested too deep)", "올바른 JSON이 아닙니다(너무 깊게 중첩됨)"),
    "not-an-object": ("expected a JSON object", "JSON 객체여야 합니다"),
    "bad-t": ("{f} must be a number of seconds >= 0", "{f:은} 0 이상의 초 단위 숫자여야 합니다"),
    "bad-file": ("{f} must be a name and {c} text or null", "{f:은} 이름, {c:은} 텍스트나 null이어야 합니다"),
    "bad-mtime": ("{f} must be epoch seconds >= 0", "{f:은} 0 이상의 에포크 초여야 합니다"),
    "no-object": ("a watch event needs an {f}", "워치 이벤트에는 {f:이} 있어야 합니다"),
    "cannot-open": ("cannot open ({why})", "열 수 없습니다({why})"),
    "not-a-file": ("not a regular file", "일반 파일이 아닙니다"),
    "empty": ("empty file, expected a lwstutor recording", "빈 파일입니다. lwstutor 녹화 파일이어야 합니다"),
    "not-a-recording": ('not a lwstutor recording (no "format": "{format}" header)',
                        'lwstutor 녹화 파일이 아닙니다("format": "{format}" 헤더가 없음)'),
    "version": ("recording version {got}; this lwstutor reads {version}",
                "녹화 형식 버전이 {got}입니다. 이 lwstutor는 {version} 버전을 읽습니다"),
    "not-utf8": ("not UTF-8 text", "UTF-8 텍스트가 아닙니다"),
}
# The recording's keys a text names, as written in the file
_KEYS = {"bad-t": {"f": '"t"'}, "bad-file": {"f": '"file"', "c": '"content"'}, "bad-mtime": {"f": '"mtime"'},
         "no-object": {"f": '"object"'}}


def sentence(error: RecordingError, lang: str) -> str:
    """Where, and what is wrong there, in `lang`."""
    facts = {**_KEYS.get(error.code, {}), **error.facts}
    if error.code == "cannot-open":
        facts = {"why": pick(system_reason(facts.get("errno"), facts.get("reason")), lang)}
    return f"{error.where}: " + pick(_TEXTS[error.code], lang, **facts)


def both(error: RecordingError) -> Words:
    """The same in both languages: (English, Korean)."""
    return sentence(error, "en"), sentence(error, "ko")

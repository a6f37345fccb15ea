"""Words in two languages, and the one way the tutor picks one: every English/Korean pair, in
the checkers, the narration of the story and the timeline (tutor/narration), doctor and the
screens, goes through say() (or pick() for a pair kept as a value, both() to make one), and a
Korean field may name the particle that follows it ("{pod:은}", tutor/i18n/particles.py). No table of
Korean keyed by English: it would fall back to English, silently, for a text it lacks."""

from __future__ import annotations

import errno
import os
import socket
from dataclasses import dataclass

from tutor.i18n.particles import fill

Words = tuple[str, str]  # (English, Korean)


def say(lang: str, en: str, ko: str, **fields) -> str:
    """The text in `lang` ("ko", else English), its fields filled in. A field given as a pair
    (English, Korean) is said in `lang` too."""
    text = ko if lang == "ko" else en
    return fill(text, **{k: _said(lang, v) for k, v in fields.items()}) if fields else text


def _said(lang: str, value):
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, str) for v in value):
        return value[1] if lang == "ko" else value[0]
    return value


def both(en: str, ko: str, **fields) -> Words:
    """A message in both languages, each filled: a pair kept as a value, for a message made before
    the learner's language is known (an error raised while the options are read)."""
    return say("en", en, ko, **fields), say("ko", en, ko, **fields)


@dataclass(frozen=True)
class Said:
    """A message kept as what it says, not as text: its words in both languages and its fields,
    said in a language each time it is shown (a notice on screen follows a switch of language)."""

    en: str
    ko: str
    fields: tuple[tuple[str, object], ...] = ()

    def in_lang(self, lang: str) -> str:
        return say(lang, self.en, self.ko, **dict(self.fields))


def saying(en: str, ko: str, **fields) -> Said:
    """A message to say later, in the language of that moment (say()'s words and fields)."""
    return Said(en, ko, tuple(fields.items()))


def pick(words: Words, lang: str, **fields) -> str:
    """One of a pair kept as a value (what a prediction's grader saw), in `lang`."""
    return say(lang, words[0], words[1], **fields)


def default_lang(cli_lang: str | None, saved: str = "") -> str:
    """--lang, else the language saved with the progress, else the locale (Korean unless it is
    clearly another language)."""
    if cli_lang:
        return cli_lang
    if saved in ("ko", "en"):
        return saved
    env = os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG") or ""
    return "en" if env and not env.startswith("ko") and not env.startswith(("C", "POSIX")) else "ko"


# The system's reasons (errno), as a Korean writer would say them; the English is the system's own.
_OS_KO = {
    errno.EACCES: "권한이 없습니다", errno.EPERM: "허용되지 않습니다", errno.EROFS: "읽기 전용 파일 시스템입니다",
    errno.ENOSPC: "디스크 공간이 없습니다", errno.ENOENT: "파일이나 디렉터리가 없습니다", errno.ELOOP: "심볼릭 링크가 순환합니다",
    errno.ENOTDIR: "경로 중간에 디렉터리가 아닌 것이 있습니다", errno.EIO: "입출력 오류가 났습니다",
    errno.EISDIR: "디렉터리입니다", errno.EINVAL: "일반 파일이 아닙니다", errno.ENAMETOOLONG: "경로가 너무 깁니다",
    errno.EDQUOT: "디스크 할당량을 넘었습니다", errno.EMFILE: "열린 파일이 너무 많습니다",
    errno.ENXIO: "장치가 없습니다", errno.EBUSY: "사용 중입니다", errno.ETXTBSY: "사용 중입니다",
    errno.EEXIST: "이미 있습니다", errno.EXDEV: "다른 파일 시스템으로는 옮길 수 없습니다",
    errno.ECONNREFUSED: "연결이 거부되었습니다", errno.ECONNRESET: "연결이 끊겼습니다",
    errno.ETIMEDOUT: "시간이 초과되었습니다", errno.EHOSTUNREACH: "호스트에 닿을 수 없습니다",
    errno.ENETUNREACH: "네트워크에 닿을 수 없습니다", errno.EPIPE: "연결이 끊겼습니다",
    errno.EADDRINUSE: "주소가 이미 쓰이고 있습니다", errno.EADDRNOTAVAIL: "이 컴퓨터에 없는 주소입니다",
    # getaddrinfo's reasons (socket.gaierror: a host name that does not resolve), negative numbers
    socket.EAI_NONAME: "그런 이름이나 서비스를 찾을 수 없습니다",
    socket.EAI_AGAIN: "이름을 지금은 찾을 수 없습니다(잠시 뒤 다시)",
    socket.EAI_FAIL: "이름을 찾다가 되돌릴 수 없는 오류가 났습니다", socket.EAI_NODATA: "이 이름에는 주소가 없습니다",
    socket.EAI_SERVICE: "이 소켓 종류로는 쓸 수 없는 서비스입니다",
}


def os_reason(exc: BaseException) -> Words:
    """Why the system refused (an OSError), in plain words: (English, Korean). Never the
    exception's own text with its class and errno number."""
    return system_reason(getattr(exc, "errno", None), getattr(exc, "strerror", None))


def system_reason(code: int | None, text: str | None) -> Words:
    """The same from its facts: the error number, and the system's own text of it."""
    en = text or (os.strerror(code) if isinstance(code, int) else "") or "system error"
    ko = _OS_KO.get(code) if isinstance(code, int) else None
    if ko is None:  # no Korean of ours: the system's own words, kept, so Korean says no less than English
        ko = f"시스템 오류입니다: {en}" + (f"(오류 번호 {code})" if isinstance(code, int) else "")
    return en, ko

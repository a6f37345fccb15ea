"""A system's reason says as much in Korean as in English: for every error number the system
has, and every reason a host name lookup gives (socket.gaierror), the Korean is a sentence of
our own or keeps the system's English words. It said "시스템 오류입니다(오류 번호 -2)" where
English said "Name or service not known" (`serve --host 256.1.1.1`)."""

from __future__ import annotations

import errno
import os
import socket

import pytest

from tutor.i18n.bilingual import os_reason, system_reason

HANGUL = range(0xAC00, 0xD7A4)
LOOKUP = {n: getattr(socket, n) for n in dir(socket) if n.startswith("EAI_")}


def _reasons() -> list[tuple[int, str]]:
    out = [(code, os.strerror(code)) for code in sorted(errno.errorcode)]
    out += [(code, f"lookup reason {name}") for name, code in sorted(LOOKUP.items())]
    return out


@pytest.mark.parametrize("code,text", _reasons(), ids=lambda v: str(v))
def test_the_korean_is_ours_or_keeps_the_systems_words(code: int, text: str):
    en, ko = system_reason(code, text)
    assert en == text
    assert any(ord(ch) in HANGUL for ch in ko)
    ours = "시스템 오류입니다" not in ko
    assert ours or text in ko, ko


def test_a_name_that_does_not_resolve_is_said_in_korean():
    # what getaddrinfo raises for `serve --host 256.1.1.1` (no lookup here: the tests stay on loopback)
    en, ko = os_reason(socket.gaierror(socket.EAI_NONAME, "Name or service not known"))
    assert en == "Name or service not known"
    assert ko == "그런 이름이나 서비스를 찾을 수 없습니다"


def test_without_a_number_it_still_keeps_the_words():
    assert system_reason(None, "Something odd") == ("Something odd", "시스템 오류입니다: Something odd")
    assert system_reason(None, None) == ("system error", "시스템 오류입니다: system error")

"""Korean particles that fit the word before them, as a Korean writer picks them: by the word's
last sound (받침), reading digits and Latin letters as Korean reads them (llm-0: 영, ends in a
consonant; llm-1-1: 일, ends in ㄹ; lws.yaml: 야믈; UID: 디).

A template names the particle in its field's format spec, written attached to the word:
"{pod:은} 실행 중입니다" gives "llm-0은 실행 중입니다" and "llm-0-2는 실행 중입니다".
"""

from __future__ import annotations

import re
import string
from typing import Any

# particle spec -> (after a consonant, after a vowel); ㄹ takes the vowel form of (으)로
PAIRS = {"은": ("은", "는"), "는": ("은", "는"), "이": ("이", "가"), "가": ("이", "가"),
         "을": ("을", "를"), "를": ("을", "를"), "과": ("과", "와"), "와": ("과", "와"),
         "으로": ("으로", "로"), "로": ("으로", "로"), "이에요": ("이에요", "예요"), "이라는": ("이라는", "라는"),
         # the copula in the past: "{uid:이었습니다}" after 1 (일), "{pod:였습니다}" after 리더
         "이었습니다": ("이었습니다", "였습니다"), "였습니다": ("이었습니다", "였습니다")}

# How Korean reads the last digit of a number: 0 영, 1 일, 2 이, 3 삼, 4 사, 5 오, 6 육, 7 칠, 8 팔, 9 구
_DIGIT = {"0": "C", "1": "ㄹ", "2": "", "3": "C", "4": "", "5": "", "6": "C", "7": "ㄹ", "8": "ㄹ", "9": ""}
# A letter read by its name (UID: 디, GPU: 유, L: 엘, M: 엠, N: 엔, R: 알)
_LETTER = {"l": "ㄹ", "r": "ㄹ", "m": "C", "n": "C"}
# Loanwords whose written Korean ends otherwise than their spelling says (the last word of a
# camelCase name counts: workerTemplate reads as 템플릿).
_LOANWORDS = {"template": "C", "set": "C", "statefulset": "C", "secret": "C", "script": "C", "log": "",
              "job": "C", "group": "C", "ready": "", "policy": "", "json": "C", "hash": "", "revision": "C",
              "available": "ㄹ", "exec": "C", "kubectl": "ㄹ", "key": "", "partition": "C", "selector": "",
              "kwok": "C",  # 쿽
              "grep": "C", "limit": "C", "big": "C",  # 그렙, 리밋, 빅
              "type": "C", "spec": "C", "basic": "C", "sleep": "C", "trap": "C"}  # 타입, 스펙, 베이직, 슬립, 트랩
_TRAILING = re.compile(r"[\s\"'`)\]}>.,:;!?]+$")


def final_sound(word: str) -> str:
    """"" when the word ends in a vowel sound, "ㄹ" in ㄹ, "C" in another consonant."""
    word = re.sub(r"\([^()]*\)$", "", word.rstrip()) or word  # "llm-0(리더)" reads as llm-0
    word = _TRAILING.sub("", word)
    if not word:
        return ""
    last = word[-1]
    if "가" <= last <= "힣":
        coda = (ord(last) - 0xAC00) % 28
        return "" if coda == 0 else "ㄹ" if coda == 8 else "C"
    if last in _DIGIT:
        return _DIGIT[last]
    letters = re.search(r"[A-Za-z]+$", word)
    if not letters:
        return ""
    run = letters.group(0)
    if not run.isupper() and (camel := re.search(r"[A-Z][a-z]+$", run)):
        run = camel.group(0)  # workerTemplate -> Template
    if len(run) == 1 or run.isupper():  # read letter by letter
        return _LETTER.get(run[-1].lower(), "")
    run = run.lower()
    if run in _LOANWORDS:
        return _LOANWORDS[run]
    # A word, as Korean writes the loanword: yaml 야믈, file 파일, llm 엠, orphan 오펀, running 러닝,
    # name 네임, lookup 룩업, kubelet 큐블릿; leader 리더, pod 파드, check 체크 end in a vowel.
    if run.endswith(("l", "le")):
        return "ㄹ"
    if run.endswith(("m", "n", "ng", "me", "ne", "up", "et", "ip")):
        return "C"
    return ""


def particle(word: str, spec: str) -> str:
    """The particle of the pair `spec` names that fits after `word`."""
    return choose(word, *PAIRS[spec], ro=spec in ("으로", "로"))


def choose(word: str, consonant: str, vowel: str, ro: bool = False) -> str:
    """The form after a consonant or after a vowel, by the word's last sound; (으)로 (`ro`) takes
    the vowel form after ㄹ too."""
    sound = final_sound(word)
    if ro:
        return consonant if sound == "C" else vowel
    return consonant if sound else vowel


class _Word:
    """A template value that takes a particle as its format spec ("{pod:을}")."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def __format__(self, spec: str) -> str:
        return attach(self.value, spec) if spec in PAIRS else format(self.value, spec)


_FORMATTER = string.Formatter()


def fill(template: str, **fields: Any) -> str:
    """template.format(**fields), where a field may name a particle: "{pod:은}"."""
    return _FORMATTER.vformat(template, (), {k: _Word(v) for k, v in fields.items()})


def attach(word: Any, spec: str) -> str:
    """The word with the particle that fits it, for text built in code (an f-string)."""
    text = format(word, "")
    return text + particle(text, spec)

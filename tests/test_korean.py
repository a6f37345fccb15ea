"""Korean as a Korean writer writes it: particles chosen by the word's last sound (tutor/i18n/particles.py),
and every message of every recording, read in Korean, with no placeholder particle (을(를)), none
spaced off the name it follows, and none that does not fit that name."""

from __future__ import annotations

import re

import pytest

from tests.said import korean
from tests.verdict_lines import ALL, lines
from tutor.i18n.particles import fill, final_sound, particle

PLACEHOLDER = re.compile(r"을\(를\)|를\(을\)|은\(는\)|는\(은\)|이\(가\)|가\(이\)|와\(과\)|과\(와\)|\(으\)로|\(이\)")
NAME = r"[A-Za-z0-9][A-Za-z0-9_.\-/:]*[A-Za-z0-9]|[A-Za-z0-9]"
ATTACHED = re.compile(rf"({NAME})(으로|은|는|이|가|을|를|와|과|로)(?![\w])")
SPACED = re.compile(rf"({NAME}) (은|는|이|가|을|를|와|과|으로|로|의|에|에서|도|만|보다)(?=[\s,.)]|$)")


def test_particles_follow_the_last_sound_as_korean_reads_it():
    cases = {"llm-0": "은을으로", "llm-1-1": "은을로", "lws.yaml": "은을로", "UID": "는를로", "orphan": "은을으로",
             "names.txt": "는를로", "10.42.0.5": "는를로", "solo-0-2": "는를로", "Running": "은을으로",
             "파일": "은을로", "그룹": "은을으로", "리더": "는를로", "llm-0(리더)": "은을으로"}
    for word, want in cases.items():
        got = particle(word, "은") + particle(word, "을") + particle(word, "으로")
        assert got == want, (word, got)
    assert fill("{pod:이} {n:.1f}초, {f:와} {g:과}", pod="llm-0-2", n=2.25, f="llm-0", g="llm") == \
        "llm-0-2가 2.2초, llm-0과 llm과"


def fits(word: str, got: str) -> bool:
    return particle(word, got) == got


def problems(text: str) -> list[str]:
    out = [f"placeholder {m.group(0)!r}" for m in PLACEHOLDER.finditer(text)]
    out += [f"spaced particle {m.group(0)!r}" for m in SPACED.finditer(text)]
    out += [f"{m.group(1)}{m.group(2)}: wants {particle(m.group(1), m.group(2))}"
            for m in ATTACHED.finditer(text) if not fits(m.group(1), m.group(2))]
    return out


def test_the_scan_catches_each_kind():
    assert problems("llm-0 은(는) 23848fab") and problems("lws.yaml 를 보세요") and problems("llm-0와 llm-0-1")
    assert not problems("llm-0은 23848fab입니다. lws.yaml을 보세요. llm-0과 llm-0-1")


def test_final_sound_reads_hangul_codas():
    assert (final_sound("그룹"), final_sound("파일"), final_sound("리더")) == ("C", "ㄹ", "")


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_every_korean_message_of_a_recording_reads_right(path):
    """Every verdict line a Korean learner could read while the recording plays, and with an
    empty workdir (what a step says before anything is written)."""
    said = {line for _, line in lines(str(path), "ko")} | {line for _, line in lines(str(path), "ko", True)}
    bad = {line: problems(line) for line in said if problems(line)}
    assert not bad, "\n".join(f"{ps}: {line}" for line, ps in list(bad.items())[:15]) + f"\n({len(bad)} lines)"


def test_the_screens_and_doctors_korean_reads_right():
    """The words of the screens and of doctor, as templates (tests/said.py reads them from the
    sources): their names and fields carry their particles attached and fitting ({res:을}), none
    placeholder or spaced."""
    said = korean(("tutor/ui", "tutor/preflight.py", "tutor/commands/doctor.py"))
    assert len(said) > 150 and sum(bool(re.search("[가-힣]", k)) for k in said) > 150, said
    bad = {text: problems(text) for text in said if problems(text)}
    assert not bad, bad


def test_the_past_copula_fits_its_word():
    assert fill("{real:이었습니다}", real="948aaa6b-ec67-4b15-ab6c-687bf10c30c1") == \
        "948aaa6b-ec67-4b15-ab6c-687bf10c30c1이었습니다"
    assert fill("{who:였습니다}", who="리더") == "리더였습니다"
    assert fill("{n:이었습니다}", n="llm-0") == "llm-0이었습니다"

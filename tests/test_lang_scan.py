"""The screen audit's reader (tests/lang_scan.py) on sentences it must pass and sentences it must
fail: each rule can fail, and what the learner types is never judged as a word."""

from __future__ import annotations

import pytest

from tests.lang_scan import allowlist, scan


def rules(text: str, lang: str = "ko", **kw) -> list[str]:
    return [f.rule for f in scan(text, lang, **kw)]


@pytest.mark.parametrize("good", [
    "llm-0은 실행 중입니다",
    "lws.yaml을 고치세요",
    "LeaderWorkerSet orphan을 만드세요.",
    "nvidia.com/gpu 1개를 요청하세요",
    "kubectl get pods -n infer -o wide로 확인하세요",  # a command: its words are the learner's
    "`kubectl describe pod llm-0` 결과를 보세요",
    "restartPolicy: RecreateGroupOnPodRestart를 주면",
    "worker-index=1인 파드",
    "apiVersion이 없습니다",
    "llm-0-1은 Running입니다",
    "GPU 2/4  type=kwok",
    "UID가 새로 붙습니다",
    "gpu-a와 gpu-b",
    "lab-server는 GPU가 모자랍니다",
    "n/→ 다음 p/← 이전 h 힌트 q 종료 ? 도움말",
    "llm-0(리더)이 다시 만들어졌습니다",
    "LWS_LEADER_ADDRESS의 값",
    "알 수 없는 명령입니다: 'nope'",  # the learner's value, quoted
    "새 템플릿(리비전 557f644bdf)으로 돕니다",
    "새 llm-1 (557f644b)이 옛 llm-1-1 옆에서",
    "기준)가 lab-server를 피하게 합니다",  # the aside opened on the line before: not read
    "kubectl get pod llm-1 -n infer -o wide의 IP 열",
    "infer -o yaml로 볼 수 있고",  # a flag's value
])
def test_korean_that_reads_well_passes(good):
    assert scan(good, "ko") == []


@pytest.mark.parametrize("bad,rule", [
    ("apiVersion이 missing입니다", "latin"),
    ("the pod was not found", "latin"),
    ("llm-0은 running입니다", "latin"),  # a phase is Running, as kubectl prints it; running is English
    (" ERROR  파일을 읽지 못했습니다", "latin"),
    ("real 였습니다", "particle"),  # 리얼 ends in ㄹ: 이었습니다
    ("real 였습니다", "particle-apart"),
    ("lab-server였습니다", None),  # 서버 ends in a vowel: 였습니다 is right
    ("hostname}를 보세요", "particle"),
    ("새 템플릿(리비전 557f644bdf)로 돕니다", "particle"),  # the aside is skipped: 템플릿, 으로
    ("{type: kwok}가 없습니다", "particle"),
    ("lws.yaml를 고치세요", "particle"),
    ("llm-1-1로 가세요", "particle"),  # 일 ends in ㄹ: 로 is right
    ("UID이 다릅니다", "particle"),
    ("llm-0과 llm-1와", "particle"),
    ("kubelet이에요", "particle"),  # 큐블릿: ends in a consonant, so 이에요 is right...
    ("worker-index=1 인데 이상합니다", "particle-apart"),
    ("<llm-0의 UID> 와 비교", "particle-apart"),
    ("파일을(를) 고치세요", "both-forms"),
    ("[Errno 2] No such file or directory", "raw-error"),
    ("Traceback (most recent call last):", "raw-error"),
    ("yaml.scanner.ScannerError: mapping values", "raw-error"),
    ("kubernetes.client.exceptions.ApiException (403)", "raw-error"),
])
def test_korean_that_trips_a_reader_fails(bad, rule):
    if rule is None or bad == "llm-1-1로 가세요":
        assert scan(bad, "ko") == []  # the control: ㄹ takes 로
        return
    if bad == "kubelet이에요":
        assert scan(bad, "ko") == [] and rule in rules("kubelet예요")  # ...and 예요 is not
        return
    assert rule in rules(bad), scan(bad, "ko")


def test_english_holds_no_hangul():
    assert scan("llm-0 is Running; lws.yaml holds it", "en") == []
    assert rules("Step 5 passed: 통과", "en") == ["hangul"]
    assert rules("ValueError: bad", "en") == ["raw-error"]


def test_particles_apart_are_judged_only_after_a_non_korean_word():
    assert scan("이 파드는 다시 만들어집니다", "ko") == []  # 이 is a word (this)
    assert scan("파드 로그를 보세요", "ko") == []  # 로그 is a word, not 로
    assert set(rules("llm-0 는 실행 중")) == {"particle", "particle-apart"}  # 영: 은, and attached


def test_quoted_words_from_the_cluster_are_not_the_tutors():
    line = "│ Container image \"busybox:1.36\" already present │"
    message = 'Container image "busybox:1.36" already present on machine'
    assert "latin" in rules(line)
    assert rules(line, verbatim=(message,)) == []


def test_every_allowlist_entry_says_why_and_holds_no_ordinary_english():
    words = allowlist().words
    for plain in ("missing", "found", "the", "not", "is", "passed", "running", "error"):
        assert plain not in words, plain

"""A failed request to the API server (tutor/cluster/failure.py: its kind and facts), said to the
learner: a sentence, in one line and never cut, and the few words the header has room for."""

from __future__ import annotations

from tutor.cluster.failure import Failure
from tutor.i18n.bilingual import Words, pick, system_reason


# kind -> (English, Korean); {server} is the API server's URL. The Korean particles follow no
# variable word (에, 의 fit any ending), so no placeholder particle is needed.
_TEXTS = {
    "refused": ("cannot reach {server}: connection refused (is the API server running?)",
                "{server}에 연결할 수 없습니다: 연결이 거부되었습니다 (API 서버가 실행 중인가요?)"),
    "dns": ("cannot reach {server}: the host name {host} does not resolve (DNS)",
            "{server}에 연결할 수 없습니다: 호스트 이름을 찾지 못했습니다 (DNS: {host})"),
    "tls": ("cannot reach {server}: its TLS certificate is not trusted ({why})",
            "{server}에 연결할 수 없습니다: TLS 인증서를 신뢰할 수 없습니다 ({why})"),
    "timeout": ("cannot reach {server}: no answer in time (timed out)",
                "{server}에 연결할 수 없습니다: 제시간에 응답이 없습니다 (시간 초과)"),
    "closed": ("cannot reach {server}: the connection was closed before an answer ({why})",
               "{server}에 연결할 수 없습니다: 응답 전에 연결이 끊겼습니다 ({why})"),
    "unreachable": ("cannot reach {server}: {why}", "{server}에 연결할 수 없습니다: {why}"),
    "unauthorized": ("{server} does not accept your credentials (401 Unauthorized): check the user "
                     "of your kubeconfig context",
                     "{server}에서 인증 정보를 받아들이지 않습니다 (401 Unauthorized): kubeconfig 컨텍스트의 "
                     "사용자 정보를 확인하세요"),
    "forbidden": ("{server} forbids it (403 Forbidden): {why}", "{server}에서 거부했습니다 (403 Forbidden): {why}"),
    "http": ("{server} answered HTTP {status}: {why}", "{server}의 응답: HTTP {status}: {why}"),
    "silent": ("the watch of {why} went silent while {server} answers: listing them again",
               "API 서버({server})는 응답하는데 {why} 감시가 멈췄습니다: 목록을 다시 받습니다"),
}
# The same, short enough for the header of an 80-column terminal (the whole sentence is in the
# lab check panel below it).
_BRIEF = {
    "refused": ("cannot reach {server}: connection refused", "{server}에 연결할 수 없음: 연결 거부"),
    "dns": ("cannot reach {server}: DNS", "{server}에 연결할 수 없음: DNS"),
    "tls": ("cannot reach {server}: TLS not trusted", "{server}에 연결할 수 없음: TLS 인증서"),
    "timeout": ("cannot reach {server}: timed out", "{server}에 연결할 수 없음: 시간 초과"),
    "closed": ("cannot reach {server}: connection closed", "{server}에 연결할 수 없음: 연결 끊김"),
    "unreachable": ("cannot reach {server}", "{server}에 연결할 수 없음"),
    "unauthorized": ("{server}: 401 Unauthorized", "{server}: 401 Unauthorized"),
    "forbidden": ("{server}: 403 Forbidden", "{server}: 403 Forbidden"),
    "http": ("{server}: HTTP {status}", "{server}: HTTP {status}"),
    "silent": ("{why}: watch silent, listing again", "{why}: 감시 멈춤, 다시 받는 중"),
}
# OpenSSL's reasons a certificate is not trusted, in Korean; another keeps its English in English only.
_TLS_KO = {"self-signed certificate": "자체 서명 인증서입니다", "self signed certificate": "자체 서명 인증서입니다",
           "certificate has expired": "인증서가 만료되었습니다",
           "certificate is not yet valid": "인증서가 아직 유효하지 않습니다",
           "unable to get local issuer certificate": "발급자 인증서를 찾을 수 없습니다",
           "unable to verify the first certificate": "첫 인증서를 검증할 수 없습니다",
           "hostname mismatch": "호스트 이름이 인증서와 맞지 않습니다", "ip address mismatch": "IP 주소가 인증서와 맞지 않습니다"}


def sentence(failure: Failure, lang: str) -> str:
    """What failed and why, in `lang`, in one line."""
    return " ".join(_said(_TEXTS, failure, lang).split())


def brief(failure: Failure, lang: str) -> str:
    """The same in a few words (the header); the sentence when there is no brief form."""
    return _said(_BRIEF, failure, lang) or sentence(failure, lang)


def both(failure: Failure) -> Words:
    """The sentence in both languages: (English, Korean)."""
    return sentence(failure, "en"), sentence(failure, "ko")


def _said(texts: dict, failure: Failure, lang: str) -> str:
    return pick(texts[failure.kind], lang).format(server=failure.server or "the API server", host=failure.host,
                                                  status=failure.status, why=pick(_why(failure), lang))


def _why(failure: Failure) -> Words:
    """The reason in both languages: the system's in Korean too, OpenSSL's where the tutor knows it,
    the server's (or the silent watch's name) as it was given."""
    reason = failure.reason
    if isinstance(reason, tuple):
        return reason
    if failure.kind == "silent":
        return failure.resource, failure.resource
    if failure.kind == "tls":
        return reason, _tls_korean(reason)
    if failure.kind in ("closed", "unreachable"):
        return system_reason(failure.errno, reason) if reason else ("no reason given", "이유를 알 수 없습니다")
    return (reason, reason) if reason else ("no reason given", "no reason given")


def _tls_korean(text: str) -> str:
    low = text.lower()
    ko = next((k for en, k in _TLS_KO.items() if en in low), "인증서 검증 실패")
    if "in certificate chain" in low and ko == _TLS_KO["self-signed certificate"]:
        ko = "인증서 체인에 자체 서명 인증서가 있습니다"
    return ko

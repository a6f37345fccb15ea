"""Why a request to the API server failed, in one line and in the learner's language.

Every command and pane that talks to the cluster reports a failure through `describe`: the
kubernetes client surfaces urllib3's chains (MaxRetryError → NewConnectionError → the socket's
OSError), ssl errors and ApiException, whose raw text is long and puts the reason last. Here
each is reduced to a kind (what a grader or a test can match) and a sentence built from the
fields, never cut.
"""

from __future__ import annotations

import errno
import json
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

from tutor.i18n.bilingual import os_reason

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
CONNECTION_KINDS = frozenset(("refused", "dns", "tls", "timeout", "closed", "unreachable"))


@dataclass(frozen=True)
class Failure:
    kind: str
    en: str
    ko: str
    status: int | None = None  # the HTTP status, when the server answered
    brief_en: str = ""
    brief_ko: str = ""

    def text(self, lang: str) -> str:
        return self.ko if lang == "ko" else self.en

    def brief(self, lang: str) -> str:
        """The same in a few words (the header); the sentence when there is no brief form."""
        return (self.brief_ko if lang == "ko" else self.brief_en) or self.text(lang)

    @property
    def reached(self) -> bool:
        """The server answered (401, 403, another status): retrying will not change it soon."""
        return self.kind not in CONNECTION_KINDS


def make(kind: str, server: str, status: int | None = None, **fields) -> Failure:
    """A field is one text for both languages, or an (English, Korean) pair."""
    host = urlsplit(server).hostname or server
    en, ko = _TEXTS[kind]
    values = {"server": server or "the API server", "host": host, "status": status}
    def said(i: int) -> dict:
        return {**values, **{k: v[i] if isinstance(v, tuple) else v for k, v in fields.items()}}
    brief_en, brief_ko = _BRIEF[kind]
    return Failure(kind, _one_line(en.format(**said(0))), _one_line(ko.format(**said(1))), status,
                   brief_en.format(**said(0)), brief_ko.format(**said(1)))


def silent_watch(resource: str, server: str) -> Failure:
    """A watch the watchdog found silent while the server answers (tutor/cluster/live.py)."""
    return make("silent", server, why=resource)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _chain(exc: BaseException):
    """The exception, then what it wraps: urllib3's `reason`, then causes and contexts."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = getattr(exc, "reason", None) if isinstance(getattr(exc, "reason", None), BaseException) \
            else (exc.__cause__ or exc.__context__)


def _api_message(exc) -> str:
    """The Status message an API server puts in an error body, else the HTTP reason."""
    body = getattr(exc, "body", None)
    try:
        msg = json.loads(body).get("message") if body else None
    except (ValueError, AttributeError, TypeError):
        msg = None
    return _one_line(str(msg or getattr(exc, "reason", "") or "no reason given"))


def describe(exc: BaseException, server: str) -> Failure:
    """The failure behind `exc`, a request to `server` (the API server's URL)."""
    status = getattr(exc, "status", None)
    if isinstance(status, int) and status:
        if status == 401:
            return make("unauthorized", server, status)
        kind = "forbidden" if status == 403 else "http"
        return make(kind, server, status, why=_api_message(exc))
    for e in _chain(exc):
        if isinstance(e, ssl.SSLCertVerificationError):
            return make("tls", server, why=_tls_reason(e.verify_message or str(e)))
        if isinstance(e, ssl.SSLError) or _is(e, "SSLError"):
            if any(isinstance(x, ssl.SSLCertVerificationError) for x in _chain(e)):
                continue  # the verification error further down names the reason
            return make("tls", server, why=_tls_reason(getattr(e, "reason", None) or str(e)))
        if _is(e, "NameResolutionError"):
            return make("dns", server)
        if isinstance(e, ConnectionRefusedError) or (isinstance(e, OSError) and e.errno == errno.ECONNREFUSED) \
                or (_is(e, "NewConnectionError") and "refused" in str(e)):
            return make("refused", server)
        # NewConnectionError is a ConnectTimeoutError in urllib3 2: refusals are told apart above.
        if (isinstance(e, TimeoutError) or _is(e, "ConnectTimeoutError", "ReadTimeoutError")) \
                and not (_is(e, "NewConnectionError") and e.__cause__ is not None):
            return make("timeout", server)
        if isinstance(e, socket.gaierror):
            return make("dns", server)
        if isinstance(e, (ConnectionResetError, BrokenPipeError)) or _is(e, "ProtocolError"):
            return make("closed", server, why=_os_reason(e))
    # Connection refused arrives as NewConnectionError whose message holds "[Errno 111]" when the
    # socket error was not chained.
    text = str(exc)
    if "Connection refused" in text or f"[Errno {errno.ECONNREFUSED}]" in text:
        return make("refused", server)
    if "Name or service not known" in text or "nodename nor servname" in text:
        return make("dns", server)
    if "timed out" in text:
        return make("timeout", server)
    return make("unreachable", server, why=_os_reason(exc))


def _is(exc: BaseException, *names: str) -> bool:
    """urllib3's exception classes, by name: the tutor imports no HTTP library of its own (the
    read-only proof bans it), and these names are urllib3's stable API."""
    return any(c.__name__ in names and c.__module__.startswith("urllib3") for c in type(exc).__mro__)


def _os_reason(exc: BaseException) -> tuple[str, str]:
    """The system's reason under the failure, (English, Korean)."""
    for e in _chain(exc):
        # urllib3's ProtocolError carries the socket's error as an argument, not as its cause
        for x in (e, *(a for a in getattr(e, "args", ()) if isinstance(a, BaseException))):
            if isinstance(x, OSError) and x.strerror:
                return os_reason(x)
    return "no reason given", "이유를 알 수 없습니다"


# OpenSSL's reasons a certificate is not trusted, in Korean; another keeps its English in English only.
_TLS_KO = {"self-signed certificate": "자체 서명 인증서입니다", "self signed certificate": "자체 서명 인증서입니다",
           "certificate has expired": "인증서가 만료되었습니다",
           "certificate is not yet valid": "인증서가 아직 유효하지 않습니다",
           "unable to get local issuer certificate": "발급자 인증서를 찾을 수 없습니다",
           "unable to verify the first certificate": "첫 인증서를 검증할 수 없습니다",
           "hostname mismatch": "호스트 이름이 인증서와 맞지 않습니다", "ip address mismatch": "IP 주소가 인증서와 맞지 않습니다"}


def _tls_reason(text: str) -> tuple[str, str]:
    text = _one_line(text)
    low = text.lower()
    ko = next((k for en, k in _TLS_KO.items() if en in low), "인증서 검증 실패")
    if "in certificate chain" in low and ko == _TLS_KO["self-signed certificate"]:
        ko = "인증서 체인에 자체 서명 인증서가 있습니다"
    return text, ko

"""Each way a request to the API server fails, reduced to its facts by tutor.cluster.failure and
said in one line by tutor.narration.failures: made
for real on loopback (a closed port, a port that never answers, a server whose certificate no
one signed), except DNS, whose real failure would ask the machine's resolver off this machine,
so the client's own exception is built as urllib3 raises it."""

from __future__ import annotations

import errno
import re
import socket
import ssl
import threading

import pytest
from kubernetes import client
from kubernetes.client.exceptions import ApiException

from tests.e2e.labcluster.pki import make_pki
from tutor.cluster.failure import Failure, describe
from tutor.narration.failures import brief, sentence


def _fail(server: str) -> BaseException:
    cfg = client.Configuration()
    cfg.host, cfg.retries = server, 0
    try:
        client.CoreV1Api(client.ApiClient(cfg)).list_namespaced_pod("infer", _request_timeout=(1, 1))
    except Exception as exc:  # noqa: BLE001 - the failure is the subject
        return exc
    raise AssertionError("the request did not fail")


def _listener() -> socket.socket:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    return s


def _one_line(f, *phrases):
    en, ko = sentence(f, "en"), sentence(f, "ko")
    for text in (en, ko):
        assert "\n" not in text and "Traceback" not in text and "Max retries" not in text, text
    for p in phrases:
        assert p in en or p in ko, (p, f)


def test_refused():
    f = describe(_fail("https://127.0.0.1:1"), "https://127.0.0.1:1")
    assert f.kind == "refused" and not f.reached
    _one_line(f, "cannot reach https://127.0.0.1:1: connection refused", "연결이 거부되었습니다")
    # the header's few words: they fit an 80-column terminal beside "lwstutor 0/8 │"
    assert brief(f, "en") == "cannot reach https://127.0.0.1:1: connection refused"
    assert brief(f, "ko") == "https://127.0.0.1:1에 연결할 수 없음: 연결 거부"


def test_timeout():
    s = _listener()
    try:
        server = f"https://127.0.0.1:{s.getsockname()[1]}"
        f = describe(_fail(server), server)
    finally:
        s.close()
    assert f.kind == "timeout"
    _one_line(f, "timed out", "시간 초과")


def test_tls_names_the_reason(tmp_path):
    pki = make_pki(tmp_path / "pki")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(pki["admin.crt"], pki["admin.key"])
    s = _listener()

    def serve():
        try:
            conn, _ = s.accept()
            with conn:
                ctx.wrap_socket(conn, server_side=True).recv(1)
        except OSError:
            pass

    threading.Thread(target=serve, daemon=True).start()
    server = f"https://127.0.0.1:{s.getsockname()[1]}"
    try:
        f = describe(_fail(server), server)
    finally:
        s.close()
    assert f.kind == "tls"
    _one_line(f, "TLS certificate is not trusted", "certificate")


def test_dns():
    from urllib3.exceptions import MaxRetryError, NameResolutionError

    exc = MaxRetryError(None, "/api", NameResolutionError("lab.example", None,
                                                          socket.gaierror(-2, "Name or service not known")))
    f = describe(exc, "https://lab.example:6443")
    assert f.kind == "dns"
    _one_line(f, "the host name lab.example does not resolve", "DNS: lab.example")


@pytest.mark.parametrize(("status", "kind", "phrase"), [
    (401, "unauthorized", "401 Unauthorized"),
    (403, "forbidden", 'cannot list resource "pods" in API group "" in the namespace "infer"'),
    (500, "http", "HTTP 500: etcdserver: request timed out"),
])
def test_the_server_answered(status, kind, phrase):
    exc = ApiException(status=status, reason="x")
    # The whole Status message, never cut (the old text stopped at 160 characters, mid-word).
    exc.body = ('{"kind":"Status","message":"pods is forbidden: User \\"learner\\" cannot list resource '
                '\\"pods\\" in API group \\"\\" in the namespace \\"infer\\""}' if status == 403 else
                '{"message":"etcdserver: request timed out"}')
    f = describe(exc, "https://127.0.0.1:6443")
    assert f.kind == kind and f.status == status and f.reached
    _one_line(f, phrase)


def test_a_systems_reason_is_korean_in_korean():
    """An OSError's reason under a connection failure ("unreachable", "closed") was the system's
    English in the Korean sentence."""
    from urllib3.exceptions import MaxRetryError, NewConnectionError, ProtocolError

    unreachable = MaxRetryError(None, "/api", NewConnectionError(None, "x"))
    unreachable.reason.__cause__ = OSError(errno.EHOSTUNREACH, "No route to host")
    closed = ProtocolError("Connection aborted.", ConnectionResetError(errno.ECONNRESET, "Connection reset by peer"))
    for exc, kind, ko in ((unreachable, "unreachable", "호스트에 닿을 수 없습니다"), (closed, "closed", "연결이 끊겼습니다")):
        f = describe(exc, "https://10.0.0.1:6443")
        en, korean = sentence(f, "en"), sentence(f, "ko")
        assert f.kind == kind and ko in korean and not re.search("[a-z]{3,}", korean.replace("https://10.0.0.1:6443", "")), f
        assert "No route" in en or "reset by peer" in en, f


def test_a_reason_given_in_both_languages_stays_in_its_own():
    f = Failure("forbidden", "https://127.0.0.1:6443", 403, reason=("may not list pods", "파드 목록을 볼 수 없습니다"))
    en, ko = sentence(f, "en"), sentence(f, "ko")
    assert en.endswith("(403 Forbidden): may not list pods") and "파드 목록" not in en
    assert ko.endswith("(403 Forbidden): 파드 목록을 볼 수 없습니다") and "may not" not in ko

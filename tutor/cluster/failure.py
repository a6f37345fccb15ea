"""Why a request to the API server failed, as facts.

Every command and pane that talks to the cluster reports a failure through `describe`: the
kubernetes client surfaces urllib3's chains (MaxRetryError → NewConnectionError → the socket's
OSError), ssl errors and ApiException, whose raw text is long and puts the reason last. Here
each is reduced to a kind (what a grader or a test can match) and the facts of it: the server,
the HTTP status, the reason the server, OpenSSL or the system gave. tutor/narration/failures.py
says it to the learner, in one line, never cut.
"""

from __future__ import annotations

import errno
import json
import socket
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypedDict
from urllib.parse import urlsplit

CONNECTION_KINDS = frozenset(("refused", "dns", "tls", "timeout", "closed", "unreachable"))


@dataclass(frozen=True)
class Failure:
    """kind: refused, dns, tls, timeout, closed, unreachable (no answer), unauthorized, forbidden,
    http (an answer), or silent (a watch the watchdog found silent while the server answers)."""

    kind: str
    server: str  # the API server's URL ("" when unknown)
    status: int | None = None  # the HTTP status, when the server answered
    # What was said of it, in its own words: the server's message (forbidden, http), OpenSSL's
    # (tls), the system's (closed, unreachable, with its errno); or a pair (English, Korean)
    # from a caller that words it (doctor: this user may not list pods).
    reason: str | tuple[str, str] = ""
    errno: int | None = None
    resource: str = ""  # the watch that went silent (silent)

    @property
    def host(self) -> str:
        return urlsplit(self.server).hostname or self.server

    @property
    def reached(self) -> bool:
        """The server answered (401, 403, another status): retrying will not change it soon."""
        return self.kind not in CONNECTION_KINDS

    @property
    def detail(self) -> str:
        """Its facts on one line, for a program to tell one failure from another (SourceState.detail)."""
        reason = self.reason[0] if isinstance(self.reason, tuple) else self.reason
        return " ".join(str(v) for v in (self.kind, self.server, self.status, self.errno, reason, self.resource)
                        if v not in (None, ""))


def silent_watch(resource: str, server: str) -> Failure:
    """A watch the watchdog found silent while the server answers (tutor/cluster/live.py)."""
    return Failure("silent", server, resource=resource)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _chain(exc: BaseException | None) -> Iterator[BaseException]:
    """The exception, then what it wraps: urllib3's `reason`, then causes and contexts."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = getattr(exc, "reason", None) if isinstance(getattr(exc, "reason", None), BaseException) \
            else (exc.__cause__ or exc.__context__)


def _api_message(exc: BaseException) -> str:
    """The Status message an API server puts in an error body, else the HTTP reason."""
    body = getattr(exc, "body", None)
    try:
        msg = json.loads(body).get("message") if body else None
    except (ValueError, AttributeError, TypeError):
        msg = None
    return _one_line(str(msg or getattr(exc, "reason", "") or ""))


def describe(exc: BaseException, server: str) -> Failure:
    """The failure behind `exc`, a request to `server` (the API server's URL)."""
    status = getattr(exc, "status", None)
    if isinstance(status, int) and status:
        if status == 401:
            return Failure("unauthorized", server, status)
        kind = "forbidden" if status == 403 else "http"
        return Failure(kind, server, status, reason=_api_message(exc))
    for e in _chain(exc):
        if isinstance(e, ssl.SSLCertVerificationError):
            return Failure("tls", server, reason=_one_line(e.verify_message or str(e)))
        if isinstance(e, ssl.SSLError) or _is(e, "SSLError"):
            if any(isinstance(x, ssl.SSLCertVerificationError) for x in _chain(e)):
                continue  # the verification error further down names the reason
            return Failure("tls", server, reason=_one_line(getattr(e, "reason", None) or str(e)))
        if _is(e, "NameResolutionError"):
            return Failure("dns", server)
        if isinstance(e, ConnectionRefusedError) or (isinstance(e, OSError) and e.errno == errno.ECONNREFUSED) \
                or (_is(e, "NewConnectionError") and "refused" in str(e)):
            return Failure("refused", server)
        # NewConnectionError is a ConnectTimeoutError in urllib3 2: refusals are told apart above.
        if (isinstance(e, TimeoutError) or _is(e, "ConnectTimeoutError", "ReadTimeoutError")) \
                and not (_is(e, "NewConnectionError") and e.__cause__ is not None):
            return Failure("timeout", server)
        if isinstance(e, socket.gaierror):
            return Failure("dns", server)
        if isinstance(e, (ConnectionResetError, BrokenPipeError)) or _is(e, "ProtocolError"):
            return Failure("closed", server, **_system_reason(e))
    # Connection refused arrives as NewConnectionError whose message holds "[Errno 111]" when the
    # socket error was not chained.
    text = str(exc)
    if "Connection refused" in text or f"[Errno {errno.ECONNREFUSED}]" in text:
        return Failure("refused", server)
    if "Name or service not known" in text or "nodename nor servname" in text:
        return Failure("dns", server)
    if "timed out" in text:
        return Failure("timeout", server)
    return Failure("unreachable", server, **_system_reason(exc))


def _is(exc: BaseException, *names: str) -> bool:
    """urllib3's exception classes, by name: the tutor imports no HTTP library of its own (the
    read-only proof bans it), and these names are urllib3's stable API."""
    return any(c.__name__ in names and c.__module__.startswith("urllib3") for c in type(exc).__mro__)


class _SystemReason(TypedDict, total=False):
    """Failure's fields from the system's error (none when it gave none)."""

    errno: int | None
    reason: str


def _system_reason(exc: BaseException) -> _SystemReason:
    """The system's reason under the failure: its errno and its own text ({} when none is given)."""
    for e in _chain(exc):
        # urllib3's ProtocolError carries the socket's error as an argument, not as its cause
        for x in (e, *(a for a in getattr(e, "args", ()) if isinstance(a, BaseException))):
            if isinstance(x, OSError) and x.strerror:
                return {"errno": x.errno, "reason": x.strerror}
    return {}

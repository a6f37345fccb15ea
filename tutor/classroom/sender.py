"""The tutor's side of a class: put() is all the UI calls, and it never waits.

put() keeps the newest state of each step in a dict (so the queue is bounded by the lesson's
steps, and a state superseded before it was sent is never sent); a task on the same loop drains
it: it joins once (again after the server forgot the key), posts what is pending in one report,
and on any failure puts back what is not superseded and tries again later, each wait twice the
last up to BACKOFF_MAX. The server may go away and come back: nothing queued is lost. When
nothing changed for HEARTBEAT seconds, an empty report says the tutor is still there.
"""

from __future__ import annotations

import asyncio
import random
from enum import Enum
from typing import Callable

import aiohttp
import msgspec

from tutor.classroom.address import JoinAddress
from tutor.classroom.learner_keys import KeyBook
from tutor.classroom.report import Join, Joined, Report, StepState

HEARTBEAT = 20.0
BACKOFF_FIRST, BACKOFF_MAX = 0.5, 30.0
REQUEST_TIMEOUT = 10.0
# A report the server refused for what it holds (not who sent it): sending it again cannot help.
DROPPED = ("schema", "too-large", "not-json")


class Link(Enum):
    JOINING = "joining"
    REPORTING = "reporting"  # the last request went through
    AWAY = "away"            # the server did not answer: retrying, the reports queued
    REFUSED = "refused"      # the server said no to the join (a name taken, a wrong address): stopped


class Refused(Exception):
    def __init__(self, status: int, kind: str, message: str):
        super().__init__(message)
        self.status, self.kind = status, kind


class Sender:
    def __init__(self, address: JoinAddress, name: str, lesson: str, keys: KeyBook | None = None, *,
                 heartbeat: float = HEARTBEAT, on_change: Callable[[Link], None] | None = None):
        self.address, self.name, self.lesson = address, name, lesson
        self.keys = keys or KeyBook(None)
        self.heartbeat = heartbeat
        self.on_change = on_change
        self.link = Link.JOINING
        self.refusal = ""  # the server's words when it refused the join
        self.refusal_kind = ""  # and their kind (name-taken, token, ...), for the tutor to word
        self.sent = 0  # reports the server took
        self._pending: dict[int, StepState] = {}
        self._current = 1
        self._wake = asyncio.Event()
        # Joined first each run, with the key kept from a run before (learner_keys): the class
        # answers with the time already spent on each step.
        self._learner = self._key = ""
        self.on_joined: Callable[[dict[int, float]], None] | None = None

    # --- the UI's side: never waits ----------------------------------------------------------
    def put(self, state: StepState | None = None, current: int | None = None) -> None:
        """The newest state of a step (replacing one not sent yet) and the step the learner is on."""
        if state is not None:
            self._pending[state.step] = state
        if current is not None:
            self._current = current
        self._wake.set()

    @property
    def pending(self) -> int:
        return len(self._pending)

    # --- the task ------------------------------------------------------------------------------
    async def run(self) -> None:
        timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
        async with aiohttp.ClientSession(timeout=timeout) as http:
            failures = 0
            while self.link is not Link.REFUSED:
                try:
                    if not self._key:
                        await self._join(http)
                    await self._send(http)
                    failures = 0
                except Refused as exc:
                    if exc.kind in DROPPED:
                        continue  # that report is gone; the next ones still go
                    if exc.status in (401, 403) and self._key and exc.kind in ("not-yours", "no-key"):
                        self._learner, self._key = "", ""  # the class forgot this learner: join again
                        continue
                    self.refusal, self.refusal_kind = str(exc), exc.kind
                    self._set(Link.REFUSED)
                    return
                except (aiohttp.ClientError, asyncio.TimeoutError, OSError, msgspec.DecodeError):
                    self._set(Link.AWAY)  # msgspec: an answer that is not the class server's (a proxy's page)
                    failures += 1
                    await asyncio.sleep(min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** (failures - 1)) * random.uniform(0.5, 1))
                    continue
                try:
                    await asyncio.wait_for(self._wake.wait(), self.heartbeat)
                except asyncio.TimeoutError:
                    pass  # nothing changed: the next report is a heartbeat

    async def _post(self, http: aiohttp.ClientSession, what: str, body: bytes, key: str = "") -> bytes:
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        async with http.post(f"{self.address.url}/{what}", data=body, headers=headers) as resp:
            data = await resp.read()
            if resp.status >= 500:
                raise aiohttp.ClientResponseError(resp.request_info, (), status=resp.status)
            if resp.status >= 400:
                try:
                    err = msgspec.json.decode(data).get("error", {})
                except (msgspec.DecodeError, AttributeError):
                    err = {}
                raise Refused(resp.status, str(err.get("kind", "")), str(err.get("message", resp.reason or "")))
            return data

    async def _join(self, http: aiohttp.ClientSession) -> None:
        self._set(Link.JOINING)
        _, key = self.keys.get(self.address.url, self.name)
        data = await self._post(http, "join", msgspec.json.encode(Join(self.name, self.lesson, key)))
        joined = msgspec.json.decode(data, type=Joined)
        self._learner, self._key = joined.learner, joined.key
        self.keys.put(self.address.url, self.name, joined.learner, joined.key)
        if self.on_joined is not None:
            self.on_joined(joined.seconds)

    async def _send(self, http: aiohttp.ClientSession) -> None:
        """What is pending, in one report (none: a heartbeat); put back unless superseded if it fails."""
        self._wake.clear()
        batch, self._pending = self._pending, {}
        report = Report(self._learner, self.lesson, self._current, sorted(batch.values(), key=lambda s: s.step))
        try:
            await self._post(http, "report", msgspec.json.encode(report), self._key)
        except (aiohttp.ClientError, asyncio.TimeoutError, OSError, asyncio.CancelledError):
            for step, state in batch.items():
                self._pending.setdefault(step, state)
            raise
        self.sent += 1
        self._set(Link.REPORTING)

    def _set(self, link: Link) -> None:
        if link is not self.link:
            self.link = link
            if self.on_change is not None:
                self.on_change(link)

"""Who may start a tutor, and how many run at once.

The token: textual-serve has no authentication, and every websocket it accepts starts a process
that reads the learner's cluster. The token comes in the address the server prints; the page's
own requests (its websocket, a download) carry it back as a cookie, which the browser sends only
to this site (SameSite=Strict) and no script can read (HttpOnly).

The cap: one tutor process per open tab. A reload closes the old websocket just before it opens
the new one, and the old tutor takes a moment to quit, so a full server waits a few seconds for
a place before it refuses.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time

WAIT_FOR_ROOM = 5.0  # seconds: longer than a tutor takes to quit when its tab goes


class Gate:
    def __init__(self, cap: int, token: str | None = None):
        self.cap = cap
        self.token = token or secrets.token_urlsafe(18)
        # One cookie name per token: two servers on one host (other ports) keep their own.
        self.cookie = "lwstutor-" + hashlib.sha256(self.token.encode()).hexdigest()[:12]
        self.sessions = 0

    # --- the token -------------------------------------------------------------------------
    def shown_in_query(self, query) -> bool:
        return self._same(query.get("token", ""))

    def shown(self, query, cookies) -> bool:
        """Did the request show the token, in its address or as our cookie?"""
        return self.shown_in_query(query) or self._same(cookies.get(self.cookie, ""))

    def _same(self, given: str) -> bool:
        return bool(given) and hmac.compare_digest(given.encode(), self.token.encode())

    # --- the cap ---------------------------------------------------------------------------
    async def room(self, wait: float = WAIT_FOR_ROOM) -> bool:
        """Is there a place for one more tutor (waiting a little for one to free up)?"""
        deadline = time.monotonic() + wait
        while self.sessions >= self.cap:
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.1)
        return True

    async def enter(self, wait: float = WAIT_FOR_ROOM) -> bool:
        """Takes a place for a tutor; False when none freed up in time. Pair with leave()."""
        if not await self.room(wait):
            return False
        self.sessions += 1  # no await between the check and this: one event loop, no race
        return True

    def leave(self) -> None:
        self.sessions -= 1

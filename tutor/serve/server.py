"""The web server: textual-serve's, behind the gate, answering at / and under a path prefix.

textual-serve's Server keeps what it does well: one app process per websocket, the terminal's
bytes both ways, downloads. This subclass adds the gate (token, cap), serves our page instead of
its template, answers under the path of --public-url as well as at / (a proxy may pass the prefix
on or strip it), and binds before it says anything, so a port in use is an error, not a traceback.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from typing import Callable
from urllib.parse import urlsplit

from aiohttp import web
from textual_serve.server import Server

from tutor.i18n import serving
from tutor.serve import page
from tutor.serve.gate import Gate
from tutor.i18n.bilingual import pick

SHUTDOWN_SECONDS = 5.0  # how long open tabs get to end their tutors when the server stops
FAILURE_SECONDS = 60.0  # how long a tutor's failure to start is the reason /status gives


class TutorServer(Server):
    def __init__(self, command: str, host: str, port: int, gate: Gate, lang: str, public_url: str = "",
                 failure_file: str = ""):
        """`failure_file`: where a tab's tutor that could not start writes why (tutor/served_tab.py)."""
        super().__init__(command, host=host, port=port, title=pick(serving.TITLE, lang), public_url=public_url or None)
        self.failure_file = failure_file
        self.gate, self.lang, self.given_public_url = gate, lang, public_url.rstrip("/")
        self.prefix = urlsplit(self.given_public_url).path.rstrip("/")  # "" or "/lab/tutor"
        self.bound: tuple[str, int] | None = None

    # --- routes ----------------------------------------------------------------------------
    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        for base in dict.fromkeys(("", self.prefix)):  # the prefix's routes, when it has one
            app.add_routes([
                web.get(base + "/", self.handle_index),
                web.get(base + "/ws", self.handle_websocket),
                web.get(base + "/download/{key}", self.handle_download),
                web.static(base + "/static", self.statics_path),
                web.get(base + "/status", self.handle_status),
                web.get(base + "/favicon.ico", self._no_icon),
            ])
        if self.prefix:
            app.add_routes([web.get(self.prefix, self._to_prefix)])
        return app

    async def _to_prefix(self, request: web.Request) -> web.StreamResponse:
        """/lab/tutor -> /lab/tutor/: the page's relative URLs need the slash."""
        raise web.HTTPFound(request.rel_url.with_path(self.prefix + "/").with_query(request.query))

    async def _no_icon(self, request: web.Request) -> web.StreamResponse:
        return web.Response(status=204)  # the browser asks for one; a 404 would only add noise

    @web.middleware
    async def _guard(self, request: web.Request, handler) -> web.StreamResponse:
        """Everything but the static files (textual-serve's script, styles and fonts) needs the
        token; one shown in the address is kept as a cookie for the page's own requests."""
        path = request.path[len(self.prefix):] if self.prefix and request.path.startswith(self.prefix + "/") \
            else request.path
        if path.startswith("/static/") or path == "/favicon.ico":
            return await handler(request)
        if not self.gate.shown(request.query, request.cookies):
            return self._notice(web.HTTPForbidden, serving.NO_TOKEN)
        response = await handler(request)
        if self.gate.shown_in_query(request.query) and not response.prepared:
            response.set_cookie(self.gate.cookie, self.gate.token, path=(self.prefix or "") + "/",
                                httponly=True, samesite="Strict")
        return response

    def _notice(self, status: type[web.HTTPException], what, **fields) -> web.Response:
        return web.Response(status=status.status_code, content_type="text/html", charset="utf-8",
                            text=page.notice_page(self.lang, pick(what, self.lang, **fields)))

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page, whether or not there is room: on a reload the browser asks for the new page
        before the old one closes its websocket, so the old tutor still holds its place here.
        The websocket waits for a place; the page says so when none came."""
        try:
            font_size = min(max(int(request.query.get("fontsize", "16")), 8), 48)
        except ValueError:
            font_size = 16
        base = self.given_public_url + "/" if self.given_public_url else ""
        return web.Response(content_type="text/html", charset="utf-8",
                            text=page.tutor_page(self.lang, pick(serving.FULL, self.lang, cap=self.gate.cap),
                                                 base, font_size),
                            headers={"Cache-Control": "no-store"})

    async def handle_status(self, request: web.Request) -> web.StreamResponse:
        """Whether the server is at its cap, and why a tutor could not start (lately): the page
        asks when its websocket closed."""
        return web.json_response({"full": self.gate.sessions >= self.gate.cap, "cap": self.gate.cap,
                                  "failed": self.last_failure()},
                                 headers={"Cache-Control": "no-store"})

    def last_failure(self) -> str:
        """The reason the last tutor that could not start gave, in the server's language, if it was
        lately ("" if not: a tutor that starts removes it)."""
        if not self.failure_file:
            return ""
        try:
            with open(self.failure_file, encoding="utf-8") as f:
                if time.time() - os.fstat(f.fileno()).st_mtime > FAILURE_SECONDS:
                    return ""
                reason = json.load(f).get("reason", "")
        except (OSError, ValueError, AttributeError):
            return ""
        return reason if isinstance(reason, str) else ""

    # Wider than textual-serve's return (a WebSocketResponse), hence the ignore: a refused
    # websocket is answered with a plain page, which aiohttp's route (its only caller) takes.
    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        """One tutor per websocket, while there is room (waiting a little for one): else refused
        before the upgrade, and the page, asking /status, says the server is full."""
        if not await self.gate.enter():
            return self._notice(web.HTTPServiceUnavailable, serving.FULL, cap=self.gate.cap)
        try:
            return await super().handle_websocket(request)
        finally:
            self.gate.leave()
            sys.stdout.flush()  # what the tutor said on stderr, copied by textual-serve: now, not at exit

    # --- running ---------------------------------------------------------------------------
    def run(self, on_listening: Callable[[str, int], None]) -> None:
        """Serves until SIGINT or SIGTERM. Raises OSError when it cannot bind (before
        on_listening is called, so nothing was printed)."""
        asyncio.run(self._run(on_listening))

    async def _run(self, on_listening: Callable[[str, int], None]) -> None:
        runner = web.AppRunner(await self._make_app(), handle_signals=False, access_log=None,
                               shutdown_timeout=SHUTDOWN_SECONDS)
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host, self.port)
            await site.start()
            self.bound = runner.addresses[0][:2]
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, stop.set)
            on_listening(*self.bound)
            await stop.wait()
        finally:
            await runner.cleanup()  # closes the websockets: each tutor is told to quit
            await children_reaped(SHUTDOWN_SECONDS)


def _children() -> set[int]:
    """This process's live or unreaped children (Linux's /proc; none known elsewhere)."""
    found: set[int] = set()
    try:
        for task in os.scandir("/proc/self/task"):
            with open(os.path.join(task.path, "children"), encoding="ascii") as f:
                found.update(int(pid) for pid in f.read().split())
    except (OSError, ValueError):
        return set()
    return found


async def children_reaped(bound: float) -> None:
    """Waits (at most `bound` seconds) until every child process has ended and been reaped, and
    the loop has run what their ends call back. textual-serve never waits for a tab's tutor
    process: one still ending when the loop closed was reaped into a closed loop, and the
    server's last words were a traceback ("Event loop is closed")."""
    deadline = time.monotonic() + bound
    while _children() and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.05)  # the watcher's callbacks, posted as each child was reaped

"""The class server: aiohttp on one event loop, the class in a ClassStore.

  POST /c/<join token>/join     a Join       -> 200 {"learner", "key"}
  POST /c/<join token>/report   a Report, with "Authorization: Bearer <learner key>" -> 200 {}
  GET  /i/<instructor token>/state            -> 200 the class (ClassStore.state)
  GET  /i/<instructor token>[?lang=ko]        -> 200 the instructor's view as a page (no script);
       &sort=progress|time &only=stuck|away      the grid's order and who is shown,
       &learner=<id or name>                     one learner's verdicts (404: no such learner)

Every refusal is a 4xx with a JSON body {"error": {"kind", "message"}}: 401 a wrong token or no
key, 403 a report for a learner whose key this is not, 409 a name another learner has (403 when the class is full), 413 a
body over MAX_BODY, 400 a body that is not JSON, 422 one that does not fit the schema. Nothing
refused is stored. The store's writes are a few small SQLite statements: done on the loop, they
take less time than a hop to a thread would.
"""

from __future__ import annotations

import asyncio
import hmac
from typing import Awaitable, Callable

import msgspec
from aiohttp import web

from tutor.classroom.class_page import View, page as view_page
from tutor.classroom.report import MAX_BODY, Joined, decode_join, decode_report
from tutor.classroom.class_store import MAX_LEARNERS, ClassFull, ClassStore, NameTaken

STORE: web.AppKey[ClassStore] = web.AppKey("store", ClassStore)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def refused(status: int, kind: str, message: str) -> web.Response:
    return web.json_response({"error": {"kind": kind, "message": message}}, status=status)


@web.middleware
async def json_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """aiohttp's own refusals (413 from its size limit, 404, 405) as JSON too."""
    try:
        return await handler(request)
    except web.HTTPRequestEntityTooLarge:
        return refused(413, "too-large", f"a request body is at most {MAX_BODY} bytes")
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        return refused(exc.status, "http", exc.reason)


def _token_is(request: web.Request, expected: str) -> bool:
    return hmac.compare_digest(request.match_info["token"].encode(), expected.encode())


async def _learners_request(request: web.Request, decode):
    """A learner's request (a join, a report) as its schema, or the refusal that says why not: not
    the class's learners' token, too large, not JSON, not the schema. Nothing refused is stored."""
    if not _token_is(request, request.app[STORE].tokens.join):
        return refused(401, "token", "this is not the class's address: ask the instructor for it")
    if request.content_length is not None and request.content_length > MAX_BODY:
        return refused(413, "too-large", f"a request body is at most {MAX_BODY} bytes")
    body = await request.read()  # aiohttp stops a longer one (client_max_size): 413 by json_errors
    try:
        return decode(body)
    except msgspec.ValidationError as exc:
        return refused(422, "schema", str(exc))
    except msgspec.DecodeError as exc:
        return refused(400, "not-json", str(exc))


async def join(request: web.Request) -> web.Response:
    store = request.app[STORE]
    wanted = await _learners_request(request, decode_join)
    if isinstance(wanted, web.Response):
        return wanted
    try:
        learner, key = store.join(wanted.name.strip(), wanted.lesson, wanted.key)
    except NameTaken:
        return refused(409, "name-taken", f"another learner has joined as {wanted.name!r}: choose another --name")
    except ClassFull:
        return refused(403, "class-full", f"the class has its {MAX_LEARNERS} learners already")
    joined = Joined(learner, key, store.seconds(learner, wanted.lesson))
    return web.Response(body=msgspec.json.encode(joined), content_type="application/json")


async def report(request: web.Request) -> web.Response:
    store = request.app[STORE]
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    if _token_is(request, store.tokens.join) and (scheme != "Bearer" or not key):
        return refused(401, "no-key", "a report needs the learner key its join gave")
    got = await _learners_request(request, decode_report)
    if isinstance(got, web.Response):
        return got
    if not store.owns(got.learner, key):
        return refused(403, "not-yours", "this key is not that learner's: a report speaks only for its own learner")
    store.take(got)
    return web.json_response({})


async def page(request: web.Request) -> web.Response:
    """The instructor's view in a browser (tutor/classroom/class_page.py), as its query asks."""
    store = request.app[STORE]
    if not _token_is(request, store.tokens.instructor):
        return refused(401, "token", "this is not the instructor's address")
    status, html = view_page(store.state(), View.of(dict(request.query)))
    # The page loads nothing and runs nothing: the policy says so to the browser too.
    return web.Response(status=status, text=html, content_type="text/html",
                        headers={"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
                                 "Referrer-Policy": "no-referrer"})


async def state(request: web.Request) -> web.Response:
    store = request.app[STORE]
    if not _token_is(request, store.tokens.instructor):
        return refused(401, "token", "this is not the instructor's address")
    return web.json_response(store.state())


def class_app(store: ClassStore) -> web.Application:
    app = web.Application(client_max_size=MAX_BODY, middlewares=[json_errors])
    app[STORE] = store
    app.router.add_post("/c/{token}/join", join)
    app.router.add_post("/c/{token}/report", report)
    app.router.add_get("/i/{token}/state", state)
    app.router.add_get("/i/{token}", page)
    app.router.add_get("/i/{token}/", page)
    return app


async def serve(store: ClassStore, host: str, port: int, listening: Callable[[int], None],
                stop: asyncio.Event) -> None:
    """Serves until `stop` is set; `listening` gets the port bound (port 0: the one chosen)."""
    runner = web.AppRunner(class_app(store), access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        listening(runner.addresses[0][1])  # (host, port, ...) of the socket bound
        await stop.wait()
    finally:
        await runner.cleanup()

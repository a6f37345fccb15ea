"""A small reverse proxy for the tests: the lab's proxy in front of `lwstutor serve`, on its own
port and under a path prefix, websockets included.

    python -m tests.serve.proxy --upstream http://127.0.0.1:PORT --prefix /lab/tutor [--keep-prefix]

Prints `listening on PORT` once it listens. With --keep-prefix the upstream gets the path as the
browser sent it (/lab/tutor/ws); without it, the prefix is stripped (/ws), as most proxies are set
up to do.
"""

from __future__ import annotations

import argparse
import asyncio

import aiohttp
from aiohttp import web

HOP = {"connection", "keep-alive", "transfer-encoding", "upgrade", "host", "content-length", "content-encoding"}


def make_app(upstream: str, prefix: str, keep: bool) -> web.Application:
    session: dict[str, aiohttp.ClientSession] = {}

    async def forward(request: web.Request) -> web.StreamResponse:
        if not (request.path == prefix or request.path.startswith(prefix + "/")):
            return web.Response(status=404, text="not under the prefix")
        path = request.path_qs if keep else request.path_qs[len(prefix):] or "/"
        client = session.setdefault("s", aiohttp.ClientSession(auto_decompress=False))
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP}
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return await websocket(request, client, upstream + path, headers)
        async with client.request(request.method, upstream + path, headers=headers, data=await request.read(),
                                  allow_redirects=False) as up:
            body = await up.read()
            out = web.Response(status=up.status, body=body)
            for k, v in up.headers.items():
                if k.lower() not in HOP:
                    out.headers.add(k, v)
            return out

    async def websocket(request, client, url, headers) -> web.StreamResponse:
        headers = {k: v for k, v in headers.items() if not k.lower().startswith("sec-websocket")}
        try:
            up = await client.ws_connect(url.replace("http", "ws", 1), headers=headers)
        except aiohttp.WSServerHandshakeError as exc:
            return web.Response(status=exc.status, text="upstream refused the websocket")
        down = web.WebSocketResponse()
        await down.prepare(request)

        async def pipe(src, dst):
            async for msg in src:
                if msg.type == aiohttp.WSMsgType.TEXT:
                    await dst.send_str(msg.data)
                elif msg.type == aiohttp.WSMsgType.BINARY:
                    await dst.send_bytes(msg.data)
                else:
                    break
            await dst.close()

        await asyncio.gather(pipe(up, down), pipe(down, up), return_exceptions=True)
        return down

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", forward)
    return app


async def serve(upstream: str, prefix: str, keep: bool) -> None:
    runner = web.AppRunner(make_app(upstream.rstrip("/"), prefix.rstrip("/"), keep), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    print(f"listening on {runner.addresses[0][1]}", flush=True)
    await asyncio.Event().wait()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--upstream", required=True)
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--keep-prefix", action="store_true")
    a = ap.parse_args()
    asyncio.run(serve(a.upstream, a.prefix, a.keep_prefix))


if __name__ == "__main__":
    main()

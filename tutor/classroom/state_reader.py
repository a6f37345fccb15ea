"""The instructor's side: the class state read from the instructor's address, by the terminal
view every few seconds (aiohttp, on the view's loop: the screen never waits on the network)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import aiohttp

INSTRUCTOR_PATH = re.compile(r"^(?P<prefix>.*)/i/(?P<token>[A-Za-z0-9_-]{16,128})(?:/state)?/?$")
TIMEOUT = aiohttp.ClientTimeout(total=10)


def state_url(address: str) -> str:
    """The state's URL from the instructor's address as printed (with or without /state);
    ValueError when it is not one."""
    parts = urlsplit(address.strip())
    match = INSTRUCTOR_PATH.match(parts.path)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment or not match:
        raise ValueError(address)
    return f"{parts.scheme}://{parts.netloc}{match['prefix']}/i/{match['token']}/state"


class Unreadable(Exception):
    """The class state could not be read (the server away, a wrong address, not its answer)."""


class StateReader:
    def __init__(self, url: str):
        self.url = url
        self._http: aiohttp.ClientSession | None = None

    async def read(self) -> dict:
        """The class state; Unreadable, saying why, when it cannot be read."""
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=TIMEOUT)
        try:
            async with self._http.get(self.url) as resp:
                resp.raise_for_status()
                got = await resp.json()
        except (aiohttp.ClientError, TimeoutError, OSError, ValueError) as exc:
            raise Unreadable(str(exc) or type(exc).__name__) from exc
        if not isinstance(got, dict):
            raise Unreadable("not the class state")
        return got

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()

"""Waits until a replayed app has applied everything and finished its debounced re-check."""

from __future__ import annotations

import asyncio

from tutor.cluster.events import Conn


async def settled(pilot, timeout: float = 20) -> None:
    app = pilot.app
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        await pilot.pause(0.05)
        replay = app.session.states.get("replay")
        if replay is not None and replay.state is Conn.ENDED and app._refresh_timer is None and app.checks_run:
            await pilot.pause(0.05)
            return
    raise AssertionError("the replay did not settle")

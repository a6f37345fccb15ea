"""What a bench's tutor child holds, on SIGUSR1: printed as one {"event": "dump"} JSON line, so
a bench that waited too long for the tutor can say whether the watches, the store or the screen
fell behind (tests/bench/churn.py asks for it before giving up).

The dump names: the inbox (items waiting, whether a wake-up is in flight), the refresh pump
(items taken but not applied, a refresh being drawn, its timer, the dirty flag, how long since it
last moved and last drew a refresh, how often its watchdog restarted it), each watch (its last resourceVersion and how
long ago it heard anything, the watchdog's relists, 410s), the watches' states, and the store's
pods against a fresh list (missing, ghosts, stale resourceVersions)."""

from __future__ import annotations

import asyncio
import signal
import time
from typing import Callable

from tutor.cluster import objects as o


def install(app, session, api_client, namespace: str, live: Callable[[], object], say: Callable[..., None],
            extra: Callable[[], dict] = dict) -> None:
    """Answers SIGUSR1 with a dump (the list runs off the loop, so a stalled loop still answers
    as far as it can)."""
    loop = asyncio.get_running_loop()

    def dump() -> None:
        from tutor.cluster.live import RESOURCES, list_once

        out: dict = {"t": time.time(), **extra()}
        pump, src = app.driver.pump, live()
        out.update(inbox=app.driver.inbox._q.qsize(), signalled=app.driver.inbox._signalled, pending=len(pump.pending),
                   redrawing=pump.refreshing, drain_after_redraw=pump.drain_after_redraw,
                   refresh_timer=pump.timer is not None, dirty=pump.dirty, unstuck=pump.unstuck,
                   pump_still_s=round(pump.clock.now() - pump.moved_at, 3), checks_run=app.driver.checks_run,
                   refreshed_s_ago=None if pump.refreshed_at == float("-inf")
                   else round(pump.clock.now() - pump.refreshed_at, 3),
                   states={k: v.state.value for k, v in session.states.items()})
        if src is not None:
            now = src.clock()
            out["watches"] = {name: {"rv": rv, "heard_s_ago": round(now - t, 3)} for name, (rv, t) in src.heard.items()}
            out.update(relisted=src.relisted, gone=src.gone)
        try:
            fresh_items, _ = list_once(api_client, RESOURCES[0], namespace)
        except Exception as exc:  # noqa: BLE001 - a dump must come back whatever fails
            out["fresh_list_error"] = repr(exc)
        else:
            fresh = {o.name(p): o.resource_version(p) for p in fresh_items}
            held = {o.name(p): o.resource_version(p) for p in session.store.pods_named(namespace).values()}
            out.update(store_pods=len(held), fresh_pods=len(fresh), missing=sorted(set(fresh) - set(held))[:20],
                       ghosts=sorted(set(held) - set(fresh))[:20],
                       stale=sorted(n for n in set(fresh) & set(held) if fresh[n] != held[n])[:20])
        say(event="dump", **out)

    loop.add_signal_handler(signal.SIGUSR1, lambda: loop.run_in_executor(None, dump))

"""A class of simulated learners against the real `lwstutor class` server process.

    python -m tests.bench.class_load                 # 300 learners, 180 s, bursts every 60 s
    python -m tests.bench.class_load --quick         # a smoke run: 12 learners, a few seconds

Each learner joins over HTTP (its own name, its own key) and then reports like a tutor does: a
verdict change at a random moment every 20 to 60 s, a heartbeat (an empty report) when it sent
nothing for 20 s, and in a burst (every --burst-every s) every learner changes a step within one
second, as when the instructor says "now run step 5". --factor divides every interval (time
compressed; 1 = real time).

Measured, per verdict change:
  seen_ms    from the report's 200 to the instructor's view showing it: a poller reads /state
             every 2 s, as `class --watch` does (the page reloads every 5 s: more, not measured);
  server_ms  the server's own part: a probe learner posts a change and reads /state at once,
             once a second under the load; from the POST sent to the /state that reflects it.
And the server process's CPU (user+system, /proc), its peak RSS, and the SQLite file's size.
Prints one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from tests.classroom.class_server import ClassServer

WATCH_POLL_S = 2.0  # tutor/ui/class_watch.py POLL_S
HEARTBEAT_S = 20.0  # tutor/classroom/sender.py HEARTBEAT
CHANGE_S = (20.0, 60.0)
STEPS = 8


def pct(xs: list[float], p: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(p / 100 * len(xs)))], 1)


def proc_cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def proc_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


class Class:
    def __init__(self, server: ClassServer, http: aiohttp.ClientSession, factor: float):
        self.server, self.http, self.factor = server, http, factor
        self.accepted: dict[tuple[str, int], tuple[str, float]] = {}  # (learner, step) -> (message, at)
        self.seen_ms: list[float] = []
        self.server_ms: list[float] = []
        self.reports = self.heartbeats = self.refused = 0
        self.post_ms: list[float] = []

    async def join(self, name: str) -> tuple[str, str]:
        async with self.http.post(f"{self.server.join_url}/join", json={"name": name, "lesson": "lws"}) as r:
            body = await r.json()
            assert r.status == 200, body
            return body["learner"], body["key"]

    async def report(self, learner: str, key: str, steps: list[dict], current: int) -> bool:
        t0 = time.monotonic()
        async with self.http.post(f"{self.server.join_url}/report",
                                  json={"learner": learner, "lesson": "lws", "current": current, "steps": steps},
                                  headers={"Authorization": f"Bearer {key}"}) as r:
            await r.read()
            ok = r.status == 200
        self.post_ms.append((time.monotonic() - t0) * 1000)
        if not ok:
            self.refused += 1
        return ok

    async def change(self, learner: str, key: str, n: int) -> None:
        """One verdict change, unique by its message, timed from its 200."""
        step = random.randint(1, STEPS)
        message = f"change {n}"
        status = random.choice(["pass", "fail", "waiting"])
        if await self.report(learner, key, [{"step": step, "status": status, "message": message}], step):
            self.accepted[(learner, step)] = (message, time.monotonic())
            self.reports += 1

    async def state(self) -> dict:
        async with self.http.get(self.server.state_url) as r:
            return await r.json()

    async def watch(self, done: asyncio.Event) -> None:
        """The instructor's view: /state every WATCH_POLL_S; a change counts as seen at the first
        read that shows it. After the learners are done, one read more."""
        last = False
        while not last:
            last = done.is_set()
            got = await self.state()
            now = time.monotonic()
            for learner in got["learners"]:
                for step, s in learner["steps"].items():
                    entry = self.accepted.get((learner["id"], int(step)))
                    if entry is not None and entry[0] == s["message"]:
                        self.seen_ms.append((now - entry[1]) * 1000)
                        del self.accepted[(learner["id"], int(step))]
            await asyncio.sleep(WATCH_POLL_S)

    async def probe(self, until: float) -> None:
        """The server's own part: a change posted, then /state at once until it shows."""
        learner, key = await self.join("probe")
        n = 0
        while time.monotonic() < until:
            n += 1
            t0 = time.monotonic()
            await self.report(learner, key, [{"step": 1, "status": "fail", "message": f"probe {n}"}], 1)
            got = await self.state()
            mine = next(x for x in got["learners"] if x["id"] == learner)
            if mine["steps"]["1"]["message"] == f"probe {n}":
                self.server_ms.append((time.monotonic() - t0) * 1000)
            await asyncio.sleep(1.0)

    async def learner(self, i: int, start: float, until: float, bursts: list[float], counter: list[int]) -> None:
        learner, key = await self.join(f"learner-{i:03d}")
        last_sent = time.monotonic()
        next_change = start + random.uniform(*CHANGE_S) / self.factor
        burst_at = [b + random.uniform(0, 1.0) for b in bursts]  # everyone within one second
        while True:
            now = time.monotonic()
            nxt = min([next_change, last_sent + HEARTBEAT_S / self.factor, *burst_at])
            if nxt >= until:
                return
            await asyncio.sleep(max(0.0, nxt - now))
            if burst_at and nxt == burst_at[0]:
                burst_at.pop(0)
                counter[0] += 1
                await self.change(learner, key, counter[0])
            elif nxt == next_change:
                counter[0] += 1
                await self.change(learner, key, counter[0])
                next_change = time.monotonic() + random.uniform(*CHANGE_S) / self.factor
            else:
                if await self.report(learner, key, [], 1):
                    self.heartbeats += 1
            last_sent = time.monotonic()


async def run(args) -> dict:
    with tempfile.TemporaryDirectory(prefix="class-load-") as tmp:
        db = Path(tmp) / "class.sqlite3"
        server = ClassServer(db).start()
        try:
            assert server.proc is not None
            pid = server.proc.pid
            conn = aiohttp.TCPConnector(limit=args.connections)
            async with aiohttp.ClientSession(connector=conn, timeout=aiohttp.ClientTimeout(total=60)) as http:
                cls = Class(server, http, args.factor)
                cpu0, t0 = proc_cpu_s(pid), time.monotonic()
                start = t0 + 1.0
                until = start + args.seconds
                bursts = [start + b for b in range(args.burst_every, int(args.seconds), args.burst_every)]
                counter = [0]
                tasks = [cls.learner(i, start, until, bursts, counter) for i in range(args.learners)]
                done = asyncio.Event()
                watching = asyncio.create_task(cls.watch(done))
                await asyncio.gather(cls.probe(until), *tasks)
                done.set()
                await watching
                wall = time.monotonic() - t0
                cpu = proc_cpu_s(pid) - cpu0
                state_bytes = len(json.dumps(await cls.state()))
            size = sum(p.stat().st_size for p in Path(tmp).glob("class.sqlite3*"))
            rss_peak = proc_kb(pid, "VmHWM")
        finally:
            server.stop()
    return {
        "learners": args.learners, "seconds": args.seconds, "factor": args.factor, "burst_every": args.burst_every,
        "bursts": len(bursts), "reports": cls.reports, "heartbeats": cls.heartbeats, "refused": cls.refused,
        "unseen": len(cls.accepted), "seen": len(cls.seen_ms),
        "seen_p50_ms": pct(cls.seen_ms, 50), "seen_p99_ms": pct(cls.seen_ms, 99),
        "seen_max_ms": round(max(cls.seen_ms), 1) if cls.seen_ms else None,
        "server_n": len(cls.server_ms), "server_p50_ms": pct(cls.server_ms, 50),
        "server_p99_ms": pct(cls.server_ms, 99),
        "post_p50_ms": pct(cls.post_ms, 50), "post_p99_ms": pct(cls.post_ms, 99),
        "requests_per_s": round((cls.reports + cls.heartbeats) / args.seconds, 1),
        "server_cpu_pct": round(100 * cpu / wall, 1), "server_cpu_s": round(cpu, 2),
        "rss_peak_mb": round(rss_peak / 1024, 1), "db_bytes": size, "state_bytes": state_bytes,
        "mean_post_ms": round(statistics.mean(cls.post_ms), 1) if cls.post_ms else None,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--learners", type=int, default=300)
    p.add_argument("--seconds", type=float, default=180.0)
    p.add_argument("--burst-every", type=int, default=60, help="seconds between bursts")
    p.add_argument("--factor", type=float, default=1.0, help="time compression: every interval divided by this")
    p.add_argument("--connections", type=int, default=100, help="the client's open connections at most")
    p.add_argument("--quick", action="store_true", help="a smoke run: 12 learners, 6 s, factor 10")
    args = p.parse_args()
    if args.quick:
        args.learners, args.seconds, args.burst_every, args.factor = 12, 6.0, 3, 10.0
    sys.stdout.write(json.dumps(asyncio.run(run(args))) + "\n")


if __name__ == "__main__":
    main()

"""The walkthrough recording replayed again and again, each time in a fresh headless app (built as
tests/ui/harness.py's make_app builds it, at speed 0), with the pane-vs-store oracle on
(tutor/ui/refresh/oracle.py): every refresh that leaves the app idle has its panes compared with a
rebuild from the store, and once more, explicitly, when the replay has settled. A benchmark,
not a test: it reports, it asserts nothing (tests/bench/test_smoke.py holds one run to 0).

    .venv/bin/python -m tests.bench.replays 20 --hogs 2

--hogs N runs N busy processes beside it (tests.bench.soak's), ended by their PIDs at its end.
--speed X replays at X times the recording's pace instead (more refreshes, each with less in it:
at speed 0 the whole recording comes in a few refreshes).
Prints JSON: each run's oracle checks and mismatches (and the file they were dumped to), the
steps it passed and its time; the summary has the totals.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from tests.bench.soak import loaded
from tests.ui.harness import make_app
from tutor.cluster.source_events import Conn
from tutor.demo import walkthrough
from tutor.ui.refresh.oracle import Oracle, settled

WALKTHROUGH = walkthrough()  # the recording tests/ui/test_pane_oracle.py replays
SIZE = (100, 40)
SETTLE_S = 180.0  # the replay's end applied and drawn: a few seconds quiet, far more with hogs


def replay_ended(app) -> bool:
    state = app.session.states.get("replay")
    return state is not None and state.state is Conn.ENDED


async def one_run(tmp: Path, dump: Path, speed: float = 0) -> dict:
    """One fresh app replays the walkthrough to its end; its oracle's figures."""
    t0 = time.monotonic()
    app = make_app(WALKTHROUGH, speed=speed, state_file=tmp / "progress.json")
    app.driver.oracle = Oracle(str(dump))
    out: dict = {}
    async with app.run_test(size=SIZE) as pilot:
        deadline = time.monotonic() + SETTLE_S
        while not (replay_ended(app) and settled(app) and app.driver.checks_run):
            if time.monotonic() > deadline:
                out["not_settled"] = (f"waited {SETTLE_S:.0f} s for the replay to end and the app to apply and draw "
                                      f"all of it: replay ended {replay_ended(app)}, pump idle {app.driver.pump.idle}, "
                                      f"inbox waiting {app.driver.inbox.waiting}, refreshes {app.driver.checks_run}")
                break
            await pilot.pause(0.05)
        out["settled_s"] = round(time.monotonic() - t0, 2)
        if "not_settled" not in out:
            out["last_check_mismatches"] = len(app.driver.oracle.check(app))  # once more, explicitly
        out.update(oracle_checks=app.driver.oracle.checks, oracle_mismatches=app.driver.oracle.mismatches,
                   passed=sorted(app.session.progress.passed), steps=len(app.session.lesson.steps),
                   refreshes=app.driver.checks_run)
    if app.driver.oracle.mismatches:
        out["oracle_dump"] = str(dump)
    out["run_s"] = round(time.monotonic() - t0, 2)
    return out


def run(runs: int = 20, n_hogs: int = 0, speed: float = 0) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="lwstutor-replays-"))
    os.environ.setdefault("XDG_STATE_HOME", str(tmp / "state"))
    dumps = tmp / "oracle"
    dumps.mkdir()
    res: dict = {"runs": [], "recording": WALKTHROUGH.name, "size": f"{SIZE[0]}x{SIZE[1]}", "speed": speed, "hogs": n_hogs,
                 "load_at_start": Path("/proc/loadavg").read_text().split()[:3]}
    t0 = time.monotonic()
    with loaded(n_hogs):
        for i in range(runs):
            work = tmp / f"run-{i + 1}"
            work.mkdir()
            r = asyncio.run(one_run(work, dumps / f"run-{i + 1}.jsonl", speed))
            res["runs"].append(r)
            print(f"run {i + 1}/{runs}: {r['run_s']} s, oracle {r['oracle_checks']} checks, "
                  f"{r['oracle_mismatches']} mismatches" + (f" (in {r['oracle_dump']})" if "oracle_dump" in r else "")
                  + (f"; {r['not_settled']}" if "not_settled" in r else ""), file=sys.stderr, flush=True)
    res["load_at_end"] = Path("/proc/loadavg").read_text().split()[:3]
    times = sorted(r["run_s"] for r in res["runs"])
    res["summary"] = {
        "runs": len(res["runs"]),
        "settled": sum("not_settled" not in r for r in res["runs"]),
        "passed_every_step": sum(len(r["passed"]) == r["steps"] for r in res["runs"]),
        "oracle_checks": sum(r["oracle_checks"] for r in res["runs"]),
        "oracle_mismatches": sum(r["oracle_mismatches"] for r in res["runs"]),
        "run_s_median": times[len(times) // 2] if times else None, "run_s_max": times[-1] if times else None,
        "minutes": round((time.monotonic() - t0) / 60, 1),
    }
    if res["summary"]["oracle_mismatches"]:
        res["summary"]["oracle_dumps"] = str(dumps)
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.bench.replays", description=__doc__.splitlines()[0])
    ap.add_argument("runs", type=int, nargs="?", default=20)
    ap.add_argument("--hogs", type=int, default=0, help="busy processes beside it (a loaded machine)")
    ap.add_argument("--speed", type=float, default=0, help="times the recording's pace (0: as fast as it goes)")
    a = ap.parse_args(argv)
    print(json.dumps(run(a.runs, a.hogs, a.speed), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The soak: the bench's lab churn (an LWS of 500 groups of 2 scaled up, then down) run again and
again on one lab, each time by a fresh tutor beside `kubectl get pods -w`, with a watchdog on the
tutor's screen. A benchmark, not a test: it reports, it asserts nothing.

Every run must reach each final state on the tutor's screen. When kubectl has seen it and the
tutor's screen has not within WATCHDOG_S, the tutor is asked (SIGUSR1) for what it holds: its
inbox, pending items, the refresh under way (the pump's `redraws`, `drain_after_redraw`, its timer), and
its store against a fresh list. It then gets the rest of the timeout, to tell a stall from a
slow screen.

Every tutor runs with the pane-vs-store oracle on (tutor/ui/refresh/oracle.py, as the churn's): each
refresh that leaves it idle has its panes compared with a rebuild from the store, and once more
at the end. Each run reports its peak RSS, the oracle's checks and mismatches (and, when it
found any, the JSON-lines file they were dumped to); the summary has the totals and the peak
RSS of every run, in order, which it also plots on stderr at the end, to paste.

    .venv/bin/python -m tests.bench.soak [RUNS] [--hogs N]   # prints JSON; BENCHMARKS.md has the figures

--hogs N runs N busy processes beside it for the whole soak (a loaded machine: the tutor's
threads then wait for a core, and its loop for the GIL, as on a learner's busy VM); they are
ended by their PIDs when it ends.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from contextlib import contextmanager

from pathlib import Path

from tests.bench.churn import (LAB_ARGS, KubectlWatch, OracleDumps, TutorChild, lws_manifest, marker_pod,
                               oracle_figures, wait)

WATCHDOG_S = 30.0  # after kubectl saw the final state (the churn's tutor lags it by well under 1 s)
TIMEOUT_S = 420.0
RSS_TARGET_MB = 150
BLOCKS = " ▁▂▃▄▅▆▇█"


def one_run(lab, replicas: int, size: int, oracle_dump: Path) -> dict:
    want = replicas * size
    tutor = TutorChild(lab, want, naive=False, oracle_dump=oracle_dump)
    kubectl = KubectlWatch(lab, want)
    out: dict = {"pods": want, "stalls": []}
    try:
        if not wait(lambda: "ready" in tutor.reports and kubectl.marker_seen.is_set(), 120, "both consumers"):
            raise RuntimeError("consumers did not start")
        for phase, n in (("up", replicas), ("down", 0)):
            t0 = time.time()
            lab.kubectl("apply", "-f", "-", input=json.dumps(lws_manifest(n, size)))
            wait(lambda: phase in kubectl.times, TIMEOUT_S, f"kubectl to see {phase}")
            if not wait(lambda: phase in tutor.reports, WATCHDOG_S, f"the tutor's screen to show {phase}"):
                dumped = tutor.dump()
                reached = wait(lambda: phase in tutor.reports, TIMEOUT_S, f"the tutor to show {phase} at all")
                out["stalls"].append({"phase": phase, "dump": dumped, "reached_later": reached})
            k, rep = kubectl.times.get(phase), tutor.reports.get(phase)
            out[phase] = {"kubectl_s": k - t0 if k else None, "tutor_screen_s": rep["screen_t"] - t0 if rep else None}
            if not rep:  # let the cluster finish for the next phase
                wait(lambda: phase in kubectl.times, TIMEOUT_S, "kubectl")
    finally:
        kubectl.stop()
        out["tutor_stats"] = tutor.stop()
        out["rss_peak_mb"] = out["tutor_stats"].get("rss_peak_mb")
        out["oracle"] = oracle_figures(out["tutor_stats"])
    return out


def rss_plot(rss: list[float | None], target: float = RSS_TARGET_MB, rows: int = 6) -> str:
    """The peak RSS of each run as a column of block characters, from 0 MB up, a few lines to
    paste into BENCHMARKS.md (a run that reported none is a blank column)."""
    known = [v for v in rss if v is not None]
    top = max([*known, target]) or 1
    lines = [f"tutor's peak RSS per run (MB; target {target:g}; columns are runs 1 to {len(rss)})"]
    for r in reversed(range(rows)):
        lo, hi = top * r / rows, top * (r + 1) / rows
        cells = []
        for v in rss:
            if v is None or v <= lo:
                cells.append(" ")
            else:
                cells.append(BLOCKS[min(8, max(1, round((v - lo) / (hi - lo) * 8)))])
        mark = f"  <- {target:g}" if lo < target <= hi else ""
        lines.append(f"{hi:5.0f} |{''.join(cells)}{mark}")
    lines.append("      +" + "-" * len(rss))
    ticks = [" "] * len(rss)
    for i in range(0, len(rss), 5):  # runs 1, 6, 11, ...: the number starts at its column
        for j, ch in enumerate(str(i + 1)):
            if i + j < len(ticks):
                ticks[i + j] = ch
    lines.append("       " + "".join(ticks).rstrip())
    return "\n".join(lines)


@contextmanager
def loaded(n: int):
    """n processes that keep a core busy each, ended by their PIDs after."""
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"], stdin=subprocess.DEVNULL) for _ in range(n)]
    try:
        yield
    finally:
        for p in busy:
            p.kill()
            p.wait()


def run(runs: int = 10, replicas: int = 500, size: int = 2, n_hogs: int = 0) -> dict:
    from tests.bench.lab_run import bench_lab

    res: dict = {"runs": [], "replicas": replicas, "size": size, "watchdog_s": WATCHDOG_S, "hogs": n_hogs}
    t0 = time.monotonic()
    dumps = OracleDumps()
    try:
        with bench_lab(**LAB_ARGS) as lab, loaded(n_hogs):
            lab.kubectl("apply", "-f", "-", input=json.dumps(marker_pod()))
            for i in range(runs):
                r = one_run(lab, replicas, size, dumps.file(f"run-{i + 1}"))
                res["runs"].append(r)
                oracle = r["oracle"]
                print(f"run {i + 1}/{runs}: up {r.get('up')}, down {r.get('down')}, stalls {len(r['stalls'])}, "
                      f"peak RSS {r['rss_peak_mb']} MB, oracle {oracle['checks']} checks, "
                      f"{oracle['mismatches']} mismatches" + (f" (in {oracle['dump']})" if oracle.get("dump") else ""),
                      file=sys.stderr, flush=True)
    finally:
        dumps.close()
    done = [r for r in res["runs"] if all((r.get(p) or {}).get("tutor_screen_s") is not None for p in ("up", "down"))]
    rss = [r["rss_peak_mb"] for r in res["runs"]]
    res["summary"] = {"runs": len(res["runs"]), "reached_final_state": len(done),
                      "stalls": sum(len(r["stalls"]) for r in res["runs"]),
                      "rss_peak_mb": max((v for v in rss if v is not None), default=None),
                      "rss_peak_mb_per_run": rss,
                      "oracle_checks": sum(r["oracle"]["checks"] or 0 for r in res["runs"]),
                      "oracle_mismatches": sum(r["oracle"]["mismatches"] or 0 for r in res["runs"]),
                      # a run whose tutor reported no stats: its oracle's figures are unknown
                      "oracle_unreported_runs": sum(r["oracle"]["checks"] is None for r in res["runs"]),
                      "minutes": round((time.monotonic() - t0) / 60, 1)}
    if res["summary"]["oracle_mismatches"]:
        res["summary"]["oracle_dumps"] = str(dumps.dir)
    return res


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("runs", type=int, nargs="?", default=10)
    ap.add_argument("--hogs", type=int, default=0)
    a = ap.parse_args()
    result = run(a.runs, n_hogs=a.hogs)
    print(json.dumps(result, indent=1))
    print("\n" + rss_plot(result["summary"]["rss_peak_mb_per_run"]), file=sys.stderr)

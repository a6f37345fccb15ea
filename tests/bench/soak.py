"""The soak: the bench's lab churn (an LWS of 500 groups of 2 scaled up, then down) run again and
again on one lab, each time by a fresh tutor beside `kubectl get pods -w`, with a watchdog on the
tutor's screen. A benchmark, not a test: it reports, it asserts nothing.

Every run must reach each final state on the tutor's screen. When kubectl has seen it and the
tutor's screen has not within WATCHDOG_S, the tutor is asked (SIGUSR1) for what it holds: its
inbox, pending items, the refresh under way (the pump's `redraws`, `drain_after_redraw`, its timer), and
its store against a fresh list. It then gets the rest of the timeout, to tell a stall from a
slow screen.

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

from tests.bench.churn import LAB_ARGS, KubectlWatch, TutorChild, lws_manifest, marker_pod, wait

WATCHDOG_S = 30.0  # after kubectl saw the final state (the churn's tutor lags it by well under 1 s)
TIMEOUT_S = 420.0


def one_run(lab, replicas: int, size: int) -> dict:
    want = replicas * size
    tutor = TutorChild(lab, want, naive=False)
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
    return out


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
    with bench_lab(**LAB_ARGS) as lab, loaded(n_hogs):
        lab.kubectl("apply", "-f", "-", input=json.dumps(marker_pod()))
        for i in range(runs):
            r = one_run(lab, replicas, size)
            res["runs"].append(r)
            print(f"run {i + 1}/{runs}: up {r.get('up')}, down {r.get('down')}, stalls {len(r['stalls'])}, "
                  f"peak RSS {r['tutor_stats'].get('rss_peak_mb')} MB", file=sys.stderr, flush=True)
    done = [r for r in res["runs"] if all((r.get(p) or {}).get("tutor_screen_s") is not None for p in ("up", "down"))]
    res["summary"] = {"runs": len(res["runs"]), "reached_final_state": len(done),
                      "stalls": sum(len(r["stalls"]) for r in res["runs"]),
                      "rss_peak_mb": max((r["tutor_stats"].get("rss_peak_mb") or 0 for r in res["runs"]), default=None),
                      "minutes": round((time.monotonic() - t0) / 60, 1)}
    return res


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("runs", type=int, nargs="?", default=10)
    ap.add_argument("--hogs", type=int, default=0)
    a = ap.parse_args()
    print(json.dumps(run(a.runs, n_hogs=a.hogs), indent=1))

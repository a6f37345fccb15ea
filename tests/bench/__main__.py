"""The benchmark: `python -m tests.bench` prints one table and writes JSON (bench-results.json).

    python -m tests.bench                 # everything (about 8 minutes on 2 cores)
    python -m tests.bench --no-lab        # without the real control plane
    python -m tests.bench --quick         # tiny sizes: checks that the bench runs, no figures

Each part runs in its own process so one does not skew another's memory or start-up:
  calibration  tests.bench.calibrate: a fixed workload (stdlib json, a pure-Python loop), so
             figures from different machines can be compared;
  start-up   tests.bench.firstframe (process start to the first frame, headless) for lwstutor,
             a bare Textual app and one with lwstutor's kinds of widget, and `lwstutor --version`,
             each a fresh process, median of --runs;
  app        tests.bench.app_run: reaction, burst, idle CPU and memory at 1,000 pods;
  naive      the same with every checker re-run on every event and full table rebuilds;
  churn      tests.bench.churn: 1,000 pods churned on the lab, the tutor against kubectl;
  lab        tests.bench.labreact: the walkthrough on the lab's real node, the tutor's screen
             against `kubectl get pods -w` after each command the learner runs.

Each part's tutor has its panes compared with a rebuild from the store (tutor/ui/refresh/oracle.py): the
app and the naive baseline once after each settled phase, the lab reaction once at its end (not
after every refresh: their timings would pay for it), the churn's tutor after every refresh that
leaves it idle. `oracle` in the JSON has each part's checks and mismatches and their totals.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import tutor
from tests.ports import free_port
from tutor.demo import walkthrough

ROOT = Path(__file__).resolve().parents[2]
WALKTHROUGH = walkthrough()
TARGETS = {
    "reaction_p99_ms": 50, "burst_settled_s": 2.0, "burst_stall_ms": 100, "first_frame_s": 0.6,
    "idle_cpu_pct": 1.0, "rss_peak_mb": 150, "churn_ratio": 1.2,
    "first_frame_over_bare_s": 0.15,
}


def python() -> str:
    return sys.executable


def child_env(tmp: Path) -> dict:
    return {**os.environ, "XDG_STATE_HOME": str(tmp / "state"), "KUBECONFIG": "", "PYTHONPATH": str(ROOT)}


def timed_first_frame(args: list[str], env: dict) -> float:
    t0 = time.time()
    res = subprocess.run([python(), "-m", "tests.bench.firstframe", *args], capture_output=True, text=True,
                         timeout=120, env=env, cwd=ROOT, stdin=subprocess.DEVNULL)
    lines = res.stdout.strip().splitlines()
    if res.returncode != 0 or not lines:
        raise RuntimeError(f"first frame run failed: {res.stderr[-2000:]}")
    return float(lines[-1]) - t0


def startup(runs: int, tmp: Path) -> dict:
    env = child_env(tmp)
    # Live mode against a loopback port where nothing listens: the first frame must not wait for
    # the cluster (it shows "connecting"); nothing leaves 127.0.0.1.
    port = free_port()
    kubeconfig = tmp / "kubeconfig.yaml"
    kubeconfig.write_text(json.dumps({
        "apiVersion": "v1", "kind": "Config", "current-context": "bench",
        "clusters": [{"name": "bench", "cluster": {"server": f"https://127.0.0.1:{port}",
                                                   "insecure-skip-tls-verify": True}}],
        "users": [{"name": "bench", "user": {"token": "bench"}}],
        "contexts": [{"name": "bench", "context": {"cluster": "bench", "user": "bench"}}]}))
    workdir = tmp / "workdir"
    workdir.mkdir(exist_ok=True)
    lwstutor = shutil.which("lwstutor", path=str(Path(python()).parent)) or "lwstutor"
    out: dict = {"runs": runs}
    # Warm the .pyc files as an install does (pip compiles the package): with PYTHONDONTWRITEBYTECODE
    # set, as in some shells, every start would otherwise compile tutor's sources again (~50 ms).
    subprocess.run([python(), "-m", "compileall", "-q", str(Path(tutor.__file__).parent)], check=True,
                   capture_output=True, env=env, timeout=120)
    timed_first_frame(["--replay", str(WALKTHROUGH)], env)  # and the page cache
    timed_first_frame(["--bare"], env)
    timed_first_frame(["--widgets"], env)
    # They take turns, so a busy moment on the machine falls on all of them alike.
    kinds = {"first_frame_bare_s": ["--bare"],
             "first_frame_widgets_s": ["--widgets"],
             "first_frame_replay_s": ["--replay", str(WALKTHROUGH), "--speed", "0"],
             "first_frame_live_s": ["--kubeconfig", str(kubeconfig), "--workdir", str(workdir)]}
    for key in kinds:
        out[key] = []
    for _ in range(runs):
        for key, args in kinds.items():
            out[key].append(timed_first_frame(args, env))
    version = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([lwstutor, "--version"], capture_output=True, check=True, env=env, timeout=60)
        version.append(time.perf_counter() - t0)
    out["version_s"] = version
    for k in (*kinds, "version_s"):
        out[k.replace("_s", "_median_s")] = statistics.median(out[k])
    bare = out["first_frame_bare_median_s"]
    for mode in ("replay", "live"):  # lwstutor's own start-up cost above Textual's floor
        mine = out[f"first_frame_{mode}_median_s"]
        out[f"first_frame_{mode}_over_bare_s"] = mine - bare
        out[f"first_frame_{mode}_over_bare_x"] = mine / bare if bare else None
    return out


def calibration(tmp: Path) -> dict:
    """The fixed workload of tests.bench.calibrate, in a fresh process like the other parts."""
    res = subprocess.run([python(), "-m", "tests.bench.calibrate"], capture_output=True, text=True,
                         timeout=300, env=child_env(tmp), cwd=ROOT, stdin=subprocess.DEVNULL)
    if res.returncode != 0:
        raise RuntimeError(f"calibration failed: {res.stderr[-2000:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def app_run(extra: list[str], tmp: Path) -> dict:
    res = subprocess.run([python(), "-m", "tests.bench.app_run", *extra], capture_output=True, text=True,
                         timeout=900, env=child_env(tmp), cwd=ROOT, stdin=subprocess.DEVNULL)
    if res.returncode != 0:
        raise RuntimeError(f"app_run {' '.join(extra)} failed: {res.stderr[-3000:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def machine() -> dict:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    mem_kb = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                  if line.startswith("MemTotal:"))
    load = Path("/proc/loadavg").read_text().split()[:3]
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_gib": round(mem_kb / 1024 / 1024, 1),
            "python": platform.python_version(), "kernel": platform.release(), "load_at_start": load}


def fmt(v, unit: str = "", digits: int = 0) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.{digits}f}{unit}"
    return f"{v}{unit}"


def oracle_summary(r: dict) -> dict:
    """Each part's pane-vs-store checks and mismatches, and the totals (a part that did not run,
    or whose tutor reported nothing, is left out)."""
    parts = {"app": r.get("app", {}), "naive_app": r.get("naive_app", {})}
    for key in ("design", "naive"):
        oracle = ((r.get("churn") or {}).get(key) or {}).get("oracle") or {}
        parts[f"churn_{key}"] = {"oracle_checks": oracle.get("checks"), "oracle_mismatches": oracle.get("mismatches")}
    lab = ((r.get("lab_reaction") or {}).get("tutor_stats") or {}).get("oracle")
    if lab:  # one compare at the end, or none when the tutor did not settle
        parts["lab_reaction"] = {"oracle_checks": 0 if lab["mismatches"] is None else 1,
                                 "oracle_mismatches": lab["mismatches"]}
    by_part = {name: {"checks": p.get("oracle_checks"), "mismatches": p.get("oracle_mismatches")}
               for name, p in parts.items() if p.get("oracle_checks") is not None}
    return {"checks": sum(p["checks"] for p in by_part.values()),
            "mismatches": sum(p["mismatches"] or 0 for p in by_part.values()), "by_part": by_part}


def table(r: dict) -> list[tuple[str, str, str, str]]:
    rows = []
    a, s = r.get("app", {}), r.get("startup", {})

    def row(name, value, target, unit="", digits=0, lower=True):
        ok = "" if value is None or target is None else ("yes" if (value < target if lower else value > target) else "NO")
        rows.append((name, fmt(value, unit, digits), "" if target is None else f"< {target}{unit}", ok))

    row("reaction p50 (200 ev/s, 1,000 pods)", a.get("reaction_p50_ms"), None, " ms", 1)
    row("reaction p99", a.get("reaction_p99_ms"), TARGETS["reaction_p99_ms"], " ms", 1)
    row("burst of 10,000: screen shows final state", a.get("burst_settled_s"), TARGETS["burst_settled_s"], " s", 2)
    row("burst: longest event-loop stall", a.get("burst_stall_ms"), TARGETS["burst_stall_ms"], " ms", 0)
    row("stream: longest event-loop stall", a.get("stream_stall_ms"), TARGETS["burst_stall_ms"], " ms", 0)
    row("first frame, bare Textual app (median)", s.get("first_frame_bare_median_s"), None, " s", 2)
    row("first frame, Textual app with lwstutor's kinds of widget (median)", s.get("first_frame_widgets_median_s"),
        None, " s", 2)
    for mode in ("replay", "live"):
        row(f"first frame, {mode} (median)", s.get(f"first_frame_{mode}_median_s"), TARGETS["first_frame_s"], " s", 2)
        row(f"first frame, {mode}: above the bare app", s.get(f"first_frame_{mode}_over_bare_s"),
            TARGETS["first_frame_over_bare_s"], " s", 2)
        row(f"first frame, {mode} ÷ bare app", s.get(f"first_frame_{mode}_over_bare_x"), None, "x", 2)
    row("lwstutor --version (median)", s.get("version_median_s"), None, " s", 2)
    row("idle CPU over 10 s", a.get("idle_cpu_pct"), TARGETS["idle_cpu_pct"], " %", 2)
    row("peak RSS (1,000 pods, 10,000 events)", a.get("rss_peak_mb"), TARGETS["rss_peak_mb"], " MB", 0)
    cal = r.get("calibration", {})
    row(f"calibration: stdlib json, walkthrough x{cal.get('json_parses')} (median)", cal.get("json_s"), None, " s", 3)
    row(f"calibration: pure-Python loop of {cal.get('python_loop')} (median)", cal.get("python_s"), None, " s", 3)
    n = r.get("naive_app", {})
    if n:
        row("naive: reaction p50", n.get("reaction_p50_ms"), None, " ms", 0)
        row("naive: reaction p99", n.get("reaction_p99_ms"), None, " ms", 0)
        row(f"naive: events shown of {n.get('reaction_events')} streamed", n.get("reaction_shown"), None)
        row("naive: stream stall", n.get("stream_stall_ms"), None, " ms", 0)
    c = r.get("churn", {})
    for label, key in (("design", "design"), ("naive", "naive")):
        cyc = c.get(key)
        if not cyc:
            continue
        for phase in ("up", "down"):
            p = cyc.get(phase) or {}
            k, t_store, t_screen = p.get("kubectl_s"), p.get("tutor_store_s"), p.get("tutor_screen_s")
            row(f"churn {phase} ({cyc['pods']} pods): kubectl -w sees final state", k, None, " s", 2)
            row(f"churn {phase}: {label} tutor store / screen", t_store, None, " s", 2)
            row(f"churn {phase}: {label} tutor screen", t_screen, None, " s", 2)
            ratio = t_screen / k if t_screen and k else None
            row(f"churn {phase}: {label} tutor screen / kubectl", ratio,
                TARGETS["churn_ratio"] if key == "design" else None, "x", 2)
    lr = r.get("lab_reaction", {})
    if lr:
        for key, label in (("apply_to_kubectl", "lab: command returns → kubectl get pods -w prints"),
                           ("apply_to_tutor", "lab: command returns → tutor's screen, re-checked"),
                           ("tutor_after_kubectl", "lab: tutor's screen after kubectl, per pod change"),
                           ("store_after_kubectl", "lab:   of which: in the tutor's store after kubectl"),
                           ("store_to_screen", "lab:   of which: store → screen (re-check, frame)"),
                           ("file_to_verdict", "lab: answer file written → verdict on screen")):
            sm = lr.get(key) or {}
            row(f"{label} p50 (n={sm.get('n')})", sm.get("p50_ms"), None, " ms", 0)
            row(f"{label} p99", sm.get("p99_ms"), None, " ms", 0)
    oracle = r.get("oracle") or {}
    if oracle.get("checks"):
        row(f"pane-vs-store oracle: checks, every part ({', '.join(oracle['by_part'])})", oracle["checks"], None)
        mismatches = oracle["mismatches"]
        rows.append(("pane-vs-store oracle: mismatches, every part", fmt(mismatches), "0",
                     "yes" if mismatches == 0 else "NO"))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="tiny sizes (a smoke run; the figures mean nothing)")
    ap.add_argument("--no-lab", action="store_true", help="skip the side-by-side churn on the lab control plane")
    ap.add_argument("--no-naive", action="store_true", help="skip the naive baseline")
    ap.add_argument("--runs", type=int, default=5, help="start-up runs per figure (median)")
    ap.add_argument("--json", default="bench-results.json", help="where to write the results")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="lwstutor-bench-"))
    results: dict = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "machine": machine(),
                     "command": "python -m tests.bench " + " ".join(argv if argv is not None else sys.argv[1:]),
                     "targets": TARGETS}
    t0 = time.monotonic()
    if args.quick:
        sizes = ["--pods", "40", "--rate", "50", "--stream-seconds", "1", "--burst", "200", "--idle", "0.5"]
        naive = ["--pods", "40", "--rate", "20", "--stream-seconds", "1", "--burst", "20", "--idle", "0",
                 "--naive", "--catch-up", "20"]
        runs = 1
    else:
        sizes = ["--pods", "1000", "--rate", "200", "--stream-seconds", "10", "--burst", "10000", "--idle", "10"]
        naive = ["--pods", "1000", "--rate", "200", "--stream-seconds", "3", "--burst", "0", "--idle", "0",
                 "--naive", "--catch-up", "30"]
        runs = args.runs
    def save() -> None:  # after every part, so a part that fails or is stopped loses only itself
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")

    print("calibration …", file=sys.stderr)
    results["calibration"] = calibration(tmp)
    save()
    print("start-up …", file=sys.stderr)
    results["startup"] = startup(runs, tmp)
    save()
    print("app: reaction, burst, idle, memory …", file=sys.stderr)
    results["app"] = app_run(sizes, tmp)
    save()
    if not args.no_naive:
        print("naive baseline …", file=sys.stderr)
        results["naive_app"] = app_run(naive, tmp)
        save()
    if not args.no_lab:
        if shutil.which("go") is None:
            results["churn"] = {"skipped": "go is not installed: the lab control plane cannot be built"}
        else:
            print("lab churn: tutor against kubectl …", file=sys.stderr)
            from tests.bench import churn

            results["churn"] = churn.run(replicas=10 if args.quick else 500, size=2,
                                         naive_replicas=0 if args.no_naive else (5 if args.quick else 100),
                                         naive_slack=20 if args.quick else 60)
            save()
            print("lab reaction: the walkthrough on the real node, the tutor beside kubectl -w …", file=sys.stderr)
            from tests.bench import labreact

            results["lab_reaction"] = labreact.run()
    results["duration_s"] = time.monotonic() - t0
    results["oracle"] = oracle_summary(results)
    rows = table(results)
    results["table"] = [dict(zip(("metric", "measured", "target", "met"), r)) for r in rows]
    w = [max(len(r[i]) for r in rows + [("metric", "measured", "target", "met")]) for i in range(4)]
    print(f"{'metric':<{w[0]}}  {'measured':>{w[1]}}  {'target':<{w[2]}}  met")
    for r in rows:
        print(f"{r[0]:<{w[0]}}  {r[1]:>{w[1]}}  {r[2]:<{w[2]}}  {r[3]}")
    Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    print(f"\nwrote {args.json} ({results['duration_s']:.0f} s)", file=sys.stderr)
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

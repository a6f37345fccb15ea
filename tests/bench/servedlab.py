"""The live lab, a terminal tutor and a browser tab, in one run: how long after a learner's command
returns its change is on the terminal tutor's screen, and on Chromium's.

    .venv/bin/python -m tests.bench.servedlab [--rounds 2] [--viewport 1280x800]

It starts the lab with the real node (lab_run.py), and beside it, watching the same cluster and
the same answer files:
  terminal  the tutor as the lab-reaction bench runs it (labreact_tutor.py: the headless app, its
            live watches, the screen hooks of screen_timing.py);
  browser   `lwstutor serve` (the CLI's own server and tab command, with the tab's tutor started
            through servedlab_tutor.py, which adds the same hooks), live against the lab's
            kubeconfig, and one headless Chromium tab on it (Debian's chromium, Playwright), whose
            websocket is wrapped as servedreact.py wraps it;
  kubectl   `kubectl get pods -w`, the other half of the learner's terminal.
Then the scripted learner (tests/e2e/learner.py) applies the walkthrough's LeaderWorkerSet, fails a
worker (`kubectl exec ... touch /tmp/fail`), and --rounds times scales it to 1 and back to 2 and
deletes one worker pod.

Each command that changes the cluster is timed from when it returns (wall clock, one machine):
to the first pod change `kubectl get pods -w` prints after it (pod name and resourceVersion);
to the terminal tutor's re-checked frame that shows that same change; to the served tutor's frame
that shows it; to the first websocket message the page receives after that frame; to the page's
next animation frame (xterm.js draws on animation frames). The same per pod change, from kubectl
printing it. Prints one JSON. Every process it starts is stopped by its PID, on error too.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from tests.procs import descendants as pids_below, started as start_time
from tests.bench.labreact import PodLines, TimedLab, TutorChild, summary
from tests.bench.servedlab_tutor import ENV

ROOT = Path(__file__).resolve().parents[2]
CHILD = "tutor.served_tab"
BENCH_CHILD = "tests.bench.servedlab_tutor"


# --- the server: `lwstutor serve`, its tabs' tutor with the hooks -------------------------------

def serve(argv: list[str]) -> int:
    """`lwstutor serve ARGV`, whose tab command runs servedlab_tutor.py in place of tutor.served_tab
    (the same arguments: that module runs tutor.served_tab after putting the hooks on)."""
    import tutor.commands.serve as served
    from tutor.cli import main

    real = served.tutor_command

    def timed_command(args, lang: str, failure_file: str = "") -> str:
        return bench_command(real(args, lang, failure_file))

    served.tutor_command = timed_command
    return main(["serve", *argv])


def bench_command(command: str) -> str:
    """The server's tab command with the bench's tutor module in place of the plain one."""
    if f" -m {CHILD} " not in command:
        raise RuntimeError(f"no `-m {CHILD}` in the tab command: {command}")
    return command.replace(f" -m {CHILD} ", f" -m {BENCH_CHILD} ", 1)


class Server:
    """The serve process; its output read in a thread, for the address it prints."""

    def __init__(self, argv: list[str], reports: Path):
        env = {**os.environ, ENV: str(reports), "PYTHONPATH": str(ROOT), "KUBECONFIG": ""}
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.bench.servedlab", "--serve", *argv], env=env,
                                     cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        threading.Thread(target=lambda: self.lines.extend(self.proc.stdout), daemon=True).start()

    def url(self, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.proc.poll() is None:
            found = next((m.group(0) for line in self.lines if (m := re.search(r"http://\S+token=\S+", line))), None)
            if found:
                return found
            time.sleep(0.1)
        raise RuntimeError(f"`lwstutor serve` printed no address (exit {self.proc.poll()}): {''.join(self.lines)[-2000:]}")


# --- processes, stopped by PID ------------------------------------------------------------------

def descendants(pid: int) -> set[tuple[int, str]]:
    """Every process under `pid` that still runs, each as (PID, start time)."""
    return {(child, at) for child in pids_below(pid) if (at := start_time(child)) is not None}


def kill_left(procs: set[tuple[int, str]]) -> list[int]:
    """SIGKILL to each of these that still runs (the same process: its start time unchanged)."""
    killed = []
    for pid, started in procs:
        if start_time(pid) == started:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
            except ProcessLookupError:
                pass
    return killed


# --- the figures ----------------------------------------------------------------------------------

def reports(path: Path) -> list[dict]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def on_screen(frames: list[dict], i: int) -> float | None:
    """When the first frame that shows item number i was drawn."""
    return next((f["t"] for f in frames if f["upto"] >= i), None)


def figures(actions: list[tuple[str, float]], printed: dict[tuple[str, str], float], terminal: list[dict],
            served: list[dict], arrivals: list[list[float]]) -> dict:
    """actions: (command, when it returned); printed: (pod, resourceVersion) -> when kubectl printed
    it; terminal, served: each tutor's item and frame reports; arrivals: the page's
    [websocket message, next animation frame], ms since the epoch."""
    def pods(reps):
        return {(r["name"], r["rv"]): r for r in reps if r["event"] == "item" and r["kind"] == "Pod"}

    t_pods, s_pods = pods(terminal), pods(served)
    t_frames = [r for r in terminal if r["event"] == "frame"]
    s_frames = [r for r in served if r["event"] == "frame"]

    def shown(key, its, frames):
        it = its.get(key)
        return on_screen(frames, it["i"]) if it else None

    def page(frame_t: float | None) -> tuple[float, float] | tuple[None, None]:
        got = next((a for a in arrivals if frame_t is not None and a[0] >= frame_t * 1000), None)
        return (got[0] / 1000, got[1] / 1000) if got else (None, None)

    def since(t, t0):
        return None if t is None else t - t0

    per_action = []
    for what, t0 in actions:
        first = min(((t, key) for key, t in printed.items() if t > t0), default=None)
        key = first[1] if first else None
        frame = shown(key, s_pods, s_frames) if key else None
        message, paint = page(frame)
        per_action.append({"action": what, "pod": key and f"{key[0]}@{key[1]}",
                           "kubectl_s": since(first and first[0], t0),
                           "terminal_s": since(key and shown(key, t_pods, t_frames), t0),
                           "served_frame_s": since(frame, t0), "browser_message_s": since(message, t0),
                           "browser_frame_s": since(paint, t0)})
    per_pod = []
    for key, t in printed.items():
        term, frame = shown(key, t_pods, t_frames), shown(key, s_pods, s_frames)
        message, paint = page(frame)
        if term is not None and paint is not None:
            per_pod.append({"terminal": term - t, "served_frame": frame - t, "browser_frame": paint - t})
    hop = []  # the served tutor's frame -> the page, per frame that shows a change
    for f in s_frames:
        message, paint = page(f["t"])
        if message is not None:
            hop.append((message - f["t"], paint - f["t"]))

    def col(rows, name):
        return summary([r[name] for r in rows if r[name] is not None])

    return {
        "actions": per_action,
        "command_to_kubectl": col(per_action, "kubectl_s"),
        "command_to_terminal_screen": col(per_action, "terminal_s"),
        "command_to_served_tutor_frame": col(per_action, "served_frame_s"),
        "command_to_browser_websocket_message": col(per_action, "browser_message_s"),
        "command_to_browser_animation_frame": col(per_action, "browser_frame_s"),
        "pod_changes_printed": len(printed), "pod_changes_on_both_screens": len(per_pod),
        "kubectl_to_terminal_screen": col(per_pod, "terminal"),
        "kubectl_to_served_tutor_frame": col(per_pod, "served_frame"),
        "kubectl_to_browser_animation_frame": col(per_pod, "browser_frame"),
        "served_frame_to_websocket_message": summary([m for m, _ in hop]),
        "served_frame_to_animation_frame": summary([p for _, p in hop]),
    }


# --- the learner ----------------------------------------------------------------------------------

class ChangesTimed(TimedLab):
    """labreact's TimedLab (apply, exec ... touch), and scale and delete too."""

    def kubectl(self, *args, **kw):
        res = super().kubectl(*args, **kw)
        if args and args[0] in ("scale", "delete"):
            self.actions.append((" ".join(args[:3]), time.time()))
        return res


def scenario(rounds: int):
    from tests.e2e.learner import LLM_PODS_ALL, NS

    def run(ln) -> None:
        ln.step1()  # apply the LeaderWorkerSet; its four pods Running
        ln.fail_worker()  # exec llm-0-1 -- touch /tmp/fail; group 0 recreated and Running
        for _ in range(rounds):
            ln.lab.kubectl("scale", "leaderworkerset", "llm", "-n", NS, "--replicas=1")
            ln.wait("group 1 gone", lambda: not ln.get("pods", selector="leaderworkerset.sigs.k8s.io/group-index=1")["items"])
            ln.lab.kubectl("scale", "leaderworkerset", "llm", "-n", NS, "--replicas=2")
            ln.running(*LLM_PODS_ALL)
            uid = ln.pod("llm-1-1")["metadata"]["uid"]
            ln.lab.kubectl("delete", "pod", "llm-1-1", "-n", NS, "--wait=false")
            ln.wait("llm-1-1 recreated", lambda: (p := ln.pod("llm-1-1")) and p["metadata"]["uid"] != uid)
            ln.running(*LLM_PODS_ALL)
    return run


# --- the run --------------------------------------------------------------------------------------

def measure(lab, tmp: Path, rounds: int, viewport: tuple[int, int]) -> dict:
    from playwright.sync_api import sync_playwright

    from tests.e2e.learner import Learner
    from tests.serve.browser import CHROMIUM

    workdir, served_reports = tmp / "work", tmp / "served.jsonl"
    workdir.mkdir()
    out: dict = {"viewport": f"{viewport[0]}x{viewport[1]}", "rounds": rounds}
    timed = ChangesTimed(lab)
    learner = Learner(timed, workdir, prompt_stop=True)
    terminal = server = kubectl = None
    started: set = set()  # the server's tree and the browser's, as seen while they ran
    arrivals: list = []

    def seen(before: set) -> None:
        if server is not None:
            started.update(descendants(server.proc.pid))
        started.update(d for d in descendants(os.getpid()) - before if browser_process(d[0]))

    try:
        terminal = TutorChild(lab, workdir)
        server = Server(["--kubeconfig", str(lab.kubeconfig), "--workdir", str(workdir),
                         "--state-file", str(tmp / "progress.json"), "--lang", "en", "--host", "127.0.0.1",
                         "--port", "0", "--max-sessions", "1"], served_reports)
        url = server.url()
        before = descendants(os.getpid())
        with sync_playwright() as p:
            browser = None
            try:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--disable-dev-shm-usage"])
                seen(before)
                page = open_tab(browser, url, viewport)
                deadline = time.monotonic() + 120
                while not ("ready" in terminal.reports and served_ready(served_reports)):
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"the tutors did not start watching: terminal exit {terminal.proc.poll()}, "
                                           f"served ready {served_ready(served_reports)}; "
                                           f"server: {''.join(server.lines)[-2000:]}")
                    time.sleep(0.1)
                seen(before)
                kubectl = PodLines(lab)
                time.sleep(3)  # kubectl prints nothing for an empty namespace: its watch is set up by now
                if kubectl.proc is None or kubectl.proc.poll() is not None:
                    raise RuntimeError("kubectl get pods -w did not start")
                t0 = time.monotonic()
                scenario(rounds)(learner)
                out["scenario_s"] = round(time.monotonic() - t0, 1)
                time.sleep(3)  # the last changes reach every screen
                arrivals = page.evaluate("window.__arrivals")
            finally:
                seen(before)
                if browser is not None:
                    try:
                        browser.close()
                    except Exception as exc:  # noqa: BLE001 - Playwright stops it with its driver; then by PID
                        print(f"bench: closing the browser: {exc}", file=sys.stderr)
    finally:
        stops = [kubectl and kubectl.stop, terminal and (lambda: out.update(terminal_stats=terminal.stop())),
                 server and (lambda: stop(server.proc))]
        for step in filter(None, stops):
            try:
                step()
            except Exception as exc:  # noqa: BLE001 - the others are still stopped
                print(f"bench: stopping: {exc}", file=sys.stderr)
        out["killed_left_over"] = kill_left(started)
    out.update(figures(timed.actions, kubectl.printed, terminal.items + terminal.frames, reports(served_reports),
                       arrivals))
    out["browser_messages"] = len(arrivals)
    return out


def open_tab(browser, url: str, viewport: tuple[int, int]):
    """A tab on the served tutor, its websocket's binary messages timed (servedreact.py's wrapper)."""
    from tests.bench.servedreact import ARRIVALS

    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    page.add_init_script(ARRIVALS)
    page.goto(url)
    page.wait_for_selector("body.-first-byte", state="attached", timeout=60_000)
    return page


def served_ready(path: Path) -> bool:
    return any(r["event"] == "ready" for r in reports(path))


def browser_process(pid: int) -> bool:
    """Chromium or Playwright's driver (by its command line)."""
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"chromium" in cmd or b"playwright" in cmd


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def run(rounds: int, viewport: tuple[int, int]) -> dict:
    from tests.bench.lab_run import bench_lab

    t0 = time.monotonic()
    with bench_lab() as lab:
        res: dict = {"lab_start_s": time.monotonic() - t0, "real_node": lab.real_node}
        with tempfile.TemporaryDirectory(prefix="lwstutor-servedlab-") as tmp:
            res.update(measure(lab, Path(tmp), rounds, viewport))
    return res


def main() -> int:
    if sys.argv[1:2] == ["--serve"]:
        return serve(sys.argv[2:])
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2, help="scale down, up and delete a worker: how many times")
    ap.add_argument("--viewport", default="1280x800")
    args = ap.parse_args()
    w, h = (int(x) for x in args.viewport.split("x"))
    print(json.dumps(run(args.rounds, (w, h)), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What a learner feels, on the lab with the real node: the scripted learner does the
walkthrough's own actions while `kubectl get pods -w` (the other half of their terminal) and the
tutor (a child process: the headless app, its live watches and the answer files) look on.

For each action that changes the cluster (`kubectl apply`, `kubectl exec llm-0-1 -- touch
/tmp/fail`), from the moment the command returns:
  kubectl   until `kubectl get pods -w` prints the first pod change after it;
  tutor     until the tutor's screen shows that same change (pod name and resourceVersion),
            re-checked: the frame drawn after the checkers re-ran on it.
Over every pod change both saw: how much later the tutor's screen showed it than kubectl printed
it. For each answer file written: until the re-checked verdict is on screen.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from tests.bench.app_run import pct
from tests.bench.churn import ChildReports, KubectlWatch, wait
from tests.bench.screen_timing import PHASES


class PodLines(KubectlWatch):
    """`kubectl get pods -w -o json --output-watch-events`: when each pod version was printed."""

    def __init__(self, lab):
        self.printed: dict[tuple[str, str], float] = {}
        super().__init__(lab, want=0)

    def _see(self, type_: str, obj: dict) -> None:
        meta = obj.get("metadata") or {}
        self.printed.setdefault((meta.get("name", ""), meta.get("resourceVersion", "")), time.time())


class TutorChild(ChildReports):
    def __init__(self, lab, workdir: Path):
        self.items: list[dict] = []
        self.frames: list[dict] = []
        super().__init__([sys.executable, "-m", "tests.bench.labreact_tutor", "--kubeconfig", str(lab.kubeconfig),
                          "--workdir", str(workdir)])

    def take(self, rep: dict) -> None:
        {"item": self.items, "frame": self.frames}.get(rep["event"], []).append(rep)

    def on_screen(self, i: int) -> float | None:
        """When the first frame re-checked after item number i was drawn."""
        frame = self.frame_for(i)
        return None if frame is None else frame["t"]

    def frame_for(self, i: int) -> dict | None:
        """The first frame re-checked after item number i."""
        return next((f for f in self.frames if f["upto"] >= i), None)


class TimedLab:
    """The lab as the scripted learner sees it, noting when each changing command returned."""

    def __init__(self, lab):
        self._lab = lab
        self.actions: list[tuple[str, float]] = []

    def __getattr__(self, name):
        return getattr(self._lab, name)

    def kubectl(self, *args, **kw):
        res = self._lab.kubectl(*args, **kw)
        if args and (args[0] == "apply" or (args[0] == "exec" and "touch" in args)):
            self.actions.append((" ".join(a for a in args[:4] if not a.startswith("/")), time.time()))
        return res


def summary(values: list[float]) -> dict:
    ms = [v * 1000 for v in values]
    return {"n": len(ms), "p50_ms": pct(ms, 50) if ms else None, "p99_ms": pct(ms, 99) if ms else None,
            "max_ms": max(ms) if ms else None}


def measure(lab, workdir: Path, learner_cls, scenario) -> dict:
    tutor, kubectl = TutorChild(lab, workdir), PodLines(lab)
    timed = TimedLab(lab)
    learner = learner_cls(timed, workdir)
    files: list[tuple[str, float]] = []
    write = learner.write

    def timed_write(name: str, text: str):
        path = write(name, text)
        files.append((name, time.time()))
        return path

    learner.write = timed_write
    start = time.time()
    try:
        if not wait(lambda: "ready" in tutor.reports, 120, "the tutor"):
            dumped = tutor.dump() if tutor.proc.poll() is None else None
            raise RuntimeError(f"the tutor did not start watching: {tutor.proc.poll()}, its dump: {dumped}")
        # kubectl prints nothing for an empty namespace: give its watch a moment to be set up
        time.sleep(3)
        if kubectl.proc is None or kubectl.proc.poll() is not None:
            raise RuntimeError("kubectl get pods -w did not start")
        scenario(learner)
        time.sleep(3)  # the last changes reach both
    finally:
        kubectl.stop()
        stats = tutor.stop()
    pods = {(it["name"], it["rv"]): it for it in tutor.items if it["kind"] == "Pod"}
    per_action = []
    for what, t0 in timed.actions:
        first = min(((t, key) for key, t in kubectl.printed.items() if t > t0), default=None)
        item = pods.get(first[1]) if first else None
        screen = tutor.on_screen(item["i"]) if item else None
        per_action.append({"action": what, "at_s": round(t0 - start, 2), "kubectl_s": first[0] - t0 if first else None,
                           "tutor_s": screen - t0 if screen else None})
    seen = [(t, it, s) for key, t in kubectl.printed.items()
            if (it := pods.get(key)) and (s := tutor.on_screen(it["i"]))]
    behind = [s - t for t, _, s in seen]
    per_file = []
    for name, t0 in files:
        item = next((it for it in tutor.items if it["kind"] == "file" and it["name"] == name and it["t"] >= t0), None)
        screen = tutor.on_screen(item["i"]) if item else None
        per_file.append({"file": name, "tutor_s": screen - t0 if screen else None})
    return {
        "actions": per_action,
        "apply_to_kubectl": summary([a["kubectl_s"] for a in per_action if a["kubectl_s"] is not None]),
        "apply_to_tutor": summary([a["tutor_s"] for a in per_action if a["tutor_s"] is not None]),
        "tutor_after_kubectl": summary(behind),
        # that lag in two: the change in the tutor's store (its own watch, parsing, the inbox,
        # applying) after kubectl printed it; then the re-check and the frame that shows it
        "store_after_kubectl": summary([it["t"] - t for t, it, _ in seen]),
        "store_to_screen": summary([s - it["t"] for _, it, s in seen]),
        "file_to_verdict": summary([f["tutor_s"] for f in per_file if f["tutor_s"] is not None]),
        "files": per_file,
        "pod_changes_matched": len(behind), "pod_changes_printed": len(kubectl.printed),
        # the tail, to say where it comes from: the slowest pod changes, with when they came
        # and the phases (tests/bench/screen_timing.py) of the refresh whose frame showed it
        "slowest": [{"pod": it["name"], "behind_ms": round((s - t) * 1000, 1),
                     "store_to_screen_ms": round((s - it["t"]) * 1000, 1), "at_s": round(t - start, 2),
                     "phases_ms": dict(zip(PHASES, (tutor.frame_for(it["i"]) or {}).get("phases_ms") or ()))}
                    for t, it, s in sorted(seen, key=lambda x: x[2] - x[0], reverse=True)[:8]],
        "tutor_stats": stats,
    }


def run() -> dict:
    from tests.bench.lab_run import bench_lab
    from tests.e2e.learner import Learner, walkthrough

    t0 = time.monotonic()
    with bench_lab() as lab:
        res: dict = {"lab_start_s": time.monotonic() - t0, "real_node": lab.real_node}
        with tempfile.TemporaryDirectory(prefix="gsb-lws-") as tmp:
            t1 = time.monotonic()
            res.update(measure(lab, Path(tmp), Learner, walkthrough))
            res["walkthrough_s"] = time.monotonic() - t1
    return res


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))

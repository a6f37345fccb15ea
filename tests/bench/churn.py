"""Side by side on the real lab control plane: 1,000 pods churned (an LWS scaled up, then down),
consumed at the same time by the tutor (its live source, store and headless app, in a child
process) and by `kubectl get pods -w -o json` (the lab's kubectl, same Kubernetes version).

For each consumer, the time from the scale command until it has seen the final state:
  up:   every pod of the LWS (replicas x size) Running, none terminating;
  down: no pod of the LWS left.

The tutor runs with the pane-vs-store oracle on (tests/bench/churn_tutor.py): its stats carry the
checks and the mismatches, and each mismatch is dumped to a JSON-lines file per tutor in a
directory of its own (OracleDumps), which outlives the lab and is kept only when one was found.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

LWS = "churn"
MARKER = "bench-marker"
NS = "infer"
LAB_ARGS = dict(
    kcm_args=("--kube-api-qps=400", "--kube-api-burst=800", "--concurrent-statefulset-syncs=20"),
    scheduler_args=("--kube-api-qps=400", "--kube-api-burst=800"),
    kwok_pods=2000,
    node="kwok",  # 1,000 pods on KWOK nodes: the real node would only slow the lab's start
)


def lws_manifest(replicas: int, size: int) -> dict:
    pod = {"metadata": {"labels": {"bench": "churn"}},
           "spec": {"containers": [{"name": "c", "image": "busybox:1.36"}],
                    "nodeSelector": {"type": "kwok"},
                    "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}]}}
    return {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
            "metadata": {"name": LWS, "namespace": NS},
            "spec": {"replicas": replicas, "leaderWorkerTemplate": {"size": size, "workerTemplate": pod}}}


def marker_pod() -> dict:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": MARKER, "namespace": NS},
            "spec": {"containers": [{"name": "c", "image": "busybox:1.36"}], "nodeSelector": {"type": "kwok"},
                     "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}]}}


class KubectlWatch:
    """`kubectl get pods -w -o json --output-watch-events`, read in a thread of this process;
    notes (wall clock) when the stream first shows each target state. kubectl ends when the API
    server closes its watch (as it does to a watcher that falls behind); it is then started again,
    as a person would, and the restarts are counted."""

    def __init__(self, lab, want: int):
        self.lab, self.want = lab, want
        self.pods: dict[str, bool] = {}
        self.marker_seen = threading.Event()
        self.phase = "wait-up"
        self.times: dict[str, float] = {}
        self.events = 0
        self.restarts = 0
        self.proc: subprocess.Popen | None = None
        self._stop = threading.Event()
        self.log = lab.logs / "kubectl-watch.log"
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            with open(self.log, "ab") as err:
                self.proc = subprocess.Popen(
                    [str(self.lab.bin / "kubectl"), "--kubeconfig", str(self.lab.kubeconfig), "get", "pods",
                     "-n", NS, "-w", "-o", "json", "--output-watch-events"],
                    stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL, text=True, bufsize=1 << 16)
            self.pods.clear()  # kubectl lists again first
            self._read(self.proc.stdout)
            self.proc.wait()
            if not self._stop.is_set():
                self.restarts += 1

    def _read(self, stream) -> None:
        buf: list[str] = []
        for line in stream:
            # With --output-watch-events kubectl prints one event per line; without, indented JSON.
            buf.append(line)
            try:
                ev = json.loads("".join(buf))
            except json.JSONDecodeError:
                continue
            buf.clear()
            self.events += 1
            obj = ev.get("object") or {}
            # kubectl prints its initial list as one event whose object is a List (1.37, with
            # --output-watch-events); its items are the pods as they stand.
            for item in (obj.get("items") or []) if obj.get("kind", "").endswith("List") else [obj]:
                self._see(ev.get("type"), item)

    def _see(self, type_: str, obj: dict) -> None:
        meta = obj.get("metadata") or {}
        name = meta.get("name", "")
        if name == MARKER:
            self.marker_seen.set()
        if (meta.get("labels") or {}).get("leaderworkerset.sigs.k8s.io/name") != LWS:
            return
        if type_ == "DELETED":
            self.pods.pop(name, None)
        else:
            self.pods[name] = (obj.get("status") or {}).get("phase") == "Running" and not meta.get("deletionTimestamp")
        if self.phase == "wait-up" and len(self.pods) == self.want and all(self.pods.values()):
            self.times["up"] = time.time()
            self.phase = "wait-down"
        elif self.phase == "wait-down" and not self.pods:
            self.times["down"] = time.time()
            self.phase = "done"

    def stop(self) -> None:
        self._stop.set()
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.thread.join(10)


class ChildReports:
    """A child process that prints JSON lines ({"event": ...}) and ends when its stdin closes;
    a thread hands each report to `take`, and the last report of each event is kept."""

    def __init__(self, cmd: list[str]):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     env={**os.environ, "KUBECONFIG": ""})
        self.reports: dict[str, dict] = {}
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def take(self, rep: dict) -> None:
        """More for a report than keeping the last of its kind (a subclass's)."""

    def _read(self) -> None:
        for line in self.proc.stdout:
            try:
                rep = json.loads(line)
            except json.JSONDecodeError:
                continue
            self.take(rep)
            self.reports[rep["event"]] = rep

    def dump(self, timeout: float = 30) -> dict | None:
        """What the child holds now (it answers SIGUSR1 with a "dump" report), or None."""
        import signal

        self.reports.pop("dump", None)
        self.proc.send_signal(signal.SIGUSR1)
        wait(lambda: "dump" in self.reports, timeout, "the tutor's dump")
        return self.reports.pop("dump", None)

    def stop(self) -> dict:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.thread.join(5)
        return self.reports.get("stats", {})


class TutorChild(ChildReports):
    def __init__(self, lab, want: int, naive: bool, stall: bool = False, oracle_dump: Path | None = None):
        super().__init__([sys.executable, "-m", "tests.bench.churn_tutor", "--kubeconfig", str(lab.kubeconfig),
                          "--pods", str(want)] + (["--naive"] if naive else []) + (["--stall"] if stall else [])
                         + (["--oracle-dump", str(oracle_dump)] if oracle_dump else []))


class OracleDumps:
    """Where the tutors' oracles dump their mismatches, a file per tutor: not the lab's logs,
    which go with the lab. The directory is removed at the end when no tutor found any."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="lwstutor-oracle-"))

    def file(self, name: str) -> Path:
        return self.dir / f"{name}.jsonl"

    def close(self) -> None:
        if not any(self.dir.iterdir()):
            self.dir.rmdir()


def oracle_figures(stats: dict) -> dict:
    """A tutor's oracle, from its stats: checks, mismatches, and where they were dumped."""
    out = {"checks": stats.get("oracle_checks"), "mismatches": stats.get("oracle_mismatches")}
    for key in ("oracle_dump", "oracle_last_check"):
        if key in stats:
            out[key.removeprefix("oracle_")] = stats[key]
    return out


def wait(cond, timeout: float, what: str) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.05)
    print(f"  (timed out after {timeout:.0f}s waiting for {what})", file=sys.stderr)
    return False


def tutor_reached(tutor: "TutorChild", phase: str, timeout: float, out: dict) -> bool:
    """Waits for the tutor to show `phase`; on a timeout, asks it for a dump first (the inbox,
    the pump, each watch's resourceVersion and last event, the store against a fresh list),
    prints it and keeps it in `out["stall"]`, so a stall explains itself."""
    if wait(lambda: phase in tutor.reports, timeout, f"the tutor to see {phase}"):
        return True
    dumped = tutor.dump()
    out["stall"] = {"phase": phase, "waited_s": timeout, "dump": dumped}
    print(f"  the tutor's dump: {json.dumps(dumped)}", file=sys.stderr, flush=True)
    return False


def cycle(lab, replicas: int, size: int, naive: bool, timeout: float, slack: float, stall: bool = False,
          oracle_dump: Path | None = None) -> dict:
    """One churn (up, then down) watched by kubectl and by a tutor; returns the times (and, when
    the tutor never showed a phase, its dump) and its oracle's figures. `stall` injects one
    (churn_tutor --stall)."""
    want = replicas * size
    tutor = TutorChild(lab, want, naive, stall, oracle_dump)
    kubectl = KubectlWatch(lab, want)
    out: dict = {"naive": naive, "pods": want}
    try:
        if not wait(lambda: "ready" in tutor.reports and kubectl.marker_seen.is_set(), 120, "both consumers"):
            raise RuntimeError(f"consumers did not start: tutor {list(tutor.reports)}, "
                               f"kubectl saw the marker: {kubectl.marker_seen.is_set()}")
        for phase, n in (("up", replicas), ("down", 0)):
            t0 = time.time()
            lab.kubectl("apply", "-f", "-", input=json.dumps(lws_manifest(n, size)))
            wait(lambda: phase in kubectl.times, timeout, f"kubectl to see {phase}")
            if naive:
                wait(lambda: phase in tutor.reports, slack, f"the naive tutor to see {phase}")
            elif not tutor_reached(tutor, phase, timeout, out):
                break  # a stall: its dump says why; waiting out the next phase would tell nothing more
            k = kubectl.times.get(phase)
            rep = tutor.reports.get(phase, {})
            out[phase] = {
                "kubectl_s": k - t0 if k else None,
                "tutor_store_s": rep["store_t"] - t0 if rep else None,
                "tutor_screen_s": rep["screen_t"] - t0 if rep else None,
            }
            if not rep:  # the naive tutor never got there: let the cluster finish for the next phase
                wait(lambda: phase in kubectl.times, timeout, "kubectl")
        out["kubectl_events"] = kubectl.events
        out["kubectl_restarts"] = kubectl.restarts
    finally:
        kubectl.stop()
        out["tutor_stats"] = tutor.stop()
        out["oracle"] = oracle_figures(out["tutor_stats"])
    return out


def run(replicas: int = 500, size: int = 2, naive_replicas: int = 100, timeout: float = 420,
        naive_slack: float = 60) -> dict:
    """The design at `replicas` x `size`; then, if naive_replicas, the naive baseline on a smaller
    churn (a second 1,000-pod churn would not fit the bench's time on 2 cores)."""
    from tests.bench.lab_run import bench_lab

    t0 = time.monotonic()
    dumps = OracleDumps()
    try:
        with bench_lab(**LAB_ARGS) as lab:
            res: dict = {"lab_start_s": time.monotonic() - t0, "replicas": replicas, "size": size}
            lab.kubectl("apply", "-f", "-", input=json.dumps(marker_pod()))
            res["design"] = cycle(lab, replicas, size, naive=False, timeout=timeout, slack=timeout,
                                  oracle_dump=dumps.file("design"))
            if naive_replicas:
                res["naive"] = cycle(lab, naive_replicas, size, naive=True, timeout=timeout, slack=naive_slack,
                                     oracle_dump=dumps.file("naive"))
    finally:
        dumps.close()
    return res


if __name__ == "__main__":
    r = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    print(json.dumps(run(replicas=r, naive_replicas=0 if "--no-naive" in sys.argv else 100), indent=1))

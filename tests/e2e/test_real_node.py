"""The tutor under real kubelet behaviour, on the lab's real node `lab-server`.

A live session (the same Session the TUI drives) watches the cluster beside the scripted learner
and re-runs the step's checker on every change; each verdict is kept with what the pods looked
like at that moment. The tests then judge every verdict of each window: the old leader
Terminating through its grace period (step 5), a container in CrashLoopBackOff (step 1), the
rollout with real grace periods (step 6), and kubelet events in the events pane.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import waits
from tests.e2e.learner import NS, container, lws
from tests.e2e.live_tui import blocking, live_app, states_ok, text_of, until
from tests.e2e.test_live_source import tutor_check
from tutor.checks import evaluate
from tutor.cluster import objects as o
from tutor.cluster.connect import connect
from tutor.cluster.source_events import FileChanged
from tutor.cluster.live import LiveSource
from tutor.lesson.loader import load
from tutor.session import Session

# The old pods' 30 s grace period is what these tests watch: the learner keeps the lab's loop,
# which ignores SIGTERM (tests/e2e/conftest.py gives the other modules one that stops promptly).
GRACE_PERIOD_IS_THE_SUBJECT = True

pytestmark = pytest.mark.usefixtures("real_node")


@dataclass
class Sample:
    t: float
    status: str
    message: str
    details: tuple[str, ...]
    pods: dict  # name -> {uid, phase, terminating, restarts, waiting}


class Watch:
    """A live session beside the learner; every change re-runs one step's checker."""

    def __init__(self, lab, workdir: Path, step: int):
        self.workdir, self.step = workdir, step
        self.session = Session(load(), str(workdir), "en")
        self.q: queue.SimpleQueue = queue.SimpleQueue()
        self.src = LiveSource(connect(str(lab.kubeconfig)).api_client, NS, self.q.put).start()
        self.samples: list[Sample] = []
        self.files: dict[str, str] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _sync_files(self) -> bool:
        changed = False
        for f in self.workdir.iterdir():
            if f.name.startswith(".") or not f.is_file():
                continue
            text = f.read_text()
            if self.files.get(f.name) != text:
                self.files[f.name] = text
                changed |= bool(self.session.changes(FileChanged(f.name, text, time.monotonic())))
        return changed

    def _run(self) -> None:
        while not self._stop.is_set():
            changed = self._sync_files()
            try:
                changed |= self.session.apply(self.q.get(timeout=0.2))
            except queue.Empty:
                pass
            if changed:
                v = evaluate(self.session.context(), [self.step])[self.step]
                self.samples.append(Sample(time.monotonic(), v.status.value, v.message, v.details, self._pods()))

    def _pods(self) -> dict:
        out = {}
        for p in self.session.store.all("Pod", NS):
            cs = (o.container_statuses(p) or [{}])[0]
            out[o.name(p)] = {"uid": o.uid(p), "phase": o.phase(p), "terminating": o.is_terminating(p),
                              "restarts": o.restart_count(p),
                              "waiting": o.as_dict(o.dig(cs, "state", "waiting")).get("reason", "")}
        return out

    def until(self, what: str, cond, timeout: float = waits.loaded(8)) -> Sample:  # a real kubelet's restarts
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for s in list(self.samples):
                if cond(s):
                    return s
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for {what}; last: {self.samples[-1:]}")

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        self.src.stop()
        self.src.join()


@pytest.fixture
def watch(lab, learner):
    made = []

    def start(step: int) -> Watch:
        w = Watch(lab, learner.workdir, step)
        made.append(w)
        return w
    yield start
    for w in made:
        w.stop()


def fresh(learner) -> None:
    learner.reset()
    for f in learner.workdir.iterdir():
        f.unlink()


def test_the_literal_commands_answer_from_real_containers(lab, learner):
    fresh(learner)
    learner.step1()
    env = learner.step3()  # kubectl exec llm-1-1 -- env | grep ^LWS_
    spec = {e["name"]: e.get("value") for e in learner.pod("llm-1-1")["spec"]["containers"][0]["env"]}
    lines = dict(line.split("=", 1) for line in env.splitlines())
    assert lines["LWS_LEADER_ADDRESS"] == "llm-1.llm.infer" and lines["LWS_WORKER_INDEX"] == "1"
    assert lines == {k: v for k, v in spec.items() if k.startswith("LWS_")}
    dns = learner.step4()  # kubectl exec llm-1-1 -- nslookup llm-1.llm.infer.svc.cluster.local
    assert "10.43.0.10" in dns and learner.pod("llm-1")["status"]["podIP"] in dns, dns
    short = learner.nslookup("llm-1")
    assert "NXDOMAIN" in short, short
    steps = tutor_check(lab, learner.workdir, "--step", "3", "--step", "4")[1]
    assert steps[3]["status"] == steps[4]["status"] == "pass", steps


def test_step5_real_restart_through_the_old_leaders_grace_period(lab, learner, watch):
    fresh(learner)
    learner.step1()
    g0, g1 = learner.uids()
    learner.write_restart(g0, g1)
    w = watch(5)
    w.until("restart.txt read", lambda s: "restart.txt is ready" in s.message)
    t_fail = time.monotonic()
    learner.fail_worker()  # the real `kubectl exec llm-0-1 -- touch /tmp/fail`
    final = w.until("step 5 passes", lambda s: s.status == "pass")
    # The real container's exit, as the tutor saw it: exit code 1, restart count 1.
    seen = [r for r in w.session.store.obs.restarts if r.pod == "llm-0-1"]
    assert seen and seen[0].exit_code == 1 and seen[0].count == 1, seen
    assert "exit code 1" in " ".join(final.details) or "RecreateGroup" in " ".join(final.details), final
    window = [s for s in w.samples if t_fail <= s.t < final.t]
    old_leader_terminating = [s for s in window if s.pods.get("llm-0", {}).get("uid") == g0
                              and s.pods["llm-0"]["terminating"]]
    assert old_leader_terminating, "the old leader was never seen Terminating"
    gone = next(s.t for s in window + [final] if s.pods.get("llm-0", {}).get("uid") != g0)
    # The `sh -c` loop ignores SIGTERM: the kubelet waits the 30 s grace period before killing it.
    assert gone - old_leader_terminating[0].t > 20, gone - old_leader_terminating[0].t
    for s in window:
        assert s.status in ("waiting", "pass"), (s.status, s.message, s.pods)
        assert s.status != "pass", ("passed before group 0 was back", s.pods)
        acted = s.pods.get("llm-0-1", {}).get("restarts", 0) > 0 or s.pods.get("llm-0", {}).get("uid") != g0 \
            or s.pods.get("llm-0", {}).get("terminating")
        if acted:  # never tell the learner to do what they have just done
            assert "touch /tmp/fail" not in s.message, (s.message, s.pods)
    for s in old_leader_terminating:
        assert "Terminating" in s.message and "grace period" in s.message, s.message
    assert learner.uids()[1] == g1


def test_a_worker_that_exits_at_once_is_never_a_pass(lab, learner, watch):
    """A worker whose command ends at once (its test is the wrong way round). The kubelet
    restarts the container (exit code 1), LWS recreates the group on that first restart, the old
    leader waits out its grace period, and round it goes. Phase stays Running on the pods
    throughout; step 1 must never pass, and while old pods terminate it must say why.

    LWS recreates the group at the first restart, before the kubelet's back-off, so on LWS
    pods CrashLoopBackOff does not show here; pods_running's CrashLoopBackOff fail is covered by
    the unit tests. Known limit, not asserted: right after a recreation the new containers are
    reported running before the worker exits, a state a checker of the present cannot tell from a
    healthy start."""
    fresh(learner)
    broken = container("worker")
    broken["command"] = ["sh", "-c", "while [ -f /tmp/fail ]; do sleep 1; done; exit 1"]
    w = watch(1)
    learner.apply(lws("llm", 2, container("leader"), broken), "lws.yaml")
    w.until("the group recreated after a real restart", lambda s: w.session.store.obs.recreations("llm-0") >= 1,
            timeout=waits.loaded(5))
    seen = [r for r in w.session.store.obs.restarts if r.pod.endswith("-1")]
    assert seen and all(r.exit_code == 1 for r in seen), seen
    down = [s for s in w.samples if any(
        n.endswith("-1") and (p["waiting"] or p["restarts"] > 0) for n, p in s.pods.items())
        or any(p["terminating"] for p in s.pods.values())]
    assert down
    for s in down:
        assert s.status != "pass", (s.message, s.pods)
        for n, p in s.pods.items():
            if p["terminating"] and n not in {o for o, q in s.pods.items() if not q["terminating"]}:
                assert any(f"{n} is Terminating" in d and "grace period" in d for d in s.details), s.details
    reasons = lab.kubectl("get", "events", "-n", NS, "-o", "jsonpath={.items[*].reason}").stdout.split()
    assert "Killing" in reasons and "Started" in reasons, reasons  # the kubelet's own events


def test_step6_rollout_with_real_grace_periods(lab, learner, watch):
    fresh(learner)
    learner.step1()
    w = watch(6)
    start = time.monotonic()
    learner.step6()  # VERSION=v2 in both templates; waits until every pod runs the new template
    took = time.monotonic() - start
    final = w.until("step 6 passes", lambda s: s.status == "pass")
    assert took > 25, f"a rollout through 30 s grace periods took only {took:.0f}s"
    for s in w.samples:
        if s is final or s.t >= final.t:
            continue
        assert s.status in ("waiting", "fail"), (s.status, s.message)
        if any(p["terminating"] for p in s.pods.values()):
            assert s.status == "waiting", (s.message, s.pods)
            assert any("grace period" in d for d in s.details), s.details  # why it takes 30 s
    assert all(s.status == "pass" for s in w.samples if s.t >= final.t)


async def test_kubelet_events_fill_the_events_pane(lab, learner, tmp_path):
    fresh(learner)
    app = live_app(lab.kubeconfig, learner.workdir, tmp_path / "progress.json")
    async with app.run_test(size=(120, 50)) as pilot:
        await until(pilot, lambda: states_ok(app), "every watch connected")
        await blocking(learner.step1)
        await blocking(learner.exec, "llm-0-1", "touch", "/tmp/fail")
        await until(pilot, lambda: all(r in text_of(app, "#events") for r in ("Pulled", "Created", "Started")),
                    "kubelet events Pulled, Created, Started")
        await until(pilot, lambda: "Killing" in text_of(app, "#events"), "the kubelet's Killing event")

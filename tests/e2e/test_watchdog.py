"""The live source's watchdog on the real control plane: a watch that goes silent while the API
server answers is found, dropped and listed again, well before the client's read timeout, and the
header says so meanwhile."""

from __future__ import annotations

import json
import queue
import time

import yaml

from tests.e2e.freezing_proxy import FreezingProxy
from tests.e2e.learner import NS
from tutor.cluster import objects as o
from tutor.cluster.connect import connect
from tutor.cluster.source_events import Conn, SourceState
from tutor.cluster.live import READ_TIMEOUT, LiveSource
from tutor.lesson.loader import load
from tutor.narration.failures import sentence
from tutor.session import Session

CHECK_EVERY = 2.0


def proxied_kubeconfig(lab, port: int, tmp_path):
    cfg = yaml.safe_load(lab.kubeconfig.read_text())
    for cluster in cfg["clusters"]:
        cluster["cluster"]["server"] = f"https://127.0.0.1:{port}"
    path = tmp_path / "proxied.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return path


def a_pod(name: str) -> dict:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": NS},
            "spec": {"containers": [{"name": "c", "image": "busybox:1.36"}], "nodeSelector": {"type": "kwok"},
                     "tolerations": [{"key": "kwok.x-k8s.io/node", "operator": "Exists", "effect": "NoSchedule"}]}}


def test_a_silenced_watch_is_found_and_listed_again(lab, tmp_path):
    proxy = FreezingProxy(lab.ports["apiserver"])
    q: queue.SimpleQueue = queue.SimpleQueue()
    session = Session(load(), str(tmp_path), "en")
    src = LiveSource(connect(str(proxied_kubeconfig(lab, proxy.port, tmp_path))).api_client, NS, q.put,
                     check_every=CHECK_EVERY).start()
    seen: list[SourceState] = []

    def drain_until(cond, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                item = q.get(timeout=0.2)
            except queue.Empty:
                item = None
            if isinstance(item, SourceState):
                seen.append(item)
            if item is not None:
                session.apply(item)
            if cond():
                return
        raise AssertionError(f"timed out waiting for {what}: relisted={src.relisted} "
                             f"states={[(s.resource, s.state.value) for s in seen[-8:]]}")

    def have() -> set[str]:
        return {o.name(p) for p in session.store.all("Pod", NS)}

    try:
        drain_until(lambda: len(session.states) == 5 and all(s.state is Conn.OK for s in session.states.values()),
                    60, "every watch listed")
        assert proxy.freeze() >= 5  # the five watches, at least, say nothing more from here
        lab.kubectl("apply", "-f", "-", input=json.dumps(a_pod("watchdog-probe")))
        started = time.monotonic()
        drain_until(lambda: "watchdog-probe" in have(), 60, "the new pod through a relist")
        found_in = time.monotonic() - started
        assert found_in < READ_TIMEOUT / 4, found_in  # the watchdog, not the client's read timeout
        assert src.relisted.get("pods", 0) >= 1
        said = [s for s in seen if s.resource == "pods" and s.state is Conn.RECONNECTING]
        assert said and said[-1].failure.kind == "silent", said
        assert "silent" in sentence(said[-1].failure, "en") and "감시" in sentence(said[-1].failure, "ko")
        drain_until(lambda: session.states["pods"].state is Conn.OK, 30, "pods OK again after the relist")
    finally:
        src.stop()
        src.join()
        proxy.close()
        lab.kubectl("delete", "pod", "watchdog-probe", "-n", NS, "--ignore-not-found", "--grace-period=0", "--force")


def test_a_quiet_watch_that_agrees_is_left_alone(lab, tmp_path):
    """Nothing changes and nothing is silenced: the watchdog looks, agrees, and lists nothing again."""
    q: queue.SimpleQueue = queue.SimpleQueue()
    src = LiveSource(connect(str(lab.kubeconfig)).api_client, NS, q.put, check_every=CHECK_EVERY).start()
    try:
        time.sleep(CHECK_EVERY * 4)
        assert src.relisted == {}
    finally:
        src.stop()
        src.join()

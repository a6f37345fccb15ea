"""The API server killed mid-lesson and started again, on the real control plane, with the TUI up.

While it is down the header says so within seconds and the panes keep the last data, dimmed;
a pod vanishes from etcd meanwhile (a change no watcher can be told about: a pod no controller
owns, so the other components' caches are not left with a same-name pod of another UID). Once the server is
back the tutor reconnects by itself, its store equals a fresh list (no ghost, nothing missing),
verdicts keep following the cluster, and no passed step is lost.
"""

from __future__ import annotations

import time

import pytest

from tests import waits
from tests.e2e.labcluster.lab import etcd_delete, running_lab
from tests.e2e.learner import Learner
from tests.e2e.live_tui import (NS, blocking, header, live_app, states_ok, store_equals_fresh_list, store_pods,
                                table_keys, until)
from tutor.checks.verdict import Status
from tutor.cluster.source_events import Conn
from tutor.progress import Progress


@pytest.fixture(scope="module")
def lab():
    """Its own lab: killing the API server would break every other test's cluster. KWOK-only:
    the faults are the control plane's, not a container's."""
    with running_lab(node="kwok") as the_lab:
        yield the_lab


async def test_apiserver_killed_and_restarted_mid_lesson(lab, tmp_path):
    ln = Learner(lab, tmp_path / "gsb-lws", prompt_stop=True)
    state_file = tmp_path / "progress.json"
    app = live_app(lab.kubeconfig, ln.workdir, state_file)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: states_ok(app), "every watch to be live")
        s = app.session
        await blocking(ln.step1)
        await blocking(ln.step2)
        await until(pilot, lambda: all(n in s.progress.passed for n in (1, 2)), "steps 1 and 2 to pass")
        # A pod no controller owns: deleted behind the tutor's back below, nothing brings it back.
        await blocking(lab.kubectl, "run", "plain", "-n", NS, "--image=busybox:1.36", "--restart=Never")
        await blocking(ln.running, "plain")
        before = await store_equals_fresh_list(pilot, lab, "before the kill")
        assert {n for n, _ in before} == {*ln.LLM_PODS, "plain"}

        # --- the API server dies ------------------------------------------------------------
        t0 = time.monotonic()
        api = await blocking(lab.kill, "kube-apiserver")
        lost = await until(pilot, lambda: "reconnecting" in header(app) and app.query_one("#live").has_class("-stale"),
                           "the header to show the lost connection")
        print(f"header showed the loss {lost:.1f}s after the kill")
        assert lost < 10, lost  # a few seconds, even on a busy machine
        # The last data stays on screen, dimmed; verdicts and progress are untouched.
        assert store_pods(app) == before and table_keys(app) == {n for n, _ in before}
        assert s.verdicts[1].status is Status.PASS and s.verdicts[2].status is Status.PASS
        # A change no watcher can be told about: the pod vanishes from etcd while no server runs.
        assert await blocking(etcd_delete, lab, f"/registry/pods/{NS}/plain") == 1
        await waits.still(pilot.pause, lambda: "reconnecting" in header(app) and store_pods(app) == before,
                          "the header saying reconnecting, the last data kept", spell=1)
        assert "reconnecting" in header(app) and store_pods(app) == before
        assert sorted(Progress.load(state_file, 8).passed) == [1, 2]

        # --- it comes back with the same port and etcd ---------------------------------------
        await blocking(lab.restart, api)
        t1 = time.monotonic()
        back = await until(pilot, lambda: states_ok(app) and "● live" in header(app)
                           and not app.query_one("#live").has_class("-stale"),
                           "the tutor to reconnect by itself")
        print(f"outage {t1 - t0:.1f}s; reconnected {back:.1f}s after /readyz")
        after = await store_equals_fresh_list(pilot, lab, "after the restart")
        assert after == {(n, u) for n, u in before if n != "plain"}  # no ghost, nothing missing
        assert "plain" not in table_keys(app)

        # --- the lesson goes on: a change after the restart is seen and judged ---------------
        # The lab's kube-scheduler did not always schedule again after its API server came back
        # (3 of 7 runs: the recreated llm-0 stayed Pending with no node and no PodScheduled
        # condition; cause not found). Its recovery is not this test's subject, the tutor's is:
        # it is restarted, as an operator would, and the real one places the pods.
        await blocking(lambda: lab.restart(lab.kill("kube-scheduler")))
        await blocking(ln.step5)
        await until(pilot, lambda: 5 in s.progress.passed, "step 5 to pass after the restart")
        await store_equals_fresh_list(pilot, lab, "after step 5")
        assert s.verdicts[1].status is Status.PASS and s.verdicts[2].status is Status.PASS
        assert all(st.state is Conn.OK for st in s.states.values())
    assert sorted(Progress.load(state_file, 8).passed) == [1, 2, 5]

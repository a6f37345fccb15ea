"""`lwstutor doctor` on the real lab: clean first, then each item broken in turn. Each time the
right item is named, and running the printed fix (where it is a kubectl command) repairs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import waits
from tests.e2e.labcluster.lab import install_crds, running_lab, user_kubeconfig
from tests.ui.settle import until

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lab():
    """Its own lab: these tests delete nodes and the CRD, which other tests must not see. KWOK-only:
    doctor reads node objects, and a real node would only make the lab slower to start."""
    with running_lab(node="kwok") as the_lab:
        yield the_lab


@pytest.fixture
def workdir(tmp_path):
    d = tmp_path / "gsb-lws"
    d.mkdir()
    return d


def doctor(lab, workdir, kubeconfig=None):
    res = subprocess.run([sys.executable, "-m", "tutor", "doctor", "--json", "--lang", "en", "--kubeconfig",
                          str(kubeconfig or lab.kubeconfig), "--workdir", str(workdir)],
                         capture_output=True, text=True, timeout=waits.PROCESS, stdin=subprocess.DEVNULL)
    assert res.returncode in (0, 1, 2), res.stderr
    out = json.loads(res.stdout)
    assert ("error" in out) == (res.returncode == 2), out
    assert out["ready"] == (res.returncode == 0)
    return res.returncode, {c["id"]: c for c in out["checks"]}


def run_fix(lab, fix: str) -> None:
    """Runs a printed fix in a shell, with the lab's kubectl first on PATH."""
    env = {**os.environ, "PATH": f"{lab.bin}:{os.environ['PATH']}", "KUBECONFIG": str(lab.kubeconfig)}
    res = subprocess.run(["bash", "-c", fix], env=env, capture_output=True, text=True, timeout=waits.PROCESS, cwd=ROOT)
    assert res.returncode == 0, res.stderr


def broken(checks):
    return sorted(k for k, c in checks.items() if not c["ok"])


def test_clean_lab_is_ready(lab, workdir):
    code, checks = doctor(lab, workdir)
    assert code == 0 and not broken(checks), checks
    assert "v1.37" in checks["cluster"]["title"]


def test_kwok_taint_removed(lab, workdir):
    lab.kubectl("taint", "node", "gpu-a", "kwok.x-k8s.io/node-")
    code, checks = doctor(lab, workdir)
    assert code == 1 and broken(checks) == ["node-gpu-a"]
    assert "no taint kwok.x-k8s.io/node=fake:NoSchedule" in checks["node-gpu-a"]["detail"]
    fix = next(f for f in checks["node-gpu-a"]["fix"] if "taint" in f)
    assert fix == "kubectl taint node gpu-a kwok.x-k8s.io/node=fake:NoSchedule"
    run_fix(lab, fix)
    assert doctor(lab, workdir)[0] == 0


def test_gpu_capacity_missing(lab, workdir):
    lab.kubectl("patch", "node", "lab-server", "--subresource=status", "--type=merge", "-p",
                json.dumps({"status": {"capacity": {"nvidia.com/gpu": None}, "allocatable": {"nvidia.com/gpu": None}}}))
    code, checks = doctor(lab, workdir)
    assert code == 1 and broken(checks) == ["gpu-node"]
    assert "lab-server has 0" in checks["gpu-node"]["detail"]
    run_fix(lab, checks["gpu-node"]["fix"][0])
    assert doctor(lab, workdir)[0] == 0


def test_kwok_node_absent(lab, workdir):
    lab.kubectl("delete", "node", "gpu-b")
    code, checks = doctor(lab, workdir)
    assert code == 1 and broken(checks) == ["node-gpu-b"] and "missing" in checks["node-gpu-b"]["title"]
    run_fix(lab, checks["node-gpu-b"]["fix"][0])  # the printed YAML, applied as printed
    lab.wait_for("gpu-b Ready", lambda: doctor(lab, workdir)[0] == 0, timeout=waits.LAB)


def test_lws_crd_absent(lab, workdir):
    lab.kubectl("delete", "crd", "leaderworkersets.leaderworkerset.x-k8s.io")
    try:
        code, checks = doctor(lab, workdir)
        assert code == 1 and "lws-crd" in broken(checks)
        assert "not installed" in checks["lws-crd"]["title"]
        assert any("kubectl get crd leaderworkersets.leaderworkerset.x-k8s.io" in f for f in checks["lws-crd"]["fix"])
    finally:
        install_crds(lab)  # the printed fix downloads from GitHub, which these machines cannot reach
    lab.wait_for("CRD back", lambda: doctor(lab, workdir)[0] == 0, timeout=waits.LAB)


def test_which_lws_runs_and_never_an_older_one_as_the_fix(lab, workdir):
    """The lab's LWS runs outside the cluster: nothing in it says which, and doctor says so. A
    controller Deployment in lws-system names its image; a newer one than the tests cover is a
    warning (the lab stays ready), and a missing CRD is then fixed with that release's manifests,
    never the older one the tests run. The CRD's Helm version label tells the same."""
    code, checks = doctor(lab, workdir)
    assert code == 0 and checks["lws-version"]["warn"] and "not visible" in checks["lws-version"]["title"]
    controller = {"apiVersion": "apps/v1", "kind": "Deployment",
                  "metadata": {"name": "lws-controller-manager", "namespace": "lws-system"},
                  "spec": {"replicas": 0, "selector": {"matchLabels": {"app": "lws"}}, "template": {
                      "metadata": {"labels": {"app": "lws"}},
                      "spec": {"containers": [{"name": "manager", "image": "registry.k8s.io/lws/lws:v0.10.0"}]}}}}
    lab.kubectl("create", "namespace", "lws-system")
    try:
        lab.kubectl("apply", "-f", "-", input=json.dumps(controller))
        code, checks = doctor(lab, workdir)
        assert code == 0, broken(checks)
        found = checks["lws-version"]
        assert found["warn"] and "LWS v0.10.0 runs (from the controller's image); the tests cover v0.9.0" == found["title"]
        lab.kubectl("delete", "crd", "leaderworkersets.leaderworkerset.x-k8s.io")
        try:
            code, checks = doctor(lab, workdir)
            fixes = " ".join(checks["lws-crd"]["fix"])
            assert code == 1 and "download/v0.10.0/manifests.yaml" in fixes and "v0.9.0" not in fixes, fixes
        finally:
            install_crds(lab)
    finally:
        lab.kubectl("delete", "namespace", "lws-system", "--wait=true", timeout=120)
    lab.wait_for("CRD back", lambda: doctor(lab, workdir)[0] == 0, timeout=waits.LAB)
    crd = "crd/leaderworkersets.leaderworkerset.x-k8s.io"
    lab.kubectl("label", crd, "app.kubernetes.io/version=0.9.0")
    try:
        code, checks = doctor(lab, workdir)
        assert code == 0 and not checks["lws-version"]["warn"]
        assert checks["lws-version"]["title"] == "LWS v0.9.0 runs (from the CRD's version label)"
    finally:
        lab.kubectl("label", crd, "app.kubernetes.io/version-")


def test_rbac_denied_then_granted_by_the_shipped_role(lab, workdir):
    kubeconfig = user_kubeconfig(lab, "learner")
    code, checks = doctor(lab, workdir, kubeconfig)
    # Not even pods may be listed: the tutor could show nothing, which is an error (exit 2).
    assert code == 2 and "access" in broken(checks)
    assert "list pods" in checks["access"]["detail"] and "watch leaderworkersets" in checks["access"]["detail"]
    run_fix(lab, "kubectl apply -f deploy/rbac.yaml")
    code, checks = doctor(lab, workdir, kubeconfig)
    assert code == 0, broken(checks)


def test_namespace_and_workdir_missing(lab, tmp_path):
    missing = tmp_path / "nope" / "gsb-lws"
    lab.kubectl("delete", "namespace", "infer", "--wait=true", timeout=120)
    code, checks = doctor(lab, missing)
    assert code == 1 and broken(checks) == ["namespace", "workdir"]
    for item in ("namespace", "workdir"):
        run_fix(lab, checks[item]["fix"][0])
    assert doctor(lab, missing)[0] == 0


async def test_tui_shows_lab_problems_in_one_dismissible_panel(lab, workdir):
    """At start-up on a live cluster the same checks run in the background."""
    import asyncio
    from functools import partial

    from tutor.cluster.connect import connect
    from tutor.commands.tui import start_live
    from tutor.lesson.loader import load
    from tutor.session import Session
    from tutor.ui.app import TutorApp
    from tutor.ui.widgets.doctor_panel import DoctorPanel

    lab.kubectl("label", "node", "gpu-b", "type-")
    try:
        conn = connect(str(lab.kubeconfig))
        app = TutorApp(Session(load(), str(workdir), "en"), context=conn.context,
                       start_sources=partial(start_live, conn.api_client, poll=False))
        async with app.run_test(size=(100, 40)) as pilot:
            panel = app.query_one(DoctorPanel)
            await until(pilot, lambda: panel.display, "the lab check panel", waits.LAB)
            text = str(panel.query_one("#doctor-body").render())
            assert "gpu-b" in text and "kubectl label node gpu-b type=kwok --overwrite" in text
            assert "gpu-a" not in text  # only the problems, not a wall of every check
            assert app.session.states["pods"].state.value == "ok"  # the watches run beside it
            await pilot.press("x")
            assert not panel.display
            await asyncio.sleep(0)
    finally:
        lab.kubectl("label", "node", "gpu-b", "type=kwok", "--overwrite")

"""Read-only proof on the real control plane.

The tutor runs as `learner`, a client-certificate user bound only to the shipped ClusterRole
(deploy/rbac.yaml: get/list/watch), while the scripted learner works as the lab admin: every
feature works. With events taken away, only the events pane says so and the rest stays live.
With the LWS CRD taken away, the LWS pane says LWS is not installed and how to check. The API
server's audit log, which records every request these users make, holds only reads.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests import waits
from tests.e2e.labcluster.lab import install_crds, running_lab, user_kubeconfig
from tests.e2e.learner import Learner
from tests.e2e.live_tui import (NS, RESOURCES, blocking, header, live_app, states_ok, store_equals_fresh_list,
                                table_keys, text_of, until)
from tutor.checks.verdict import Status
from tutor.cluster.source_events import Conn

ROOT = Path(__file__).resolve().parents[2]
RBAC = ROOT / "deploy" / "rbac.yaml"
CRD = "leaderworkersets.leaderworkerset.x-k8s.io"
USERS = ("learner", "learner-noevents", "learner-ns")
AUDIT_POLICY = {"apiVersion": "audit.k8s.io/v1", "kind": "Policy", "omitStages": ["RequestReceived"],
                "rules": [{"level": "Metadata", "users": list(USERS)}, {"level": "None"}]}
# SelfSubjectAccessReview (`kubectl auth can-i`, used by doctor) is answered, never stored.
READ_VERBS = {"get", "list", "watch"}


@pytest.fixture(scope="module")
def audit_log(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("audit")
    (d / "policy.yaml").write_text(yaml.safe_dump(AUDIT_POLICY))
    return d / "audit.log"


@pytest.fixture(scope="module")
def lab(audit_log):
    """Its own lab: it records an audit log, and the CRD is deleted here."""
    with running_lab(apiserver_args=(f"--audit-policy-file={audit_log.parent / 'policy.yaml'}",
                                     f"--audit-log-path={audit_log}", "--audit-log-maxbackup=1"),
                     node="kwok") as the_lab:  # what the tutor may call, not what a container does
        yield the_lab


@pytest.fixture(scope="module")
def learner(lab, tmp_path_factory) -> Learner:
    ln = Learner(lab, tmp_path_factory.mktemp("gsb-lws"), prompt_stop=True)
    yield ln
    ln.reset()


@pytest.fixture(scope="module")
def reader(lab) -> Path:
    """The learner's kubeconfig, bound by the shipped deploy/rbac.yaml as a lab operator applies it."""
    lab.kubectl("apply", "-f", str(RBAC))
    return user_kubeconfig(lab, "learner")


def without_events(lab) -> Path:
    """The shipped role minus events, bound to a second user."""
    docs = list(yaml.safe_load_all(RBAC.read_text()))
    for doc in docs:
        doc["metadata"]["name"] = "lwstutor-reader-noevents"
        if doc["kind"] == "ClusterRole":
            for rule in doc["rules"]:
                rule["resources"] = [r for r in rule["resources"] if r != "events"]
            assert not any("events" in r["resources"] for r in doc["rules"])
        else:
            doc["roleRef"]["name"] = "lwstutor-reader-noevents"
            doc["subjects"][0]["name"] = "learner-noevents"
    lab.kubectl("apply", "-f", "-", input=yaml.safe_dump_all(docs))
    return user_kubeconfig(lab, "learner-noevents")


def can_i(lab, user: str, verb: str, resource: str) -> bool:
    res = lab.kubectl("auth", "can-i", verb, resource, "-n", NS, "--as", user, check=False)
    return res.stdout.strip() == "yes"


def tutor_cli(kubeconfig: Path, workdir: Path, *args: str) -> tuple[int, dict]:
    res = subprocess.run([sys.executable, "-m", "tutor", *args, "--json", "--kubeconfig", str(kubeconfig),
                          "--workdir", str(workdir)], capture_output=True, text=True, timeout=waits.PROCESS,
                         stdin=subprocess.DEVNULL, env={**os.environ, "KUBECONFIG": ""})
    assert res.returncode in (0, 1, 3), res.stderr
    return res.returncode, json.loads(res.stdout)


def doctor_checks(kubeconfig: Path, workdir: Path) -> tuple[int, dict]:
    code, out = tutor_cli(kubeconfig, workdir, "doctor", "--lang", "en")
    return code, {c["id"]: c for c in out["checks"]}


async def test_every_feature_works_as_the_read_only_user(lab, learner, reader, tmp_path):
    assert can_i(lab, "learner", "watch", "pods")
    for verb, resource in (("create", "pods"), ("delete", "pods"), ("patch", "leaderworkersets"),
                           ("update", "statefulsets"), ("create", "events")):
        assert not can_i(lab, "learner", verb, resource), (verb, resource)
    app = live_app(reader, learner.workdir, tmp_path / "progress.json")
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: states_ok(app), "every watch to be live as the read-only user")
        await blocking(learner.step1)
        await blocking(learner.step2)
        await blocking(learner.step3)
        s = app.session
        await until(pilot, lambda: all(n in s.progress.passed for n in (1, 2, 3)), "steps 1-3 to pass")
        await store_equals_fresh_list(pilot, lab, "the read-only user's pods")
        assert table_keys(app) == set(learner.LLM_PODS)
        groups = text_of(app, "#groups")
        assert "llm 2×2" in groups and "group 0" in groups and "group 1" in groups, groups
        await until(pilot, lambda: "pod/llm-" in text_of(app, "#events"), "events about the llm pods")
        assert "● live" in header(app) and "denied" not in header(app)
    code, checks = doctor_checks(reader, learner.workdir)
    assert code == 0, {k: c for k, c in checks.items() if not c["ok"]}
    code, out = tutor_cli(reader, learner.workdir, "check", "--step", "1", "--step", "2", "--step", "3")
    assert code == 0 and [st["status"] for st in out["steps"]] == ["pass"] * 3, out
    # lwstutor why: the shipped role lets it count every namespace's pods on the nodes
    code, out = tutor_cli(reader, learner.workdir, "why", "llm-0")
    assert code == 0 and out["tutor"]["pods_seen"] == "all namespaces" and out["node"] in out["tutor"]["fitting"], out


def test_why_with_one_namespace_of_pods_says_its_view_is_limited(lab, learner, reader):
    """A user who may list pods only in the lesson namespace: `why` counts those and says so."""
    docs = [
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "why-nodes"},
         "rules": [{"apiGroups": [""], "resources": ["nodes"], "verbs": ["list"]}]},
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding", "metadata": {"name": "why-nodes"},
         "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "why-nodes"},
         "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "learner-ns"}]},
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "why-pods", "namespace": NS},
         "rules": [{"apiGroups": [""], "resources": ["pods", "events"], "verbs": ["list"]}]},
        {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": "why-pods", "namespace": NS},
         "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "why-pods"},
         "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "learner-ns"}]},
    ]
    lab.kubectl("apply", "-f", "-", input=yaml.safe_dump_all(docs))
    kubeconfig = user_kubeconfig(lab, "learner-ns")
    code, out = tutor_cli(kubeconfig, learner.workdir, "why", "llm-0", "--lang", "en")
    assert code == 0 and out["tutor"]["pods_seen"] == f"namespace {NS}", out
    assert any(f"namespace {NS} only" in line for line in out["explanation"])


async def test_without_events_the_events_pane_says_so_and_the_rest_stays_live(lab, learner, reader, tmp_path):
    kubeconfig = without_events(lab)
    assert not can_i(lab, "learner-noevents", "list", "events") and can_i(lab, "learner-noevents", "watch", "pods")
    code, checks = doctor_checks(kubeconfig, learner.workdir)  # doctor names exactly what is missing
    assert code == 1 and [k for k, c in checks.items() if not c["ok"]] == ["access"]
    assert checks["access"]["detail"] == "denied: get events, list events, watch events"

    await blocking(learner.running, *learner.LLM_PODS)
    states: list = []
    app = live_app(kubeconfig, learner.workdir, tmp_path / "progress.json", states=states)
    others = [r for r in RESOURCES if r != "events"]
    async with app.run_test(size=(120, 40)) as pilot:
        st = app.session.states
        await until(pilot, lambda: states_ok(app, others) and "events" in st and st["events"].state is Conn.FORBIDDEN,
                    "the other watches live and events forbidden")
        await until(pilot, lambda: "no access to events (forbidden by RBAC)" in text_of(app, "#events"),
                    "the events pane to say it has no access")
        assert "some access denied" in header(app), header(app)
        assert not app.query_one("#live").has_class("-stale")
        assert "llm 2×2" in text_of(app, "#groups")
        # The start-up lab check says the same, with the fix.
        await until(pilot, lambda: app.query_one("#doctor").display, "the lab check panel")
        doctor = text_of(app, "#doctor-body")
        assert "denied: get events, list events, watch events" in doctor and "deploy/rbac.yaml" in doctor, doctor
        # Everything else follows the cluster: group 0 is recreated and the pod pane shows it.
        await blocking(learner.fail_worker)
        await store_equals_fresh_list(pilot, lab, "pods without events access")
        assert "some access denied" in header(app)
        # Access granted while the tutor runs: its next retry picks events up, no restart needed.
        lab.kubectl("create", "clusterrolebinding", "noevents-gets-events", "--clusterrole=lwstutor-reader",
                    "--user=learner-noevents")
        try:
            await until(pilot, lambda: st["events"].state is Conn.OK, "events access to be picked up")
            await until(pilot, lambda: "pod/llm-" in text_of(app, "#events"), "the events pane to fill")
            assert "● live" in header(app) and "denied" not in header(app)
        finally:
            lab.kubectl("delete", "clusterrolebinding", "noevents-gets-events")
    # Between the first 403 and the grant the events watch retried without ever looking like a
    # lost connection: forbidden, then ok; never connecting/reconnecting again.
    seen = [x.state for x in states if x.resource == "events"]
    first = seen.index(Conn.FORBIDDEN)
    assert Conn.OK in seen[first:]
    assert set(seen[first:seen.index(Conn.OK, first)]) == {Conn.FORBIDDEN}, seen
    assert all(x.state in (Conn.CONNECTING, Conn.OK) for x in states if x.resource != "events")


async def test_without_the_lws_crd_the_lws_pane_says_so_and_nothing_crashes(lab, learner, reader, tmp_path):
    await blocking(learner.running, *learner.LLM_PODS)
    app = live_app(reader, learner.workdir, tmp_path / "progress.json")
    async with app.run_test(size=(120, 40)) as pilot:
        st = app.session.states
        await until(pilot, lambda: states_ok(app) and "llm 2×2" in text_of(app, "#groups"), "llm in the LWS pane")
        await blocking(lab.kubectl, "delete", "crd", CRD, "--wait=true", timeout=120)
        try:
            await until(pilot, lambda: st["leaderworkersets"].state is Conn.CRD_MISSING, "LWS seen as not installed")
            await until(pilot, lambda: "LeaderWorkerSet is not installed" in text_of(app, "#groups"),
                        "the LWS pane to say it is not installed")
            groups = text_of(app, "#groups")
            assert f"kubectl get crd {CRD}" in groups, groups
            assert "LeaderWorkerSet not installed" in header(app) and not app.query_one("#live").has_class("-stale")
            assert not app.session.store.all("LeaderWorkerSet", NS)
            # The other panes stay live: the LWS's pods go, a plain pod comes. Whether the garbage
            # collector removes llm's StatefulSets is a race: once the LWS type is gone it can no
            # longer prove their owner absent and leaves them (kubernetes/kubernetes#102641), so
            # the learner deletes whatever is left, and the pods follow their StatefulSets.
            await blocking(lab.kubectl, "delete", "statefulsets", "--all", "-n", NS, "--wait=false")
            await blocking(learner.wait, "llm pods gone", lambda: not learner.get("pods")["items"])
            await blocking(lab.kubectl, "run", "plain", "-n", NS, "--image=busybox:1.36", "--restart=Never")
            await until(pilot, lambda: "plain" in table_keys(app), "a plain pod in the pods pane")
            await store_equals_fresh_list(pilot, lab, "pods without the CRD")
            assert all(st[r].state is Conn.OK for r in RESOURCES if r != "leaderworkersets")
            assert app.is_running and app.session.verdicts[1].status is not Status.PASS
        finally:
            await blocking(install_crds, lab)
        # Reinstalled while the tutor runs: the LWS watch comes back by itself.
        await until(pilot, lambda: st["leaderworkersets"].state is Conn.OK, "LWS back")
        await until(pilot, lambda: "No LeaderWorkerSet in infer yet." in text_of(app, "#groups"), "empty LWS pane")
        assert "● live" in header(app) and "not installed" not in header(app)
    lab.kubectl("delete", "pod", "plain", "-n", NS, "--grace-period=0", "--force", "--wait=true")


def test_the_audit_log_holds_only_reads(lab, learner, reader, audit_log):
    """Everything the tutor did in this module (TUI, check, doctor, as both users) was a read."""
    tutor_cli(reader, learner.workdir, "check")
    tutor_cli(reader, learner.workdir, "doctor")
    events = [json.loads(line) for line in audit_log.read_text().splitlines() if line.strip()]
    mine = [e for e in events if e["user"]["username"] in USERS]
    writes = [(e["user"]["username"], e["verb"], e["requestURI"]) for e in mine
              if e["verb"] not in READ_VERBS
              and not (e["verb"] == "create" and e.get("objectRef", {}).get("resource") == "selfsubjectaccessreviews")]
    assert not writes, writes
    # The log did see the tutor at work: list and watch of everything it shows, by the reader.
    seen = {(e["verb"], e.get("objectRef", {}).get("resource")) for e in mine if e["user"]["username"] == "learner"}
    for res in RESOURCES:
        assert ("list", res) in seen and ("watch", res) in seen, (res, sorted(seen))
    # The shipped role covers every read the tutor makes: the reader was never refused.
    denied = [(e["verb"], e["requestURI"]) for e in mine if e["user"]["username"] == "learner"
              and e.get("responseStatus", {}).get("code") == 403]
    assert not denied, denied

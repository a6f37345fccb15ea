"""Every checker on states from the real lab control plane: pass, each kind of fail, waiting,
and the near misses steps.md lists. Each test asserts the verdict and the message's key words."""

from __future__ import annotations

import pytest

from tests.states import check, event, file_written, final_file, running, state
from tutor.checks import run_checker
from tutor.checks.verdict import Status
from tutor.cluster import objects as o

W = "walkthrough"
PASS, FAIL, WAIT, ERROR = Status.PASS, Status.FAIL, Status.WAITING, Status.ERROR


def assert_verdict(v, status, *words):
    assert v.status is status, v
    text = " ".join((v.message, *v.details))
    for w in words:
        assert w in text, f"{w!r} not in {text!r}"


def assert_not_told(v, *truths):
    """A verdict that does not pass points at the fault, never at the right value."""
    text = " ".join((v.message, *v.details))
    for t in truths:
        assert t not in text, f"{t!r} told in {text!r}"


# --- step 1 -------------------------------------------------------------------------------------

def test_step1_before_anything():
    assert_verdict(check(state(W, stop=file_written("lws.yaml")), 1), FAIL, "lws.yaml", "does not exist")


def test_step1_waits_for_pods():
    s = state(W, after=event("LeaderWorkerSet", "llm", "ADDED"))
    assert_verdict(check(s, 1), WAIT, "Running")


def test_step1_passes():
    assert_verdict(check(state(W, after=running("llm-1-1")), 1), PASS, "two groups", "lab-server")


LWS_YAML = final_file("names-swapped", "lws.yaml")


@pytest.mark.parametrize("edit,words", [
    (lambda y: y.replace("replicas: 2", "replicas: 3"), ["spec.replicas", "3"]),
    (lambda y: y.replace("    size: 2\n", "").replace("spec:\n  replicas: 2", "spec:\n  replicas: 2\n  size: 2"),
     ["size", "under spec.leaderWorkerTemplate"]),
    (lambda y: y.replace("nvidia.com/gpu: 1", "nvidia.com/gpu: 2"), ["limits 2", "exactly 1"]),
    (lambda y: y.replace("/tmp/fail", "/tmp/other"), ["/tmp/fail"]),
    (lambda y: y.replace("RecreateGroupOnPodRestart", "None"), ["restartPolicy", "RecreateGroupOnPodRestart"]),
    (lambda y: y.replace("namespace: infer", "namespace: default"), ["namespace default"]),
    (lambda y: y.replace("name: llm", "name: llm2", 1), ["no LeaderWorkerSet named llm"]),
    (lambda y: y + "\n  bad: [unclosed\n", ["not valid YAML"]),
])
def test_step1_file_near_misses(edit, words):
    s = state("names-swapped", files={"lws.yaml": edit(LWS_YAML)})
    assert_verdict(check(s, 1), FAIL, *words)


def test_step1_worker_template_alone_serves_leaders():
    import yaml
    doc = yaml.safe_load(LWS_YAML)
    del doc["spec"]["leaderWorkerTemplate"]["leaderTemplate"]
    s = state("names-swapped", files={"lws.yaml": "---\n# two docs\n---\n" + yaml.safe_dump(doc)})
    assert_verdict(check(s, 1), PASS)


def test_step1_yaml_alias_bomb_and_tags_are_refused():
    # "billion laughs": 9 levels of 9 references each
    bomb = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi"))
    assert_verdict(check(state(W, files={"lws.yaml": bomb}), 1), FAIL, "aliases")
    tagged = "!!python/object/apply:os.system ['echo hi']\n"
    assert_verdict(check(state(W, files={"lws.yaml": tagged}), 1), FAIL, "not valid YAML")
    deep = "a: " + "[" * 10000 + "]" * 10000 + "\n"
    assert_verdict(check(state(W, files={"lws.yaml": deep}), 1), FAIL, "YAML")


# --- step 2 -------------------------------------------------------------------------------------

def test_step2_passes_and_tolerates_layout():
    s = state(W, after=file_written("names.txt"))
    assert_verdict(check(s, 2), PASS, "group-index")
    messy = "\r\n\r\n  pod=llm-1-1   group=1 worker=1 \r\npod=llm-0 group=0 worker=0\r\n\r\n" \
            "pod=llm-1 group=1 worker=0\r\n\tpod=llm-0-1 group=0\tworker=1\r\n"
    assert_verdict(check(state(W, after=file_written("names.txt"), files={"names.txt": messy}), 2), PASS)


def test_step2_swapped_indexes_name_the_line():
    v = check(state("names-swapped"), 2)
    assert_verdict(v, FAIL, "line 2: neither group= nor worker= of llm-0-1 matches its group-index and worker-index")
    assert_not_told(v, "group-index=0", "worker-index=1")


@pytest.mark.parametrize("text,words", [
    ("pod=llm-0 group=0 worker=0\npod=llm-0-1 group=0 worker=1\npod=llm-1 group=1 worker=0\n", ["llm-1-1 is missing"]),
    ("llm-0 0 0\n", ["line 1", "not in the form"]),
    ("pod=llm-9 group=9 worker=0\n", ["no llm pod named llm-9"]),
    ("pod=llm-0 group=0 worker=0\npod=llm-0 group=0 worker=0\n", ["listed twice"]),
])
def test_step2_near_misses(text, words):
    assert_verdict(check(state(W, after=file_written("names.txt"), files={"names.txt": text}), 2), FAIL, *words)


def test_step2_waits_for_pods():
    s = state(W, stop=file_written("lws.yaml"), files={"names.txt": "pod=llm-0 group=0 worker=0\n"})
    assert_verdict(check(s, 2), WAIT, "four llm pods")


# --- step 3 -------------------------------------------------------------------------------------

def test_step3_passes_with_values_from_the_pod():
    assert_verdict(check(state(W, after=file_written("env.txt")), 3), PASS, "LWS_LEADER_ADDRESS=llm-1.llm.infer",
                   "LWS_GROUP_SIZE=2", "LWS_WORKER_INDEX=1")


def test_step3_other_lines_are_tolerated_with_a_note():
    env = final_file(W, "env.txt")
    s = state(W, after=file_written("env.txt"), files={"env.txt": "HOSTNAME=llm-1-1\n" + env + "PATH=/bin\n"})
    assert_verdict(check(s, 3), PASS, "2 other lines ignored")


@pytest.mark.parametrize("edit,words", [
    (lambda e: e.replace("LWS_WORKER_INDEX=1", "LWS_WORKER_INDEX=0"),
     ["LWS_WORKER_INDEX=0 is not the value llm-1-1's container has"]),
    (lambda e: e.replace("LWS_GROUP_SIZE=2\n", ""), ["LWS_GROUP_SIZE is missing"]),
    (lambda e: e + "LWS_MADE_UP=1\n", ["LWS_MADE_UP is not an env variable"]),
    (lambda e: e.replace("llm-1.llm.infer", "llm-0.llm.infer"), ["LWS_LEADER_ADDRESS=llm-0.llm.infer is not the value"]),
])
def test_step3_wrong_or_missing_lines(edit, words):
    s = state(W, after=file_written("env.txt"), files={"env.txt": edit(final_file(W, "env.txt"))})
    v = check(s, 3)
    assert_verdict(v, FAIL, *words)
    assert_not_told(v, "LWS_WORKER_INDEX=1", "LWS_GROUP_SIZE=2", "llm-1.llm.infer")


# --- step 4 -------------------------------------------------------------------------------------

def test_step4_passes_on_the_leader_ip():
    v = check(state(W, after=file_written("dns.txt")), 4)
    assert_verdict(v, PASS, "IP of leader pod llm-1")


def test_step4_short_name_says_use_the_full_name():
    v = check(state("dns-short-name"), 4)
    assert_verdict(v, FAIL, "NXDOMAIN", "look up the leader's full name", "LWS_LEADER_ADDRESS")
    assert_not_told(v, "llm-1.llm.infer.svc.cluster.local")


def test_step4_address_must_match_whole():
    s = state(W, after=file_written("dns.txt"))
    ip = s.store.get("Pod", "llm-1", "infer")["status"]["podIP"]
    longer = final_file(W, "dns.txt").replace(f"Address: {ip}", f"Address: {ip}5")
    v = check(state(W, after=file_written("dns.txt"), files={"dns.txt": longer}), 4)
    assert_verdict(v, FAIL, "does not contain the current IP of leader pod llm-1", f"addresses found: {ip}5")
    assert_not_told(v, f"{ip} ", f"{ip},", f"{ip})")


# --- step 5 -------------------------------------------------------------------------------------

def test_step5_waits_for_the_failure():
    s = state(W, after=file_written("restart.txt"))
    assert_verdict(check(s, 5), WAIT, "make llm-0-1's container fail", "llm-0-1")


def test_step5_passes_after_group0_is_recreated():
    s = state(W, stop=file_written("wide.yaml"))
    assert_verdict(check(s, 5), PASS, "only group 0", "RecreateGroup", "recreate group 0")


def test_step5_still_passes_after_the_rollout_replaced_llm1():
    """Step 6 gives llm-1 a new UID; the store's history shows it was a new revision, not a recreation."""
    assert_verdict(check(state(W), 5), PASS, "only group 0")


def test_step5_written_after_the_failure():
    assert_verdict(check(state("restart-after-failure"), 5), FAIL, "after the failure")


def test_step5_near_misses():
    s = state(W, after=file_written("restart.txt"))
    text = final_file(W, "restart.txt")
    g0 = text.split("group0_before=")[1].split()[0]
    g1 = text.split("group1_before=")[1].split()[0]
    swapped = f"group0_before={g1}\ngroup1_before={g0}\n"
    assert_verdict(check(state(W, after=file_written("restart.txt"), files={"restart.txt": swapped}), 5), FAIL,
                   "UID of llm-1, not of llm-0")
    assert_verdict(check(state(W, after=file_written("restart.txt"), files={"restart.txt": "group0_before=abc\n"}), 5),
                   FAIL, "group0_before=abc is not a UID")
    assert_verdict(check(state(W, after=file_written("restart.txt"), files={"restart.txt": f"group0_before={g0}\n"}), 5),
                   FAIL, "no group1_before= line")
    del s


# --- step 6 -------------------------------------------------------------------------------------

def test_step6_before_the_change():
    assert_verdict(check(state(W, stop=file_written("lws.yaml", "VERSION")), 6), FAIL, "VERSION=v2")


def test_step6_waits_during_the_rollout():
    s = state(W, after=event("Pod", "llm-1", "DELETED"))
    assert_verdict(check(s, 6), WAIT, "Rolling update in progress", "group 1")


def test_step6_passes():
    assert_verdict(check(state(W, stop=file_written("wide.yaml")), 6), PASS, "new template", "one group at a time")


def test_step6_worker_template_only():
    assert_verdict(check(state("version-worker-only"), 6), FAIL, "leaderTemplate", "no VERSION=v2")


# --- step 7 -------------------------------------------------------------------------------------

def test_step7_passes_one_kwok_node_per_group():
    v = check(state(W, stop=file_written("partial.txt")), 7)
    assert_verdict(v, PASS, "node to itself", "wide-0 →", "gpu-")
    assert {"gpu-a", "gpu-b"} <= set(" ".join(v.details).split())


def test_step7_annotation_on_the_pod_template():
    v = check(state("wrong-annotation"), 7)
    assert_verdict(v, FAIL, "leaderTemplate", "where LWS does not read it", "The step says whose metadata")
    assert_not_told(v, "LeaderWorkerSet's own metadata")


def test_step7_file_without_toleration():
    wide = final_file(W, "wide.yaml")
    no_tol = "\n".join(line for line in wide.splitlines() if "kwok.x-k8s.io/node" not in line)
    v = check(state(W, files={"wide.yaml": no_tol}), 7)
    assert_verdict(v, FAIL, "does not tolerate the KWOK nodes' taint", "spec.taints")
    assert_not_told(v, "kwok.x-k8s.io/node", "fake:NoSchedule")


# --- step 8 -------------------------------------------------------------------------------------

def test_step8_passes_with_the_scheduler_reason():
    assert_verdict(check(state(W), 8), PASS, "gang scheduling", "Insufficient nvidia.com/gpu")


def test_step8_needs_the_file_once_the_worker_is_pending():
    s = state(W, stop=file_written("partial.txt"))
    assert_verdict(check(s, 8), FAIL, "partial.txt")


def test_step8_wrong_reason_says_how_many_clauses_are_missing_not_which():
    s = state(W, files={"partial.txt": "0/3 nodes are available: 2 node(s) had untolerated taint(s).\n"})
    v = check(s, 8)
    assert_verdict(v, FAIL, "1 of the 2 \"<count> <reason>\" clauses of its message are missing",
                   "FailedScheduling event")
    assert_not_told(v, "Insufficient")


def test_step8_reason_with_other_whitespace_passes():
    reason = final_file(W, "partial.txt")
    assert_verdict(check(state(W, files={"partial.txt": "Warning FailedScheduling\n  " + reason.replace(" ", "\n  ")}), 8),
                   PASS)


def test_step8_worker_scheduled_because_llm_was_gone():
    assert_verdict(check(state("orphan-without-llm"), 8), FAIL, "was scheduled", "llm must hold all 4")


# --- every step ---------------------------------------------------------------------------------

@pytest.mark.parametrize("step", range(1, 9))
def test_hostile_answer_file_is_a_clear_fail(step, tmp_path):
    from tutor.workspace.files import read_answer
    s = state(W)
    fifo = tmp_path / "fifo"
    import os
    os.mkfifo(fifo)
    for name in s.lesson.step(step).files:
        s.apply(read_answer(str(fifo), name))
    v = check(s, step)
    if s.lesson.step(step).id == "rollout":  # step 6 judges the live object only
        assert v.status is PASS
    else:
        assert_verdict(v, FAIL, "FIFO")


def test_a_checker_that_raises_gives_error(monkeypatch):
    s = state(W)
    monkeypatch.setattr(s.lesson.step(2).checks(), "check", lambda ctx: 1 / 0)
    v = run_checker(s.lesson.step(2), s.context())
    assert_verdict(v, ERROR, "ZeroDivisionError")


def test_messages_in_korean():
    v = check(state("names-swapped", lang="ko"), 2)
    assert v.status is FAIL and "번째 줄" in v.message


# --- a real kubelet's states, made from a recorded one (the KWOK recordings have no container) ----

def _modified(s, name: str, change) -> None:
    """Applies one MODIFIED event of a recorded pod, changed as a real kubelet would change it."""
    import copy

    from tutor.cluster.source_events import ObjectEvent

    pod = copy.deepcopy(s.store.get("Pod", name, "infer"))
    change(pod)
    pod["metadata"]["resourceVersion"] = str(int(pod["metadata"]["resourceVersion"]) + 100000)
    s.apply(ObjectEvent("MODIFIED", pod, s.store.now))


def _crash_loop(pod):
    cs = pod["status"]["containerStatuses"][0]
    cs["restartCount"] = 3
    cs["state"] = {"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 40s restarting failed container"}}
    cs["lastState"] = {"terminated": {"exitCode": 1, "reason": "Error"}}


def _terminating(pod):
    pod["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z"
    pod["metadata"]["deletionGracePeriodSeconds"] = 30


def test_step1_a_container_in_crashloopbackoff_is_a_fail_though_the_phase_is_running():
    s = state(W, after=running("llm-1-1"))
    _modified(s, "llm-0-1", _crash_loop)
    assert s.store.get("Pod", "llm-0-1", "infer")["status"]["phase"] == "Running"
    assert_verdict(check(s, 1), FAIL, "llm-0-1", "keeps exiting", "exit code 1", "CrashLoopBackOff",
                   "kubectl logs -n infer llm-0-1")


def test_step1_a_restarted_pod_running_again_is_not_a_pass_while_lws_recreates_its_group():
    """The recorded instant the worker shows its restart, before LWS deletes the leader: every
    phase is Running, but RecreateGroupOnPodRestart is about to replace group 0."""
    s = state(W, after=event("Pod", "llm-0-1", where=lambda p: o.restart_count(p) > 0))
    pods = [s.store.get("Pod", n, "infer") for n in ("llm-0", "llm-0-1", "llm-1", "llm-1-1")]
    assert all(o.phase(p) == "Running" and not o.is_terminating(p) for p in pods)
    assert_verdict(check(s, 1), WAIT, "llm-0-1", "restarted", "RecreateGroupOnPodRestart", "recreate group 0")


def test_step5_the_old_leader_terminating_is_a_wait_that_says_why():
    s = state(W, after=file_written("restart.txt"))
    _modified(s, "llm-0", _terminating)
    assert_verdict(check(s, 5), WAIT, "recreating group 0", "llm-0 is Terminating", "grace period (30 s)",
                   "trap 'exit 0' TERM")


def test_step5_after_the_containers_restart_it_no_longer_asks_for_the_touch():
    s = state(W, after=file_written("restart.txt"))
    _modified(s, "llm-0-1", lambda p: p["status"]["containerStatuses"][0].update(restartCount=1))
    v = check(s, 5)
    assert_verdict(v, WAIT, "kubelet restarted it", "LWS is about to recreate group 0")
    assert "touch /tmp/fail" not in v.message


def test_step5_a_deleted_llms_recreation_event_is_not_this_ones():
    """An llm deleted and made again keeps the old one's RecreateGroup event in the namespace;
    with restart.txt written before any failure of this llm, that event is no evidence."""
    import copy

    from tutor.cluster.source_events import ObjectEvent

    done = state(W, stop=file_written("wide.yaml"))  # after step 5: holds the RecreateGroup event
    old = next(e for e in done.store.all("Event", "infer") if e.get("reason") in ("RecreateGroup",
                                                                                 "RecreateGroupOnPodRestart"))
    s = state(W, after=file_written("restart.txt"))
    stale = copy.deepcopy(old)
    stale["metadata"]["name"] += "-earlier"
    stale["involvedObject"]["uid"] = "00000000-0000-0000-0000-000000000001"
    s.apply(ObjectEvent("ADDED", stale, s.store.now))
    assert_verdict(check(s, 5), WAIT, "make llm-0-1's container fail")


def test_the_engine_names_no_lesson_fact_in_its_pod_advice():
    """The `sh -c` loop and /tmp/fail are the LWS lab's (lessons/lws/checks/__init__.py NOTES)."""
    from pathlib import Path

    import tutor.checks.helpers as common
    src = Path(common.__file__).read_text(encoding="utf-8")
    assert "sh -c" not in src and "/tmp/fail" not in src and "sleep 1" not in src

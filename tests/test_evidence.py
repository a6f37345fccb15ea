"""Every verdict earned: the wrong turns recorded on the lab control plane (a typo'd or made-up
UID, both workers failed, group 1 failed right after step 5) never pass step 5, and a tutor or
`check` started late (after step 5, 6 or 8, in the middle of the rollout, after a rollout in which
LWS recreated group 1 itself) passes the steps the learner did right, from what the cluster keeps."""

from __future__ import annotations

import copy

import pytest

from tests.states import check, event, file_written, late, recording, state, started_at
from tutor.checks import run_checker
from tutor.checks.verdict import Status
from tutor.cluster import objects as o
from tutor.cluster.source_events import FileChanged, ObjectEvent
from tutor.cluster.timeline import Kind, timeline
from tutor.lesson.loader import load
from tutor.session import Session

PASS, FAIL, WAIT, UNCONFIRMED = Status.PASS, Status.FAIL, Status.WAITING, Status.UNCONFIRMED


def words_in(v, *words):
    text = " ".join((v.message, *v.details))
    for w in words:
        assert w in text, f"{w!r} not in {text!r}"


def verdicts_over_replay(name: str, step: int = 5):
    """(item time, verdict) after every item that changed something, as the tutor would see."""
    s = Session(load(), "/root/gsb-lws", "en")
    s.store.started_at = started_at(name)
    out = []
    for it in recording(name).items:
        if s.apply(it):
            out.append((it.t, run_checker(s.lesson.step(step), s.context())))
    return out


def first_llm0_uid(name: str) -> str:
    return timeline(state(name).store, "infer").uids("llm-0")[0].uid


# --- wrong turns: a refutable answer never passes ----------------------------------------------

@pytest.mark.parametrize("name", ["uid-typo", "uid-made-up", "both-workers-failed", "leader-failed"])
def test_step5_never_passes_at_any_moment(name):
    assert [t for t, v in verdicts_over_replay(name) if v.passed] == []


@pytest.mark.parametrize("name", ["uid-typo", "uid-made-up"])
@pytest.mark.parametrize("started", ["watching", "late"])
def test_a_wrong_uid_is_refuted_without_naming_the_uid_llm0_really_had(name, started):
    s = state(name)
    v = check(late(s) if started == "late" else s, 5)
    assert v.status is FAIL
    words_in(v, "is not the UID llm-0 had before the failure", "the timeline below shows when")
    assert first_llm0_uid(name) not in " ".join((v.message, *v.details))


def test_both_workers_failed_is_a_fail_that_names_group_1():
    v = check(state("both-workers-failed"), 5)
    assert v.status is FAIL
    words_in(v, "LWS recreated group 1 too", "recreate group 1")


@pytest.mark.parametrize("started", ["watching", "late"])
def test_the_leader_failed_instead_of_llm01_is_a_fail_that_names_it(started):
    """`kubectl exec llm-0 -- touch /tmp/fail`: LWS recreates group 0 all the same, and its event
    reads "Worker pod llm-0 failed" (it calls every pod of a group a worker)."""
    s = state("leader-failed")
    v = check(late(s) if started == "late" else s, 5)
    assert v.status is FAIL
    words_in(v, "The pod that failed is llm-0, the leader of group 0", "asks for the worker llm-0-1 to fail",
             "Worker pod llm-0 failed", "To do the step again:", "fail the worker llm-0-1 (not its leader)")
    assert "touch" not in " ".join((v.message, *v.details))  # never a command: the step has it
    restart = "llm-0's container exited and restarted" if started == "watching" else \
        "the kubelet restarted llm-0's container"
    words_in(v, restart)


def test_the_leader_failing_is_said_as_soon_as_its_restart_is_seen():
    """Before LWS has rebuilt group 0 (the old pods wait out their grace period), already a fail."""
    restarted_at = next(it.t for it in recording("leader-failed").items
                        if event("Pod", "llm-0", "MODIFIED", lambda p: o.restart_count(p) == 1)(it))
    after = [v for t, v in verdicts_over_replay("leader-failed") if t >= restarted_at]
    assert after and all(v.status is FAIL and "The pod that failed is llm-0" in v.message for v in after)
    # while the old leader is still Terminating, the way back waits for group 0
    words_in(after[0], "once group 0 is Running again")


def test_the_leader_failed_in_korean_names_it_without_placeholder_particles():
    v = check(state("leader-failed", lang="ko"), 5)
    text = " ".join((v.message, *v.details))
    words_in(v, "실패한 파드는 그룹 0의 리더 llm-0입니다", "워커 llm-0-1", "다시 하려면:", "llm-0-1을 실패시키세요")
    assert not any(p in text for p in ("을(를)", "은(는)", "이(가)", "와(과)"))


def test_after_the_leader_failed_fresh_uids_start_the_step_again():
    """The way back the verdict gives: restart.txt written from the rebuilt group's UIDs is ready
    for llm-0-1 to fail (not "written after the failure": that failure was another pod's)."""
    s = state("leader-failed")
    now = {pod: o.uid(s.store.get("Pod", pod, "infer")) for pod in ("llm-0", "llm-1")}
    again = state("leader-failed", files={"restart.txt": f"group0_before={now['llm-0']}\ngroup1_before={now['llm-1']}\n"})
    for v in (check(again, 5), check(late(again), 5)):
        assert v.status is WAIT and v.message.startswith("restart.txt is ready. Now make llm-0-1's container fail")


def test_group1_failing_after_step5_is_no_pass_even_before_lws_acts():
    """The moment the issue names: llm-1-1 has failed, LWS has not recreated group 1 yet."""
    failed_at = next(it.t for it in recording("group1-failed-after-step5").items
                     if event("Pod", "llm-1-1", "MODIFIED", lambda p: o.restart_count(p) == 1)(it))
    seen = verdicts_over_replay("group1-failed-after-step5")
    before = [v for t, v in seen if t < failed_at]
    after = [v for t, v in seen if t >= failed_at]
    assert any(v.passed for v in before)  # step 5 was done right, and passed then
    assert after and not any(v.passed for v in after)
    words_in(after[0], "llm-1-1", "failed", "LWS recreates group 1")


# --- late starts: what the cluster still shows ------------------------------------------------

@pytest.mark.parametrize("name,done", [("late-after-step5", 5), ("late-after-step6", 6), ("late-after-step8", 8),
                                       ("late-mid-rollout", 6)])
def test_a_late_tutor_passes_every_step_done_right(name, done):
    """Every step done right passes, but step 4 once the rollout has replaced llm-1: nothing the
    cluster shows can confirm the IP dns.txt holds then, and a fresh lookup is asked for."""
    s = state(name)
    replaced = name != "late-after-step5"
    for n in range(1, 9):
        v = check(s, n)
        assert (v.status is PASS) == (n <= done and not (n == 4 and replaced)), (n, v)
    if replaced:
        assert "cannot be confirmed" in check(s, 4).message
        fresh = o.pod_ip(s.store.get("Pod", "llm-1", "infer"))
        s.apply(FileChanged("dns.txt", lookup(fresh), s.store.now))
        assert check(s, 4).passed


def test_mid_rollout_step6_waits_then_passes_and_step5_stays_passed():
    first = [v for _, v in verdicts_over_replay("late-mid-rollout", 6)]
    assert any(v.status is WAIT and "Rolling update in progress" in v.message for v in first)
    assert first[-1].passed
    fives = verdicts_over_replay("late-mid-rollout", 5)
    passed_at = next(t for t, v in fives if v.passed)
    assert all(v.passed or v.status is WAIT for t, v in fives if t > passed_at)


def test_a_rollout_that_recreated_group_1_itself_leaves_step5_passed():
    s = state("late-after-rollout-recreated-group1")
    tl = timeline(s.store, "infer")
    rec1 = tl.recreations("llm", 1)
    assert rec1 and all(tl.in_rollout(f) for f in rec1)
    v = check(s, 5)
    assert v.status is PASS, v
    words_in(v, "replaced later by the rolling update")


def test_check_at_the_end_of_the_walkthrough_passes_all_eight_with_no_history():
    """All but step 4, whose lookup predates the rollout that gave llm-1 a new IP: with no
    history that IP cannot be confirmed. Replayed, the tutor saw llm-1 hold it, and passes it."""
    s = late(state("walkthrough"))
    assert [n for n in range(1, 9) if not check(s, n).passed] == [4]
    v = check(s, 4)
    assert v.status is UNCONFIRMED and "cannot be confirmed" in v.message and "look the name up afresh" in v.message
    assert check(state("walkthrough"), 4).passed
    s.apply(FileChanged("dns.txt", lookup(o.pod_ip(s.store.get("Pod", "llm-1", "infer"))), s.store.now))
    assert [n for n in range(1, 9) if not check(s, n).passed] == []


def test_expired_evidence_is_said_plainly_not_blamed():
    s = late(state("late-after-step6"), events_expired=True)
    v = check(s, 5)
    assert v.status is UNCONFIRMED
    words_in(v, "no longer shows", "not a mistake of yours", "To confirm it again", "fail llm-0-1 as the step says")
    ko = check(late(state("late-after-step6"), lang="ko", events_expired=True), 5)
    words_in(ko, "잘못한 것이 아니라")


def test_expired_evidence_still_refutes_nothing_it_cannot_see_and_passes_nothing():
    """Without events and history a typo cannot be refuted, and nothing proves the step: no pass."""
    s = late(state("uid-typo"), events_expired=True)
    assert not check(s, 5).passed


def test_restart_txt_written_after_the_failure_still_fails():
    v = check(state("restart-after-failure"), 5)
    words_in(v, "written after the failure")
    assert timeline(state("restart-after-failure").store, "infer").of("llm", 0, (Kind.GROUP_RECREATED,))


# --- step 4: an IP is right for the moment it was looked up ---------------------------------------

G1 = "group1-failed-after-step5"  # llm-1 is recreated there and comes back with another IP


def lookup(ip: str) -> str:
    return f"Server:\t\t10.43.0.10\nAddress:\t10.43.0.10:53\n\nName:\tllm-1.llm.infer.svc.cluster.local\nAddress: {ip}\n"


def dns_written_then_replayed(ip: str):
    """dns.txt written while llm-1 had its first IP, then the rest of the recording played."""
    items = recording(G1).items
    cut = next(i for i, it in enumerate(items) if event("Pod", "llm-1", "MODIFIED", o.is_terminating)(it))
    s = state(G1, stop=lambda it: it is items[cut], files={"dns.txt": lookup(ip)})
    for it in items[cut:]:
        s.apply(it)
    return s


def first_and_last_ip():
    hist = state(G1).store.obs.uid_history("llm-1")
    return hist[0].ips[0], hist[-1].ips[0]


def test_step4_an_ip_looked_up_before_llm1_was_replaced_passes():
    before, now = first_and_last_ip()
    assert before != now
    v = check(dns_written_then_replayed(before), 4)
    assert v.status is PASS
    words_in(v, "had when you looked it up", now)
    typo = before[:-1] + str((int(before[-1]) + 1) % 10)
    assert not check(dns_written_then_replayed(typo), 4).passed


def test_step4_an_earlier_ip_written_after_the_replacement_fails():
    before, now = first_and_last_ip()
    s = state(G1)
    s.apply(FileChanged("dns.txt", lookup(before), s.store.now + 10))  # written 10 s after the end
    v = check(s, 4)
    assert v.status is FAIL
    words_in(v, "an earlier IP of llm-1", "has a new IP")
    assert now not in " ".join((v.message, *v.details))


def test_step4_late_start_after_the_replacement_is_unconfirmed_not_passed():
    """Started after llm-1 was replaced, with no record of its earlier IP: the cluster can neither
    prove nor refute it, and a one-digit typo would read the same. No pass: the verdict says it
    cannot be confirmed and asks for a fresh lookup (the command is the hints'); another pod's
    address is refuted."""
    before, now = first_and_last_ip()
    typo = before[:-1] + str((int(before[-1]) + 1) % 10)
    for ip in (before, typo):
        v = check(late(dns_written_then_replayed(ip)), 4)
        assert v.status is UNCONFIRMED, v
        words_in(v, "cannot be confirmed", "got a new IP", "not your mistake", "To confirm the step again",
                 "look the name up afresh", "dns.txt", "Look up the leader's full name", "from inside llm-1-1")
        assert now not in " ".join((v.message, *v.details))
    ko = check(late(dns_written_then_replayed(before), lang="ko"), 4)
    assert ko.status is UNCONFIRMED
    words_in(ko, "확인할 수 없습니다", "잘못한 것이 아닙니다", "새로 조회해")
    # The node's IPAM may hand the freed address to a pod created after the file: no refutation.
    s = late(dns_written_then_replayed(before))
    reused = copy.deepcopy(s.store.get("Pod", "llm-1-1", "infer"))
    reused["status"]["podIP"] = before
    reused["status"]["podIPs"] = [{"ip": before}]
    reused["metadata"]["resourceVersion"] += "0"
    s.apply(ObjectEvent("MODIFIED", reused, s.store.now))
    v = check(s, 4)
    assert v.status is UNCONFIRMED and "cannot be confirmed" in v.message
    # A pod that had an address since before the file was written refutes it. The scripted lab
    # recreates every pod within a second or two of the file, so llm-0's birth is moved an hour back.
    held = state(G1).store.get("Pod", "llm-0", "infer")["status"]["podIP"]
    s = late(dns_written_then_replayed(held))
    older = copy.deepcopy(s.store.get("Pod", "llm-0", "infer"))  # the recording's objects are shared
    older["metadata"].update(creationTimestamp="2026-11-30T02:58:51Z", resourceVersion="moved")
    s.apply(ObjectEvent("MODIFIED", older, s.store.now))
    v = check(s, 4)
    assert v.status is FAIL
    words_in(v, f"{held}, the IP pod llm-0 had already")
    v = check(late(state(G1, files={"dns.txt": lookup(now)})), 4)
    assert v.status is PASS and "confirmed" not in " ".join((v.message, *v.details))


def test_a_live_start_judges_nothing_until_every_watch_has_listed():
    """Each watch lists on its own thread. Started after step 8: with the pods and the LWS listed
    and the events not yet, step 5 would say LWS's RecreateGroup event has expired, a wrong fail
    (it has simply not been listed yet). Nothing is judged until every list is in."""
    from tutor.cluster.source_events import Conn, Relisted, SourceState
    from tutor.cluster.live import RESOURCES

    then = state("late-after-step8")

    def fresh() -> Session:
        s = Session(then.lesson, "/root/gsb-lws", "en")
        s.store.started_at = then.store.started_at + then.store.now
        for name in then.lesson.answer_files:
            s.apply(then.workspace.get(name))
        return s

    early = fresh()  # without the wait
    for kind in ("Pod", "LeaderWorkerSet"):
        early.apply(Relisted(kind, then.store.all(kind), 0.0))
    early.evaluate([5])
    assert early.verdicts[5].status is UNCONFIRMED and "expired" in early.verdicts[5].message

    s = fresh()
    s.awaiting_lists = {res.name for res in RESOURCES}
    for res in sorted(RESOURCES, key=lambda r: r.kind == "Event"):  # the events' list comes last
        assert s.evaluate() == [] and not s.verdicts
        s.apply(Relisted(res.kind, then.store.all(res.kind), 0.0))
        s.apply(SourceState(res.name, Conn.OK, "", 0.0))
    assert not s.awaiting_lists
    # all judged now; step 4's lookup predates the rollout that replaced llm-1, and cannot be confirmed
    assert s.evaluate() == [1, 2, 3, 5, 6, 7, 8] and sorted(s.verdicts) == list(range(1, 9))
    # A forbidden resource is a settled answer: it does not hold the checks back.
    s = fresh()
    s.awaiting_lists = {"nodes"}
    s.apply(SourceState("nodes", Conn.FORBIDDEN, "forbidden", 0.0))
    assert not s.awaiting_lists


def test_step5_after_a_rollout_says_llm1_was_replaced_since():
    """Judged after step 6, llm-1 has the rollout's UID: the pass says llm-1 kept its own then, and
    that the rolling update replaced it since, as its details show."""
    for lang, words in (("en", "the rolling update has replaced llm-1 since"), ("ko", "그 뒤 롤링 업데이트가 바꿨습니다")):
        v = check(state("late-after-step6", lang=lang), 5)
        assert v.status is PASS and words in v.message, v.message
    v = check(state("walkthrough", stop=file_written("lws.yaml", "VERSION")), 5)
    assert v.passed and v.message.endswith("llm-1 kept its own."), v.message

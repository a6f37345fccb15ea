"""The gang lesson's advice, followed on the real control plane: whenever a verdict says how to do a
step again or how to fix it, a scripted learner reads that advice from `lwstutor check --json`,
the test holds that the advice names each move the learner then makes, the learner makes exactly
those moves, and the step passes.

What makes the advice hard to get right (and why each case is here):
- A PodGroup's PodGroupInitiallyScheduled condition never leaves True once its gang was placed,
  so a gang seen placed is seen held again only with a new PodGroup: the PodGroup has to be
  deleted and made again, besides orphan, and llm has to hold its 4 GPUs again first.
- The gang policy of a PodGroup cannot be set after it is made (only minCount can change): a
  PodGroup made without one is fixed by making it again, not by applying the file over it.
- Step 2 is right by any path that ends with no pod of orphan outside a gang: deleting orphan,
  or editing it in place (LWS then rolls the group: it deletes the leader and makes the group
  again), with the PodGroup made before or after orphan.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

import pytest
import yaml

from tests import waits
from tests.e2e.learner import NS, GangLearner, big, end_of_lws_lab, podgroup
from tests.e2e.test_live_source import tutor_check

# --- reading the advice ---------------------------------------------------------------------------

ACTION = r"\b(?:appl|scal|delet|remov|mak|made|creat)\w*"
# Between an action and what it acts on: no sentence end and no other action.
GAP = rf"(?:(?![.!?](?:\s|$))(?!{ACTION}).){{0,60}}?"


@dataclass(frozen=True)
class Move:
    """One thing the learner does, and how a verdict names it: its verb and its object in the
    same sentence, a few words apart, with no other action between them."""
    what: str
    verb: str
    obj: str

    def named_in(self, text: str) -> bool:
        v, o = rf"\b(?:{self.verb})", rf"(?:{self.obj})"
        return re.search(rf"{v}{GAP}{o}|{o}{GAP}{v}", text, re.I) is not None


DELETE = r"delet\w*|remov\w*"
MAKE = r"appl\w*|re-?appl\w*|creat\w*|mak\w*|re-?do|do"
DELETE_ORPHAN = Move("delete the LeaderWorkerSet orphan", DELETE, r"\borphan\b(?![-.]\w)")
DELETE_PODGROUP = Move("delete the PodGroup orphan-0", DELETE, r"\bPodGroups?\b")
SCALE_LLM_BACK = Move("scale llm back to 2 groups", r"scal\w*", r"\bllm\b\W+(?:[\w`'-]+\W+){0,4}?(?:2|two)\b")
# Applied before llm's second group runs, the gang can take the GPUs first and land whole.
WAIT_FOR_LLM = Move("wait until llm's pods run", r"wait\w*", r"\bpods? run\w*|\bRunning\b")
APPLY_PODGROUP = Move("apply orphan-pg.yaml", MAKE, r"orphan-pg\.yaml|\bsteps? 3\b")
APPLY_ORPHAN = Move("apply orphan.yaml", MAKE, r"(?<![-\w])orphan\.yaml|\bsteps? (?:3,? and )?4\b")
# Step 2's own answer, however it is put ("delete orphan", "the LeaderWorkerSet has to go").
CLEAR_ORPHAN = Move("delete orphan", DELETE + r"|go", r"\borphan\b(?![-.]\w)|\bLeaderWorkerSet\b")
# The moves that show the gang held again, in the order the learner makes them.
AGAIN = (DELETE_ORPHAN, DELETE_PODGROUP, SCALE_LLM_BACK, WAIT_FOR_LLM, APPLY_PODGROUP, APPLY_ORPHAN)


def advice(verdict: dict) -> str:
    """The verdict's words, each path to an answer file cut to the file's name, as the learner
    reads it in their workdir."""
    return re.sub(r"(?:/[\w.-]+)+/([\w.-]+)", r"\1", "\n".join([verdict["message"], *verdict["details"]]))


def assert_names(verdict: dict, *moves: Move) -> None:
    missing = [m.what for m in moves if not m.named_in(advice(verdict))]
    assert not missing, f"the advice does not say to {', '.join(missing)}:\n{advice(verdict)}"


def saves(verdict: dict, file: str) -> bool:
    """Whether the advice asks for the answer file to be saved again."""
    return Move(f"save {file}", r"sav\w*|writ\w*|updat\w*|re-?do|do", re.escape(file) + r"|\bstep [45]\b").named_in(
        advice(verdict))


# --- the learner and its checks ---------------------------------------------------------------------


@pytest.fixture
def gang(lab, learner, tmp_path):
    """A gang learner with a fresh workdir; the namespace is emptied after it (LWSs, pods, PodGroups)."""
    yield GangLearner(lab, tmp_path / "gsb-gang", prompt_stop=True)
    learner.reset()
    lab.kubectl("delete", "podgroups", "--all", "-n", NS, "--wait=true", timeout=120)


def check(lab, g: GangLearner, *steps: int) -> dict[int, dict]:
    return tutor_check(lab, g.workdir, "--lesson", "gang", *(a for n in steps for a in ("--step", str(n))))[1]


def passes(lab, g: GangLearner, *steps: int) -> None:
    report = check(lab, g, *steps)
    assert all(report[n]["status"] == "pass" for n in steps), {n: report[n] for n in steps}


def settle(lab, g: GangLearner, n: int, timeout: float = waits.LAB) -> dict:
    """Step n's verdict once it is no longer `waiting` (a gang not tried yet, pods on their way)."""
    deadline = time.monotonic() + timeout
    while (v := check(lab, g, n)[n])["status"] == "waiting" and time.monotonic() < deadline:
        time.sleep(1)
    return v


# --- doing a step again, as steps 4 and 5 say -------------------------------------------------------


def test_steps_4_and_5_shown_again_as_their_verdicts_say(lab, learner, gang):
    """After step 6 placed the gang, steps 4 and 5 cannot be confirmed any more; the learner does
    what their verdicts say, and both pass again, then steps 6 and 7 too."""
    end_of_lws_lab(learner)
    for n, do_step in {1: gang.api, 2: gang.clear, 3: gang.make_podgroup, 4: lambda: (gang.gang(), gang.held()),
                       5: gang.blocker, 6: gang.make_room}.items():
        do_step()
        passes(lab, gang, n)
    report = check(lab, gang, 4, 5)
    for n in (4, 5):
        assert report[n]["status"] == "unconfirmed", report[n]
        assert_names(report[n], *AGAIN)

    gang.clear()  # delete orphan, and wait for its pods to go
    gang.delete_podgroup("orphan-0")
    gang.scale_llm(2)
    gang.reapply("orphan-pg.yaml")
    gang.reapply("orphan.yaml")
    gang.wait("orphan-0 unschedulable again", lambda: gang.condition("orphan-0").get("status") == "False")
    gang.wait("each pod's reason", lambda: all(gang.message(n) for n in gang.ORPHAN))
    if saves(report[4], "gang.txt"):
        gang.held()
    if saves(report[5], "blocker.txt"):
        gang.blocker()
    passes(lab, gang, 4, 5)

    gang.make_room()
    passes(lab, gang, 6)
    gang.no_fit()
    passes(lab, gang, 7)


def test_a_gang_placed_for_want_of_llm_is_redone_as_step_4_says(lab, learner, gang):
    """llm scaled to one group before step 4: orphan's gang finds room and is placed whole, so
    step 4 never sees it held. Its verdict says how to start over, and that ends in a pass."""
    end_of_lws_lab(learner)
    gang.api()
    gang.clear()
    gang.make_podgroup()
    gang.scale_llm(1)
    gang.gang()
    gang.wait("orphan-0 placed", lambda: gang.condition("orphan-0").get("status") == "True")
    verdict = settle(lab, gang, 4)
    assert verdict["status"] in ("fail", "unconfirmed"), verdict
    assert_names(verdict, *AGAIN)

    gang.clear()
    gang.delete_podgroup("orphan-0")
    gang.scale_llm(2)
    gang.reapply("orphan-pg.yaml")
    gang.reapply("orphan.yaml")
    gang.held()  # the step's own answer, never written before
    passes(lab, gang, 4)


# --- fixing a PodGroup, as step 3 says ---------------------------------------------------------------


def test_a_wrong_min_count_fixed_as_step_3_says(lab, learner, gang):
    """minCount 3 for a group of 2, applied, and orphan made a gang of it (held silently). The
    learner fixes the file, then applies it as the verdict says; the gang is then tried."""
    end_of_lws_lab(learner)
    gang.api()
    gang.clear()
    gang.make_podgroup(min_count=3)
    gang.gang()
    verdict = check(lab, gang, 3)[3]
    assert verdict["status"] == "fail" and "minCount" in advice(verdict), verdict

    gang.write("orphan-pg.yaml", yaml.safe_dump(podgroup("orphan-0", 2), sort_keys=False))
    verdict = check(lab, gang, 3)[3]
    assert verdict["status"] == "fail", verdict
    assert_names(verdict, APPLY_PODGROUP)
    gang.reapply("orphan-pg.yaml")
    passes(lab, gang, 3)
    gang.held()
    passes(lab, gang, 3, 4)


def test_a_podgroup_made_without_a_gang_fixed_as_step_3_says(lab, learner, gang):
    """A PodGroup made with the basic policy: its gang policy cannot be set afterwards, so
    applying the corrected file over it is refused. The verdict must say to make it again."""
    end_of_lws_lab(learner)
    gang.api()
    gang.clear()
    basic = podgroup("orphan-0", 2)
    basic["spec"]["schedulingPolicy"] = {"basic": {}}
    gang.apply(basic, "orphan-pg.yaml")
    verdict = check(lab, gang, 3)[3]
    assert verdict["status"] == "fail" and "gang" in advice(verdict), verdict

    gang.write("orphan-pg.yaml", yaml.safe_dump(podgroup("orphan-0", 2), sort_keys=False))
    verdict = check(lab, gang, 3)[3]
    assert verdict["status"] == "fail", verdict
    refused = lab.kubectl("apply", "-f", str(gang.workdir / "orphan-pg.yaml"), check=False)
    assert refused.returncode != 0, "the API server took a gang policy on a PodGroup made without one"
    assert_names(verdict, DELETE_PODGROUP, APPLY_PODGROUP)
    gang.delete_podgroup("orphan-0")
    gang.reapply("orphan-pg.yaml")
    passes(lab, gang, 3)


# --- step 2 by every path --------------------------------------------------------------------------

ROLLED = re.compile(r"\broll", re.I)  # "a rolling update", "rolls the group"
GRACE = re.compile(r"grace", re.I)


def watch_step_2(lab, g: GangLearner, timeout: float = waits.loaded(5)) -> list[tuple[dict, bool]]:
    """Step 2's verdicts until it passes, each with whether the old leader was then Terminating
    (its grace period running, before and after the check). The old worker, Pending, stays until
    the leader is gone: its StatefulSet belongs to the leader pod."""
    seen: list[tuple[dict, bool]] = []
    deadline = time.monotonic() + timeout

    def going() -> bool:
        return any(p["metadata"].get("deletionTimestamp") for p in g.outside_gang())

    while True:
        before = going()
        verdict = check(lab, g, 2)[2]
        seen.append((verdict, before and going()))
        if verdict["status"] == "pass":
            return seen
        assert time.monotonic() < deadline, f"step 2 did not pass in {timeout}s; its verdicts: {[v for v, _ in seen]}"
        time.sleep(1)


PATHS = {
    "delete-then-podgroup-first": ("delete", "podgroup"),
    "delete-then-lws-first": ("delete", "lws"),
    "edit-in-place-podgroup-first": ("edit", "podgroup"),
    "edit-in-place-lws-first": ("edit", "lws"),
}


@pytest.mark.parametrize("path", PATHS)
def test_step_2_passes_by_every_path(lab, learner, gang, path):
    """orphan deleted, or changed in place so that LWS rolls its group into the gang; the PodGroup
    made before or after orphan. Each path ends with no pod of orphan outside a gang, and step 2
    passes, then steps 3 and 4 too. orphan's old leader ignores SIGTERM, as the LWS lab's does, so
    its grace period is seen: a verdict given while it runs waits and says so, it does not fail."""
    how, first = PATHS[path]
    end_of_lws_lab(learner, orphan_grace=True)
    gang.api()
    before = check(lab, gang, 2)[2]
    assert before["status"] == "fail", before
    assert_names(before, CLEAR_ORPHAN)

    if how == "delete":
        gang.delete("leaderworkerset", "orphan")  # its pods go after it, the leader at the end of its grace period
        seen = watch_step_2(lab, gang)
        for make in ((gang.make_podgroup, gang.gang) if first == "podgroup" else (gang.gang, gang.make_podgroup)):
            make()
            passes(lab, gang, 2)
    else:
        if first == "podgroup":
            gang.make_podgroup()
        gang.gang()  # orphan.yaml applied over the LWS lab's orphan: LWS rolls the group
        seen = watch_step_2(lab, gang)
        gang.rolled_into_gang()
        passes(lab, gang, 2)
        if first == "lws":
            gang.make_podgroup()
            passes(lab, gang, 2)
        said = " ".join(advice(v) for v, _ in seen)
        assert ROLLED.search(said), f"no verdict of step 2 told the learner that the edit rolled the group: {said}"

    assert not gang.outside_gang()
    if lab.real_node:  # the old leader's grace period (KWOK pods have none to wait)
        in_grace = [v for v, going in seen if going]
        assert all(v["status"] == "waiting" for v in in_grace), in_grace
        assert any(GRACE.search(advice(v)) for v in in_grace), in_grace
    gang.held()
    passes(lab, gang, 2, 3, 4)


# --- doing step 7 again, as its verdicts say ----------------------------------------------------------

DELETE_BIG = Move("delete the LeaderWorkerSet big", DELETE, r"\bbig\b(?![-.]\w)")
FINISH_STEP_6 = Move("finish step 6", r"finish\w*|do", r"\bstep 6\b")
APPLY_BIG = Move("apply big.yaml", MAKE, r"(?<![-\w])big\.yaml")


def clear_big(g: GangLearner) -> None:
    g.delete("leaderworkerset", "big")
    g.wait("big's pods gone", lambda: not g.get("pods", selector="leaderworkerset.sigs.k8s.io/name=big")["items"])


def test_big_made_with_no_gpu_free_is_redone_as_step_7_says(lab, learner, gang):
    """big applied before step 6: lab-server has no GPU free, so big would wait whatever it was.
    The verdict says to delete big, finish step 6 and apply big.yaml again; that ends in a pass."""
    end_of_lws_lab(learner)
    for do_step in (gang.api, gang.clear, gang.make_podgroup, lambda: (gang.gang(), gang.held())):
        do_step()
    gang.no_fit()
    verdict = settle(lab, gang, 7)
    assert verdict["status"] == "fail", verdict
    assert_names(verdict, DELETE_BIG, FINISH_STEP_6, APPLY_BIG)

    clear_big(gang)
    gang.make_room()
    passes(lab, gang, 6)
    gang.reapply("big.yaml")
    gang.wait("big-0 tried again", lambda: all(gang.pod(n) for n in ("big-0", "big-0-1", "big-0-2")))
    assert settle(lab, gang, 7)["status"] == "pass"


def test_big_placed_on_two_free_gpus_is_redone_as_step_7_says(lab, learner, gang):
    """orphan deleted after step 6, so two GPUs are free and big is placed whole: the step cannot
    show a free GPU left alone. The verdict says to delete big and its PodGroup, then apply big.yaml
    again with one GPU free; the learner frees it back to one by making orphan again."""
    end_of_lws_lab(learner)
    for do_step in (gang.api, gang.clear, gang.make_podgroup, lambda: (gang.gang(), gang.held()), gang.make_room):
        do_step()
    gang.clear()  # orphan gone: 2 GPUs free
    gang.apply([podgroup("big-0", 3), big()], "big.yaml")
    gang.wait("big-0 placed", lambda: gang.condition("big-0").get("status") == "True", timeout=waits.LAB)
    verdict = settle(lab, gang, 7)
    assert verdict["status"] == "fail", verdict
    assert_names(verdict, DELETE_BIG, DELETE_PODGROUP, APPLY_BIG)

    clear_big(gang)
    gang.delete_podgroup("big-0")
    gang.reapply("orphan.yaml")  # orphan's gang (orphan-0 stays placed) takes one of the two GPUs
    gang.running(*gang.ORPHAN)
    gang.reapply("big.yaml")
    gang.wait("big-0 unschedulable", lambda: gang.condition("big-0").get("status") == "False")
    assert settle(lab, gang, 7)["status"] == "pass"

"""After group 1 failed, restart.txt written from the group LWS rebuilt is a fresh start for
group 1: the rebuild itself is not a failure of the group it made.

LWS rebuilds a group whole. In `group1-failed-after-step5` (recorded on the real node) the new
llm-1 is stamped 07:12:36 and its worker 07:12:37, replacing the old worker's UID. Counted from
the new llm-1's creation, that replacement read as "llm-1-1 got a new UID", so the verdict's own
way back (write restart.txt again, then fail llm-0-1) could never pass.
"""

from __future__ import annotations

from lessons.lws.checks import restart_group
from tests.states import check, state
from tutor.cluster import objects as o
from tutor.cluster.timeline import Kind, timeline

RECORDING = "group1-failed-after-step5"


def _llm1_uids():
    tl = timeline(state(RECORDING).store, "infer")
    return tl, [f.uid for f in tl.uids("llm-1")]


def test_the_rebuild_is_not_a_failure_of_the_group_it_made():
    tl, (old, new) = _llm1_uids()
    born = tl.created("llm-1", new)
    # The case is there: counted from the new llm-1 on, its own worker's making is a "new UID".
    raw = tl.failures("llm", 1, since=born.at)
    assert any(f.kind is Kind.POD_CREATED and f.pod == "llm-1-1" for f in raw)
    assert restart_group._group1_failures(tl, new, born) == []


def test_the_failure_before_the_rebuild_still_counts_from_the_old_leader():
    tl, (old, new) = _llm1_uids()
    found = restart_group._group1_failures(tl, old, tl.created("llm-1", old))
    kinds = {(f.kind, f.pod) for f in found}
    assert (Kind.RESTARTED, "llm-1-1") in kinds and (Kind.GROUP_RECREATED, "llm-1-1") in kinds


def test_restart_txt_from_the_rebuilt_group_is_not_failed_for_group_1():
    s = state(RECORDING)
    now = {p: o.uid(s.store.get("Pod", p, "infer")) for p in ("llm-0", "llm-1")}
    v = check(state(RECORDING, files={"restart.txt": f"group0_before={now['llm-0']}\n"
                                                     f"group1_before={now['llm-1']}\n"}), 5)
    assert not v.message.startswith("Group 1 must"), v.message
    # Group 0 was rebuilt before (step 5 passed first): its UID is the one written after its failure.
    assert v.message.startswith("group0_before equals llm-0's UID after the recreation"), v.message


def test_restart_txt_from_before_group_1_failed_still_fails_for_group_1():
    tl, (old1, _) = _llm1_uids()
    old0 = tl.uids("llm-0")[0].uid
    v = check(state(RECORDING, files={"restart.txt": f"group0_before={old0}\ngroup1_before={old1}\n"}), 5)
    assert v.message.startswith("Group 1 must"), v.message

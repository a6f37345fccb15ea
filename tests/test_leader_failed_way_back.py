"""After the leader failed, the way back the verdict gives (restart.txt from the UIDs of the
rebuilt group) is ready for llm-0-1 to fail, whichever second the new llm-0 was created in.

The leader-failed recording's pods waited out their 30 s grace period, so its new llm-0 came half
a minute after LWS's RecreateGroup event. Pods that stop on SIGTERM (the e2e lab's) are gone at
once, and the StatefulSet makes the new llm-0 1.8 to 2.3 s after the event (measured on the lab,
quiet and loaded). Its creationTimestamp is whole seconds, so when the event comes early in its
second the new llm-0 is stamped with the very next second: within the second of slack a
whole-second time is given, so the recreation that made the new llm-0, and the old leader's
restart just before it, read as if they could have come after it.

That moment is made here from the real one, as `lwstutor check` (one list of what the cluster
holds) sees it: the recording's clock a moment later, so that the event falls at 12:15:10.15, and
everything from the old pods' end on earlier by the grace period they no longer wait out, so that
the new llm-0 is created about 1.85 s after it, stamped 12:15:11. The kubelet restarted the old
leader's container just before LWS's event (0.12 s in the recording), and on the lab its Started
event's whole-second stamp reads the event's second (10 of 10 runs): so it is here too, and, for
the case where the restart's stamp is a second earlier, left as the shift makes it.
"""

from __future__ import annotations

import copy
import math
from datetime import datetime, timezone

import pytest

from tests.states import check, state
from tutor.checks.verdict import Status
from tutor.cluster import objects as o
from tutor.cluster.source_events import Relisted
from tutor.cluster.store import KINDS
from tutor.cluster.timeline import Kind, parse_time, timeline
from tutor.session import Session

RECORDING = "leader-failed"
OLD_LEADER = "34ad586d-78c1-4f2a-a259-c0321128d708"
OLD_PODS_END = parse_time("2026-12-01T12:15:30Z")[0]  # after their Killing events, before the grace period ran out
LATER = 0.745  # the recording's clock, a moment later: RecreateGroup at 12:15:10.15 instead of 12:15:09.40
NO_GRACE = 30.2  # the rebuilt group, earlier: the new llm-0 created at 12:15:11.99, stamped 12:15:11
EVENT_SECOND = "2026-12-01T12:15:10Z"  # the second of LWS's RecreateGroup event, shifted


def prompt_stop(t: float) -> float:
    return t + LATER - (NO_GRACE if t >= OLD_PODS_END else 0.0)


def as_recorded(t: float) -> float:
    return t


def retimed(value, when):
    """A copy of an object with every time in it moved by `when`, written as precisely as it was
    (a whole-second stamp taken at the start of its second)."""
    if isinstance(value, dict):
        return {k: retimed(v, when) for k, v in value.items()}
    if isinstance(value, list):
        return [retimed(v, when) for v in value]
    parsed = parse_time(value)
    if parsed is None:
        return value
    t, precise = parsed
    stamp = datetime.fromtimestamp(round(when(t), 6) if precise else math.floor(when(t)), timezone.utc)
    return stamp.strftime("%Y-%m-%dT%H:%M:%S.%fZ" if precise else "%Y-%m-%dT%H:%M:%SZ")


def restart_in_the_event_second(obj: dict) -> dict:
    """The kubelet's events of the old leader's restart (Created, Started, counted twice) stamped
    with the second of LWS's event, as the lab stamps them."""
    if o.kind(obj) == "Event" and o.event_regarding(obj).get("uid") == OLD_LEADER and o.event_count(obj) > 1:
        obj["lastTimestamp"] = EVENT_SECOND
    return obj


def fresh_check(session: Session, when, restart_stamp=lambda obj: obj) -> Session:
    """`lwstutor check` started now (one list of what the cluster holds, the answer files as they
    are), on the cluster's objects with their times moved by `when`."""
    fresh = Session(session.lesson, "/root/gsb-lws", session.lang)
    fresh.store.started_at = (session.store.started_at or 0.0) + session.store.now
    for kind in KINDS:
        fresh.apply(Relisted(kind, [restart_stamp(retimed(copy.deepcopy(x), when)) for x in session.store.all(kind)],
                             0.0))
    for name in session.lesson.answer_files:
        fresh.apply(session.workspace.get(name))
    return fresh


def rebuilt_uids_written() -> Session:
    s = state(RECORDING)
    now = {pod: o.uid(s.store.get("Pod", pod, "infer")) for pod in ("llm-0", "llm-1")}
    return state(RECORDING, files={"restart.txt": f"group0_before={now['llm-0']}\ngroup1_before={now['llm-1']}\n"})


STAMPS = pytest.mark.parametrize("restart_stamp,restart_second", [(restart_in_the_event_second, 10),
                                                                  (lambda obj: obj, 9)],
                                 ids=["restart-stamped-in-the-event-second", "restart-stamped-a-second-before"])


@STAMPS
def test_the_shifted_cluster_has_the_new_llm0_stamped_the_second_after_the_event(restart_stamp, restart_second):
    """The interleaving this file is about, read back from the timeline a check builds."""
    tl = timeline(fresh_check(state(RECORDING), prompt_stop, restart_stamp).store, "infer")
    recreated = tl.recreations("llm", 0)[-1]
    assert recreated.precise and recreated.clock() == "12:15:10.1" and recreated.uid == OLD_LEADER
    old0, new0 = tl.uids("llm-0")[-2:]
    assert old0.uid == OLD_LEADER and not new0.precise and new0.clock() == "≈12:15:11"
    restarted = tl.of("llm", 0, (Kind.RESTARTED,), pod="llm-0")
    assert [(f.uid, int(f.at) % 60) for f in restarted] == [(OLD_LEADER, restart_second)]


@STAMPS
def test_the_leader_failing_is_still_named_on_the_shifted_cluster(restart_stamp, restart_second):
    v = check(fresh_check(state(RECORDING), prompt_stop, restart_stamp), 5)
    assert v.status is Status.FAIL and v.message.startswith("The pod that failed is llm-0, the leader of group 0")
    assert any("write restart.txt from the UIDs llm-0 and llm-1 have now" in d for d in v.details)


@STAMPS
@pytest.mark.parametrize("when", [prompt_stop, as_recorded], ids=["new-llm0-the-second-after", "as-recorded"])
def test_restart_txt_from_the_rebuilt_group_is_ready(when, restart_stamp, restart_second):
    v = check(fresh_check(rebuilt_uids_written(), when, restart_stamp), 5)
    assert v.status is Status.WAITING and v.message.startswith("restart.txt is ready"), (v.message, v.details)

"""A bench that waits too long for the tutor asks it for a dump before giving up, and the dump
says where the tutor fell behind: shown here on an injected stall (the refresh pump's delayed
calls lost, its watchdog off), on a small churn of the real control plane."""

from __future__ import annotations

import json

from tests.bench.churn import LWS, MARKER, cycle, marker_pod
from tests.e2e.learner import NS


def test_the_churn_dumps_the_tutor_when_it_never_shows_the_final_state(lab):
    lab.kubectl("apply", "-f", "-", input=json.dumps(marker_pod()))
    try:
        out = cycle(lab, replicas=3, size=2, naive=False, timeout=45, slack=45, stall=True)
    finally:
        lab.kubectl("delete", "lws", LWS, "-n", NS, "--ignore-not-found", "--wait=true", timeout=120)
        lab.kubectl("delete", "pod", MARKER, "-n", NS, "--ignore-not-found", "--grace-period=0", "--force")
    stall = out["stall"]
    assert stall["phase"] == "up" and "down" not in out  # the churn gave up at the first stalled phase
    dump = stall["dump"]
    assert dump is not None, "the tutor did not answer SIGUSR1"
    # the store followed the cluster: all six pods, none missing or stale against a fresh list
    assert dump["watcher_pods"] == 6 and dump["missing"] == [] and dump["stale"] == []
    # the screen did not: the pump waits for a call that never comes, with its work dirty
    assert dump["refresh_timer"] or dump["redrawing"]
    assert dump["unstuck"] == 0 and (dump["refreshed_s_ago"] is None or dump["refreshed_s_ago"] > 30)
    assert set(dump["watches"]) == {"pods", "leaderworkersets", "events", "statefulsets", "nodes"}
    assert all(w["rv"] for w in dump["watches"].values())

"""A Terminating pod's grace period is told truly: once the kubelet has stopped its containers
(the API server then holds the pod with a grace period of 0), no "(0 s)" countdown is shown."""

from __future__ import annotations

import pytest

from tests.states import check, state
from tutor.cluster import objects as o
from tutor.cluster.source_events import ObjectEvent

RECORDINGS = ["both-workers-failed", "group1-failed-after-step5", "leader-failed", "late-mid-rollout"]


def _grace_over(it) -> bool:
    return isinstance(it, ObjectEvent) and o.kind(it.obj) == "Pod" and o.is_terminating(it.obj) \
        and o.dig(it.obj, "metadata", "deletionGracePeriodSeconds") == 0


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("name", RECORDINGS)
def test_no_zero_second_grace_period_while_pods_still_terminate(name, lang):
    s = state(name, after=_grace_over, lang=lang)
    told = []
    for step in (1, 5, 6):
        v = check(s, step)
        told += [v.message, *v.details]
    text = "\n".join(told)
    assert "(0 s)" not in text and "(0초)" not in text, text
    said = [line for line in told if "Terminating" in line and ("kubelet" in line)]
    assert said, text  # the pod still there is told about, with what it waits for

"""The gang lesson (lessons/gang), done by a scripted learner on the real control plane with native
gang scheduling on (GenericWorkload, scheduling.k8s.io/v1beta1): from where the LWS lab ends,
`lwstutor check --lesson gang --step N` says what is missing before each step and passes it after.
"""

from __future__ import annotations

import pytest

from tests.e2e.learner import GangLearner, end_of_lws_lab
from tests.e2e.test_live_source import tutor_check

# What `check --step N` says before the learner does step N: (status, words in the message).
BEFORE = {
    1: ("fail", "api.txt does not exist yet"),
    2: ("fail", "orphan still has pods in no gang"),
    3: ("fail", "orphan-pg.yaml does not exist yet"),
    4: ("fail", "orphan.yaml does not exist yet"),
    5: ("fail", "blocker.txt does not exist yet"),
    6: ("waiting", "llm has 2 group(s)"),
    7: ("fail", "big.yaml does not exist yet"),
}


@pytest.fixture
def gang(lab, learner):
    g = GangLearner(lab, learner.workdir / "gsb-gang", prompt_stop=True)
    end_of_lws_lab(learner)
    yield g
    learner.reset()
    lab.kubectl("delete", "podgroups", "--all", "-n", "infer", "--wait=true", timeout=120)


def check_step(lab, g: GangLearner, n: int) -> dict:
    return tutor_check(lab, g.workdir, "--lesson", "gang", "--step", str(n))[1][n]


def test_the_gang_lesson_on_the_real_control_plane(lab, gang):
    steps = {1: gang.api, 2: gang.clear, 3: gang.make_podgroup, 4: lambda: (gang.gang(), gang.held()),
             5: gang.blocker, 6: gang.make_room, 7: gang.no_fit}
    for n, do_step in steps.items():
        status, words = BEFORE[n]
        before = check_step(lab, gang, n)
        assert before["status"] == status and words in before["message"], (n, before)
        do_step()
        after = check_step(lab, gang, n)
        assert after["status"] == "pass", (n, after)
    code, report = tutor_check(lab, gang.workdir, "--lesson", "gang", "--step", "6", "--step", "7")
    assert code == 0, report
    assert any("bound" in d for d in report[6]["details"]), report[6]  # the gang's binds, told
    assert any("GPUs allocated" in d for d in report[7]["details"]), report[7]  # the free GPU stayed free

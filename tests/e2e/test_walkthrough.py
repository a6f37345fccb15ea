"""The whole lab, done by a scripted learner on the real control plane, with the tutor watching.

Before each step `lwstutor check --step N` says what is missing; after it, the step passes. The
TUI runs headless on the live source in the same test and passes every step by itself (no key
is pressed), and its panes show what each step is about. Then the wrong turns, on the same
cluster, each get the fail message that names the mistake.
"""

from __future__ import annotations

import pytest

from tests.e2e.learner import WRONG_TURNS
from tests.e2e.test_live_source import tutor_check
from tests.e2e.live_tui import blocking, header, live_app, pod_cells, states_ok, text_of, until
from tutor.cluster.story import story
from tutor.ui.screens.timeline_view import TimelineScreen, TimelineView

# What `check --step N` says before the learner does step N: (status, words in the message).
BEFORE = {
    1: ("fail", "lws.yaml does not exist yet"),
    2: ("fail", "names.txt does not exist yet"),
    3: ("fail", "env.txt does not exist yet"),
    4: ("fail", "dns.txt does not exist yet"),
    5: ("fail", "restart.txt does not exist yet"),
    6: ("fail", "Add env VERSION=v2"),
    7: ("fail", "wide.yaml does not exist yet"),
    8: ("fail", "LeaderWorkerSet orphan is not in namespace infer"),
}


def check_step(lab, learner, n: int) -> dict:
    return tutor_check(lab, learner.workdir, "--step", str(n))[1][n]


def revisions(app, pods) -> set[str]:
    return {pod_cells(app, p)["revision"] for p in pods}


async def test_the_whole_lab_on_the_real_control_plane(lab, learner, tmp_path):
    """...with the pane-vs-store oracle on: every refresh that leaves the app idle has each pane
    compared with a rebuild from the store; it checks during every step and finds no pane
    unlike the store."""
    oracle = tmp_path / "oracle.jsonl"
    app = live_app(lab.kubeconfig, learner.workdir, tmp_path / "progress.json", oracle=oracle)
    checks: dict[int, int] = {}  # the oracle's checks during each step
    steps = {1: learner.step1, 2: learner.step2, 3: learner.step3, 4: learner.step4, 5: learner.step5,
             6: learner.step6, 7: learner.step7, 8: learner.step8}
    async with app.run_test(size=(120, 50)) as pilot:
        s = app.session
        await until(pilot, lambda: states_ok(app), "every watch connected")
        old_revision = None
        for n, do_step in steps.items():
            status, words = BEFORE[n]
            before = await blocking(check_step, lab, learner, n)
            assert before["status"] == status and words in before["message"], (n, before)
            assert n not in s.progress.passed, f"the TUI passed step {n} before the learner did it"
            if n == 6:
                old_revision = revisions(app, learner.LLM_PODS)
            checks_before = app.driver.oracle.checks
            await blocking(do_step)
            after = await blocking(check_step, lab, learner, n)
            assert after["status"] == "pass", (n, after)
            await until(pilot, lambda: n in s.progress.passed, f"step {n} passed")
            await until(pilot, lambda: PANES[n](app, old_revision), f"step {n}'s panes")
            if n in STORY:
                STORY[n](after["timeline"], story(s.store, s.lesson.namespace))
            # the step's changes drawn, the app idle: its panes were compared with the store
            await until(pilot, lambda: app.driver.oracle.checks > checks_before, f"the oracle's check during step {n}")
            checks[n] = app.driver.oracle.checks - checks_before
        assert sorted(s.progress.passed) == list(range(1, 9))
        assert "8/8" in header(app)
        from tutor.ui.screens.finish import FinishScreen

        # the end of the lesson opens by itself, live too; esc closes it, as the learner does
        await until(pilot, lambda: isinstance(app.screen, FinishScreen), "the finish screen")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, FinishScreen), "the finish screen closed")
        await pilot.press("t")  # the timeline, live: llm's story first
        await until(pilot, lambda: isinstance(app.screen, TimelineScreen), "the timeline view")
        app.screen.query_one(TimelineView).scroll_home(animate=False)
        await until(pilot, lambda: "group 0 recreated" in app.export_screenshot().replace("&#160;", " "),
                    "group 0's story in view")
    assert all(checks.get(n, 0) >= 1 for n in steps), checks
    dumped = oracle.read_text() if oracle.exists() else ""
    assert app.driver.oracle.mismatches == 0, f"panes unlike the store ({app.driver.oracle.checks} checks):\n{dumped}"


def _story5(entries: list[dict], st) -> None:
    """`check` (a fresh tutor: the cluster's records only) and the TUI (which watched it happen)
    tell group 0's recreation in the same order."""
    told = [e["kind"] for e in entries]
    assert told.index("recreate-group") < told.index("new-uid") and all(e["group"] == 0 for e in entries)
    watched = [line.kind for line in st.step_episode("llm", "recreation", 0).lines]
    assert watched[:2] == ["restarted", "recreate-group"] and watched[-1] == "running-again", watched
    assert "garbage-collected" in watched


def _story6(entries: list[dict], st) -> None:
    assert [e["group"] for e in entries if e["kind"] == "group-replaced"] == [1, 0]
    ep = st.step_episode("llm", "rollout")
    assert [line.group for line in ep.lines if line.kind == "group-replaced"] == [1, 0]
    assert ep.lines[-1].kind == "rollout-done"


STORY = {5: _story5, 6: _story6}


def _step5(app, _) -> bool:
    groups = text_of(app, "#groups")
    # Group 0 was rebuilt (new UIDs, marked ↻1); group 1 kept its pods.
    return "group 0 ↻1" in groups and "group 1 ↻" not in groups and "↻1" in pod_cells(app, "llm-0")["pod"] \
        and "↻" not in pod_cells(app, "llm-1")["pod"]


def _step6(app, old_revision) -> bool:
    now = revisions(app, ("llm-0", "llm-0-1", "llm-1", "llm-1-1"))
    return len(now) == 1 and not now & old_revision and "two revisions running" not in text_of(app, "#groups")


def _step7(app, _) -> bool:
    nodes = {g: {pod_cells(app, f"wide-{g}")["node"], pod_cells(app, f"wide-{g}-1")["node"]} for g in (0, 1)}
    return all(len(v) == 1 for v in nodes.values()) and nodes[0] | nodes[1] == {"gpu-a", "gpu-b"}


def _step8(app, _) -> bool:
    events = text_of(app, "#events")
    return pod_cells(app, "orphan-0-1")["phase"] == "Pending" and "FailedScheduling pod/orphan-0-1" in events \
        and "Insufficient nvidia.com/gpu" in events


PANES = {1: lambda app, _: "llm 2×2" in text_of(app, "#groups"),
         2: lambda app, _: pod_cells(app, "llm-1-1")["group"] == "1" and pod_cells(app, "llm-1-1")["worker"] == "1",
         3: lambda app, _: True, 4: lambda app, _: True,  # answers from inside a pod: the verdict is the view
         5: _step5, 6: _step6, 7: _step7, 8: _step8}


# Each wrong turn, done on the same cluster, and the words its fail message must have.
WRONG = {
    "wrong-annotation": (7, ["exclusive-topology annotation is on leaderTemplate", "where LWS does not read it"]),
    "restart-after-failure": (5, ["restart.txt was written after the failure"]),
    "dns-short-name": (4, ["NXDOMAIN", "look up the leader's full name"]),
    "names-swapped": (2, ["neither group= nor worker= of llm-0-1 matches its group-index and worker-index"]),
    "orphan-without-llm": (8, ["orphan-0-1 was scheduled"]),
    "version-worker-only": (6, ["leaderTemplate of llm has no VERSION=v2"]),
    "uid-typo": (5, ["is not the UID llm-0 had before the failure"]),
    "uid-made-up": (5, ["is not the UID llm-0 had before the failure"]),
    "both-workers-failed": (5, ["LWS recreated group 1 too"]),
    "group1-failed-after-step5": (5, ["LWS recreated group 1 too"]),
    "leader-failed": (5, ["The pod that failed is llm-0, the leader of group 0", "the worker llm-0-1"]),
}


@pytest.mark.parametrize("turn", list(WRONG))
def test_a_wrong_turn_gets_the_message_that_names_it(lab, learner, turn):
    n, words = WRONG[turn]
    learner.reset()
    for f in learner.workdir.iterdir():
        f.unlink()
    WRONG_TURNS[turn](learner)
    verdict = check_step(lab, learner, n)
    assert verdict["status"] == "fail", verdict
    for w in words:
        assert w in verdict["message"], (w, verdict["message"])


def restart_txt_then_llm01_failed_passes(lab, learner) -> None:
    """The end of every way back step 5 gives: restart.txt from the UIDs now, and llm-0-1 failed."""
    learner.write_restart(*learner.uids())
    ready = check_step(lab, learner, 5)
    assert ready["status"] == "waiting" and ready["message"].startswith("restart.txt is ready"), ready
    learner.fail_worker()
    done = check_step(lab, learner, 5)
    assert done["status"] == "pass" and done["message"].startswith("llm-0-1 failed"), done


def test_after_the_leader_failed_the_way_back_the_verdict_gives_passes(lab, learner):
    """The leader failed instead of llm-0-1; then, as the verdict says: restart.txt from the UIDs
    of the rebuilt group, and llm-0-1 failed. Step 5 passes."""
    learner.reset()
    for f in learner.workdir.iterdir():
        f.unlink()
    WRONG_TURNS["leader-failed"](learner)
    verdict = check_step(lab, learner, 5)
    assert verdict["status"] == "fail" and "write restart.txt from the UIDs llm-0 and llm-1 have now" in \
        " ".join(verdict["details"]), verdict
    restart_txt_then_llm01_failed_passes(lab, learner)


def test_after_both_workers_failed_the_way_back_the_verdict_gives_passes(lab, learner):
    """Both workers failed; then, as the verdict says: delete llm, apply lws.yaml again, write
    restart.txt, and fail llm-0-1. The recreations of the deleted llm are not this one's: step 5
    is ready once restart.txt is written, and passes once llm-0-1 failed."""
    learner.reset()
    for f in learner.workdir.iterdir():
        f.unlink()
    WRONG_TURNS["both-workers-failed"](learner)
    verdict = check_step(lab, learner, 5)
    advice = " ".join(verdict["details"])
    assert verdict["status"] == "fail" and "delete llm" in advice and "then fail llm-0-1" in advice, verdict
    learner.delete("leaderworkerset", "llm")
    learner.step1()
    restart_txt_then_llm01_failed_passes(lab, learner)

"""Start at any moment, on the real control plane: the TUI started after step 5, restarted in the
middle of step 6's rollout, started after step 8, and `check --json` run once at the end. Each
start has no history: the verdicts come from what the cluster still shows (once the rollout has
given llm-1 a new IP, step 4 asks for a fresh lookup, since the cluster keeps no earlier IP)."""

from __future__ import annotations

from tests import waits
from tests.e2e.learner import finish_rollout, llm, set_partition
from tests.e2e.live_tui import blocking, live_app, states_ok, until
from tests.e2e.test_live_source import tutor_check


async def fresh_tutor_passes(lab, learner, state_file, steps: set[int], then=None) -> None:
    """A TUI started now, with no progress, latches `steps` by itself; `then` runs while it watches."""
    app = live_app(lab.kubeconfig, learner.workdir, state_file)
    async with app.run_test(size=(100, 40)) as pilot:
        await until(pilot, lambda: states_ok(app), "every watch connected")
        if then is not None:
            await blocking(then)
        await until(pilot, lambda: steps <= set(app.session.progress.passed),
                    f"steps {sorted(steps)} passed; verdicts: "
                    f"{ {n: v.message[:80] for n, v in app.session.verdicts.items()} }")


def fresh_lookup(learner) -> None:
    """The learner looks the leader's name up again, and again while CoreDNS's cache (30 s, as in
    k3s's Corefile) still answers with llm-1's address from before the rollout."""
    learner.wait("a lookup that gives llm-1's new IP", lambda: (learner.pod("llm-1") or {}).get(
        "status", {}).get("podIP", "?") in learner.step4(), timeout=30 + waits.LAB)


async def test_the_tutor_started_late_passes_what_was_done(lab, learner, tmp_path):
    for step in (learner.step1, learner.step2, learner.step3, learner.step4, learner.step5):
        await blocking(step)
    # After step 5: a one-shot check and a fresh TUI pass steps 1 to 5.
    code, steps = await blocking(tutor_check, lab, learner.workdir)
    assert [n for n, s in steps.items() if s["status"] == "pass"] == [1, 2, 3, 4, 5], steps
    await fresh_tutor_passes(lab, learner, tmp_path / "after5.json", {1, 2, 3, 4, 5})

    # Step 6's change, with the rollout held after group 1: a tutor (re)started in the middle.
    await blocking(set_partition, learner, 1)
    await blocking(learner.apply, llm("v2"), "lws.yaml")
    await blocking(learner.wait, "group 1 rolled", lambda: all(
        (p := learner.pod(n)) and any(e.get("name") == "VERSION" for e in p["spec"]["containers"][0].get("env", []))
        and p["status"].get("phase") == "Running" for n in ("llm-1", "llm-1-1")))
    code, steps = await blocking(tutor_check, lab, learner.workdir, "--step", "4", "--step", "5", "--step", "6")
    assert steps[5]["status"] == "pass" and steps[6]["status"] == "waiting", steps
    # llm-1 has rolled, with a new IP: nothing the cluster shows confirms dns.txt's, which a
    # one-digit typo would match as well; step 4 asks for a fresh lookup instead of passing.
    assert steps[4]["status"] == "unconfirmed" and "cannot be confirmed" in steps[4]["message"], steps
    await fresh_tutor_passes(lab, learner, tmp_path / "mid.json", {1, 2, 3, 5, 6},
                             then=lambda: finish_rollout(learner))

    # After step 6: the fresh lookup passes step 4 in a tutor started now; and after step 8.
    await fresh_tutor_passes(lab, learner, tmp_path / "after6.json", {1, 2, 3, 4, 5, 6}, then=lambda: fresh_lookup(learner))
    await blocking(learner.step7)
    await blocking(learner.step8)
    code, steps = await blocking(tutor_check, lab, learner.workdir)
    assert code == 0 and all(s["status"] == "pass" for s in steps.values()), steps
    await fresh_tutor_passes(lab, learner, tmp_path / "after8.json", set(range(1, 9)))

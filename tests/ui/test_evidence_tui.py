"""The TUI on the recordings of wrong turns and late starts: the verdict box says what the
checker said, and progress latches only what was earned."""

from __future__ import annotations

import pytest

from tests.conftest import RECORDINGS
from tests.ui.harness import make_app
from tests.ui.settle import settled, step_drawn
from tutor.checks.verdict import Status


def box_text(app) -> str:
    return app.query_one("#verdict").text()


@pytest.mark.parametrize("name", ["uid-typo", "uid-made-up", "both-workers-failed", "leader-failed"])
async def test_a_refutable_answer_is_never_latched(name, tmp_path):
    app = make_app(RECORDINGS / f"{name}.jsonl", state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        await pilot.press("5")
        await step_drawn(pilot, 5)
        assert 5 not in app.session.progress.passed
        assert app.session.verdicts[5].status is Status.FAIL
        assert "FAIL" in box_text(app)
        expected = {"both-workers-failed": "recreated group 1",
                    "leader-failed": "The pod that failed is llm-0"}.get(name, "had before the failure")
        assert expected in box_text(app)


async def test_tutor_started_after_step8_passes_every_step_it_can_confirm(tmp_path):
    """All but step 4: llm-1 was replaced by the rollout after dns.txt was written, and nothing the
    cluster shows confirms the IP the file holds; the box asks for a fresh lookup."""
    app = make_app(RECORDINGS / "late-after-step8.jsonl", state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        assert sorted(app.session.progress.passed) == [1, 2, 3, 5, 6, 7, 8]
        assert [n for n, v in app.session.verdicts.items() if not v.passed] == [4]
        await pilot.press("4")
        await step_drawn(pilot, 4)
        assert "UNCONFIRMED" in box_text(app) and "FAIL" not in box_text(app)
        assert "cannot be confirmed" in box_text(app)


async def test_tutor_restarted_mid_rollout_sees_it_through(tmp_path):
    app = make_app(RECORDINGS / "late-mid-rollout.jsonl", state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        assert {5, 6} <= set(app.session.progress.passed)
        await pilot.press("6")
        await step_drawn(pilot, 6)
        assert "PASS" in box_text(app) and "one group at a time" in box_text(app)


async def test_tutor_after_a_rollout_that_recreated_group_1_keeps_step5(tmp_path):
    app = make_app(RECORDINGS / "late-after-rollout-recreated-group1.jsonl", lang="ko",
                   state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        assert 5 in app.session.progress.passed and app.session.verdicts[5].passed
        await pilot.press("5")
        await step_drawn(pilot, 5)
        assert "그룹 0만 다시" in box_text(app)

"""A kind the cluster does not serve is named on its pane by its own row of the kinds table
(tutor/cluster/kinds.py), in the learner's language."""

from __future__ import annotations

import pytest

from tests.conftest import WALKTHROUGH
from tests.ui.harness import make_app
from tests.ui.settle import settled, until
from tutor.cluster import kinds
from tutor.cluster.source_events import Conn, SourceState
from tutor.ui.panes.groups import GroupsPane
from tutor.narration.absent_kinds import absent


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_the_groups_pane_says_lws_is_not_installed_in_the_learners_language(tmp_path, lang):
    app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        app.driver.inbox.put(SourceState("leaderworkersets", Conn.CRD_MISSING, kinds.LEADER_WORKER_SET.absent_brief()))
        await until(pilot, lambda: str(app.query_one(GroupsPane).content) == absent(kinds.LEADER_WORKER_SET, lang),
                    "the groups pane to say LWS is not installed", seen=lambda: str(app.query_one(GroupsPane).content))
        shown = str(app.query_one(GroupsPane).content)
        assert ("LeaderWorkerSet이 설치되어 있지 않습니다" if lang == "ko" else "LeaderWorkerSet is not installed") in shown


async def test_a_gated_kind_not_served_is_named_with_its_gate(tmp_path):
    app = make_app(WALKTHROUGH, lang="ko", state_file=tmp_path / "p.json")
    async with app.run_test(size=(100, 40)) as pilot:
        await settled(pilot)
        app.driver.inbox.put(SourceState("podgroups", Conn.CRD_MISSING, kinds.POD_GROUP.absent_brief()))
        await until(pilot, lambda: app.page.unavailable("podgroups") == absent(kinds.POD_GROUP, "ko"),
                    "PodGroup named as not served", seen=lambda: app.page.unavailable("podgroups"))
        assert "GenericWorkload" in app.page.unavailable("podgroups") and app.page.unavailable("leaderworkersets") == ""


@pytest.mark.parametrize("lang, lws_words, gang_words", [
    ("en", "LeaderWorkerSet not installed", "PodGroup not served"),
    ("ko", "LeaderWorkerSet 미설치", "PodGroup 미제공")])
async def test_the_header_names_the_kind_that_is_not_served(tmp_path, lang, lws_words, gang_words):
    from tutor.ui.widgets.status_bar import StatusBar

    app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(160, 40)) as pilot:
        await settled(pilot)
        def header() -> str:
            app.lesson.draw_status()
            return str(app.query_one(StatusBar).content)

        app.driver.inbox.put(SourceState("podgroups", Conn.CRD_MISSING, kinds.POD_GROUP.absent_brief()))
        await until(pilot, lambda: f"({gang_words})" in header(), "the header to name PodGroup", seen=header)
        assert lws_words not in header(), header()
        app.driver.inbox.put(SourceState("leaderworkersets", Conn.CRD_MISSING, kinds.LEADER_WORKER_SET.absent_brief()))
        await until(pilot, lambda: lws_words in header() and gang_words in header(), "the header to name both kinds",
                    seen=header)

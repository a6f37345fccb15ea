"""The groups pane names each group's gang: the PodGroup its pods name (spec.schedulingGroup) and
that PodGroup's state as kubectl get podgroups prints it, or that the cluster has no such PodGroup;
whole at 80 columns, in Korean and in English."""

from __future__ import annotations

import copy
import io

import pytest
from rich.console import Console

from tests.conftest import WALKTHROUGH
from tests.states import state
from tests.ui.harness import make_app
from tests.ui.screen_text import region_text
from tests.ui.settle import settled, until
from tutor.cluster import objects as o
from tutor.cluster.source_events import ObjectEvent
from tutor.i18n.bilingual import say
from tutor.ui.panes.groups import GroupsKey, GroupsPane, groups_key, groups_view

NS = "infer"
UNSCHEDULABLE = {"type": "PodGroupInitiallyScheduled", "status": "False", "reason": "Unschedulable",
                 "message": "minCount (2) cannot be satisfied: 1 scheduled, 0 remaining"}
SCHEDULED = {"type": "PodGroupInitiallyScheduled", "status": "True", "reason": "Scheduled", "message": ""}


def pod_group(name: str, condition: dict | None = None, rv: str = "1") -> dict:
    return {"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
            "metadata": {"name": name, "namespace": NS, "uid": f"uid-{name}", "resourceVersion": rv},
            "spec": {"schedulingPolicy": {"gang": {"minCount": 2}}},
            "status": {"conditions": [condition] if condition else []}}


def in_gang(pod: dict, group: str) -> dict:
    """The pod as the API server keeps it when its template names a PodGroup."""
    out = copy.deepcopy(pod)
    out["spec"]["schedulingGroup"] = {"podGroupName": group}
    out["metadata"]["resourceVersion"] = o.resource_version(pod) + "-gang"
    return out


def gang_events(store, *pod_names: str, group: str = "orphan-0") -> list[ObjectEvent]:
    return [ObjectEvent("MODIFIED", in_gang(store.get("Pod", n, NS), group), store.now) for n in pod_names]


def lines(store, lang: str, width: int) -> list[str]:
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(groups_view(store, NS, lang))
    return console.export_text().splitlines()


def walkthrough(watches_pod_groups: bool = True):
    s = state("walkthrough")
    if watches_pod_groups:  # as a lesson that names PodGroup in its kinds
        s.store.watched = s.store.watched | {"PodGroup"}
    for ev in gang_events(s.store, "orphan-0", "orphan-0-1"):
        s.store.apply(ev)
    return s


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_groups_gang_and_its_state_in_each_language(lang):
    s = walkthrough()
    shown = lines(s.store, lang, 34)  # the groups pane's width at 80 columns
    missing = "PodGroup orphan-0 없음" if lang == "ko" else "no PodGroup orphan-0"
    assert any(ln.strip() == missing for ln in shown), shown
    s.store.apply(ObjectEvent("ADDED", pod_group("orphan-0", UNSCHEDULABLE), s.store.now))
    shown = lines(s.store, lang, 34)
    assert any(ln.strip() == "PodGroup orphan-0 Unschedulable" for ln in shown), shown
    s.store.apply(ObjectEvent("MODIFIED", pod_group("orphan-0", SCHEDULED, rv="2"), s.store.now))
    assert any(ln.strip() == "PodGroup orphan-0 Scheduled" for ln in lines(s.store, lang, 34))
    s.store.apply(ObjectEvent("MODIFIED", pod_group("orphan-0", rv="3"), s.store.now))
    assert any(ln.strip() == "PodGroup orphan-0 Pending" for ln in lines(s.store, lang, 34))
    # the gang line sits under its group's header, and only the gang's group has one
    at = next(i for i, ln in enumerate(shown) if "PodGroup" in ln)
    assert shown[at - 1].strip() == say(lang, "group {g}", "그룹 {g}", g=0) and shown[at + 1].strip().startswith("orphan-0 ")
    assert sum("PodGroup" in ln for ln in shown) == 1


def test_part_of_a_group_in_a_gang_and_a_state_the_tutor_cannot_see():
    s = state("walkthrough")
    for ev in gang_events(s.store, "orphan-0-1"):  # the worker template alone names it
        s.store.apply(ev)
    shown = lines(s.store, "ko", 60)
    assert any(ln.strip() == "PodGroup orphan-0 (상태 모름) (파드 2개 중 1개)" for ln in shown), shown
    english = [ln.strip() for ln in lines(s.store, "en", 60)]
    assert "PodGroup orphan-0 (state not seen) (1 of 2 pods)" in english


def test_the_kept_key_follows_pod_group_changes():
    s = walkthrough()
    kept = GroupsKey()
    assert kept.update(s.store, NS) == groups_key(s.store, NS)
    before = groups_key(s.store, NS)
    s.store.apply(ObjectEvent("ADDED", pod_group("orphan-0", UNSCHEDULABLE), s.store.now))
    assert kept.update(s.store, NS) == groups_key(s.store, NS) != before
    s.store.apply(ObjectEvent("DELETED", pod_group("orphan-0", UNSCHEDULABLE), s.store.now))
    assert kept.update(s.store, NS) == groups_key(s.store, NS) == before


@pytest.mark.parametrize("lang", ["ko", "en"])
async def test_the_gang_line_is_whole_in_the_pane_at_80_columns(tmp_path, lang):
    app = make_app(WALKTHROUGH, lang=lang, state_file=tmp_path / "p.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("3")  # a step that shows the groups pane, not the node ledger
        store = app.session.store
        store.watched = store.watched | {"PodGroup"}
        for ev in [*gang_events(store, "orphan-0", "orphan-0-1"),
                   ObjectEvent("ADDED", pod_group("orphan-0", UNSCHEDULABLE), store.now)]:
            app.driver.inbox.put(ev)
        await until(pilot, lambda: store.get("PodGroup", "orphan-0", NS) is not None and app.driver.pump.idle,
                    "the PodGroup applied and the panes redrawn")
        pane = app.query_one(GroupsPane)
        assert pane.display and pane.scrollable_content_region.width <= 34
        width = pane.scrollable_content_region.width
        at = next(i for i, ln in enumerate(lines(store, app.lang, width)) if "PodGroup" in ln)
        pane.scroll_to(y=at, animate=False)  # the orphan LWS, between llm and wide

        def shown() -> list[str]:
            return region_text(app, pane.scrollable_content_region).splitlines()
        await until(pilot, lambda: any(ln.strip() == "PodGroup orphan-0 Unschedulable" for ln in shown()),
                    "the orphan's PodGroup line in view", seen=shown)

"""The groups pane's gang lines follow the PodGroup's state, whatever address its object has."""

from __future__ import annotations

from tests.ui.test_gang_pane import SCHEDULED, UNSCHEDULABLE, lines, pod_group, walkthrough
from tutor.cluster.events import ObjectEvent
from tutor.ui.panes.groups import GroupsKey


def test_a_podgroup_changed_twice_between_two_draws_is_not_taken_for_the_one_drawn():
    """The groups pane's key named a group's PodGroup by id(), and nothing kept that object alive:
    drawn with one PodGroup, then changed twice before the next draw, the newest could be given
    the freed address of the one drawn (CPython reuses a freed dict's memory for the next dict),
    and the pane kept the state it showed while the cluster's had moved on."""
    s = walkthrough()  # orphan-0's pods name the PodGroup orphan-0
    store = s.store
    store.apply(ObjectEvent("ADDED", pod_group("orphan-0", rv="1"), store.now))  # Pending: no condition yet
    key = GroupsKey()
    drawn = key.update(store, "infer")
    drawn_id = id(store.get("PodGroup", "orphan-0", "infer"))
    assert "PodGroup orphan-0 Pending" in " ".join(_view(store))
    scheduled = ObjectEvent("MODIFIED", pod_group("orphan-0", SCHEDULED, rv="2"), store.now)
    template, held = pod_group("orphan-0", UNSCHEDULABLE, rv="3"), []  # made before: it takes no freed memory
    store.apply(scheduled)  # the drawn PodGroup is freed
    del scheduled
    newest = dict(template)
    while id(newest) != drawn_id and len(held) < 100_000:  # the address the drawn PodGroup had
        held.append(newest)
        newest = dict(template)
    assert id(newest) == drawn_id, "the allocator gave no dict the freed address"
    store.apply(ObjectEvent("MODIFIED", newest, store.now))
    assert "PodGroup orphan-0 Unschedulable" in " ".join(_view(store))
    assert key.update(store, "infer") != drawn  # the view changed: so must its key


def _view(store) -> list[str]:
    return lines(store, "en", 100)

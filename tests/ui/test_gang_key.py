"""The groups pane's gang lines follow the PodGroup's state, whatever address its object has."""

from __future__ import annotations

from tests.ui.test_gang_pane import SCHEDULED, UNSCHEDULABLE, lines, pod_group, walkthrough
from tutor.cluster.source_events import ObjectEvent
from tutor.ui.panes import groups
from tutor.ui.panes.groups import GroupsKey


def test_a_podgroup_changed_twice_between_two_draws_is_not_taken_for_the_one_drawn(monkeypatch):
    """The groups pane's key named a group's PodGroup by id(), and nothing kept that object alive:
    drawn with one PodGroup, then changed twice before the next draw, the newest could be given
    the freed address of the one drawn (CPython reuses a freed dict's memory for the next dict),
    and the pane kept the state it showed while the cluster's had moved on. Whether the allocator
    hands that address on is chance, so here every object has one id, as if it always did: a key
    that names the PodGroup by its id() then stays the same, one that holds its state does not."""
    monkeypatch.setattr(groups, "id", lambda _obj: 1, raising=False)  # the module's id() before the builtin
    s = walkthrough()  # orphan-0's pods name the PodGroup orphan-0
    store = s.store
    store.apply(ObjectEvent("ADDED", pod_group("orphan-0", rv="1"), store.now))  # Pending: no condition yet
    key = GroupsKey()
    drawn = key.update(store, "infer")
    assert "PodGroup orphan-0 Pending" in " ".join(_view(store))
    store.apply(ObjectEvent("MODIFIED", pod_group("orphan-0", SCHEDULED, rv="2"), store.now))
    store.apply(ObjectEvent("MODIFIED", pod_group("orphan-0", UNSCHEDULABLE, rv="3"), store.now))
    assert "PodGroup orphan-0 Unschedulable" in " ".join(_view(store))
    assert key.update(store, "infer") != drawn  # the view changed: so must its key


def _view(store) -> list[str]:
    return lines(store, "en", 100)

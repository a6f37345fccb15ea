"""What the live panes share: what they are drawn from, the pod order, a pod's phase, and the gate
that keeps a pane from being asked again while its inputs are the same.

Nothing in the panes prints a wall-clock time or an age, so a replayed recording renders the
same way every run (snapshot tests rely on it).
"""

from __future__ import annotations

from typing import Callable, Collection, NamedTuple, TypeGuard

from rich.text import Text

from tutor.cluster import objects as o
from tutor.cluster.store import Store

# What a pane derives from one object, kept while the store holds that very object (objects.memo).
# A re-check in a namespace of thousands of pods then redoes only the pods that changed.
memo = o.memo

PHASE_STYLE = {"Running": "green", "Pending": "yellow", "Failed": "red", "Succeeded": "blue"}


class LiveData(NamedTuple):
    """What every live pane is drawn from, gathered by the app once per redraw."""

    store: Store
    namespace: str
    gpu: str  # the lesson's GPU resource name (the ledger counts it)
    lang: str  # every word of a pane is said in it (tutor/i18n/bilingual.py: say)
    unavailable: Callable[[str], str]  # why a resource cannot be shown (forbidden, CRD missing), or ""
    # the pods and nodes the current step is about (the ledger shows those nodes, and the nodes of
    # those pods, first)
    about: tuple[str, ...] = ()


def phase_text(pod: dict) -> Text:
    ph = "Terminating" if o.is_terminating(pod) else o.phase(pod)
    return Text(ph, style=PHASE_STYLE.get(ph, "dim"))


def _pod_order(pod: dict) -> tuple:
    g, w = o.group_index(pod), o.worker_index(pod)
    return (o.lws_name(pod), g is None, g or 0, w is None, w or 0, o.name(pod))


def pod_order(pod: dict) -> tuple:
    """The order pods are listed in: LWS, group, worker (those without an index last), name."""
    return memo(pod, "sort", _pod_order)


def about_first(pod: dict, about: Collection[str]) -> tuple:
    """The pods pane's order: the pods the step is about first (LiveData.about), then pod_order."""
    return (o.name(pod) not in about, pod_order(pod))


def waits_for_a_node(pod: dict | None) -> TypeGuard[dict]:
    """A pod the scheduler has still to place: no node, not going, not finished."""
    return pod is not None and not o.node_name(pod) and not o.is_terminating(pod) \
        and o.phase(pod) not in ("Succeeded", "Failed")

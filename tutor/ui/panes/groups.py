"""The groups pane: each LWS, its first MAX_GROUPS groups, each group's gang (the PodGroup its
pods name, and its state), and each group's pods.

From scratch: groups_view, and groups_key, what it shows as identities. Kept up to date:
GroupsKey, which redoes only the LWS whose shown groups changed (tests/ui/test_incremental.py
holds it equal to groups_key). Drawn by GroupsPane, which renders groups_view when the key moved.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from typing import NamedTuple

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from tutor.cluster import gang as gg
from tutor.cluster import kinds as kind_table, objects as o
from tutor.cluster.store import Store
from tutor.ui.panes.common import LiveData, memo, phase_text, pod_order
from tutor.ui.widgets.redraw import LastKey, RedrawsOnChange
from tutor.ui.widgets.text_blocks import TextBlocks
from tutor.i18n.bilingual import say

MAX_GROUPS = 6  # per LWS in the groups pane; the pods pane lists every pod
LWS_CONDITIONS = ("Available", "Progressing", "UpdateInProgress")  # the condition types LWS sets (lws-facts §2)
# The kinds the pane reads, named by their rows in the kinds table.
POD, LWS, POD_GROUP = kind_table.POD.kind, kind_table.LEADER_WORKER_SET.kind, kind_table.POD_GROUP.kind


# --- rows from scratch --------------------------------------------------------------------------

class LwsGroup(NamedTuple):
    group_index: int | None  # None for pods without one (not `index`, which is tuple's method)
    pods: list[dict]  # in common.pod_order


class GroupRow(NamedTuple):
    """One pod's line under its group's header."""

    pod: Text  # its name and role: L for the leader, Wn for worker n
    phase: Text
    node: Text
    revision: Text  # the first 8 characters


class ShownGroup(NamedTuple):
    header: Text
    rows: list[GroupRow]
    gangs: list[Text] = []  # a line per PodGroup its pods name (Kubernetes 1.37 gang scheduling)


def _lws_header(lws: dict, lang: str) -> Text:
    spec, status = o.as_dict(lws.get("spec")), o.as_dict(lws.get("status"))
    size = o.dig(spec, "leaderWorkerTemplate", "size", default="?")
    out = Text()
    out.append(o.name(lws), style="bold cyan")
    out.append(f" {spec.get('replicas', '?')}×{size}", style="bold")
    out.append("  " + say(lang, "ready {r} · updated {u}", "준비 {r} · 갱신 {u}",
                          r=status.get("readyReplicas", 0), u=status.get("updatedReplicas", 0)))
    for c in (c for c in o.as_list(status.get("conditions")) if isinstance(c, dict)):
        if c.get("status") == "True":
            out.append(f"  {c.get('type')}", style="green")
        elif c.get("type") not in LWS_CONDITIONS:  # a newer LWS's: what its False or Unknown means is not known
            out.append(f"  {c.get('type')}={c.get('status')}", style="yellow")
        # LWS sets its own conditions only True; a False one of them is a stale leftover
    return out


def _group_header(store: Store, lws: str, group: LwsGroup, lang: str) -> Text:
    g, members = group.group_index, group.pods
    out = Text(say(lang, "group {g}", "그룹 {g}", g=g if g is not None else "?"), style="bold")
    running_revs = {o.revision(p) for p in members if o.phase(p) == "Running"
                    and not o.is_terminating(p) and o.revision(p)}
    recreated = sum(store.obs.recreations(o.name(p)) for p in members if o.worker_index(p) == 0)
    if recreated:
        out.append(f" ↻{recreated}", style="magenta")
    if len(running_revs) > 1:
        out.append(" ⚠ " + say(lang, "two revisions running", "리비전 둘이 함께 도는 중"), style="bold red")
    elif (lws, g) in store.obs.mixed_groups:
        out.append(" ⚠ " + say(lang, "once held two revisions", "리비전 둘이 함께 있었음"), style="red")
    return out


GANG_STYLE = {gg.SCHEDULED: "green", gg.PENDING: "yellow", gg.MISSING: "bold red"}


def _gangs_of(members: list[dict]) -> list[tuple[str, int]]:
    """The PodGroups a group's pods name, in pod order, each with how many of its pods name it."""
    named: dict[str, int] = {}
    for p in members:
        if name := gg.group_name(p):
            named[name] = named.get(name, 0) + 1
    return list(named.items())


def _gang_line(store: Store, namespace: str, name: str, naming: int, size: int, lang: str) -> Text:
    """"PodGroup orphan-0 Unschedulable": the gang the group's pods name and its state, as kubectl
    get podgroups says it ("no PodGroup orphan-0" when the cluster has none of that name)."""
    if not store.sees(POD_GROUP):  # not watched by this lesson, or refused: the state is not known
        line, style = Text(say(lang, "PodGroup {g} (state not seen)", "PodGroup {g} (상태 모름)", g=name)), "dim"
    else:
        pg = store.get(POD_GROUP, name, namespace)
        state = gg.state(pg)
        line = Text(say(lang, "no PodGroup {g}", "PodGroup {g} 없음", g=name) if pg is None
                    else say(lang, "PodGroup {g} {state}", "PodGroup {g} {state}", g=name, state=state))
        style = GANG_STYLE.get(state, "red")  # Unschedulable, SchedulerError
    line.stylize(style)
    line.highlight_words([name], "bold")
    if naming < size:  # only some of the group's pods are in the gang
        line.append(" " + say(lang, "({k} of {n} pods)", "(파드 {n}개 중 {k}개)", k=naming, n=size), style="dim")
    return line


def _gang_key(store: Store, namespace: str, members: list[dict]) -> tuple:
    """What the gang lines show, as values. Not the PodGroup's id(): nothing keeps that object
    alive, and one changed twice between two draws could be given the freed address of the one
    drawn, so the pane kept its old state."""
    return tuple((name, naming, gg.state(store.get(POD_GROUP, name, namespace))) for name, naming in _gangs_of(members))


def _group_row(p: dict) -> GroupRow:
    role = "L" if o.worker_index(p) == 0 else f"W{o.worker_index(p)}"
    return GroupRow(pod=Text(f"{o.name(p)} {role}", style="bold" if role == "L" else ""), phase=phase_text(p),
                    node=Text(o.node_name(p) or "-", style="dim"), revision=Text(o.revision(p)[:8] or "-", style="dim"))


GIVES_WAY = ("revision", "node")  # the columns a narrow pane drops, first to go first


class _LinedUp:
    """An LWS's groups, each a header and a grid of its pods. When the pane is wide enough, each
    column is as wide across the groups as its widest cell, so the groups line up; in a narrow
    pane the grids shrink on their own, as before (padding would only be cut to "…")."""

    def __init__(self, groups: list[ShownGroup]):
        self.groups = groups

    def __rich_console__(self, console, options):
        rows = [row for group in self.groups for row in group.rows]
        widths = [max((cell.cell_len for cell in column), default=0) for column in zip(*rows)]
        keep = list(range(len(GroupRow._fields)))

        def fits() -> bool:  # the indent, the cells, a space each
            return 1 + sum(widths[i] for i in keep) + len(keep) <= options.max_width

        for name in GIVES_WAY:  # the pod and its phase stay whole; the revision and the node go first
            if not rows or fits():
                break
            keep.remove(GroupRow._fields.index(name))
        lined_up = bool(rows) and fits()
        for group in self.groups:
            yield Padding(group.header, (0, 0, 0, 1))
            for line in group.gangs:
                yield Padding(line, (0, 0, 0, 2))
            table = Table.grid(padding=(0, 1))
            table.add_column(no_wrap=True, width=1)  # the indent: the rows sit under their header
            for _ in keep:
                table.add_column(no_wrap=True, overflow="ellipsis")
            for row in group.rows:
                table.add_row("", *(_padded(row[i], widths[i]) if lined_up else row[i] for i in keep))
            yield table


def _padded(cell: Text, width: int) -> Text:
    if cell.cell_len >= width:
        return cell
    out = cell.copy()  # the memoised row is shared
    out.pad_right(width - cell.cell_len)
    return out


def _group_order(g: int | None) -> tuple:
    return (g is None, g or 0)


def shown_groups(store: Store, namespace: str, lws: str) -> tuple[list[LwsGroup], int]:
    """The first MAX_GROUPS groups of an LWS, and how many groups it has."""
    groups = store.group_indexes(lws, namespace)
    first = heapq.nsmallest(MAX_GROUPS, groups, key=_group_order)  # indexes are distinct: as sorted()[:n]
    return [LwsGroup(g, sorted(store.pods_in_group(lws, g, namespace), key=pod_order)) for g in first], len(groups)


class _LwsPart(NamedTuple):
    """One LWS's part of groups_key, with what it was made from."""

    lws: dict  # the LWS object
    groups: int  # how many groups it has
    shown: list[LwsGroup]
    key: tuple


def _lws_part(store: Store, namespace: str, lws: dict) -> _LwsPart:
    name = o.name(lws)
    shown, total = shown_groups(store, namespace, name)
    mixed = store.obs.mixed_groups
    key: list[tuple] = [(id(lws), total)]
    for group in shown:
        key.append((group.group_index, (name, group.group_index) in mixed,
                    tuple((id(p), store.obs.recreations(o.name(p))) for p in group.pods),
                    _gang_key(store, namespace, group.pods)))
    return _LwsPart(lws, total, shown, tuple(key))


def _lwss(store: Store, namespace: str) -> list[dict]:
    return sorted(store.all(LWS, namespace), key=o.name)


def groups_key(store: Store, namespace: str, lang: str = "en") -> tuple:
    """What groups_view shows, as identities: equal keys mean an identical view."""
    key: list = [(say(lang, "group {g}", "그룹 {g}", g=0), store.sees(POD_GROUP))]
    for lws in _lwss(store, namespace):
        key += _lws_part(store, namespace, lws).key
    return tuple(key)


def groups_view(store: Store, namespace: str, lang: str = "en") -> RenderableType:
    lwss = _lwss(store, namespace)
    if not lwss:
        return Text(say(lang, "No LeaderWorkerSet in {ns} yet.",
                              "{ns}에 아직 LeaderWorkerSet이 없습니다.", ns=namespace), style="dim")
    parts: list[RenderableType] = []
    for lws in lwss:
        name = o.name(lws)
        parts.append(_lws_header(lws, lang))
        shown, total = shown_groups(store, namespace, name)
        parts.append(_LinedUp([ShownGroup(_group_header(store, name, group, lang),
                                          [memo(p, "group-row", _group_row) for p in group.pods],
                                          [_gang_line(store, namespace, g, naming, len(group.pods), lang)
                                           for g, naming in _gangs_of(group.pods)]) for group in shown]))
        if total > len(shown):
            parts.append(Padding(Text(say(lang, "… {n} more groups (every pod is in the Pods pane)",
                                                "… 그룹 {n}개 더 (모든 파드는 파드 창에)",
                                                n=total - len(shown)), style="dim"), (0, 0, 0, 1)))
        parts.append(Text(""))
    return Group(*parts[:-1])


# --- kept up to date ----------------------------------------------------------------------------

class GroupsKey:
    """groups_key, kept up to date: an LWS's part is redone only when its object, its number of
    groups, or a group among the first MAX_GROUPS (the ones shown) changed."""

    def __init__(self) -> None:
        self._parts: dict[str, _LwsPart] = {}  # by LWS name
        self._basis: tuple | None = None  # (namespace, (the language's "group 0", whether PodGroups are seen))

    def update(self, store: Store, namespace: str, lang: str = "en") -> tuple:
        changes = store.take_changes(self)
        basis = (namespace, (say(lang, "group {g}", "그룹 {g}", g=0), store.sees(POD_GROUP)))
        # a PodGroup changed: any group may name it (they are few, and rarely change)
        if changes.everything or basis != self._basis or changes.objects[POD_GROUP]:
            self._basis, self._parts = basis, {}
        touched: dict[str, list] = {}
        for ns, lws_name, g in changes.groups:
            if ns == namespace:
                touched.setdefault(lws_name, []).append(g)
        parts: dict[str, _LwsPart] = {}
        key: list = [basis[1]]
        for lws in _lwss(store, namespace):
            name = o.name(lws)
            part = self._parts.get(name)
            if part is None or part.lws is not lws or part.groups != len(store.group_indexes(name, namespace)) \
                    or _shows_any(part.shown, touched.get(name, ())):
                part = _lws_part(store, namespace, lws)
            parts[name] = part
            key += part.key
        self._parts = parts
        return tuple(key)


def _shows_any(shown: list[LwsGroup], groups) -> bool:
    """Whether a change to these groups can change what is shown: they are among the first
    MAX_GROUPS, or fewer than that are shown (a group gone or come changes the count, checked
    apart)."""
    if not groups:
        return False
    if len(shown) < MAX_GROUPS:
        return True
    last = _group_order(shown[-1].group_index)
    return any(_group_order(g) <= last for g in groups)


# --- the widget ---------------------------------------------------------------------------------

class GroupsPane(RedrawsOnChange, TextBlocks):
    """groups_view as one block of lines, named by its key. Not a Static: a Static whose height
    changes (a pod gone, a group rebuilt) lays out the whole screen, about 10 ms a frame here;
    lines that change their count only change the scroll range."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._key = GroupsKey()  # groups_key, followed through the store's changes
        self._inputs = LastKey()  # the cheap counters it was last drawn from

    def redraw(self, live: LiveData) -> Iterator[None]:
        """Redraws when what the groups show may have changed, and yields once it did. Followed
        even while the ledger has the pane's place: g brings the groups back at once."""
        unavailable = live.unavailable(kind_table.LEADER_WORKER_SET.name)
        kinds = live.store.kind_version
        if self._inputs.changed((kinds[POD], kinds[LWS], kinds[POD_GROUP], live.store.sees(POD_GROUP),
                                 len(live.store.obs.mixed), live.lang, unavailable)):
            self.show(live.store, live.namespace, live.lang, unavailable)
            yield

    def show(self, store: Store, namespace: str, lang: str = "en", unavailable: str = "") -> None:
        # changes beyond the groups shown change nothing
        key = (unavailable, self._key.update(store, namespace, lang))
        if self._is_new(key):
            self.set_blocks((Text(unavailable) if unavailable else groups_view(store, namespace, lang),), (key,))

    @property
    def content(self) -> RenderableType:
        """What is shown (tests read it, as a Static's)."""
        return self._blocks[0] if self._blocks else Text("")

"""What a checker sees: the cluster's objects, the answer files, the lesson and the learner's
language. The store itself is the engine's (`_store`, read by tutor/checks and the checker API):
a lesson reads objects through Context's methods and tutor/checks/api.py (named, every, timeline,
uid_owner, ...), never the store, so the store can change beneath the lessons
(tests/test_checker_api.py holds them to it)."""

from __future__ import annotations

from dataclasses import dataclass

from tutor.cluster import kinds, objects as o
from tutor.cluster.store import Store
from tutor.lesson.loader import Lesson
from tutor.workspace.watch import Workspace


@dataclass(frozen=True)
class Context:
    _store: Store
    workspace: Workspace
    lesson: Lesson
    lang: str = "en"
    # Whether verdicts carry the scheduler explanations (checks/explain.py): the tutor shows one
    # step's details at a time, so it asks them only for that step; `lwstutor check` for all.
    explain: bool = True

    @property
    def ns(self) -> str:
        return self.lesson.namespace

    @property
    def gpu(self) -> str:
        return self.lesson.gpu_resource

    def path(self, name: str) -> str:
        return self.workspace.path(name)

    # --- live objects -------------------------------------------------------------------
    def lws(self, name: str) -> dict | None:
        return self._store.get(kinds.LEADER_WORKER_SET.kind, name, self.ns)

    def pod(self, name: str) -> dict | None:
        pod = self._store.get(kinds.POD.kind, name, self.ns)
        return pod if pod is not None and not o.is_terminating(pod) else None

    def terminating(self, name: str) -> dict | None:
        """The pod of that name while it is being deleted (pod() hides it): a real kubelet keeps
        it through its grace period."""
        pod = self._store.get(kinds.POD.kind, name, self.ns)
        return pod if pod is not None and o.is_terminating(pod) else None

    def terminating_of(self, lws: str) -> list[dict]:
        return sorted((p for p in self._store.pods_of(lws, self.ns) if o.is_terminating(p)), key=o.name)

    def pods_of(self, lws: str) -> list[dict]:
        return sorted((p for p in self._store.pods_of(lws, self.ns) if not o.is_terminating(p)),
                      key=lambda p: (o.group_index(p) is None, o.group_index(p) or 0,
                                     o.worker_index(p) or 0, o.name(p)))

    def events_about(self, name: str, kind: str | None = None) -> list[dict]:
        out = [e for e in self._store.events_about(name, self.ns)
               if kind is None or o.event_regarding(e).get("kind") == kind]
        return sorted(out, key=o.event_order)

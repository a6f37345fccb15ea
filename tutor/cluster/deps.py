"""What a checker can depend on, as typed keys of Store.name_version: each key's count grows
whenever what it names changes, so a checker that reads a few things re-runs only when those
moved (tutor/checks/reads.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Named:
    """An object of a kind by name (its old and its new version)."""
    kind: str
    name: str


@dataclass(frozen=True, slots=True)
class EventsAbout:
    """The Events about an object of this name, of any kind."""
    name: str


@dataclass(frozen=True, slots=True)
class PodsOf:
    """The pods labelled as one LWS's."""
    lws: str


@dataclass(frozen=True, slots=True)
class NamedAfter:
    """Every Pod, StatefulSet and Event subject named like one of an LWS's (store.named_after)."""
    lws: str


@dataclass(frozen=True, slots=True)
class UidOwners:
    """Who held a pod UID (Observations.uid_owner): grows when a UID is first known."""


UIDS = UidOwners()
Dep = Named | EventsAbout | PodsOf | NamedAfter | UidOwners

"""What a checker can depend on, as typed keys of Store.name_version: each key's count grows
whenever what it names changes, so a checker that reads a few things re-runs only when those
moved (tutor/checks/reads.py).

Named tuples, each with its own tag, so two kinds of key never compare equal, and each hashes as
fast as a tuple: the store touches several on every change it applies."""

from __future__ import annotations

from typing import NamedTuple


class Named(NamedTuple):
    """An object of a kind by name (its old and its new version)."""
    kind: str
    name: str
    tag: str = "named"


class EventsAbout(NamedTuple):
    """The Events about an object of this name, of any kind."""
    name: str
    tag: str = "events about"


class PodsOf(NamedTuple):
    """The pods labelled as one LWS's."""
    lws: str
    tag: str = "pods of"


class NamedAfter(NamedTuple):
    """Every Pod, StatefulSet and Event subject named like one of an LWS's (handlers.named_after)."""
    lws: str
    tag: str = "named after"


class UidOwners(NamedTuple):
    """Who held a pod UID (Observations.uid_owner): grows when a UID is first known."""
    tag: str = "UIDs"


UIDS = UidOwners()
Dep = Named | EventsAbout | PodsOf | NamedAfter | UidOwners

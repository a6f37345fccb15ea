"""Synthetic watch streams cloned from the real walkthrough recording (the one `lwstutor demo` plays).

Two real sequences are cut from the walkthrough, both about group 1 of LWS `llm` (pods `llm-1`,
`llm-1-1`, StatefulSet `llm-1` and the Events about them):
  - creation: the group's pods are created, scheduled and start Running;
  - update: the rolling update of step 6 (old pods terminate and go, new-revision pods come up).
Each is turned into JSON text templates in which names, group index, UIDs, pod IPs, revisions and
resourceVersions are placeholders; a clone renders a template for group g of a fleet LWS. The
shapes (labels, managed fields, statuses) are the real ones; only identities change.

Events are produced as JSON text and parsed by the consumer, as the live source parses each
watch line, so a burst costs what a real one costs and the generator holds no 10,000 objects.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass

from tutor.cluster import objects as o
from tutor.cluster import wire
from tutor.cluster.source_events import FileChanged, ObjectEvent
from tutor.cluster.recording import Recording, read
from tutor.demo import walkthrough

WALKTHROUGH = walkthrough()
FLEET = "fleet"
GROUP_NAMES = ("llm-1", "llm-1-1")
UUID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
IP_RE = re.compile(r"10\.42\.\d+\.\d+")
RV_RE = re.compile(r'"resourceVersion": "\d+"')
PH_RE = re.compile(r"@@(\w+)@@")


def _about_group(obj: dict) -> bool:
    if o.name(obj) in GROUP_NAMES:
        return True
    if o.kind(obj) == "Event":
        return o.event_regarding(obj).get("name") in GROUP_NAMES
    return False


def _written(rec: Recording, name: str, containing: str = "") -> float:
    return next(it.t for it in rec.items if isinstance(it, FileChanged) and it.name == name
                and it.content is not None and containing in it.content)


@dataclass
class Template:
    type: str
    text: str  # JSON with @@KEY@@ placeholders
    kind: str


class Cloner:
    """Renders the creation and update sequences for any group of the fleet LWS."""

    def __init__(self, recording: Recording | None = None):
        self.rec = recording or read(WALKTHROUGH)
        evs = [it for it in self.rec.items if isinstance(it, ObjectEvent)]
        # Cut by what the learner did, not by times: group 1 is created before step 6's lws.yaml
        # (the one with VERSION) is written and rolls between it and step 7's wide.yaml.
        rollout, placement = (_written(self.rec, "lws.yaml", "VERSION"), _written(self.rec, "wide.yaml"))
        create = [e for e in evs if e.t < rollout and _about_group(e.obj)]
        update = [e for e in evs if rollout <= e.t < placement and _about_group(e.obj)]
        self.revisions = (o.revision(create[-1].obj), o.revision(update[-1].obj))
        assert all(self.revisions) and self.revisions[0] != self.revisions[1]
        # UIDs and IPs keep their role: (owner name, generation). Generation 1 is a thing born
        # during the update (the new pods, its Events): in round k it is generation k+1.
        self._uids: dict[str, tuple[str, int]] = {}
        self._ips: dict[str, tuple[str, int]] = {}
        for gen, seq in ((0, create), (1, update)):
            for e in seq:
                text = json.dumps(e.obj, ensure_ascii=False)
                owner = o.name(e.obj)
                self._uids.setdefault(o.uid(e.obj), (owner, gen))
                for u in UUID_RE.findall(text):
                    self._uids.setdefault(u, (u, 0))  # references (owner StatefulSet): stable
                for ip in IP_RE.findall(text):
                    if ip == o.pod_ip(e.obj):
                        self._ips.setdefault(ip, (owner, gen))
        self.create = [self._template(e) for e in create]
        self.update = [self._template(e) for e in update]
        self.base_lws = next(e.obj for e in reversed(evs) if o.kind(e.obj) == "LeaderWorkerSet"
                             and o.name(e.obj) == "llm")
        self.walkthrough = self.rec.items
        self._rv = 100_000

    def _template(self, e: ObjectEvent) -> Template:
        text = json.dumps(e.obj, ensure_ascii=False)
        text = UUID_RE.sub(lambda m: f"@@U{list(self._uids).index(m.group())}@@", text)
        text = IP_RE.sub(lambda m: f"@@I{list(self._ips).index(m.group())}@@" if m.group() in self._ips
                         else m.group(), text)
        text = RV_RE.sub('"resourceVersion": "@@RV@@"', text)
        for i, rev in enumerate(self.revisions):
            text = text.replace(rev, f"@@R{i}@@")
        text = text.replace("llm-1-1", "@@W@@").replace("llm-1", "@@L@@")
        text = re.sub(r"\bllm\b", "@@N@@", text)
        text = text.replace('"leaderworkerset.sigs.k8s.io/group-index": "1"',
                            '"leaderworkerset.sigs.k8s.io/group-index": "@@G@@"')
        return Template(e.type, text, o.kind(e.obj))

    # --- rendering -------------------------------------------------------------------------
    @staticmethod
    def revision(k: int) -> str:
        return uuid.uuid5(uuid.NAMESPACE_OID, f"rev/{k}").hex[:10]

    def _values(self, g: int, rnd: int) -> dict[str, str]:
        vals = {"N": FLEET, "L": f"{FLEET}-{g}", "W": f"{FLEET}-{g}-1", "G": str(g),
                "R0": self.revision(rnd), "R1": self.revision(rnd + 1)}
        for i, (owner, gen) in enumerate(self._uids.values()):
            vals[f"U{i}"] = str(uuid.uuid5(uuid.NAMESPACE_OID, f"{g}/{owner}/{rnd + gen}"))
        for i, (owner, gen) in enumerate(self._ips.values()):
            n = hash((g, owner, rnd + gen)) % 65000
            vals[f"I{i}"] = f"10.{42 + n // 65000}.{n // 250 % 256}.{n % 250 + 2}"
        return vals

    def render(self, tpl: Template, vals: dict[str, str]) -> str:
        self._rv += 1
        vals["RV"] = str(self._rv)
        return json.dumps({"type": tpl.type, "object": None})[:-5] + \
            PH_RE.sub(lambda m: vals[m.group(1)], tpl.text) + "}"

    def group_lines(self, g: int, phase: str, rnd: int = 0):
        """JSON watch lines ({"type", "object"}) for one group: `create` or `update` round rnd
        (round 0 moves revision 0 to 1, round 1 moves 1 to 2, ...)."""
        vals = self._values(g, rnd)
        for tpl in (self.create if phase == "create" else self.update):
            yield self.render(tpl, vals)

    def fleet_lws(self, replicas: int) -> dict:
        lws = json.loads(json.dumps(self.base_lws).replace('"llm"', f'"{FLEET}"'))
        lws["metadata"]["uid"] = str(uuid.uuid5(uuid.NAMESPACE_OID, "fleet-lws"))
        lws["metadata"]["resourceVersion"] = "99999"
        lws["spec"]["replicas"] = replicas
        return lws

    def population(self, groups: int):
        """Lines that create `groups` groups (2 pods each) of the fleet LWS."""
        yield json.dumps({"type": "ADDED", "object": self.fleet_lws(groups)})
        for g in range(groups):
            yield from self.group_lines(g, "create")

    def storm(self, groups: int, count: int, first_round: int = 0):
        """`count` lines of rolling updates across the fleet: every group rolls to the next
        revision, group after group from the highest index down (as LWS does: in the walkthrough
        group 1 goes before group 0); then the next round starts."""
        n, rnd = 0, first_round
        while True:
            for g in reversed(range(groups)):
                for line in self.group_lines(g, "update", rnd):
                    if n >= count:
                        return
                    yield line
                    n += 1
            rnd += 1


def parse(line: str, t: float = 0.0) -> ObjectEvent:
    """What the live source does with one watch line (tutor.cluster.live LiveSource._watch)."""
    ev = wire.decode(line)
    o.drop_managed_fields(ev["object"])
    return ObjectEvent(ev["type"], ev["object"], t)

"""Mutation testing of the gang lesson's answers, with the operators of tests/mutations.py.

For each committed gang recording, each step with answer files is taken at the moment it first
passed, and each of its files is mutated one token at a time: a digit or a name changed (a pod's,
a PodGroup's, a version's), a value or a word of a message changed, a line dropped, two lines
swapped, a scheduler clause dropped or its count changed, the GPU limit dropped or moved to the
leader, a field moved out of one template or out of its place, minCount changed, podGroupName
changed, the gang policy made basic. A mutant that still passes "survives"; the ones the lab
cannot tell from a right answer are in ACCEPTED with the reason, and the ones that are checker
bugs not fixed yet are in OPEN_BUGS (each fails the test once it is killed). Harmless variations
(spacing, CRLF, blank lines, comments, re-dumped YAML, documents in another order, kubectl's
other forms of the same output) must still pass.

Some steps are judged on what no answer file holds, and evidence mutants change the cluster
instead, with the right answers: the PodGroup's condition said otherwise (step 4), a member of
the gang bound (steps 4 and 7), and which pod blocks the gang told the other way round (step 5).
Each must fail. Nothing here reads a checker's words: a verdict is passed or not.

    python -m tests.mutations      # the figures of both lessons
"""

from __future__ import annotations

import copy
import re

from tests.conftest import LESSON_RECORDINGS
from tests.mutations import (CLAUSE_RE, Evidence, LWT, Lesson, Mutant, Rule, TEMPLATES, _char_mutants, _lines,
                             clause_mutants, distinct, drop_lines, harmless_base, moved, per_doc, value_mutants, word_mutants,
                             yaml_structure_mutants)
from tutor.cluster import kinds, objects as o
from tutor.lesson.loader import load

KIND = "PodGroup"
PODGROUPS = ("orphan-0", "big-0")  # the lesson's gangs, one group each
MEMBERS = ("orphan-0", "orphan-0-1")  # the pods of the gang orphan-0, leader first
NAME_RE = re.compile(r"(?<![\w-])[a-z][a-z0-9]*(?:-\d+)+(?![\w-])")  # orphan-0-1, big-0
VERSION_RE = re.compile(r"(?<=/)v\d+(?:(?:alpha|beta)\d+)?\b")  # scheduling.k8s.io/v1beta1
DIGIT_RE = re.compile(r"\d+")


def files() -> dict[int, tuple[str, ...]]:
    """Each step's answer files, as lesson.yaml names them."""
    return {s.number: tuple(s.files) for s in load("gang").steps if s.files}


def recordings() -> list[str]:
    return ["lesson-gang"] + sorted(p.stem for p in LESSON_RECORDINGS.glob("lesson-gang-*.jsonl"))


# --- the operators the gang adds ---------------------------------------------------------------------

def podgroup_ops(doc: dict) -> list[tuple[str, str, dict]]:
    """minCount one fewer (a gang of the workers alone), a field of the gang policy moved out of
    its place, the basic policy instead of the gang one."""
    out = []
    gang = o.as_dict(o.dig(doc, "spec", "schedulingPolicy", "gang"))
    if isinstance(gang.get("minCount"), int):
        fewer = copy.deepcopy(doc)
        fewer["spec"]["schedulingPolicy"]["gang"]["minCount"] -= 1
        out.append(("min-count", f"minCount: {gang['minCount']} -> {gang['minCount'] - 1}", fewer))
        out.append(("move-field", "minCount -> schedulingPolicy", moved(
            doc, ("spec", "schedulingPolicy", "gang", "minCount"), ("spec", "schedulingPolicy", "minCount"))))
        out.append(("move-field", "minCount -> spec", moved(
            doc, ("spec", "schedulingPolicy", "gang", "minCount"), ("spec", "minCount"))))
    if gang:
        out.append(("move-field", "gang -> spec", moved(doc, ("spec", "schedulingPolicy", "gang"), ("spec", "gang"))))
        basic = copy.deepcopy(doc)
        basic["spec"]["schedulingPolicy"] = {"basic": {}}
        out.append(("basic-policy", "gang -> basic", basic))
    if "schedulingPolicy" in o.as_dict(doc.get("spec")):
        out.append(("move-field", "schedulingPolicy -> top", moved(doc, ("spec", "schedulingPolicy"), ("schedulingPolicy",))))
    return out


def other_podgroups(lws: str, named: str) -> list[str]:
    """Names a learner puts in podGroupName instead: the LWS's own name, another group's, the
    lesson's other gang."""
    return [n for n in (lws, f"{lws}-1", *PODGROUPS) if n != named]


def gang_template_ops(doc: dict) -> list[tuple[str, str, dict]]:
    """schedulingGroup dropped from one template, or moved out of its pod spec (to the template,
    to the container); podGroupName changed in one template or in both; the GPU limit moved from
    the worker to the leader."""
    out = []
    lws = o.name(doc)
    lwt = o.as_dict(o.dig(doc, *LWT))
    named = {t: o.dig(lwt, t, "spec", "schedulingGroup", "podGroupName") for t in TEMPLATES if t in lwt}
    for tmpl, name in named.items():
        group = (*LWT, tmpl, "spec", "schedulingGroup")
        if o.dig(doc, *group) is None:
            continue
        dropped = copy.deepcopy(doc)
        del o.dig(dropped, *group[:-1])["schedulingGroup"]
        out.append(("drop-schedulingGroup", tmpl, dropped))
        out.append(("move-field", f"schedulingGroup -> {tmpl}", moved(doc, group, (*LWT, tmpl, "schedulingGroup"))))
        if o.dig(doc, *LWT, tmpl, "spec", "containers", 0) is not None:
            out.append(("move-field", f"schedulingGroup -> {tmpl} container",
                        moved(doc, group, (*LWT, tmpl, "spec", "containers", 0, "schedulingGroup"))))
        for other in other_podgroups(lws, str(name)):
            changed = copy.deepcopy(doc)
            o.dig(changed, *group)["podGroupName"] = other
            out.append(("podgroup-name", f"{tmpl}: {name} -> {other}", changed))
    if len(named) == 2 and len(set(named.values())) == 1 and None not in named.values():
        name = next(iter(named.values()))
        for other in other_podgroups(lws, str(name)):
            changed = copy.deepcopy(doc)
            for tmpl in named:
                o.dig(changed, *LWT, tmpl, "spec", "schedulingGroup")["podGroupName"] = other
            out.append(("podgroup-name", f"both templates: {name} -> {other}", changed))
    worker_gpu = (*LWT, "workerTemplate", "spec", "containers", 0, "resources")
    if "leaderTemplate" in lwt and o.dig(doc, *worker_gpu) is not None \
            and o.dig(doc, *LWT, "leaderTemplate", "spec", "containers", 0, "resources") is None:
        out.append(("move-field", "resources workerTemplate -> leaderTemplate",
                    moved(doc, worker_gpu, (*LWT, "leaderTemplate", "spec", "containers", 0, "resources"))))
    return out


def swap_first_lines(text: str) -> list[Mutant]:
    """The first two lines in the other order (the pod's name after its message)."""
    lines = _lines(text)
    full = [i for i, line in enumerate(lines) if line.strip()]
    if len(full) < 2:
        return []
    a, b = full[:2]
    new = list(lines)
    new[a], new[b] = lines[b], lines[a]
    return [Mutant("swap", f"{lines[a].strip()} <> {lines[b].strip()}"[:80], "\n".join(new))]


def member_swaps(text: str) -> list[Mutant]:
    """Each gang member's name replaced by the other member's."""
    out = []
    for m in NAME_RE.finditer(text):
        for other in MEMBERS:
            if m.group() in MEMBERS and other != m.group():
                out.append(Mutant("member", f"{m.group()} -> {other}", text[:m.start()] + other + text[m.end():]))
    return out


def mutants(name: str, text: str) -> list[Mutant]:
    out = drop_lines(text)
    if name.endswith(".yaml"):
        out += value_mutants(text) + _char_mutants(text, NAME_RE, "name-digit") + yaml_structure_mutants(text)
        out += per_doc(text, KIND, podgroup_ops) + per_doc(text, kinds.LEADER_WORKER_SET.kind, gang_template_ops)
    elif name == "api.txt":
        out += word_mutants(text) + _char_mutants(text, VERSION_RE, "version-digit", in_line=True)
    elif name == "gang.txt":  # the named operators first: a mutant two make is counted once, under the first
        out += clause_mutants(text) + _char_mutants(text, DIGIT_RE, "digit") + word_mutants(text)
    elif name == "blocker.txt":
        out += clause_mutants(text) + _char_mutants(text, NAME_RE, "name-digit") + member_swaps(text)
        out += swap_first_lines(text) + word_mutants(text)
    return distinct(text, out)


def harmless(name: str, text: str) -> dict[str, str]:
    """Variations a right answer may have: they must still pass."""
    out = harmless_base(name, text)
    if name.endswith(".yaml"):
        return out
    lines = [line for line in _lines(text) if line.strip()]
    out["spaces"] = "\n".join(f"  {' '.join(line.split())}  \t" for line in lines) + "\n"
    if name == "api.txt":
        head, rows = lines[0], lines[1:]
        out["no headers"] = "\n".join(rows) + "\n"
        out["the podgroups row alone"] = "".join(r + "\n" for r in rows if r.split()[0] == "podgroups")
        out["-o wide"] = "\n".join([head + "   VERBS   CATEGORIES"] + [
            r + "   [create delete deletecollection get list patch update watch]   " for r in rows]) + "\n"
    elif name == "gang.txt":
        msg = " ".join(text.split())
        out["kubectl get -o yaml"] = ("status:\n  conditions:\n  - lastTransitionTime: \"2026-12-02T06:43:36Z\"\n"
                                      f"    message: '{msg}'\n    reason: Unschedulable\n    status: \"False\"\n"
                                      "    type: PodGroupInitiallyScheduled\n")
        out["kubectl describe"] = f"Status:\n  Conditions:\n    Message:               {msg}\n    Reason:  Unschedulable\n"
        out["a member's own message, which holds it"] = f"pod group is unschedulable, {msg}\n"
    elif name == "blocker.txt":
        pod, msg = lines[0].strip(), " ".join(" ".join(lines[1:]).split())
        out["pod/ prefix"] = f"pod/{pod}\n{msg}\n"
        out["kubectl describe"] = (f"{pod}\nEvents:\n  Type     Reason            Age   From               Message\n"
                                   "  ----     ------            ----  ----               -------\n"
                                   f"  Warning  FailedScheduling  12s   default-scheduler  {msg}\n")
        out["kubectl get events"] = (f"{pod}\nLAST SEEN   TYPE      REASON             OBJECT           MESSAGE\n"
                                     f"12s         Warning   FailedScheduling   pod/{pod}   {msg}\n")
        head, sep, rest = msg.partition(": ")
        clauses = CLAUSE_RE.findall(rest)
        if sep and len(clauses) > 1:
            out["clauses in another order"] = f"{pod}\n{head}: {', '.join(reversed(clauses))}.\n"
    return out


# --- survivors the lab cannot tell from a right answer --------------------------------------------

YAMLS = ("orphan.yaml", "big.yaml")
ACCEPTED: list[Rule] = [
    *[(f, None, r"^(- )?(name: (leader|worker)|image: .*)$", "container names and images are not part of the step")
      for f in YAMLS],
    *[(f, None, r"^- (sh|-c|while .*)$|^command:$",
       "the lesson asks nothing of the command: its pods are judged by where they are bound") for f in YAMLS],
    *[(f, None, r"^restartPolicy: RecreateGroupOnPodRestart$", "the lesson asks nothing of the restart policy")
      for f in YAMLS],
    *[(f, "drop-line", r"^replicas: 1$", "an LWS without replicas has one group, the CRD's default") for f in YAMLS],
    *[(f, "drop-line", r"^namespace: infer$", "no namespace in the file is `kubectl apply -n infer`")
      for f in (*YAMLS, "orphan-pg.yaml")],
    ("api.txt", None, r"^NAME +SHORTNAMES ", "the header row: `kubectl api-resources --no-headers` leaves it out"),
    ("api.txt", None, r"^(priorityclasses|workloads) ",
     "the group's other resources are not what step 1 asks: the podgroups row is the answer"),
    ("api.txt", None, r"^podgroups .*\[(true|PodGroup)\]$",
     "the tutor sees no API discovery, only this copy of it: it checks the two columns that answer the "
     "question, the resource's name and its version; NAMESPACED and KIND are kubectl's, not the learner's"),
    ("blocker.txt", None, r"(^|\n)0/\d+ nodes are available(: .*\[(0/\d+|nodes|are|available:)\])?$",
     "the head \"0/N nodes are available\" is not one of the \"<n> <reason>\" clauses the lab asks for; "
     "the clauses alone, in any order, pass"),
]


# --- survivors that are checker bugs, not fixed yet -------------------------------------------------

OPEN_BUGS: list[Rule] = []
# (step, evidence mutant) -> the bug
OPEN_EVIDENCE_BUGS: dict[tuple[int, str], str] = {}


# --- evidence no answer file holds ------------------------------------------------------------------

class _ConditionSaysOtherwise(Evidence):
    """The PodGroup orphan-0's condition with another message: each number in it one more (a
    message of another moment, of another gang)."""

    def __call__(self, obj: dict) -> list[dict]:
        if o.kind(obj) != KIND or o.name(obj) != PODGROUPS[0] or not o.condition(obj, "PodGroupInitiallyScheduled"):
            return [obj]
        obj = copy.deepcopy(obj)
        cond = o.condition(obj, "PodGroupInitiallyScheduled")
        cond["message"] = re.sub(r"\d+", lambda m: str(int(m.group()) + 1), str(cond.get("message") or ""))
        self.changed = True
        return [obj]


class _Bound(Evidence):
    """One member of a gang bound to lab-server while the rest wait."""

    def __init__(self, pod: str):
        self.pod = pod

    def __call__(self, obj: dict) -> list[dict]:
        if o.kind(obj) != "Pod" or o.name(obj) != self.pod or o.node_name(obj):
            return [obj]
        obj = copy.deepcopy(obj)
        obj.setdefault("spec", {})["nodeName"] = "lab-server"
        cond = o.condition(obj, "PodScheduled")
        if cond:
            cond.update(status="True", reason="", message="")
        self.changed = True
        return [obj]


class _OtherPodBlocks(Evidence):
    """The scheduler's words about the two members of orphan-0 told the other way round: the
    leader's PodScheduled message and FailedScheduling events carry what the worker's carried
    last, and the worker's the leader's. The leader is then the pod with a reason of its own."""

    def __init__(self):
        self.said: dict[str, str] = {}  # member -> its latest message as the recording has it

    def _other(self, pod: str) -> str | None:
        return self.said.get(MEMBERS[1] if pod == MEMBERS[0] else MEMBERS[0])

    def __call__(self, obj: dict) -> list[dict]:
        if o.kind(obj) == "Pod" and o.name(obj) in MEMBERS:
            pod = o.name(obj)
            cond = o.condition(obj, "PodScheduled")
            if cond.get("status") != "False" or not cond.get("message"):
                return [obj]
            self.said[pod] = str(cond["message"])
            other = self._other(pod)
            if other is None:
                return [obj]
            obj = copy.deepcopy(obj)
            o.condition(obj, "PodScheduled")["message"] = other
        elif o.kind(obj) == "Event" and o.event_reason(obj) == "FailedScheduling" \
                and o.event_regarding(obj).get("name") in MEMBERS:
            pod = o.event_regarding(obj)["name"]
            self.said[pod] = o.event_message(obj)
            other = self._other(pod)
            if other is None:
                return [obj]
            obj = copy.deepcopy(obj)
            obj["message" if obj.get("message") else "note"] = other
        else:
            return [obj]
        self.changed = True
        return [obj]


EVIDENCE = {
    4: ("both pods wait and gang.txt is the PodGroup's word", {
        "condition-says-otherwise": _ConditionSaysOtherwise,
        "leader-bound": lambda: _Bound(MEMBERS[0]),
    }),
    5: ("which pod blocks the gang", {"other-pod-blocks": _OtherPodBlocks}),
    7: ("none of big is bound", {"worker-bound": lambda: _Bound("big-0-1")}),
}

GANG = Lesson("gang", files(), recordings, mutants, harmless, ACCEPTED, OPEN_BUGS, EVIDENCE, OPEN_EVIDENCE_BUGS)

"""Mutation testing of answers: every single-token change of a passing answer file must fail.

This module holds the harness and the operators, and the LWS lesson's answers;
tests/mutations_gang.py gives the gang lesson's to the same harness.

For each committed recording, each step with an answer file is taken at the moment it first
passed; its answer is mutated one token at a time (a digit or hex character of a UID or IP, an
index, a value, a line dropped, two values swapped, a scheduler clause dropped, the
exclusive-topology annotation moved, a toleration dropped) and checked against that same cluster
state. A mutant that still passes "survives". Survivors the lab cannot tell apart from a right
answer are listed in ACCEPTED with the reason; every other survivor is a checker bug (a lesson
may list the ones not fixed yet as open bugs: each fails the test once it is killed).
Harmless variations (spacing, CRLF, line order, extra lines, other printed forms) must still pass.

Step 5 is also judged on evidence no answer file holds: which pod failed. Its evidence mutants
are the same recording up to that moment with the failure told of another pod of group 0, the
leader llm-0 (LWS's event naming it, or the restart itself moved onto it, as `kubectl exec llm-0
-- touch /tmp/fail` leaves it), with the right restart.txt: each must fail.

    python -m tests.mutations      # the figures docs/testing.md quotes, for both lessons
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

import yaml

from tests.conftest import RECORDINGS
from tests.states import check, recording, started_at, state
from tutor.cluster import kinds, objects as o
from tutor.cluster.source_events import FileChanged, ObjectEvent, Relisted
from tutor.cluster.timeline import RECREATE_REASONS

FILES = {1: "lws.yaml", 2: "names.txt", 3: "env.txt", 4: "dns.txt", 5: "restart.txt", 7: "wide.yaml", 8: "partial.txt"}
UID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
IP_RE = re.compile(r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])")
CLAUSE_RE = re.compile(r"\d+ [^,.:]+(?:\.[a-z][^,.:]*)*")  # "1 Insufficient nvidia.com/gpu"


@dataclass(frozen=True)
class Mutant:
    op: str  # what was changed, e.g. "hex", "drop-line", "value", "swap", "drop-clause"
    where: str  # the original line (or token) it changed
    text: str


# --- the mutation operators ------------------------------------------------------------------------

def _bump(ch: str) -> str:
    if ch.isdigit():
        return str((int(ch) + 1) % 10)
    if ch in "abcdef":
        return "abcdef"[("abcdef".index(ch) + 1) % 6]
    if ch.isalpha():
        return "a" if ch != "a" else "b"
    return ch + "x"


def _char_mutants(text: str, rx: re.Pattern, op: str, in_line: bool = False) -> list[Mutant]:
    """Each character of each match changed once (digits +1, hex letters to the next one).
    `in_line`: the mutant's `where` is the match's line, then the match in brackets."""
    out = []
    for m in rx.finditer(text):
        line = text[text.rfind("\n", 0, m.start()) + 1:].split("\n", 1)[0].strip()
        where = f"{line} [{m.group()}]" if in_line else m.group()
        for i in range(m.start(), m.end()):
            if text[i] in ".-":
                continue
            out.append(Mutant(op, where, text[:i] + _bump(text[i]) + text[i + 1:]))
    return out


def _lines(text: str) -> list[str]:
    return text.split("\n")


def drop_lines(text: str) -> list[Mutant]:
    lines = _lines(text)
    return [Mutant("drop-line", line.strip(), "\n".join(lines[:i] + lines[i + 1:]))
            for i, line in enumerate(lines) if line.strip()]


def value_mutants(text: str) -> list[Mutant]:
    """The last character of each value changed: `key=value`, `key: value` and `- value` tokens."""
    out = []
    lines = _lines(text)
    for i, line in enumerate(lines):
        for m in re.finditer(r"(?:(?<==)|(?<=:[ \t])|(?<=^- )|(?<=\s- ))([^\s=]+)", line):
            if m.group(1).startswith(("&", "*")):
                continue  # a YAML anchor or alias is not a value
            token = m.group(1)
            new_line = line[:m.end() - 1] + _bump(token[-1]) + line[m.end():]
            out.append(Mutant("value", line.strip(), "\n".join(lines[:i] + [new_line] + lines[i + 1:])))
    return out


def key_mutants(text: str) -> list[Mutant]:
    """The last character of each `key=` name changed (LWS_GROUP_SIZE, group0_before, pod)."""
    out = []
    lines = _lines(text)
    for i, line in enumerate(lines):
        for m in re.finditer(r"([A-Za-z_][A-Za-z0-9_]*)(?==)", line):
            new_line = line[:m.end() - 1] + _bump(m.group()[-1]) + line[m.end():]
            out.append(Mutant("key", line.strip(), "\n".join(lines[:i] + [new_line] + lines[i + 1:])))
    return out


def swap_values(text: str) -> list[Mutant]:
    """Two values of one line swapped (group and worker), and the values of two lines swapped."""
    out = []
    lines = _lines(text)
    for i, line in enumerate(lines):
        vals = re.findall(r"=(\S+)", line)
        if len(vals) == 3 and vals[1] != vals[2]:  # pod=… group=… worker=…
            swapped = re.sub(r"group=\S+", f"group={vals[2]}", re.sub(r"worker=\S+", f"worker={vals[1]}", line))
            out.append(Mutant("swap", line.strip(), "\n".join(lines[:i] + [swapped] + lines[i + 1:])))
    keyed = [(i, line.split("=", 1)) for i, line in enumerate(lines) if "=" in line and " " not in line.strip()]
    for a in range(len(keyed)):
        for b in range(a + 1, len(keyed)):
            (i, (ka, va)), (j, (kb, vb)) = keyed[a], keyed[b]
            if va != vb:
                new = list(lines)
                new[i], new[j] = f"{ka}={vb}", f"{kb}={va}"
                out.append(Mutant("swap", f"{lines[i].strip()} <> {lines[j].strip()}", "\n".join(new)))
    return out


def clause_mutants(text: str) -> list[Mutant]:
    """Each "<n> <reason>" clause of the scheduler's message dropped, or its number changed."""
    out = []
    for m in CLAUSE_RE.finditer(text):
        clause = m.group()
        where = text[max(0, m.start() - 14):m.end()]  # with what comes before: which sentence it is in
        out.append(Mutant("drop-clause", where, text[:m.start()] + text[m.end():]))
        n, rest = clause.split(" ", 1)
        out.append(Mutant("clause-number", where, text[:m.start()] + f"{int(n) + 1} {rest}" + text[m.end():]))
    return out


def word_mutants(text: str) -> list[Mutant]:
    """The last letter or digit of each word changed: a word of a message, a column of a table
    (its `where`: the line, then the word in brackets)."""
    out = []
    lines = _lines(text)
    for i, line in enumerate(lines):
        for m in re.finditer(r"\S*[A-Za-z0-9]\S*", line):
            at = m.start() + max(j for j, ch in enumerate(m.group()) if ch.isalnum())
            new_line = line[:at] + _bump(line[at]) + line[at + 1:]
            out.append(Mutant("word", f"{line.strip()} [{m.group()}]", "\n".join(lines[:i] + [new_line] + lines[i + 1:])))
    return out


# YAML operators work on one document of a file (a file may hold a PodGroup and an LWS): each
# takes that document and gives (op, where, the changed document); the file is dumped again with
# it in place of the original.
DocOp = Callable[[dict], list[tuple[str, str, dict]]]


def yaml_docs(text: str) -> list:
    return [d for d in yaml.safe_load_all(text) if d is not None]


def dump_docs(docs: list) -> str:
    return yaml.safe_dump_all(docs)


def per_doc(text: str, kind: str, op: DocOp) -> list[Mutant]:
    """`op` on each document of that kind in the file."""
    out = []
    docs = yaml_docs(text)
    for i, doc in enumerate(docs):
        if isinstance(doc, dict) and doc.get("kind") == kind:
            for name, where, changed in op(copy.deepcopy(doc)):
                out.append(Mutant(name, where, dump_docs(docs[:i] + [changed] + docs[i + 1:])))
    return out


Path = tuple[str | int, ...]  # keys, and indices into lists: ("spec", "containers", 0)


def moved(doc: dict, src: Path, dst: Path) -> dict:
    """A copy of the document with the value at `src` moved to `dst` (made as needed)."""
    doc = copy.deepcopy(doc)
    value = o.dig(doc, *src[:-1]).pop(src[-1])
    at = doc
    for key in dst[:-1]:
        at = at[key] if isinstance(key, int) else at.setdefault(key, {})
    at[dst[-1]] = value
    return doc


LWT = ("spec", "leaderWorkerTemplate")
TEMPLATES = ("leaderTemplate", "workerTemplate")


def lws_structure(doc: dict) -> list[tuple[str, str, dict]]:
    """The moves a learner gets wrong in an LWS: the annotation put on a pod template, a
    toleration, nodeSelector or GPU limit dropped from one template, a value moved out of
    leaderWorkerTemplate."""
    out = []
    lwt = o.as_dict(o.dig(doc, *LWT))
    anns = o.as_dict(o.dig(doc, "metadata", "annotations"))
    for key in list(anns):
        for tmpl in TEMPLATES:
            if tmpl in lwt:
                out.append(("move-annotation", f"{key} -> {tmpl}",
                            moved(doc, ("metadata", "annotations", key), (*LWT, tmpl, "metadata", "annotations", key))))
    for tmpl in TEMPLATES:
        for key in ("tolerations", "nodeSelector", "resources"):
            spec = o.as_dict(o.dig(lwt, tmpl, "spec"))
            if key in spec or (key == "resources" and "resources" in o.as_dict(o.dig(spec, "containers", 0))):
                dropped = copy.deepcopy(doc)
                tspec = o.dig(dropped, *LWT, tmpl, "spec")
                if key == "resources":
                    tspec["containers"][0].pop("resources", None)
                else:
                    tspec.pop(key)
                out.append((f"drop-{key}", tmpl, dropped))
    for key in ("size", "restartPolicy"):
        if key in lwt:
            out.append(("move-field", f"{key} -> spec", moved(doc, (*LWT, key), ("spec", key))))
    return out


def yaml_structure_mutants(text: str) -> list[Mutant]:
    return per_doc(text, kinds.LEADER_WORKER_SET.kind, lws_structure)


def mutants(name: str, text: str) -> list[Mutant]:
    out = drop_lines(text) + value_mutants(text)
    if not name.endswith(".yaml"):
        out += key_mutants(text)
    if name == "restart.txt":
        out += _char_mutants(text, UID_RE, "hex") + swap_values(text)
    elif name == "dns.txt":
        out += _char_mutants(text, IP_RE, "ip-digit")
    elif name == "names.txt":
        out += swap_values(text)
    elif name == "partial.txt":
        out = drop_lines(text) + clause_mutants(text)
    elif name.endswith(".yaml"):
        out += yaml_structure_mutants(text)
    return distinct(text, out)


def distinct(text: str, mutants: list[Mutant]) -> list[Mutant]:
    """Each mutant once, and none that leaves the answer as it was: a change of nothing is no mutant."""
    seen, unique = {text}, []
    for m in mutants:
        if m.text not in seen:
            seen.add(m.text)
            unique.append(m)
    return unique


def harmless_base(name: str, text: str) -> dict[str, str]:
    """Variations any answer file may have: line ends, blank lines; in YAML, comments, document
    separators, another layout of the same documents, and their order."""
    out = {"crlf": text.replace("\n", "\r\n"), "blank lines": "\n\n" + text.replace("\n", "\n\n") + "\n\n"}
    if name.endswith(".yaml"):
        docs = yaml_docs(text)
        out["comments and separators"] = "# my answer\n---\n" + text + "\n---\n"
        out["re-dumped, keys sorted"] = yaml.safe_dump_all(docs, sort_keys=True, indent=4)
        if len(docs) > 1:
            out["documents in another order"] = dump_docs(list(reversed(docs)))
    return out


def harmless(name: str, text: str) -> dict[str, str]:
    """Variations a right answer may have: they must still pass."""
    lines = [line for line in _lines(text) if line.strip()]
    out = harmless_base(name, text)
    if name.endswith(".yaml"):
        return out
    out["spaces"] = "\n".join(f"  {' '.join(line.split())}  \t" for line in lines) + "\n"
    if name in ("names.txt", "env.txt", "restart.txt"):
        out["line order"] = "\n".join(reversed(lines)) + "\n"
        out["spaces"] = "\n".join(f"  {line.replace('=', '=') }  " for line in lines) + "\n"
    if name == "names.txt":
        out["spaces"] = "\n".join("  " + "\t".join(line.split()) + "  " for line in lines) + "\n"
    if name == "env.txt":
        out["extra non-LWS lines"] = "HOSTNAME=llm-1-1\nPATH=/usr/bin:/bin\n" + text + "HOME=/root\n"
    if name == "partial.txt":
        msg = " ".join(text.split())
        out["kubectl describe"] = ("Events:\n  Type     Reason            Age   From               Message\n"
                                   "  ----     ------            ----  ----               -------\n"
                                   f"  Warning  FailedScheduling  12s   default-scheduler  {msg}\n")
        out["kubectl get events"] = ("LAST SEEN   TYPE      REASON             OBJECT           MESSAGE\n"
                                     f"12s         Warning   FailedScheduling   pod/orphan-0-1   {msg}\n")
    return out


# --- survivors the lab cannot tell from a right answer --------------------------------------------

# (file, operation or None for any, regex on the original line or token, reason)
Rule = tuple[str, str | None, str, str]
ACCEPTED: list[Rule] = [
    ("lws.yaml", None, r"^(- )?(name: (leader|worker)|image: .*)$",
     "container names and images are not part of the step"),
    ("wide.yaml", None, r"^(- )?(name: (leader|worker)|image: .*)$",
     "container names and images are not part of the step"),
    ("lws.yaml", None, r"^- (sh|-c|while .*)$",
     "a shell program the tutor cannot run: it is checked for naming /tmp/fail, and step 5 proves it fails "
     "(the restart, LWS's recreation)"),
    ("wide.yaml", None, r"^- (sh|-c|while .*)$",
     "step 7 asks nothing of the command"),
    ("lws.yaml", "drop-line", r"^(namespace: infer|command:)$",
     "no namespace in the file is `kubectl apply -n infer`; "
     "without `command:` the list becomes args, which still name /tmp/fail"),
    ("wide.yaml", "drop-line", r"^(namespace: infer|command:|restartPolicy: RecreateGroupOnPodRestart)$",
     "no namespace is `kubectl apply -n infer`; step 7 asks nothing of the command or the restart policy"),
    ("wide.yaml", "value", r"^restartPolicy: RecreateGroupOnPodRestart$", "step 7 asks nothing of the restart policy"),
    ("wide.yaml", "drop-line", r"^operator: Equal$", "a toleration's operator defaults to Equal"),
    ("wide.yaml", "drop-line", r"^effect: NoSchedule$",
     "a toleration without an effect tolerates every effect of the taint, NoSchedule included"),
    ("lws.yaml", None, r"^(- )?(name: VERSION|value: v2)$",
     "step 1 asks nothing of env; step 6 checks VERSION=v2 in the live templates"),
    ("dns.txt", "drop-line", r"^Name:\s", "the address is the answer; a Name: line, when there is one, must be the full name"),
    ("dns.txt", None, r"^(Server:\s+10\.43\.0\.10|Address:\s+10\.43\.0\.10:53|10\.43\.0\.10)$",
     "the DNS server's own address is not the answer"),
    ("partial.txt", None, r"^0/\d+ nodes are available$",
     "the head \"0/N nodes are available\" is not one of the \"<n> <reason>\" clauses the lab asks for; "
     "the clauses alone, in any order, pass"),
    ("partial.txt", None, r"(No preemption victims|Preemption is not helpful|preemption: 0/\d+ nodes are available$)",
     "the preemption sentence is not the scheduler's reason; its wording varies between versions"),
]


def matches(table: list[Rule], file: str, m: Mutant) -> str | None:
    """The reason of the first rule of the table the mutant of that file matches, or None."""
    for f, op, rx, reason in table:
        if f == file and (op is None or op == m.op) and re.search(rx, m.where):
            return reason
    return None


def accepted(file: str, m: Mutant) -> str | None:
    return matches(ACCEPTED, file, m)


# --- step 5's evidence: which pod failed ------------------------------------------------------------

class Evidence:
    """An evidence mutant: called on each object the recording brings, it gives the objects the
    tutor sees instead; `changed` tells whether it changed any."""

    changed = False

    def __call__(self, obj: dict) -> list[dict]:
        return [obj]


WORKER, LEADER = "llm-0-1", "llm-0"
RESTART_REASONS = ("Pulled", "Created", "Started", "BackOff")  # the kubelet's, counted again on a restart


class _EventNamesLeader(Evidence):
    """LWS's RecreateGroup event as it reads when the leader failed."""

    changed = False

    def __call__(self, obj: dict) -> list[dict]:
        if o.kind(obj) != "Event" or o.event_reason(obj) not in RECREATE_REASONS or \
                f"pod {WORKER} failed" not in o.event_message(obj):
            return [obj]
        obj = copy.deepcopy(obj)
        key = "message" if obj.get("message") else "note"
        obj[key] = obj[key].replace(f"pod {WORKER} failed", f"pod {LEADER} failed")
        self.changed = True
        return [obj]


class _RestartOnLeader(Evidence):
    """The worker's restart told of the leader of its group instead: the worker's restartCount
    and lastState cleared, the kubelet's events about its restart retargeted to that leader's
    UID, and the leader's objects carrying the restart (added as the worker showed it)."""

    def __init__(self):
        self.changed = False  # a late start may keep no object that ties the worker to its leader
        self.leader_of: dict[str, str] = {}  # worker StatefulSet UID -> its leader pod's UID
        self.group_of: dict[str, str] = {}  # worker pod UID -> its leader pod's UID
        self.restart: dict[str, dict] = {}  # leader UID -> the worker's container status with the restart
        self.leaders: dict[str, dict] = {}  # leader UID -> its newest object

    def __call__(self, obj: dict) -> list[dict]:
        kind, name = o.kind(obj), o.name(obj)
        if kind == "StatefulSet" and name == LEADER:
            owner = next((r for r in o.dig(obj, "metadata", "ownerReferences") or [] if r.get("kind") == "Pod"), None)
            if owner:
                self.leader_of[o.uid(obj)] = owner["uid"]
        if kind == "Pod" and name == WORKER:
            return self._worker(obj)
        if kind == "Pod" and name == LEADER:
            self.leaders[o.uid(obj)] = obj
            return [self._with_restart(obj)]
        if kind == "Event" and o.event_reason(obj) in RESTART_REASONS and o.event_count(obj) > 1:
            about = o.event_regarding(obj)
            leader = self.group_of.get(str(about.get("uid") or ""))
            if about.get("name") == WORKER and leader:
                obj = copy.deepcopy(obj)
                ref = obj.get("involvedObject") or obj.get("regarding")
                ref.update(name=LEADER, uid=leader)
                obj["metadata"]["name"] = obj["metadata"]["name"].replace(WORKER, LEADER, 1)
                self.changed = True
        return [obj]

    def _worker(self, obj: dict) -> list[dict]:
        sts = next((r["uid"] for r in o.dig(obj, "metadata", "ownerReferences") or [] if r.get("kind") == "StatefulSet"),
                   None)
        leader = self.leader_of.get(sts or "")
        if leader:
            self.group_of[o.uid(obj)] = leader
        statuses = o.container_statuses(obj)
        if not leader or not statuses or not (statuses[0].get("restartCount") or 0):
            return [obj]
        rose = self.restart.get(leader, {}).get("restartCount") != statuses[0]["restartCount"]
        self.restart[leader] = statuses[0]
        obj = copy.deepcopy(obj)
        obj["status"]["containerStatuses"][0].update(restartCount=0, lastState={})
        self.changed = True
        out = [obj]
        if rose and leader in self.leaders:  # the leader shows the restart when the worker did
            shown = copy.deepcopy(self.leaders[leader])
            shown["metadata"]["resourceVersion"] = str(shown["metadata"].get("resourceVersion", "")) + "1"
            out.append(self._with_restart(shown))
        return out

    def _with_restart(self, obj: dict) -> dict:
        seen = self.restart.get(o.uid(obj))
        if not seen or not o.container_statuses(obj):
            return obj
        obj = copy.deepcopy(obj)
        obj["status"]["containerStatuses"][0].update(restartCount=seen["restartCount"],
                                                      lastState=copy.deepcopy(seen.get("lastState") or {}))
        return obj


class _LeaderFailed(Evidence):
    """Both at once: the restart on the leader and LWS's event naming it."""

    def __init__(self):
        self.parts = (_RestartOnLeader(), _EventNamesLeader())

    @property
    def changed(self) -> bool:
        return all(p.changed for p in self.parts)

    def __call__(self, obj: dict) -> list[dict]:
        out = [obj]
        for part in self.parts:
            out = [y for x in out for y in part(x)]
        return out


EVIDENCE_MUTANTS = {"event-names-leader": _EventNamesLeader, "restart-on-leader": _RestartOnLeader,
                    "leader-failed": _LeaderFailed}


# --- a lesson's answers ---------------------------------------------------------------------------

@dataclass(eq=False)  # one object per lesson: its moments are cached by it
class Lesson:
    """What the harness needs of a lesson: its answer files by step, its recordings, its
    operators and harmless variations, the survivors it accepts, and the survivors that are
    checker bugs still open (each one fails the test once it is killed, so the list stays true)."""

    id: str
    files: dict[int, tuple[str, ...]]  # step -> the answer files its checker reads
    recordings: Callable[[], list[str]]
    mutants: Callable[[str, str], list[Mutant]]
    harmless: Callable[[str, str], dict[str, str]]
    accepted: list[Rule]
    open_bugs: list[Rule] = field(default_factory=list)  # (file, op, regex, the bug in a few words)
    # step -> (what it asks that no answer file holds, its evidence mutants by name)
    evidence: dict[int, tuple[str, dict[str, Callable[[], Evidence]]]] = field(default_factory=dict)
    open_evidence_bugs: dict[tuple[int, str], str] = field(default_factory=dict)  # (step, op) -> the bug


def lws_recordings() -> list[str]:
    return ["walkthrough"] + sorted(p.stem for p in RECORDINGS.glob("*.jsonl"))


LWS = Lesson("lws", {n: (f,) for n, f in FILES.items()}, lws_recordings, mutants, harmless, ACCEPTED,
             evidence={5: ("which pod failed", EVIDENCE_MUTANTS)})


def recording_names(lesson: Lesson = LWS) -> list[str]:
    return lesson.recordings()


# --- where the answers pass ----------------------------------------------------------------------

# The recorder turns each watch's first list into one event per object, one resource after
# another; a live tutor judges nothing until every list is in (Session.awaiting_lists). In the
# LWS lesson's recordings the lists are in within the first second; the gang lab lists more, for
# up to some seconds: a moment is taken after the recording's opening run of listed objects (and
# of answer files not there yet), and after the first second.
LISTED_BY = 1.0


def listed_by(name: str) -> float:
    t = LISTED_BY
    for item in recording(name).items:
        if not (isinstance(item, ObjectEvent) and item.type == "ADDED"
                or isinstance(item, FileChanged) and item.content is None):
            break
        t = max(t, item.t)
    return t


def session_for(name: str):
    """An empty Session for a recording, of the lesson its header names, as states.state makes one."""
    from tutor.lesson.loader import load
    from tutor.session import Session

    rec = recording(name)
    lesson = load(rec.header.lesson or "lws")
    s = Session(lesson, rec.header.workdir or lesson.workdir, "en")
    s.store.started_at = started_at(name)
    return s


@lru_cache(maxsize=None)
def passing_moments(lesson: Lesson = LWS) -> list[tuple[str, int, int]]:
    """(recording, step, index of the item after which it first passed), one per distinct
    (step, answer files): the same answers in another recording add nothing but time."""
    from tutor.checks import run_checker

    out, seen = [], set()
    for name in recording_names(lesson):
        s = session_for(name)
        todo = dict(lesson.files)
        after = listed_by(name)
        for i, item in enumerate(recording(name).items):
            if not s.apply(item) or item.t < after:
                continue
            for n in list(todo):
                if run_checker(s.lesson.step(n), s.context()).passed:
                    key = (n, tuple(s.workspace.get(f).text for f in lesson.files[n]))
                    if key not in seen:
                        seen.add(key)
                        out.append((name, n, i))
                    del todo[n]
    return out


def answers(lesson: Lesson = LWS) -> list[tuple[str, int, str, int]]:
    """(recording, step, answer file, index): each answer file of each passing moment."""
    return [(name, n, f, i) for name, n, i in passing_moments(lesson) for f in lesson.files[n]]


def state_at(name: str, index: int):
    target = recording(name).items[index]
    return state(name, after=lambda it: it is target)


@dataclass
class Result:
    recording: str
    step: int
    file: str
    mutants: int
    killed: int
    survivors: list[tuple[Mutant, str | None]]  # (mutant, accepted reason or None)
    harmless_failed: list[tuple[str, str]]
    open_bugs: list[tuple[Mutant, str]] = field(default_factory=list)  # survivors that are known checker bugs

    @property
    def unaccepted(self) -> list[Mutant]:
        return [m for m, why in self.survivors if why is None]


def run_one(name: str, step: int, index: int, file: str | None = None, lesson: Lesson = LWS) -> Result:
    s = state_at(name, index)
    file = file or lesson.files[step][0]
    original = s.workspace.get(file).text
    # Each variant is the file as it might have been written at that same moment: a late start
    # judges a file by when it was written (its mtime), and a variant keeps that.
    written = s.workspace.get(file).written_at
    survivors, bugs, killed, total = [], [], 0, 0
    for m in lesson.mutants(file, original):
        total += 1
        s.apply(FileChanged(file, m.text, s.store.now, written))
        if not check(s, step).passed:
            killed += 1
        elif (bug := matches(lesson.open_bugs, file, m)) and not matches(lesson.accepted, file, m):
            bugs.append((m, bug))
        else:
            survivors.append((m, matches(lesson.accepted, file, m)))
    bad = []
    for label, text in lesson.harmless(file, original).items():
        s.apply(FileChanged(file, text, s.store.now, written))
        v = check(s, step)
        if not v.passed:
            bad.append((label, v.message))
    s.apply(FileChanged(file, original, s.store.now, written))
    return Result(name, step, file, total, killed, survivors, bad, bugs)


def run_all(lesson: Lesson = LWS) -> list[Result]:
    return [run_one(name, step, i, f, lesson) for name, step, f, i in answers(lesson)]


# --- evidence no answer file holds ------------------------------------------------------------------

def evidence_state(name: str, index: int, make: Callable[[], Evidence]):
    """The recording replayed through item `index`, each object passed through the mutant; None
    when the mutant changed nothing there (no mutant)."""
    s = session_for(name)
    change = make()
    for item in recording(name).items[:index + 1]:
        if isinstance(item, ObjectEvent):
            for obj in change(item.obj):
                s.apply(ObjectEvent(item.type, obj, item.t))
        elif isinstance(item, Relisted):
            s.apply(Relisted(item.kind, [x for obj in item.objs for x in change(obj)], item.t))
        else:
            s.apply(item)
    return s if change.changed else None


def evidence_mutants(name: str, index: int, step: int = 5, lesson: Lesson = LWS) -> dict[str, bool]:
    """Each evidence mutant of a step at a moment it passed (one that changes something there),
    and whether it still passes (each must fail)."""
    _, table = lesson.evidence[step]
    states = {op: evidence_state(name, index, make) for op, make in table.items()}
    return {op: check(s, step).passed for op, s in states.items() if s is not None}


# --- the figures ------------------------------------------------------------------------------------

def report(lesson: Lesson) -> None:
    results = run_all(lesson)
    total = sum(r.mutants for r in results)
    killed = sum(r.killed for r in results)
    acc = sum(1 for r in results for _, why in r.survivors if why)
    bugs = sum(len(r.open_bugs) for r in results)
    print(f"--- lesson {lesson.id}")
    for r in results:
        print(f"{r.recording:34} step {r.step} {r.file:14} {r.mutants:4} mutants, {r.killed:4} killed")
        for m, why in r.survivors:
            print(f"    survivor {m.op:16} {m.where[:60]!r}: {why or 'NOT ACCEPTED'}")
        for m, bug in r.open_bugs:
            print(f"    survivor {m.op:16} {m.where[:60]!r}: OPEN CHECKER BUG: {bug}")
        for label, msg in r.harmless_failed:
            print(f"    harmless variation failed: {label}: {msg}")
    print(f"{total} mutants over {len(results)} passing answers in {len(recording_names(lesson))} recordings: "
          f"{killed} killed ({100 * killed / max(total, 1):.1f}%), {acc} accepted survivors, "
          + (f"{bugs} open checker bugs, " if lesson.open_bugs else "")
          + f"{total - killed - acc - bugs} unaccepted")
    for step, (what, _) in sorted(lesson.evidence.items()):
        moments = [(name, i) for name, n, i in passing_moments(lesson) if n == step]
        found = {(name, i): evidence_mutants(name, i, step, lesson) for name, i in moments}
        n = sum(len(v) for v in found.values())
        survived = [(name, op) for (name, _), v in found.items() for op, ok in v.items() if ok]
        print(f"step {step}, {what}: {n} evidence mutants at {len(moments)} passing moments: "
              f"{n - len(survived)} killed" + "".join(
                  f"\n    survivor {name} {op}: {lesson.open_evidence_bugs.get((step, op), 'NOT ACCEPTED')}"
                  for name, op in survived))


def main() -> int:
    from tests.mutations_gang import GANG

    for lesson in (LWS, GANG):
        report(lesson)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Pieces several checkers share: answer-file reading, YAML, templates, pod readiness."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import yaml

from tutor.checks.context import Context
from tutor.checks.verdict import Stop, failed, waiting
from tutor.checks.explain import verdict_lines
from tutor.cluster import kinds, objects as o
from tutor.i18n.bilingual import Words, pick, say
from tutor.workspace.files import Problem

UID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
MAX_YAML_ALIASES = 20  # real manifests use none; a "billion laughs" needs dozens
MAX_YAML_DEPTH = 100
MAX_YAML_BYTES = 16 * 1024  # a LeaderWorkerSet manifest is about 1 KB
MAX_LINES = 1000  # line-based answers hold 2 to 4 lines (a pasted `env` a few dozen)


def answer_text(ctx: Context, name: str, what: str, max_lines: int | None = None) -> str:
    """The text of an answer file, or Stop with a message that says what to put in it.
    `max_lines` refuses a file far longer than its answer before any line is parsed, so a
    file of garbage costs one count, not a problem message per line."""
    fr = ctx.workspace.get(name)
    text = fr.text
    if text is not None:  # fr.ok
        if not text.strip():
            raise Stop(failed(say(ctx.lang, "{path} is empty. Put {what} in it.",
                                            "{path} 파일이 비어 있습니다. {what} 내용을 넣으세요.",
                                            path=ctx.path(name), what=what)))
        lines = text.count("\n") + 1
        if max_lines is not None and lines > max_lines:
            raise Stop(failed(say(ctx.lang, "{path} has {n} lines; it should hold only {what}.",
                                            "{path:이} {n} 줄입니다. {what}만 담으세요.",
                                            path=ctx.path(name), n=lines, what=what)))
        return text
    path = ctx.path(name)
    msgs: dict[Problem | None, tuple[str, str]] = {
        Problem.MISSING: ("{path} does not exist yet. Write {what} into it.",
                          "{path} 파일이 아직 없습니다. {what} 내용을 적으세요."),
        Problem.NOT_REGULAR: ("{path} is a {detail}, not a regular file. Replace it with a plain text file.",
                              "{path:은} 일반 파일이 아니라 {detail}입니다. 평범한 텍스트 파일로 바꾸세요."),
        Problem.DIRECTORY: ("{path} is a directory. The answer must be a plain text file.",
                            "{path:은} 디렉터리입니다. 답은 평범한 텍스트 파일이어야 합니다."),
        Problem.LOOP: ("{path} is a symlink loop. Remove it and write a plain text file.",
                       "{path:은} 서로를 가리키는 심볼릭 링크입니다. 지우고 평범한 파일로 다시 쓰세요."),
        Problem.DENIED: ("{path} cannot be read (permission denied). Check its mode: chmod a+r {path}",
                         "{path:을} 읽을 권한이 없습니다. 권한을 확인하세요: chmod a+r {path}"),
        Problem.TOO_LARGE: ("{path} is too large ({detail} bytes) for an answer file. It should hold {what}.",
                            "{path:이} 답 파일로는 너무 큽니다({detail} 바이트). {what}만 담으세요."),
        Problem.BINARY: ("{path} looks binary ({detail}). Save it as plain text.",
                         "{path:이} 바이너리로 보입니다({detail}). 텍스트로 저장하세요."),
        Problem.NOT_UTF8: ("{path} is not UTF-8 text (bad {detail}). Save it as UTF-8.",
                           "{path:이} UTF-8 텍스트가 아닙니다({detail}). UTF-8로 저장하세요."),
        Problem.CHANGING: ("{path} kept changing while it was read. It will be checked again when it settles.",
                           "{path:을} 읽는 동안 계속 바뀌었습니다. 쓰기가 끝나면 다시 확인합니다."),
        Problem.UNREADABLE: ("{path} cannot be read: {detail}",
                             "{path:을} 읽을 수 없습니다: {detail}"),
    }
    en, ko = msgs.get(fr.problem, msgs[Problem.UNREADABLE])
    verdict = waiting if fr.problem is Problem.CHANGING else failed
    raise Stop(verdict(say(ctx.lang, en, ko, path=path, what=what, detail=fr.detail)))


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader that refuses alias bombs and absurd nesting before building anything.

    Nesting is bounded twice: the composer counts node depth, and the scanner refuses a flow
    collection ('[' or '{') deeper than MAX_YAML_DEPTH as it reads it. Without the second
    bound the scanner reads up to 1024 characters ahead of the composer and, on a line of
    thousands of '[', spends quadratic time on its possible simple keys before the composer
    ever sees the depth.
    """

    def __init__(self, stream):
        super().__init__(stream)
        self._aliases = 0
        self._depth = 0

    def fetch_flow_collection_start(self, TokenClass):
        if self.flow_level >= MAX_YAML_DEPTH:
            raise yaml.scanner.ScannerError(None, None, f"nested deeper than {MAX_YAML_DEPTH} levels",
                                            self.get_mark())
        super().fetch_flow_collection_start(TokenClass)

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_YAML_ALIASES:
                raise yaml.YAMLError(f"more than {MAX_YAML_ALIASES} aliases")
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                raise yaml.YAMLError(f"nested deeper than {MAX_YAML_DEPTH} levels")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


@lru_cache(maxsize=8)
def _parse_yaml(text: str) -> tuple[list, Exception | None]:
    """Parsed once per distinct text: the checkers re-run on every cluster change, the answer
    file changes rarely. The documents are shared, so checkers only ever read them."""
    try:
        return [d for d in yaml.load_all(text, Loader=_BoundedLoader) if d is not None], None
    except (yaml.YAMLError, RecursionError) as exc:
        return [], exc


def yaml_docs(ctx: Context, name: str, text: str) -> list:
    size = len(text.encode("utf-8"))
    if size > MAX_YAML_BYTES:  # the pure-Python parser reads some 50 KB/s on a busy VM
        raise Stop(failed(say(ctx.lang, "{path} is {n} bytes, too large for a LeaderWorkerSet YAML manifest (at most {max}). "
                                        "Keep only the LeaderWorkerSet in it.",
                                        "{path:이} {n} 바이트로 LeaderWorkerSet YAML 매니페스트로는 너무 큽니다(최대 {max}). "
                                        "LeaderWorkerSet만 남기세요.", path=ctx.path(name), n=size, max=MAX_YAML_BYTES)))
    docs, exc = _parse_yaml(text)
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark
        where = f"{mark.line + 1}:{mark.column + 1}" if mark else "?"
        raise Stop(failed(say(ctx.lang, "{path}:{where}: not valid YAML: {problem}",
                                        "{path}:{where}: 올바른 YAML이 아닙니다: {problem}",
                                        path=ctx.path(name), where=where, problem=exc.problem or exc)))
    if exc is not None:
        raise Stop(failed(say(ctx.lang, "{path}: not usable YAML: {problem}",
                                        "{path}: 쓸 수 없는 YAML 입니다: {problem}",
                                        path=ctx.path(name), problem=exc)))
    return docs


def find_doc(ctx: Context, file: str, kind: str, name: str, what: tuple[str, str],
             checked: Callable[[dict], None] | None = None) -> dict:
    """The document of that kind and name in an answer file (`what`: the file's expected content,
    in both languages), else Stop saying what the file holds. `checked` may Stop on the document
    found before its namespace is checked."""
    docs = yaml_docs(ctx, file, answer_text(ctx, file, say(ctx.lang, *what)))
    for doc in docs:
        if isinstance(doc, dict) and doc.get("kind") == kind and o.name(doc) == name:
            if checked is not None:
                checked(doc)
            ns = o.namespace(doc)
            if ns and ns != ctx.ns:
                raise Stop(failed(say(ctx.lang, "{path}: {name} is in namespace {ns}; the lab uses {want}.",
                                                "{path}: {name}의 네임스페이스가 {ns}입니다. {want:을} 쓰세요.",
                                                path=ctx.path(file), name=name, ns=ns, want=ctx.ns)))
            return doc
    found = [f"{d.get('kind') or '?'}/{o.name(d)}" for d in docs if isinstance(d, dict)]
    raise Stop(failed(say(ctx.lang, "{path} holds no {kind} named {name} (found: {found}).",
                                    "{path}에 이름이 {name}인 {kind:이} 없습니다(찾은 것: {found}).",
                                    path=ctx.path(file), kind=kind, name=name, found=", ".join(found) or "-")))


def find_lws_doc(ctx: Context, name: str, lws: str) -> dict:
    def lws_version(doc: dict) -> None:
        api = str(doc.get("apiVersion") or "")
        if api != kinds.LEADER_WORKER_SET.api_version:  # the only version; kubectl refuses a file without one
            want = kinds.LEADER_WORKER_SET.api_version
            raise Stop(failed(say(ctx.lang, "{path}: apiVersion is {api}; use {want}.",
                                            "{path}: apiVersion이 {api}입니다. {want:을} 쓰세요.",
                                            path=ctx.path(name), api=api, want=want) if api else
                              say(ctx.lang, "{path}: apiVersion is missing; use {want}.",
                                            "{path}: apiVersion이 없습니다. {want:을} 쓰세요.",
                                            path=ctx.path(name), want=want)))

    return find_doc(ctx, name, kinds.LEADER_WORKER_SET.kind, lws, ("the LeaderWorkerSet " + lws, "LeaderWorkerSet " + lws),
                    lws_version)


def live_lws(ctx: Context, lws: str, file: str) -> dict:
    obj = ctx.lws(lws)
    if obj is None:
        raise Stop(failed(say(ctx.lang, "LeaderWorkerSet {lws} is not in namespace {ns}: apply {path} to the cluster.",
                                        "네임스페이스 {ns}에 LeaderWorkerSet {lws:이} 없습니다. {path:을} 클러스터에 적용하세요.",
                                        lws=lws, ns=ctx.ns, path=ctx.path(file))))
    return obj


def file_then_live(ctx: Context, lws: str, file: str, problems, live_where: str) -> dict:
    """Checks the LWS in the answer file, then the live one, with the same `problems(ctx, obj,
    where)`; returns the live object, or Stop with the first problem (file problems first)."""
    probs = problems(ctx, find_lws_doc(ctx, file, lws), ctx.path(file))
    if probs:
        raise Stop(failed(probs[0], *probs[1:]))
    live = live_lws(ctx, lws, file)
    probs = problems(ctx, live, live_where)
    if probs:
        raise Stop(failed(say(ctx.lang, "The {lws} in the cluster differs from {path}: apply the file again (delete {lws} "
                                        "first if you moved an annotation).",
                                        "클러스터의 {lws:이} {path:과} 다릅니다. 파일을 다시 적용하세요(주석을 옮겼다면 "
                                        "먼저 {lws:을} 지우세요).", lws=lws, path=ctx.path(file)), *probs))
    return live


def misplaced_fields(ctx: Context, obj: dict, where: str) -> list[str]:
    """A problem when leaderWorkerTemplate's fields sit directly under spec (kubectl refuses them)."""
    spec = o.as_dict(obj.get("spec"))
    misplaced = [k for k in ("size", "restartPolicy", "leaderTemplate", "workerTemplate") if k in spec]
    if not misplaced:
        return []
    return [say(ctx.lang, "{where}: {keys} must go under spec.leaderWorkerTemplate, not directly under spec.",
                          "{where}: {keys:은} spec 바로 아래가 아니라 spec.leaderWorkerTemplate 아래에 둡니다.",
                          where=where, keys=", ".join(misplaced))]


def lwt(spec_holder: dict) -> dict:
    """spec.leaderWorkerTemplate of an LWS (file or live)."""
    return o.as_dict(o.dig(spec_holder, "spec", "leaderWorkerTemplate"))


def templates(spec_holder: dict) -> list[tuple[str, dict]]:
    """(label, pod template) pairs: the leader template (or the worker's when it is omitted,
    because it then serves leaders too) and the worker template."""
    t = lwt(spec_holder)
    worker = o.as_dict(t.get("workerTemplate"))
    leader = t.get("leaderTemplate")
    if isinstance(leader, dict):
        return [("leaderTemplate", leader), ("workerTemplate", worker)]
    return [("workerTemplate", worker)]


def template_containers(template: dict) -> list[dict]:
    return o.containers(o.dig(template, "spec", default={}))


def gpu_count(container: dict, resource: str) -> float:
    raw = o.dig(container, "resources", "limits", resource)
    try:
        return float(str(raw)) if raw is not None else 0.0
    except ValueError:
        return -1.0


def template_gpus(template: dict, resource: str) -> float:
    return sum(gpu_count(c, resource) for c in template_containers(template))


@dataclass(frozen=True)
class PodNotes:
    """What a lesson knows of its own pods' command, said after the engine's facts about a pod:
    why a Terminating pod takes its whole grace period and what would shorten it, and what a
    container that keeps exiting should do instead. The engine knows no lesson's command: a
    lesson without notes gets the facts alone."""

    terminating: Words | None = None  # fields: pod, grace
    crash_loop: Words | None = None  # fields: pod, c (the container)


NO_NOTES = PodNotes()


def _note(ctx: Context, words: Words | None, **fields) -> str:
    return " " + pick(words, ctx.lang, **fields) if words else ""


def grace_note(ctx: Context, pod: dict, notes: PodNotes = NO_NOTES) -> str:
    """Why a Terminating pod takes its time (and, from the lesson, what would shorten it)."""
    grace = o.int_or_none(o.dig(pod, "metadata", "deletionGracePeriodSeconds"))
    if grace == 0:  # the kubelet stopped its containers and asked for it to go: no countdown left
        return say(ctx.lang, "{pod} is Terminating: its containers have stopped and its grace period is over; it goes as "
                             "soon as the kubelet has cleaned up after it.",
                             "{pod:이} 종료 중(Terminating)입니다. 컨테이너는 이미 멈췄고 유예 시간도 끝났습니다. kubelet이 "
                             "뒷정리를 마치는 대로 사라집니다.", pod=o.name(pod))
    if grace is None:
        grace = o.int_or_none(o.dig(pod, "spec", "terminationGracePeriodSeconds"))
    grace = 30 if grace is None else grace
    return say(ctx.lang, "{pod} is Terminating: after SIGTERM the kubelet waits up to its grace period ({grace} s) for "
                         "its containers to stop.",
                         "{pod:이} 종료 중(Terminating)입니다. kubelet은 SIGTERM을 보낸 뒤 컨테이너가 멈추기를 유예 "
                         "시간({grace}초)까지 기다립니다.",
                         pod=o.name(pod), grace=grace) + _note(ctx, notes.terminating, pod=o.name(pod), grace=grace)


def container_not_running(ctx: Context, pod: dict, notes: PodNotes = NO_NOTES) -> str:
    """Why a container of a Running pod is not running, or "" when every container runs. A
    container in CrashLoopBackOff stops the check with a fail: it will not get better by waiting."""
    for cs in o.container_statuses(pod):
        state = o.as_dict(cs.get("state"))
        if "running" in state:
            continue
        last = o.as_dict(o.dig(cs, "lastState", "terminated")) or o.as_dict(state.get("terminated"))
        code = last.get("exitCode", "?")
        reason = o.as_dict(state.get("waiting")).get("reason") or o.as_dict(state.get("terminated")).get("reason") or "?"
        if reason == "CrashLoopBackOff":
            raise Stop(failed(
                say(ctx.lang, "The container {c} of {pod} keeps exiting (exit code {code}, CrashLoopBackOff after {n} "
                              "restarts): its command ends by itself.",
                              "{pod}의 컨테이너 {c:이} 계속 종료됩니다(종료 코드 {code}, 재시작 {n}번 뒤 "
                              "CrashLoopBackOff). 명령이 저절로 끝납니다.",
                              c=cs.get("name", "?"), code=code, n=cs.get("restartCount", 0), pod=o.name(pod))
                + _note(ctx, notes.crash_loop, pod=o.name(pod), c=cs.get("name", "?")),
                f"kubectl logs -n {ctx.ns} {o.name(pod)} -c {cs.get('name', '?')} --previous"))
        return say(ctx.lang, "container {c} is not running ({reason})", "컨테이너 {c:이} 실행 중이 아닙니다({reason})",
                             c=cs.get("name", "?"), reason=reason)
    return ""


RECREATING_POLICIES = ("RecreateGroupOnPodRestart", "RecreateGroupAfterStart")


def group_to_be_recreated(ctx: Context, pod: dict) -> str:
    """Why a pod that restarted is not a settled pass, or "". LWS's pod controller counts any
    restartCount > 0 on a Running or Pending pod as a failure and, under these two policies,
    deletes the group's leader: such a pod (even Running again) is about to be replaced."""
    if o.phase(pod) not in ("Running", "Pending") or o.restart_count(pod) == 0:
        return ""
    owner = ctx.lws(o.lws_name(pod))
    policy = o.dig(owner, "spec", "leaderWorkerTemplate", "restartPolicy") if owner else None
    if policy not in RECREATING_POLICIES:
        return ""
    last = next((o.as_dict(o.dig(cs, "lastState", "terminated")) for cs in o.container_statuses(pod)
                 if cs.get("restartCount")), {})
    return say(ctx.lang, "{pod}: a container restarted (exit code {code}); {policy} makes LWS recreate group {g}",
                         "{pod}: 컨테이너가 재시작했습니다(종료 코드 {code}). {policy} 정책에 따라 "
                         "LWS가 그룹 {g} 전체를 다시 만듭니다",
                         pod=o.name(pod), code=last.get("exitCode", "?"), policy=policy, g=o.group_index(pod))


def pods_running(ctx: Context, names: list[str], notes: PodNotes = NO_NOTES) -> None:
    """Stop with waiting (or fail, when the scheduler refuses) unless every pod is Running;
    `notes`: the lesson's words on its pods' command (PodNotes)."""
    not_ready = []
    for name in names:
        pod = ctx.pod(name)
        if pod is None:
            old = ctx.terminating(name)
            not_ready.append(grace_note(ctx, old, notes) if old else
                             say(ctx.lang, "{pod}: not created yet", "{pod}: 아직 없음", pod=name))
            continue
        if o.phase(pod) == "Running":
            stopped = container_not_running(ctx, pod, notes)
            if stopped:  # phase stays Running while a real container exits and backs off
                not_ready.append(f"{name}: {stopped}")
            elif doomed := group_to_be_recreated(ctx, pod):  # running again, but not for long
                not_ready.append(doomed)
            continue
        sched = o.condition(pod, "PodScheduled")
        if sched.get("status") == "False" and sched.get("reason") == "Unschedulable":
            raise Stop(failed(say(ctx.lang, "{pod} cannot be scheduled: {why}",
                                            "{pod:을} 배치할 수 없습니다: {why}",
                                            pod=name, why=sched.get("message", "?")), *verdict_lines(ctx, name)))
        not_ready.append(f"{name}: {o.phase(pod)}")
    if not_ready:
        raise Stop(waiting(say(ctx.lang, "Waiting for the pods to be Running.",
                                         "파드가 Running이 되기를 기다립니다."), *not_ready))


def kv_lines(text: str) -> list[tuple[int, dict[str, str], str]]:
    """Lines of `key=value` tokens, tolerant of spaces, tabs and blank lines."""
    out = []
    for n, line in enumerate(text.split("\n"), start=1):
        line = line.strip()
        if not line:
            continue
        pairs = {}
        for tok in line.split():
            k, sep, v = tok.partition("=")
            if sep:
                pairs[k.strip().lower()] = v.strip()
        out.append((n, pairs, line))
    return out

"""Step 4: dns.txt is a lookup of the leader's full name that returned llm-1's current pod IP, or
the IP llm-1 had when the file was written, where the tutor saw llm-1 hold it. Started after llm-1
was replaced, the tutor cannot tell an earlier IP from a typo: another pod's address is refuted,
anything else cannot be confirmed (neither a pass nor a fail: not the learner's failure) and a
fresh lookup is asked for."""

from __future__ import annotations

import re
import time

from tutor.checks.api import (answer_text, Context, every, evidence, failed, Instant, merged, o, say,
                              parse_time, passed, Reads, timeline, uid_history, unconfirmed, Verdict, waiting)

from .env import pod_lws_env  # the same reading of a pod's env as step 3

LWS = "llm"
LEADER = "llm-1"
FILE = "dns.txt"
# llm's timeline, llm-1's history and every pod (who else held an address, when started late).
# llm-1-1 gives the name (its LWS_LEADER_ADDRESS).
READS = merged(evidence(LWS), Reads(kinds=("Pod",), pods=(LEADER, "llm-1-1"), files=(FILE,)))
# A whole IPv4 address: 10.42.0.1 must not match inside 10.42.0.15 or 110.42.0.1.
NAME_RE = re.compile(r"^\s*Name:\s*(\S+)", re.M)  # what nslookup says it looked up
IPV4_RE = re.compile(r"(?<![\d.])((?:\d{1,3}\.){3}\d{1,3})(?!\.?\d)")


def _clock(at: float) -> str:
    return time.strftime("%H:%M:%S UTC", time.gmtime(at))


def answers(text: str) -> set[str]:
    """The addresses a lookup answered: those after its Name: line, never the DNS server's own."""
    lines = text.split("\n")
    named = next((i for i, line in enumerate(lines) if NAME_RE.match(line)), None)
    if named is not None:
        return addresses("\n".join(lines[named:]))
    return addresses("\n".join(line for line in lines if not line.strip().startswith("Server") and ":53" not in line))


def addresses(text: str) -> set[str]:
    return set(IPV4_RE.findall(text))


WORKER = "llm-1-1"  # the pod the lab looks the name up from
SUFFIX = ".svc.cluster.local"


def full_name(ctx: Context) -> str:
    """The leader's full DNS name as the lab defines it: llm-1-1's own LWS_LEADER_ADDRESS (what
    LWS gives it, whatever its subdomainPolicy) plus .svc.cluster.local; the Shared policy's name
    while that pod or its variable is not there."""
    worker = ctx.pod(WORKER)
    address = pod_lws_env(worker).get("LWS_LEADER_ADDRESS") if worker else None
    return (address.rstrip(".") if address else f"{LEADER}.{LWS}.{ctx.ns}") + SUFFIX


def the_name(ctx: Context) -> str:
    """The name to look up, said by where it comes from: building it is the step's work."""
    return say(ctx.lang, "the leader's full name (built from {pod}'s LWS_LEADER_ADDRESS, as the step says)",
                         "리더의 전체 이름({pod}의 LWS_LEADER_ADDRESS로 단계 설명대로 만든 이름)", pod=WORKER)


def lookup_again(ctx: Context) -> str:
    """Where the answer comes from, without the name or the command that gets it (those are the
    step's and the hints')."""
    return say(ctx.lang, "Look up {name} from inside {pod}, as the workers would, and save the whole output.",
                         "워커들이 하듯 {pod} 안에서 {name:을} 조회하고 출력 전체를 저장하세요.",
                         name=the_name(ctx), pod=WORKER)


def check(ctx: Context) -> Verdict:
    full = full_name(ctx)
    text = answer_text(ctx, FILE, say(ctx.lang, "the whole output of a DNS lookup of {name}",
                                                "{name}의 DNS 조회 결과 전체", name=the_name(ctx)))
    leader = ctx.pod(LEADER)
    ip = o.pod_ip(leader) if leader else ""
    if not ip:
        return waiting(say(ctx.lang, "Waiting for leader pod {pod} to have an IP.",
                                     "리더 파드 {pod}에 IP가 생기기를 기다립니다.", pod=LEADER))
    found = addresses(text)
    looked_up = [n.rstrip(".").lower() for n in NAME_RE.findall(text)]
    if looked_up and full not in looked_up:
        return failed(say(ctx.lang, "{path} shows a lookup of {name}, which is not the leader's full name.",
                                    "{path:은} {name:을} 조회한 결과입니다. 리더의 전체 이름이 아닙니다.",
                                    path=ctx.path(FILE), name=looked_up[0]),
                      lookup_again(ctx))
    if ip in found:
        # source: k8s.io/kubernetes@v1.37.2 pkg/controller/statefulset/stateful_set_utils.go «Subdomain = set.Spec.ServiceName»
        # source: k8s.io/endpointslice@v0.37.2 utils.go «ep.Hostname = &pod.Spec.Hostname»
        return passed(say(ctx.lang, "The lookup returned {ip}, the IP of leader pod {pod}: the headless Service "
                                    "gives every pod in the group a stable name.",
                                    "조회 결과가 리더 파드 {pod}의 IP {ip}입니다. 헤드리스 서비스가 "
                                    "그룹의 파드마다 고정된 이름을 줍니다.",
                                    ip=ip, pod=LEADER))
    tl = timeline(ctx, LWS)
    written = ctx.workspace.get(FILE).written_at
    old = {a for u in uid_history(ctx, LEADER) for a in u.ips if a != ip}
    for seen in uid_history(ctx, LEADER):
        # An earlier IP of llm-1 is right if the file was written while llm-1 had it.
        held = found & set(seen.ips) - {ip}
        # A UID that has not gone holds its addresses still: any time the file was written is in.
        end = tl.anchor + seen.gone_t if seen.gone_t is not None else None
        # `end` is on the tutor's clock, related to the file's wall-clock time to the second
        if held and written is not None and (end is None or Instant(end, False).maybe_after(written)):
            return passed(say(ctx.lang, "The lookup returned {old}, the IP leader pod {pod} had when you looked it up; "
                                        "{pod} has been replaced since and now has {ip}.",
                                        "조회 결과 {old:은} 조회할 때의 리더 파드 {pod} IP입니다. {pod:은} 그 뒤 다시 "
                                        "만들어져 지금은 {ip}입니다.", old=", ".join(sorted(held)), pod=LEADER, ip=ip))
    current = tl.created(LEADER, o.uid(leader or {}))
    unproved = answers(text) - old - {ip}
    if unproved and written is not None and current is not None and written < current.at \
            and tl.anchor > written and "NXDOMAIN" not in text.upper():
        # Written before llm-1 was last replaced, and the tutor was not running then: only the
        # tutor keeps a pod's earlier IPs, so this can be refuted but not proved.
        # A pod keeps its IP for life: one that held the address when the file was written refutes it.
        others = {o.pod_ip(p): o.name(p) for p in every(ctx, "Pod")
                  if o.name(p) != LEADER and (born := parse_time(o.dig(p, "metadata", "creationTimestamp")))
                  and Instant(*born).surely_before(written)}
        taken = sorted(a for a in unproved if a in others)
        if taken:
            return failed(say(ctx.lang, "{path} holds {a}, the IP pod {other} had already when the file was "
                                        "written, not {pod}'s.",
                                        "{path}의 {a:은} 파일을 적을 때 이미 파드 {other}의 IP였습니다. {pod}의 IP가 아닙니다.",
                                        path=ctx.path(FILE), a=taken[0], other=others[taken[0]], pod=LEADER),
                          lookup_again(ctx))
        # Nothing refutes it, and nothing proves it: a one-digit typo would read the same. Not a
        # pass, and not the learner's failure either: a lookup made now settles it.
        return unconfirmed(say(ctx.lang, "{path} holds {found}, which cannot be confirmed: leader pod {pod} was replaced at "
                                         "{at}, after the file was written at {w}, and got a new IP; the cluster keeps no "
                                         "record of a pod's earlier IPs, and the tutor was not running then. This is not "
                                         "your mistake. To confirm the step again, look the name up afresh and save the "
                                         "new output to {path}.",
                                         "{path}의 {found:은} 확인할 수 없습니다. 파일을 적은 {w} 뒤 {at}에 리더 파드 "
                                         "{pod:이} 다시 만들어져 새 IP를 받았는데, 클러스터는 파드의 예전 IP를 남기지 않고 "
                                         "그때 튜터는 실행 중이 아니었습니다. 잘못한 것이 아닙니다. 다시 확인받으려면 이름을 "
                                         "새로 조회해 그 출력을 {path}에 다시 저장하세요.",
                                         found=", ".join(sorted(unproved)), path=ctx.path(FILE), w=_clock(written),
                                         pod=LEADER, at=current.clock() + " UTC"),
                           lookup_again(ctx))
    if found & old:
        return failed(say(ctx.lang, "{path} shows {old}, an earlier IP of {pod}; the pod was recreated since and has a new "
                                    "IP. Look it up again.",
                                    "{path}의 {old:은} {pod}의 예전 IP입니다. 파드가 그 뒤 다시 만들어져 "
                                    "IP가 바뀌었습니다. 다시 조회하세요.",
                                    path=ctx.path(FILE), old=", ".join(sorted(found & old)), pod=LEADER),
                      lookup_again(ctx))
    if "NXDOMAIN" in text.upper() or "can't find" in text:
        # source: k8s.io/kubernetes@v1.37.2 pkg/kubelet/network/dns/dns.go «svcDomain := fmt.Sprintf("svc.%s", c.ClusterDomain)»
        return failed(say(ctx.lang, "The lookup failed (NXDOMAIN). A pod's name lives under its headless Service, and "
                                    "busybox nslookup adds the search domains only to a name without a dot: look up the "
                                    "leader's full name, as the step builds it.",
                                    "조회가 실패했습니다(NXDOMAIN). 파드 이름은 헤드리스 서비스 아래에 있고, busybox nslookup은 "
                                    "점이 없는 이름에만 검색 도메인을 붙입니다. 단계 설명대로 "
                                    "만든 리더의 전체 이름으로 조회하세요."),
                      lookup_again(ctx))
    return failed(say(ctx.lang, "{path} does not contain the current IP of leader pod {pod} (its status.podIP).",
                                "{path}에 리더 파드 {pod}의 현재 IP(status.podIP)가 없습니다.",
                                path=ctx.path(FILE), pod=LEADER),
                  say(ctx.lang, "addresses found: {found}", "파일에 있는 주소: {found}",
                                found=", ".join(sorted(found)) or "-"),
                  lookup_again(ctx))

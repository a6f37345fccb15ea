"""Step 4: dns.txt is a lookup of the leader's full name that returned llm-1's current pod IP."""

from __future__ import annotations

import re

from tutor.checks.common import answer_text
from tutor.checks.context import Context
from tutor.checks.verdict import Verdict, failed, passed, waiting
from tutor.cluster import objects as o

LEADER = "llm-1"
FILE = "dns.txt"
# A whole IPv4 address: 10.42.0.1 must not match inside 10.42.0.15 or 110.42.0.1.
IPV4_RE = re.compile(r"(?<![\d.])((?:\d{1,3}\.){3}\d{1,3})(?!\.?\d)")


def addresses(text: str) -> set[str]:
    return set(IPV4_RE.findall(text))


def check(ctx: Context) -> Verdict:
    full = f"{LEADER}.llm.{ctx.ns}.svc.cluster.local"
    text = answer_text(ctx, FILE, ctx.t("the nslookup output for " + full,
                                        full + " 의 nslookup 결과"))
    leader = ctx.pod(LEADER)
    ip = o.pod_ip(leader) if leader else ""
    if not ip:
        return waiting(ctx.t("Waiting for leader pod {pod} to have an IP.",
                             "리더 파드 {pod} 에 IP 가 생기기를 기다립니다.", pod=LEADER))
    found = addresses(text)
    if ip in found:
        return passed(ctx.t("The lookup returned {ip}, the IP of leader pod {pod}: the headless Service "
                            "gives every pod in the group a stable name.",
                            "조회 결과가 리더 파드 {pod} 의 IP {ip} 입니다. 헤드리스 서비스가 그룹의 파드마다 "
                            "고정된 이름을 줍니다.", ip=ip, pod=LEADER))
    old = {a for u in ctx.store.obs.uid_history(LEADER) for a in u.ips if a != ip}
    if found & old:
        return failed(ctx.t("{path} shows {old}, an earlier IP of {pod}; the pod was recreated and now has {ip}. "
                            "Look it up again.",
                            "{path} 의 {old} 는 {pod} 의 예전 IP 입니다. 파드가 다시 만들어져 지금은 {ip} 입니다. "
                            "다시 조회하세요.", path=ctx.path(FILE), old=", ".join(sorted(found & old)),
                            pod=LEADER, ip=ip))
    if "NXDOMAIN" in text.upper() or "can't find" in text:
        return failed(ctx.t("The lookup failed (NXDOMAIN). A pod's name lives under its headless Service, and "
                            "busybox nslookup adds the search domains only to a name without a dot: "
                            "look up the full name {full}.",
                            "조회가 실패했습니다(NXDOMAIN). 파드 이름은 헤드리스 서비스 아래에 있고, busybox nslookup 은 "
                            "점이 없는 이름에만 검색 도메인을 붙입니다. 전체 이름 {full} 으로 조회하세요.", full=full),
                      f"kubectl exec -n {ctx.ns} llm-1-1 -- nslookup {full}")
    return failed(ctx.t("{path} does not contain {ip}, the current IP of leader pod {pod}.",
                        "{path} 에 리더 파드 {pod} 의 현재 IP {ip} 가 없습니다.",
                        path=ctx.path(FILE), ip=ip, pod=LEADER),
                  ctx.t("addresses found: {found}", "파일에 있는 주소: {found}",
                        found=", ".join(sorted(found)) or "-"),
                  f"kubectl exec -n {ctx.ns} llm-1-1 -- nslookup {full}")

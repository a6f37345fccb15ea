"""Step 1: api.txt is the API server's discovery of scheduling.k8s.io, and it lists PodGroups.

A PodGroup already in the cluster proves the API is served too; without one, the file is the
only word on it (the checkers read the store and the answer files, not discovery)."""

from __future__ import annotations

from tutor.checks.api import answer_text, Context, every, failed, MAX_LINES, passed, Reads, Verdict, say

from .members import API_VERSION, KIND

FILE = "api.txt"
PLURAL = "podgroups"
READS = Reads(kinds=(KIND,), files=(FILE,))


def check(ctx: Context) -> Verdict:
    text = answer_text(ctx, FILE, say(ctx.lang, "the API server's resources in scheduling.k8s.io",
                                                "API 서버가 scheduling.k8s.io 그룹에서 제공하는 리소스 목록"),
                       max_lines=MAX_LINES)
    rows = [line.split() for line in text.splitlines() if line.split()]
    podgroups = [r for r in rows if r[0] == PLURAL]
    if not podgroups:
        return failed(say(ctx.lang, "{path} lists no {plural}: the API server does not serve {gv}, so there is no gang "
                                    "scheduling here yet.",
                                    "{path}에 {plural:이} 없습니다. API 서버가 {gv:을} 제공하지 않으므로 "
                                    "아직 갱 스케줄링을 쓸 수 없습니다.",
                                    path=ctx.path(FILE), plural=PLURAL, gv=API_VERSION),
                      say(ctx.lang, "lwstutor doctor --lesson gang says what the cluster lacks, and the k3s flags that "
                                    "turn it on.",
                                    "lwstutor doctor --lesson gang을 실행하면 클러스터에 빠진 것과 그것을 켜는 k3s 플래그를 "
                                    "알려 줍니다."))
    versions = {col for r in podgroups for col in r[1:] if "/" in col}
    if API_VERSION not in versions:
        return failed(say(ctx.lang, "{path} lists {plural} at {found}, not at {gv}, the version this lesson uses.",
                                    "{path}의 {plural:은} {found} 버전입니다. 이 모듈은 {gv:을} 씁니다.",
                                    path=ctx.path(FILE), plural=PLURAL, found=", ".join(sorted(versions)) or "?",
                                    gv=API_VERSION),
                      say(ctx.lang, "Kubernetes 1.37 serves PodGroups at v1beta1; an older cluster has another version.",
                                    "쿠버네티스 1.37은 PodGroup을 v1beta1 버전으로 제공합니다. 더 "
                                    "오래된 클러스터는 버전이 다릅니다."))
    served = bool(every(ctx, KIND))
    return passed(say(ctx.lang, "The API server serves {kind} at {gv}: gang scheduling is available.",
                                "API 서버가 {kind:을} {gv:으로} 제공합니다. 갱 스케줄링을 쓸 수 있습니다.",
                                kind=KIND, gv=API_VERSION),
                  *([say(ctx.lang, "The cluster already holds PodGroups in {ns}.", "{ns}에 이미 PodGroup이 있습니다.", ns=ctx.ns)]
                    if served else []))

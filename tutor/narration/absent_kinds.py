"""What the learner reads while the cluster does not serve a kind a lesson watches: its row in
the kinds table (tutor/cluster/kinds.py) names the CRD or the feature gate it needs."""

from __future__ import annotations

from tutor.cluster.kinds import Kind
from tutor.i18n.bilingual import say


def absent_short(kind: Kind, lang: str) -> str:
    """The few words the header shows while the cluster does not serve the kind."""
    if kind.crd:
        return say(lang, "{kind} not installed", "{kind} 미설치", kind=kind.kind)
    return say(lang, "{kind} not served", "{kind} 미제공", kind=kind.kind)


def absent(kind: Kind, lang: str) -> str:
    """What a pane says in place of the kind's objects when the cluster does not serve it."""
    if kind.crd:
        return say(lang, "{kind} is not installed in this cluster (no CRD {crd}). Check with: kubectl get crd {crd}",
                   "이 클러스터에 {kind:이} 설치되어 있지 않습니다(CRD {crd} 없음). 확인: kubectl get crd {crd}",
                   kind=kind.kind, crd=kind.crd)
    return say(lang, "The API server does not serve {gv}, so no {kind}: the {gate} feature gate and "
                     "--runtime-config={gv}=true are needed. Check with: kubectl api-versions",
               "API 서버가 {gv:을} 제공하지 않아 {kind:이} 없습니다. {gate} 기능 게이트와 "
               "--runtime-config={gv}=true 설정이 필요합니다. 확인: kubectl api-versions",
               gv=kind.api_version, kind=kind.kind, gate=kind.gate)

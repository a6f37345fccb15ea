"""Step 3: env.txt holds every LWS_* variable of llm-1-1, compared with the live pod spec."""

from __future__ import annotations

from tutor.checks.api import answer_text, Context, failed, MAX_LINES, o, passed, Reads, Verdict, waiting, say

POD = "llm-1-1"
FILE = "env.txt"
READS = Reads(pods=(POD,), files=(FILE,))


def pod_lws_env(pod: dict) -> dict[str, str | None]:
    """LWS_* variables the webhook injected (the first container that has any), as the container
    sees them: a literal value, or one taken from the pod's own fields (valueFrom.fieldRef);
    None for one the tutor cannot know (from a ConfigMap or a Secret)."""
    for c in o.containers(o.dig(pod, "spec", default={})):
        env = {k: v for k, v in o.env_values(c, pod).items() if k.startswith("LWS_")}
        if env:
            return env
    return {}


def check(ctx: Context) -> Verdict:
    text = answer_text(ctx, FILE, say(ctx.lang, "every LWS_ variable llm-1-1's container sees, one NAME=value a line",
                                                "llm-1-1 컨테이너가 보는 LWS_ 환경 변수 전부(한 줄에 NAME=value 하나씩)"),
                       max_lines=MAX_LINES)
    pod = ctx.pod(POD)
    if pod is None:
        return waiting(say(ctx.lang, "Waiting for pod {pod} (step 1).", "파드 {pod:을} 기다립니다(1단계).", pod=POD))
    want = pod_lws_env(pod)
    if not want:
        # source: sigs.k8s.io/lws@v0.9.0 pkg/webhooks/pod_webhook.go «if err := podutils.AddLWSVariables(pod); err != nil {»
        return failed(say(ctx.lang, "{pod} has no LWS_ variables in its spec: the LWS pod webhook did not run.",
                                    "{pod}의 spec에 LWS_ 변수가 없습니다. LWS 파드 웹훅이 동작하지 않았습니다.", pod=POD))
    got: dict[str, str] = {}
    others = 0
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        name, sep, value = line.partition("=")
        if sep and name.startswith("LWS_"):
            got[name] = value
        else:
            others += 1
    problems: list[str] = []
    unknown: list[str] = []
    for name, wanted in sorted(want.items()):
        if wanted is None:  # the container's value is not in what the tutor reads: present is enough
            unknown.append(name)
        if name not in got:
            problems.append(say(ctx.lang, "{name} is missing.", "{name} 줄이 없습니다.", name=name))
        elif wanted is not None and got[name] != wanted:
            problems.append(say(ctx.lang, "{name}={got} is not the value {pod}'s container has for {name}.",
                                          "{name}={got:은} {pod} 컨테이너가 가진 {name} 값과 다릅니다.",
                                          name=name, got=got[name], pod=POD))
    for name in sorted(set(got) - set(want)):
        problems.append(say(ctx.lang, "{name} is not an env variable of {pod}.",
                                      "{name:은} {pod}의 환경 변수가 아닙니다.", name=name, pod=POD))
    if problems:
        return failed(problems[0], *problems[1:],
                      say(ctx.lang, "Take them from the environment {pod}'s container runs with, not from the manifest: "
                                    "the webhook adds them when the pod is created.",
                                    "매니페스트가 아니라 {pod} 컨테이너가 실제로 받은 환경 변수에서 "
                                    "가져오세요. 웹훅이 파드를 만들 때 넣습니다.",
                                    pod=POD))
    notes = [f"{k}={v}" if v is not None else f"{k}={got[k]}" for k, v in sorted(want.items())]
    if unknown:
        notes.append(say(ctx.lang, "({names}: taken from outside the pod, so only their presence is checked)",
                                   "({names}: 파드 밖에서 가져오는 값이라 있는지만 확인합니다)", names=", ".join(unknown)))
    if others:
        notes.append(say(ctx.lang, "({n} other lines ignored: only LWS_ lines are compared)",
                                   "(다른 줄 {n}개는 무시: LWS_ 줄만 비교합니다)", n=others))
    return passed(say(ctx.lang, "env.txt holds all {n} LWS_ variables of {pod}. LWS_LEADER_ADDRESS is how a "
                                "worker finds its leader.",
                                "env.txt에 {pod}의 LWS_ 변수 {n}개가 모두 있습니다. 워커는 LWS_LEADER_ADDRESS로 리더를 찾습니다.",
                                n=len(want), pod=POD), *notes)

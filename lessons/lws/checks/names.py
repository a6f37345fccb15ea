"""Step 2: names.txt maps each llm pod to its group and worker index, read from the live labels."""

from __future__ import annotations

from tutor.checks.api import (answer_text, Context, failed, kv_lines, MAX_LINES, o, passed, Reads, Verdict, say,
                              waiting)

LWS = "llm"
FILE = "names.txt"
PODS = ["llm-0", "llm-0-1", "llm-1", "llm-1-1"]
FORMAT = "pod=<name> group=<group index> worker=<worker index>"
FORMAT_KO = "pod=<파드 이름> group=<그룹 번호> worker=<워커 번호>"
READS = Reads(pods=tuple(PODS), pods_of=(LWS,), files=(FILE,))


def check(ctx: Context) -> Verdict:
    text = answer_text(ctx, FILE, say(ctx.lang, "one line per llm pod: {fmt}", "llm 파드마다 한 줄씩, {fmt} 꼴의",
                                                fmt=(FORMAT, FORMAT_KO)), max_lines=MAX_LINES)
    pods = {o.name(p): p for p in ctx.pods_of(LWS)}
    unlabelled = [n for n in PODS if n not in pods and ctx.pod(n) is not None]
    if unlabelled:
        return failed(say(ctx.lang, "Pod {pod} has no LWS labels ({label} is missing), so it is not part of "
                                    "LeaderWorkerSet {lws}. Was it created by hand? Delete it and let LWS recreate it.",
                                    "파드 {pod}에 LWS 라벨({label})이 없어 LeaderWorkerSet {lws}의 파드가 아닙니다. "
                                    "직접 만들었나요? 지우고 LWS가 다시 만들게 하세요.",
                                    pod=unlabelled[0], label=o.NAME_LABEL, lws=LWS),
                      say(ctx.lang, "labels: {labels}", "라벨: {labels}",
                                    labels=", ".join(f"{k}={v}" for k, v
                                                     in o.labels(ctx.pod(unlabelled[0]) or {}).items()) or "-"))
    if len(pods) < 4:
        return waiting(say(ctx.lang, "Waiting for the four llm pods (step 1) before comparing names.txt.",
                                     "names.txt를 비교하려면 llm 파드 넷(1단계)이 있어야 합니다."),
                       say(ctx.lang, "seen: {pods}", "보이는 파드: {pods}", pods=", ".join(sorted(pods)) or "-"))
    written: dict[str, tuple[int, str, str]] = {}
    problems = []
    for n, kv, line in kv_lines(text):
        if not {"pod", "group", "worker"} <= kv.keys():
            problems.append(say(ctx.lang, "line {n}: \"{line}\" is not in the form {fmt}",
                                          "{n}번째 줄 \"{line}\": {fmt} 꼴이 아닙니다", n=n, line=line,
                                          fmt=(FORMAT, FORMAT_KO)))
            continue
        pod = kv["pod"]
        if pod in written:
            problems.append(say(ctx.lang, "line {n}: {pod} is listed twice (also line {m}).",
                                          "{n}번째 줄: {pod:이} 두 번 나옵니다({m}번째 줄에도).",
                                          n=n, pod=pod, m=written[pod][0]))
            continue
        written[pod] = (n, kv["group"], kv["worker"])
    for pod in sorted(set(written) - set(pods)):
        problems.append(say(ctx.lang, "line {n}: there is no llm pod named {pod}.",
                                      "{n}번째 줄: {pod:이라는} llm 파드는 없습니다.", n=written[pod][0], pod=pod))
    for name, obj in pods.items():
        want_g = o.labels(obj).get(o.GROUP_INDEX_LABEL)
        want_w = o.labels(obj).get(o.WORKER_INDEX_LABEL)
        if want_g is None or want_w is None:
            # source: sigs.k8s.io/lws@v0.9.0 pkg/webhooks/pod_webhook.go «GroupIndexLabelKey] = fmt.Sprint(groupIndex)»
            # source: sigs.k8s.io/lws@v0.9.0 pkg/webhooks/pod_webhook.go «WorkerIndexLabelKey] = fmt.Sprint(workerIndex)»
            return failed(say(ctx.lang, "Pod {pod} has no group-index/worker-index label: is the LWS webhook running?",
                                        "파드 {pod}에 group-index/worker-index 라벨이 없습니다. LWS 웹훅이 동작하나요?",
                                        pod=name))
        if name not in written:
            problems.append(say(ctx.lang, "{pod} is missing: add \"pod={pod} group=... worker=...\".",
                                          "{pod:이} 빠졌습니다: \"pod={pod} group=... worker=...\" 줄을 더하세요.",
                                          pod=name))
            continue
        n, g, w = written[name]
        wrong = [key for key, got, want in (("group", g, want_g), ("worker", w, want_w)) if got != want]
        if len(wrong) == 2:
            problems.append(say(ctx.lang, "line {n}: neither group= nor worker= of {pod} matches its group-index and "
                                          "worker-index labels.",
                                          "{n}번째 줄: {pod}의 group=, worker= 값이 둘 다 파드의 group-index, "
                                          "worker-index 라벨과 다릅니다.",
                                          n=n, pod=name))
        elif wrong:
            problems.append(say(ctx.lang, "line {n}: {key}= of {pod} does not match its {key}-index label.",
                                          "{n}번째 줄: {pod}의 {key}= 값이 파드의 {key}-index 라벨과 다릅니다.",
                                          n=n, pod=name, key=wrong[0]))
    if problems:
        return failed(problems[0], *problems[1:],
                      say(ctx.lang, "Where to look: each pod's labels {gl} and {wl}, which LWS set (the pods pane shows them).",
                                    "볼 곳: LWS가 파드마다 붙인 {gl}, {wl} 라벨(파드 창에도 나옵니다).",
                                    gl=o.GROUP_INDEX_LABEL, wl=o.WORKER_INDEX_LABEL))
    return passed(say(ctx.lang, "names.txt matches the group-index and worker-index labels of all four pods.",
                                "names.txt가 파드 넷의 group-index·worker-index 라벨과 일치합니다."))

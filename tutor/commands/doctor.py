"""`lwstutor doctor`: is the cluster ready for the lab? Prints each problem with its fix.

The local checks (the workdir) run whatever happened to the cluster: a doctor that stops at
"cannot reach" hides the next thing to fix. A cluster that cannot be found or reached makes the
exit code 2, as for every command; otherwise 0 when ready, 1 when not.
"""

from __future__ import annotations

from tutor.commands.results import EXIT_NOT_PASSED, EXIT_OK, EXIT_USAGE, UsageError, cluster_error, print_json
from tutor.commands.setup import chosen_lang, connect_for, lesson_for, workdir_for


def run_doctor(args) -> int:
    from tutor.i18n.bilingual import say
    from tutor.narration.connecting import found, why_found
    from tutor.preflight import Finding, local_checks, run

    lesson = lesson_for(args)
    lang = chosen_lang(args)
    workdir = workdir_for(args, lesson, check=False)  # a workdir that is not there is a finding here
    error: UsageError | None = None
    conn = None
    try:
        conn = connect_for(args)
    except UsageError as exc:
        error = exc
    if conn is not None:
        # Which kubeconfig, and why that one: the first thing to know when the tutor and kubectl disagree.
        used = Finding("kubeconfig", True, say(lang, "kubeconfig {source}",
                                                     "kubeconfig {source}", source=found(conn.source, lang)),
                       say(lang, "context {context}, server {server}",
                                 "컨텍스트 {context}, 서버 {server}", context=conn.context or "-", server=conn.server))
        findings = [used, *run(conn.api_client, lesson.namespace, workdir, lesson.gpu_resource, lang=lang,
                                      reads=lesson.kinds, lab=lesson.lab)]
        failure = next((f.failure for f in findings if f.failure is not None), None)
        if failure is not None:
            error = cluster_error(failure)
    else:
        assert error is not None  # connect_for gave a connection or raised UsageError
        findings = [Finding("kubeconfig", False, error.text(lang), "", error.fixes_in(lang)), *local_checks(workdir, lang)]
    ok = all(f.ok for f in findings)
    code = EXIT_USAGE if error is not None else EXIT_OK if ok else EXIT_NOT_PASSED
    if args.json:
        out = {"context": conn.context if conn else None, "server": conn.server if conn else None, "ready": ok,
               "kubeconfig": {"files": list(conn.source.files), "why": why_found(conn.source, lang)} if conn else None,
               "checks": [f.to_json() for f in findings]}
        if error is not None:
            out.update(error.to_json(lang))
        print_json(out)
    else:
        for f in findings:
            print(f"{f.mark} {f.title}" + (f": {f.detail}" if f.detail else ""))
            for fix in f.fix:
                print("    " + fix.replace("\n", "\n    "))
        print(say(lang, "the lab is ready", "실습 준비 완료") if ok
              else say(lang, "the lab is not ready: fix the items marked ✗", "실습 준비가 덜 되었습니다: ✗ 표시 항목을 고치세요"))
    return code

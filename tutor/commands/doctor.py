"""`lwstutor doctor`: is the cluster ready for the lab? Prints each problem with its fix."""

from __future__ import annotations

from tutor.commands.results import EXIT_NOT_PASSED, EXIT_OK, print_json
from tutor.commands.setup import connect_for, lesson_for, workdir_for


def run_doctor(args) -> int:
    from tutor.doctor import Finding, run

    lesson = lesson_for(args)
    conn = connect_for(args)
    # Which kubeconfig, and why that one: the first thing to know when the tutor and kubectl disagree.
    used = Finding("kubeconfig", True, f"kubeconfig {conn.source.describe()}",
                   f"context {conn.context or '(none)'}, server {conn.server}")
    findings = [used, *run(conn.api_client, lesson.namespace, workdir_for(args, lesson), lesson.gpu_resource)]
    ok = all(f.ok for f in findings)
    if args.json:
        print_json({"context": conn.context, "server": conn.server, "ready": ok,
                    "kubeconfig": {"files": list(conn.source.files), "why": conn.source.why},
                    "checks": [f.to_json() for f in findings]})
    else:
        for f in findings:
            print(f"{'✓' if f.ok else '✗'} {f.title}" + (f": {f.detail}" if f.detail else ""))
            for fix in f.fix:
                print("    " + fix.replace("\n", "\n    "))
        print("the lab is ready" if ok else "the lab is not ready: fix the items marked ✗")
    return EXIT_OK if ok else EXIT_NOT_PASSED

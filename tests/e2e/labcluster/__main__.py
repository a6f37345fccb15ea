"""By hand: `python -m tests.e2e.labcluster up [--node kwok]` (prints `export KUBECONFIG=...`),
`down`, `status`, `fail POD` (imitates the learner's `touch /tmp/fail` on a KWOK pod, which has no
container; on the real node run the real `kubectl exec POD -- touch /tmp/fail`)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from tests.e2e.labcluster.lab import Lab, LabError, fail_container, up

POINTER = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "lwstutor-labcluster" / "current"


def current() -> Lab:
    if not POINTER.exists():
        raise LabError("no lab is up (run: python -m tests.e2e.labcluster up)")
    return Lab.load(Path(POINTER.read_text().strip()))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.e2e.labcluster")
    sub = p.add_subparsers(dest="cmd", required=True)
    u = sub.add_parser("up", help="build (cached) and start the lab; prints export KUBECONFIG=...")
    u.add_argument("--node", choices=("real", "kwok"), default=None,
                   help="lab-server as a real node (default; $LAB_NODE) or a KWOK node")
    sub.add_parser("down", help="stop every process the lab started, by PID")
    sub.add_parser("status", help="show the lab's processes and ports")
    f = sub.add_parser("fail", help="make a KWOK pod's container look failed and restarted")
    f.add_argument("pod")
    f.add_argument("-n", "--namespace", default="infer")
    args = p.parse_args(argv)
    try:
        if args.cmd == "up":
            if POINTER.exists() and any(Lab.load(Path(POINTER.read_text().strip())).alive(pr)
                                        for pr in Lab.load(Path(POINTER.read_text().strip())).procs):
                raise LabError("a lab is already up; run `down` first")
            lab = up(node=args.node)
            POINTER.parent.mkdir(parents=True, exist_ok=True)
            POINTER.write_text(str(lab.dir))
            print(f"export KUBECONFIG={lab.kubeconfig}")
            print(f"# kubectl {lab.versions['K8S_VERSION']}: {lab.bin / 'kubectl'}", file=sys.stderr)
            print(f"# node lab-server: {'real' if lab.real_node else 'KWOK'}; started in "
                  f"{lab.timings.get('start', 0):.1f}s", file=sys.stderr)
        elif args.cmd == "down":
            lab = current()
            lab.stop()
            POINTER.unlink(missing_ok=True)
            print(f"stopped; logs kept in {lab.logs}", file=sys.stderr)
        elif args.cmd == "status":
            lab = current()
            for pr in lab.procs:
                print(f"{pr.name:26} pid {pr.pid:<8} {'running' if lab.alive(pr) else 'exited'}  {pr.log}")
            print(f"export KUBECONFIG={lab.kubeconfig}")
        elif args.cmd == "fail":
            fail_container(current(), args.pod, args.namespace)
    except LabError as exc:
        print(f"labcluster: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A stock k3s VM on the real lab: the only kubeconfig is k3s's own file (here the lab's, copied to
<temp root>/etc/rancher/k3s/k3s.yaml), HOME has no .kube and KUBECONFIG is unset. `doctor` and
`check` find the cluster with no flags, and doctor says which file it used and why."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from tests import waits

# `lwstutor` with k3s's path moved into the temp root (the home moves with HOME).
IN_ROOT = ("import sys, tutor.cluster.connect as c; c.K3S_KUBECONFIG = sys.argv.pop(1); "
           "from tutor.cli import main; sys.exit(main(sys.argv[1:]))")


def test_a_stock_k3s_layout_connects_with_no_flags(lab, tmp_path):
    k3s = tmp_path / "etc/rancher/k3s/k3s.yaml"
    k3s.parent.mkdir(parents=True)
    shutil.copy(lab.kubeconfig, k3s)
    home = tmp_path / "root"
    workdir = home / "gsb-lws"
    workdir.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k not in ("KUBECONFIG", "KUBERNETES_SERVICE_HOST")}
    env.update(HOME=str(home), XDG_STATE_HOME=str(tmp_path / "state"))

    def lwstutor(*argv):
        return subprocess.run([sys.executable, "-c", IN_ROOT, str(k3s), *argv, "--workdir", str(workdir)],
                              capture_output=True, text=True, timeout=waits.PROCESS, stdin=subprocess.DEVNULL, env=env)

    res = lwstutor("doctor", "--json", "--lang", "en")  # its "why" is in the learner's language
    assert res.returncode in (0, 1, 3), res.stderr
    out = json.loads(res.stdout)
    checks = {c["id"]: c for c in out["checks"]}
    assert out["kubeconfig"]["files"] == [str(k3s)] and "k3s's kubeconfig" in out["kubeconfig"]["why"]
    assert checks["kubeconfig"]["ok"] and str(k3s) in checks["kubeconfig"]["title"]
    assert checks["cluster"]["ok"] and "v1.37" in checks["cluster"]["title"], checks["cluster"]

    res = lwstutor("check", "--json", "--step", "1", "--lang", "en")
    assert res.returncode in (0, 1, 3), res.stderr  # connected: a verdict, not a usage error
    assert json.loads(res.stdout)["steps"][0]["step"] == 1

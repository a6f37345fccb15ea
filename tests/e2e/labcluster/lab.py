"""Starts and stops the real lab control plane on 127.0.0.1.

etcd → kube-apiserver → kube-controller-manager → kube-scheduler → kwok → lws-manager, each on a
free loopback port, each waited on through a readiness condition (never a fixed sleep), each
stopped by the PID recorded at start. Logs go to the lab's temp dir; a failed start prints the
tail of every log.

The node `lab-server` is real by default (tests/e2e/labnode: containerd, kubelet, kube-proxy,
CoreDNS in a network namespace of the lab's own); `LAB_NODE=kwok` (or `up(node="kwok")`) makes it
a KWOK node like gpu-a and gpu-b, for machines that cannot run it (not root, no cgroups).
"""

from __future__ import annotations

import base64
import glob
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from tests.ports import free_port

HERE = Path(__file__).resolve().parent
LOOPBACK = "127.0.0.1"
GPU = "nvidia.com/gpu"
NAMESPACE = "infer"
SERVER_NODE = "lab-server"  # stands in for the learner's single k3s node
KWOK_NODES = ("gpu-a", "gpu-b")
KWOK_TAINT = {"key": "kwok.x-k8s.io/node", "value": "fake", "effect": "NoSchedule"}
START_ORDER = ("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "lws-manager",
               "netbridge", "containerd", "kubelet", "kube-proxy", "coredns")
POD_CIDR = "10.42.0.0/16"  # k3s's default; KWOK pod IPs are data only, nothing dials them
SERVICE_CIDR = "10.43.0.0/16"  # k3s's default (cluster DNS at 10.43.0.10)
KWOK_POD_CIDRS = {"lab-server": "10.42.0.0/24", "gpu-a": "10.42.1.0/24", "gpu-b": "10.42.2.0/24"}
NODE_KINDS = ("real", "kwok")


class LabError(RuntimeError):
    pass


def versions() -> dict[str, str]:
    out = {}
    for line in (HERE / "versions.env").read_text().splitlines():
        k, sep, v = line.partition("=")
        if sep and not k.startswith("#"):
            out[k.strip()] = v.strip()
    return out


def build() -> Path:
    """Runs build.sh (a cached no-op after the first time) and returns the bin directory."""
    if not shutil.which("go"):
        raise LabError("go is not installed")
    res = subprocess.run(["bash", str(HERE / "build.sh")], stdout=subprocess.PIPE, text=True,
                         stdin=subprocess.DEVNULL)
    if res.returncode != 0:
        raise LabError(f"build.sh failed with exit code {res.returncode}")
    return Path(res.stdout.strip().splitlines()[-1])


def module_dir(module: str, version: str) -> Path:
    gomodcache = subprocess.run(["go", "env", "GOMODCACHE"], stdout=subprocess.PIPE, text=True,
                                check=True).stdout.strip()
    path = Path(gomodcache) / f"{module}@{version}"
    if not path.is_dir():
        subprocess.run(["go", "mod", "download", f"{module}@{version}"], cwd=HERE, check=True,
                       env={**os.environ, "GOTOOLCHAIN": os.environ.get("GOTOOLCHAIN", "local")})
    return path


@dataclass
class Proc:
    name: str
    pid: int
    log: str
    args: list[str] = field(default_factory=list)  # what it was started with, for restart()
    env: dict = field(default_factory=dict)
    exe: str = ""  # when not a lab binary of that name (the node's binaries, python)
    netns: str = ""  # the network namespace it runs in (the real node's), when not the machine's


@dataclass
class Lab:
    dir: Path
    bin: Path
    procs: list[Proc] = field(default_factory=list)
    ports: dict[str, int] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    node: dict = field(default_factory=dict)  # the real node's state (labnode.node.Node), when it has one
    timings: dict[str, float] = field(default_factory=dict)  # seconds, for the benchmarks

    @property
    def real_node(self) -> bool:
        return bool(self.node)

    # --- paths -------------------------------------------------------------------------
    @property
    def kubeconfig(self) -> Path:
        return self.dir / "kubeconfig.yaml"

    @property
    def logs(self) -> Path:
        return self.dir / "logs"

    @property
    def pki(self) -> Path:
        return self.dir / "pki"

    def kubectl(self, *args: str, input: str | None = None, check: bool = True,
                timeout: float = 120) -> subprocess.CompletedProcess:
        res = subprocess.run([str(self.bin / "kubectl"), "--kubeconfig", str(self.kubeconfig), *args],
                             input=input, text=True, capture_output=True, timeout=timeout)
        if check and res.returncode != 0:
            raise LabError(f"kubectl {' '.join(args)}: {res.stderr.strip()}")
        return res

    # --- lifecycle -----------------------------------------------------------------------
    def start(self, name: str, args: list[str], env: dict | None = None, exe: str = "", netns: str = "") -> Proc:
        log = self.logs / f"{name}.log"
        cmd = [exe or str(self.bin / name), *args]
        if netns:  # nsenter joins the namespace and execs the command: the PID is the command's
            cmd = ["nsenter", f"--net={netns}", "--", *cmd]
        with open(log, "ab") as fh:
            p = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, cwd=self.dir, start_new_session=True,
                                 env={**os.environ, **(env or {})})
        proc = Proc(name, p.pid, str(log), list(args), dict(env or {}), exe, netns)
        self.procs.append(proc)
        self.save()
        return proc

    def save(self) -> None:
        state = {"dir": str(self.dir), "bin": str(self.bin), "ports": self.ports, "versions": self.versions,
                 "procs": [p.__dict__ for p in self.procs], "node": self.node, "timings": self.timings}
        (self.dir / "lab.json").write_text(json.dumps(state, indent=1))

    @classmethod
    def load(cls, lab_dir: Path) -> "Lab":
        state = json.loads((lab_dir / "lab.json").read_text())
        return cls(Path(state["dir"]), Path(state["bin"]), [Proc(**p) for p in state["procs"]],
                   state["ports"], state.get("versions", {}), state.get("node", {}), state.get("timings", {}))

    def alive(self, proc: Proc) -> bool:
        try:
            os.kill(proc.pid, 0)
        except ProcessLookupError:
            return False
        # A zombie child still answers kill(0): look at its state.
        try:
            return Path(f"/proc/{proc.pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
        except OSError:
            return False

    def stop(self) -> None:
        """Stops every process we started, newest first, by the PID recorded at start. The real
        node goes first: the kubelet (so it restarts nothing), then every container through
        containerd, then the rest; its mounts, namespace and cgroups go last."""
        node = self._node()
        if node:
            for proc in [p for p in self.procs if p.name == "kubelet"]:
                self._terminate(proc)
                self.procs.remove(proc)
            node.kill_containers()
        for proc in reversed(self.procs):
            self._terminate(proc)
        self.procs.clear()
        self.save()
        if node:
            node.cleanup()
        # etcd's data is most of the lab's size and lives in RAM (/dev/shm); the logs stay.
        shutil.rmtree(self.dir / "etcd", ignore_errors=True)
        shutil.rmtree(self.dir / "node" / "containerd", ignore_errors=True)

    def _node(self):
        if not self.node:
            return None
        from tests.e2e.labnode.node import Node
        return Node.from_state(self.node)

    def _terminate(self, proc: Proc) -> None:
        self._signal(proc, signal.SIGTERM)
        deadline = time.monotonic() + 15
        while self.alive(proc) and time.monotonic() < deadline:
            self._reap(proc)
            time.sleep(0.1)
        if self.alive(proc):
            self._signal(proc, signal.SIGKILL)
            self._reap(proc, block=True)

    def remove(self) -> None:
        """Deletes the lab directory (logs included); only once every process has stopped."""
        if not any(self.alive(p) for p in self.procs):
            shutil.rmtree(self.dir, ignore_errors=True)

    def kill(self, name: str) -> Proc:
        """Stops one component (for fault tests); returns its record so it can be restarted."""
        proc = next(p for p in self.procs if p.name == name)
        self._signal(proc, signal.SIGKILL)
        self._reap(proc, block=True)
        self.procs.remove(proc)
        self.save()
        return proc

    def restart(self, proc: Proc) -> Proc:
        """Starts a killed component again with the same arguments: same port, same etcd, so the
        cluster's data is still there. Waits until it is ready (the API server: /readyz)."""
        new = self.start(proc.name, proc.args, proc.env, proc.exe, proc.netns)
        # Back in its start-up place, so stop() still ends the API server after its clients.
        self.procs.sort(key=lambda p: START_ORDER.index(p.name) if p.name in START_ORDER else len(START_ORDER))
        self.save()
        if proc.name == "kube-apiserver":
            url = f"https://{LOOPBACK}:{self.ports['apiserver']}/readyz"
            self.wait_for("kube-apiserver /readyz", lambda: self.get(url) == "ok", proc=new)
        return new

    @staticmethod
    def _signal(proc: Proc, sig: int) -> None:
        try:
            os.kill(proc.pid, sig)
        except ProcessLookupError:
            pass

    @staticmethod
    def _reap(proc: Proc, block: bool = False) -> None:
        try:
            os.waitpid(proc.pid, 0 if block else os.WNOHANG)
        except ChildProcessError:
            pass

    def wait_for(self, what: str, probe, timeout: float = 120, proc: Proc | None = None) -> None:
        deadline = time.monotonic() + timeout
        last = ""
        while time.monotonic() < deadline:
            try:
                if probe():
                    return
            except Exception as exc:  # noqa: BLE001 - not ready yet
                last = f"{type(exc).__name__}: {exc}"
            if proc is not None and not self.alive(proc):
                raise LabError(f"{proc.name} exited while waiting for {what}")
            time.sleep(0.2)
        raise LabError(f"timed out after {timeout:.0f}s waiting for {what} ({last})")

    def tail_logs(self, lines: int = 30) -> str:
        out = []
        for log in sorted(self.logs.glob("*.log")):
            text = log.read_text(errors="replace").splitlines()[-lines:]
            out.append(f"==> {log.name} <==\n" + "\n".join(text))
        return "\n".join(out)

    # --- http probes (loopback only) -------------------------------------------------------
    def _tls(self) -> ssl.SSLContext:
        ctx = ssl.create_default_context(cafile=str(self.pki / "ca.crt"))
        ctx.load_cert_chain(str(self.pki / "admin.crt"), str(self.pki / "admin.key"))
        return ctx

    def get(self, url: str, tls: bool = True, insecure: bool = False) -> str:
        assert url.split("//", 1)[1].startswith(LOOPBACK + ":"), url
        ctx = None
        if tls:
            ctx = self._tls()
            if insecure:  # components serving their own self-signed health endpoints
                ctx.check_hostname = False
                ctx.verify_mode = ssl.CERT_NONE
        with urllib.request.urlopen(url, timeout=5, context=ctx) as resp:
            return resp.read().decode()


@contextmanager
def running_lab(**kw):
    """A lab for the length of a `with` block (or a fixture's yield); stopped and removed after."""
    lab = up(**kw)
    try:
        yield lab
    finally:
        lab.stop()
        lab.remove()


def node_kind(node: str | None = None) -> str:
    """"real" (the default) or "kwok": the argument, else $LAB_NODE."""
    kind = node or os.environ.get("LAB_NODE") or "real"
    if kind not in NODE_KINDS:
        raise LabError(f"LAB_NODE={kind!r}: use one of {', '.join(NODE_KINDS)}")
    return kind


def up(lab_dir: Path | None = None, bin_dir: Path | None = None, apiserver_args: tuple[str, ...] = (),
       kcm_args: tuple[str, ...] = (), scheduler_args: tuple[str, ...] = (), kwok_pods: int = 110,
       node: str | None = None) -> Lab:
    """Starts the lab. The optional extras (benchmarks: many pods) append flags to the
    controller-manager and scheduler and set the pod capacity of the KWOK nodes. `node` is
    "real" or "kwok" (default: $LAB_NODE, else real); a real node that cannot run is an error,
    never a silent fallback."""
    kind = node_kind(node)
    started = time.monotonic()
    bin_dir = bin_dir or build()
    node_bin = None
    if kind == "real":
        from tests.e2e.labnode.node import NodeError, build as build_node, unavailable_reason
        if reason := unavailable_reason():
            raise LabError(f"the real node cannot run here: {reason}; LAB_NODE=kwok runs the KWOK-only lab")
        try:
            node_bin = build_node()
        except NodeError as exc:
            raise LabError(str(exc)) from exc
    lab_dir = lab_dir or Path(tempfile.mkdtemp(prefix="lwstutor-lab-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None))
    lab = Lab(lab_dir, bin_dir, versions=versions())
    lab.logs.mkdir(parents=True, exist_ok=True)
    try:
        t = time.monotonic()
        _up(lab, apiserver_args, kcm_args, scheduler_args, kwok_pods, node_bin)
        lab.timings["start"] = time.monotonic() - t
        lab.timings["build_check"] = t - started
        lab.save()
    except BaseException:
        print(f"lab start failed; logs in {lab.logs}\n{lab.tail_logs()}", file=sys.stderr)
        lab.stop()
        raise
    return lab


# Kubernetes 1.37's native gang scheduling (scheduling.k8s.io/v1beta1 PodGroup, pod
# spec.schedulingGroup) is beta and off by default: the gate goes on all three components, and the
# API server also serves the group (pkg/controlplane/instance.go lists it as disabled by default).
# The controller-manager needs it too, or a PodGroup's protection finalizer is never removed.
GANG_GATE = "--feature-gates=GenericWorkload=true"
GANG_API = "--runtime-config=scheduling.k8s.io/v1beta1=true"


def _up(lab: Lab, apiserver_args: tuple[str, ...] = (), kcm_args: tuple[str, ...] = (),
        scheduler_args: tuple[str, ...] = (), kwok_pods: int = 110, node_bin: Path | None = None) -> None:
    from tests.e2e.labcluster.pki import make_pki

    make_pki(lab.pki)
    p = lab.ports = {k: free_port() for k in ("etcd", "etcd-peer", "apiserver", "kcm", "scheduler",
                                                "kwok", "webhook", "lws-health")}
    lab.save()
    pki = lab.pki
    real = None
    if node_bin:
        from tests.e2e.labnode import start as node_start
        real = node_start.begin(lab, node_bin)  # namespace, relay, containerd, image import: beside the control plane
        apiserver_args = (*apiserver_args, *node_start.apiserver_args(lab, real))
    # etcd ----------------------------------------------------------------------------------
    etcd = lab.start("etcd", [
        "--name=lab", f"--data-dir={lab.dir / 'etcd'}", "--unsafe-no-fsync",
        f"--listen-client-urls=http://{LOOPBACK}:{p['etcd']}", f"--advertise-client-urls=http://{LOOPBACK}:{p['etcd']}",
        f"--listen-peer-urls=http://{LOOPBACK}:{p['etcd-peer']}",
        f"--initial-advertise-peer-urls=http://{LOOPBACK}:{p['etcd-peer']}",
        f"--initial-cluster=lab=http://{LOOPBACK}:{p['etcd-peer']}",
        "--auto-compaction-retention=1", "--quota-backend-bytes=8589934592", "--log-level=warn"])
    lab.wait_for("etcd /health", lambda: '"health":"true"' in lab.get(f"http://{LOOPBACK}:{p['etcd']}/health", tls=False),
                 proc=etcd)
    # kube-apiserver ------------------------------------------------------------------------
    api = lab.start("kube-apiserver", [
        f"--etcd-servers=http://{LOOPBACK}:{p['etcd']}", "--etcd-prefix=/registry",
        f"--bind-address={LOOPBACK}", f"--advertise-address={LOOPBACK}", f"--secure-port={p['apiserver']}",
        f"--tls-cert-file={pki / 'admin.crt'}", f"--tls-private-key-file={pki / 'admin.key'}",
        f"--client-ca-file={pki / 'ca.crt'}",
        "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
        f"--service-account-key-file={pki / 'admin.key'}", f"--service-account-signing-key-file={pki / 'admin.key'}",
        f"--service-cluster-ip-range={SERVICE_CIDR}", "--endpoint-reconciler-type=none", "--allow-privileged=true",
        "--authorization-mode=Node,RBAC", "--disable-admission-plugins=ServiceAccount",
        "--enable-priority-and-fairness=false", f"--cert-dir={lab.dir / 'apiserver-certs'}",
        GANG_GATE, GANG_API, *apiserver_args])
    lab.wait_for("kube-apiserver /readyz", lambda: lab.get(f"https://{LOOPBACK}:{p['apiserver']}/readyz") == "ok",
                 proc=api)
    _write_kubeconfig(lab)
    if real:
        node_start.start_node(lab, real)  # kubelet, kube-proxy, CoreDNS: they register while the rest starts
    # controller-manager and scheduler --------------------------------------------------------
    common = [f"--kubeconfig={lab.kubeconfig}", f"--bind-address={LOOPBACK}", "--leader-elect=false",
              "--authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics",
              f"--authentication-kubeconfig={lab.kubeconfig}", f"--authorization-kubeconfig={lab.kubeconfig}"]
    kcm = lab.start("kube-controller-manager", common + [
        f"--secure-port={p['kcm']}", f"--root-ca-file={pki / 'ca.crt'}",
        f"--service-account-private-key-file={pki / 'admin.key'}", "--use-service-account-credentials=false",
        "--controllers=*", "--node-monitor-grace-period=3m20s", f"--cert-dir={lab.dir / 'kcm-certs'}",
        GANG_GATE, *kcm_args])
    sched = lab.start("kube-scheduler", common + [f"--secure-port={p['scheduler']}",
                                                  f"--cert-dir={lab.dir / 'scheduler-certs'}",
                                                  GANG_GATE, *scheduler_args])
    lab.wait_for("kube-controller-manager /healthz",
                 lambda: lab.get(f"https://{LOOPBACK}:{p['kcm']}/healthz", insecure=True) == "ok", proc=kcm)
    lab.wait_for("kube-scheduler /healthz",
                 lambda: lab.get(f"https://{LOOPBACK}:{p['scheduler']}/healthz", insecure=True) == "ok", proc=sched)
    # kwok ------------------------------------------------------------------------------------
    kwok_cfg = _kwok_config(lab)
    kwok = lab.start("kwok", [
        f"--kubeconfig={lab.kubeconfig}", f"--config={kwok_cfg}",
        "--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake",  # never the real node
        f"--cidr={POD_CIDR}", f"--node-ip={LOOPBACK}", "--node-lease-duration-seconds=40",
        f"--server-address={LOOPBACK}:{p['kwok']}"], env={"HOME": str(lab.dir)})  # no stray ~/.kwok
    lab.wait_for("kwok /healthz", lambda: lab.get(f"http://{LOOPBACK}:{p['kwok']}/healthz", tls=False).strip() == "ok",
                 proc=kwok)
    # LWS: CRDs, then the manager, then its webhooks -----------------------------------------
    lws_mod = module_dir("sigs.k8s.io/lws", lab.versions["LWS_VERSION"])
    install_crds(lab)
    lab.wait_for("LWS CRD Established", lambda: lab.kubectl(
        "get", "crd", "leaderworkersets.leaderworkerset.x-k8s.io", "-o",
        "jsonpath={.status.conditions[?(@.type==\"Established\")].status}").stdout == "True", timeout=60)
    lws = lab.start("lws-manager", [f"--config={_lws_config(lab)}", f"--kubeconfig={lab.kubeconfig}",
                                    "--zap-log-level=info"])
    lab.wait_for("lws-manager /readyz",
                 lambda: lab.get(f"http://{LOOPBACK}:{p['lws-health']}/readyz", tls=False).strip() == "ok", proc=lws)
    lab.wait_for("lws webhook port", lambda: socket.create_connection((LOOPBACK, p["webhook"]), timeout=2).close() is None,
                 proc=lws)
    lab.kubectl("apply", "-f", "-", input=_webhooks(lab, lws_mod))
    # topology ------------------------------------------------------------------------------
    lab.kubectl("apply", "-f", "-", input=yaml.safe_dump_all(_topology(kwok_pods, real_node=bool(real))))
    if real:
        node_start.finish(lab, real)  # labels, GPUs, cluster DNS, images imported
    lab.wait_for("nodes Ready", lambda: lab.kubectl(
        "get", "nodes", "-o", "jsonpath={.items[*].status.conditions[?(@.type==\"Ready\")].status}"
    ).stdout.split() == ["True"] * (1 + len(KWOK_NODES)), timeout=90, proc=kwok)
    _wait_webhook_serving(lab)


def user_kubeconfig(lab: Lab, user: str, groups: tuple[str, ...] = ()) -> Path:
    """A kubeconfig that authenticates as `user` (no rights until RBAC grants some)."""
    from tests.e2e.labcluster.pki import make_user

    certs = make_user(lab.pki, user, groups)
    path = lab.dir / f"kubeconfig-{user}.yaml"
    _write_kubeconfig(lab, path, user, certs["crt"], certs["key"])
    return path


def install_crds(lab: Lab) -> None:
    """Applies every CRD the lws module ships (the manager watches all of them)."""
    lws_mod = module_dir("sigs.k8s.io/lws", lab.versions["LWS_VERSION"])
    for crd in sorted(glob.glob(str(lws_mod / "config/crd/bases/*.yaml"))):
        lab.kubectl("apply", "--server-side", "-f", crd)


def _write_kubeconfig(lab: Lab, path: Path | None = None, user: str = "lab-admin",
                      crt: Path | None = None, key: Path | None = None) -> None:
    cfg = {
        "apiVersion": "v1", "kind": "Config", "current-context": "lab",
        "clusters": [{"name": "lab", "cluster": {"server": f"https://{LOOPBACK}:{lab.ports['apiserver']}",
                                                 "certificate-authority": str(lab.pki / "ca.crt")}}],
        "users": [{"name": user, "user": {"client-certificate": str(crt or lab.pki / "admin.crt"),
                                           "client-key": str(key or lab.pki / "admin.key")}}],
        "contexts": [{"name": "lab", "context": {"cluster": "lab", "user": user}}],
    }
    (path or lab.kubeconfig).write_text(yaml.safe_dump(cfg))


def _kwok_config(lab: Lab) -> Path:
    """kwok v0.8 has no built-in stages: pass kwokctl's defaults from the kwok module."""
    kwok_mod = module_dir("sigs.k8s.io/kwok", lab.versions["KWOK_VERSION"])
    stages = [kwok_mod / "kustomize/stage/node/fast/node-initialize.yaml",
              kwok_mod / "kustomize/stage/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml",
              *(kwok_mod / f"kustomize/stage/pod/fast/{n}.yaml" for n in ("pod-ready", "pod-complete", "pod-delete"))]
    out = lab.dir / "kwok.yaml"
    out.write_text("\n---\n".join(s.read_text() for s in stages))
    return out


def _lws_config(lab: Lab) -> Path:
    certs = lab.dir / "lws-certs"
    certs.mkdir(exist_ok=True)
    shutil.copy(lab.pki / "admin.crt", certs / "tls.crt")
    shutil.copy(lab.pki / "admin.key", certs / "tls.key")
    cfg = {
        "apiVersion": "config.lws.x-k8s.io/v1alpha1", "kind": "Configuration",
        "leaderElection": {"leaderElect": False},
        "internalCertManagement": {"enable": False},
        "webhook": {"host": LOOPBACK, "port": lab.ports["webhook"], "certDir": str(certs)},
        "metrics": {"bindAddress": "0"},
        "health": {"healthProbeBindAddress": f"{LOOPBACK}:{lab.ports['lws-health']}"},
    }
    out = lab.dir / "lws-config.yaml"
    out.write_text(yaml.safe_dump(cfg))
    return out


def _webhooks(lab: Lab, lws_mod: Path) -> str:
    """LWS's own webhook manifests, pointed at the manager on loopback by URL with our CA.
    The objectSelectors come from the module's kustomize patches, matched by webhook name."""
    hook_dir = lws_mod / "config/webhook"
    docs = [d for d in yaml.safe_load_all((hook_dir / "manifests.yaml").read_text()) if d]
    selectors = {}
    for patch in ("mutating-patch.yaml", "validating-patch.yaml"):
        for op in yaml.safe_load((hook_dir / patch).read_text()) or []:
            value = op.get("value") or {}
            if value.get("objectSelector"):
                selectors[value["name"]] = value["objectSelector"]
    ca = base64.b64encode((lab.pki / "ca.crt").read_bytes()).decode()
    for doc in docs:
        doc["metadata"]["name"] = "lws-" + doc["metadata"]["name"]
        for hook in doc["webhooks"]:
            path = hook["clientConfig"]["service"]["path"]
            hook["clientConfig"] = {"url": f"https://{LOOPBACK}:{lab.ports['webhook']}{path}", "caBundle": ca}
            if hook["name"] in selectors:
                hook["objectSelector"] = selectors[hook["name"]]
    return yaml.safe_dump_all(docs)


def _wait_webhook_serving(lab: Lab) -> None:
    """The apiserver must reach the webhook before tests create LWS objects: a server-side dry run
    of an LWS goes through the mutating and validating webhooks without creating anything."""
    probe = {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
             "metadata": {"name": "probe", "namespace": "default"},
             "spec": {"replicas": 1, "leaderWorkerTemplate": {"size": 1, "workerTemplate": {
                 "spec": {"containers": [{"name": "c", "image": "busybox"}]}}}}}
    lab.wait_for("lws webhooks", lambda: lab.kubectl("apply", "--dry-run=server", "-f", "-",
                                                     input=json.dumps(probe)).returncode == 0, timeout=60)


SERVER_LABELS = {"node-role.kubernetes.io/control-plane": "true"}


def node(name: str, labels: dict, taints: list, pods: int = 110) -> dict:
    res = {"cpu": "8", "memory": "32Gi", "pods": str(pods), GPU: "4"}
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "annotations": {"kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0"},
                     "labels": {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
                                "kubernetes.io/arch": "amd64", **labels}},
        # kwok hands out pod IPs from the node's podCIDR: one /24 each, as k3s gives its nodes. A
        # node a test makes for itself (not a lab node) takes kwok's own --cidr.
        "spec": {"taints": taints, **({"podCIDR": KWOK_POD_CIDRS[name], "podCIDRs": [KWOK_POD_CIDRS[name]]}
                                      if name in KWOK_POD_CIDRS else {})},
        "status": {"capacity": res, "allocatable": res},
    }


def _topology(kwok_pods: int = 110, real_node: bool = False) -> list[dict]:
    server = [] if real_node else [node(SERVER_NODE, SERVER_LABELS, [])]  # a real kubelet registers itself
    return [
        *server,
        *(node(n, {"type": "kwok"}, [KWOK_TAINT], kwok_pods) for n in KWOK_NODES),
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NAMESPACE}},
    ]


def compact_etcd(lab: Lab) -> int:
    """Compacts etcd at its current revision (its JSON gateway, on loopback); returns it."""
    base = f"http://{LOOPBACK}:{lab.ports['etcd']}/v3/kv"
    req = urllib.request.Request(f"{base}/range", data=b'{"key":"AA=="}', method="POST")
    with urllib.request.urlopen(req, timeout=5) as resp:
        rev = int(json.loads(resp.read())["header"]["revision"])
    req = urllib.request.Request(f"{base}/compaction", data=json.dumps({"revision": str(rev), "physical": True}).encode(),
                                 method="POST")
    urllib.request.urlopen(req, timeout=30).close()
    return rev


def etcd_delete(lab: Lab, key: str) -> int:
    """Deletes one key straight from etcd (its JSON gateway, on loopback), as a change made
    while no API server is there to tell watchers; returns how many keys went."""
    body = json.dumps({"key": base64.b64encode(key.encode()).decode()}).encode()
    req = urllib.request.Request(f"http://{LOOPBACK}:{lab.ports['etcd']}/v3/kv/deleterange", data=body, method="POST")
    with urllib.request.urlopen(req, timeout=5) as resp:
        return int(json.loads(resp.read()).get("deleted", 0))


def fail_container(lab: Lab, pod: str, namespace: str = NAMESPACE) -> None:
    """Makes a pod look like its container exited 1 and was restarted (the learner's
    `touch /tmp/fail`): restartCount+1, lastState.terminated.exitCode 1, still Running.
    Phase stays Running and Ready stays True, so no kwok stage matches and undoes it."""
    obj = json.loads(lab.kubectl("get", "pod", pod, "-n", namespace, "-o", "json").stdout)
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    statuses = []
    for cs in obj["status"].get("containerStatuses") or []:
        started = (cs.get("state", {}).get("running") or {}).get("startedAt", now)
        statuses.append({**cs, "restartCount": cs.get("restartCount", 0) + 1,
                         "lastState": {"terminated": {"exitCode": 1, "reason": "Error",
                                                      "startedAt": started, "finishedAt": now}},
                         "state": {"running": {"startedAt": now}}})
    lab.kubectl("patch", "pod", pod, "-n", namespace, "--subresource=status", "--type=merge",
                "-p", json.dumps({"status": {"containerStatuses": statuses}}))

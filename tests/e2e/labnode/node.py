"""The lab's real node `lab-server`: containerd + runc + CNI (bridge, host-local, loopback,
portmap), kubelet, kube-proxy and CoreDNS, all inside a network namespace the lab creates and
deletes itself.

Addresses (k3s's defaults, so learners see the same ones): pods 10.42.0.0/16 (this node
10.42.0.0/24; the KWOK nodes get 10.42.1.0/24 and 10.42.2.0/24), Services 10.43.0.0/16, cluster
DNS 10.43.0.10. The node's own address (NODE_IP) and the pod bridge exist only inside the lab
namespace, which has no link to the outside: the only ways in and out are the two relays of
netbridge.py (node -> API server on 127.0.0.1, API server -> kubelet through the API server's
egress selector over a unix socket).

What a kubelet of this version needs on these machines (cgroup v1, no systemd, several labs at
once): failCgroupV1: false; cgroupfs with a cgroup root of its own per lab; evictions and image
GC off (tiny images on tmpfs would look like disk pressure). containerd is v2, built from its
module: the kubelet takes the cgroup driver from the runtime's RuntimeConfig call, which
containerd 1.x (Debian bookworm ships 1.6) does not implement; kubelet 1.37 still falls back to
its own setting then, but counts it in `kubelet_cri_losing_support{version="1.38.0"}`.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import yaml

from tests.e2e.labnode.images import PAUSE_IMAGE, build_images
from tests.e2e.labnode.netbridge import inside

HERE = Path(__file__).resolve().parent
NODE_IP = "10.40.0.2"  # the node's InternalIP, on a veth inside the lab namespace
NODE_CIDR = "10.40.0.0/24"
POD_CIDR = "10.42.0.0/16"
NODE_POD_CIDR = "10.42.0.0/24"
SERVICE_CIDR = "10.43.0.0/16"
DNS_IP = "10.43.0.10"
CLUSTER_DOMAIN = "cluster.local"
CNI_BIN = "/usr/lib/cni"  # Debian's containernetworking-plugins
RUNC = "/usr/sbin/runc"  # Debian's runc
KUBELET_PORT = 10250  # inside the lab namespace, so fixed ports cannot clash between labs
CGROUP_V1 = Path("/sys/fs/cgroup")


class NodeError(RuntimeError):
    pass


def build() -> Path:
    """Installs the Debian packages (root only) and builds the node binaries (cached)."""
    res = subprocess.run(["bash", str(HERE / "install-deps.sh")], stdin=subprocess.DEVNULL)
    if res.returncode != 0:
        raise NodeError(f"install-deps.sh failed with exit code {res.returncode}")
    res = subprocess.run(["bash", str(HERE / "build.sh")], stdout=subprocess.PIPE, text=True,
                         stdin=subprocess.DEVNULL)
    if res.returncode != 0:
        raise NodeError(f"labnode/build.sh failed with exit code {res.returncode}")
    return Path(res.stdout.strip().splitlines()[-1])


def unavailable_reason() -> str | None:
    """Why this machine cannot run the real node, or None when it can."""
    if os.geteuid() != 0:
        return "not root (the node needs network namespaces, cgroups and mounts)"
    if not (CGROUP_V1 / "memory").is_dir() and not (CGROUP_V1 / "cgroup.controllers").exists():
        return "no cgroup hierarchy under /sys/fs/cgroup"
    if not shutil.which("ip") or not shutil.which("nsenter"):
        return "iproute2 (ip) or util-linux (nsenter) is missing"
    return None


def sh(*args: str, netns: str | None = None, check: bool = True, input: str | None = None,
       timeout: float = 60) -> subprocess.CompletedProcess:
    cmd = ["nsenter", f"--net={netns}", "--", *args] if netns else list(args)
    res = subprocess.run(cmd, capture_output=True, text=True, input=input, timeout=timeout)
    if check and res.returncode != 0:
        raise NodeError(f"{' '.join(cmd)}: {res.stderr.strip() or res.stdout.strip()}")
    return res


class Node:
    """Files, namespace and cgroups of one lab's node. The processes are the Lab's (started
    and stopped by PID like the control plane's); this class makes what they need and removes
    it after they stop."""

    def __init__(self, lab_dir: Path, bin_dir: Path, name: str):
        self.dir = lab_dir / "node"
        self.bin = bin_dir
        self.name = name
        self.netns_name = f"lwslab-{lab_dir.name.rsplit('-', 1)[-1]}"
        self.cgroup_root = f"/{self.netns_name}"

    @property
    def netns(self) -> str:
        return f"/run/netns/{self.netns_name}"

    @property
    def containerd_sock(self) -> Path:
        return self.dir / "containerd.sock"

    @property
    def egress_sock(self) -> Path:
        return self.dir / "egress.sock"

    def state(self) -> dict:
        return {"dir": str(self.dir), "bin": str(self.bin), "name": self.name, "netns": self.netns_name}

    @classmethod
    def from_state(cls, state: dict) -> "Node":
        node = cls(Path(state["dir"]).parent, Path(state["bin"]), state["name"])
        node.netns_name = state["netns"]
        node.cgroup_root = f"/{node.netns_name}"
        return node

    # --- set-up ------------------------------------------------------------------------------
    def create_netns(self) -> None:
        sh("ip", "netns", "add", self.netns_name)
        ns = self.netns
        sh("ip", "link", "set", "lo", "up", netns=ns)
        # A veth pair with both ends inside: the node's address and a default route that leads
        # nowhere outside (this kernel has no dummy interfaces).
        sh("ip", "link", "add", "lab0", "type", "veth", "peer", "name", "lab1", netns=ns)
        sh("ip", "addr", "add", f"{NODE_IP}/24", "dev", "lab0", netns=ns)
        sh("ip", "link", "set", "lab0", "up", netns=ns)
        sh("ip", "link", "set", "lab1", "up", netns=ns)
        sh("ip", "route", "add", "default", "dev", "lab0", netns=ns)
        sh("sysctl", "-qw", "net.ipv4.ip_forward=1", netns=ns)

    def create_cgroups(self) -> None:
        """The kubelet's cgroup root, one per lab, in every v1 hierarchy (or the v2 tree)."""
        for hierarchy in self._hierarchies():
            (hierarchy / self.cgroup_root.lstrip("/")).mkdir(exist_ok=True)

    def _hierarchies(self, with_unified: bool = False) -> list[Path]:
        """The v1 hierarchies (and, for clean-up, the v2 one beside them, where the kubelet's
        cgroup library also makes its directories)."""
        if not CGROUP_V1.is_dir():
            return []
        if (CGROUP_V1 / "cgroup.controllers").exists():  # a cgroup v2 machine: one tree
            return [CGROUP_V1]
        return [p for p in CGROUP_V1.iterdir()
                if p.is_dir() and not p.is_symlink() and (with_unified or p.name != "unified")]

    def write_configs(self, kubeconfig: Path, pki: Path, api_port: int) -> None:
        d = self.dir
        for sub in ("cni", "containerd", "kubelet", "pod-logs", "coredns"):
            (d / sub).mkdir(parents=True, exist_ok=True)
        (d / "cni/10-lab.conflist").write_text(json.dumps({
            "cniVersion": "1.0.0", "name": "lab",
            "plugins": [
                {"type": "bridge", "bridge": "cni0", "isGateway": True, "ipMasq": False, "hairpinMode": True,
                 # Its own IPAM store: host-local's default (/var/lib/cni) is shared and outlives the lab.
                 "ipam": {"type": "host-local", "dataDir": str(d / "cni-ipam"), "ranges": [[{"subnet": NODE_POD_CIDR}]],
                          "routes": [{"dst": "0.0.0.0/0"}]}},
                {"type": "portmap", "capabilities": {"portMappings": True}},
            ]}, indent=1))
        (d / "containerd.toml").write_text(f"""version = 3
root = "{d / 'containerd/root'}"
state = "{d / 'containerd/state'}"
disabled_plugins = ["io.containerd.snapshotter.v1.blockfile", "io.containerd.snapshotter.v1.erofs",
                    "io.containerd.nri.v1.nri"]
[grpc]
  address = "{self.containerd_sock}"
[ttrpc]
  address = "{d / 'containerd.ttrpc.sock'}"
[plugins."io.containerd.internal.v1.opt"]
  path = "{d / 'containerd/opt'}"
[plugins."io.containerd.grpc.v1.cri"]
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
[plugins."io.containerd.cri.v1.images"]
  snapshotter = "overlayfs"
  [plugins."io.containerd.cri.v1.images".pinned_images]
    sandbox = "{PAUSE_IMAGE}"
[plugins."io.containerd.cri.v1.runtime"]
  netns_mounts_under_state_dir = true
  # This machine's root lacks CAP_SYS_RESOURCE, so no process may lower its OOM score below
  # containerd's; without this the kubelet's -998 for pod sandboxes fails every pod start.
  restrict_oom_score_adj = true
  [plugins."io.containerd.cri.v1.runtime".cni]
    bin_dirs = ["{CNI_BIN}"]
    conf_dir = "{d / 'cni'}"
  [plugins."io.containerd.cri.v1.runtime".containerd]
    default_runtime_name = "runc"
    [plugins."io.containerd.cri.v1.runtime".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.cri.v1.runtime".containerd.runtimes.runc.options]
        BinaryName = "{RUNC}"
        Root = "{d / 'runc'}"
        SystemdCgroup = false
""")
        # Pods get cluster DNS and no search domain of the machine's.
        (d / "resolv.conf").write_text("")
        (d / "kubelet.yaml").write_text(yaml.safe_dump({
            "apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration",
            "failCgroupV1": False, "cgroupDriver": "cgroupfs", "cgroupRoot": self.cgroup_root,
            "containerRuntimeEndpoint": f"unix://{self.containerd_sock}",
            "address": "0.0.0.0", "port": KUBELET_PORT, "readOnlyPort": 0,
            "healthzBindAddress": "127.0.0.1", "healthzPort": 10248,
            "tlsCertFile": str(pki / "admin.crt"), "tlsPrivateKeyFile": str(pki / "admin.key"),
            "authentication": {"anonymous": {"enabled": False}, "webhook": {"enabled": False},
                               "x509": {"clientCAFile": str(pki / "ca.crt")}},
            "authorization": {"mode": "AlwaysAllow"},
            "clusterDNS": [DNS_IP], "clusterDomain": CLUSTER_DOMAIN, "resolvConf": str(d / "resolv.conf"),
            "podCIDR": NODE_POD_CIDR, "podLogsDir": str(d / "pod-logs"),
            "failSwapOn": False, "imageGCHighThresholdPercent": 100, "imageGCLowThresholdPercent": 99,
            "evictionHard": {"memory.available": "1Mi", "nodefs.available": "0%", "nodefs.inodesFree": "0%",
                             "imagefs.available": "0%", "imagefs.inodesFree": "0%"},
            "serializeImagePulls": False, "nodeStatusReportFrequency": "10s",
            "staticPodPath": "", "enableServer": True,
        }))
        (d / "kube-proxy.yaml").write_text(yaml.safe_dump({
            "apiVersion": "kubeproxy.config.k8s.io/v1alpha1", "kind": "KubeProxyConfiguration",
            "clientConnection": {"kubeconfig": str(kubeconfig)}, "mode": "iptables",
            "clusterCIDR": POD_CIDR, "hostnameOverride": self.name,
            "healthzBindAddress": "127.0.0.1:10256", "metricsBindAddress": "127.0.0.1:10249",
            # 0 = leave the machine-wide conntrack sysctls alone.
            "conntrack": {"maxPerCore": 0, "min": 0, "tcpEstablishedTimeout": "0s", "tcpCloseWaitTimeout": "0s"},
        }))
        (d / "coredns/Corefile").write_text(f""".:53 {{
    errors
    health 127.0.0.1:8080
    ready 127.0.0.1:8181
    kubernetes {CLUSTER_DOMAIN} in-addr.arpa ip6.arpa {{
        kubeconfig {kubeconfig} lab
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
        ttl 30
    }}
    # k3s forwards other names to the machine's resolver, where a made-up name such as
    # llm-1.llm.infer is NXDOMAIN; nothing may leave the lab, so this answers that here.
    template ANY ANY . {{
        rcode NXDOMAIN
    }}
    cache 30
    loadbalance
}}
""")

    def egress_config(self) -> str:
        """The API server's egress selector: traffic to the cluster (kubelets) goes through
        netbridge's unix socket, which dials inside the lab namespace."""
        return yaml.safe_dump({
            "apiVersion": "apiserver.k8s.io/v1beta1", "kind": "EgressSelectorConfiguration",
            "egressSelections": [{"name": "cluster", "connection": {
                "proxyProtocol": "HTTPConnect", "transport": {"uds": {"udsName": str(self.egress_sock)}}}}]})

    def import_images(self) -> float:
        """Imports the busybox and pause archives into containerd; returns the seconds it took."""
        start = time.monotonic()
        for archive in build_images(self.bin, self.bin.parent / "images"):
            sh(str(self.bin / "ctr"), "--address", str(self.containerd_sock), "-n", "k8s.io", "images", "import",
               str(archive), timeout=120)
        return time.monotonic() - start

    # --- probes inside the namespace -----------------------------------------------------------
    def http_get(self, port: int, path: str, host: str = "127.0.0.1") -> str:
        """A plain HTTP GET made from inside the lab namespace (health endpoints bound there)."""
        netns_fd = os.open(self.netns, os.O_RDONLY)
        home_fd = os.open("/proc/self/ns/net", os.O_RDONLY)
        try:
            with inside(netns_fd, home_fd):
                s = socket.socket()
        finally:
            os.close(netns_fd)
            os.close(home_fd)
        with s:
            s.settimeout(5)
            s.connect((host, port))
            s.sendall(f"GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n".encode())
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        head, _, body = data.decode(errors="replace").partition("\r\n\r\n")
        if " 200 " not in head.split("\r\n", 1)[0]:
            raise NodeError(f"GET {path}: {head.splitlines()[0] if head else 'no answer'}")
        return body

    # --- tear-down -----------------------------------------------------------------------------
    def kill_containers(self) -> None:
        """Kills and deletes every container task (pods and sandboxes), so containerd's shims
        exit with them. Runs while containerd is still up, after the kubelet has stopped."""
        if not self.containerd_sock.exists():
            return
        ctr = [str(self.bin / "ctr"), "--address", str(self.containerd_sock), "-n", "k8s.io"]
        res = sh(*ctr, "tasks", "ls", "-q", check=False, timeout=30)
        for task in res.stdout.split():
            sh(*ctr, "tasks", "rm", "-f", task, check=False, timeout=30)

    def cleanup(self) -> None:
        """After every node process has stopped: unmount what containerd and the kubelet
        mounted under the node dir, delete the namespace and the cgroup root."""
        mounts = []
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            point = line.split()[4].replace("\\040", " ")
            if point.startswith(str(self.dir) + "/"):
                mounts.append(point)
        for point in sorted(mounts, key=len, reverse=True):
            subprocess.run(["umount", "-l", point], capture_output=True)
        subprocess.run(["ip", "netns", "delete", self.netns_name], capture_output=True)
        for hierarchy in self._hierarchies(with_unified=True):
            root = hierarchy / self.cgroup_root.lstrip("/")
            if root.is_dir():
                for sub in sorted((p for p in root.rglob("*") if p.is_dir()), key=lambda p: len(p.parts),
                                  reverse=True):
                    try:
                        sub.rmdir()
                    except OSError:
                        pass
                try:
                    root.rmdir()
                except OSError:
                    pass


def kube_dns() -> list[dict]:
    """The kube-dns Service at 10.43.0.10 (as in k3s) and its endpoint: CoreDNS on the node's
    address, inside the lab namespace; kube-proxy sends the ClusterIP there."""
    ports = [{"name": "dns", "port": 53, "protocol": "UDP"}, {"name": "dns-tcp", "port": 53, "protocol": "TCP"}]
    return [
        {"apiVersion": "v1", "kind": "Service",
         "metadata": {"name": "kube-dns", "namespace": "kube-system", "labels": {"k8s-app": "kube-dns"}},
         "spec": {"clusterIP": DNS_IP, "ports": [{**p, "targetPort": 53} for p in ports]}},
        {"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
         "metadata": {"name": "kube-dns-node", "namespace": "kube-system",
                      "labels": {"kubernetes.io/service-name": "kube-dns",
                                 "endpointslice.kubernetes.io/managed-by": "lwstutor-lab"}},
         "addressType": "IPv4", "ports": ports,
         "endpoints": [{"addresses": [NODE_IP], "conditions": {"ready": True}}]},
    ]

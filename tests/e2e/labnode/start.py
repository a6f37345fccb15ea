"""Starting the real node `lab-server` as part of a Lab (tests/e2e/labcluster/lab.py calls these
in order), so the slow parts run beside the control plane's start:

1. begin: the namespace, the relay, containerd and the image import (before the API server);
2. apiserver_args: the API server's egress selector and its client certificate for kubelets;
3. start_node: kubelet, kube-proxy and CoreDNS (once the API server answers);
4. finish: labels and GPUs on the registered node, the kube-dns Service, images imported,
   CoreDNS ready.

Every process is started by the Lab and stopped by its recorded PID; Lab.stop() then removes the
namespace, mounts and cgroups through Node.cleanup().
"""

from __future__ import annotations

import json
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from tests.e2e.labnode.node import NODE_IP, Node, kube_dns

REPO = Path(__file__).resolve().parents[3]
GPUS = "4"


@dataclass
class Starting:
    node: Node
    imported: dict = field(default_factory=dict)  # "seconds" or "error", set by the import thread
    thread: threading.Thread | None = None


def begin(lab, node_bin: Path) -> Starting:
    from tests.e2e.labcluster.lab import SERVER_NODE

    node = Node(lab.dir, node_bin, SERVER_NODE)
    lab.node = node.state()  # recorded first, so a failed start still cleans up
    lab.save()
    node.create_netns()
    node.create_cgroups()
    node.write_configs(lab.kubeconfig, lab.pki, lab.ports["apiserver"])
    bridge = lab.start("netbridge", ["-m", "tests.e2e.labnode.netbridge", "--netns", node.netns,
                                     "--api-port", str(lab.ports["apiserver"]), "--egress-uds", str(node.egress_sock)],
                       env={"PYTHONPATH": str(REPO)}, exe=sys.executable)
    containerd = lab.start("containerd", ["--config", str(node.dir / "containerd.toml")],
                           env={"PATH": f"{node_bin}:/usr/sbin:/usr/bin:/sbin:/bin"},
                           exe=str(node_bin / "containerd"), netns=node.netns)
    lab.wait_for("netbridge", lambda: node.egress_sock.exists(), timeout=30, proc=bridge)
    lab.wait_for("containerd socket", lambda: node.containerd_sock.exists(), timeout=60, proc=containerd)
    starting = Starting(node)

    def import_images() -> None:
        try:
            starting.imported["seconds"] = node.import_images()
        except Exception as exc:  # noqa: BLE001 - reported by finish()
            starting.imported["error"] = f"{type(exc).__name__}: {exc}"

    starting.thread = threading.Thread(target=import_images, daemon=True)
    starting.thread.start()
    return starting


def apiserver_args(lab, starting: Starting) -> list[str]:
    egress = lab.dir / "egress-selector.yaml"
    egress.write_text(starting.node.egress_config())
    # InternalIP: the node's address inside the lab namespace, which netbridge dials there (the
    # default tries the Hostname first, and nothing resolves "lab-server").
    return [f"--egress-selector-config-file={egress}", "--kubelet-preferred-address-types=InternalIP",
            f"--kubelet-client-certificate={lab.pki / 'admin.crt'}", f"--kubelet-client-key={lab.pki / 'admin.key'}"]


def start_node(lab, starting: Starting) -> None:
    node = starting.node
    lab.start("kubelet", [f"--config={node.dir / 'kubelet.yaml'}", f"--kubeconfig={lab.kubeconfig}",
                          f"--root-dir={node.dir / 'kubelet'}", f"--cert-dir={node.dir / 'kubelet-pki'}",
                          f"--hostname-override={node.name}", f"--node-ip={NODE_IP}"],
              exe=str(node.bin / "kubelet"), netns=node.netns,
              env={"PATH": f"{node.bin}:/usr/sbin:/usr/bin:/sbin:/bin"})
    lab.start("kube-proxy", [f"--config={node.dir / 'kube-proxy.yaml'}"],
              exe=str(node.bin / "kube-proxy"), netns=node.netns)
    lab.start("coredns", ["-conf", str(node.dir / "coredns/Corefile")],
              exe=str(node.bin / "coredns"), netns=node.netns)


def finish(lab, starting: Starting) -> None:
    from tests.e2e.labcluster.lab import GPU, SERVER_LABELS, LabError

    node = starting.node
    kubelet = next(p for p in lab.procs if p.name == "kubelet")
    lab.wait_for(f"{node.name} registered", lambda: lab.kubectl("get", "node", node.name, check=False).returncode == 0,
                 timeout=90, proc=kubelet)
    lab.kubectl("label", "node", node.name, "--overwrite", *(f"{k}={v}" for k, v in SERVER_LABELS.items()))
    # How k3s labs advertise GPUs without a device plugin: the extended resource on the node's
    # status; the kubelet keeps it and copies it into allocatable.
    gpu_path = "/status/capacity/" + GPU.replace("/", "~1")
    lab.kubectl("patch", "node", node.name, "--subresource=status", "--type=json",
                "-p", json.dumps([{"op": "add", "path": gpu_path, "value": GPUS}]))
    lab.kubectl("apply", "-f", "-", input=yaml.safe_dump_all(kube_dns()))
    starting.thread.join(timeout=180)
    if "error" in starting.imported or "seconds" not in starting.imported:
        raise LabError(f"image import failed: {starting.imported.get('error', 'timed out')}")
    lab.timings["image_import"] = starting.imported["seconds"]
    coredns = next(p for p in lab.procs if p.name == "coredns")
    lab.wait_for("CoreDNS /ready", lambda: node.http_get(8181, "/ready").strip() == "OK", timeout=60, proc=coredns)
    lab.wait_for(f"{GPU} allocatable on {node.name}", lambda: json.loads(lab.kubectl(
        "get", "node", node.name, "-o", "json").stdout)["status"].get("allocatable", {}).get(GPU) == GPUS,
        timeout=60, proc=kubelet)

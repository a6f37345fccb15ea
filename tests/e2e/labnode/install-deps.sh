#!/usr/bin/env bash
# Installs the Debian packages the lab's real node needs (runs as root; a no-op once installed):
# runc (the OCI runtime containerd calls), the CNI plugins (bridge, host-local, loopback, portmap),
# busybox-static (the busybox image is built from its binary), iptables (kube-proxy's rules),
# iproute2 (the lab's network namespace) and socat (kubectl port-forward inside the node).
set -euo pipefail
pkgs=(runc containernetworking-plugins busybox-static iptables iproute2 socat conntrack)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "install-deps.sh: not root; install these Debian packages: ${missing[*]}" >&2
  exit 3
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps.sh: installed ${missing[*]}" >&2

#!/usr/bin/env bash
# Builds the binaries of the lab's real node into a cache outside the repo, keyed by their
# versions, beside (never inside) the control plane's cache:
#   kubelet, kube-proxy  from k8s.io/kubernetes, in kube/ (the control plane's go.mod plus
#                        these two tools, so every shared package has the same version and
#                        Go's build cache reuses what the control plane build compiled);
#   containerd, containerd-shim-runc-v2, ctr  from github.com/containerd/containerd/v2;
#   coredns              our main with only the plugins the lab uses (coredns/);
#   pause                the pod sandbox's first process (pause/).
# A second run finds the stamp and does nothing. Prints the bin directory on stdout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../labcluster/versions.env"
source "$here/versions.env"
export GOTOOLCHAIN=${GOTOOLCHAIN:-local} CGO_ENABLED=0
key="k8s-$K8S_VERSION.containerd-$CONTAINERD_VERSION.coredns-$COREDNS_VERSION"
bin="${LABNODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lwstutor-labnode}/$key/bin"
stamp="$bin/.complete"
sums=$(cat "$here/go.sum" "$here/kube/go.sum" "$here"/coredns/*.go "$here"/pause/*.go | sha256sum | cut -c1-16)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key $sums" ]; then
  echo "$bin"; exit 0
fi
command -v go >/dev/null || { echo "labnode/build.sh: go is not installed" >&2; exit 3; }
mkdir -p "$bin"
source "$here/../labcluster/k8s-ldflags.sh"
ld=$k8s_ldflags
start=$(date +%s)
echo "labnode/build.sh: building $key" >&2
(cd "$here/kube" && go build -trimpath -ldflags "$ld" -o "$bin/" \
  k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy)
echo "labnode/build.sh: kubelet, kube-proxy in $(( $(date +%s) - start ))s" >&2
t=$(date +%s)
cld="-s -w -X 'github.com/containerd/containerd/v2/version.Version=$CONTAINERD_VERSION'"
# The lab uses the overlayfs snapshotter; btrfs needs cgo, devmapper and zfs are not used.
(cd "$here" && go build -trimpath -tags "no_btrfs no_devmapper no_zfs no_tracing" -ldflags "$cld" -o "$bin/" tool ./coredns ./pause)
echo "labnode/build.sh: containerd, coredns, pause in $(( $(date +%s) - t ))s" >&2
for b in kubelet kube-proxy containerd containerd-shim-runc-v2 ctr coredns pause; do
  [ -x "$bin/$b" ] || { echo "labnode/build.sh: $b missing after build" >&2; exit 1; }
done
echo "$key $sums" > "$stamp"
echo "labnode/build.sh: built in $(( $(date +%s) - start ))s" >&2
echo "$bin"

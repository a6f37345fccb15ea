#!/usr/bin/env bash
# Builds every lab binary (etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kubectl,
# kwok, lws-manager) with one `go build tool` into a cache outside the repo, keyed by the versions.
# A second run finds the stamp and does nothing. Prints the bin directory on stdout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/versions.env"
export GOTOOLCHAIN=${GOTOOLCHAIN:-local} CGO_ENABLED=0
key="k8s-$K8S_VERSION.etcd-$ETCD_VERSION.kwok-$KWOK_VERSION.lws-$LWS_VERSION"
bin="${LABCLUSTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lwstutor-labcluster}/$key/bin"
stamp="$bin/.complete"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key $(sha256sum "$here/go.sum" | cut -c1-16)" ]; then
  echo "$bin"; exit 0
fi
command -v go >/dev/null || { echo "build.sh: go is not installed" >&2; exit 3; }
mkdir -p "$bin"
source "$here/k8s-ldflags.sh"
ld=$k8s_ldflags
ld+=" -X 'sigs.k8s.io/lws/pkg/version.GitVersion=$LWS_VERSION' -X 'sigs.k8s.io/lws/pkg/version.BuildDate=$stamp_date'"
# etcd and kwok carry their release version as a source constant already.
start=$(date +%s)
echo "build.sh: building $key (a cold build takes a long time on 2 cores)" >&2
(cd "$here" && go build -trimpath -ldflags "$ld" -o "$bin/" tool)
# Go names a binary after its package path; give the two odd ones their usual names.
mv -f "$bin/v3" "$bin/etcd" 2>/dev/null || mv -f "$bin/server" "$bin/etcd"
mv -f "$bin/cmd" "$bin/lws-manager"
for b in etcd kube-apiserver kube-controller-manager kube-scheduler kubectl kwok lws-manager; do
  [ -x "$bin/$b" ] || { echo "build.sh: $b missing after build" >&2; exit 1; }
done
echo "$key $(sha256sum "$here/go.sum" | cut -c1-16)" > "$stamp"
echo "build.sh: built in $(( $(date +%s) - start ))s" >&2
echo "$bin"

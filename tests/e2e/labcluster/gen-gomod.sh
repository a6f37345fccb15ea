#!/usr/bin/env bash
# Regenerates go.mod/go.sum of the lab tools module from versions.env.
# k8s.io/kubernetes requires its staging modules at v0.0.0 with relative replaces that Go
# ignores in a dependency, so the replace block is derived from the go.mod the module proxy
# serves for that exact version (never kept by hand). Staging v0.M.P pairs with v1.M.P.
set -euo pipefail
cd "$(dirname "$0")"
export GOTOOLCHAIN=${GOTOOLCHAIN:-local} GOFLAGS=-mod=mod
source ./versions.env
staging=v0.${K8S_VERSION#v1.}
upstream=$(go mod download -json "k8s.io/kubernetes@$K8S_VERSION" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["GoMod"])')

rm -f go.mod go.sum
go mod init lwstutor.dev/labcluster >/dev/null 2>&1
go mod edit -go="$(sed -n 's/^go //p' "$upstream")"
godebug=$(sed -n 's/^godebug //p' "$upstream")
[ -n "$godebug" ] && go mod edit -godebug="$godebug"
sed -n 's|^[[:space:]]*\(k8s.io/[^ ]*\) => ./staging/.*|\1|p' "$upstream" | while read -r m; do
  go mod edit -replace="$m=$m@$staging"
done
go mod edit -require="k8s.io/kubernetes@$K8S_VERSION" -require="go.etcd.io/etcd/server/v3@$ETCD_VERSION" \
  -require="sigs.k8s.io/kwok@$KWOK_VERSION" -require="sigs.k8s.io/lws@$LWS_VERSION"
# Tools: one `go build tool` builds every main of this graph.
go get -tool k8s.io/kubernetes/cmd/kube-apiserver@"$K8S_VERSION" \
  k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler \
  k8s.io/kubernetes/cmd/kubectl go.etcd.io/etcd/server/v3@"$ETCD_VERSION" \
  sigs.k8s.io/kwok/cmd/kwok@"$KWOK_VERSION" sigs.k8s.io/lws/cmd@"$LWS_VERSION"
go mod tidy
echo "go.mod regenerated: kubernetes $K8S_VERSION etcd $ETCD_VERSION kwok $KWOK_VERSION lws $LWS_VERSION" >&2

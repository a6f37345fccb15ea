# Sourced by the build scripts: the ldflags that stamp a binary from k8s.io/kubernetes with its
# release (as upstream's hack/lib/version.sh does), so versions and skew messages read right.
# Needs K8S_VERSION; sets k8s_ldflags and stamp_date.
stamp_date=2026-01-01T00:00:00Z
_minor=${K8S_VERSION#v1.}; _minor=${_minor%%.*}
k8s_ldflags="-s -w"
for _pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  k8s_ldflags+=" -X '$_pkg.gitVersion=$K8S_VERSION' -X '$_pkg.gitMajor=1' -X '$_pkg.gitMinor=$_minor'"
  k8s_ldflags+=" -X '$_pkg.gitTreeState=clean' -X '$_pkg.buildDate=$stamp_date'"
done

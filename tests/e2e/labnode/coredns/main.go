// The lab's cluster DNS: CoreDNS with only the plugins the lab's Corefile uses, so the build
// skips the cloud-provider plugins of the stock binary. Plugin order is the chain order.
package main

import (
	"github.com/coredns/coredns/core/dnsserver"
	"github.com/coredns/coredns/coremain"

	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/health"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/loadbalance"
	_ "github.com/coredns/coredns/plugin/log"
	_ "github.com/coredns/coredns/plugin/ready"
	_ "github.com/coredns/coredns/plugin/template"
)

func init() {
	// template last: it answers only what kubernetes (cluster.local) passed on.
	dnsserver.Directives = []string{"errors", "log", "health", "ready", "cache", "loadbalance", "kubernetes", "template"}
}

func main() { coremain.Run() }

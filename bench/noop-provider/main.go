// Command pulumi-resource-noop is a resource provider that does nothing but keep what it is
// given: the floor against which a real provider's plugin is measured (its download, its
// binary, its time to the port, its memory), built from Pulumi's own Go SDK as a Go provider
// is. `npm run bench:plugin` builds it (bench/noopProvider.ts) and starts it beside ours.
//
// It serves one resource type, noop:index:Thing (see thing.go), whose Create makes an id and
// echoes the inputs as outputs; no call leaves the process. To grow it (more types, a
// larger state for a large-stack bench), add a type to the schema and to the table in
// thing.go. Thing's outputs are shaped like a clouddb Service's as the native plugin records
// them (19, two secret, the same nesting): the floor of `npm run bench:scale` (bench/scale.ts)
// compares like with like.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/cmdutil"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/provider"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// version is the plugin's version (set with -ldflags "-X main.version=...").
var version = "0.0.1"

func main() {
	err := provider.Main("noop", func(host *provider.HostClient) (pulumirpc.ResourceProviderServer, error) {
		return newServer(host, version), nil
	})
	if err != nil {
		cmdutil.ExitError(err.Error())
	}
}

// Command terraform-provider-service serves the Terraform provider for the
// integration service over plugin protocol 6.
package main

import (
	"flag"
	"log"
	"os"
	rtdebug "runtime/debug"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/integration-service/terraform-provider-service/internal/provider"
	"github.com/integration-service/terraform-provider-service/internal/provider/logging"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	logging.QuietUnlessRequested()
	// A provider process lives for one Terraform command and keeps a small
	// heap (tens of MB): collecting less often cuts its CPU by a fifth
	// (PERFORMANCE.md); a soft limit keeps a very large
	// configuration's process from growing past 512 MiB for it. GOGC and
	// GOMEMLIMIT, when set, still decide.
	if os.Getenv("GOGC") == "" {
		rtdebug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		rtdebug.SetMemoryLimit(512 << 20)
	}

	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	newServer := provider.NewServer(version)
	err := tf6server.Serve(provider.RegistryAddress, func() tfprotov6.ProviderServer {
		s, _ := newServer() // never fails
		return s
	}, opts...)
	if err != nil {
		log.Fatal(err.Error())
	}
}

// Command service-parity compares the answers of the real service with the
// emulator's, read-only: `make parity` (CONTRIBUTING.md, "Parity with the
// service"). The check itself is internal/parity.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/integration-service/terraform-provider-service/internal/parity"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := parity.Main(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

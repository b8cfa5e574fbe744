package sdkconformance

import (
	"fmt"
	"os"
	"testing"
)

// TestMain lets `make mutate` leave this package out: gremlins gathers coverage over
// ./internal/emulator/..., which includes this folder, and takes that run's duration
// (times a coefficient) as every mutant's timeout. These tests exercise the emulator
// binary through node, cover none of the mutated files' statements in the coverage
// profile (each package's profile counts only its own code) and would only make the
// coverage run minutes longer. SERVICE_MUTATION_RUN is set by the GNUmakefile's
// mutate target and nowhere else.
func TestMain(m *testing.M) {
	if os.Getenv("SERVICE_MUTATION_RUN") != "" {
		fmt.Println("sdkconformance: skipped during a mutation run (SERVICE_MUTATION_RUN is set)")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

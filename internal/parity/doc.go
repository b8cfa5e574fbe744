// Package parity is the read-only check of the emulator against the real
// service (`make parity`, cmd/service-parity; CONTRIBUTING.md, "Parity with
// the service").
//
// It reads every operation the provider reads (plan.go; a test derives
// them from the code of internal/client and internal/provider and fails
// when one is missing) from the service and from an emulator it starts in
// this process and seeds with an object of every kind the provider manages
// (emulator.go, seed.go), then compares what the answers look like, never
// their values (shape.go, compare.go): member names and nesting, JSON
// types, which members are always there or null, enum values, page
// envelopes and sizes, the error envelopes of a missing object and of a
// bad key, the rate-limit headers. What the provider reads is what the
// client decodes: the json tags of its decode types (reads.go). The report
// (report.go) groups the differences by operation; a difference in what
// the provider reads fails the check, others are reported.
//
// Every request goes through a transport that refuses anything but GET
// (readonly.go); keys are set in headers only (side.go) and no value of an
// answer is printed or recorded (record.go writes the shapes a test of the
// suite checks the emulator against).
package parity

package main

import (
	"strings"
	"testing"
)

func TestDisallowedSkips(t *testing.T) {
	stream := strings.Join([]string{
		`{"Action":"run","Package":"p","Test":"TestA"}`,
		`{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}`,
		`{"Action":"output","Package":"p","Test":"TestA","Output":"    a_test.go:10: Terraform CLI version 1.11.4 is below minimum version 1.12.0: skipping test\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestA"}`,
		`{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:3: contract test skipped: node not found on PATH\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestB"}`,
		`{"Action":"output","Package":"p [tofu 1.12.6]","Test":"TestC/x","Output":"    c_test.go:3: tofu 1.12.6: has no resource identity (import blocks by identity need Terraform 1.12+)\n"}`,
		`{"Action":"skip","Package":"p [tofu 1.12.6]","Test":"TestC/x"}`,
		`{"Action":"skip","Package":"p [tofu 1.12.6]","Test":"TestC"}`,
		`{"Action":"output","Package":"p [terraform 1.11.4]","Test":"TestD","Output":"    d_test.go:3: terraform 1.11.4: actions need Terraform 1.14+: service_connected_account_revoke, terraform apply -invoke\n"}`,
		`{"Action":"skip","Package":"p [terraform 1.11.4]","Test":"TestD"}`,
		`{"Action":"output","Package":"p [tofu 1.12.6]","Test":"TestE","Output":"    e_test.go:3: OpenTofu has no actions (action_trigger destroy events need Terraform 1.16+: before_destroy)\n"}`,
		`{"Action":"skip","Package":"p [tofu 1.12.6]","Test":"TestE"}`,
		`{"Action":"output","Package":"p","Test":"TestF","Output":"    f_test.go:3: terraform 1.15.2: action_trigger destroy events need Terraform 1.16+: before_destroy\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestF"}`,
		`not json`,
	}, "\n")
	skips, err := read(strings.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	if len(skips) != 7 {
		t.Fatalf("read %d skips, want 7: %+v", len(skips), skips)
	}
	bad := disallowed(skips)
	if len(bad) != 1 || bad[0].test != "TestB" || !strings.Contains(bad[0].reason, "node not found") {
		t.Fatalf("disallowed: %+v, want only TestB (node missing)", bad)
	}
}

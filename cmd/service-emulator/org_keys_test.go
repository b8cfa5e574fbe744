package main

import (
	"maps"
	"testing"
)

func TestParseOrgKeys(t *testing.T) {
	keys, err := parseOrgKeys([]string{"acme=k1", "beta=k2", "acme=k3"})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"k1": "acme", "k2": "beta", "k3": "acme"}; !maps.Equal(keys, want) {
		t.Fatalf("keys %v, want %v", keys, want)
	}
	for _, bad := range []string{"k1", "=k1", "acme=", ""} {
		if _, err := parseOrgKeys([]string{bad}); err == nil {
			t.Errorf("--org-api-key %q accepted", bad)
		}
	}
	if keys, err := parseOrgKeys(nil); err != nil || len(keys) != 0 {
		t.Fatalf("no flag: %v %v", keys, err)
	}
}

package provider

import (
	"strings"
	"testing"
)

func TestImportIDProblem(t *testing.T) {
	t.Parallel()
	const uuid = "0b9f8e4a-3c2d-4e5f-8a7b-1c2d3e4f5a6b"
	for _, tc := range []struct {
		kind idKind
		id   string
		want string // "" = accepted, else a fragment of the message
	}{
		{connectedAccountIDKind, "ca_AbC123", ""},
		{connectedAccountIDKind, "ca_a-b_c", ""},
		{connectedAccountIDKind, "bogus", `Expected a connected account id such as ca_AbC123 (the service_connected_accounts data source lists them), got "bogus".`},
		{connectedAccountIDKind, "", "such as ca_AbC123"},
		{connectedAccountIDKind, "ca_", "such as ca_AbC123"},
		{connectedAccountIDKind, "ca_x/y", "such as ca_AbC123"},
		{connectedAccountIDKind, uuid, "such as ca_AbC123"},
		{connectedAccountIDKind, "ac_AbC123", "which is an auth config id: import it with service_auth_config."},
		{connectedAccountIDKind, "ti_AbC123", "which is a trigger instance id: import it with service_trigger_instance."},
		{connectedAccountIDKind, "trs_AbC123", `such as ca_AbC123 (the service_connected_accounts data source lists them), got "trs_AbC123".`},
		{authConfigIDKind, "ac_AbC123", ""},
		{authConfigIDKind, "ca_AbC123", "which is a connected account id: import it with service_connected_account."},
		{authConfigIDKind, "not-an-id", "Expected an auth config id such as ac_AbC123"},
		{triggerInstanceIDKind, "ti_AbC123", ""},
		{triggerInstanceIDKind, uuid, ""},
		{triggerInstanceIDKind, "ca_AbC123", "which is a connected account id"},
	} {
		got := importIDProblem(tc.kind, tc.id)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("importIDProblem(%s, %q) = %q, want %q", tc.kind.prefix, tc.id, got, tc.want)
		}
	}
}

package importid

import (
	"strings"
	"testing"
)

func TestImportIDProblem(t *testing.T) {
	t.Parallel()
	const uuid = "0b9f8e4a-3c2d-4e5f-8a7b-1c2d3e4f5a6b"
	for _, tc := range []struct {
		kind Kind
		id   string
		want string // "" = accepted, else a fragment of the message
	}{
		{ConnectedAccount, "ca_AbC123", ""},
		{ConnectedAccount, "ca_a-b_c", ""},
		{ConnectedAccount, "bogus", `Expected a connected account id such as ca_AbC123 (the service_connected_accounts data source lists them), got "bogus".`},
		{ConnectedAccount, "", "such as ca_AbC123"},
		{ConnectedAccount, "ca_", "such as ca_AbC123"},
		{ConnectedAccount, "ca_x/y", "such as ca_AbC123"},
		{ConnectedAccount, uuid, "such as ca_AbC123"},
		{ConnectedAccount, "ac_AbC123", "which is an auth config id: import it with service_auth_config."},
		{ConnectedAccount, "ti_AbC123", "which is a trigger instance id: import it with service_trigger_instance."},
		{ConnectedAccount, "trs_AbC123", `such as ca_AbC123 (the service_connected_accounts data source lists them), got "trs_AbC123".`},
		{AuthConfig, "ac_AbC123", ""},
		{AuthConfig, "ca_AbC123", "which is a connected account id: import it with service_connected_account."},
		{AuthConfig, "not-an-id", "Expected an auth config id such as ac_AbC123"},
		{TriggerInstance, "ti_AbC123", ""},
		{TriggerInstance, uuid, ""},
		{TriggerInstance, "ca_AbC123", "which is a connected account id"},
	} {
		got := Problem(tc.kind, tc.id)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("Problem(%s, %q) = %q, want %q", tc.kind.prefix, tc.id, got, tc.want)
		}
	}
}

package validators

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

func testToolkit() *client.Toolkit {
	return &client.Toolkit{
		Slug: "linear",
		AuthConfigDetails: []client.AuthConfigDetail{
			{Mode: "OAUTH2", Fields: client.AuthFields{
				AuthConfigCreation: client.FieldGroup{
					Required: []client.Field{{Name: "client_id"}, {Name: "client_secret"}},
					Optional: []client.Field{{Name: "scopes"}},
				},
			}},
			{Mode: "API_KEY", Fields: client.AuthFields{
				AuthConfigCreation:         client.FieldGroup{Optional: []client.Field{{Name: "base_url"}}},
				ConnectedAccountInitiation: client.FieldGroup{Required: []client.Field{{Name: "api_key"}}},
			}},
		},
	}
}

func TestCheckCredentialFields(t *testing.T) {
	t.Parallel()
	tk := testToolkit()
	attr := path.Root("credentials_wo")

	if d := CheckCredentialFields(tk, "OAUTH2", PurposeAuthConfigCreation, []string{"client_id", "client_secret"}, attr); d.HasError() {
		t.Fatalf("valid fields refused: %v", d)
	}
	d := CheckCredentialFields(tk, "oauth2", PurposeAuthConfigCreation, []string{"client_id", "token"}, attr)
	if len(d.Errors()) != 2 {
		t.Fatalf("want a missing and an unknown error, got %v", d)
	}
	for _, want := range []string{`"client_secret"`, `"token"`, "Allowed fields: client_id, client_secret, scopes", "credentials_wo", `toolkit "linear"`, "auth config creation"} {
		if !testutil.DiagsContain(d, want) {
			t.Errorf("diagnostics do not mention %s: %v", want, d)
		}
	}
	d = CheckCredentialFields(tk, "API_KEY", PurposeConnectedAccountInitiation, nil, attr)
	if !testutil.DiagsContain(d, `"api_key"`) || !testutil.DiagsContain(d, "connected account initiation") {
		t.Fatalf("want missing api_key: %v", d)
	}
	d = CheckCredentialFields(tk, "BASIC", PurposeConnectedAccountInitiation, nil, attr)
	if !testutil.DiagsContain(d, "Unsupported auth scheme") || !testutil.DiagsContain(d, "API_KEY, OAUTH2") {
		t.Fatalf("want unsupported scheme: %v", d)
	}
	if d := CheckCredentialFields(nil, "BASIC", PurposeAuthConfigCreation, nil, attr); d.HasError() {
		t.Fatalf("nil toolkit: %v", d)
	}
	if !HasRequiredCredentialFields(tk, "OAUTH2", PurposeAuthConfigCreation) || HasRequiredCredentialFields(tk, "API_KEY", PurposeAuthConfigCreation) {
		t.Fatal("HasRequiredCredentialFields")
	}
}

func TestMapKeys(t *testing.T) {
	t.Parallel()
	keys, known := MapKeys(types.MapValueMust(types.StringType, map[string]attr.Value{"b": types.StringValue("1"), "a": types.StringValue("2")}))
	if !known || len(keys) != 2 || keys[0] != "a" || keys[1] != "b" {
		t.Fatalf("got %v %v", keys, known)
	}
	if _, known := MapKeys(types.MapUnknown(types.StringType)); known {
		t.Fatal("unknown map reported as known")
	}
	if keys, known := MapKeys(types.MapNull(types.StringType)); !known || len(keys) != 0 {
		t.Fatal("null map")
	}
}

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
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

	if d := checkCredentialFields(tk, "OAUTH2", purposeAuthConfigCreation, []string{"client_id", "client_secret"}, attr); d.HasError() {
		t.Fatalf("valid fields refused: %v", d)
	}
	d := checkCredentialFields(tk, "oauth2", purposeAuthConfigCreation, []string{"client_id", "token"}, attr)
	if len(d.Errors()) != 2 {
		t.Fatalf("want a missing and an unknown error, got %v", d)
	}
	for _, want := range []string{`"client_secret"`, `"token"`, "Allowed fields: client_id, client_secret, scopes", "credentials_wo", `toolkit "linear"`, "auth config creation"} {
		if !diagsContain(d, want) {
			t.Errorf("diagnostics do not mention %s: %v", want, d)
		}
	}
	d = checkCredentialFields(tk, "API_KEY", purposeConnectedAccountInitiation, nil, attr)
	if !diagsContain(d, `"api_key"`) || !diagsContain(d, "connected account initiation") {
		t.Fatalf("want missing api_key: %v", d)
	}
	d = checkCredentialFields(tk, "BASIC", purposeConnectedAccountInitiation, nil, attr)
	if !diagsContain(d, "Unsupported auth scheme") || !diagsContain(d, "API_KEY, OAUTH2") {
		t.Fatalf("want unsupported scheme: %v", d)
	}
	if d := checkCredentialFields(nil, "BASIC", purposeAuthConfigCreation, nil, attr); d.HasError() {
		t.Fatalf("nil toolkit: %v", d)
	}
	if !hasRequiredCredentialFields(tk, "OAUTH2", purposeAuthConfigCreation) || hasRequiredCredentialFields(tk, "API_KEY", purposeAuthConfigCreation) {
		t.Fatal("hasRequiredCredentialFields")
	}
}

func TestMapKeys(t *testing.T) {
	t.Parallel()
	keys, known := mapKeys(stringMap(t, map[string]string{"b": "1", "a": "2"}))
	if !known || len(keys) != 2 || keys[0] != "a" || keys[1] != "b" {
		t.Fatalf("got %v %v", keys, known)
	}
	if _, known := mapKeys(types.MapUnknown(types.StringType)); known {
		t.Fatal("unknown map reported as known")
	}
	if keys, known := mapKeys(types.MapNull(types.StringType)); !known || len(keys) != 0 {
		t.Fatal("null map")
	}
}

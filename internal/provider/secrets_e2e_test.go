package provider

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
)

// TestAccE2E_credentialsWriteOnlyNeverPersisted proves that values given in
// credentials_wo reach the service but never the state file (attributes and
// every instance's private data), the saved plan (every entry of the plan
// zip, and `terraform show -json`), terraform's output or the TF_LOG=trace
// log (which includes the provider's own logs), neither as written nor
// encoded (base64, JSON, nested: private data is base64 of JSON of base64).
//
// It covers a custom OAUTH2 auth config (client_secret) and a custom API_KEY
// auth config with a connected account whose api_key is write-only.
// Not parallel: it runs terraform several times and is heavy for CI machines.
func TestAccE2E_credentialsWriteOnlyNeverPersisted(t *testing.T) {
	w := newE2EWorkspace(t)
	rnd := acctest.RandString(16)
	clientID := "e2e-client-" + rnd
	clientSecret := "e2e-oauth-secret-" + rnd + "-Zq9"
	apiKey := "e2e-api-key-" + rnd + "-Kx7"
	secrets := []string{clientSecret, apiKey}
	user := "e2e-user-" + rnd

	// Secrets come in through ephemeral variables (Terraform 1.10+), as they
	// should with write-only arguments: a literal in main.tf would be copied
	// into the saved plan's configuration snapshot, and a non-ephemeral
	// variable's value is saved in the plan.
	secretEnv := []string{"TF_VAR_client_secret=" + clientSecret, "TF_VAR_api_key=" + apiKey}
	w.WriteFile("main.tf", fmt.Sprintf(`
variable "client_secret" {
  type      = string
  sensitive = true
  ephemeral = true
}

variable "api_key" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "service_auth_config" "oauth" {
  toolkit     = "github"
  type        = "use_custom_auth"
  auth_scheme = "OAUTH2"
  name        = "e2e-oauth-%[1]s"
  credentials_wo = {
    client_id     = %[2]q
    client_secret = var.client_secret
  }
  credentials_wo_version = 1
}

resource "service_auth_config" "stripe" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = "e2e-stripe-%[1]s"
}

resource "service_connected_account" "stripe" {
  user_id        = %[3]q
  auth_config_id = service_auth_config.stripe.id
  credentials_wo = {
    api_key = var.api_key
  }
  credentials_wo_version = 1
}

output "oauth_id" {
  value = service_auth_config.oauth.id
}

output "account_id" {
  value = service_connected_account.stripe.id
}
`, rnd, clientID, user))
	t.Cleanup(func() { w.Run(secretEnv, "destroy", "-auto-approve", "-no-color") })

	planLog, applyLog := w.Path("plan-trace.log"), w.Path("apply-trace.log")
	plan := w.RunEnvOK(append([]string{"TF_LOG=trace", "TF_LOG_PATH=" + planLog}, secretEnv...), "plan", "-out=tfplan", "-no-color")
	apply := w.RunEnvOK(append([]string{"TF_LOG=trace", "TF_LOG_PATH=" + applyLog}, secretEnv...), "apply", "-no-color", "tfplan")
	show := w.RunOK("show", "-json", "tfplan")
	state := w.ReadFile("terraform.tfstate")

	// The secrets reached the service.
	var outputs map[string]struct {
		Value string `json:"value"`
	}
	if err := json.Unmarshal([]byte(w.RunOK("output", "-json").Stdout), &outputs); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c := testAccClient(t)
	ac, err := c.GetAuthConfig(ctx, outputs["oauth_id"].Value)
	if err != nil {
		t.Fatal(err)
	}
	if ac.Credentials["client_id"] != clientID || ac.Credentials["client_secret"] != "********" {
		t.Fatalf("the OAuth credentials did not reach the service: %v", ac.Credentials)
	}
	acct, err := c.GetConnectedAccount(ctx, outputs["account_id"].Value)
	if err != nil {
		t.Fatal(err)
	}
	// An API_KEY account is only ACTIVE when its api_key was sent.
	if acct.Status != "ACTIVE" {
		t.Fatalf("connected account status = %s, want ACTIVE (api_key sent)", acct.Status)
	}
	if !strings.Contains(string(state), clientID) && !strings.Contains(string(state), outputs["oauth_id"].Value) {
		t.Fatal("state file does not look like this run's state")
	}

	// The logs really are trace logs with the provider's output in them, so
	// that scanning them means something.
	for _, p := range []string{planLog, applyLog} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "[TRACE]") || !strings.Contains(string(b), "tf_rpc=ApplyResourceChange") && p == applyLog {
			t.Fatalf("%s is not a trace log of the apply (%d bytes)", p, len(b))
		}
	}

	haystacks := map[string][]byte{
		"terraform.tfstate":         state,
		"terraform show -json":      []byte(show.Stdout),
		"plan output":               []byte(plan.Stdout + plan.Stderr),
		"apply output":              []byte(apply.Stdout + apply.Stderr),
		"plan TF_LOG=trace output":  mustRead(t, planLog),
		"apply TF_LOG=trace output": mustRead(t, applyLog),
	}
	for name, b := range w.PlanEntries("tfplan") {
		haystacks["tfplan:"+name] = b
	}
	// Each instance's private data, decoded (terraform.tfstate keeps it as
	// base64; the scan below also decodes whatever is encoded inside).
	privates, instances := statePrivateData(t, state)
	if instances < 3 {
		t.Fatalf("the state has %d resource instances, want the 3 of the configuration", instances)
	}
	for addr, b := range privates {
		haystacks["terraform.tfstate private data of "+addr] = b
	}
	for where, b := range haystacks {
		for _, s := range findEncodedSecrets(b, secrets) {
			t.Errorf("the credentials_wo value %q appears in %s (as written or encoded)", s, where)
		}
	}
	// Sanity checks of the scan itself: a non-secret configured value is
	// found, and a secret in private data encoded as Terraform and the
	// framework encode it (base64 of JSON of base64) is found.
	if !strings.Contains(string(haystacks["tfplan:tfplan"]), "e2e-oauth-"+rnd) {
		t.Error("the plan entry does not contain the auth config name: the scan would not find anything")
	}
	value, _ := json.Marshal(map[string]string{"api_key": apiKey})
	private, _ := json.Marshal(map[string][]byte{"credentials": value})
	fake := fmt.Sprintf(`{"resources":[{"mode":"managed","type":"service_connected_account","name":"x","instances":[{"private":%q}]}]}`,
		base64.StdEncoding.EncodeToString(private))
	fakePrivates, _ := statePrivateData(t, []byte(fake))
	if found := findEncodedSecrets(fakePrivates["service_connected_account.x"], secrets); len(found) != 1 || found[0] != apiKey {
		t.Errorf("the scan does not find a secret in encoded private data (found %v)", found)
	}
	if strings.Contains(fake, apiKey) {
		t.Error("the encoded fake private data contains the secret as written: the sanity check proves nothing")
	}
}

// statePrivateData returns the private data of every resource instance of a
// state file that has some, base64-decoded, by instance address, and the
// number of resource instances.
func statePrivateData(t *testing.T, state []byte) (map[string][]byte, int) {
	t.Helper()
	var st struct {
		Resources []struct {
			Module    string `json:"module"`
			Mode      string `json:"mode"`
			Type      string `json:"type"`
			Name      string `json:"name"`
			Instances []struct {
				IndexKey any    `json:"index_key"`
				Private  string `json:"private"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(state, &st); err != nil {
		t.Fatalf("reading the state: %v", err)
	}
	out := map[string][]byte{}
	n := 0
	for _, r := range st.Resources {
		for _, in := range r.Instances {
			n++
			if in.Private == "" {
				continue
			}
			addr := r.Type + "." + r.Name
			if r.Mode == "data" {
				addr = "data." + addr
			}
			if r.Module != "" {
				addr = r.Module + "." + addr
			}
			if in.IndexKey != nil {
				addr += fmt.Sprintf("[%v]", in.IndexKey)
			}
			b, err := base64.StdEncoding.DecodeString(in.Private)
			if err != nil {
				t.Fatalf("the private data of %s is not base64: %v", addr, err)
			}
			out[addr] = b
		}
	}
	return out, n
}

// base64Run matches a run of base64 text (standard or URL alphabet) long
// enough to hold a secret.
var base64Run = regexp.MustCompile(`[A-Za-z0-9+/_-]{12,}={0,2}`)

// findEncodedSecrets returns the secrets found in b as written or in any text
// encoded inside it: JSON string values and keys, and base64 runs (any of the
// four alphabets and paddings), decoded recursively.
func findEncodedSecrets(b []byte, secrets []string) []string {
	found := map[string]bool{}
	seen := map[string]bool{}
	var scan func(b []byte, depth int)
	scan = func(b []byte, depth int) {
		if depth > 8 || len(b) == 0 || seen[string(b)] {
			return
		}
		seen[string(b)] = true
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				found[s] = true
			}
		}
		var v any
		if json.Unmarshal(b, &v) == nil {
			var walk func(any)
			walk = func(v any) {
				switch v := v.(type) {
				case string:
					scan([]byte(v), depth+1)
				case []any:
					for _, e := range v {
						walk(e)
					}
				case map[string]any:
					for k, e := range v {
						scan([]byte(k), depth+1)
						walk(e)
					}
				}
			}
			walk(v)
		}
		for _, run := range base64Run.FindAll(b, -1) {
			for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
				if dec, err := enc.DecodeString(string(run)); err == nil {
					scan(dec, depth+1)
				}
			}
		}
	}
	scan(b, 0)
	out := make([]string, 0, len(found))
	for _, s := range secrets {
		if found[s] {
			out = append(out, s)
		}
	}
	return out
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

package jsonschema

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/emulator"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

const commitEventSchema = `{
  "type": "object",
  "properties": {"owner": {"type": "string", "minLength": 1}, "repo": {"type": "string"}},
  "required": ["owner", "repo"],
  "additionalProperties": false
}`

func TestCheckTriggerConfig(t *testing.T) {
	t.Parallel()
	var schema map[string]any
	if err := json.Unmarshal([]byte(commitEventSchema), &schema); err != nil {
		t.Fatal(err)
	}
	attr := path.Root("trigger_config")
	if d := CheckTriggerConfig(schema, `{"repo":"r","owner":"o"}`, "GITHUB_COMMIT_EVENT", "20250901_00", attr); d.HasError() {
		t.Fatalf("valid config refused: %v", d)
	}
	d := CheckTriggerConfig(schema, `{"owner":"o","repo":"r","branch":"main"}`, "GITHUB_COMMIT_EVENT", "20250901_00", attr)
	if !d.HasError() || !testutil.DiagsContain(d, `field "branch"`) || !testutil.DiagsContain(d, "trigger_config") || !testutil.DiagsContain(d, "20250901_00") {
		t.Fatalf("want an error naming branch: %v", d)
	}
	if d := CheckTriggerConfig(schema, `[1]`, "X", "latest", attr); !testutil.DiagsContain(d, "must be a JSON object") {
		t.Fatalf("array: %v", d)
	}
	if d := CheckTriggerConfig(schema, `{`, "X", "latest", attr); !testutil.DiagsContain(d, "not valid JSON") {
		t.Fatalf("broken JSON: %v", d)
	}
	if d := CheckTriggerConfig(nil, ``, "X", "latest", attr); d.HasError() {
		t.Fatalf("empty config with no schema: %v", d)
	}
	if d := CheckTriggerConfig(schema, ``, "X", "latest", attr); !testutil.DiagsContain(d, `field "owner"`) {
		t.Fatalf("empty config must miss owner: %v", d)
	}
}

// TestCheckTriggerConfigAgreesWithEmulator: on every trigger type of the
// emulator's catalog, at every version of its toolkit, the provider's plan
// check and the emulator's upsert agree on each of a set of configs (the
// schema's own valid one, each required property missing, a property
// unknown, each property of every other type, beyond its bounds, outside its
// enum) and name the same field. The upsert names an account that does not
// exist: the emulator checks trigger_config first, so a valid config fails
// on the account instead.
func TestCheckTriggerConfigAgreesWithEmulator(t *testing.T) {
	t.Parallel()
	srv, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { ts.Close(); _ = srv.Close() })
	c, err := client.New(client.Config{BaseURL: ts.URL, APIKey: emulator.DefaultAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	types, err := c.ListTriggerTypes(ctx, client.TriggerTypeListParams{})
	if err != nil || len(types) == 0 {
		t.Fatalf("trigger types: %v (%d)", err, len(types))
	}
	checked := 0
	for _, tt := range types {
		tk, err := c.GetToolkit(ctx, tt.Toolkit.Slug, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, version := range tk.Meta.AvailableVersions {
			versions := &client.ToolkitVersions{PerToolkit: map[string]string{tt.Toolkit.Slug: version}}
			at, err := c.GetTriggerType(ctx, tt.Slug, versions)
			if err != nil {
				t.Fatal(err)
			}
			for name, doc := range agreementDocs(at.Config) {
				b, err := json.Marshal(doc)
				if err != nil {
					t.Fatal(err)
				}
				checked++
				d := CheckTriggerConfig(at.Config, string(b), tt.Slug, version, path.Root("trigger_config"))
				_, err = c.UpsertTrigger(ctx, tt.Slug, client.UpsertTriggerRequest{
					ConnectedAccountID: "ca_doesnotexist", TriggerConfig: doc, ToolkitVersions: versions})
				var apiErr *client.APIError
				emuRefused := errors.As(err, &apiErr) && apiErr.Code == emulator.CodeTriggerConfigInvalid
				if d.HasError() != emuRefused {
					t.Errorf("%s %s %s %s: provider refuses: %v (%v); emulator refuses: %v (%v)", tt.Slug, version, name, b, d.HasError(), d, emuRefused, err)
					continue
				}
				if emuRefused {
					// The emulator names the first violation's field, as the provider's first error.
					field, _, _ := strings.Cut(strings.TrimPrefix(apiErr.Message, "trigger_config."), " ")
					if want := fmt.Sprintf("field %q", field); !strings.Contains(d[0].Detail(), want) && field != "trigger_config" {
						t.Errorf("%s %s %s: emulator names %q (%s), the provider %q", tt.Slug, version, name, field, apiErr.Message, d[0].Detail())
					}
				}
			}
		}
	}
	t.Logf("%d configs of %d trigger types checked", checked, len(types))
}

// agreementDocs are the configs TestCheckTriggerConfigAgreesWithEmulator
// sends, by name.
func agreementDocs(schema map[string]any) map[string]map[string]any {
	props, _ := schema["properties"].(map[string]any)
	full := map[string]any{}
	for k, p := range props {
		ps, _ := p.(map[string]any)
		full[k] = agreementValue(ps)
	}
	with := func(k string, v any) map[string]any {
		m := maps.Clone(full)
		if v == nil && k != "" {
			delete(m, k)
		} else if k != "" {
			m[k] = v
		}
		return m
	}
	docs := map[string]map[string]any{"empty": {}, "valid": with("", nil), "unknown property": with("zz_unknown", 1.0)}
	required, _ := schema["required"].([]any)
	for _, r := range required {
		if name, ok := r.(string); ok {
			docs["without "+name] = with(name, nil)
		}
	}
	for k, p := range props {
		ps, _ := p.(map[string]any)
		for kind, v := range map[string]any{"null": jsonNull{}, "string": "s", "number": 1.5, "integer": 7.0, "boolean": false,
			"array": []any{1.0}, "object": map[string]any{"a": 1.0}, "empty string": "", "negative": -1.0} {
			docs[k+" "+kind] = with(k, v)
		}
		if m, ok := ps["minimum"].(float64); ok {
			docs[k+" below minimum"] = with(k, m-1)
		}
		if m, ok := ps["maximum"].(float64); ok {
			docs[k+" above maximum"] = with(k, m+1)
		}
		if _, ok := ps["enum"]; ok {
			docs[k+" outside enum"] = with(k, "zz_not_in_enum")
		}
		if _, ok := ps["items"]; ok {
			docs[k+" bad item"] = with(k, []any{map[string]any{}})
		}
	}
	for _, d := range docs {
		for k, v := range d {
			if _, ok := v.(jsonNull); ok {
				d[k] = nil
			}
		}
	}
	return docs
}

// jsonNull marks a property set to null (a nil value means "leave it out").
type jsonNull struct{}

// agreementValue is a value schema s accepts: its default, its enum's first
// value, its minimum, or one of its type.
func agreementValue(s map[string]any) any {
	if d, ok := s["default"]; ok {
		return d
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	switch s["type"] {
	case "integer", "number":
		if m, ok := s["minimum"].(float64); ok {
			return m
		}
		return 1.0
	case "boolean":
		return true
	case "array":
		if it, ok := s["items"].(map[string]any); ok {
			return []any{agreementValue(it)}
		}
		return []any{}
	case "object":
		return map[string]any{}
	}
	return "x"
}

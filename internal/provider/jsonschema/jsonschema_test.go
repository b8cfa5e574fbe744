package jsonschema

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"

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

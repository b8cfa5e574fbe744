package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

const routeExecuteTool = "POST /api/v3.1/tools/execute/{tool_slug}"

// TestAccE2E_toolExecuteAction runs the action's documentation example
// (examples/actions/service_tool_execute/action.tf) through the CLI:
// `terraform apply -invoke=...` sends one POST /tools/execute per
// invocation and reports the outcome and the log id, not the tool's output
// (report_output = true adds it). An execution the service answers as not
// successful (the account EXPIRED) fails the run with the service's
// message; arguments outside the tool's input schema, and an unknown tool,
// are refused at plan with no execution at all.
func TestAccE2E_toolExecuteAction(t *testing.T) {
	requireActionCLI(t, 14, "actions need Terraform 1.14+: service_tool_execute, terraform apply -invoke")
	testAccRequireEmulator(t) // counts the emulator's requests and expires an account through its control route
	w := newE2EWorkspace(t)
	example, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "examples", "actions", "service_tool_execute", "action.tf"))
	if err != nil {
		t.Fatal(err)
	}
	w.WriteFile("action.tf", string(example))
	w.WriteFile("more.tf", `
action "service_tool_execute" "list_shown" {
  config {
    tool                 = "LINEAR_LIST_ITEMS"
    connected_account_id = service_connected_account.pipeline.id
    arguments            = jsonencode({ query = "keys", limit = 5 })
    report_output        = true
  }
}

action "service_tool_execute" "outside_schema" {
  config {
    tool      = "LINEAR_LIST_ITEMS"
    user_id   = service_connected_account.pipeline.user_id
    arguments = jsonencode({ limit = 500 })
  }
}

action "service_tool_execute" "missing_argument" {
  config {
    tool    = "LINEAR_CREATE_ITEM"
    user_id = service_connected_account.pipeline.user_id
  }
}

action "service_tool_execute" "unknown_tool" {
  config {
    tool    = "LINEAR_CREATE_ITEMS"
    user_id = service_connected_account.pipeline.user_id
  }
}

output "account" { value = service_connected_account.pipeline.id }
`)
	keyVar := "-var=linear_api_key=lin_api_test_action"
	w.RunOK("apply", "-auto-approve", "-no-color", "-input=false", keyVar)
	account := w.e2eOutputs()["account"]
	invoke := func(name string) (e2eResult, int) {
		before := testAccEmulatorStatsNow(t).Requests[routeExecuteTool]
		res := w.Run(nil, "apply", "-auto-approve", "-no-color", "-input=false", keyVar, "-invoke=action.service_tool_execute."+name)
		return res, testAccEmulatorStatsNow(t).Requests[routeExecuteTool] - before
	}

	res, n := invoke("open_issue")
	if res.ExitCode != 0 || n != 1 {
		t.Fatalf("invoke open_issue: exit %d, %d executions (want 0 and 1)\n%s\n%s", res.ExitCode, n, res.Stdout, res.Stderr)
	}
	for _, want := range []string{"Executing LINEAR_CREATE_ITEM as user platform-pipeline", "LINEAR_CREATE_ITEM as user platform-pipeline: successful (log id log_"} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("the invoke output lacks %q:\n%s", want, res.Stdout)
		}
	}
	if strings.Contains(res.Stdout, "output:") || strings.Contains(res.Stdout, `"emulated"`) {
		t.Errorf("the tool's output was reported without report_output:\n%s", res.Stdout)
	}
	if res, n := invoke("list_shown"); res.ExitCode != 0 || n != 1 || !strings.Contains(res.Stdout, `LINEAR_LIST_ITEMS output: {`) ||
		!strings.Contains(res.Stdout, `"query":"keys"`) {
		t.Errorf("report_output: exit %d, %d executions\n%s\n%s", res.ExitCode, n, res.Stdout, res.Stderr)
	}

	for _, tc := range []struct {
		action string
		want   []string
	}{
		{"outside_schema", []string{`Arguments outside the tool's input schema`, `limit`, `100`}},
		{"missing_argument", []string{`Arguments outside the tool's input schema`, `name`}},
		{"unknown_tool", []string{`Unknown tool`, `no tool "LINEAR_CREATE_ITEMS"`, `Did you mean "LINEAR_CREATE_ITEM"`}},
	} {
		res, n := invoke(tc.action)
		if res.ExitCode == 0 || n != 0 {
			t.Errorf("invoking %s: exit %d, %d executions (want a failed plan and none)\n%s", tc.action, res.ExitCode, n, res.Stdout)
		}
		if re := testAccErrRe(tc.want...); !re.MatchString(res.Stderr) {
			t.Errorf("invoking %s: the error does not match %s:\n%s", tc.action, re, res.Stderr)
		}
	}

	// The account expires: the service runs nothing and answers
	// successful = false, which fails the run with its message.
	testAccEmulatorPost(t, "/_emulator/connected_accounts/"+account+"/expire")
	res, n = invoke("list_shown")
	if res.ExitCode == 0 || n != 1 {
		t.Fatalf("invoking on an EXPIRED account: exit %d, %d executions\n%s", res.ExitCode, n, res.Stdout)
	}
	if re := testAccErrRe(`Tool execution not successful`, `LINEAR_LIST_ITEMS`, `is not ACTIVE`, `log id log_`); !re.MatchString(res.Stderr) {
		t.Errorf("the failure does not match %s:\n%s", re, res.Stderr)
	}
	if !strings.Contains(res.Stdout, "not successful (log id log_") || strings.Contains(res.Stdout, "output:") {
		t.Errorf("the failure's progress:\n%s", res.Stdout)
	}
	w.RunOK("destroy", "-auto-approve", "-no-color", "-input=false", keyVar)
}

// decodeArguments takes a null or blank attribute as {}.
func TestToolExecuteArguments(t *testing.T) {
	for _, v := range []types.String{types.StringNull(), types.StringValue("  ")} {
		if m, err := decodeArguments(v); err != nil || len(m) != 0 {
			t.Errorf("%v: %v %v", v, m, err)
		}
	}
	if _, err := decodeArguments(types.StringValue(`[1]`)); err == nil {
		t.Error("a JSON array was taken as arguments")
	}
	if m, err := decodeArguments(types.StringValue(`{"a":1}`)); err != nil || fmt.Sprint(m["a"]) != "1" {
		t.Errorf("%v %v", m, err)
	}
}

package contract

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// selfTest holds records with known deviations, checked in the same
// check.mjs run as the walk, so the checker is shown to catch each kind of
// problem (a checker that reports nothing fails here).
type selfTest struct {
	rec  record
	want []string // "direction path kind" findings the record must produce; none for a valid one
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

var selfTests = []selfTest{
	{ // enum: API_KEY has no EXPIRED state.val.status; top-level EXPIRED is fine
		rec: record{Operation: "connectedAccounts.retrieve", Method: "GET", Path: "/api/v3.1/connected_accounts/ca_1",
			PathParams: map[string]string{"nanoid": "ca_1"}, Status: 200,
			Response: raw(`{"toolkit":{"slug":"x"},"auth_config":{"id":"ac_1","auth_scheme":"API_KEY","is_composio_managed":false,"is_disabled":false},` +
				`"id":"ca_1","user_id":"u","status":"EXPIRED","created_at":"t","updated_at":"t","state":{"authScheme":"API_KEY","val":{"status":"EXPIRED"}},` +
				`"data":{},"params":{},"status_reason":null,"is_disabled":false,"test_request_endpoint":"","word_id":null,"alias":null}`)},
		want: []string{"response state.val.status enum"},
	},
	{ // missing required property, value outside a literal, undeclared property
		rec: record{Operation: "toolRouter.session.delete", Method: "DELETE", Path: "/api/v3.1/tool_router/session/trs_1",
			PathParams: map[string]string{"session_id": "trs_1"}, Status: 200, Response: raw(`{"deleted":"yes","extra":1}`)},
		want: []string{"response session_id missing", "response deleted enum", "response extra undeclared"},
	},
	{ // wrong primitive type
		rec: record{Operation: "toolRouter.session.delete", Method: "DELETE", Path: "/api/v3.1/tool_router/session/trs_1",
			PathParams: map[string]string{"session_id": "trs_1"}, Status: 200, Response: raw(`{"session_id":5,"deleted":true}`)},
		want: []string{"response session_id type"},
	},
	{ // path enum, and an undeclared body
		rec: record{Operation: "authConfigs.updateStatus", Method: "PATCH", Path: "/api/v3.1/auth_configs/ac_1/enabled",
			PathParams: map[string]string{"nanoid": "ac_1", "status": "enabled"}, Status: 200, Body: raw(`{"x":1}`), Response: raw(`{}`)},
		want: []string{"request path.status enum", "request body undeclared"},
	},
	{ // query: enum inside an array, a number that does not parse, an unknown parameter
		rec: record{Operation: "connectedAccounts.list", Method: "GET", Path: "/api/v3.1/connected_accounts", Status: 400,
			Query: map[string][]string{"statuses": {"ACTIVE", "SLEEPING"}, "limit": {"ten"}, "colour": {"red"}}},
		want: []string{"request query.statuses[] enum", "request query.limit type", "request query.colour undeclared"},
	},
	{ // deepObject query: a member of an object parameter is fine, of a string one undeclared
		rec: record{Operation: "tools.list", Method: "GET", Path: "/api/v3.1/tools", Status: 400,
			Query: map[string][]string{"toolkit_versions[github]": {"20250901_00"}, "toolkit_slug[x]": {"y"}}},
		want: []string{"request query.toolkit_slug[x] undeclared"},
	},
	{ // deepObject query alone: no findings
		rec: record{Operation: "tools.list", Method: "GET", Path: "/api/v3.1/tools", Status: 400,
			Query: map[string][]string{"toolkit_versions[github]": {"20250901_00"}}},
	},
	{ // a valid request and response: no findings
		rec: record{Operation: "toolRouter.session.delete", Method: "DELETE", Path: "/api/v3.1/tool_router/session/trs_1",
			PathParams: map[string]string{"session_id": "trs_1"}, Status: 200, Response: raw(`{"session_id":"trs_1","deleted":true}`)},
	},
}

// selfTestRecords returns the self-test records, marked with source "selftest".
func selfTestRecords() []record {
	out := make([]record, len(selfTests))
	for i, st := range selfTests {
		out[i] = st.rec
		out[i].Source = "selftest"
	}
	return out
}

// checkSelfTest compares the findings of the self-test records (starting at
// index first of the checked records) with what each must produce.
func checkSelfTest(t *testing.T, first int, findings []finding) {
	t.Helper()
	got := map[int][]string{}
	for _, f := range findings {
		if f.Record >= first {
			got[f.Record-first] = append(got[f.Record-first], fmt.Sprintf("%s %s %s", f.Direction, f.Path, f.Kind))
		}
	}
	for i, st := range selfTests {
		have := strings.Join(got[i], "; ")
		for _, w := range st.want {
			if !strings.Contains(have, w) {
				t.Errorf("checker self-test %d (%s): missing finding %q; got [%s]", i, st.rec.Operation, w, have)
			}
		}
		if len(st.want) == 0 && len(got[i]) > 0 {
			t.Errorf("checker self-test %d (%s): a valid record produced findings [%s]", i, st.rec.Operation, have)
		}
	}
}

// Tool execution results, shared by POST /tools/execute/{slug} and the
// tool-router session execute.

package emulator

import (
	"net/http"
	"strings"
)

// CodeToolNotAllowed: the auth config restricts execution to other tools.
const CodeToolNotAllowed = 1301

// argumentsError checks args against the tool's input schema; "" when valid.
func argumentsError(t *toolDef, args map[string]any) string {
	schema := map[string]any{"type": "object"}
	for _, k := range []string{"properties", "required", "$defs", "definitions"} { // and what their $refs name
		if v, ok := t.Input[k]; ok && v != nil {
			schema[k] = v
		}
	}
	if field, msg, ok := schemaError(schema, args, "arguments"); !ok {
		return field + " " + msg
	}
	return ""
}

func failedExecution(msg string) map[string]any {
	return map[string]any{"data": map[string]any{}, "error": msg, "successful": false, "log_id": newID("log")}
}

// executed answers a tool execution on acct (nil for tools that need no
// account): a failure when the account is not usable, else a canned success
// echoing the arguments.
func executed(t *toolDef, version string, args map[string]any, acct *ConnectedAccount) map[string]any {
	if acct != nil && (acct.Status != StatusActive || acct.IsDisabled || acct.AuthConfigDeleted) {
		return failedExecution("connected account " + acct.ID + " is not ACTIVE")
	}
	return map[string]any{
		"data":       map[string]any{"tool": t.Slug, "version": version, "arguments": args, "emulated": true},
		"error":      nil,
		"successful": true,
		"log_id":     newID("log"),
	}
}

// toolAccessError refuses executing t with acct when the account's auth
// config restricts execution (tool_access_config.tools_available_for_execution)
// to other tools; nil when allowed. Callers hold st.mu.
func (s *Server) toolAccessError(t *toolDef, acct *ConnectedAccount) *apiError {
	if acct == nil {
		return nil
	}
	ac := s.st.authConfigs[acct.AuthConfigID]
	if ac == nil || len(ac.ToolsForExecution) == 0 || containsFold(ac.ToolsForExecution, t.Slug) {
		return nil
	}
	return newErr(http.StatusForbidden, CodeToolNotAllowed, "Tool_NotAllowedForAuthConfig",
		"tool %s is not available for execution with auth config %s (allowed: %s)", t.Slug, ac.ID, strings.Join(ac.ToolsForExecution, ", ")).
		with("tool_slug: " + t.Slug + " not in tool_access_config.tools_available_for_execution").
		fix("Add the tool to the auth config's tool_access_config.tools_available_for_execution, or use another auth config.")
}

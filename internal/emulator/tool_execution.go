// Tool execution results, shared by POST /tools/execute/{slug} and the
// tool-router session execute.

package emulator

// argumentsError checks args against the tool's input schema; "" when valid.
func argumentsError(t *toolDef, args map[string]any) string {
	if path, msg, ok := validateSchema(map[string]any{"type": "object", "properties": t.Input["properties"], "required": t.Input["required"]}, args, ""); !ok {
		return "arguments." + path + " " + msg
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

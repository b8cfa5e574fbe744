// The operation table: every operation of the service API contract
// (@composio/client 2.0.0-rc.6, its GENERATED_OPERATIONS) plus the routes the
// service's API reference documents that the client's types lack. Group files
// register handlers by operation id with Server.handle; every operation
// without a handler answers 501 naming it.

package emulator

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// Operation is one operation of the service API as the emulator serves it.
type Operation struct {
	// ID is derived from method and path: the method in lower case, "ApiV31",
	// then each path segment in PascalCase, a {param} segment as "By<Param>";
	// e.g. GET /logs/tool_execution/{id} is "getApiV31LogsToolExecutionById".
	ID string
	// Method is the HTTP method (GET, POST, PATCH, DELETE).
	Method string
	// Path is the path template below the version prefix (/api/v3.1, also
	// served as /api/v3), with the contract's parameter names.
	Path string
	// Group is the contract's resource group, e.g. "authConfigs",
	// "toolRouter.session", "triggerInstances.manage".
	Group string
	// ClientMethod is the official client's method, e.g. "authConfigs.retrieve";
	// for operations outside the types, the name the table gives them.
	ClientMethod string
	// InTypes is false for routes the service's API reference documents but
	// the client's types do not declare (custom toolkits).
	InTypes bool
	// Emulated is true when the emulator implements the operation; others
	// answer 501 with the error envelope naming the operation.
	Emulated bool
}

type operationSpec struct {
	method, path, clientMethod string
	inTypes                    bool
}

// operationSpecs lists the 104 operations of @composio/client 2.0.0-rc.6
// (method, path below /api/v3.1, client method), sorted by client method,
// then the documented routes absent from its types.
var operationSpecs = []operationSpec{
	{"POST", "/api_key_revocation", "apiKeyRevocation.create", true},
	{"GET", "/auth/session/info", "auth.session.retrieveInfo", true},
	{"POST", "/auth_configs", "authConfigs.create", true},
	{"DELETE", "/auth_configs/{nanoid}", "authConfigs.delete", true},
	{"GET", "/auth_configs", "authConfigs.list", true},
	{"GET", "/auth_configs/{nanoid}", "authConfigs.retrieve", true},
	{"PATCH", "/auth_configs/{nanoid}", "authConfigs.update", true},
	{"PATCH", "/auth_configs/{nanoid}/{status}", "authConfigs.updateStatus", true},
	{"POST", "/cli/codact_failures", "cli.createCodactFailure", true},
	{"POST", "/cli/create-session", "cli.createSession", true},
	{"GET", "/cli/get-session", "cli.getSession", true},
	{"POST", "/cli/realtime/auth", "cli.realtime.auth", true},
	{"GET", "/cli/realtime/credentials", "cli.realtime.credentials", true},
	{"POST", "/connected_accounts", "connectedAccounts.create", true},
	{"DELETE", "/connected_accounts/{nanoid}", "connectedAccounts.delete", true},
	{"GET", "/connected_accounts", "connectedAccounts.list", true},
	{"PATCH", "/connected_accounts/{nanoid}", "connectedAccounts.patch", true},
	{"POST", "/connected_accounts/{nanoid}/refresh", "connectedAccounts.refresh", true},
	{"GET", "/connected_accounts/{nanoid}", "connectedAccounts.retrieve", true},
	{"POST", "/connected_accounts/{nanoid}/revoke", "connectedAccounts.revoke", true},
	{"PATCH", "/connected_accounts/{nanoId}/status", "connectedAccounts.updateStatus", true},
	{"POST", "/files/upload/request", "files.createPresignedURL", true},
	{"GET", "/files/list", "files.list", true},
	{"POST", "/connected_accounts/link", "link.create", true},
	{"POST", "/logs/tool_execution", "logs.createToolExecution", true},
	{"GET", "/logs/tool_execution/{id}", "logs.retrieveToolExecution", true},
	{"POST", "/internal/action_execution/logs", "logs.tools.list", true},
	{"GET", "/internal/action_execution/fields", "logs.tools.listFields", true},
	{"GET", "/internal/action_execution/log/{id}", "logs.tools.retrieve", true},
	{"POST", "/internal/trigger/logs", "logs.triggers.list", true},
	{"GET", "/internal/trigger/log/{id}", "logs.triggers.retrieve", true},
	{"POST", "/mcp/servers", "mcp.create", true},
	{"POST", "/mcp/servers/{serverId}/instances", "mcp.createInstance", true},
	{"POST", "/mcp/servers/custom", "mcp.custom.create", true},
	{"DELETE", "/mcp/{id}", "mcp.delete", true},
	{"DELETE", "/mcp/servers/{serverId}/instances/{instanceId}", "mcp.deleteInstance", true},
	{"POST", "/mcp/servers/generate", "mcp.generate.url", true},
	{"GET", "/mcp/servers", "mcp.list", true},
	{"GET", "/mcp/servers/{serverId}/instances", "mcp.listInstances", true},
	{"GET", "/mcp/{id}", "mcp.retrieve", true},
	{"GET", "/mcp/app/{appKey}", "mcp.retrieveApp", true},
	{"PATCH", "/mcp/{id}", "mcp.update", true},
	{"POST", "/org/clanker/create_claim", "org.clanker.createClaim", true},
	{"GET", "/org/consumer/connected_toolkits", "org.consumer.listConnectedToolkits", true},
	{"POST", "/org/consumer/project/resolve", "org.consumer.project.resolve", true},
	{"GET", "/org/list", "org.list", true},
	{"POST", "/org/owner/project/new", "org.owner.project.create", true},
	{"DELETE", "/org/owner/project/{nano_id}", "org.owner.project.delete", true},
	{"GET", "/org/owner/project/list", "org.owner.project.list", true},
	{"POST", "/org/owner/project/{nano_id}/regenerate_api_key", "org.owner.project.regenerateAPIKey", true},
	{"GET", "/org/owner/project/{nano_id}", "org.owner.project.retrieve", true},
	{"GET", "/org/project/list", "org.project.list", true},
	{"POST", "/org/usage/{entity_type}", "org.usage.retrieve", true},
	{"POST", "/org/usage/summary", "org.usage.retrieveSummary", true},
	{"POST", "/project/usage/{entity_type}", "project.usage.retrieve", true},
	{"POST", "/project/usage/summary", "project.usage.retrieveSummary", true},
	{"POST", "/tool_router/session/{session_id}/attach", "toolRouter.session.attach", true},
	{"GET", "/tool_router/session/{session_id}/config_history", "toolRouter.session.configHistory", true},
	{"POST", "/tool_router/session", "toolRouter.session.create", true},
	{"DELETE", "/tool_router/session/{session_id}", "toolRouter.session.delete", true},
	{"POST", "/tool_router/session/{session_id}/execute", "toolRouter.session.execute", true},
	{"POST", "/tool_router/session/{session_id}/execute_meta", "toolRouter.session.executeMeta", true},
	{"POST", "/tool_router/session/{session_id}/mounts/{mount_id}/download_url", "toolRouter.session.files.createDownloadURL", true},
	{"POST", "/tool_router/session/{session_id}/mounts/{mount_id}/upload_url", "toolRouter.session.files.createUploadURL", true},
	{"POST", "/tool_router/session/{session_id}/mounts/{mount_id}/delete", "toolRouter.session.files.delete", true},
	{"GET", "/tool_router/session/{session_id}/mounts/{mount_id}/items", "toolRouter.session.files.list", true},
	{"POST", "/tool_router/session/{session_id}/link", "toolRouter.session.link", true},
	{"PATCH", "/tool_router/session/{session_id}", "toolRouter.session.patch", true},
	{"POST", "/tool_router/session/{session_id}/proxy_execute", "toolRouter.session.proxyExecute", true},
	{"GET", "/tool_router/session/{session_id}", "toolRouter.session.retrieve", true},
	{"POST", "/tool_router/session/{session_id}/search", "toolRouter.session.search", true},
	{"GET", "/tool_router/session/{session_id}/toolkits", "toolRouter.session.toolkits", true},
	{"GET", "/tool_router/session/{session_id}/tools", "toolRouter.session.tools", true},
	{"GET", "/toolkits", "toolkits.list", true},
	{"GET", "/toolkits/{slug}", "toolkits.retrieve", true},
	{"GET", "/toolkits/categories", "toolkits.retrieveCategories", true},
	{"GET", "/toolkits/changelog", "toolkits.retrieveChangelog", true},
	{"POST", "/toolkits/multi", "toolkits.retrieveMulti", true},
	{"POST", "/tools/execute/{tool_slug}", "tools.execute", true},
	{"POST", "/tools/execute/{tool_slug}/input", "tools.getInput", true},
	{"GET", "/tools", "tools.list", true},
	{"POST", "/tools/execute/proxy", "tools.proxy", true},
	{"GET", "/tools/{tool_slug}", "tools.retrieve", true},
	{"GET", "/tools/enum", "tools.retrieveEnum", true},
	{"POST", "/tools/scopes/required", "tools.retrieveRequiredScopes", true},
	{"GET", "/trigger_instances/active", "triggerInstances.listActive", true},
	{"DELETE", "/trigger_instances/manage/{triggerId}", "triggerInstances.manage.delete", true},
	{"PATCH", "/trigger_instances/manage/{triggerId}", "triggerInstances.manage.update", true},
	{"POST", "/trigger_instances/{slug}/upsert", "triggerInstances.upsert", true},
	{"GET", "/triggers_types", "triggersTypes.list", true},
	{"GET", "/triggers_types/{slug}", "triggersTypes.retrieve", true},
	{"GET", "/triggers_types/list/enum", "triggersTypes.retrieveEnum", true},
	{"POST", "/webhook_endpoints", "webhookEndpoints.create", true},
	{"GET", "/webhook_endpoints", "webhookEndpoints.list", true},
	{"POST", "/webhook_endpoints/{nano_id}", "webhookEndpoints.replace", true},
	{"GET", "/webhook_endpoints/{nano_id}", "webhookEndpoints.retrieve", true},
	{"PATCH", "/webhook_endpoints/{nano_id}", "webhookEndpoints.update", true},
	{"POST", "/webhook_subscriptions", "webhookSubscriptions.create", true},
	{"DELETE", "/webhook_subscriptions/{id}", "webhookSubscriptions.delete", true},
	{"GET", "/webhook_subscriptions", "webhookSubscriptions.list", true},
	{"GET", "/webhook_subscriptions/event_types", "webhookSubscriptions.listEventTypes", true},
	{"GET", "/webhook_subscriptions/{id}", "webhookSubscriptions.retrieve", true},
	{"POST", "/webhook_subscriptions/{id}/rotate_secret", "webhookSubscriptions.rotateSecret", true},
	{"PATCH", "/webhook_subscriptions/{id}", "webhookSubscriptions.update", true},
	// Documented on the service's API reference, not in the client's types.
	{"POST", "/custom/toolkits", "customToolkits.create", false},
	{"POST", "/custom/toolkits/upsert", "customToolkits.upsert", false},
	{"POST", "/custom/toolkits/sync", "customToolkits.sync", false},
	{"PATCH", "/custom/toolkits/{slug}", "customToolkits.update", false},
	{"DELETE", "/custom/toolkits/{slug}", "customToolkits.delete", false},
}

var (
	operationsOnce sync.Once
	operationList  []Operation
	operationIndex map[string]int
)

// operationTable builds the table (IDs, groups) once; it panics on a
// duplicate ID, which the table's test catches.
func operationTable() ([]Operation, map[string]int) {
	operationsOnce.Do(func() {
		operationIndex = map[string]int{}
		for _, sp := range operationSpecs {
			op := Operation{
				ID: operationID(sp.method, sp.path), Method: sp.method, Path: sp.path,
				Group: sp.clientMethod[:strings.LastIndex(sp.clientMethod, ".")], ClientMethod: sp.clientMethod, InTypes: sp.inTypes,
			}
			if _, dup := operationIndex[op.ID]; dup {
				panic("emulator: duplicate operation id " + op.ID)
			}
			operationIndex[op.ID] = len(operationList)
			operationList = append(operationList, op)
		}
	})
	return operationList, operationIndex
}

// operationID derives an operation's ID from its method and path template.
func operationID(method, path string) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	b.WriteString("ApiV31")
	for seg := range strings.SplitSeq(strings.Trim(path, "/"), "/") {
		if strings.HasPrefix(seg, "{") {
			b.WriteString("By")
			seg = strings.Trim(seg, "{}")
		}
		for word := range strings.FieldsFuncSeq(seg, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
			rs := []rune(word)
			rs[0] = unicode.ToUpper(rs[0])
			b.WriteString(string(rs))
		}
	}
	return b.String()
}

// groupRegistrars are the resource groups' register functions, added by each
// group file's init (so files can be added without editing a shared list).
var groupRegistrars []func(*Server)

// registerGroup adds a resource group's register function; call it from the
// group file's init.
func registerGroup(register func(*Server)) { groupRegistrars = append(groupRegistrars, register) }

// handle registers h as the handler of operation id under both version
// prefixes. It panics on an unknown id or a second handler for the same id
// (programming errors every test of the package would hit).
func (s *Server) handle(id string, h handlerFunc) {
	ops, index := operationTable()
	i, ok := index[id]
	if !ok {
		panic("emulator: handle: no operation " + id + " in the operation table")
	}
	if s.handled[id] {
		panic("emulator: handle: operation " + id + " registered twice")
	}
	s.handled[id] = true
	s.api(ops[i].Method, ops[i].Path, h)
}

// registerOperations runs every group's register function, then answers 501
// for each operation left without a handler.
func (s *Server) registerOperations() {
	s.handled = map[string]bool{}
	for _, register := range groupRegistrars {
		register(s)
	}
	ops, _ := operationTable()
	for _, op := range ops {
		if !s.handled[op.ID] {
			s.api(op.Method, op.Path, notEmulated(op.ID))
		}
	}
}

func notEmulated(id string) handlerFunc {
	return func(*call) (int, any, *apiError) {
		return 0, nil, newErr(http.StatusNotImplemented, CodeNotImplemented, "NotImplemented",
			"operation %s is not emulated", id).
			fix("The emulator does not implement this operation; run against the real service for it.")
	}
}

// Operations lists the operation table with what this server emulates, in
// table order. The result is a copy.
func (s *Server) Operations() []Operation {
	ops, _ := operationTable()
	out := slices.Clone(ops)
	for i := range out {
		out[i].Emulated = s.handled[out[i].ID]
	}
	return out
}

// Operations lists the operation table with what the emulator implements;
// see Server.Operations.
func Operations() []Operation {
	s, err := New(Options{})
	if err != nil {
		panic(fmt.Sprintf("emulator: in-memory server: %v", err))
	}
	defer func() { _ = s.Close() }()
	return s.Operations()
}

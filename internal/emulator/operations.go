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
	// Schemes are the credential schemes the operation accepts, the
	// contract's names: SchemeAPIKey (x-api-key), SchemeUserAPIKey
	// (x-user-api-key), SchemeOrgAPIKey (x-org-api-key), and "no_auth" or
	// "workbench_access_key" where the contract names them. A request carries
	// exactly one credential header, of a scheme listed here.
	Schemes []string
}

// The credential schemes of the contract (GENERATED_OPERATIONS' schemes; an
// operation without schemes takes SchemeAPIKey).
const (
	SchemeAPIKey     = "ApiKeyAuth"     //nolint:gosec // G101: the name of an OpenAPI security scheme, not a credential
	SchemeUserAPIKey = "UserApiKeyAuth" //nolint:gosec // G101: the name of an OpenAPI security scheme, not a credential
	SchemeOrgAPIKey  = "OrgApiKeyAuth"  //nolint:gosec // G101: the name of an OpenAPI security scheme, not a credential
	SchemeNoAuth     = "no_auth"
	SchemeWorkbench  = "workbench_access_key"
)

// The scheme lists of the operation table.
var (
	apiKey            = []string{SchemeAPIKey}
	apiOrUserKey      = []string{SchemeAPIKey, SchemeUserAPIKey}
	userKey           = []string{SchemeUserAPIKey}
	orgKey            = []string{SchemeOrgAPIKey}
	noAuth            = []string{SchemeNoAuth}
	apiKeyOrWorkbench = []string{SchemeAPIKey, SchemeWorkbench}
)

type operationSpec struct {
	method, path, clientMethod string
	inTypes                    bool
	schemes                    []string
}

// operationSpecs lists the 104 operations of @composio/client 2.0.0-rc.6
// (method, path below /api/v3.1, client method, in the types, the credential
// schemes the contract declares), sorted by client method, then the
// documented routes absent from its types (which take a project API key).
var operationSpecs = []operationSpec{
	{"POST", "/api_key_revocation", "apiKeyRevocation.create", true, noAuth},
	{"GET", "/auth/session/info", "auth.session.retrieveInfo", true, userKey},
	{"POST", "/auth_configs", "authConfigs.create", true, apiOrUserKey},
	{"DELETE", "/auth_configs/{nanoid}", "authConfigs.delete", true, apiOrUserKey},
	{"GET", "/auth_configs", "authConfigs.list", true, apiOrUserKey},
	{"GET", "/auth_configs/{nanoid}", "authConfigs.retrieve", true, apiOrUserKey},
	{"PATCH", "/auth_configs/{nanoid}", "authConfigs.update", true, apiOrUserKey},
	{"PATCH", "/auth_configs/{nanoid}/{status}", "authConfigs.updateStatus", true, apiKey},
	{"POST", "/cli/codact_failures", "cli.createCodactFailure", true, userKey},
	{"POST", "/cli/create-session", "cli.createSession", true, noAuth},
	{"GET", "/cli/get-session", "cli.getSession", true, noAuth},
	{"POST", "/cli/realtime/auth", "cli.realtime.auth", true, userKey},
	{"GET", "/cli/realtime/credentials", "cli.realtime.credentials", true, userKey},
	{"POST", "/connected_accounts", "connectedAccounts.create", true, apiKey},
	{"DELETE", "/connected_accounts/{nanoid}", "connectedAccounts.delete", true, apiOrUserKey},
	{"GET", "/connected_accounts", "connectedAccounts.list", true, apiOrUserKey},
	{"PATCH", "/connected_accounts/{nanoid}", "connectedAccounts.patch", true, apiKey},
	{"POST", "/connected_accounts/{nanoid}/refresh", "connectedAccounts.refresh", true, apiKey},
	{"GET", "/connected_accounts/{nanoid}", "connectedAccounts.retrieve", true, apiOrUserKey},
	{"POST", "/connected_accounts/{nanoid}/revoke", "connectedAccounts.revoke", true, apiKey},
	{"PATCH", "/connected_accounts/{nanoId}/status", "connectedAccounts.updateStatus", true, apiKey},
	{"POST", "/files/upload/request", "files.createPresignedURL", true, apiKey},
	{"GET", "/files/list", "files.list", true, apiKey},
	{"POST", "/connected_accounts/link", "link.create", true, apiOrUserKey},
	{"POST", "/logs/tool_execution", "logs.createToolExecution", true, apiKey},
	{"GET", "/logs/tool_execution/{id}", "logs.retrieveToolExecution", true, apiKey},
	{"POST", "/internal/action_execution/logs", "logs.tools.list", true, apiKey},
	{"GET", "/internal/action_execution/fields", "logs.tools.listFields", true, apiKey},
	{"GET", "/internal/action_execution/log/{id}", "logs.tools.retrieve", true, apiKey},
	{"POST", "/internal/trigger/logs", "logs.triggers.list", true, apiKey},
	{"GET", "/internal/trigger/log/{id}", "logs.triggers.retrieve", true, apiKey},
	{"POST", "/mcp/servers", "mcp.create", true, apiKey},
	{"POST", "/mcp/servers/{serverId}/instances", "mcp.createInstance", true, apiKey},
	{"POST", "/mcp/servers/custom", "mcp.custom.create", true, apiKey},
	{"DELETE", "/mcp/{id}", "mcp.delete", true, apiKey},
	{"DELETE", "/mcp/servers/{serverId}/instances/{instanceId}", "mcp.deleteInstance", true, apiKey},
	{"POST", "/mcp/servers/generate", "mcp.generate.url", true, apiKey},
	{"GET", "/mcp/servers", "mcp.list", true, apiKey},
	{"GET", "/mcp/servers/{serverId}/instances", "mcp.listInstances", true, apiKey},
	{"GET", "/mcp/{id}", "mcp.retrieve", true, apiKey},
	{"GET", "/mcp/app/{appKey}", "mcp.retrieveApp", true, apiKey},
	{"PATCH", "/mcp/{id}", "mcp.update", true, apiKey},
	{"POST", "/org/clanker/create_claim", "org.clanker.createClaim", true, orgKey},
	{"GET", "/org/consumer/connected_toolkits", "org.consumer.listConnectedToolkits", true, userKey},
	{"POST", "/org/consumer/project/resolve", "org.consumer.project.resolve", true, userKey},
	{"GET", "/org/list", "org.list", true, userKey},
	{"POST", "/org/owner/project/new", "org.owner.project.create", true, orgKey},
	{"DELETE", "/org/owner/project/{nano_id}", "org.owner.project.delete", true, orgKey},
	{"GET", "/org/owner/project/list", "org.owner.project.list", true, orgKey},
	{"POST", "/org/owner/project/{nano_id}/regenerate_api_key", "org.owner.project.regenerateAPIKey", true, orgKey},
	{"GET", "/org/owner/project/{nano_id}", "org.owner.project.retrieve", true, orgKey},
	{"GET", "/org/project/list", "org.project.list", true, userKey},
	{"POST", "/org/usage/{entity_type}", "org.usage.retrieve", true, orgKey},
	{"POST", "/org/usage/summary", "org.usage.retrieveSummary", true, orgKey},
	{"POST", "/project/usage/{entity_type}", "project.usage.retrieve", true, apiKey},
	{"POST", "/project/usage/summary", "project.usage.retrieveSummary", true, apiKey},
	{"POST", "/tool_router/session/{session_id}/attach", "toolRouter.session.attach", true, apiKey},
	{"GET", "/tool_router/session/{session_id}/config_history", "toolRouter.session.configHistory", true, apiKey},
	{"POST", "/tool_router/session", "toolRouter.session.create", true, apiKey},
	{"DELETE", "/tool_router/session/{session_id}", "toolRouter.session.delete", true, apiKey},
	{"POST", "/tool_router/session/{session_id}/execute", "toolRouter.session.execute", true, apiKeyOrWorkbench},
	{"POST", "/tool_router/session/{session_id}/execute_meta", "toolRouter.session.executeMeta", true, apiKey},
	{"POST", "/tool_router/session/{session_id}/mounts/{mount_id}/download_url", "toolRouter.session.files.createDownloadURL", true, apiKey},
	{"POST", "/tool_router/session/{session_id}/mounts/{mount_id}/upload_url", "toolRouter.session.files.createUploadURL", true, apiKey},
	{"POST", "/tool_router/session/{session_id}/mounts/{mount_id}/delete", "toolRouter.session.files.delete", true, apiKey},
	{"GET", "/tool_router/session/{session_id}/mounts/{mount_id}/items", "toolRouter.session.files.list", true, apiKey},
	{"POST", "/tool_router/session/{session_id}/link", "toolRouter.session.link", true, apiKey},
	{"PATCH", "/tool_router/session/{session_id}", "toolRouter.session.patch", true, apiKey},
	{"POST", "/tool_router/session/{session_id}/proxy_execute", "toolRouter.session.proxyExecute", true, apiOrUserKey},
	{"GET", "/tool_router/session/{session_id}", "toolRouter.session.retrieve", true, apiKey},
	{"POST", "/tool_router/session/{session_id}/search", "toolRouter.session.search", true, apiKey},
	{"GET", "/tool_router/session/{session_id}/toolkits", "toolRouter.session.toolkits", true, apiKey},
	{"GET", "/tool_router/session/{session_id}/tools", "toolRouter.session.tools", true, apiKey},
	{"GET", "/toolkits", "toolkits.list", true, apiOrUserKey},
	{"GET", "/toolkits/{slug}", "toolkits.retrieve", true, apiOrUserKey},
	{"GET", "/toolkits/categories", "toolkits.retrieveCategories", true, apiKey},
	{"GET", "/toolkits/changelog", "toolkits.retrieveChangelog", true, apiKey},
	{"POST", "/toolkits/multi", "toolkits.retrieveMulti", true, apiKey},
	{"POST", "/tools/execute/{tool_slug}", "tools.execute", true, apiOrUserKey},
	{"POST", "/tools/execute/{tool_slug}/input", "tools.getInput", true, apiKey},
	{"GET", "/tools", "tools.list", true, apiOrUserKey},
	{"POST", "/tools/execute/proxy", "tools.proxy", true, apiKey},
	{"GET", "/tools/{tool_slug}", "tools.retrieve", true, apiOrUserKey},
	{"GET", "/tools/enum", "tools.retrieveEnum", true, apiOrUserKey},
	{"POST", "/tools/scopes/required", "tools.retrieveRequiredScopes", true, apiKey},
	{"GET", "/trigger_instances/active", "triggerInstances.listActive", true, apiOrUserKey},
	{"DELETE", "/trigger_instances/manage/{triggerId}", "triggerInstances.manage.delete", true, apiOrUserKey},
	{"PATCH", "/trigger_instances/manage/{triggerId}", "triggerInstances.manage.update", true, apiOrUserKey},
	{"POST", "/trigger_instances/{slug}/upsert", "triggerInstances.upsert", true, apiOrUserKey},
	{"GET", "/triggers_types", "triggersTypes.list", true, apiOrUserKey},
	{"GET", "/triggers_types/{slug}", "triggersTypes.retrieve", true, apiOrUserKey},
	{"GET", "/triggers_types/list/enum", "triggersTypes.retrieveEnum", true, apiOrUserKey},
	{"POST", "/webhook_endpoints", "webhookEndpoints.create", true, apiKey},
	{"GET", "/webhook_endpoints", "webhookEndpoints.list", true, apiKey},
	{"POST", "/webhook_endpoints/{nano_id}", "webhookEndpoints.replace", true, apiKey},
	{"GET", "/webhook_endpoints/{nano_id}", "webhookEndpoints.retrieve", true, apiKey},
	{"PATCH", "/webhook_endpoints/{nano_id}", "webhookEndpoints.update", true, apiKey},
	{"POST", "/webhook_subscriptions", "webhookSubscriptions.create", true, apiKey},
	{"DELETE", "/webhook_subscriptions/{id}", "webhookSubscriptions.delete", true, apiKey},
	{"GET", "/webhook_subscriptions", "webhookSubscriptions.list", true, apiKey},
	{"GET", "/webhook_subscriptions/event_types", "webhookSubscriptions.listEventTypes", true, apiKey},
	{"GET", "/webhook_subscriptions/{id}", "webhookSubscriptions.retrieve", true, apiKey},
	{"POST", "/webhook_subscriptions/{id}/rotate_secret", "webhookSubscriptions.rotateSecret", true, apiKey},
	{"PATCH", "/webhook_subscriptions/{id}", "webhookSubscriptions.update", true, apiKey},
	// Documented on the service's API reference, not in the client's types.
	{"POST", "/custom/toolkits", "customToolkits.create", false, apiKey},
	{"POST", "/custom/toolkits/upsert", "customToolkits.upsert", false, apiKey},
	{"POST", "/custom/toolkits/sync", "customToolkits.sync", false, apiKey},
	{"PATCH", "/custom/toolkits/{slug}", "customToolkits.update", false, apiKey},
	{"DELETE", "/custom/toolkits/{slug}", "customToolkits.delete", false, apiKey},
	{"GET", "/session_configs", "sessionConfigs.list", false, apiKey},
	{"GET", "/session_configs/{session_config_id}", "sessionConfigs.retrieve", false, apiKey},
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
				Schemes: slices.Clone(sp.schemes),
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
	s.apiOp(ops[i], h)
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
			s.apiOp(op, notEmulated(op.ID))
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
		out[i].Schemes = slices.Clone(out[i].Schemes)
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

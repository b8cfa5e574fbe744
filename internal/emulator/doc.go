// Package emulator is a stateful local emulator of the integration service's
// REST API. It knows nothing of the Terraform provider or the Go client.
//
// # Use
//
//	srv, _ := emulator.New(emulator.Options{})       // memory; key "emulator-key", project "default"
//	ts := httptest.NewServer(srv.Handler())
//	srv.SetBaseURL(ts.URL)                            // origin used in redirect_url / hosted links / MCP URLs
//	defer srv.Close()
//
// # Operations
//
// operations.go holds the operation table: the 104 operations of
// @composio/client 2.0.0-rc.6 (method, path below /api/v3.1, client method,
// resource group) and the custom toolkit routes the service's API reference
// documents but the types lack, each with an ID derived from method and path
// (GET /logs/tool_execution/{id} is getApiV31LogsToolExecutionById). Every
// operation answers: implemented, or 501 with the error envelope
// {"error":{"message":"operation <id> is not emulated","code":10501,
// "slug":"NotImplemented",...}}. Paths outside the table answer the
// envelope 404 "no route for ...". Operations() (and Server.Operations)
// list the table with what is emulated; `service-emulator --operations`
// prints it.
//
// # Layout
//
// One file per resource group of the contract, named after it:
// auth_configs.go, connected_accounts.go (with link), toolkits.go, tools.go,
// triggers_types.go, trigger_instances.go (with manage), tool_router.go
// (toolRouter.session); each has its test beside it. Shared pieces live in
// files named for what they do: lookups.go (project-scoped lookups answering
// the service's 404s), credential_fields.go, managed_auth_config.go,
// hosted_link.go, account_render.go, tool_render.go, tool_execution.go,
// trigger_cascade.go, revocation.go. Infrastructure: server.go (Options, New, Close),
// request.go (auth, rate limit and its headers, JSON in/out), routes.go, errors.go,
// store.go and models.go (bbolt state), catalog.go (catalog types and
// version rules) and catalog_load.go (reading catalogdata/ and CatalogDir),
// webhook_delivery.go (signed V3 webhooks), control.go (/_emulator routes),
// consent.go (OAuth consent and hosted link pages), realtime.go, faults.go,
// pagination.go, schema_validate.go. Group files do not call each other's
// handlers or helpers; what two groups need goes in a neutral file.
//
// # Adding an operation
//
// Put the handlers of a group in its file (a new group gets a new file named
// after it, e.g. webhook_subscriptions.go) with a register function that
// binds them by operation ID, and add that function with registerGroup from
// the file's init, so no shared list needs editing:
//
//	func init() { registerGroup((*Server).registerWebhookSubscriptions) }
//
//	func (s *Server) registerWebhookSubscriptions() {
//		s.handle("postApiV31WebhookSubscriptions", s.createWebhookSubscription)
//		s.handle("getApiV31WebhookSubscriptionsById", s.getWebhookSubscription)
//	}
//
// A handler is func(c *call) (status int, body any, err *apiError): the
// request is c.r, the caller's project c.project; read path parameters by
// the table's names (c.r.PathValue("id")), decode bodies with c.decode, and
// answer errors with newErr/errValidation/errNotFound. s.handle registers
// the route under /api/v3.1 and /api/v3, panics on an ID not in the table or
// bound twice, and the operation stops answering 501. Never edit the table
// to add a handler. TestEveryOperationAnswers walks the table;
// sdkconformance's TestOperationTableMatchesClient checks it against the
// installed client's operation list; test/contract walks that list and
// checks responses against the client's types.
//
// The API is served under /api/v3 and /api/v3.1 (identical).
//
// # Credentials
//
// A request carries exactly one credential header, of a scheme its operation
// accepts (Operation.Schemes, the contract's GENERATED_OPERATIONS schemes):
// x-api-key (ApiKeyAuth, a project key), x-org-api-key (OrgApiKeyAuth, an
// organization key: the /org/owner/project operations) or x-user-api-key
// (UserApiKeyAuth; the emulator has no user keys, so any value answers 401
// "invalid user API key"). Two or more credential headers answer 401 with the
// service's message ("Multiple authentication modes were provided. Provide
// exactly one authentication mode per request. Provided: ApiKeyAuth via
// x-api-key, OrgApiKeyAuth via x-org-api-key."); a credential the operation
// does not take answers 401 naming the one it takes ("This operation requires
// an organization API key in the x-org-api-key header. ..."); a missing or
// unknown key answers 401. no_auth operations need none. Control routes take
// a project key. Each project key belongs to a project; objects of other
// projects answer 404 and never appear in lists.
//
// Organizations come from Options.OrgAPIKeys (--org-api-key ORG=KEY; default
// one organization "default" with key DefaultOrgAPIKey, emulator-org-key).
// Projects are persisted objects: the projects of Options.APIKeys
// (--api-key) get a record in the first organization (sorted by id) at every
// start, keep their name as data scope and hold their configured keys; a
// project created with POST /org/owner/project/new uses its id as data scope
// and gets a new key that works at once. Names are unique among an
// organization's live projects (409). DELETE /org/owner/project/{nano_id}
// soft-deletes: every key of the project answers 401 at once and the name is
// free. POST .../regenerate_api_key replaces every key of the project (the
// configured ones too, also after a restart) with one new key.
//
// # Responses
//
// Always application/json (never 204). Creates answer 201 (auth configs,
// connected accounts, links, tool-router sessions); trigger upserts answer 200.
// Errors: {"error":{"message","code","slug","status","request_id","suggested_fix","errors"?}};
// see the Code* constants for the numeric codes. Lists take limit and an opaque
// base64 cursor and answer {items, next_cursor (null on the last page),
// total_pages, current_page, total_items}. Pages hold 20 items by default;
// a larger limit is served up to the route's maximum (1000; 50 for trigger
// instances), except on GET /auth_configs (at most 200 since the service's
// change of 2026-09-21) and the project list (at most 50), which answer
// 400 naming limit beyond it. List query arrays accept both
// comma-joined and repeated parameters; toolkit_versions accepts "latest",
// a version, or toolkit_versions[slug]=version.
//
// Every API response carries X-RateLimit (10000), X-RateLimit-Remaining (per
// organization, a fixed one-minute window started by the organization's
// first request after the previous one ended; an unknown key counts on its
// own) and X-RateLimit-Window-Size ("60s"); the emulator limits only under
// the ratelimit fault (see Faults).
//
// # Rules
//
//   - Custom auth config credentials must contain the toolkit's required
//     auth_config_creation fields for the scheme and nothing unknown (400
//     naming the field). Service-managed auth configs accept only
//     scopes/user_scopes and need a toolkit with a managed scheme (400
//     otherwise, e.g. stripe). Secret credential fields are answered as "********".
//   - Connected accounts on API_KEY, BASIC and BEARER_TOKEN are ACTIVE at once
//     when state.val holds the required connected_account_initiation fields
//     (400 naming a missing or unknown field). OAuth accounts start INITIATED
//     with redirect_url pointing at the consent page (/oauth/consent/{token});
//     hosted links (POST /connected_accounts/link) point at /link/{lt_token}.
//   - state.val.status stays within the states the contract gives the
//     scheme (API_KEY, BASIC, BEARER_TOKEN and the service-account schemes
//     have no FAILED or EXPIRED): an account whose status the scheme lacks,
//     or whose val misses that state's required fields, reads INACTIVE there
//     when val fits it, else INITIALIZING (e.g. an OAuth account that never
//     got a token and lost its auth config). The top-level status is the
//     account's own. Accounts carry experimental.account_type PRIVATE; the
//     list's account_type (PRIVATE default, SHARED, ALL) filters on it.
//   - shared_credentials on auth config create/update are fields of the
//     scheme's connected_account_initiation (400 otherwise); they are answered
//     (secrets masked) and fill the fields a new account leaves out.
//   - PATCH /auth_configs/{id}/{status} takes exactly ENABLED or DISABLED.
//   - Disabled auth configs refuse new connections (400). Deleting an auth
//     config keeps its connected accounts readable but stops them: status
//     INACTIVE, status_reason "auth config <id> was deleted",
//     auth_config.is_disabled true; refresh, enable, PATCH, trigger upserts and
//     tool execution on them are refused. Deleting a connected account deletes
//     its trigger instances. Both deletes take revoke_on_delete: true answers
//     a revoke_job_id, revokes the credentials (logged in the stats'
//     "revocations") and the auth config's accounts become REVOKED with
//     their credentials dropped (INACTIVE for a toolkit that cannot revoke).
//   - POST /connected_accounts/{id}/revoke (no body) revokes an ACTIVE
//     account, API-key and other credential accounts included: it becomes
//     REVOKED (status_reason "Revoked via user-initiated revoke endpoint"),
//     its credentials are dropped (state.val no longer serves them; only
//     non-secret connection fields such as a subdomain stay) and the answer
//     is {revoked_tokens: [access_token, refresh_token] for OAuth, [credential]
//     otherwise, connected_account: {id, status}}. An account already
//     REVOKED answers 200 with no tokens; any other status 409
//     ConnectedAccount_NotRevokable (x-should-retry: false); 404 for an
//     unknown account; 400 ConnectedAccount_RevokeNotSupported for a toolkit
//     whose catalog file says revoke_unsupported (built in: mailchimp).
//   - An alias (connection.alias on create, alias on the hosted link and the
//     session link, PATCH /connected_accounts/{id} {"alias"}) is unique per
//     user and toolkit within the project: another account of the same user
//     on the same toolkit (through any auth config) having it answers 409
//     ConnectedAccount_AliasAlreadyExists (code 604), nothing changed. The
//     rule is the service's documented one; its status and body are not
//     documented, and the emulator's answer does not name the other account.
//     "" clears the alias (it reads null).
//   - A callback URL (connection.callback_url and its deprecated
//     connection.redirect_uri on POST /connected_accounts, callback_url on
//     POST /connected_accounts/link and POST /tool_router/session/{id}/link,
//     manage_connections.callback_url on POST /tool_router/session,
//     redirect_url on POST /connected_accounts/{id}/refresh) must be https,
//     or http to a loopback host (localhost, 127.0.0.0/8, [::1]): anything
//     else (javascript:, data:, plain http elsewhere) answers 400 naming the
//     field. The consent and hosted link pages redirect (303) only to such
//     a URL; without one they show the result page.
//   - Custom toolkits (custom_toolkits.go): the MCP server URL is
//     toolkit_config.mcp_url (app_url, its old name, is still accepted; both
//     answer 400), reported as meta.mcp_url and meta.app_url; slugs of at
//     most 30 characters; PATCH changes only the name (409 for another
//     mcp_url, auth_schemes, user_id or description).
//   - PATCH /connected_accounts/{id}/status {"enabled":false,"reason":"..."}
//     sets is_disabled and status_reason (status unchanged); enabling clears the reason.
//   - Trigger upsert validates trigger_config against the type's config JSON
//     Schema for the requested toolkit version (type, properties, required,
//     additionalProperties, enum, minimum, maximum, items) and needs an ACTIVE,
//     enabled connected account of the trigger's toolkit. Upserting the same
//     type with an identical config on the same account returns the existing
//     instance; otherwise a new one (200 either way). Manage PATCH answers 409 when
//     already in the requested state (with x-should-retry: false).
//     Disabled instances are hidden from /trigger_instances/active unless show_disabled=true.
//     /trigger_instances/active also takes the deprecated
//     deprecated_connected_account_uuids / deprecated_auth_config_uuids
//     filters (and camelCase aliases) and the legacy 1-based page parameter.
//     Deleted instances (also those removed with their connected account)
//     leave a tombstone: DELETE again answers 409 "already deleted" and
//     manage PATCH answers 410; ids never seen answer 404.
//   - GET /tools?auth_config_ids=... lists only tools of those auth configs'
//     toolkits (only the tools_available_for_execution when an auth config
//     restricts them); an unknown auth config answers 404. important=true
//     keeps the tools tagged "important" (all tools of a toolkit that tags
//     none), scopes those needing one of the scopes. Tools answer scope_requirements {all_of: scopes} or null.
//   - POST /tools/execute/proxy (proxyExecute, custom tools' executeToolRequest)
//     sends nothing out: it checks endpoint, method, parameters and the
//     connected account (ACTIVE, enabled) and answers {status: 200, data:
//     {emulated, method, url (toolkit base URL + endpoint), query, headers,
//     body}, headers}.
//   - Tool-router session create echoes preload ({tools: [slugs] | "all"},
//     [] by default; "all" needs toolkits, tools or tags to enable), search
//     and execute in config. tags (and per-toolkit tools rules' tags) are the
//     four annotation hints, workbench.sandbox_size standard|medium|large|
//     xlarge (400 otherwise); tools rules answer as {enabled}|{disabled}|
//     {tags:{enabled,disabled}}. An experimental block answers experimental
//     (custom tools and toolkits with original_slug, assistive_prompt);
//     preloading 20 or more tools adds a PRELOAD_TOOLS_HIGH_CONTEXT_USAGE
//     warning. GET /tool_router/session/{id}/tools (session.tools()) answers a
//     page of the session's meta tools (COMPOSIO_SEARCH_TOOLS, ...) followed by
//     its preloaded app tools as Tool objects. DELETE /tool_router/session/{id}
//     answers {session_id, deleted: true}. Session routes answer 400 for ids
//     not in trs_ form and 404 for other projects' sessions.
//   - POST /tool_router/session/{id}/link (session.authorize) {toolkit,
//     callback_url?, alias?} answers 201 {link_token, redirect_url,
//     connected_account_id}: an INITIATED account for the session user on the
//     hosted link page, as POST /connected_accounts/link makes. The auth
//     config is the session config's auth_configs entry, else the project's
//     first enabled one for the toolkit, else a new service-managed "<Toolkit>
//     Auth Config" (400 when the toolkit has no managed scheme). The callback
//     defaults to manage_connections.callback_url. Toolkits the session
//     disables or does not enable answer 400.
//   - GET /tool_router/session/{id}/toolkits (session.toolkits()) pages the
//     session's toolkits (its enabled list, else every catalog toolkit not
//     disabled; query toolkits overrides, is_connected and search filter) as
//     {slug, name, enabled, is_no_auth, composio_managed_auth_schemes,
//     meta{logo, description}, connected_account{id, user_id, status,
//     created_at, auth_config{id, auth_scheme, is_composio_managed}} | null}.
//     The account is the config's connected_accounts entry, else the session
//     user's newest ACTIVE account, else their newest of any status.
//   - POST /tool_router/session/{id}/execute (session.execute) {tool_slug,
//     arguments, account?} answers {data, error, log_id}, run as POST
//     /tools/execute does (404 unknown tool; invalid arguments are a 200 with
//     error) on the account named by account (id or alias of the user's
//     accounts on the toolkit, 400 otherwise; not ACTIVE is a 200 with
//     error), else the one session.toolkits() shows, 400 when that is not
//     ACTIVE and enabled. Meta tools (COMPOSIO_*) answer a canned result.
//   - Versions are YYYYMMDD_NN with a real date, or "latest" (400 otherwise);
//     each toolkit lists its versions (every built-in one has VersionOld and
//     VersionLatest); other well-formed versions answer 400 "has no version".
//
// # Catalog
//
// The catalog is loaded at start from JSON files: the built-in ones embedded
// from catalogdata/ (categories.json and one file per toolkit with its
// metadata, auth schemes and credential fields, versions, tools and trigger
// types), then Options.CatalogDir (service-emulator --catalog DIR), whose
// files add toolkits or replace the built-in toolkit of the same slug
// (catalog_load.go; the format is in CONTRIBUTING.md's emulator section and
// examples/emulator-catalog). A toolkit's webhook_endpoint_setup
// {required, optional} lists its webhook endpoint setup fields (string
// fields as in auth_schemes, "secret" ones masked); built in: slack
// (signing_secret required and secret, app_id), notion (verification_token
// required and secret), discord (public_key required, application_id). A
// toolkit's revoke_unsupported (true) makes the revoke operation answer 400
// for its accounts (built in: mailchimp). New fails with an error naming the file and
// the field (e.g. "github.json: tools[1].slug: ...") on a bad file.
//
// Realtime: GET /api/v3/internal/sdk/realtime/credentials answers
// {pusher_key, project_id, pusher_cluster}; POST
// /api/v3/internal/sdk/realtime/auth (form socket_id, channel_name) signs the
// project's private-<project>_triggers channel as Pusher expects (403 for
// other channels). No Pusher socket server is emulated.
//
// # Control routes (same x-api-key, project-scoped, never faulted)
//
//	POST   /_emulator/connected_accounts/{id}/complete|fail|expire   body {"reason"?}; answers the account
//	POST   /_emulator/trigger_instances/{id}/fire                    body = event data; delivered to the project's subscription
//	GET    /_emulator/stats     {"requests":{"GET /api/v3.1/auth_configs/{nanoid}":n,...},"writes":n,
//	                             "webhooks":{"delivered","failed","attempts","deliveries":[{webhook_id, project,
//	                             subscription_id, event_type, version, url, attempts, state, last_status, ...}]},
//	                             "revocations":[{project, connected_account_id, auth_config_id, toolkit,
//	                             via ("revoke", "delete", "auth_config_delete"), revoked_tokens, revoke_job_id?, at}],
//	                             "throttled":n,"throttled_requests":{"<route>":n}}  (the ratelimit fault's 429s)
//	DELETE /_emulator/stats     reset counters (and the revocation log)
//	PUT    /_emulator/faults    body: spec text (or {"spec":...}); empty clears; GET shows it
//	PUT    /_emulator/webhook   body {"url","secret"?}: points the project's subscription at url (creates a V3
//	                            composio.trigger.message subscription when the project has none)
//
// Stats keys are "<METHOD> <route pattern>" with the version prefix as
// registered (e.g. "GET /api/v3.1/toolkits/{slug}", "PATCH
// /api/v3/trigger_instances/manage/{triggerId}"); writes counts successful
// (2xx) POST/PATCH/PUT/DELETE requests on API routes.
//
// # Faults
//
// A spec like "status=429:0.1,status=503:0.1,latency=20ms,reset=0.02" is
// applied to API routes before handling: status=CODE:P answers CODE with
// probability P (429 carries Retry-After: 1), latency delays every request,
// reset=P drops the connection. A 5xx carries Retry-After: 0, a 503 half of
// the time Retry-After-Ms: 0 instead. seed=N seeds the random choices: the
// same seed makes the same choices for the same sequence of requests, so a
// failing run can be replayed; without it a seed is picked. The seed is
// logged ("faults set") and shown by GET /_emulator/faults ({"faults",
// "seed"}). crash-after-commit=METHOD:/route[:N] (e.g.
// POST:/auth_configs) lets the Nth successful request to the route commit and
// then crashes before answering: the command kills itself with SIGKILL
// (restart it on the same --data file), a Server without Options.Crash drops
// the connection.
//
// ratelimit=N/min gives each organization N API requests per window (the
// fixed one-minute window of the X-RateLimit headers, which then say N):
// a request beyond N is answered at once, before any other fault and before
// authentication, with 429, Retry-After (the whole seconds until the window
// ends: a request sent then passes), the X-RateLimit headers and the
// service's documented body {"message": "Rate limit exceeded. Limit: N
// requests per 1 minutes"}. Throttled requests count in the window and in
// the stats' requests, and separately in "throttled". ratelimit-headers=off
// in the same spec removes the X-RateLimit headers from every API response
// and Retry-After from the 429 (users of the service report 429s carrying no
// header). Control routes are never counted or throttled; setting faults
// (PUT /_emulator/faults) starts every window afresh.
//
// # Webhooks
//
// Webhook subscriptions (/webhook_subscriptions, one per project: a second
// POST answers 409) carry webhook_url (https, or http to a loopback host),
// enabled_events (see GET /webhook_subscriptions/event_types:
// composio.trigger.message in V1/V2/V3; composio.connected_account.expired
// and composio.trigger.disabled in V3 only), version (default V3) and a
// generated secret (rotate_secret replaces it). Events go to the project's
// subscription when it enables them: fired triggers (trigger message),
// the expire control route (account expired) and disabling a trigger
// instance (trigger disabled). Trigger message bodies by version:
//
//	V3 {id (= webhook-id), timestamp, type: "composio.trigger.message", metadata{log_id, trigger_slug,
//	   trigger_id, connected_account_id, auth_config_id, user_id}, data}
//	V2 {type: lower-case trigger slug, timestamp, log_id, data{connection_id (account uuid),
//	   connection_nano_id, trigger_id (instance uuid), trigger_nano_id, user_id, ...event}}
//	V1 {trigger_name, connection_id, trigger_id, payload, log_id}
//
// Each attempt carries webhook-id, webhook-timestamp (Unix seconds),
// webhook-signature "v1,<base64 HMAC-SHA256(secret bytes, id.timestamp.body)>"
// (see SignWebhook), x-composio-webhook-version and
// x-composio-delivery-attempt; non-2xx answers and network errors are
// retried with exponential backoff. Options.WebhookURL (--webhook-url)
// creates or repoints each project's subscription at start.
//
// # Webhook endpoints
//
// Webhook endpoints (/webhook_endpoints, webhook_endpoints.go) are the
// inbound side: the URL the service issues for a toolkit's OAuth app, which
// the developer registers with the upstream provider (Slack Event
// Subscriptions, Notion integration webhooks, Discord interactions). They
// exist for toolkits whose catalog file has webhook_endpoint_setup; those
// toolkits' webhook trigger types answer requires_webhook_endpoint_setup
// true (false for every other trigger type).
//
//	POST  /webhook_endpoints {toolkit_slug, client_id}  201 new endpoint; 200 the project's endpoint of the
//	                              same toolkit and client_id; 400 when the toolkit needs none, 404 unknown toolkit
//	GET   /webhook_endpoints[?toolkit_slug=]  {items:[{id, toolkit_slug, client_id}]} (the project's, oldest first)
//	GET   /webhook_endpoints/{nano_id}        the endpoint
//	POST  /webhook_endpoints/{nano_id} {data} replace: every required setup field, no unknown one
//	PATCH /webhook_endpoints/{nano_id} {data} merge: omitted fields kept, "" clears an optional one
//
// An endpoint is {id "we_...", toolkit_slug, client_id, webhook_url, data
// (null until configured; secret setup fields "********"), created_at};
// webhook_url is the emulator's origin + /webhook_ingress/{id}. POST
// /webhook_ingress/{id} is what the provider calls: no API key, any body,
// 200 {"ok":true} ({"challenge"} for Slack's url_verification, {"type":1} for
// Discord's PING), the 404 envelope for an unknown endpoint; calls are
// counted in the stats under "POST /webhook_ingress/{id}". Events received
// there fire no trigger (use the fire control route).
//
// # Persistence
//
// With Options.DataPath the state lives in a bbolt file: each write is one
// fsync'd transaction completed before the response, so acknowledged writes
// survive kill -9. Without it everything is in memory.
package emulator

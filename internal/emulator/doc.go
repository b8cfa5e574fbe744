// Package emulator is a stateful local emulator of the integration service's
// REST API, served by cmd/service-emulator. It knows nothing of the Terraform
// provider or the Go client.
//
// What it serves and how it answers (operations, keys, rules, control routes,
// stats, faults, webhooks, persistence, the catalog format) is described in
// one place, the reference guide docs/guides/emulator.md, generated from
// templates/guides/emulator.md.tmpl: keep it in step when changing what the
// emulator answers. This comment is for changing the code.
//
// # Use
//
//	srv, _ := emulator.New(emulator.Options{})       // memory; key "emulator-key", project "default"
//	ts := httptest.NewServer(srv.Handler())
//	srv.SetBaseURL(ts.URL)                            // origin used in redirect_url / hosted links / MCP URLs
//	defer srv.Close()
//
// The command's flags map onto Options: --data DataPath, --api-key APIKeys,
// --org-api-key OrgAPIKeys, --faults Faults, --webhook-url and
// --webhook-secret WebhookURL and WebhookSecret, --catalog CatalogDir; the
// command sets Crash (the crash-after-commit fault kills the process), and a
// Server without it drops the connection instead.
//
// # Layout
//
// operations.go holds the operation table (Operations, Server.Operations).
// One file per resource group of the contract, named after it
// (auth_configs.go, connected_accounts.go, ...), holds that group's handlers,
// with its test beside it: the files whose init calls registerGroup. Shared
// pieces live in files named for what they do (lookups.go, credential_fields.go,
// account_render.go, ...), infrastructure in server.go (Options, New, Close),
// request.go (auth, rate limit, JSON in/out), routes.go, errors.go, store.go
// and models.go (bbolt state), catalog.go and catalog_load.go, control.go
// (/_emulator routes), webhook_delivery.go, faults.go. Group files do not
// call each other's handlers or helpers; what two groups need goes in a
// neutral file.
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
//		s.handle("postApiV31WebhookSubscriptions", s.createWebhookSub)
//		s.handle("getApiV31WebhookSubscriptionsById", s.getWebhookSub)
//	}
//
// A handler is a handlerFunc, func(c *call) (status int, body any, err
// *apiError): the request is c.r, the caller's project c.project; read path
// parameters by the table's names (c.r.PathValue("id")), decode bodies with
// c.decode, and answer errors with newErr/errValidation/errNotFound (the
// Code* constants are the numeric codes). s.handle registers the route
// under /api/v3.1 and /api/v3, panics on an ID not in the table or bound
// twice, and the operation stops answering 501. Never edit the table to add
// a handler. TestEveryOperationAnswers walks the table; sdkconformance's
// TestOperationTableMatchesClient checks it against the installed client's
// operation list; test/contract walks that list and checks responses
// against the client's types.
package emulator

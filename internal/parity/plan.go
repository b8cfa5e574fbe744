package parity

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// The read plan: every read operation the provider uses (the test
// TestPlanCoversEveryProviderRead derives them from the code of
// internal/client and internal/provider and fails when one is missing here,
// or when the decode types below are not the client's), with what the
// client decodes its answer into and how the check reads it. Methods and
// paths come from the emulator's operation table; lists are read before
// the reads of one object, whose ids come from the list answers of the same
// side.

type paging int

const (
	pagingNone     paging = iota // one answer (a bare list or an object)
	pagingCursor                 // limit, cursor, next_cursor
	pagingNumbered               // limit, page_no, total_pages
)

type readOp struct {
	// id is the operation's id in the emulator's operation table.
	id string
	// decodes are the types the client decodes the answer into (a list
	// read in two ways names both).
	decodes []reflect.Type
	// org marks an organization route (x-org-api-key).
	org    bool
	paging paging
	// queries are the list reads to send, as the provider sends them; they
	// may use what the same side answered earlier (nil: one read, no query).
	queries func(r *sideReads) []url.Values
	// then are list reads that use the answers to queries.
	then func(r *sideReads) []url.Values
	// from and key: for the read of one object, the list operation whose
	// items name the objects and the member naming them.
	from, key string
	// missing is the id of the missing-object read when the side listed
	// no object to model one on.
	missing string
	// kindOnly are the members only some kinds of object carry: absent on
	// a side that held no object of that kind, they are not compared.
	kindOnly []kindOnly
	// unlisted says why no list names the objects of a read of one object
	// (the service lists no tool-router sessions): only its missing-object
	// read is sent.
	unlisted string
}

// kindOnly is a member (path) only objects of one kind carry: those whose
// discriminator (an enum member, enumKeys) has value.
type kindOnly struct {
	path, discriminator, value, what string
}

// kindRule is the rule for path, or nil.
func (op readOp) kindRule(path string) *kindOnly {
	for i := range op.kindOnly {
		if op.kindOnly[i].path == path {
			return &op.kindOnly[i]
		}
	}
	return nil
}

// holds reports whether s held an object of the rule's kind. A recording
// keeps no enum value, so a recorded side cannot say: it counts as holding
// none.
func (k *kindOnly) holds(s *Shape) bool {
	f := s.Fields[k.discriminator]
	return f != nil && f.Enum[k.value]
}

// customToolkitOnly: what only a project's custom toolkits carry (a catalog
// toolkit has no MCP server, nor an access setting).
func customToolkitOnly(prefix string) []kindOnly {
	const what = "custom toolkits"
	return []kindOnly{
		{path: prefix + "meta.mcp_url", discriminator: prefix + "type", value: "custom", what: what},
		{path: prefix + "access", discriminator: prefix + "type", value: "custom", what: what},
	}
}

// sessionsUnlisted: the service has no operation listing tool-router sessions.
const sessionsUnlisted = "the service lists no tool-router sessions"

// limitAboveMax is the page size of the limit probe: above every maximum
// the service documents (1000).
const limitAboveMax = 1001

// idsPerList is how many objects of each list answer are read by id.
const idsPerList = 2

func cursorOf[T any]() reflect.Type   { return client.CursorPageType[T]() }
func numberedOf[T any]() reflect.Type { return client.NumberedPageType[T]() }
func typeOf[T any]() reflect.Type     { return reflect.TypeFor[T]() }

func one(q url.Values) func(*sideReads) []url.Values {
	return func(*sideReads) []url.Values { return []url.Values{q} }
}

var readPlan = []readOp{
	{id: "getApiV31AuthConfigs", decodes: []reflect.Type{cursorOf[client.AuthConfig]()}, paging: pagingCursor,
		queries: one(url.Values{"show_disabled": {"true"}})},
	{id: "getApiV31AuthConfigsByNanoid", decodes: []reflect.Type{typeOf[client.AuthConfig]()},
		from: "getApiV31AuthConfigs", key: "id", missing: "ac_000000000000"},
	{id: "getApiV31ConnectedAccounts", decodes: []reflect.Type{cursorOf[client.ConnectedAccount]()}, paging: pagingCursor},
	{id: "getApiV31ConnectedAccountsByNanoid", decodes: []reflect.Type{typeOf[client.ConnectedAccount]()},
		from: "getApiV31ConnectedAccounts", key: "id", missing: "ca_000000000000"},
	{id: "getApiV31McpServers", decodes: []reflect.Type{numberedOf[client.MCPServer]()}, paging: pagingNumbered,
		queries: one(url.Values{"page_no": {"1"}})},
	{id: "getApiV31McpById", decodes: []reflect.Type{typeOf[client.MCPServer]()},
		from: "getApiV31McpServers", key: "id", missing: "00000000-0000-4000-8000-000000000000"},
	{id: "getApiV31OrgOwnerProjectList", decodes: []reflect.Type{cursorOf[client.Project]()}, org: true, paging: pagingCursor,
		queries: one(url.Values{"limit": {"50"}})},
	{id: "getApiV31OrgOwnerProjectByNanoId", decodes: []reflect.Type{typeOf[client.Project]()}, org: true,
		from: "getApiV31OrgOwnerProjectList", key: "id", missing: "pr_000000000000"},
	{id: "getApiV31SessionConfigs", decodes: []reflect.Type{cursorOf[client.SessionConfigSummary]()}, paging: pagingCursor},
	{id: "getApiV31SessionConfigsBySessionConfigId", decodes: []reflect.Type{typeOf[client.SavedSessionConfig]()},
		from: "getApiV31SessionConfigs", key: "id", missing: "sc_000000000000"},
	{id: "getApiV31ToolRouterSessionBySessionId", decodes: []reflect.Type{typeOf[client.ToolRouterSession]()},
		missing: "trs_000000000000", unlisted: sessionsUnlisted},
	{id: "getApiV31ToolRouterSessionBySessionIdConfigHistory", decodes: []reflect.Type{cursorOf[client.SessionConfigVersion]()},
		missing: "trs_000000000000", unlisted: sessionsUnlisted},
	{id: "getApiV31Toolkits", decodes: []reflect.Type{cursorOf[client.ToolkitSummary]()}, paging: pagingCursor,
		queries:  func(*sideReads) []url.Values { return []url.Values{{}, {"type": {"custom"}}} },
		kindOnly: customToolkitOnly("items[].")},
	{id: "getApiV31ToolkitsBySlug", decodes: []reflect.Type{typeOf[client.Toolkit]()},
		from: "getApiV31Toolkits", key: "slug", missing: "parity_missing_toolkit", kindOnly: customToolkitOnly("")},
	{id: "getApiV31ToolkitsCategories", decodes: []reflect.Type{typeOf[json.RawMessage](), cursorOf[client.Category]()}},
	{id: "getApiV31Tools", decodes: []reflect.Type{cursorOf[client.Tool]()}, paging: pagingCursor,
		queries: func(r *sideReads) []url.Values {
			q := url.Values{}
			if slugs := r.values("getApiV31Toolkits", "slug", 1); len(slugs) > 0 {
				q.Set("toolkit_slug", slugs[0])
			}
			return []url.Values{q}
		}},
	{id: "getApiV31TriggerInstancesActive", decodes: []reflect.Type{cursorOf[client.TriggerInstance]()}, paging: pagingCursor,
		queries: one(url.Values{"show_disabled": {"true"}}),
		// the provider reads one instance this way (GetTriggerInstance)
		then: func(r *sideReads) []url.Values {
			if ids := r.values("getApiV31TriggerInstancesActive", "id", 1); len(ids) > 0 {
				return []url.Values{{"trigger_ids": {ids[0]}, "show_disabled": {"true"}}}
			}
			return nil
		}},
	{id: "getApiV31TriggersTypes", decodes: []reflect.Type{cursorOf[client.TriggerType]()}, paging: pagingCursor,
		queries: func(r *sideReads) []url.Values {
			q := url.Values{}
			if slugs := r.values("getApiV31Toolkits", "slug", 5); len(slugs) > 0 {
				q.Set("toolkit_slugs", strings.Join(slugs, ","))
			}
			return []url.Values{q}
		}},
	{id: "getApiV31TriggersTypesBySlug", decodes: []reflect.Type{typeOf[client.TriggerType]()},
		from: "getApiV31TriggersTypes", key: "slug", missing: "PARITY_MISSING_TRIGGER"},
	{id: "getApiV31WebhookEndpoints", decodes: []reflect.Type{typeOf[struct {
		Items []client.WebhookEndpointSummary `json:"items"`
	}]()}},
	{id: "getApiV31WebhookEndpointsByNanoId", decodes: []reflect.Type{typeOf[client.WebhookEndpoint]()},
		from: "getApiV31WebhookEndpoints", key: "id", missing: "we_000000000000"},
	{id: "getApiV31WebhookSubscriptions", decodes: []reflect.Type{cursorOf[client.WebhookSubscription]()}, paging: pagingCursor},
	{id: "getApiV31WebhookSubscriptionsById", decodes: []reflect.Type{typeOf[client.WebhookSubscription]()},
		from: "getApiV31WebhookSubscriptions", key: "id", missing: "whs_000000000000"},
	{id: "getApiV31WebhookSubscriptionsEventTypes", decodes: []reflect.Type{typeOf[struct {
		Items []client.WebhookEventType `json:"items"`
	}]()}},
}

func (op readOp) byID() bool { return op.from != "" || op.unlisted != "" }
